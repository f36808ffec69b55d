/* refit.c: the refit of option 'refit' (as_rand, as_det): the weights of a sample's columns chosen again by the greedy method's fit against X X', the best exact rel kept. */
#include "refit_cd.h"
#include "estimate.h"
#include "greedy.h"
#include "refit.h"
#include "result.h"
#include <stdio.h>

/* Samples of more columns than this are refitted without the k x k normal
   equations (refit_cd.c). The K-based fit holds five k x k arrays (K, the
   cached X_S' X_S and its two scratch copies, the solver's factor: 40 MB at
   1024 columns, 6 GB at 12,600) and its solve grows as k^3; the K-free steps
   cost O(n^2 k) time and O(n^2 + n k) memory. Measured on 200 x 20000
   Gaussian input, one thread: at 970 columns the K-based fit took 1.2 s
   against 0.4 s (rel 0.327 against 0.334), at 1890 6.3 s against 0.5 s, at
   2770 20 s against 0.8 s (rel 2-3% lower than the K-free fit's). Up to it
   the K-based fit (exact on the support) is kept. AS_REFIT_K_MAX (as_internal.h)
   is the default of c->tune.refit_k_max. */

int as_refit(const as_matrix *X, double **G, double mem_mb, as_result *S, as_common *c)
{
    gr_state s;
    gr_pick *all = NULL;
    double rel0, rel, *w0 = NULL;
    int64_t n = X->nrow, k = S->k, a;
    int blas, kfree = k > c->tune.refit_k_max;
    c->status = AS_OK;
    memset(&s, 0, sizeof s);
    s.path = as_gr_path_default(c);
    s.work_cap = INFINITY;
    S->has |= AS_HAS_REFIT;
    s.X = X;
    s.n = n;
    s.d = X->ncol;
    s.nc = k;
    s.cand = S->index;
    blas = as_blas_threads_set(1);
    s.mem_mb = mem_mb;
    s.mm_rows = AS_GREEDY_MINIMAX_ROWS;
    if (kfree) {
        int64_t entries = 0;
        char msg[160];
        for (a = 0; a < k; a++) entries += as_col_nnz(X, S->index[a]);
        snprintf(msg, sizeof msg, "the refit (n = %lld rows, %lld columns)", (long long)n, (long long)k);
        if (as_mem_check(c, as_refit_kfree_bytes(n, k, entries), mem_mb, msg) != AS_OK) goto done;
    } else if (as_gr_memory(&s, k, mem_mb, "the refit", c) != AS_OK) goto done;
    if (as_gr_setup(&s, *G, c) != AS_OK) goto done;
    if (*G == NULL) {
        /* hand X X' back for the metrics */
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G) goto done;
        gr_copy(*G, s.G, sizeof(double) * (size_t)(n * n));
    }
    all = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(gr_pick));
    w0 = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    if (!all || !w0) goto done;
    for (a = 0; a < k; a++) w0[a] = S->weight[a] * S->weight[a];
    if (kfree) {
        /* the sample's columns as they are, their weights refitted without K: 8 rounds of
           at most 12 steps, each round until a step gains less than 0.1% of f */
        const as_kfree_plan plan = {8, 12, 1e-3, 1};
        if (as_refit_kfree_load(&s, w0, c) != AS_OK) goto done;
        S->refit_rel = as_gr_rel(&s, s.H, s.rowrel, c);
        if (as_refit_kfree(&s, &plan, &rel, c) != AS_OK) goto done;
        goto kept;
    }
    for (a = 0; a < k; a++) {
        all[a].t = a;
        all[a].v = 0;
    }
    s.score = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.norm = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.in = as_calloc(c, (size_t)(k > 0 ? k : 1), 1);
    if (!s.score || !s.norm || !s.in || as_gr_prepare(&s, c) != AS_OK || as_gr_add(&s, all, k, c) != AS_OK) goto done;
    for (a = 0; a < k; a++) s.w[a] = w0[a];
    if (as_gr_make_h(&s, s.H, c) != AS_OK) goto done;
    rel0 = as_gr_rel(&s, s.H, s.rowrel, c);
    S->refit_rel = rel0;
    /* the refit from the sample's weights, its reweighting carried over a few times (a sample
       that keeps no column has nothing to fit: it stays Y = 0) */
    rel = rel0;
    for (a = 0; a < AS_GREEDY_REFIT_STEPS && k > 0; a++) {
        double r;
        if (as_gr_fit(&s, &r, c) != AS_OK) goto done;
        if (!(r < rel)) break;
        rel = r;
        gr_copy(w0, s.w, sizeof(double) * (size_t)k);
    }
    if (rel < rel0 || a > 0) gr_copy(s.w, w0, sizeof(double) * (size_t)k);
    else for (a = 0; a < k; a++) s.w[a] = S->weight[a] * S->weight[a];
    /* the minimax fit from the weights kept, where n^2 is small (it keeps the best) */
    if (k > 0 && c->tune.greedy_minimax > 0 && as_gr_minimax_room(&s, c)) {
        if (as_gr_make_h(&s, s.H, c) != AS_OK) goto done;
        rel = as_gr_rel(&s, s.H, s.rowrel, c);
        if (as_gr_fit_minimax(&s, &rel, c->tune.greedy_minimax, c) != AS_OK) goto done;
    }
    if (c->status != AS_OK) goto done;
kept:
    /* S's columns in their order, zero weights dropped */
    {
        int64_t t = 0;
        for (a = 0; a < k; a++)
            if (s.w[a] > 0) {
                S->index[t] = S->index[a];
                S->weight[t] = sqrt(s.w[a]);
                t++;
            }
        S->k = t;
    }
    S->estimate = AS_ESTIMATE_NONE;
    S->estimate_why = AS_WHY_REFIT;
    S->rel_estimate = S->inf_estimate = NAN;
done:
    if (blas > 0) as_blas_threads_set(blas);
    s.cand = NULL;
    as_gr_free(&s, c);
    as_free(c, all);
    as_free(c, w0);
    return c->status;
}
