/* sample.c: the randomized algorithm's sampling: probabilities, the default m, i.i.d. or Poisson sampling, reweighting, the bootstrap error estimate, target mode. */
#include "as_internal.h"
#include <stdio.h>
#include <stdlib.h>

double as_default_m(int64_t rank, double eps, double delta, double beta)
{
    /* Tropp (2012), Thm 1.1: for i.i.d. PSD terms of norm <= R with mean I_r,
       P(lmax >= 1+eps) <= r (e^eps / (1+eps)^(1+eps))^(1/R) and
       P(lmin <= 1-eps) <= r (e^-eps / (1-eps)^(1-eps))^(1/R); the first is the
       larger. Leverage sampling gives R = beta r / m. */
    double h = (1 + eps) * log1p(eps) - eps;
    if (rank < 1) return 0;
    return ceil(beta * (double)rank * log(2.0 * (double)rank / delta) / h);
}

int as_sample_check_finite_cols(const as_matrix *X, const int64_t *cols, const as_sample *S,
                                as_common *c)
{
    int64_t t;
    for (t = 0; t < S->k; t++) {
        double w = S->weight[t], amax = 0;
        AS_FOR_COL(X, cols ? cols[t] : t, row, v, { (void)row; amax = fmax(amax, fabs(v)); });
        if (!isfinite(w) || !isfinite(w * amax))
            return as_error(c, AS_ERR_INPUT, "Y would overflow: column %lld of X (largest entry %g) "
                            "times its weight %g is above the largest double; scale X down",
                            (long long)(S->index[t] + 1), amax, w);
    }
    return AS_OK;
}

int as_sample_check_finite(const as_matrix *X, const as_sample *S, as_common *c)
{
    return as_sample_check_finite_cols(X, S->index, S, c);
}

/* Unnormalized sampling probabilities of one scheme from the leverage
   scores lev and the squared norms nrm (each computed when the scheme needs it). */
static void as_scheme_probabilities(int64_t d, int scheme, const double *lev, const double *nrm,
                                    double *prob)
{
    int64_t j;
    double slev = 0, snrm = 0;
    if (scheme == AS_PROB_LEVERAGE) { memcpy(prob, lev, sizeof(double) * (size_t)d); return; }
    if (scheme == AS_PROB_NORM) { memcpy(prob, nrm, sizeof(double) * (size_t)d); return; }
    if (scheme == AS_PROB_UNIFORM) { for (j = 0; j < d; j++) prob[j] = 1.0; return; }
    /* mixed: each part normalized to sum 1, so each keeps half its weight */
    for (j = 0; j < d; j++) { slev += lev[j]; snrm += nrm[j]; }
    for (j = 0; j < d; j++)
        prob[j] = 0.5 * ((slev > 0 ? lev[j] / slev : 0) + (snrm > 0 ? nrm[j] / snrm : 0));
}

/* m draws i.i.d. from prob (cdf its cumulative sums, total its sum); repeats
   merged. mult[t] receives the draw count of the t-th kept column. */
static int as_sample_iid(int64_t d, const double *prob, const double *cdf,
                         double total, int64_t m, uint64_t seed, as_sample *out,
                         double **mult, as_common *c)
{
    int64_t j, k, t;
    int32_t *count = as_calloc(c, (size_t)d, sizeof(int32_t));
    if (!count) return c->status;
    {
        int nt = as_threads(c);
        int64_t t0, chunk = 1 << 20;
        for (t0 = 0; t0 < m; t0 += chunk) {
            int64_t t1 = t0 + chunk < m ? t0 + chunk : m;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
            for (t = t0; t < t1; t++) {
                double u = as_rng_unif(seed, AS_STREAM_SAMPLE, (uint64_t)t) * total;
                int64_t lo = 0, hi = d - 1;
                /* first j with cdf[j] > u: never a column of probability 0 */
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (cdf[mid] > u) hi = mid; else lo = mid + 1;
                }
                /* u rounded up to total: step back over trailing zero columns */
                while (lo > 0 && prob[lo] == 0) lo--;
#ifdef _OPENMP
#pragma omp atomic
#endif
                count[lo]++;
            }
            if (as_interrupted(c)) goto done;
        }
    }
    for (k = 0, j = 0; j < d; j++) k += count[j] > 0;
    out->index = as_malloc(c, (size_t)k, sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)k, sizeof(double));
    *mult = as_malloc(c, (size_t)k, sizeof(double));
    if (!out->index || !out->weight || !*mult) goto done;
    for (t = 0, j = 0; j < d; j++) {
        if (count[j] > 0) {
            double pj = prob[j] / total;
            out->index[t] = j;
            out->weight[t] = sqrt((double)count[j] / ((double)m * pj));
            (*mult)[t] = (double)count[j];
            t++;
        }
    }
    out->k = k;
