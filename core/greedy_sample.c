/* greedy_sample.c: the greedy method's sample path for wide sparse input: the heavy columns kept at weight 1 (their part of X X' exact), the rest sampled by squared norm and refitted without K, more drawn while the exact rel stays above the target, then a prune. */
#include "refit_cd.h"
#include "gram.h"
#include "greedy.h"
#include "metrics.h"
#include "result.h"
#include "sample.h"
#include <stdio.h>
#include <stdlib.h>

/* Why a path: the rounds pass over every candidate column each round, and on
   a wide X the exact rel does not fall until thousands of columns cover every
   row, so the rounds cost thousands of passes, each about a Gram of X. This
   path pays about two Grams of X (X X' and the light columns' own, in one
   pass where they share it) and then works on a sample of the light columns
   only: the heavy ones (as as_gram counts them: at least c->tune.gram_heavy n
   entries) carry most of a sparse X's multiply-adds and little of its norm;
   kept at weight 1, their part of X X' is exact and costs nothing more. The
   light ones are drawn by squared norm (Poisson: a larger draw keeps a
   superset, as_block_poisson), their weights refitted by the K-free fit
   (refit_cd.c) on the greedy method's weighted proxy with the heavy part held
   (gr_state.H0), the exact rel of every few steps compared and the best kept.
   While the best rel stays above the target the expected draw doubles, the
   columns drawn before keeping their fitted weights and the new ones starting
   at 0; once every light column is drawn and the fit still misses, all
   weights are 1 (Y = X). Then the kept columns of least weight x squared
   norm, heavy ones included, are dropped in chunks (the light ones refitted
   each time) while the target holds. The auto rule (as_gr_sample_chosen):
   a sparse X whose X X' costs more than AS_GREEDY_SAMPLE_MADDS with at most a
   quarter of its columns heavy (a denser X would keep most of them). Measured
   in docs/greedy.md (make bench-greedy-scale). */

/* The first draw: this many light columns per row, expected. */
#define GS_FIRST 4.0
/* Rounds of the K-free fit per draw and its steps per round, a round ending
   at a step that gains less than this share of the proxy. */
#define GS_ROUNDS 6
#define GS_STEPS 12
#define GS_TOL 1e-3
/* The expected draw grows by this factor while rel stays above the target
   (1.5 and 2 measured alike: 200 x 20000 and 200 x 50000 Zipf-like input at
   5% and 2%, within 8% of each other's columns either way; growing to where
   the last two draws' rel, as a power of the draw, reaches the target drew
   less and kept 16% more columns over twelve such runs). */
#define GS_GROW 2.0
/* The prune: chunks from this share of the columns kept, halved on
   failure, at most this many trials (3 or 4: 3-15% more columns). */
#define GS_PRUNE_FIRST 0.25
#define GS_PRUNE_TRIALS 8
/* ... each trial's refit: rounds (Lawson's reweighting between them). */
#define GS_PRUNE_ROUNDS 2

typedef struct gs_draw {
    int64_t k;               /* light columns drawn                    */
    int64_t *col;            /* their columns of X, increasing         */
    double *w;               /* their weights (squared: Y's column^2)  */
} gs_draw;

static void gs_draw_free(gs_draw *D, as_common *c)
{
    as_free(c, D->col);
    as_free(c, D->w);
    memset(D, 0, sizeof *D);
}

/* The light columns drawn at an expected size m (prob: squared norms, 0 for
   heavy ones; the draws are nested: a larger m keeps a superset). The first
   draw's columns start at their inverse inclusion probability (Horvitz-
   Thompson); in a later one the columns of `old` keep their fitted weights
   and the new ones start at 0, where the fit's first step moves those that
   lower the proxy. */
static int gs_draw_make(int64_t d, const double *prob, double total, double m, uint64_t seed,
                        const gs_draw *old, gs_draw *D, as_common *c)
{
    int64_t t, u = 0;
    as_result S;
    double *qk = NULL;
    as_result_init(&S);
    if (isfinite(m)) {
        if (as_sample_poisson(d, prob, total, (int64_t)fmin(m, 9e18), seed, &S, &qk, c) != AS_OK) goto done;
    } else {
        /* m infinite: every light column (the Poisson draw of any finite m may miss the smallest) */
        for (t = 0; t < d; t++) S.k += prob[t] > 0;
        S.index = as_malloc(c, (size_t)(S.k > 0 ? S.k : 1), sizeof(int64_t));
        S.weight = as_malloc(c, (size_t)(S.k > 0 ? S.k : 1), sizeof(double));
        if (!S.index || !S.weight) goto done;
        for (S.k = 0, t = 0; t < d; t++)
            if (prob[t] > 0) {
                S.weight[S.k] = 1;
                S.index[S.k++] = t;
            }
    }
    /* the squared weights in place, the columns handed over */
    for (t = 0; t < S.k; t++) {
        if (old && u < old->k && old->col[u] == S.index[t]) S.weight[t] = old->w[u++];
        else S.weight[t] = old && old->k > 0 ? 0 : S.weight[t] * S.weight[t];
    }
    D->k = S.k;
    D->col = S.index;
    D->w = S.weight;
    S.index = NULL;
    S.weight = NULL;
done:
    as_result_free(&S, c);
    as_free(c, qk);
    return c->status;
}

