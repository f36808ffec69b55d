/* estimate_gauss.c: the default error estimate of a sample: its sampling variance (one weighted Gram of the squared sample) turned into a quantile of rel and inf through the linearized, row-centred softmax. */
#include "as_internal.h"
#include "estimate.h"
#include "gram.h"
#include "metrics.h"
#include "rand.h"
#include "sample.h"
#include <float.h>

/* The sampled Gram H = sum_j s_j x_j x_j' is a sum of independent terms
   (Poisson: s_j = B_j / q_j; i.i.d.: multinomial counts c_j / (m p_j)), so
   the variance of any linear function of its error E = H - G is estimated
   without bias from the kept columns alone (Horvitz-Thompson; Sarndal,
   Swensson, Wretman 1992, ch. 2-3): sum_kept omega_j phi_j^2 with
   omega_j = 1 - q_j (Poisson) or m / ((m - 1) c_j) minus the square of the
   estimate over m - 1 (i.i.d.), phi_j the term of column j of Y.

   The softmax ignores a constant added to a row, so log(Att(Y) / Att(X)) is
   F_il = E_il - c_i, c_i = log sum_m a_im exp(E_im) ~ sum_m a_im E_im
   (a = Att(X), replaced by Att(Y)). For a dense Y its variance is taken as
   it is: with w_ij = sum_m a_im y_mj, F_il = sum_j e_j y_ij (y_lj - w_ij)
   (e_j the column's relative error), of variance P_il - 2 Q_il + s_i, P =
   (y^2) Omega (y^2)', Q = (y^2 o W) Omega Y', s_i = sum_j omega_j y_ij^2
   w_ij^2: three products of the Gram's size (BLAS). For a sparse Y, W fills
   every row and those products lose the sparsity (2 to 7 times the cost
   of the rest of the estimate on wide count data); the centre is
   taken there as alpha_i E_ii + (1 - alpha_i) sum_m pi_m E_im, alpha_i =
   a_ii and pi the mean row of Att(Y): then the pi-centred error splits into
   a doubly centred part with z_j = y_j - beta_j (beta_j = pi' y_j), whose
   variance is one Gram of the columns u_j = sqrt(omega_j) y_j o (y_j - 2
   beta_j) plus terms of one row each, and a part d_l of one column each
   (uncorrelated with the first on pi-average over the rows); the self
   part alpha_i E_ii adds at most alpha_i sd(F_ii) (the triangle inequality).
   E_ii = diag(H) - diag(X X') is known when the rows' squared norms are:
   the diagonal entries' log-ratios then have a known mean (the regression
   of the rest of the row on E_ii given). The 1 - alpha quantile of the
   largest |Att(Y)/Att(X) - 1| (and of a |exp(F) - 1| for inf) is the
   union bound of the entries' Gaussian tails.

   The sparse path's two triangle inequalities are its slack: small where
   attention sits on the diagonal (count data: rows share few columns),
   up to a third of the estimate where it spreads over many similar rows
   (low-rank and clustered data, which are dense). */

/* Upper tail of the standard normal. */
static double as_norm_sf(double x)
{
    return 0.5 * erfc(x * 0.70710678118654752440);
}

/* P(a |exp(F) - 1| > x) for F ~ N(mu, s^2) (s = 0: F = mu). */
static double as_entry_tail(double x, double a, double mu, double s)
{
    double up = log1p(x / a), lo = x < a ? log1p(-x / a) : -INFINITY;
    if (!(s > 0)) return (mu > up || mu < lo) ? 1.0 : 0.0;
    return as_norm_sf((up - mu) / s) + (x < a ? as_norm_sf((mu - lo) / s) : 0.0);
}

/* Bins per e-fold of the entries' sd and attention (each rounded up to its
   bin's edge: at most 4% more), and the e-folds kept below the largest
   (the entries further down are counted at that floor). */
#define AS_GAUSS_BINS 25
#define AS_GAUSS_SD_FOLDS 12
#define AS_GAUSS_A_FOLDS 18

typedef struct as_tail_set {
    int64_t ncell, ndiag;
    double *cell;        /* ncell x 3: a, sd, count (off-diagonal entries, mean 0) */
    const double *da, *dmu, *ds; /* the diagonal entries: a, mean, sd         */
} as_tail_set;

