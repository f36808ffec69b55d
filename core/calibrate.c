/* calibrate.c: a sample's weights calibrated to totals of X known without X X': its squared norm (one factor, the ratio estimator) and its rows' squared norms (raking, Newton's method on the convex dual). */
#include "calibrate.h"
#include "lapack.h"

/* Newton steps at most, the relative residual of the rows' totals that ends
   them, halvings of a step at most, and the largest exponent of a factor
   (exp(700) is near the largest double: a factor that large says the totals
   lie outside the columns' cone, where the dual has no minimum). */
#define AS_RAKE_ITER 50
#define AS_RAKE_TOL 1e-7
/* Where the steps stop lowering the residual (rounding: the dual's objective
   no longer tells better points from worse), a residual below this is as
   good as met: the calibration is judged by the exact rel of its result. */
#define AS_RAKE_TOL_STALL 1e-6
#define AS_RAKE_HALVE 40
#define AS_RAKE_EXP_MAX 700.0

double as_calibrate_trace(const as_matrix *Xv, int64_t k, const int64_t *idx, const double *w,
                          const double *rowsq)
{
    double trx = 0, trh = 0;
    int64_t i, t;
    for (i = 0; i < Xv->nrow; i++) trx += rowsq[i];
    for (t = 0; t < k; t++) trh += w[t] * w[t] * as_col_norm2(Xv, idx[t]);
    return trh > 0 ? trx / trh : NAN;
}

/* The squared entries of the sample's columns (CSC), and its buffers. */
typedef struct as_rake {
    int64_t N, k, nz;
    int64_t *p, *i;
    double *z;           /* the squared entries                                */
    double *b;           /* k: w^2, the terms' weights as drawn                */
    double *s, *sa;      /* k: the exponents; the square roots of the weights  */
    double *lam, *lamn;  /* N: the dual variables; a trial step's             */
    double *r, *J;       /* N: the residual (then the step); N x N: the Hessian */
    as_matrix Z;
} as_rake;

static void as_rake_free(as_rake *R, as_common *c)
{
    as_free(c, R->p);
    as_free(c, R->i);
    as_free(c, R->z);
    as_free(c, R->b);
    as_free(c, R->s);
    as_free(c, R->sa);
    as_free(c, R->lam);
    as_free(c, R->lamn);
    as_free(c, R->r);
    as_free(c, R->J);
}

/* The squared entries of X(:, idx) into R (CSC); 0 in *covered when a row to
   calibrate (rowsq > 0) has no entry among them. */
static int as_rake_load(as_rake *R, const as_matrix *Xv, const int64_t *idx, const double *w,
                        const double *rowsq, int *covered, as_common *c)
{
    int64_t t, e = 0, i, N = R->N, k = R->k;
    char *seen;
    R->nz = 0;
    for (t = 0; t < k; t++) AS_FOR_COL(Xv, idx[t], row, v, { (void)row; R->nz += v != 0; });
    R->p = as_malloc(c, (size_t)(k + 1), sizeof(int64_t));
    R->i = as_malloc(c, (size_t)(R->nz > 0 ? R->nz : 1), sizeof(int64_t));
    R->z = as_malloc(c, (size_t)(R->nz > 0 ? R->nz : 1), sizeof(double));
    R->b = as_malloc(c, (size_t)k, sizeof(double));
    R->s = as_malloc(c, (size_t)k, sizeof(double));
    R->sa = as_malloc(c, (size_t)k, sizeof(double));
    R->lam = as_calloc(c, (size_t)N, sizeof(double));
    R->lamn = as_malloc(c, (size_t)N, sizeof(double));
    R->r = as_malloc(c, (size_t)N, sizeof(double));
    R->J = as_malloc(c, (size_t)N, (size_t)N * sizeof(double));
    seen = as_calloc(c, (size_t)N, 1);
    if (!R->p || !R->i || !R->z || !R->b || !R->s || !R->sa || !R->lam || !R->lamn || !R->r || !R->J || !seen) {
        as_free(c, seen);
        return c->status;
    }
    R->p[0] = 0;
    for (t = 0; t < k; t++) {
        AS_FOR_COL(Xv, idx[t], row, v, {
            if (v != 0) {
                R->i[e] = row;
                R->z[e++] = v * v;
                seen[row] = 1;
            }
        });
        R->p[t + 1] = e;
        R->b[t] = w[t] * w[t];
    }
    *covered = 1;
    for (i = 0; i < N; i++)
        if (rowsq[i] > 0 && !seen[i]) *covered = 0;
    as_free(c, seen);
    as_view_csc64(&R->Z, N, k, R->p, R->i, R->z);
    return AS_OK;
}

/* The exponents s_t = z_t' lam of the dual point lam and the dual objective
   phi = sum_t b_t exp(s_t) - rowsq' lam; Inf when an exponent is past
   AS_RAKE_EXP_MAX. */
static double as_rake_phi(as_rake *R, const double *lam, const double *rowsq)
{
    int64_t t, e, i;
    double phi = 0;
    for (t = 0; t < R->k; t++) {
        double s = 0;
        for (e = R->p[t]; e < R->p[t + 1]; e++) s += R->z[e] * lam[R->i[e]];
        if (!(s <= AS_RAKE_EXP_MAX)) return INFINITY;
        R->s[t] = s;
        phi += R->b[t] * exp(s);
    }
    for (i = 0; i < R->N; i++) phi -= rowsq[i] * lam[i];
    return phi;
}

