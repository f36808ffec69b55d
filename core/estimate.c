/* estimate.c: the error estimate of a sample from Y alone: the choice of kind, the bootstrap, their cost and working memory. */
#include "as_internal.h"
#include "estimate.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include "sample.h"
#include <stdio.h>
#include <stdlib.h>

/* A Poisson(lambda) variate from the counter-based generator: inversion of
   one uniform, or a rounded normal above 500 (where exp(-lambda) nears
   underflow and the normal is within 1e-2 of it). */
static double as_poisson_variate(double lambda, uint64_t seed, uint64_t index)
{
    double u, p, F, v;
    int64_t i;
    if (lambda > 500) {
        v = floor(lambda + sqrt(lambda) * as_rng_normal(seed, AS_STREAM_BOOTSTRAP, index) + 0.5);
        return v > 0 ? v : 0;
    }
    u = as_rng_unif(seed, AS_STREAM_BOOTSTRAP, index);
    p = exp(-lambda);
    F = p;
    for (i = 0; u > F && i < 100000; ) {
        i++;
        p *= lambda / (double)i;
        F += p;
        if (p == 0) break;
    }
    return (double)i;
}

static int as_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* c->tune.estimate_split (1): the bootstrap estimate on split columns. */

/* Resample b's weight of the t-th kept column (weight w, term q or count). */
static double as_resample_weight(int sampling, double w, double term, uint64_t seed, uint64_t idx)
{
    double f;
    if (sampling == AS_SAMPLING_IID)
        f = as_poisson_variate(term, seed, idx) / term;
    else if (term >= 1)
        f = 1;
    else
        f = 1 + (as_poisson_variate(1.0, seed, idx) - 1) * sqrt(1 - term);
    return w * sqrt(f);
}

/* H = the Gram of X(:, col[0..k)) diag(w) plus Hc (NULL: nothing). */
static int as_gram_plus(const as_matrix *X, int64_t k, const int64_t *col, const double *w,
                        const double *Hc, double *H, as_common *c)
{
    int64_t n = X->nrow, a;
    if (k > 0) {
        if (as_gram(X, k, col, w, H, c) != AS_OK) return c->status;
    } else memset(H, 0, sizeof(double) * (size_t)(n * n));
    if (Hc)
        for (a = 0; a < n * n; a++) H[a] += Hc[a];
    return c->status;
}

/* The largest |H_ii - r_i| of an n x n H, r read with stride rs (1: a
   vector; n + 1: the diagonal of another n x n matrix). */
static double as_diag_gap(int64_t n, const double *H, const double *r, int64_t rs)
{
    int64_t i;
    double gap = 0;
    for (i = 0; i < n; i++) gap = fmax(gap, fabs(H[i * (n + 1)] - r[i * rs]));
    return gap;
}

/* The bootstrap error estimate of a sample (see as_rand in attsparse.h).
   term[t]: draw count (i.i.d.) or q (Poisson) of the t-th kept column.
   Resample b of round r uses the uniforms (seed, bootstrap stream,
   (r * AS_ESTIMATE_B + b) * d + j): a function of the column, not of k.
   The Grams are of X(:, cols), in the sample's order: the same bits from X
   and its column indices as from the gathered columns (cols NULL). */
/* A sample with no column left to chance (Poisson, every kept column
   certain; or none kept): exact when the diagonal of its Y Y' is that of
   X X' to rounding (a column left out would show there: its squares are in
   X X''s diagonal only), else without an estimate: nothing in Y shows the
   spread of what it missed. */
static void as_estimate_no_chance(const as_matrix *X, const int64_t *cols, as_result *S,
                                  const double *rowsq, as_common *c)
{
    int64_t n = X->nrow, i, t;
    int exact = rowsq != NULL;
    double *h = rowsq ? as_calloc(c, (size_t)(n > 0 ? n : 1), sizeof(double)) : NULL;
    if (rowsq && !h) return;
    for (t = 0; t < S->k && h; t++) {
        double w = S->weight[t];
        AS_FOR_COL(X, cols ? cols[t] : t, row, v, { h[row] += (w * v) * (w * v); });
    }
    /* the two sums round differently: 1e-10 of a row's squared norm apart
       at most (a column left out below that moves no attention entry by more) */
    for (i = 0; i < n && exact; i++) exact = fabs(h[i] - rowsq[i]) <= 1e-10 * rowsq[i];
    as_free(c, h);
    S->estimate = exact ? AS_ESTIMATE_EXACT : AS_ESTIMATE_NONE;
    S->estimate_why = exact ? AS_WHY_MADE : S->k == 0 ? AS_WHY_EMPTY : AS_WHY_NO_CHANCE;
    S->rel_estimate = S->inf_estimate = exact ? 0 : NAN;
    if (!exact)
        as_progress(c, "estimate: none: %s", as_estimate_why(S->estimate_why));
}

