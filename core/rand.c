/* rand.c: the randomized algorithm on X in memory: its leverage scores (exact, or the block passes over X as one block), sampling, estimate and metrics. */
#include "as_internal.h"
#include "estimate.h"
#include "leverage.h"
#include "metrics.h"
#include "options.h"
#include "rand.h"
#include "rand_passes.h"
#include "refit.h"
#include "result.h"
#include "sample.h"
#include "target.h"
#include <stdio.h>

int as_leverage_run(const as_matrix *X, const as_rand_options *o, double *scores,
                    as_lev_info *info, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol;
    int exact;
    double *MT = NULL;
    as_block_factor F;
    as_block_plan P;

    memset(&F, 0, sizeof F);
    memset(info, 0, sizeof(*info));
    c->status = AS_OK;
    as_block_plan_fill(n, d, o, &P);
    /* when the sketch would not be smaller than X', the exact scores are cheaper */
    exact = o->leverage == AS_LEV_EXACT || d <= P.s1;
    if (n > AS_INT_MAX) {
        char rows[80];
        return as_error(c, AS_ERR_TOOBIG, "%s is above %lld, the largest size LAPACK takes",
                        as_input_rows(X, rows, sizeof rows), (long long)AS_INT_MAX);
    }
    if ((exact ? d : P.s1) > AS_INT_MAX || (double)(exact ? d : P.s1) * (double)n > 4e18)
        return as_error(c, AS_ERR_TOOBIG, "exact leverage scores need a dense %lld x %lld copy; use method \"approx\"",
                        (long long)d, (long long)n);
    as_progress(c, "leverage: %s scores, %lld x %lld %s", exact ? "exact" : "approximate",
                (long long)(exact ? d : P.s1), (long long)n, exact ? "copy of X'" : "sparse embedding");
    c->phase = "leverage: the scores of the columns";
    if (exact) {
        if (as_exact_factor(X, o, &F, c) != AS_OK) goto done;
    } else {
        MT = as_malloc(c, (size_t)(P.s1 * n), sizeof(double));
        if (!MT) goto done;
        if (as_block_sketch_all(&P, X, o->seed, MT, c) != AS_OK) goto done;
        as_progress(c, "leverage: embedding done");
        if (as_block_factor_run(&P, o, MT, &F, c) != AS_OK) goto done;
        as_free(c, MT);
        MT = NULL;
        info->s1 = P.s1;
        info->s = P.s;
    }
    info->rank = F.rank;
    info->s2 = F.s2;
    if (F.rank == 0) {
        memset(scores, 0, sizeof(double) * (size_t)d);
        goto done;
    }
    as_progress(c, "leverage: rank %lld, score pass with %lld columns", (long long)F.rank, (long long)F.q);
    as_block_scores(X, 0, F.NT, F.q, F.qs, scores, NULL, c);
done:
    c->phase = NULL;
    as_free(c, MT);
    as_block_factor_free(&F, c);
    return c->status;
}

int as_leverage(const as_matrix *X, const as_rand_options *opts, double *scores,
                int64_t *rank, as_common *c)
{
    as_lev_info info;
    as_rand_options seeded = *opts;
    const as_rand_options *o = &seeded;
    if (as_matrix_check(X, c) != AS_OK || as_rand_options_check(o, c) != AS_OK)
        return c->status;
    if (o->leverage != AS_LEV_EXACT) seeded.seed = as_seed_resolve(o->seed, c);
    as_leverage_run(X, o, scores, &info, c);
    *rank = info.rank;
    return c->status;
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
    for (j = 0; j < d; j++) prob[j] = as_col_norm_prob(X, j, amax);
}

/* The working arrays of as_rand and its leverage scores, refused before any
   is allocated when above the 'memory' cap; the message names the input
   dimension that makes them large. */
