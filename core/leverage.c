/* leverage.c: leverage scores of the columns of X, exact or from a sparse embedding + QR + JL. */
#include "as_internal.h"
#include <float.h>

/* Columns per parallel chunk between interrupt checks. */
#define AS_CHUNK 16384

int64_t as_default_s1(int64_t n) { return 4 * n + 16; }

int64_t as_default_s2(int64_t d, double delta)
{
    return (int64_t)ceil(8.0 * log((double)d / delta));
}

/* M' = S1 X' (n x s1): column j of X goes, times +-1/sqrt(s), to one row of
   each of the s blocks of S1. Thread t owns a band of rows of M, so each
   entry is summed in column order whatever the thread count. */
static int as_embed(const as_matrix *X, int64_t s1, int64_t s, uint64_t seed,
                    double *MT, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j0;
    double scale = 1.0 / sqrt((double)s);
    int nt = as_threads(c);
    for (j0 = 0; j0 < d; j0 += AS_CHUNK) {
        int64_t j1 = j0 + AS_CHUNK < d ? j0 + AS_CHUNK : d;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
        {
            int tid = 0, ntid = 1;
            int64_t lo, hi, j, b;
#ifdef _OPENMP
            tid = omp_get_thread_num();
            ntid = omp_get_num_threads();
#endif
            lo = s1 * tid / ntid;
            hi = s1 * (tid + 1) / ntid;
            for (j = j0; j < j1; j++) {
                for (b = 0; b < s; b++) {
                    int64_t blo = s1 * b / s, bhi = s1 * (b + 1) / s, h;
                    uint64_t z = as_rng_u64(seed, AS_STREAM_OSNAP, (uint64_t)(j * s + b));
                    double sg;
                    if (bhi <= lo || blo >= hi) continue;
                    h = blo + (int64_t)((z >> 1) % (uint64_t)(bhi - blo));
                    if (h < lo || h >= hi) continue;
                    sg = (z & 1) ? scale : -scale;
                    {
                        double *col = MT + h * n;
                        AS_FOR_COL(X, j, row, v, { col[row] += sg * v; });
                    }
                }
            }
        }
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* The prime of the 4-wise independent family below. */
#define AS_AMS_P 2147483647ULL

/* One sign of a 4-wise independent family: a random cubic over GF(2^31 - 1),
   evaluated at a (< 2^31), its parity as the sign (bias 1 / P). */
static double as_ams_sign(const uint64_t coef[4], uint64_t a)
{
    uint64_t acc = 0;
    int t;
    for (t = 3; t >= 0; t--) acc = (acc * a + coef[t]) % AS_AMS_P;
    return (acc & 1) ? 1.0 : -1.0;
}

/* scores[j] = || x_j' N ||^2 with NT = N' (q x n). */
static int as_scores(const as_matrix *X, const double *NT, int64_t q, double *scores,
                     as_common *c)
{
    int64_t d = X->ncol, n = X->nrow, j0;
    int nt = as_threads(c);
    if (X->kind == AS_DENSE) {
        /* blocks of columns through dgemm: T = N' X(:, block) */
        int qi = (int)q, ni = (int)n, nb, ldx = (int)X->ld;
        double one = 1.0, zero = 0.0;
        double *T = as_malloc(c, (size_t)q * 1024, sizeof(double));
        if (!T) return c->status;
        for (j0 = 0; j0 < d; j0 += 1024) {
            int64_t t;
            nb = (int)(d - j0 < 1024 ? d - j0 : 1024);
            dgemm_("N", "N", &qi, &nb, &ni, &one, NT, &qi, X->x + j0 * X->ld, &ldx,
                   &zero, T, &qi, 1, 1);
            for (t = 0; t < nb; t++) {
                double s = 0;
                int64_t a;
                for (a = 0; a < q; a++) s += T[a + t * q] * T[a + t * q];
                scores[j0 + t] = s;
            }
            if ((j0 / 1024) % 16 == 15 && as_interrupted(c)) break;
        }
        as_free(c, T);
        return c->status;
    }
    for (j0 = 0; j0 < d; j0 += AS_CHUNK) {
        int64_t j1 = j0 + AS_CHUNK < d ? j0 + AS_CHUNK : d, j;
        int fail = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) reduction(|:fail)
#endif
        {
            double *acc = c->malloc_fn(sizeof(double) * (size_t)q);
            if (acc == NULL) fail = 1;
            else {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 256)
#endif
                for (j = j0; j < j1; j++) {
                    double s = 0;
                    int64_t a;
                    memset(acc, 0, sizeof(double) * (size_t)q);
                    AS_FOR_COL(X, j, row, v, {
                        const double *nr = NT + row * q;
                        for (a = 0; a < q; a++) acc[a] += v * nr[a];
                    });
                    for (a = 0; a < q; a++) s += acc[a] * acc[a];
                    scores[j] = s;
                }
                c->free_fn(acc);
            }
        }
        if (fail) return as_error(c, AS_ERR_NOMEM, "out of memory in the score pass");
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

int as_leverage_run(const as_matrix *X, const as_rand_options *o, double *scores,
                    as_sample *used, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, s1, s, q, mrows, r, a, j;
    int exact, jl, info = 0, lwork = -1, mi, ni;
    int *jpvt = NULL;
    double *M = NULL, *tau = NULL, *work = NULL, *Z = NULL, *NT = NULL, wq = 0, tol;

    c->status = AS_OK;
    used->rank = 0;
    s1 = o->s1 > 0 ? o->s1 : as_default_s1(n);
    s = o->s > 0 ? o->s : 4;
    if (s > s1) s = s1;
    /* when the sketch would not be smaller than X', the exact scores are cheaper */
    exact = o->leverage == AS_LEV_EXACT || d <= s1;
    mrows = exact ? d : s1;
    if (mrows > AS_INT_MAX || (double)mrows * (double)n > 4e18)
        return as_error(c, AS_ERR_TOOBIG, "exact leverage scores need a dense %lld x %lld copy; use method \"approx\"",
                        (long long)d, (long long)n);
    as_progress(c, "leverage: %s scores, %lld x %lld %s", exact ? "exact" : "approximate",
                (long long)mrows, (long long)n, exact ? "copy of X'" : "sparse embedding");

    M = as_calloc(c, (size_t)(mrows * n), sizeof(double));
    jpvt = as_calloc(c, (size_t)n, sizeof(int));
    tau = as_malloc(c, (size_t)n, sizeof(double));
    if (!M || !jpvt || !tau) goto done;

    if (exact) {
        for (j = 0; j < d; j++)
            AS_FOR_COL(X, j, row, v, { M[j + row * mrows] = v; });
    } else {
        double *MT = as_calloc(c, (size_t)(mrows * n), sizeof(double));
        if (!MT) goto done;
        if (as_embed(X, s1, s, o->seed, MT, c) == AS_OK) {
            for (a = 0; a < n; a++)
                for (j = 0; j < mrows; j++) M[j + a * mrows] = MT[a + j * n];
        }
        as_free(c, MT);
        if (c->status != AS_OK) goto done;
    }

    /* pivoted QR: M P = Q R */
    mi = (int)mrows;
    ni = (int)n;
    dgeqp3_(&mi, &ni, M, &mi, jpvt, tau, &wq, &lwork, &info);
    lwork = (int)wq + 1;
    work = as_malloc(c, (size_t)lwork, sizeof(double));
    if (!work) goto done;
    dgeqp3_(&mi, &ni, M, &mi, jpvt, tau, work, &lwork, &info);
    if (info != 0) { as_error(c, AS_ERR_LAPACK, "dgeqp3 failed (info = %d)", info); goto done; }

    /* numerical rank from the diagonal of R */
    r = 0;
    tol = (double)(mrows > n ? mrows : n) * DBL_EPSILON * fabs(M[0]);
    for (a = 0; a < (mrows < n ? mrows : n); a++)
        if (fabs(M[a + a * mrows]) > tol && M[0] != 0) r++;
        else break;
    used->rank = r;
    used->s1 = exact ? 0 : s1;
    used->s = exact ? 0 : s;
    used->s2 = 0;
    if (r == 0) {
        memset(scores, 0, sizeof(double) * (size_t)d);
        goto done;
    }

    /* Z = R11^-1 S2 (r x q): S2 is the identity for exact scores or when the
       JL width is not below the rank */
    q = exact ? r : (o->s2 > 0 ? o->s2 : as_default_s2(d, o->delta));
    jl = q < r;
    if (!jl) q = r;
    else used->s2 = q;
    Z = as_calloc(c, (size_t)(r * q), sizeof(double));
    NT = as_calloc(c, (size_t)(q * n), sizeof(double));
    if (!Z || !NT) goto done;
    if (!jl) {
        for (a = 0; a < r; a++) Z[a + a * r] = 1.0;
    } else if (o->jl == AS_JL_GAUSSIAN) {
        double sc = 1.0 / sqrt((double)q);
        for (j = 0; j < q; j++)
            for (a = 0; a < r; a++)
                Z[a + j * r] = sc * as_rng_normal(o->seed, AS_STREAM_JL, (uint64_t)(j * r + a));
    } else {
        double sc = 1.0 / sqrt((double)q);
        for (j = 0; j < q; j++) {
            uint64_t coef[4];
            int t;
            for (t = 0; t < 4; t++)
                coef[t] = as_rng_u64(o->seed, AS_STREAM_AMS, (uint64_t)(4 * j + t)) % AS_AMS_P;
            for (a = 0; a < r; a++) Z[a + j * r] = sc * as_ams_sign(coef, (uint64_t)a);
        }
    }
    {
        int ri = (int)r, qi = (int)q;
        double one = 1.0;
        dtrsm_("L", "U", "N", "N", &ri, &qi, &one, M, &mi, Z, &ri, 1, 1, 1, 1);
    }
    /* N(perm(a), :) = Z(a, :), stored transposed */
    for (a = 0; a < r; a++) {
        int64_t row = jpvt[a] - 1;
        for (j = 0; j < q; j++) NT[j + row * q] = Z[a + j * r];
    }
    as_free(c, M);
    M = NULL;
    as_progress(c, "leverage: rank %lld, score pass with %lld columns", (long long)r, (long long)q);
    if (as_scores(X, NT, q, scores, c) == AS_OK)
        for (j = 0; j < d; j++)
            if (!isfinite(scores[j])) {
                /* R^-1 over- or underflowed: subnormal entries, or entries near DBL_MAX */
                as_error(c, AS_ERR_INPUT, "X: the leverage score of column %lld is not finite "
                         "(entries too close to 0 or to the largest double): rescale X",
                         (long long)(j + 1));
                break;
            }

done:
    as_free(c, M);
    as_free(c, jpvt);
    as_free(c, tau);
    as_free(c, work);
    as_free(c, Z);
    as_free(c, NT);
    return c->status;
}

int as_leverage(const as_matrix *X, const as_rand_options *o, double *scores,
                int64_t *rank, as_common *c)
{
    as_sample info;
    as_sample_init(&info);
    if (as_matrix_check(X, c) != AS_OK || as_rand_options_check(o, c) != AS_OK)
        return c->status;
    as_leverage_run(X, o, scores, &info, c);
    *rank = info.rank;
    return c->status;
}
