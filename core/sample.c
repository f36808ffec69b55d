/* sample.c: the randomized algorithm: probabilities, i.i.d. draws, merging and reweighting. */
#include "as_internal.h"
#include <stdio.h>

void as_rand_options_init(as_rand_options *o)
{
    memset(o, 0, sizeof(*o));
    o->eps = 0.5;
    o->delta = 0.01;
    o->beta = 2.0;
    o->probabilities = AS_PROB_LEVERAGE;
    o->leverage = AS_LEV_APPROX;
    o->jl = AS_JL_GAUSSIAN;
}

/* Largest seed accepted: every integer below it is exact in a double. */
#define AS_SEED_MAX 9007199254740992.0

int as_rand_options_check(const as_rand_options *o, as_common *c)
{
    c->status = AS_OK;
    if (!(o->eps > 0 && o->eps < 1))
        return as_error(c, AS_ERR_ARG, "'eps' must be in (0, 1), got %g", o->eps);
    if (!(o->delta > 0 && o->delta < 1))
        return as_error(c, AS_ERR_ARG, "'delta' must be in (0, 1), got %g", o->delta);
    if (!(o->beta >= 1 && o->beta < 1e6))
        return as_error(c, AS_ERR_ARG, "'beta' must be in [1, 1e6), got %g", o->beta);
    if (o->m < 0 || o->m > AS_M_MAX)
        return as_error(c, AS_ERR_ARG, "'m' must be a whole number in [1, %lld], got %lld",
                        (long long)AS_M_MAX, (long long)o->m);
    if ((double)o->seed >= AS_SEED_MAX)
        return as_error(c, AS_ERR_ARG, "'seed' must be a whole number in [0, 2^53)");
    if (o->probabilities < AS_PROB_LEVERAGE || o->probabilities > AS_PROB_NORM)
        return as_error(c, AS_ERR_ARG, "'probabilities' must be leverage, uniform or norm");
    if (o->leverage != AS_LEV_APPROX && o->leverage != AS_LEV_EXACT)
        return as_error(c, AS_ERR_ARG, "'leverage' must be approx or exact");
    if (o->jl != AS_JL_GAUSSIAN && o->jl != AS_JL_AMS)
        return as_error(c, AS_ERR_ARG, "'jl' must be gaussian or ams");
    if (o->s1 < 0 || o->s1 > AS_INT_MAX)
        return as_error(c, AS_ERR_ARG, "'s1' must be a whole number in [1, %lld] (0: default)",
                        (long long)AS_INT_MAX);
    if (o->s < 0 || o->s > 64)
        return as_error(c, AS_ERR_ARG, "'s' must be a whole number in [1, 64] (0: default)");
    if (o->s2 < 0 || o->s2 > 100000)
        return as_error(c, AS_ERR_ARG, "'s2' must be a whole number in [1, 100000] (0: default)");
    if (!(o->mem_mb >= 0 && o->mem_mb <= 1e12))
        return as_error(c, AS_ERR_ARG, "'memory' must be a finite number of MiB in [0, 1e12] (0: 3/4 of the physical memory), got %g",
                        o->mem_mb);
    return AS_OK;
}

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

/* Squared column norms that overflowed (entries near 1e154 and above) or
   underflowed (near 1e-154 and below) are recomputed on X / max|X|: the
   probabilities are scale-invariant, and inputs of ordinary scale keep their bits. */
static void as_norm_probabilities_rescue(const as_matrix *X, double *prob)
{
    int64_t j, d = X->ncol;
    double total = 0, amax = 0;
    for (j = 0; j < d; j++) total += prob[j];
    if (isfinite(total) && total > 1e-250) return;
    for (j = 0; j < d; j++) AS_FOR_COL(X, j, row, v, { (void)row; amax = fmax(amax, fabs(v)); });
    if (amax == 0) return;
    for (j = 0; j < d; j++) {
        double s = 0;
        AS_FOR_COL(X, j, row, v, { (void)row; s += (v / amax) * (v / amax); });
        prob[j] = s;
    }
}

int as_sample_check_finite(const as_matrix *X, const as_sample *S, as_common *c)
{
    int64_t t;
    for (t = 0; t < S->k; t++) {
        double w = S->weight[t], amax = 0;
        AS_FOR_COL(X, S->index[t], row, v, { (void)row; amax = fmax(amax, fabs(v)); });
        if (!isfinite(w) || !isfinite(w * amax))
            return as_error(c, AS_ERR_INPUT, "Y would overflow: column %lld of X (largest entry %g) "
                            "times its weight %g is above the largest double; scale X down",
                            (long long)(S->index[t] + 1), amax, w);
    }
    return AS_OK;
}

/* The working arrays of as_rand and its leverage scores, refused before any
   is allocated when above the 'memory' cap; the message names the input
   dimension that makes them large. */
