/* det.c: the deterministic algorithm's driver: budget and barriers, memory estimated up front, the search tree's size, X X' and its whitening, the two-stage variant, the result. */
#include "det_shared.h"
#include "det.h"
#include "gram.h"
#include "metrics.h"
#include "rand.h"
#include "refit.h"
#include "result.h"
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define AS_DET_MEM_MB   512.0   /* cap on the search tree when 'memory' == 0          */
#define AS_DET_LEAF_MIN 32      /* smallest automatic leaf: below it the walk dominates */
#define AS_DET_LEAF_ROWS 2      /* automatic leaves of at least this many times n columns:
                                   scoring one costs about what forming the walk's matrix
                                   does, and larger leaves mean fewer searches (measured at
                                   n = 256 and 512: 2n took a third of the time of 32
                                   columns, with a fifth fewer distinct columns) */

int64_t as_det_presample_m(int64_t n)
{
    double m = ceil(AS_DET_PRESAMPLE_FACTOR * (double)n * log((double)(n > 1 ? n : 1)));
    if (m < 2.0 * (double)n) m = 2.0 * (double)n;
    return m > (double)AS_M_MAX ? AS_M_MAX : (int64_t)m;
}

static int as_det_pick_cmp(const void *pa, const void *pb)
{
    const as_det_pick *a = pa, *b = pb;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    return a->q < b->q ? -1 : (a->q > b->q);
}

/* Some stored entry of X is nonzero. */
static int as_det_nonzero(const as_matrix *X)
{
    int64_t j;
    for (j = 0; j < X->ncol; j++) {
        int nz = 0;
        AS_FOR_COL(X, j, row, v, { (void)row; nz |= v != 0; });
        if (nz) return 1;
    }
    return 0;
}

/* The search tree's shape under the memory left for it, and the working
   arrays' total, checked against 'memory' before anything is allocated. */
typedef struct as_det_layout {
    int64_t L, lf, np;
    int use_tree, white;
    double node_mb;
} as_det_layout;

static int as_det_plan_memory(const as_matrix *X, const as_det_options *o, const as_bss_plan *P,
                              int nt, as_det_layout *Lo, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol;
    double mib = 1048576.0, fixed, cap, tree_mb = 0;
    char what[240], rows[80];
    memset(Lo, 0, sizeof(*Lo));
    Lo->L = 1;
    Lo->np = n * (n + 1) / 2;
    Lo->node_mb = (double)Lo->np * sizeof(double) / mib;
    /* every array but the tree, with rank n: X X', its copy for the metrics, the
       eigenvectors of the whitening, W, the steps' workspaces and the picks */
    fixed = 8.0 * ((2.0 + (o->error || o->spectral > 0)) * (double)n * (double)n + (double)n * (double)n +
                   as_bss_workspace(n, n, nt, P, c)) + (double)P->Q * sizeof(as_det_pick);
    cap = o->mem_mb > 0 ? o->mem_mb * mib - fixed : AS_DET_MEM_MB * mib;
    if (o->leaf > 0) {
        Lo->lf = o->leaf < d ? o->leaf : d;
        Lo->L = (d + Lo->lf - 1) / Lo->lf;
        if (Lo->L > 1 && o->search == 0 && (2.0 * Lo->L - 1) * Lo->node_mb * mib > cap)
            return as_error(c, AS_ERR_ARG, "'leaf' = %lld makes a search tree of %.3g MiB, above 'memory' = %g MiB: use a larger 'leaf' or 'memory'",
                            (long long)o->leaf, (2.0 * Lo->L - 1) * Lo->node_mb,
                            o->mem_mb > 0 ? o->mem_mb : AS_DET_MEM_MB);
    } else if (cap > 0) {
        double lmax = floor((cap / (Lo->node_mb * mib) + 1.0) / 2.0);
        if (lmax >= 2) {
            Lo->lf = (int64_t)ceil((double)d / lmax);
            if (Lo->lf < AS_DET_LEAF_MIN) Lo->lf = AS_DET_LEAF_MIN;
            if (Lo->lf < AS_DET_LEAF_ROWS * n) Lo->lf = AS_DET_LEAF_ROWS * n;
            if (Lo->lf > d) Lo->lf = d;
            Lo->L = (d + Lo->lf - 1) / Lo->lf;
        }
    }
    Lo->use_tree = o->search == 0 && Lo->L >= 2;
    /* The tree holds Grams of the whitened columns when building it that way
       (a Gram of X, then r n + r^2 / 2 per column) costs less than what it saves:
       three products of O(n^3) per iteration, about b n iterations. */
    Lo->white = Lo->use_tree && (X->kind == AS_DENSE || X->kind == AS_STACKED ||
                                 (double)as_nnz(X) * n + (double)d * n * n <= 6.0 * P->b * pow((double)n, 4));
    if (Lo->use_tree) tree_mb = (2.0 * Lo->L - 1) * Lo->node_mb;
    snprintf(what, sizeof what, "the deterministic algorithm (n = %s, up to %lld iterations, "
             "a search tree of %.4g MiB)", as_input_rows(X, rows, sizeof rows), (long long)P->Q, tree_mb);
    return as_mem_check(c, fixed + tree_mb * mib, o->mem_mb, what);
}

