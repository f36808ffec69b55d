/* nnls.c: nonnegative least squares on the normal equations, min w'Kw - 2 b'w over w >= 0: coordinate descent to find the support, Newton steps on it (LAPACK's Cholesky). */
#include "nnls.h"

/* Rounds of at most AS_NNLS_CD_SWEEPS coordinate descent sweeps (each
   stopping below a change of AS_NNLS_CD_TOL of the weights) and AS_NNLS_NEWTON
   Newton steps, until the projected gradient is below AS_NNLS_KKT_TOL of the
   weights or a round lowers the objective by less than AS_NNLS_F_TOL of it.
   Past W->newton_max unknowns (nnls.h) the descent alone. */
#define AS_NNLS_ROUNDS 12
#define AS_NNLS_CD_SWEEPS 3
#define AS_NNLS_CD_TOL 1e-6
#define AS_NNLS_NEWTON 4
#define AS_NNLS_KKT_TOL 1e-9
#define AS_NNLS_F_TOL 1e-12

int as_nnls_work_alloc(as_nnls_work *W, int64_t cap, as_common *c)
{
    size_t m = (size_t)(cap > 0 ? cap : 1);
    memset(W, 0, sizeof *W);
    W->g = as_malloc(c, m, sizeof(double));
    W->kw = as_malloc(c, m, sizeof(double));
    W->wn = as_malloc(c, m, sizeof(double));
    W->z = as_malloc(c, m, sizeof(double));
    W->P = as_malloc(c, m, sizeof(int64_t));
    W->KP = as_malloc(c, m * m, sizeof(double));
    if (!W->g || !W->kw || !W->wn || !W->z || !W->P || !W->KP) return c->status;
    W->cap = cap;
    W->newton_max = AS_NNLS_NEWTON_MAX;
    return AS_OK;
}

void as_nnls_work_free(as_nnls_work *W, as_common *c)
{
    as_free(c, W->g);
    as_free(c, W->kw);
    as_free(c, W->wn);
    as_free(c, W->z);
    as_free(c, W->P);
    as_free(c, W->KP);
    memset(W, 0, sizeof *W);
}

/* y += sign K w (sign +1 or -1: exact), summed by K's columns where w is not 0. */
static void nnls_add_kw(int64_t k, const double *K, const double *w, double sign, double *y)
{
    int64_t a, j;
    for (j = 0; j < k; j++)
        if (w[j] != 0) {
            const double *Kj = K + j * k, wj = sign * w[j];
            AS_SIMD
            for (a = 0; a < k; a++) y[a] += Kj[a] * wj;
        }
}

double as_nnls_objective(int64_t k, const double *K, const double *b, const double *w, double *kw)
{
    int64_t a;
    double f = 0;
    for (a = 0; a < k; a++) kw[a] = 0;
    nnls_add_kw(k, K, w, 1.0, kw);
    for (a = 0; a < k; a++)
        if (w[a] != 0) f += w[a] * (kw[a] - 2.0 * b[a]);
    return f;
}

/* g = b - K w. */
static void nnls_gradient(int64_t k, const double *K, const double *b, const double *w, double *g)
{
    int64_t a;
    for (a = 0; a < k; a++) g[a] = b[a];
    nnls_add_kw(k, K, w, -1.0, g);
}

/* f(w) = w'Kw - 2 b'w = -w'(g + b) from g = b - K w (k operations, no pass over K). */
static double nnls_value(int64_t k, const double *b, const double *w, const double *g)
{
    int64_t a;
    double f = 0;
    for (a = 0; a < k; a++)
        if (w[a] != 0) f -= w[a] * (g[a] + b[a]);
    return f;
}

/* Cyclic coordinate descent sweeps on w (at most `sweeps`, fewer when a
   sweep changes w by less than `tol` relative); g kept equal to b - K w. */
static void nnls_descent(int64_t k, const double *K, const unsigned char *ban, double *w, double *g, int sweeps,
                         double tol, double scale)
{
    int64_t a, j;
    int sweep;
    for (sweep = 0; sweep < sweeps; sweep++) {
        double change = 0, size = 0;
        for (a = 0; a < k; a++) {
            double kaa = K[a + a * k], nw, dw;
            if (!(kaa > 1e-14 * scale) || (ban && ban[a])) continue;
            nw = w[a] + g[a] / kaa;
            if (nw < 0) nw = 0;
            dw = nw - w[a];
            if (dw != 0) {
                const double *Ka = K + a * k;
                AS_SIMD
                for (j = 0; j < k; j++) g[j] -= dw * Ka[j];
                w[a] = nw;
                change = as_fmax_num(change, fabs(dw) * sqrt(kaa));
            }
            size = as_fmax_num(size, w[a] * sqrt(kaa));
        }
        if (change <= tol * size) break;
    }
}