static int as_rand_memory(const as_matrix *X, const as_rand_options *o, int need_lev, int need_nrm,
                          as_common *c)
{
    double n = (double)X->nrow, d = (double)X->ncol, s1, rmax, q;
    /* prob, cdf, the per-column counts or decisions, lev and nrm when used */
    double bytes = 20 * d + 8 * d * (need_lev + need_nrm);
    char what[240], rows[80];
    int exact;
    if (!need_lev) {
        if (as_mem_check(c, bytes, o->mem_mb, "the sampling probabilities (d = ncol(X))") != AS_OK)
            return c->status;
        goto estimate;
    }
    s1 = (double)(o->s1 > 0 ? o->s1 : as_default_s1(X->nrow));
    exact = o->leverage == AS_LEV_EXACT || d <= s1;
    rmax = n < (exact ? d : s1) ? n : (exact ? d : s1);
    q = o->s2 > 0 && (double)o->s2 < rmax ? (double)o->s2 : rmax;
    /* sketch or copy of X', its Cholesky/QR, R^-1 S2 and N' (rows padded to 16) */
    /* (two sketches when X spans several chunks: the sum and a chunk's leaf) */
    bytes += 8 * (exact ? d * n : (d > (double)as_block_chunk((int64_t)s1) ? 2 : 1) * s1 * n + n * n) + 8 * rmax * q + 8 * (q + 16) * n + 12 * n;
    if (exact)
        snprintf(what, sizeof what, "exact leverage scores need a dense copy of %s' (d x n = %.0f x %.0f doubles%s%s)",
                 as_input_name(X), d, n, X->kind == AS_STACKED ? ", n = " : "",
                 X->kind == AS_STACKED ? as_input_rows(X, rows, sizeof rows) : "");
    else
        snprintf(what, sizeof what, "approximate leverage scores need a sketch of s1 x n = %.0f x %.0f doubles "
                 "and an n x n factor (n = %s)", s1, n, as_input_rows(X, rows, sizeof rows));
    if (as_mem_check(c, bytes, o->mem_mb, what) != AS_OK) return c->status;
estimate:
    return as_estimate_memory(X, o, bytes, c);
}

/* X X' for target mode's exact check, counted against the 'memory' cap. */
static int as_rand_target_gram(const as_matrix *X, const as_rand_options *o, double **G, as_common *c)
{
    int64_t n = X->nrow;
    char what[160], rows[80];
    snprintf(what, sizeof what, "the exact error in target mode needs X X' (n x n doubles, n = %s)",
             as_input_rows(X, rows, sizeof rows));
    if (as_mem_check(c, 8.0 * (double)n * (double)n, o->mem_mb, what) != AS_OK) return c->status;
    if (!(*G = as_malloc(c, (size_t)(n > 0 ? n : 1), (size_t)(n > 0 ? n : 1) * sizeof(double)))) return c->status;
    c->phase = "rand: X X' for the exact check of target mode";
    as_gram(X, -1, NULL, NULL, *G, c);
    c->phase = NULL;
    return c->status;
}