/* BSS on X itself (as_det without 'presample'): out gets the sample; *Gm
   (allocated) is X X' when the metrics will need it. */
static int as_det_direct(const as_matrix *X, const as_det_options *o, int keep_gram, as_result *out,
                         double **Gm, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, r = 0, a, b2, k, q, i, npicks = 0, steps = 0;
    int nt = as_threads(c);
    double gmax, gamma, u, l;
    double *G = NULL, *W = NULL, *V = NULL;
    as_det_tree T;
    as_det_layout Lo;
    as_bss_plan P;
    as_det_pick *picks = NULL;

    memset(&T, 0, sizeof(T));
    *Gm = NULL;
    /* the plan for rank n (the rank is known after the whitening; it is at most n) */
    as_bss_plan_init(o->eps, n, o->batch, &P);
    if (P.b * (double)n > (double)AS_M_MAX)
        return as_error(c, AS_ERR_TOOBIG, "'eps' = %g needs up to %.3g iterations (b = %.4g per row of X): use a larger 'eps'",
                        o->eps, P.b * (double)n, P.b);
    if (as_det_plan_memory(X, o, &P, nt, &Lo, c) != AS_OK) return c->status;

    G = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!G) goto done;
    c->phase = Lo.use_tree ? "det: X X' and the search tree of the columns" : "det: X X'";
    if (Lo.use_tree) {
        T.L = Lo.L;
        T.lf = Lo.lf;
        T.nodes = 2 * Lo.L - 1;
        T.np = Lo.np;
        as_progress(c, "det: search tree of %lld leaves x %lld columns (%.0f MiB%s)",
                    (long long)T.L, (long long)T.lf, (double)T.nodes * Lo.node_mb,
                    Lo.white ? ", whitened columns" : "");
        T.P = as_malloc(c, (size_t)T.nodes, (size_t)T.np * sizeof(double));
        if (!T.P) goto done;
    }
    if (Lo.use_tree && !Lo.white) {
        if (as_det_tree_build(X, NULL, 0, NULL, &T, nt, c) != AS_OK) goto done;
        /* the root is G = X X' */
        for (b2 = 0; b2 < n; b2++)
            for (a = b2; a < n; a++)
                G[a + b2 * n] = G[b2 + a * n] = T.P[as_det_off(n, b2) + a - b2];
    } else {
        if (o->search == 0 && !Lo.use_tree)
            as_progress(c, "det: no search tree (d = %lld, leaf %lld): plain scan", (long long)d,
                        (long long)Lo.lf);
        if (as_gram(X, -1, NULL, NULL, G, c) != AS_OK) goto done;
    }
    if (as_gram_finite(n, G, as_input_name(X), c) != AS_OK) goto done;
    for (gmax = 0, a = 0; a < n; a++) gmax = fmax(gmax, G[a + a * n]);
    if (gmax < 1024 * DBL_MIN && as_det_nonzero(X)) {
        /* the squares of X's entries are subnormal or 0: its rank would be lost */
        if (X->kind == AS_STACKED)
            as_error(c, AS_ERR_INPUT, "X X' and K K' underflow (largest squared row norm %g): scale X and K up", gmax);
        else
            as_error(c, AS_ERR_INPUT, "X X' underflows (largest squared row norm %g): scale X up", gmax);
        goto done;
    }
    if (keep_gram) {
        /* the metrics compare with this X X' (the whitening destroys G) */
        *Gm = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!*Gm) goto done;
        memcpy(*Gm, G, sizeof(double) * (size_t)(n * n));
    }
    if (as_whiten(n, G, &W, &r, c) != AS_OK) goto done;
    as_free(c, G);
    G = NULL;
    out->rank = r;
    if (r == 0) {
        if (as_det_nonzero(X)) {
            /* a nonzero X has rank >= 1: whitening lost it */
            as_error(c, AS_ERR_INPUT, "the whitening of %s found rank 0 although it is nonzero: scale %s",
                     as_input_name(X), X->kind == AS_STACKED ? "X and K" : "X");
            goto done;
        }
        out->eps_bound = 0;   /* X == 0: the empty Y is exact */
        goto done;
    }
    if (Lo.white) {
        V = as_malloc(c, (size_t)nt * (size_t)r, AS_DET_BLOCK * sizeof(double));
        T.np = r * (r + 1) / 2;
        if (!V) goto done;
        as_det_tree_build(X, W, r, V, &T, nt, c);
        as_free(c, V);
        if (c->status != AS_OK) goto done;
    }

    c->phase = NULL;   /* the steps report their own progress */
    as_bss_plan_init(o->eps, r, o->batch, &P);
    P.use_tree = Lo.use_tree;
    P.white = Lo.white;
    P.T = &T;
    out->max_columns = P.Q;
    picks = as_malloc(c, (size_t)P.Q, sizeof(as_det_pick));
    if (!picks) goto done;
    if (as_bss_run(X, W, r, &P, picks, &npicks, &steps, c) != AS_OK) goto done;
    u = P.u0 + (double)P.Q * P.dU;
    l = P.l0 + (double)P.Q * P.dL;
    gamma = 2.0 / (u + l);
    out->m = P.Q;
    out->steps = steps;
    out->eps_bound = (u - l) / (u + l);

    /* merge repeated picks; the sums run in pick order */
    qsort(picks, (size_t)npicks, sizeof(as_det_pick), as_det_pick_cmp);
    for (k = 0, q = 0; q < npicks; q++) k += q == 0 || picks[q].j != picks[q - 1].j;
    out->index = as_malloc(c, (size_t)k, sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)k, sizeof(double));
    if (!out->index || !out->weight) goto done;
    for (k = -1, q = 0; q < npicks; q++) {
        if (q == 0 || picks[q].j != picks[q - 1].j) {
            k++;
            out->index[k] = picks[q].j;
            out->weight[k] = 0;
        }
        out->weight[k] += picks[q].t;
    }
    out->k = k + 1;
    for (i = 0; i < out->k; i++) out->weight[i] = sqrt(gamma * out->weight[i]);
    as_progress(c, "det: %lld distinct columns, eps bound %.4g", (long long)out->k, out->eps_bound);