static double as_tail_sum(const as_tail_set *T, double x)
{
    int64_t e;
    double p = 0;
    for (e = 0; e < T->ncell; e++) p += T->cell[3 * e + 2] * as_entry_tail(x, T->cell[3 * e], 0, T->cell[3 * e + 1]);
    for (e = 0; e < T->ndiag; e++) p += as_entry_tail(x, T->da ? T->da[e] : 1.0, T->dmu[e], T->ds[e]);
    return p;
}

/* The x with as_tail_sum(x) = alpha (the smallest with at most alpha, by bisection). */
static double as_tail_solve(const as_tail_set *T, double alpha, double hi)
{
    double lo = 0;
    int64_t e;
    int it;
    /* a variance or mean that overflowed (logits of several hundred: the
       fourth powers of Y's entries) says nothing: the estimate is Inf, never
       the 0 a NaN tail would give */
    for (e = 0; e < 3 * T->ncell; e++)
        if (!isfinite(T->cell[e])) return INFINITY;
    for (e = 0; e < T->ndiag; e++)
        if (!isfinite(T->dmu[e]) || !isfinite(T->ds[e]) || (T->da && !isfinite(T->da[e]))) return INFINITY;
    if (!(hi < DBL_MAX)) return INFINITY;
    while (as_tail_sum(T, hi) > alpha) {
        if (!(hi < DBL_MAX / 4)) return INFINITY;
        hi *= 4;
    }
    for (it = 0; it < 80 && hi - lo > 1e-14 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (as_tail_sum(T, mid) > alpha) lo = mid;
        else hi = mid;
    }
    return hi;
}

/* The cells of the off-diagonal entries (i, l) of sd sd[i + l ld] and
   attention a (NULL: 1), rows [0, nr), keys [0, nk) (diag: leave i == l out). */
static int as_tail_cells(int64_t nr, int64_t nk, const double *sd, int64_t ld, const double *A, int diag,
                         as_tail_set *T, as_common *c)
{
    int64_t i, l, na = A ? AS_GAUSS_BINS * AS_GAUSS_A_FOLDS + 1 : 1, ns = AS_GAUSS_BINS * AS_GAUSS_SD_FOLDS + 1, b;
    double smax = 0, amax = 0, *count;
    for (l = 0; l < nk; l++)
        for (i = 0; i < nr; i++) {
            if (diag && i == l) continue;
            smax = fmax(smax, sd[i + l * ld]);
            if (A) amax = fmax(amax, A[i + l * nr]);
        }
    T->ncell = 0;
    if (!(smax > 0) || (A && !(amax > 0))) return AS_OK;
    count = as_calloc(c, (size_t)(na * ns), sizeof(double));
    if (!count) return c->status;
    for (l = 0; l < nk; l++)
        for (i = 0; i < nr; i++) {
            double s = sd[i + l * ld], fs, fa = 0;
            int64_t bs, ba = 0;
            if ((diag && i == l) || !(s > 0)) continue;
            fs = floor(AS_GAUSS_BINS * log(smax / s));
            bs = fs < (double)(ns - 1) ? (int64_t)fs : ns - 1;
            if (A) {
                double a = A[i + l * nr];
                if (!(a > 0)) continue;
                fa = floor(AS_GAUSS_BINS * log(amax / a));
                ba = fa < (double)(na - 1) ? (int64_t)fa : na - 1;
            }
            count[ba * ns + bs] += 1;
        }
    for (b = 0; b < na * ns; b++) T->ncell += count[b] > 0;
    T->cell = as_malloc(c, (size_t)(3 * (T->ncell > 0 ? T->ncell : 1)), sizeof(double));
    if (T->cell) {
        int64_t e = 0;
        for (b = 0; b < na * ns; b++)
            if (count[b] > 0) {
                T->cell[3 * e] = A ? amax * exp(-(double)(b / ns) / AS_GAUSS_BINS) : 1.0;
                T->cell[3 * e + 1] = smax * exp(-(double)(b % ns) / AS_GAUSS_BINS);
                T->cell[3 * e + 2] = count[b];
                e++;
            }
    }
    as_free(c, count);
    return c->status;
}