static int as_rand_memory(const as_matrix *X, const as_rand_options *o, as_common *c)
{
    double n = (double)X->nrow, d = (double)X->ncol, bytes = 20 * d, s1, rmax, q;
    char what[200];
    int exact;
    if (o->probabilities != AS_PROB_LEVERAGE)
        return as_mem_check(c, bytes, o->mem_mb, "the sampling probabilities (d = ncol(X))");
    s1 = o->s1 > 0 ? (double)o->s1 : 4 * n + 16;
    exact = o->leverage == AS_LEV_EXACT || d <= s1;
    rmax = n < (exact ? d : s1) ? n : (exact ? d : s1);
    q = o->s2 > 0 && (double)o->s2 < rmax ? (double)o->s2 : rmax;
    /* sketch or copy of X', its Cholesky/QR, R^-1 S2 and N' (rows padded to 16) */
    bytes += 8 * (exact ? d * n : s1 * n + n * n) + 8 * rmax * q + 8 * (q + 16) * n + 12 * n;
    if (exact)
        snprintf(what, sizeof what, "exact leverage scores need a dense copy of X' (d x n = %.0f x %.0f doubles)",
                 d, n);
    else
        snprintf(what, sizeof what, "approximate leverage scores need a sketch of s1 x n = %.0f x %.0f doubles "
                 "and an n x n factor (n = nrow(X) = %.0f)", s1, n, n);
    return as_mem_check(c, bytes, o->mem_mb, what);
}

int as_rand(const as_matrix *X, const as_rand_options *o, as_sample *out, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j, k, m, t;
    double *prob = NULL, *cdf = NULL, total = 0, mreq;
    int32_t *count = NULL;

    as_sample_init(out);
    if (as_matrix_check(X, c) != AS_OK || as_rand_options_check(o, c) != AS_OK)
        return c->status;
    if (o->s1 > 0 && o->s1 < n)
        return as_error(c, AS_ERR_ARG, "'s1' must be at least nrow(X) = %lld, got %lld",
                        (long long)n, (long long)o->s1);
    out->eps_target = o->eps;
    if (c->nthreads > as_threads_cap())
        as_progress(c, "threads: %d asked, %d used (4x the online CPUs)", c->nthreads, as_threads_cap());
    if (as_rand_memory(X, o, c) != AS_OK) return c->status;

    prob = as_malloc(c, (size_t)d, sizeof(double));
    cdf = as_malloc(c, (size_t)d, sizeof(double));
    if (!prob || !cdf) goto done;
    if (o->probabilities == AS_PROB_LEVERAGE) {
        if (as_leverage_run(X, o, prob, out, c) != AS_OK) goto done;
    } else {
        out->rank = n < d ? n : d;
        for (j = 0; j < d; j++)
            prob[j] = o->probabilities == AS_PROB_UNIFORM ? 1.0 : as_col_norm2(X, j);
        if (o->probabilities == AS_PROB_NORM) as_norm_probabilities_rescue(X, prob);
    }
    /* cumulative sums in column order: the same for any thread count */
    for (j = 0; j < d; j++) {
        total += prob[j];
        cdf[j] = total;
    }
    mreq = o->m > 0 ? (double)o->m : as_default_m(out->rank, o->eps, o->delta, o->beta);
    if (!(mreq <= (double)AS_M_MAX))
        { as_error(c, AS_ERR_TOOBIG, "the default 'm' for eps = %g, delta = %g is %.3g draws, above %lld: pass a smaller 'm' or a larger 'eps'",
                   o->eps, o->delta, mreq, (long long)AS_M_MAX); goto done; }
    m = (int64_t)mreq;
    out->m = m;
    if (!(total > 0) || m == 0) goto done;   /* X == 0: the empty Y is exact */
    as_progress(c, "sampling: %lld draws over %lld columns", (long long)m, (long long)d);

    count = as_calloc(c, (size_t)d, sizeof(int32_t));
    if (!count) goto done;
    {
        int nt = as_threads(c);
        int64_t t0, chunk = 1 << 20;
        for (t0 = 0; t0 < m; t0 += chunk) {
            int64_t t1 = t0 + chunk < m ? t0 + chunk : m;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
            for (t = t0; t < t1; t++) {
                double u = as_rng_unif(o->seed, AS_STREAM_SAMPLE, (uint64_t)t) * total;
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
    if (!out->index || !out->weight) goto done;
    for (t = 0, j = 0; j < d; j++) {
        if (count[j] > 0) {
            double pj = prob[j] / total;
            out->index[t] = j;
            out->weight[t] = sqrt((double)count[j] / ((double)m * pj));
            t++;
        }
    }
    out->k = k;
    as_sample_check_finite(X, out, c);

done:
    as_free(c, prob);
    as_free(c, cdf);
    as_free(c, count);
    if (c->status != AS_OK) as_sample_free(out, c);
    return c->status;
}