static int as_estimate_bootstrap(const as_matrix *X, const int64_t *cols, int64_t d, as_result *S, int sampling,
                                 const double *term, uint64_t seed, int round, const double *rowsq, int diag_check,
                                 as_common *c)
{
    int64_t n = X->nrow, k = S->k, t, kc = 0, ku = 0;
    int b, B = AS_ESTIMATE_B;
    double *H = NULL, *Hb = NULL, *Hc = NULL, *wb = NULL, *wu = NULL, *wc = NULL,
           rel[AS_ESTIMATE_B], inf[AS_ESTIMATE_B], gap[AS_ESTIMATE_B], gap0 = 0;
    int64_t *colu = NULL, *colc = NULL, *posu = NULL;
    as_metrics M;
    S->estimate = AS_ESTIMATE_NONE;
    S->estimate_why = AS_WHY_MADE;
    S->rel_estimate = S->inf_estimate = NAN;
    if (sampling == AS_SAMPLING_POISSON)
        for (t = 0; t < k; t++) kc += term[t] >= 1;
    /* Poisson sampling: the columns kept for certain (q = 1) have the same
       weight in every resample, so their Gram (Hc) is made once and each
       resample's Gram is Hc plus that of the other columns */
    if (!c->tune.estimate_split) kc = 0;
    ku = k - kc;
    H = as_malloc(c, (size_t)(n * n), sizeof(double));
    Hb = as_malloc(c, (size_t)(n * n), sizeof(double));
    Hc = kc > 0 ? as_malloc(c, (size_t)(n * n), sizeof(double)) : NULL;
    wb = as_malloc(c, (size_t)ku, sizeof(double));
    wu = as_malloc(c, (size_t)ku, sizeof(double));
    colu = as_malloc(c, (size_t)ku, sizeof(int64_t));
    posu = as_malloc(c, (size_t)ku, sizeof(int64_t));
    wc = kc > 0 ? as_malloc(c, (size_t)kc, sizeof(double)) : NULL;
    colc = kc > 0 ? as_malloc(c, (size_t)kc, sizeof(int64_t)) : NULL;
    if (!H || !Hb || !wb || !wu || !colu || !posu || (kc > 0 && (!Hc || !wc || !colc))) goto done;
    {
        int64_t iu = 0, ic = 0;
        for (t = 0; t < k; t++) {
            int64_t col = cols ? cols[t] : t;
            if (kc > 0 && term[t] >= 1) {
                colc[ic] = col;
                wc[ic++] = S->weight[t];
            } else {
                colu[iu] = col;
                wu[iu] = S->weight[t];
                posu[iu++] = t;
            }
        }
    }
    if (kc > 0 && (as_gram(X, kc, colc, wc, Hc, c) != AS_OK || !as_all_finite(n * n, Hc))) goto done;
    if (as_gram_plus(X, ku, colu, wu, Hc, H, c) != AS_OK) goto done;
    /* Y Y' overflows: the sample stands, its estimate is NaN (as Att(Y) is) */
    if (!as_all_finite(n * n, H)) { S->estimate_why = AS_WHY_OVERFLOW; goto done; }
    /* the diagonal of Y Y' against that of X X' */
    if (rowsq && diag_check) gap0 = as_diag_gap(n, H, rowsq, 1);
    as_progress(c, "estimate: %d resamples of %lld columns (%lld kept for certain)", B, (long long)k,
                (long long)kc);
    for (b = 0; b < B; b++) {
        uint64_t base = ((uint64_t)round * (uint64_t)B + (uint64_t)b) * (uint64_t)d;
        for (t = 0; t < ku; t++)
            wb[t] = as_resample_weight(sampling, wu[t], term[posu[t]], seed,
                                       base + (uint64_t)S->index[posu[t]]);
        if (as_gram_plus(X, ku, colu, wb, Hc, Hb, c) != AS_OK) goto done;
        if (!as_all_finite(n * n, Hb)) { S->estimate_why = AS_WHY_OVERFLOW; goto done; }
        if (as_compare_view(X, H, Hb, 0, &M, c) != AS_OK) goto done;
        rel[b] = M.rel;
        inf[b] = M.inf;
        if (rowsq && diag_check) gap[b] = as_diag_gap(n, Hb, H, n + 1);
        if (as_interrupted(c)) goto done;
    }
    qsort(rel, (size_t)B, sizeof(double), as_cmp_double);
    qsort(inf, (size_t)B, sizeof(double), as_cmp_double);
    b = (int)ceil(AS_ESTIMATE_QUANTILE * B) - 1;
    S->rel_estimate = rel[b];
    S->inf_estimate = inf[b];
    S->estimate = AS_ESTIMATE_BOOTSTRAP;
    /* the diagonal of X X' is known: when the sample's diagonal is further
       from it than the same quantile of the resamples' gaps from the
       sample's, the resamples are too narrow (the sample missed mass they
       cannot see), and the estimate is scaled by that ratio */
    if (rowsq && diag_check) {
        qsort(gap, (size_t)B, sizeof(double), as_cmp_double);
        if (gap[b] > 0 && gap0 > gap[b]) {
            as_progress(c, "estimate: the diagonal of Y Y' is %.3g times further from that of X X' than the "
                        "resamples' quantile: the estimate %.3g scaled by it", gap0 / gap[b], S->rel_estimate);
            S->rel_estimate *= gap0 / gap[b];
            S->inf_estimate *= gap0 / gap[b];
        }
    }
done:
    as_free(c, H);
    as_free(c, Hb);
    as_free(c, Hc);
    as_free(c, wb);
    as_free(c, wu);
    as_free(c, wc);
    as_free(c, colu);
    as_free(c, colc);
    as_free(c, posu);
    return c->status;
}