/* The largest x worth starting the bisection from: every entry's tail at
   it is below 1e-20 (F beyond 10 sd). */
static double as_tail_start(const as_tail_set *T)
{
    int64_t e;
    double hi = 0;
    for (e = 0; e < T->ncell; e++) hi = fmax(hi, T->cell[3 * e] * expm1(10 * T->cell[3 * e + 1]));
    for (e = 0; e < T->ndiag; e++)
        hi = fmax(hi, (T->da ? T->da[e] : 1.0) * expm1(fabs(T->dmu[e]) + 10 * T->ds[e]));
    return hi > 0 ? hi : DBL_MIN;
}

/* The arrays of the estimate (as_estimate_gauss). X's rows 0 .. nr - 1 are
   the queries and its rows k0 .. N - 1 the nk keys (stacked: k0 = nr; else
   k0 = 0 and every row is both). */
typedef struct as_gauss {
    int64_t N, k, nr, k0, nk;
    int stacked, dense;
    double kappa;           /* i.i.d.: 1 / (m - 1), on the estimate's square; Poisson: 0  */
    int64_t ku, nz;         /* the columns with omega_j > 0, their nonzeros               */
    double k0sum, sbb;      /* sum omega_j beta_j^4, sum beta_j^2                         */
    double *H, *V;          /* N x N: the sample's Gram; the variance's Gram (dense: P),
                               then sd's                                                  */
    double *Q;              /* dense: N x N, (y^2 o W) Omega Y'                           */
    double *A, *pi;         /* nr x nk: Att(Y); nk: its mean row                          */
    double *hbar;           /* nr: sum_l a_il (Y Y')_il                                   */
    double *beta, *omega;   /* k: pi' y_j; omega_j                                        */
    int64_t *col;           /* k: the sample's columns of X                               */
    double *r, *s;          /* N: the variance's one-row terms (then the centre's sd);
                               sum_j beta_j y_j (dense: sum_j omega_j y_ij^2 w_ij^2)      */
    double *ve, *vr, *cre, *sbp, *q4;  /* N: the diagonal's sums (not stacked)            */
    double *mu, *sdd, *ad;  /* N: the diagonal entries' mean, sd, attention a_ii          */
    double *ux;             /* the columns u: CSC with up, ui                             */
    int64_t *up, *ui;
} as_gauss;

/* The arrays but ux, up, ui (as_gauss_var makes those). */
static int as_gauss_alloc(as_gauss *ws, as_common *c)
{
    int64_t N = ws->N, k = ws->k;
    ws->H = as_malloc(c, (size_t)(N * N), sizeof(double));
    ws->V = as_calloc(c, (size_t)(N * N), sizeof(double));
    if (ws->dense) ws->Q = as_calloc(c, (size_t)(N * N), sizeof(double));
    ws->A = as_malloc(c, (size_t)(ws->nr * ws->nk), sizeof(double));
    ws->pi = as_calloc(c, (size_t)ws->nk, sizeof(double));
    ws->hbar = as_calloc(c, (size_t)ws->nr, sizeof(double));
    ws->beta = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    ws->omega = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    ws->col = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(int64_t));
    ws->r = as_calloc(c, (size_t)N, sizeof(double));
    ws->s = as_calloc(c, (size_t)N, sizeof(double));
    ws->ve = as_calloc(c, (size_t)N, sizeof(double));
    ws->vr = as_calloc(c, (size_t)N, sizeof(double));
    ws->cre = as_calloc(c, (size_t)N, sizeof(double));
    ws->sbp = as_calloc(c, (size_t)N, sizeof(double));
    ws->q4 = as_calloc(c, (size_t)N, sizeof(double));
    ws->mu = as_calloc(c, (size_t)N, sizeof(double));
    ws->sdd = as_calloc(c, (size_t)N, sizeof(double));
    ws->ad = as_calloc(c, (size_t)N, sizeof(double));
    if (!ws->H || !ws->V || (ws->dense && !ws->Q) || !ws->A || !ws->pi || !ws->hbar || !ws->beta || !ws->omega ||
        !ws->col || !ws->r || !ws->s || !ws->ve || !ws->vr || !ws->cre || !ws->sbp || !ws->q4 || !ws->mu ||
        !ws->sdd || !ws->ad)
        return c->status;
    return AS_OK;
}