/* The K-free fit of the drawn columns' weights with the heavy part H0 held:
   D->w replaced by the best weights found, *rel theirs. G: X X'. */
static int gs_fit(const as_matrix *X, const double *G, const double *H0, gs_draw *D, const as_kfree_plan *plan,
                  double mem_mb, double *rel, as_common *c)
{
    gr_state s;
    int64_t a, n = X->nrow, entries = 0;
    char msg[160];
    memset(&s, 0, sizeof s);
    /* the fit's arrays, and X X', H0 and a product held by the path */
    for (a = 0; a < D->k; a++) entries += as_col_nnz(X, D->col[a]);
    snprintf(msg, sizeof msg, "the greedy method's sample path (n = %lld rows, %lld columns drawn)", (long long)n,
             (long long)D->k);
    if (as_mem_check(c, as_refit_kfree_bytes(n, D->k, entries) + 24.0 * (double)n * (double)n, mem_mb, msg) != AS_OK)
        return c->status;
    s.path = as_gr_path_default(c);
    s.work_cap = INFINITY;
    s.X = X;
    s.n = X->nrow;
    s.d = X->ncol;
    s.nc = D->k;
    s.cand = D->col;
    s.mem_mb = mem_mb;
    s.mm_rows = AS_GREEDY_MINIMAX_ROWS;
    s.H0 = H0;
    if (as_gr_setup(&s, G, c) != AS_OK || as_refit_kfree_load(&s, D->w, c) != AS_OK ||
        as_refit_kfree(&s, plan, rel, c) != AS_OK)
        goto done;
    gr_copy(D->w, s.w, sizeof(double) * (size_t)D->k);
done:
    s.cand = NULL;
    s.H0 = NULL;
    as_gr_free(&s, c);
    return c->status;
}

/* The kept light columns (weight > 0) of D without those flagged in drop. */
static int gs_keep(const gs_draw *D, const unsigned char *drop, gs_draw *K, as_common *c)
{
    int64_t a, t = 0;
    K->col = as_malloc(c, (size_t)(D->k > 0 ? D->k : 1), sizeof(int64_t));
    K->w = as_malloc(c, (size_t)(D->k > 0 ? D->k : 1), sizeof(double));
    if (!K->col || !K->w) return c->status;
    for (a = 0; a < D->k; a++)
        if (D->w[a] > 0 && !(drop && drop[a])) {
            K->col[t] = D->col[a];
            K->w[t++] = D->w[a];
        }
    K->k = t;
    return AS_OK;
}

/* The prune: chunks of the kept columns of least w |x|^2 (the heavy ones at
   weight 1 among them: H0 loses their x x') dropped, the light ones left
   refitted, kept while rel meets the target. hgone[h]: heavy column
   hcol[h] dropped; H0 follows. */