int as_rand(const as_matrix *X, const as_rand_options *opts, as_result *out, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j;
    double *prob = NULL, *term = NULL, *lev = NULL, *nrm = NULL, *G = NULL;
    int target, scheme, need_lev, need_nrm;
    double t0 = as_wtime();
    as_rand_options seeded = *opts;
    const as_rand_options *o = &seeded;

    as_result_init(out);
    if (as_matrix_check(X, c) != AS_OK || as_rand_options_check(o, c) != AS_OK)
        return c->status;
    seeded.seed = as_seed_resolve(o->seed, c);
    as_result_options(out, AS_FOR_RAND, o->seed, o->delta, o->rel);
    if (o->s1 > 0 && o->s1 < n) {
        char rows[80];
        return as_error(c, AS_ERR_ARG, "'s1' must be at least %s, got %lld", as_input_rows(X, rows, sizeof rows),
                        (long long)o->s1);
    }
    target = !isnan(o->rel);
    scheme = o->probabilities == AS_PROB_AUTO ? AS_PROB_LEVERAGE : o->probabilities;
    need_lev = scheme == AS_PROB_LEVERAGE || scheme == AS_PROB_MIXED ||
               (target && o->probabilities == AS_PROB_AUTO);
    need_nrm = scheme == AS_PROB_NORM || scheme == AS_PROB_MIXED ||
               (target && o->probabilities == AS_PROB_AUTO);
    out->eps_target = as_rand_eps(o);
    if (c->nthreads > as_threads_cap())
        as_progress(c, "threads: %d asked, %d used (4x the online CPUs)", c->nthreads, as_threads_cap());
    if (as_rand_memory(X, o, need_lev, need_nrm, c) != AS_OK) return c->status;
    out->probabilities = scheme;
    out->sampling = as_rand_sampling(o);
    out->rounds = 1;

    prob = as_malloc(c, (size_t)d, sizeof(double));
    lev = need_lev ? as_malloc(c, (size_t)d, sizeof(double)) : NULL;
    nrm = need_nrm ? as_malloc(c, (size_t)d, sizeof(double)) : NULL;
    if (!prob || (need_lev && !lev) || (need_nrm && !nrm)) goto done;
    if (need_lev) {
        as_lev_info L;
        if (as_leverage_run(X, o, lev, &L, c) != AS_OK) goto done;
        out->rank = L.rank;
        out->s1 = L.s1;
        out->s = L.s;
        out->s2 = L.s2;
        as_status(c, "rand: leverage scores of %lld columns, %.1f s", (long long)d, as_wtime() - c->started);
    } else out->rank = n < d ? n : d;
    if (need_nrm) {
        for (j = 0; j < d; j++) nrm[j] = as_col_norm_prob(X, j, 1.0);
        as_norm_probabilities_rescue(X, nrm);
    }
    if (target) {
        /* the exact error asked for: X X' now, so that target mode checks its
           sample against it (the metrics reuse it) */
        if (o->error && as_rand_target_gram(X, o, &G, c) != AS_OK) goto done;
        if (as_rand_target(X, o, lev, nrm, G, out, c) == AS_OK) as_sample_check_finite(X, out, c);
        goto done;
    }
    if (as_rand_sample(d, out->rank, lev, nrm, scheme, o, prob, out, &term, c) != AS_OK) goto done;
    if (as_sample_check_finite(X, out, c) != AS_OK) goto done;
    if (as_estimate_wanted(o, out)) {
        /* the diagonal of X X', as the block passes sum it */
        as_block_plan P;
        double *rowsq = as_malloc(c, (size_t)(n > 0 ? n : 1), sizeof(double));
        as_block_plan_fill(n, d, o, &P);
        if (rowsq && as_block_rowsq_all(&P, X, rowsq, c) == AS_OK)
            as_estimate(X, out->index, d, out, as_rand_sampling(o), term, o->seed, 0, rowsq, 0, o->estimate, c);
        as_free(c, rowsq);
    }

done:
    as_free(c, prob);
    as_free(c, term);
    as_free(c, lev);
    as_free(c, nrm);
    {
        /* the refit computes X X' (unless target mode did), which the metrics then reuse */
        if (c->status == AS_OK && o->refit) as_refit(X, &G, o->mem_mb, out, c);
        out->time = as_wtime() - t0;
        if (c->status == AS_OK && (o->error || o->spectral))
            as_status(c, "rand: %lld columns kept, %.1f s; the error against X X' next", (long long)out->k,
                      as_wtime() - c->started);
        if (c->status == AS_OK) as_result_metrics(X, G, o->error, o->spectral, out, c);
        as_free(c, G);
    }
    if (c->status != AS_OK) as_result_free(out, c);
    return c->status;
}

int as_default_m_args(double rank, double eps, double delta, double beta, double *m, as_common *c)
{
    const as_option *row_eps = as_option_find("eps", AS_FOR_DET), *row_delta = as_option_find("delta", AS_FOR_RAND);
    char got[32];
    *m = NAN;
    c->status = AS_OK;
    if (!(rank >= 0 && rank <= AS_INT_MAX && rank == floor(rank)))
        return as_error(c, AS_ERR_ARG, "'rank' must be a whole number in [0, %lld], got %s",
                        (long long)AS_INT_MAX, as_fmt_num(rank, got, sizeof got));
    if (isnan(eps)) eps = AS_EPS_DEFAULT;
    if (isnan(delta)) delta = row_delta->dflt;
    if (isnan(beta)) beta = AS_BETA_UNBOUNDED;
    if (as_option_check(row_eps, eps, c) != AS_OK || as_option_check(row_delta, delta, c) != AS_OK ||
        as_option_check(as_option_find("beta", AS_FOR_RAND), beta, c) != AS_OK)
        return c->status;
    *m = as_default_m((int64_t)rank, eps, delta, beta);
    return AS_OK;
}