done:
    c->phase = NULL;
    as_free(c, G);
    as_free(c, T.P);
    as_free(c, W);
    as_free(c, picks);
    return c->status;
}

/* Y1 = X(:, S1.index) diag(S1.weight) as a matrix of its own: dense (X dense
   or stacked, rows in the view's order) or CSC with 64-bit indices. */
typedef struct as_det_copy {
    as_matrix view;
    double *x;
    int64_t *p, *i;
} as_det_copy;

static int as_det_copy_cols(const as_matrix *X, const as_result *S1, const as_det_options *o,
                            as_det_copy *Y, as_common *c)
{
    int64_t n = X->nrow, k = S1->k, t, nz;
    double bytes;
    memset(Y, 0, sizeof(*Y));
    if (X->kind == AS_DENSE || X->kind == AS_STACKED) {
        bytes = 8.0 * (double)n * (double)k;
        if (as_mem_check(c, bytes, o->mem_mb, "the presample's columns (n x k dense)") != AS_OK) return c->status;
        Y->x = as_calloc(c, (size_t)k, (size_t)n * sizeof(double));
        if (!Y->x) return c->status;
        for (t = 0; t < k; t++) {
            double w = S1->weight[t], *y = Y->x + t * n;
            AS_FOR_COL(X, S1->index[t], row, v, { y[row] = w * v; });
        }
        as_view_dense(&Y->view, n, k, Y->x, n);
        return AS_OK;
    }
    nz = as_select_nnz(X, k, S1->index);
    bytes = 16.0 * (double)nz + 8.0 * (double)(k + 1);
    if (as_mem_check(c, bytes, o->mem_mb, "the presample's columns (sparse)") != AS_OK) return c->status;
    Y->x = as_malloc(c, (size_t)(nz + 1), sizeof(double));
    Y->i = as_malloc(c, (size_t)(nz + 1), sizeof(int64_t));
    Y->p = as_malloc(c, (size_t)(k + 1), sizeof(int64_t));
    if (!Y->x || !Y->i || !Y->p) return c->status;
    for (nz = 0, t = 0; t < k; t++) {
        double w = S1->weight[t];
        Y->p[t] = nz;
        AS_FOR_COL(X, S1->index[t], row, v, { Y->i[nz] = row; Y->x[nz] = w * v; nz++; });
    }
    Y->p[k] = nz;
    as_view_csc64(&Y->view, n, k, Y->p, Y->i, Y->x);
    return AS_OK;
}