int as_estimate(const as_matrix *X, const int64_t *cols, int64_t d, as_result *S, int sampling,
                const double *term, uint64_t seed, int round, const double *rowsq, int diag_check, int kind,
                as_common *c)
{
    int64_t t, kc = 0;
    S->estimate = AS_ESTIMATE_NONE;
    S->estimate_why = AS_WHY_MADE;
    S->rel_estimate = S->inf_estimate = NAN;
    if (sampling == AS_SAMPLING_POISSON)
        for (t = 0; t < S->k; t++) kc += term[t] >= 1;
    if (S->k == kc) {   /* nothing left to chance: no spread to estimate */
        as_estimate_no_chance(X, cols, S, rowsq, c);
        return c->status;
    }
    if (kind == AS_ESTIMATE_BOOTSTRAP)
        return as_estimate_bootstrap(X, cols, d, S, sampling, term, seed, round, rowsq, diag_check, c);
    return as_estimate_gauss(X, cols, S, sampling, term, rowsq, c);
}

int as_estimate_wanted(const as_rand_options *o, as_result *S)
{
    S->estimate_why = o->estimate == AS_ESTIMATE_NONE ? AS_WHY_NOT_ASKED : AS_WHY_MADE;
    return o->estimate != AS_ESTIMATE_NONE;
}

/* The working arrays of the error estimate (and of target mode's rounds)
   on top of `bytes` of the sampling's, refused above the 'memory' cap. */
int as_estimate_memory(const as_matrix *X, const as_rand_options *o, double bytes, as_common *c)
{
    double n = (double)X->nrow;
    int boot = o->estimate == AS_ESTIMATE_BOOTSTRAP, poisson = as_rand_sampling(o) == AS_SAMPLING_POISSON;
    char what[200];
    if (o->estimate == AS_ESTIMATE_NONE) return AS_OK;
    /* gaussian: Y Y', Att(Y) and the variance's Gram (a dense X: and the
       product of its row-centred part); bootstrap: Y Y' and a resample's
       Gram (Poisson: and the Gram of the columns kept for certain) */
    int arrays = boot ? (poisson ? 3 : 2) : (X->kind == AS_DENSE ? 4 : 3);
    snprintf(what, sizeof what, "the error estimate needs %d n x n arrays (n = nrow(X) = %.0f; estimate = \"none\" "
             "skips it)", arrays, n);
    return as_mem_check(c, bytes + 8.0 * arrays * n * n, o->mem_mb, what);
}

const char *as_estimate_why(int why)
{
    switch (why) {
    case AS_WHY_MADE: return "";
    case AS_WHY_NOT_ASKED: return "not asked for (option estimate)";
    case AS_WHY_EMPTY: return "the sample is empty while X is not (a larger m keeps columns)";
    case AS_WHY_NO_CHANCE:
        return "every kept column was kept for certain while others were left out: Y shows nothing "
               "of what it missed (a larger m leaves columns to chance)";
    case AS_WHY_OVERFLOW: return "Y Y' overflows";
    case AS_WHY_ONE_DRAW: return "one draw (m = 1) shows nothing of the sampling's spread";
    case AS_WHY_REFIT: return "the weights were refitted against X X': rel_error is exact";
    default: return "";
    }
}

const char *as_estimate_name(int kind)
{
    switch (kind) {
    case AS_ESTIMATE_GAUSSIAN: return "gaussian";
    case AS_ESTIMATE_BOOTSTRAP: return "bootstrap";
    case AS_ESTIMATE_EXACT: return "exact";
    default: return "none";
    }
}
