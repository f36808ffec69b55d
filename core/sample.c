/* sample.c: the randomized algorithm's sampling: probabilities, the default m, i.i.d. or Poisson draws, reweighting. */
#include "as_internal.h"
#include "leverage.h"
#include "rand.h"
#include "rng.h"
#include "sample.h"

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

int as_sample_check_finite_cols(const as_matrix *X, const int64_t *cols, const as_result *S,
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

int as_sample_check_finite(const as_matrix *X, const as_result *S, as_common *c)
{
    return as_sample_check_finite_cols(X, S->index, S, c);
}

/* Unnormalized sampling probabilities of one scheme from the leverage
   scores lev and the squared norms nrm (each computed when the scheme needs it). */
void as_scheme_probabilities(int64_t d, int scheme, const double *lev, const double *nrm,
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

/* The draw counts of m i.i.d. draws as a multinomial, one column at a time:
   count[j] ~ Binomial(draws left, prob[j] / the mass of columns j..d-1),
   O(d) whatever m (tail: a work array for those masses). */
static int as_multinomial_counts(int64_t d, const double *prob, int64_t m, uint64_t seed,
                                 double *tail, int32_t *count, as_common *c)
{
    int64_t j, last = -1, left = m;
    double mass = 0;
    for (j = d - 1; j >= 0; j--) {
        mass += prob[j];
        tail[j] = mass;
        if (last < 0 && prob[j] > 0) last = j;
    }
    for (j = 0; j <= last && left > 0; j++) {
        double f = prob[j] > 0 ? prob[j] / tail[j] : 0;
        int64_t cj = j == last ? left
                               : (int64_t)as_rng_binomial((double)left, f < 1 ? f : 1, seed,
                                                          AS_STREAM_MULTINOMIAL, (uint64_t)j);
        count[j] = (int32_t)cj;
        left -= cj;
        if ((j & 0xfffff) == 0xfffff && as_interrupted(c)) break;
    }
    return c->status;
}

/* m draws i.i.d. from prob (cdf its cumulative sums, total its sum); repeats
   merged. mult[t] receives the draw count of the t-th kept column. From
   AS_IID_MULTINOMIAL draws on, and at least d of them, the counts are drawn
   as a multinomial (as_multinomial_counts, cdf overwritten), else one draw
   at a time (O(m log d)): the same distribution, other draws. */
static int as_sample_iid(int64_t d, const double *prob, double *cdf,
                         double total, int64_t m, uint64_t seed, as_result *out,
                         double **mult, as_common *c)
{
    int64_t j, k, t;
    int32_t *count = as_calloc(c, (size_t)d, sizeof(int32_t));
    if (!count) return c->status;
    if (m >= AS_IID_MULTINOMIAL && m >= d) {
        as_progress(c, "sampling: %lld draws as multinomial counts of %lld columns", (long long)m, (long long)d);
        if (as_multinomial_counts(d, prob, m, seed, cdf, count, c) != AS_OK) goto done;
    } else {
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
double as_poisson_q(int64_t m, double p, double total)
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
int as_sample_poisson(int64_t d, const double *prob, double total, int64_t m,
                      uint64_t seed, as_result *out, double **qk, as_common *c)
{
    int64_t k = as_block_poisson(0, d, prob, total, m, seed, NULL, NULL, NULL);
    out->index = as_malloc(c, (size_t)k, sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)k, sizeof(double));
    *qk = as_malloc(c, (size_t)k, sizeof(double));
    if (!out->index || !out->weight || !*qk) return c->status;
    out->k = as_block_poisson(0, d, prob, total, m, seed, out->index, out->weight, *qk);
    return AS_OK;
}

double as_sum(int64_t d, const double *v)
{
    int64_t j;
    double t = 0;
    for (j = 0; j < d; j++) t += v[j];
    return t;
}

int as_all_finite(int64_t len, const double *v)
{
    int64_t i;
    for (i = 0; i < len; i++) if (!isfinite(v[i])) return 0;
    return 1;
}

/* The beta of the probabilities of a scheme (p_j >= tau_j / (beta r) for
   every column, see as_sketch_beta) and the failure probability left to the
   sampling, for the default m: the user's beta as given (with all of delta);
   exact leverage scores 1; approximate ones b / a times their measured sum
   over the rank, the sketches taking delta / 2; mixed twice the leverage
   part's. Norm and uniform probabilities carry no such bound: the m of
   beta = 2, a size and no guarantee. s1: embedding rows (0: exact). */
double as_scheme_beta(int64_t d, int64_t rank, const double *lev, int scheme, int64_t s1,
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
                   const as_rand_options *o, double *prob, as_result *out, double **term,
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