static int gs_prune(const as_matrix *X, const double *G, double *H0, int64_t nh, const int64_t *hcol,
                    unsigned char *hgone, gs_draw *D, double target, double mem_mb, double *rel, as_common *c)
{
    const as_kfree_plan plan = {GS_PRUNE_ROUNDS, GS_STEPS, GS_TOL, 1};
    int64_t a, chunk, from = 0, nt = D->k + nh, n = X->nrow, nd, *idx = NULL;
    gr_pick *ord = as_malloc(c, (size_t)(nt > 0 ? nt : 1), sizeof(gr_pick));
    unsigned char *drop = as_calloc(c, (size_t)(nt > 0 ? nt : 1), 1);
    double *Ht = as_malloc(c, (size_t)(n * n > 0 ? n * n : 1), sizeof(double));
    int trial;
    idx = as_malloc(c, (size_t)(nh > 0 ? nh : 1), sizeof(int64_t));
    if (!ord || !drop || !Ht || !idx) goto done;
    for (a = 0; a < nt; a++) {
        double nn = 0;
        AS_FOR_COL(X, a < D->k ? D->col[a] : hcol[a - D->k], row, v, { (void)row; nn += v * v; });
        /* the least first: gr_pick_cmp puts the largest v first */
        ord[a].v = -(a < D->k ? D->w[a] : 1.0) * nn;
        ord[a].t = a;
    }
    qsort(ord, (size_t)nt, sizeof *ord, gr_pick_cmp);
    chunk = (int64_t)(GS_PRUNE_FIRST * (double)nt);
    for (trial = 0; trial < GS_PRUNE_TRIALS && chunk >= 1 && from + chunk <= nt; trial++) {
        gs_draw T;
        double r;
        memset(&T, 0, sizeof T);
        for (a = from, nd = 0; a < from + chunk; a++) {
            drop[ord[a].t] = 1;
            if (ord[a].t >= D->k) idx[nd++] = hcol[ord[a].t - D->k];
        }
        /* H0 without the heavy columns of this chunk */
        if (nd > 0) {
            int64_t e;
            if (as_gram(X, nd, idx, NULL, Ht, c) != AS_OK) goto done;
            for (e = 0; e < n * n; e++) Ht[e] = H0[e] - Ht[e];
        }
        if (gs_keep(D, drop, &T, c) != AS_OK || gs_fit(X, G, nd > 0 ? Ht : H0, &T, &plan, mem_mb, &r, c) != AS_OK) {
            gs_draw_free(&T, c);
            goto done;
        }
        as_status(c, "greedy: sample path: prune trial %d, %lld columns dropped (%lld heavy): rel %.4g%%", trial + 1,
                    (long long)chunk, (long long)nd, 100 * r);
        if (r <= target) {
            /* the trial's weights where its columns stand; the dropped ones at 0 */
            int64_t t = 0;
            for (a = 0; a < D->k; a++) {
                if (D->w[a] > 0 && !drop[a]) D->w[a] = T.w[t++];
                else D->w[a] = 0;
            }
            for (a = 0; a < nh; a++) hgone[a] = drop[D->k + a];
            if (nd > 0) gr_copy(H0, Ht, sizeof(double) * (size_t)(n * n));
            *rel = r;
            from += chunk;
        } else {
            for (a = from; a < from + chunk; a++) drop[ord[a].t] = 0;
            chunk /= 2;
        }
        gs_draw_free(&T, c);
    }
done:
    as_free(c, ord);
    as_free(c, drop);
    as_free(c, Ht);
    as_free(c, idx);
    return c->status;
}