static void as_gauss_free(as_gauss *ws, as_common *c)
{
    as_free(c, ws->H);
    as_free(c, ws->V);
    as_free(c, ws->Q);
    as_free(c, ws->A);
    as_free(c, ws->pi);
    as_free(c, ws->hbar);
    as_free(c, ws->beta);
    as_free(c, ws->omega);
    as_free(c, ws->col);
    as_free(c, ws->r);
    as_free(c, ws->s);
    as_free(c, ws->ve);
    as_free(c, ws->vr);
    as_free(c, ws->cre);
    as_free(c, ws->sbp);
    as_free(c, ws->q4);
    as_free(c, ws->mu);
    as_free(c, ws->sdd);
    as_free(c, ws->ad);
    as_free(c, ws->ux);
    as_free(c, ws->up);
    as_free(c, ws->ui);
}

/* Att(Y) (row i against the keys, H symmetric), its mean row pi, a_ii and
   hbar_i = sum_l a_il H_il */
static void as_gauss_att(as_gauss *ws)
{
    int64_t N = ws->N, nr = ws->nr, k0 = ws->k0, nk = ws->nk, i, l;
    int stacked = ws->stacked;
    const double *H = ws->H;
    double *A = ws->A, *pi = ws->pi, *ad = ws->ad;
    for (i = 0; i < nr; i++) {
        double li = as_lse(nk, H + i * N + k0), hb = 0;
        for (l = 0; l < nk; l++) {
            double a = exp(H[i * N + k0 + l] - li);
            A[i + l * nr] = a;
            pi[l] += a / (double)nr;
            hb += a * H[i * N + k0 + l];
        }
        ws->hbar[i] = hb;
        if (!stacked) ad[i] = A[i + i * nr];
    }
}

/* The diagonal's sums of row i from a column's entry y = y_ij, of omega om,
   and the row's rest there, rest = sum_{m != i} a_im y_mj / (1 - a_ii)
   (sparse path: pi in place of row i's attention). */
static inline void as_gauss_diag_sums(as_gauss *ws, int64_t i, double om, double y, double rest)
{
    double v = om * (y * y) * (y * y);
    ws->ve[i] += v;
    ws->q4[i] += v * v;
    ws->vr[i] += om * (y * y) * (rest * rest);
    ws->cre[i] += om * (y * y) * y * rest;
    ws->sbp[i] += y * rest;
}

/* beta_t = pi' y_t over the keys' rows, and the columns u of the variance's
   Gram, V = U U' (with r, s, k0sum, sbb and the diagonal's sums): a sparse
   or stacked Y */
static int as_gauss_var(as_gauss *ws, const as_matrix *X, const as_result *S, as_common *c)
{
    int64_t N = ws->N, k = ws->k, nr = ws->nr, k0 = ws->k0, ku = ws->ku, nz = ws->nz, t, e, l;
    int stacked = ws->stacked;
    const int64_t *col = ws->col;
    const double *pi = ws->pi, *omega = ws->omega;
    double *beta = ws->beta, *r = ws->r, *s = ws->s, *ux, k0sum = 0, sbb = 0;
    int64_t *up, *ui;
    as_matrix U;
    ux = ws->ux = as_malloc(c, (size_t)(nz > 0 ? nz : 1), sizeof(double));
    up = ws->up = as_malloc(c, (size_t)(ku + 1), sizeof(int64_t));
    ui = ws->ui = as_malloc(c, (size_t)(nz > 0 ? nz : 1), sizeof(int64_t));
    if (!ux || !up || !ui) return c->status;
    up[0] = 0;
    for (t = 0, e = 0, l = 0; t < k; t++) {
        double w = S->weight[t], b = 0, om = omega[t];
        AS_FOR_COL(X, col[t], row, v, { if (row >= k0) b += pi[row - k0] * (w * v); });
        beta[t] = b;
        sbb += b * b;
        AS_FOR_COL(X, col[t], row, v, { s[row] += (w * v) * b; });
        if (!(om > 0)) continue;
        k0sum += om * (b * b) * (b * b);
        AS_FOR_COL(X, col[t], row, v, {
            double y = w * v;
            double u = y * (y - 2 * b);
            r[row] += om * u * (b * b);
            ux[e] = sqrt(om) * u;
            ui[e++] = row;
            if (!stacked && row < nr && pi[row] < 1)
                as_gauss_diag_sums(ws, row, om, y, (b - pi[row] * y) / (1 - pi[row]));
        });
        up[++l] = e;
    }
    ws->k0sum = k0sum;
    ws->sbb = sbb;
    as_view_csc64(&U, N, ku, up, ui, ux);
    if (as_gram(&U, -1, NULL, NULL, ws->V, c) != AS_OK) return c->status;
    return AS_OK;
}