/* A Newton step on the support P = {w > 0}: toward the unconstrained minimum
   there, as far as w stays nonnegative (a small ridge keeps the factor of
   dependent columns). Returns 2 when it reached that minimum, 1 when it lowered f
   short of it, 0 when it was not taken; *fw is f(w) on return (NaN on entry: not
   known yet). */
static int nnls_newton(int64_t k, const double *K, const double *b, double *w, double scale, double *fw,
                       as_nnls_work *W)
{
    int64_t a, p = 0, q, r, *P = W->P;
    double *KP = W->KP, *z = W->z, *wn = W->wn, step = 1, f0, f1;
    int pn, one = 1, info = 0;
    for (a = 0; a < k; a++) if (w[a] > 0) P[p++] = a;
    if (p == 0 || p > AS_INT_MAX) return 0;
    for (q = 0; q < p; q++) {
        for (r = 0; r < p; r++) KP[r + q * p] = K[P[r] + P[q] * k];
        KP[q + q * p] += 1e-13 * scale;
        z[q] = b[P[q]];
    }
    pn = (int)p;
    dpotrf_("L", &pn, KP, &pn, &info, 1);
    if (info != 0) return 0;
    dpotrs_("L", &pn, &one, KP, &pn, z, &pn, &info, 1);
    if (info != 0) return 0;
    for (q = 0; q < p; q++)
        if (z[q] < 0) step = fmin(step, w[P[q]] / (w[P[q]] - z[q]));
    f0 = isnan(*fw) ? as_nnls_objective(k, K, b, w, W->kw) : *fw;
    *fw = f0;
    if (step < 1) {
        /* the full step projected on w >= 0 (it drops every weight the step takes
           below 0 at once), when it lowers f */
        for (a = 0; a < k; a++) wn[a] = 0;
        for (q = 0; q < p; q++) wn[P[q]] = z[q] > 0 ? z[q] : 0;
        f1 = as_nnls_objective(k, K, b, wn, W->kw);
        if (f1 < f0) {
            *fw = f1;
            memcpy(w, wn, sizeof(double) * (size_t)k);
            return 1;
        }
    }
    for (a = 0; a < k; a++) wn[a] = 0;
    for (q = 0; q < p; q++) {
        double v = w[P[q]] + step * (z[q] - w[P[q]]);
        wn[P[q]] = v > 0 ? v : 0;
    }
    f1 = as_nnls_objective(k, K, b, wn, W->kw);
    if (!(f1 < f0)) return 0;
    *fw = f1;
    memcpy(w, wn, sizeof(double) * (size_t)k);
    return step == 1 ? 2 : 1;
}

int as_nnls_solve(int64_t k, const double *K, const double *b, const unsigned char *ban, double *w,
                  as_nnls_work *W, as_common *c)
{
    int64_t a;
    int outer, np;
    double *g = W->g, scale = 0, fprev;
    if (k == 0) return AS_OK;
    for (a = 0; a < k; a++) scale = fmax(scale, K[a + a * k]);
    if (!(scale > 0)) return AS_OK;
    fprev = as_nnls_objective(k, K, b, w, W->kw);
    for (outer = 0; outer < AS_NNLS_ROUNDS; outer++) {
        double viol = 0, size = 0, f, fw = NAN;   /* fw: f(w) once a Newton step has computed it */
        if (outer == 0) nnls_gradient(k, K, b, w, g);   /* later rounds: g is the last round's, of the same w */
        nnls_descent(k, K, ban, w, g, AS_NNLS_CD_SWEEPS, AS_NNLS_CD_TOL, scale);
        for (np = 0; np < AS_NNLS_NEWTON && k <= W->newton_max; np++)
            if (nnls_newton(k, K, b, w, scale, &fw, W) != 1) break;   /* 2: at the support's minimum; 0: no gain */
        nnls_gradient(k, K, b, w, g);
        for (a = 0; a < k; a++) {
            double kaa = K[a + a * k], v;
            if (!(kaa > 1e-14 * scale) || (ban && ban[a])) continue;
            v = w[a] > 0 ? fabs(g[a]) : fmax(g[a], 0);
            viol = fmax(viol, v / sqrt(kaa));
            size = fmax(size, w[a] * sqrt(kaa));
        }
        if (viol <= AS_NNLS_KKT_TOL * size) break;
        /* no progress worth another round: rounding, on an ill-conditioned K
           (f(w) = -w'(g + b), g = b - K w just computed, where no Newton step gave it) */
        f = isnan(fw) ? nnls_value(k, b, w, g) : fw;
        if (!(fprev - f > AS_NNLS_F_TOL * fabs(f))) break;
        fprev = f;
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}