/* The residual r = (the rows' totals at R->s) - rowsq and its largest
   relative size over the rows to calibrate. */
static double as_rake_residual(as_rake *R, const double *rowsq)
{
    int64_t t, e, i;
    double res = 0;
    for (i = 0; i < R->N; i++) R->r[i] = -rowsq[i];
    for (t = 0; t < R->k; t++) {
        double a = R->b[t] * exp(R->s[t]);
        R->sa[t] = sqrt(a);
        for (e = R->p[t]; e < R->p[t + 1]; e++) R->r[R->i[e]] += a * R->z[e];
    }
    for (i = 0; i < R->N; i++) res = rowsq[i] > 0 ? fmax(res, fabs(R->r[i]) / rowsq[i]) : res;
    return res;
}

/* The Hessian of the dual at the current point, sum_t a_t z_t z_t' (a Gram
   of the squared columns, R->sa = sqrt(a)), factored by Cholesky (LAPACK, on
   one BLAS thread) in R->J; 0 when it is singular. A row with no equation
   (rowsq 0: no entry) gets a 1 on the diagonal. */
static int as_rake_factor(as_rake *R, const double *rowsq, as_common *c)
{
    int64_t N = R->N, i;
    int n = (int)N, info = 0, blas;
    if (as_gram(&R->Z, R->k, NULL, R->sa, R->J, c) != AS_OK) return 0;
    for (i = 0; i < N; i++)
        if (!(rowsq[i] > 0)) R->J[i + i * N] = 1;
    blas = as_blas_threads_set(1);
    dpotrf_("L", &n, R->J, &n, &info, 1);
    if (blas > 0) as_blas_threads_set(blas);
    return info == 0;
}

/* One step of the dual from R->lam (phi its objective there, R->r its
   gradient) along the direction of the factored Hessian in R->J (Newton's
   when it was factored at this point, else the chord method's), halved until
   phi falls by a share of its first-order fall (Armijo). 0 when no step
   lowers phi. */
static int as_rake_step(as_rake *R, const double *rowsq, double *phi)
{
    int64_t N = R->N, i;
    int n = (int)N, one = 1, info = 0, h, blas;
    double gd = 0, tstep = 1;
    for (i = 0; i < N; i++)
        if (!(rowsq[i] > 0)) R->r[i] = 0;
    memcpy(R->lamn, R->r, sizeof(double) * (size_t)N);
    blas = as_blas_threads_set(1);
    dpotrs_("L", &n, &one, R->J, &n, R->r, &n, &info, 1);
    if (blas > 0) as_blas_threads_set(blas);
    if (info != 0) return 0;
    /* r is now the direction d = J^-1 g: phi falls along -d by g'd */
    for (i = 0; i < N; i++) gd += R->lamn[i] * R->r[i];
    if (!(gd > 0)) return 0;
    for (h = 0; h < AS_RAKE_HALVE; h++, tstep *= 0.5) {
        double pn;
        for (i = 0; i < N; i++) R->lamn[i] = R->lam[i] - tstep * R->r[i];
        pn = as_rake_phi(R, R->lamn, rowsq);
        if (pn <= *phi - 1e-4 * tstep * gd) {
            memcpy(R->lam, R->lamn, sizeof(double) * (size_t)N);
            *phi = pn;
            return 1;
        }
    }
    return 0;
}

int as_calibrate_rows(const as_matrix *Xv, int64_t k, const int64_t *idx, const double *w,
                      const double *rowsq, double *fac, int *ok, as_common *c)
{
    as_rake R;
    int64_t i, t, nrow = 0;
    int covered = 0, it, held = 0, here = 0, stall = 0;
    double phi, res;
    *ok = 0;
    for (i = 0; i < Xv->nrow; i++) nrow += rowsq[i] > 0;
    if (k < nrow || nrow == 0 || Xv->nrow > AS_INT_MAX) return AS_OK;
    memset(&R, 0, sizeof R);
    R.N = Xv->nrow;
    R.k = k;
    if (as_rake_load(&R, Xv, idx, w, rowsq, &covered, c) != AS_OK || !covered) goto done;
    /* Newton's method with the Hessian held from an earlier point (the chord
       method: the draw's weights are near the calibrated ones, so it changes
       little, and a step costs a pass over the entries, not a Gram), made at
       the current point first, where a step along the held one fails, and
       where the residual falls by less than half */
    phi = as_rake_phi(&R, R.lam, rowsq);
    res = as_rake_residual(&R, rowsq);
    for (it = 0; it < AS_RAKE_ITER && isfinite(phi) && res > AS_RAKE_TOL && stall < 3; it++) {
        double rn;
        if (as_interrupted(c)) break;
        if (!held) {
            if (!as_rake_factor(&R, rowsq, c)) break;
            held = here = 1;
        }
        if (!as_rake_step(&R, rowsq, &phi)) {
            /* back to the current point (the trials moved the exponents) */
            phi = as_rake_phi(&R, R.lam, rowsq);
            res = as_rake_residual(&R, rowsq);
            if (here) break;
            held = 0;   /* the point's own Hessian next */
            continue;
        }
        here = 0;
        rn = as_rake_residual(&R, rowsq);
        if (rn > 0.5 * res) held = 0;
        stall = rn < res ? 0 : stall + 1;
        res = rn;
    }
    if (isfinite(phi) && res <= AS_RAKE_TOL_STALL) {
        for (t = 0; t < k; t++) fac[t] = exp(R.s[t]);
        *ok = 1;
    }
done:
    as_rake_free(&R, c);
    return c->status;
}