/* The variance's products of a dense Y, over chunks of its columns kept by
   chance: Y_c (N x cc), W_c = A Y_c, then P += (sqrt(omega) y^2)(...)' (in
   V), Q += (omega y^2 o w) Y_c', s_i += omega y_ij^2 w_ij^2, and the
   diagonal's sums with row i's own rest. */
static int as_gauss_var_dense(as_gauss *ws, const as_matrix *X, const as_result *S, as_common *c)
{
    int64_t N = ws->N, k = ws->k, ku = ws->ku, cc, t = 0, i;
    double *Yc, *Wc, *Y2, *om, cap = (double)(1 << 21) / (double)N, beta = 0;
    cc = cap >= (double)ku ? ku : (cap >= 1 ? (int64_t)cap : 1);
    Yc = as_malloc(c, (size_t)(N * cc), sizeof(double));
    Wc = as_malloc(c, (size_t)(N * cc), sizeof(double));
    Y2 = as_malloc(c, (size_t)(N * cc), sizeof(double));
    om = as_malloc(c, (size_t)cc, sizeof(double));   /* the chunk's omegas */
    while (Yc && Wc && Y2 && om && t < k) {
        int64_t nc = 0, u;
        for (; t < k && nc < cc; t++)
            if (ws->omega[t] > 0) {
                const double *x = X->x + ws->col[t] * X->ld;
                for (i = 0; i < N; i++) Yc[i + nc * N] = S->weight[t] * x[i];
                om[nc++] = ws->omega[t];
            }
        if (nc == 0) break;
        if (as_gemm_blocks("N", "N", N, nc, N, 1.0, ws->A, N, Yc, N, 0.0, Wc, N, c) != AS_OK) break;
        for (u = 0; u < nc; u++) {
            double so = sqrt(om[u]);
            for (i = 0; i < N; i++) {
                double y = Yc[i + u * N], w = Wc[i + u * N], a = ws->ad[i];
                ws->s[i] += om[u] * (y * y) * (w * w);
                if (a < 1) as_gauss_diag_sums(ws, i, om[u], y, (w - a * y) / (1 - a));
                Y2[i + u * N] = so * y * y;
                Wc[i + u * N] = om[u] * y * y * w;
            }
        }
        if (as_syrk_blocks("U", "N", N, nc, 1.0, Y2, N, beta, ws->V, N, c) != AS_OK ||
            as_gemm_blocks("N", "T", N, N, nc, 1.0, Wc, N, Yc, N, beta, ws->Q, N, c) != AS_OK)
            break;
        beta = 1;
    }
    as_free(c, Yc);
    as_free(c, Wc);
    as_free(c, Y2);
    as_free(c, om);
    if (c->status == AS_OK) as_gram_mirror(N, ws->V);
    return c->status;
}

/* the sd of the pi-centred log-ratio of each entry, into V (rows x keys) */
static void as_gauss_sd(as_gauss *ws)
{
    int64_t N = ws->N, nr = ws->nr, k0 = ws->k0, nk = ws->nk, i, l;
    double kappa = ws->kappa, k0sum = ws->k0sum, sbb = ws->sbb, *V = ws->V;
    const double *H = ws->H, *r = ws->r, *s = ws->s;
    for (l = 0; l < nk; l++)
        for (i = 0; i < nr; i++) {
            int64_t g = k0 + l;
            double phi = H[i + g * N] - s[i] - s[g] + sbb, pd = s[g] - sbb;
            double vt = V[i + g * N] + r[i] + r[g] + k0sum - kappa * phi * phi;
            double vd = r[g] + k0sum - kappa * pd * pd;
            V[i + l * N] = sqrt((vt > 0 ? vt : 0) + (vd > 0 ? vd : 0));
        }
}