int as_gr_sample_path(const as_matrix *X, const as_greedy_options *o, as_result *out, as_common *c)
{
    const as_kfree_plan plan = {GS_ROUNDS, GS_STEPS, GS_TOL, 1};
    int64_t n = X->nrow, d = X->ncol, j, nheavy = 0, nlight = 0, *light = NULL, *hcol = NULL, a, draws = 0;
    double *prob = NULL, *G = NULL, *H0 = NULL, *H = NULL, total = 0, amax = 0, target, rel = INFINITY, m, t0 = as_wtime();
    uint64_t seed;
    unsigned char *heavy = NULL, *hgone = NULL;
    gs_draw D, old;
    int blas;
    as_result_init(out);
    memset(&D, 0, sizeof D);
    memset(&old, 0, sizeof old);
    target = as_greedy_rel(o);
    as_result_options(out, AS_FOR_GREEDY, NAN, NAN, target);
    blas = as_blas_threads_set(1);
    seed = as_seed_resolve(o->seed, c);
    out->seed = (double)seed;
    if (as_mem_check(c, 8.0 * (4.0 * (double)n * (double)n + 3.0 * (double)d), o->mem_mb, "the greedy method's sample path") != AS_OK)
        goto done;
    prob = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(double));
    heavy = as_malloc(c, (size_t)(d > 0 ? d : 1), 1);
    light = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(int64_t));
    hcol = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(int64_t));
    hgone = as_calloc(c, (size_t)(d > 0 ? d : 1), 1);
    G = as_malloc(c, (size_t)(n * n > 0 ? n * n : 1), sizeof(double));
    H0 = as_malloc(c, (size_t)(n * n > 0 ? n * n : 1), sizeof(double));
    H = as_malloc(c, (size_t)(n * n > 0 ? n * n : 1), sizeof(double));
    if (!prob || !heavy || !light || !hcol || !hgone || !G || !H0 || !H) goto done;
    for (j = 0; j < d; j++) AS_FOR_COL(X, j, row, v, { (void)row; amax = fmax(amax, fabs(v)); });
    for (j = 0; j < d; j++) {
        heavy[j] = as_gram_is_heavy(X, j, c);
        prob[j] = heavy[j] || !(amax > 0) ? 0 : as_col_norm_prob(X, j, amax);
        if (heavy[j]) hcol[nheavy++] = j;
        else if (prob[j] > 0) light[nlight++] = j;
    }
    total = as_sum(d, prob);
    /* X X' and the light columns' Gram in one pass where it pays; H0 the heavy part */
    if (as_gram_pair(X, nlight, light, NULL, G, H, c) != AS_OK || as_gram_finite(n, G, as_input_name(X), c) != AS_OK)
        goto done;
    for (a = 0; a < n * n; a++) H0[a] = G[a] - H[a];
    as_status(c, "greedy: sample path: %lld heavy columns kept, %lld light ones to draw from; X X' in %.2f s",
                (long long)nheavy, (long long)nlight, as_wtime() - t0);
    m = GS_FIRST * (double)n;
    for (;;) {
        if (m >= (double)nlight) m = INFINITY;
        if (gs_draw_make(d, prob, total, m, seed, &old, &D, c) != AS_OK) goto done;
        draws++;
        if (gs_fit(X, G, H0, &D, &plan, o->mem_mb, &rel, c) != AS_OK) goto done;
        as_status(c, "greedy: sample path: draw %lld, %lld light columns: rel %.4g%% (target %.4g%%), %.2f s",
                    (long long)draws, (long long)D.k, 100 * rel, 100 * target, as_wtime() - t0);
        if (rel <= target || as_interrupted(c)) break;
        if (!isfinite(m)) {
            /* every light column drawn and the fit still above the target: all at
               weight 1, Y = X (rel 0 but for rounding); the prune takes it from there */
            const as_kfree_plan none = {0, 0, GS_TOL, 1};
            for (a = 0; a < D.k; a++) D.w[a] = 1;
            if (gs_fit(X, G, H0, &D, &none, o->mem_mb, &rel, c) != AS_OK) goto done;
            break;
        }
        gs_draw_free(&old, c);
        old = D;
        memset(&D, 0, sizeof D);
        m *= GS_GROW;
    }
    if (rel <= target && gs_prune(X, G, H0, nheavy, hcol, hgone, &D, target, o->mem_mb, &rel, c) != AS_OK) goto done;
    /* the result: the heavy columns left at weight 1 and the light ones kept, in X's order */
    {
        int64_t k = 0, t = 0, u = 0, h = 0;
        for (a = 0; a < nheavy; a++) k += !hgone[a];
        for (a = 0; a < D.k; a++) k += D.w[a] > 0;
        out->index = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(int64_t));
        out->weight = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(double));
        if (!out->index || !out->weight) goto done;
        for (j = 0; j < d; j++) {
            while (u < D.k && D.col[u] < j) u++;
            if (heavy[j]) {
                if (!hgone[h++]) {
                    out->index[t] = j;
                    out->weight[t++] = 1;
                }
            } else if (u < D.k && D.col[u] == j && D.w[u] > 0) {
                out->index[t] = j;
                out->weight[t++] = sqrt(D.w[u]);
            }
        }
        out->k = t;
    }
    out->approach = AS_APPROACH_SAMPLE;
    out->m = draws;
    out->rounds = (int)draws;
    out->candidates = D.k;
    out->has |= AS_HAS_CANDIDATES;
    out->time = as_wtime() - t0;
    {
        double t1 = as_wtime();
        if (as_gram(X, out->k, out->index, out->weight, H, c) != AS_OK) goto done;
        if (as_compare_gram(n, G, H, as_spectral_asked(o->error, o->spectral), &out->metrics, c) != AS_OK) goto done;
        out->error_time = as_wtime() - t1;
    }
done:
    if (blas > 0) as_blas_threads_set(blas);
    gs_draw_free(&D, c);
    gs_draw_free(&old, c);
    as_free(c, prob);
    as_free(c, heavy);
    as_free(c, light);
    as_free(c, hcol);
    as_free(c, hgone);
    as_free(c, G);
    as_free(c, H0);
    as_free(c, H);
    if (c->status != AS_OK) as_result_free(out, c);
    return c->status;
}

/* Whether the auto rule may take the sample path at all: a sparse X, a target
   (not a budget), every column a candidate. */
static int gs_auto_fits(const as_matrix *X, const as_greedy_options *o)
{
    return o->approach == AS_APPROACH_AUTO && X->kind != AS_DENSE && o->k == 0 && o->candidates <= 0;
}

int as_gr_sample_chosen(const as_matrix *X, const as_greedy_options *o, const as_common *c)
{
    int64_t j, heavy = 0;
    if (o->approach != AS_APPROACH_AUTO) return o->approach == AS_APPROACH_SAMPLE;
    if (!gs_auto_fits(X, o) || !(as_gram_madds(X, 0, NULL, c) > AS_GREEDY_SAMPLE_MADDS)) return 0;
    for (j = 0; j < X->ncol; j++) heavy += as_gram_is_heavy(X, j, c);
    return 4 * heavy <= X->ncol;
}

int as_gr_sample_beside(const as_matrix *X, const as_greedy_options *o, const as_common *c)
{
    return gs_auto_fits(X, o) && c->tune.greedy_beside_k > 0;
}