done:
    as_free(c, count);
    return c->status;
}

/* Poisson sampling's probability of keeping a column of probability p
   (1: kept for certain). */
static double as_poisson_q(int64_t m, double p, double total)
{
    double q = (double)m * (p / total);
    return q > 1 ? 1 : q;
}

int64_t as_block_poisson(int64_t j0, int64_t len, const double *prob, double total, int64_t m,
                         uint64_t seed, int64_t *index, double *weight, double *q)
{
    int64_t t, k = 0;
    for (t = 0; t < len; t++) {
        double qj = as_poisson_q(m, prob[t], total);
        if (prob[t] > 0 && as_rng_unif(seed, AS_STREAM_POISSON, (uint64_t)(j0 + t)) < qj) {
            if (index) {
                index[k] = j0 + t;
                weight[k] = qj < 1 ? 1.0 / sqrt(qj) : 1.0;
                if (q) q[k] = qj;
            }
            k++;
        }
    }
    return k;
}

/* Poisson sampling of all d columns (as_block_poisson over one block); qk[t]
   receives q of the t-th kept column. A larger m keeps a superset of the columns. */
static int as_sample_poisson(int64_t d, const double *prob, double total, int64_t m,
                             uint64_t seed, as_sample *out, double **qk, as_common *c)
{
    int64_t k = as_block_poisson(0, d, prob, total, m, seed, NULL, NULL, NULL);
    out->index = as_malloc(c, (size_t)k, sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)k, sizeof(double));
    *qk = as_malloc(c, (size_t)k, sizeof(double));
    if (!out->index || !out->weight || !*qk) return c->status;
    out->k = as_block_poisson(0, d, prob, total, m, seed, out->index, out->weight, *qk);
    return AS_OK;
}

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

double as_estimate_auto_madds = 1e10;

/* 'estimate' left to its default (-1): the estimate is made unless its
   Grams (AS_ESTIMATE_B of Y; with Poisson sampling one of the columns kept
   for certain and AS_ESTIMATE_B of the others) would cost more than
   as_estimate_auto_madds multiply-adds and more than the one Gram of X that
   gives the exact error (error = TRUE): when most of X's Gram work sits in
   the resampled columns, the exact error is the cheaper way to learn how
   close Y is. */
double as_estimate_madds(const as_matrix *X, int64_t k, const int64_t *index, int sampling,
                         const double *term)
{
    int64_t t, j;
    double cost = 0, w;
    if (sampling != AS_SAMPLING_POISSON) return AS_ESTIMATE_B * as_gram_madds(X, k, index);
    /* one Gram of the columns kept for certain, AS_ESTIMATE_B of the others */
    for (t = 0; t < k; t++) {
        j = index[t];
        w = as_gram_madds(X, 1, &j);
        cost += term[t] >= 1 ? w : AS_ESTIMATE_B * w;
    }
    return cost;
}

int as_estimate_affordable(const as_matrix *X, int64_t k, const int64_t *index, int sampling,
                           const double *term, int share, double *est, double *exact)
{
    *est = as_estimate_madds(X, k, index, sampling, term);
    *exact = NAN;
    if (*est <= as_estimate_auto_madds) return 1;
    *exact = as_gram_madds(X, X->ncol, NULL);
    return *est * (share > 1 ? share : 1) <= *exact;
}

static int as_all_finite(int64_t len, const double *v)
{
    int64_t i;
    for (i = 0; i < len; i++) if (!isfinite(v[i])) return 0;
    return 1;
}