/* the sd of each entry's log-ratio with its row's own centre, into V: a
   dense Y (P in V, Q) */
static void as_gauss_sd_dense(as_gauss *ws)
{
    int64_t N = ws->N, i, l;
    double kappa = ws->kappa, *V = ws->V;
    const double *H = ws->H, *Q = ws->Q, *s = ws->s, *hbar = ws->hbar;
    for (l = 0; l < N; l++)
        for (i = 0; i < N; i++) {
            double phi = H[i + l * N] - hbar[i], v = V[i + l * N] - 2 * Q[i + l * N] + s[i] - kappa * phi * phi;
            /* NaN: fourth powers of Y's entries overflowed (inf - inf): the
               spread is unknown, its estimate Inf, never a dropped entry */
            V[i + l * N] = isnan(v) ? INFINITY : sqrt(v > 0 ? v : 0);
        }
}

/* The diagonal entry of row i: its mean mu and sd sdd given the known
   E_ii (rowsq), or (rowsq NULL) mean 0 and sd f sdd (f = 1 - a_ii on the
   sparse path, whose sd is of the pi-centred F_ii; 1 on the dense one);
   plus the centre's sd cen (sparse path) */
static void as_gauss_diag(as_gauss *ws, int64_t i, const double *rowsq, double f, double cen)
{
    int64_t N = ws->N;
    double kappa = ws->kappa, a = ws->ad[i], a1 = 1 - a, hd = ws->H[i + i * N];
    if (rowsq) {
        double vei = ws->ve[i] - kappa * hd * hd, vri = ws->vr[i] - kappa * ws->sbp[i] * ws->sbp[i],
               ci = ws->cre[i] - kappa * hd * ws->sbp[i], rho = vei > 0 ? ci / vei : 0;
        /* F_ii = log(a_ii + (1 - a_ii) exp(E_ii - R)), R the rest of
           the row (a_ii of Att(Y): exact when the rest moves as one).
           R given the known E_ii: the regression's mean; as variance
           not the conditional one (not Gaussian when a few columns
           carry the row) but the smaller of R's own and that of
           E_ii - R, each at least the conditional one (the second is
           far smaller where the rows are alike: the rest moves with
           E_ii); the regression's shift uncertain by its relative
           standard error, one over the square root of the effective
           count of the row's terms (Kish: (sum v)^2 / sum v^2 of
           v = omega y^4). The mean and the slope of F_ii in R at
           the regression's point (the delta method). */
        double shift = rho * (hd - rowsq[i]), neff = ws->q4[i] > 0 ? ws->ve[i] * ws->ve[i] / ws->q4[i] : 1;
        double vdi = vei - 2 * ci + vri, vmin = vdi < vri ? vdi : vri, e = a1 * exp((hd - rowsq[i]) - shift);
        ws->mu[i] = log(a + e);
        ws->sdd[i] = e / (a + e) * sqrt((vmin > 0 ? vmin : 0) + shift * shift / neff) + cen;
    } else ws->sdd[i] = f * ws->sdd[i] + cen;
}

/* the self part of each row's centre; the diagonal's known mean (not stacked:
   the diagonal entries' mu and sdd, the off-diagonal's sd in V grown) */
static void as_gauss_self(as_gauss *ws, const double *rowsq)
{
    int64_t N = ws->N, nr = ws->nr, nk = ws->nk, i, l;
    double *V = ws->V, *r = ws->r, *sdd = ws->sdd;
    const double *A = ws->A, *pi = ws->pi, *ad = ws->ad;
    /* row i's centre is not alpha_i e_i + (1 - alpha_i) pi (pi
       without i, rescaled): the difference dA of the two weights sums
       to 0, so its part of the centre is sum_m dA_m F^pi_im, of sd at
       most sum_m |dA_m| sd(F^pi_im) (cen[i]), added to the row's entries */
    for (i = 0; i < nr; i++) {
        double cen = 0, a1 = 1 - ad[i];
        sdd[i] = V[i + i * N];
        for (l = 0; l < nk; l++)
            if (l != i && pi[i] < 1) cen += fabs(A[i + l * nr] - a1 * pi[l] / (1 - pi[i])) * V[i + l * N];
        r[i] = cen;   /* r is spent: it holds the centre's sd from here on */
    }
    for (l = 0; l < nk; l++)
        for (i = 0; i < nr; i++)
            if (i != l) V[i + l * N] += ad[i] * sdd[i] + r[i];
    for (i = 0; i < nr; i++) as_gauss_diag(ws, i, rowsq, 1 - ad[i], r[i]);
}

