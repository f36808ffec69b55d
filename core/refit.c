/* refit.c: the refit of option 'refit' (as_rand, as_det): the weights of a sample's columns chosen again by the greedy method's fit against X X', the best exact rel kept. */
#include "greedy_shared.h"

int as_refit(const as_matrix *X, double **G, double mem_mb, as_sample *S, as_common *c)
{
    gr_state s;
    gr_pick *all = NULL;
    double rel0, rel, *w0 = NULL;
    int64_t n = X->nrow, k = S->k, a;
    int blas;
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
    if (as_gr_memory(&s, k, mem_mb, "the refit", c) != AS_OK) goto done;
    if (as_gr_setup(&s, *G, c) != AS_OK) goto done;
    if (*G == NULL) {
        /* hand X X' back for the metrics */
        *G = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*G) goto done;
        gr_copy(*G, s.G, sizeof(double) * (size_t)(n * n));
    }
    s.score = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.norm = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    s.in = as_calloc(c, (size_t)(k > 0 ? k : 1), 1);
    all = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(gr_pick));
    w0 = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
    if (!s.score || !s.norm || !s.in || !all || !w0 || as_gr_prepare(&s, c) != AS_OK) goto done;
    for (a = 0; a < k; a++) {
        all[a].t = a;
        all[a].v = 0;
    }
    if (as_gr_add(&s, all, k, c) != AS_OK) goto done;
    for (a = 0; a < k; a++) w0[a] = s.w[a] = S->weight[a] * S->weight[a];
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