static int as_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int as_estimate_split = 1;

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
int as_estimate(const as_matrix *X, const int64_t *cols, int64_t d, as_sample *S, int sampling,
                const double *term, uint64_t seed, int round, const double *rowsq, as_common *c)
{
    int64_t n = X->nrow, k = S->k, t, kc = 0, ku = 0;
    int b, B = AS_ESTIMATE_B;
    double *H = NULL, *Hb = NULL, *Hc = NULL, *wb = NULL, *wu = NULL, *wc = NULL,
           rel[AS_ESTIMATE_B], inf[AS_ESTIMATE_B], gap[AS_ESTIMATE_B], gap0 = 0;
    int64_t *colu = NULL, *colc = NULL, *posu = NULL;
    as_metrics M;
    if (k == 0) { S->rel_estimate = S->inf_estimate = 0; return AS_OK; }
    /* Poisson sampling: the columns kept for certain (q = 1) have the same
       weight in every resample, so their Gram (Hc) is made once and each
       resample's Gram is Hc plus that of the other columns */
    if (sampling == AS_SAMPLING_POISSON && as_estimate_split)
        for (t = 0; t < k; t++) kc += term[t] >= 1;
    ku = k - kc;
    if (ku == 0) { S->rel_estimate = S->inf_estimate = 0; return AS_OK; }   /* every resample is Y */
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
    if (!as_all_finite(n * n, H)) goto done;
    /* the diagonal of Y Y' against that of X X' */
    if (rowsq) gap0 = as_diag_gap(n, H, rowsq, 1);
    as_progress(c, "estimate: %d resamples of %lld columns (%lld kept for certain)", B, (long long)k,
                (long long)kc);
    for (b = 0; b < B; b++) {
        uint64_t base = ((uint64_t)round * (uint64_t)B + (uint64_t)b) * (uint64_t)d;
        for (t = 0; t < ku; t++)
            wb[t] = as_resample_weight(sampling, wu[t], term[posu[t]], seed,
                                       base + (uint64_t)S->index[posu[t]]);
        if (as_gram_plus(X, ku, colu, wb, Hc, Hb, c) != AS_OK) goto done;
        if (!as_all_finite(n * n, Hb)) goto done;
        if (as_compare_view(X, H, Hb, 0, &M, c) != AS_OK) goto done;
        rel[b] = M.rel;
        inf[b] = M.inf;
        if (rowsq) gap[b] = as_diag_gap(n, Hb, H, n + 1);
        if (as_interrupted(c)) goto done;
    }
    qsort(rel, (size_t)B, sizeof(double), as_cmp_double);
    qsort(inf, (size_t)B, sizeof(double), as_cmp_double);
    b = (int)ceil(AS_ESTIMATE_QUANTILE * B) - 1;
    S->rel_estimate = rel[b];
    S->inf_estimate = inf[b];
    /* the diagonal of X X' is known: when the sample's diagonal is further
       from it than the same quantile of the resamples' gaps from the
       sample's, the resamples are too narrow (the sample missed mass they
       cannot see), and the estimate is scaled by that ratio */
    if (rowsq) {
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

/* Target mode's rounds keep, once X X' is at hand, the Grams of their samples
   split as Y Y' = C + U / m: C = sum x_j x_j' over the columns kept for
   certain (q_j = 1), U = sum x_j x_j' total / p_j over the others (their
   weight^2 1 / q_j = total / (m p_j)). A larger m keeps a superset of the
   columns, so a round adds the Grams of its new columns and moves those that
   became certain from U to C: over all rounds, about one Gram of the last
   sample instead of one a round. */
typedef struct as_round_acc {
    double *C, *U;     /* n x n each; NULL until the first round           */
    int64_t *index, k; /* the previous round's columns (increasing)        */
    int64_t m;         /* and its m                                        */
} as_round_acc;

static void as_round_acc_free(as_round_acc *A, as_common *c)
{
    as_free(c, A->C);
    as_free(c, A->U);
    as_free(c, A->index);
    memset(A, 0, sizeof(*A));
}

/* H = Y Y' of the Poisson sample S (prob, total, m) from the accumulated
   Grams, updated with S's new and newly certain columns. */
static int as_round_gram(const as_matrix *X, const as_sample *S, const double *prob, double total, int64_t m,
                         as_round_acc *A, double *H, as_common *c)
{
    int64_t n = X->nrow, t, u, e, nc = 0, nu = 0, nm = 0;
    int64_t *ic = NULL, *iu = NULL, *im = NULL;
    double *wu = NULL, *wm = NULL, *T = NULL, inv = 1.0 / (double)m;
    int first = A->C == NULL;
    ic = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    iu = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    wu = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(double));
    im = as_malloc(c, (size_t)(A->k > 0 ? A->k : 1), sizeof(int64_t));
    wm = as_malloc(c, (size_t)(A->k > 0 ? A->k : 1), sizeof(double));
    T = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!ic || !iu || !wu || !im || !wm || !T) goto done;
    if (first) {
        A->C = as_calloc(c, (size_t)(n * n), sizeof(double));
        A->U = as_calloc(c, (size_t)(n * n), sizeof(double));
        if (!A->C || !A->U) goto done;
    }
    /* S's columns not in the previous round, split by certainty; the previous
       round's uncertain columns that are certain now (both lists increase) */
    for (t = 0, u = 0; t < S->k; t++) {
        int64_t j = S->index[t];
        int certain = as_poisson_q(m, prob[j], total) == 1;
        while (u < A->k && A->index[u] < j) u++;
        if (u < A->k && A->index[u] == j) {
            if (certain && as_poisson_q(A->m, prob[j], total) < 1) {
                im[nm] = j;
                wm[nm++] = sqrt(total / prob[j]);
            }
            continue;
        }
        if (certain) ic[nc++] = j;
        else {
            iu[nu] = j;
            wu[nu++] = sqrt(total / prob[j]);
        }
    }
    if (nc > 0) {
        if (as_gram(X, nc, ic, NULL, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->C[e] += T[e];
    }
    if (nu > 0) {
        if (as_gram(X, nu, iu, wu, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->U[e] += T[e];
    }
    if (nm > 0) {
        if (as_gram(X, nm, im, wm, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->U[e] -= T[e];
        if (as_gram(X, nm, im, NULL, T, c) != AS_OK) goto done;
        for (e = 0; e < n * n; e++) A->C[e] += T[e];
    }
    for (e = 0; e < n * n; e++) H[e] = A->C[e] + A->U[e] * inv;
    /* this round's columns for the next */
    as_free(c, A->index);
    A->index = as_malloc(c, (size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    if (!A->index) goto done;
    memcpy(A->index, S->index, sizeof(int64_t) * (size_t)S->k);
    A->k = S->k;
    A->m = m;
done:
    as_free(c, ic);
    as_free(c, iu);
    as_free(c, wu);
    as_free(c, im);
    as_free(c, wm);
    as_free(c, T);
    return c->status;
}

/* The exact rel and inf of a sample as its "estimate" (target mode, when the
   bootstrap would cost more than the exact error): X X' once into *G, then
   the sample's Gram each round (from the accumulated Grams when A is given). */
static int as_exact_as_estimate(const as_matrix *X, as_sample *S, const double *prob, double total, int64_t m,
                                as_round_acc *A, double **G, as_common *c)
{
    int64_t n = X->nrow;
    double *H = NULL;
    as_metrics M;
    H = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!H) return c->status;
    if (*G == NULL) {
        /* the first time: X X' and Y Y' from one pass over X */
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G || as_gram_pair(X, S->k, S->index, S->weight, *G, H, c) != AS_OK ||
            as_gram_finite(n, *G, "X", c) != AS_OK)
            goto done;
    } else if (A) {
        if (as_round_gram(X, S, prob, total, m, A, H, c) != AS_OK) goto done;
    } else if (as_gram(X, S->k, S->index, S->weight, H, c) != AS_OK) goto done;
    /* Y Y' overflows: the sample stands, its estimate is NaN (as with the bootstrap) */
    if (!as_all_finite(n * n, H)) goto done;
    if (as_compare_view(X, *G, H, 0, &M, c) != AS_OK) goto done;
    S->rel_estimate = M.rel;
    S->inf_estimate = M.inf;
done:
    as_free(c, H);
    return c->status;
}

/* Poisson sample with m from prob and its estimate (bootstrap round r), or
   its exact error where the bootstrap costs more (as_estimate_affordable,
   X X' shared among `share` samples: the pilots) and from then on (X X' at
   hand in *G, one Gram of Y is cheaper than the bootstrap's 31); out is
   filled (free it with as_sample_free). */
static int as_poisson_round(const as_matrix *X, const double *prob, double total, int64_t m,
                            uint64_t seed, int r, int share, double **G, as_round_acc *A,
                            const double *rowsq, as_sample *out, as_common *c)
{
    double *term = NULL, est = 0, exact;
    as_sample_init(out);
    out->m = m;
    if (as_sample_poisson(X->ncol, prob, total, m, seed, out, &term, c) == AS_OK) {
        if (out->k == 0 || (*G == NULL && as_estimate_affordable(X, out->k, out->index, AS_SAMPLING_POISSON, term, share, &est, &exact)))
            as_estimate(X, out->index, X->ncol, out, AS_SAMPLING_POISSON, term, seed, r, rowsq, c);
        else {
            if (*G == NULL)
                as_progress(c, "target: exact errors from here on (the bootstrap of the %lld kept columns, "
                            "%.3g multiply-adds, costs more than X X')", (long long)out->k, est);
            as_exact_as_estimate(X, out, prob, total, m, A, G, c);
        }
    }
    as_free(c, term);
    if (c->status != AS_OK) as_sample_free(out, c);
    return c->status;
}

static double as_sum(int64_t d, const double *v)
{
    int64_t j;
    double t = 0;
    for (j = 0; j < d; j++) t += v[j];
    return t;
}

/* The bar a smaller sample's estimate must meet in target mode's shrink
   (see as_rand_target): rel when the sample, drawn with m, leaves at least
   rank columns to chance (q_j < 1), else AS_TARGET_SHRINK_MET rel. */
static double as_shrink_bar(const as_sample *S, const double *prob, double total, int64_t m,
                            int64_t rank, double rel)
{
    int64_t t, chance = 0;
    for (t = 0; t < S->k; t++) chance += as_poisson_q(m, prob[S->index[t]], total) < 1;
    return chance >= (rank > 0 ? rank : 1) ? rel : AS_TARGET_SHRINK_MET * rel;
}

static double as_scheme_beta(int64_t d, int64_t rank, const double *lev, int scheme, int64_t s1,
                             const as_rand_options *o, double *delta_sampling);

int as_rand_target(const as_matrix *X, const as_rand_options *o, const double *lev,
                   const double *nrm, double *prob, as_sample *out, double **Gout, as_common *c)
{
    int64_t d = X->ncol, m0, m, kpos, j, mfloor = 0;
    int cand[3], ncand = 0, t, best = -1, rounds;
    double bestscore = INFINITY, total, *G = NULL, *rowsq = NULL;
    as_round_acc acc;
    memset(&acc, 0, sizeof(acc));
    *Gout = NULL;
    as_sample S, T;
    as_sample_init(&S);
    /* the diagonal of X X', which every round's bootstrap is checked against
       (as_estimate): the rows' squared norms, in column order */
    rowsq = as_calloc(c, (size_t)(X->nrow > 0 ? X->nrow : 1), sizeof(double));
    if (!rowsq) goto drop;
    for (j = 0; j < d; j++) AS_FOR_COL(X, j, row, v, { rowsq[row] += v * v; });
    /* eps given: only the probabilities that carry the spectral guarantee */
    if (o->probabilities == AS_PROB_AUTO) {
        cand[ncand++] = AS_PROB_LEVERAGE;
        if (isnan(o->eps)) cand[ncand++] = AS_PROB_NORM;
        cand[ncand++] = AS_PROB_MIXED;
    } else cand[ncand++] = o->probabilities;
    m0 = AS_PILOT_FACTOR * (out->rank > 0 ? out->rank : 1);
    for (t = 0; t < ncand; t++) {
        double score;
        as_scheme_probabilities(d, cand[t], lev, nrm, prob);
        total = as_sum(d, prob);
        /* X == 0: the empty sample is exact (what was kept so far is dropped) */
        if (!(total > 0)) { out->probabilities = cand[t]; out->rounds = 1;
                            out->rel_estimate = out->inf_estimate = 0; goto drop; }
        if (as_poisson_round(X, prob, total, m0, o->seed, 0, ncand, &G, NULL, rowsq, &T, c) != AS_OK) goto drop;
        score = T.rel_estimate * sqrt((double)T.k);
        as_progress(c, "target: pilot %d, m = %lld, k = %lld, estimate %.3g", cand[t],
                    (long long)m0, (long long)T.k, T.rel_estimate);
        if (best < 0 || score < bestscore) {
            as_sample_free(&S, c);
            S = T;
            best = cand[t];
            bestscore = score;
        } else as_sample_free(&T, c);
    }
    as_scheme_probabilities(d, best, lev, nrm, prob);
    total = as_sum(d, prob);
    for (kpos = 0, j = 0; j < d; j++) kpos += prob[j] > 0;
    m = m0;
    rounds = 1;
    /* eps given: the m of the spectral guarantee for the picked probabilities
       (as_default_m, as the default mode's) is a floor; its sample is a
       superset of the pilot's */
    if (!isnan(o->eps)) {
        double ds, meps;
        out->beta = as_scheme_beta(d, out->rank, lev, best, out->s1, o, &ds);
        meps = as_default_m(out->rank, o->eps, ds, out->beta);
        if (!(meps <= (double)AS_M_MAX)) {
            as_error(c, AS_ERR_TOOBIG, "the 'm' of eps = %g, delta = %g is %.3g draws, above %lld: pass a larger 'eps'",
                     o->eps, o->delta, meps, (long long)AS_M_MAX);
            goto drop;
        }
        mfloor = (int64_t)meps;
        if (mfloor > m) {
            if (as_poisson_round(X, prob, total, mfloor, o->seed, rounds, 1, &G, &acc, rowsq, &T, c) != AS_OK) goto drop;
            rounds++;
            as_progress(c, "target: round %d, m = %lld (the floor for eps = %g), k = %lld, estimate %.3g", rounds,
                        (long long)mfloor, o->eps, (long long)T.k, T.rel_estimate);
            as_sample_free(&S, c);
            S = T;
            m = mfloor;
        }
    }
    /* the pilot meets the target with room to spare: a smaller m (whose
       sample is a subset of the pilot's) by the same m^-1/2 law, aiming at
       the bar of the smaller sample; once a smaller m misses, the geometric
       means of it and the smallest m that met, while they differ by more
       than the factor AS_TARGET_SHRINK. The bar is the target when the
       sample leaves at least rank columns to chance, else
       AS_TARGET_SHRINK_MET of it: the bootstrap resamples only the columns
       left to chance, and with fewer of them than dimensions it falls short
       most often, while keeping the smallest of several samples that pass
       picks the ones whose estimate fell short. When the pilot itself is
       under the stricter bar, m stays at least half the pilot's; m stays
       at least the rank (fewer expected columns than dimensions: a sample
       that misses most of X's mass resamples to nearly itself, its
       estimate small whatever its error) and at least eps's floor. An
       estimate of 0 from a sample that leaves columns out, every kept
       column certain, counts as a miss. */
    {
        int64_t mmin = as_shrink_bar(&S, prob, total, m, out->rank, o->rel) < o->rel && m0 / 2 > 1 ? m0 / 2 : 1;
        int64_t miss = 0, mn;
        if (mmin < out->rank) mmin = out->rank;
        if (mmin < mfloor) mmin = mfloor;
        while (S.rel_estimate <= o->rel && rounds < AS_TARGET_ROUNDS) {
            if (miss == 0) {
                double bar = as_shrink_bar(&S, prob, total, m, out->rank, o->rel);
                double f = 1.1 * (S.rel_estimate / bar) * (S.rel_estimate / bar);
                if (f > AS_TARGET_SHRINK || m <= mmin) break;
                mn = (int64_t)floor((double)m * f);
                if (mn < mmin) mn = mmin;
            } else {
                if ((double)miss >= AS_TARGET_SHRINK * (double)m) break;
                mn = (int64_t)floor(sqrt((double)miss * (double)m));
                if (mn <= miss || (double)mn > AS_TARGET_SHRINK * (double)m) break;
            }
            if (as_poisson_round(X, prob, total, mn, o->seed, rounds, 1, &G, NULL, rowsq, &T, c) != AS_OK) goto drop;
            rounds++;
            as_progress(c, "target: round %d, m = %lld, k = %lld, estimate %.3g", rounds, (long long)mn,
                        (long long)T.k, T.rel_estimate);
            if (!(T.rel_estimate <= as_shrink_bar(&T, prob, total, mn, out->rank, o->rel)) ||
                (T.rel_estimate == 0 && T.k < kpos)) {
                as_progress(c, "target: round %d's sample dropped (%s)", rounds,
                            T.rel_estimate > 0 ? "its estimate is above the smaller sample's bar"
                                               : "no column left to chance");
                as_sample_free(&T, c);
                miss = mn;
                continue;
            }
            as_sample_free(&S, c);
            S = T;
            m = mn;
        }
    }
    for (; S.rel_estimate > o->rel && rounds < AS_TARGET_ROUNDS && S.k < kpos &&
           m < AS_M_MAX; rounds++) {
        double f = 1.1 * (S.rel_estimate / o->rel) * (S.rel_estimate / o->rel);
        /* at most 4x a round: a small pilot's estimate is not yet on the m^-1/2 law */
        double mn = ceil((double)m * (f < 1.25 ? 1.25 : f > 4 ? 4 : f));
        m = mn < (double)AS_M_MAX ? (int64_t)mn : AS_M_MAX;
        if (as_poisson_round(X, prob, total, m, o->seed, rounds, 1, &G, &acc, rowsq, &T, c) != AS_OK) goto drop;
        as_progress(c, "target: round %d, m = %lld, k = %lld, estimate %.3g", rounds + 1,
                    (long long)m, (long long)T.k, T.rel_estimate);
        as_sample_free(&S, c);
        S = T;
    }
    out->k = S.k;
    out->index = S.index;
    out->weight = S.weight;
    out->m = m;
    out->rel_estimate = S.rel_estimate;
    out->inf_estimate = S.inf_estimate;
    out->probabilities = best;
    out->rounds = rounds;
    *Gout = G;
    as_round_acc_free(&acc, c);
    as_free(c, rowsq);
    return AS_OK;
drop:   /* an error, or X == 0 */
    as_round_acc_free(&acc, c);
    as_free(c, rowsq);
    as_free(c, G);
    as_sample_free(&S, c);
    return c->status;
}

/* The beta of the probabilities of a scheme (p_j >= tau_j / (beta r) for
   every column, see as_sketch_beta) and the failure probability left to the
   sampling, for the default m: the user's beta as given (with all of delta);
   exact leverage scores 1; approximate ones b / a times their measured sum
   over the rank, the sketches taking delta / 2; mixed twice the leverage
   part's. Norm and uniform probabilities carry no such bound: the m of
   beta = 2, a size and no guarantee. s1: embedding rows (0: exact). */
static double as_scheme_beta(int64_t d, int64_t rank, const double *lev, int scheme, int64_t s1,
                             const as_rand_options *o, double *delta_sampling)
{
    double beta = 1;
    *delta_sampling = o->delta;
    if (o->beta >= 1) return o->beta;
    if (scheme == AS_PROB_NORM || scheme == AS_PROB_UNIFORM) return 2;
    if (s1 > 0 && rank > 0) {
        beta = as_sketch_beta(s1, as_jl_width(o, d, rank), d, o->delta) * as_sum(d, lev) / (double)rank;
        *delta_sampling = o->delta / 2;
    }
    return scheme == AS_PROB_MIXED ? 2 * beta : beta;
}

int as_rand_sample(int64_t d, int64_t rank, const double *lev, const double *nrm, int scheme,
                   const as_rand_options *o, double *prob, as_sample *out, double **term,
                   as_common *c)
{
    int64_t j, m;
    double *cdf = NULL, total = 0, mreq, delta_sampling;
    as_scheme_probabilities(d, scheme, lev, nrm, prob);
    out->beta = as_scheme_beta(d, rank, lev, scheme, out->s1, o, &delta_sampling);
    mreq = o->m > 0 ? (double)o->m : as_default_m(rank, as_rand_eps(o), delta_sampling, out->beta);
    if (!(mreq <= (double)AS_M_MAX))
        return as_error(c, AS_ERR_TOOBIG, "the default 'm' for eps = %g, delta = %g is %.3g draws, above %lld: pass a smaller 'm' or a larger 'eps'",
                        as_rand_eps(o), o->delta, mreq, (long long)AS_M_MAX);
    m = (int64_t)mreq;
    out->m = m;
    if (as_rand_sampling(o) == AS_SAMPLING_IID) {
        cdf = as_malloc(c, (size_t)d, sizeof(double));
        if (!cdf) return c->status;
    }
    /* the total (and the cumulative sums) in column order: the same for any
       thread count and any block grid */
    for (j = 0; j < d; j++) {
        total += prob[j];
        if (cdf) cdf[j] = total;
    }
    if (!(total > 0) || m == 0) {   /* X == 0: the empty Y is exact */
        if (o->estimate) out->rel_estimate = out->inf_estimate = 0;
        goto done;
    }
    as_progress(c, "sampling: %s, m = %lld over %lld columns",
                as_rand_sampling(o) == AS_SAMPLING_IID ? "i.i.d. draws" : "Poisson", (long long)m, (long long)d);
    if (as_rand_sampling(o) == AS_SAMPLING_IID)
        as_sample_iid(d, prob, cdf, total, m, o->seed, out, term, c);
    else
        as_sample_poisson(d, prob, total, m, o->seed, out, term, c);
done:
    as_free(c, cdf);
    return c->status;
}