int as_estimate_gauss(const as_matrix *X, const int64_t *cols, as_result *S, int sampling,
                      const double *term, const double *rowsq, as_common *c)
{
    int64_t N = X->nrow, k = S->k, t;
    int stacked = X->kind == AS_STACKED, iid = sampling == AS_SAMPLING_IID, dense = X->kind == AS_DENSE;
    int64_t nr = stacked ? X->part[0]->nrow : N, k0 = stacked ? nr : 0, nk = N - k0;
    double m = (double)S->m, alpha = 1 - AS_ESTIMATE_QUANTILE;
    as_gauss ws;
    as_tail_set T;
    memset(&ws, 0, sizeof ws);
    memset(&T, 0, sizeof T);
    S->estimate = AS_ESTIMATE_NONE;
    S->estimate_why = AS_WHY_MADE;
    S->rel_estimate = S->inf_estimate = NAN;
    if (iid && !(m >= 2)) {
        S->estimate_why = AS_WHY_ONE_DRAW;
        return AS_OK;
    }
    ws.N = N;
    ws.k = k;
    ws.nr = nr;
    ws.k0 = k0;
    ws.nk = nk;
    ws.stacked = stacked;
    ws.dense = dense;
    ws.kappa = iid ? 1.0 / (m - 1) : 0;
    if (as_gauss_alloc(&ws, c) != AS_OK) goto done;
    for (t = 0; t < k; t++) {
        ws.col[t] = cols ? cols[t] : t;
        ws.omega[t] = iid ? m / ((m - 1) * term[t]) : 1 - term[t];
        if (ws.omega[t] > 0) {
            ws.ku++;
            ws.nz += dense ? 0 : as_col_nnz(X, ws.col[t]);
        }
    }
    if (as_gram(X, k, ws.col, S->weight, ws.H, c) != AS_OK) goto done;
    /* Y Y' overflows: the sample stands, its estimate is NaN (as Att(Y) is) */
    if (!as_all_finite(N * N, ws.H)) { S->estimate_why = AS_WHY_OVERFLOW; goto done; }
    as_gauss_att(&ws);
    if (dense) {
        int64_t i;
        if (as_gauss_var_dense(&ws, X, S, c) != AS_OK) goto done;
        as_gauss_sd_dense(&ws);
        for (i = 0; i < N; i++) {
            ws.sdd[i] = ws.V[i + i * N];
            as_gauss_diag(&ws, i, rowsq, 1, 0);
        }
    } else {
        if (as_gauss_var(&ws, X, S, c) != AS_OK) goto done;
        as_gauss_sd(&ws);
        if (!stacked) as_gauss_self(&ws, rowsq);
    }
    if (!stacked) {
        T.ndiag = nr;
        T.dmu = ws.mu;
        T.ds = ws.sdd;
    }
    /* rel: every entry's a is 1 */
    if (as_tail_cells(nr, nk, ws.V, N, NULL, !stacked, &T, c) != AS_OK) goto done;
    T.da = NULL;
    S->rel_estimate = as_tail_solve(&T, alpha, as_tail_start(&T));
    as_free(c, T.cell);
    T.cell = NULL;
    if (as_tail_cells(nr, nk, ws.V, N, ws.A, !stacked, &T, c) != AS_OK) goto done;
    T.da = ws.ad;
    S->inf_estimate = as_tail_solve(&T, alpha, as_tail_start(&T));
    S->estimate = AS_ESTIMATE_GAUSSIAN;
    as_progress(c, "estimate: gaussian from the variance of %lld of %lld columns: rel %.3g", (long long)ws.ku,
                (long long)k, S->rel_estimate);
done:
    as_free(c, T.cell);
    as_gauss_free(&ws, c);
    return c->status;
}