/* Two stages: as_rand to o->presample draws, then BSS on those columns. With
   (1-e1) X X' <= Y1 Y1' <= (1+e1) X X' (e1 measured when o->error) and BSS's
   (1-e2) Y1 Y1' <= Y Y' <= (1+e2) Y1 Y1', Y meets (1-e1)(1-e2) <= . <= (1+e1)(1+e2). */
static int as_det_two_stage(const as_matrix *X, const as_det_options *o, double **Gm, as_result *out,
                            as_common *c)
{
    as_rand_options ro;
    as_det_options o2 = *o;
    as_result S1, S2;
    as_det_copy Y;
    as_metrics met;
    int64_t t, n = X->nrow;
    int keep = o->error || o->spectral > 0;
    double *g2 = NULL;   /* stays NULL: the second stage keeps no Gram */
    *Gm = NULL;
    as_result_init(&S1);
    as_result_init(&S2);
    memset(&Y, 0, sizeof(Y));
    as_rand_options_init(&ro);
    ro.m = o->presample == 1 ? as_det_presample_m(n) : o->presample;
    ro.seed = o->seed;
    ro.error = 0;
    ro.spectral = 0;
    ro.estimate = 0;
    ro.mem_mb = o->mem_mb;
    as_progress(c, "det: presample of %lld draws (seed %llu)", (long long)ro.m, (unsigned long long)o->seed);
    if (as_rand(X, &ro, &S1, c) != AS_OK) goto done;
    out->presample_k = S1.k;
    if (keep) {
        *Gm = as_malloc(c, (size_t)n, (size_t)n * sizeof(double));
        if (!*Gm || as_gram(X, -1, NULL, NULL, *Gm, c) != AS_OK) goto done;
        if (as_metrics_of(X, *Gm, S1.k, S1.index, S1.weight, 1, &met, c) != AS_OK) goto done;
        out->presample_eps = met.eps_spectral;
    }
    if (as_det_copy_cols(X, &S1, o, &Y, c) != AS_OK) goto done;
    o2.presample = 0;
    o2.error = 0;
    o2.spectral = 0;
    if (as_det_direct(&Y.view, &o2, 0, &S2, &g2, c) != AS_OK) goto done;
    out->rank = S2.rank;
    out->m = S2.m;
    out->steps = S2.steps;
    out->max_columns = S2.max_columns;
    out->eps_bound = S2.eps_bound;
    out->eps_composed = (1 + out->presample_eps) * (1 + S2.eps_bound) - 1;
    out->k = S2.k;
    out->index = as_malloc(c, (size_t)(S2.k > 0 ? S2.k : 1), sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)(S2.k > 0 ? S2.k : 1), sizeof(double));
    if (!out->index || !out->weight) goto done;
    /* S1's and S2's indices increase, so the composed ones do */
    for (t = 0; t < S2.k; t++) {
        out->index[t] = S1.index[S2.index[t]];
        out->weight[t] = S1.weight[S2.index[t]] * S2.weight[t];
    }
done:
    as_result_free(&S1, c);
    as_result_free(&S2, c);
    as_free(c, Y.x);
    as_free(c, Y.i);
    as_free(c, Y.p);
    as_free(c, g2);
    return c->status;
}

int as_det(const as_matrix *X, const as_det_options *opts, as_result *out, as_common *c)
{
    double *Gm = NULL, t0 = as_wtime();
    as_det_options seeded = *opts;
    const as_det_options *o = &seeded;
    as_result_init(out);
    if (as_matrix_check(X, c) != AS_OK || as_det_options_check(o, c) != AS_OK)
        return c->status;
    /* only the presample draws at random */
    if (o->presample > 0) seeded.seed = as_seed_resolve(o->seed, c);
    as_result_options(out, AS_FOR_DET, o->presample > 0 ? (double)o->seed : NAN, NAN, NAN);
    if (o->presample > 0) out->has |= AS_HAS_PRESAMPLE;
    out->eps_target = o->eps;
    out->b = as_bss_b(o->eps);
    if (o->presample > 0) as_det_two_stage(X, o, &Gm, out, c);
    else as_det_direct(X, o, o->error || o->spectral > 0 || o->refit, out, &Gm, c);
    if (c->status == AS_OK && o->refit) as_refit(X, &Gm, o->mem_mb, out, c);
    out->time = as_wtime() - t0;
    if (c->status == AS_OK && as_sample_check_finite(X, out, c) == AS_OK)
        as_result_metrics(X, Gm, o->error, o->spectral, out, c);
    as_free(c, Gm);
    if (c->status != AS_OK) as_result_free(out, c);
    return c->status;
}
