/* whiten.c: the whitening of a Gram matrix on its numerical range, shared by the deterministic algorithm and the spectral error metric. */
#include "as_internal.h"
#include <float.h>

static double as_absmax(int64_t len, const double *x)
{
    double m = 0;
    int64_t i;
    for (i = 0; i < len; i++) m = fmax(m, fabs(x[i]));
    return m;
}

int as_whiten_null(int64_t n, double *G, double **W, int64_t *rank, double **null, double *lmax,
                   as_common *c)
{
    double *lam = as_malloc(c, (size_t)n, sizeof(double));
    double *V = as_malloc(c, (size_t)(n * n), sizeof(double));
    int64_t r = 0, a, i;
    double tol, gabs = as_absmax(n * n, G);
    *W = NULL;
    *rank = 0;
    if (null) *null = NULL;
    if (!lam || !V || as_syev((int)n, G, lam, V, c) != AS_OK) goto done;
    if (!(fabs(lam[n - 1]) <= DBL_MAX) || !(fabs(lam[0]) <= DBL_MAX)) {
        /* X X' is finite entry by entry but its largest eigenvalue (up to n times
           its largest entry) is not: the whitening would find rank 0 */
        as_error(c, AS_ERR_TOOBIG, "the largest eigenvalue of X X' overflows (X X' has entries up to %g, "
                 "n = %lld rows): scale X down", gabs, (long long)n);
        goto done;
    }
    tol = (double)n * 16.0 * DBL_EPSILON * fabs(lam[n - 1]);
    for (a = n - 1; a >= 0 && lam[a] > tol; a--) r++;
    *rank = r;
    if (lmax) *lmax = lam[n - 1];
    if (null && r < n) {
        /* the eigenvectors of the eigenvalues at or below the cut, in V's first columns */
        *null = as_malloc(c, (size_t)(n - r), (size_t)n * sizeof(double));
        if (!*null) goto done;
        memcpy(*null, V, sizeof(double) * (size_t)(n - r) * (size_t)n);
    }
    if (r == 0) goto done;
    *W = as_malloc(c, (size_t)(r * n), sizeof(double));
    if (!*W) goto done;
    for (i = 0; i < r; i++) {
        double sc = 1.0 / sqrt(lam[n - r + i]);
        const double *vi = V + (n - r + i) * n;
        for (a = 0; a < n; a++) (*W)[i + a * r] = sc * vi[a];
    }
done:
    as_free(c, lam);
    as_free(c, V);
    return c->status;
}

int as_whiten(int64_t n, double *G, double **W, int64_t *rank, as_common *c)
{
    return as_whiten_null(n, G, W, rank, NULL, NULL, c);
}
