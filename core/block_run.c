/* block_run.c: a run over an X read by blocks of columns ("block input" in attsparse.h): its passes, the tasks of their waves, the merges of the partials in block order, the master's steps between passes, and the serial driver over a reader. */
#include "block_format.h"
#include "leverage.h"
#include "metrics.h"
#include "rand.h"
#include "rand_passes.h"
#include "result.h"
#include "rng.h"
#include "sample.h"
#include "target.h"
#include <stdio.h>

/* X read a block of columns at a time, never whole (larger than memory, or
   spread over workers): the randomized algorithm, its leverage scores and the
   error metrics of a Y against X. A run (as_blocks) drives the passes over X;
   each pass's work on a block of columns gives a partial, and the run merges
   the partials in block order:
     sketch  per canonical chunk of columns a leaf S1(:, chunk) X(:, chunk)',
             the leaves added in chunk order; the run factors the sum into N';
     scores  per column ||x_j' N||^2 and, for "norm"/"mixed", ||x_j||^2, from N'
             alone; with 'error' or 'spectral' also per chunk X(:, chunk)
             X(:, chunk)', added in chunk order; the run samples from the
             scores of all columns, i.i.d. or Poisson, as as_rand does;
     gather  the chosen columns: the run checks Y = X(:, index) diag(weight),
             makes the error estimate from them, and the metrics against the
             summed X X'.
   The chunking fixes the order of every floating-point sum, so any block
   width, piece size and worker count give as_rand's index, weight and
   estimate bit for bit (for the same storage kind: dense or CSC) and the same
   metrics to 1e-12 (the same bits for the same pieces). An X no wider than the
   sketch (d <= s1) is read whole, in one block, and the in-memory call runs
   on it. Every pass hashes each column it reads: a column that reads
   differently in two passes stops the run (a reader must return the same X
   every time).

   Two ways to run. as_blocks_drive reads the blocks through a reader in this
   process. A front-end with workers loops instead: as_blocks_next gives the
   task of a wave of blocks (a flat byte string to send to the workers as it
   is), each worker reads its block and makes the partial (as_blocks_work, a
   flat byte string too), and as_blocks_merge takes the wave's partials in
   block order. Errors of a block's work (a NaN, a wrong size) ride in its
   partial and come out of as_blocks_merge, naming X's own columns. */

struct as_blocks {
    int what;
    uint64_t id;
    as_rand_options o;
    as_metrics_options mo;
    const as_matrix *Y;
    as_block_plan P;
    int64_t width, workers, nblocks_full;
    int wthreads, metrics, failed;
    int flags[AS_PF_PASSES + AS_TARGET_ROUNDS + 1], npass, pass;
    /* the current pass and wave */
    int64_t nblocks, next_block, wave_first, wave_count, merged;
    as_blk_rec *recs;              /* the blocks of the pass                   */
    unsigned char *task;
    size_t task_len;
    /* per column: hashes (after the first full pass), scores */
    uint32_t *hash;
    int hashed;
    double *lev, *nrm;
    /* the sketch and its factor, X X', its diagonal */
    double *acc, *G, *rowsq;
    as_block_factor F;
    /* the sample and the gathered columns (WHOLE: all of X); the columns a
       gather reads (the sample's, or those target mode's steps want) */
    double *term;
    int64_t kind, ncols_kept, nnz, cap, colcap, gathered_before;
    const int64_t *sel;
    int64_t nsel;
    as_target *T;
    double *xs;
    int64_t *ps, *is;
    double t0;
    as_blocks_result R;
    int done;
};

/* ------------------------------------------------------------ the run */
/* Stop the run: every later call reports the same error. */
static int as_run_fail(as_blocks *B, as_common *c)
{
    if (c->status != AS_OK && !B->failed) B->failed = c->status;
    return c->status;
}

void as_blocks_free(as_blocks *B, as_common *c)
{
    if (!B) return;
    as_free(c, B->recs);
    as_free(c, B->task);
    as_free(c, B->hash);
    as_free(c, B->lev);
    as_free(c, B->nrm);
    as_free(c, B->acc);
    as_free(c, B->G);
    as_free(c, B->rowsq);
    as_block_factor_free(&B->F, c);
    as_free(c, B->term);
    as_free(c, B->xs);
    as_free(c, B->ps);
    as_free(c, B->is);
    as_target_free(B->T, c);
    as_result_free(&B->R.S, c);
    as_free(c, B->R.scores);
    as_free(c, B);
}

/* The columns kept from a GATHER or WHOLE partial appended to the run's
   (total: the columns there will be). */
static int as_run_keep(as_blocks *B, const as_part_head *P, int64_t total, as_common *c)
{
    const unsigned char *base = (const unsigned char *)P;
    int64_t n = P->n, k = P->ncols, t;
    /* room for `total` columns (target mode's later gathers add more) */
    if (B->ncols_kept + k > B->colcap) {
        int64_t cap = total > B->ncols_kept + k ? total : B->ncols_kept + k;
        void *grown = as_malloc(c, (size_t)(P->kind == 0 ? n * cap : cap + 1), P->kind == 0 ? sizeof(double) : sizeof(int64_t));
        if (!grown) return c->status;
        if (P->kind == 0) {
            if (B->ncols_kept) memcpy(grown, B->xs, sizeof(double) * (size_t)(n * B->ncols_kept));
            as_free(c, B->xs);
            B->xs = grown;
        } else {
            int64_t *pg = grown;
            if (B->ps) memcpy(pg, B->ps, sizeof(int64_t) * (size_t)(B->ncols_kept + 1));
            else pg[0] = 0;
            as_free(c, B->ps);
            B->ps = pg;
        }
        B->colcap = cap;
    }
    if (P->kind == 0) {
        memcpy(B->xs + B->ncols_kept * n, base + P->data_off, sizeof(double) * (size_t)(n * k));
    } else {
        const int64_t *p = (const int64_t *)(base + P->data_off);
        const as_csc_entry *e = (const as_csc_entry *)(base + P->data_off + 8 * (k + 1));
        if (B->nnz + P->nnz > B->cap) {
            int64_t cap = 2 * B->cap > B->nnz + P->nnz ? 2 * B->cap : B->nnz + P->nnz;
            double *x = as_malloc(c, (size_t)cap, sizeof(double));
            int64_t *i = as_malloc(c, (size_t)cap, sizeof(int64_t));
            if (!x || !i) {
                as_free(c, x);
                as_free(c, i);
                return c->status;
            }
            if (B->nnz) {
                memcpy(x, B->xs, sizeof(double) * (size_t)B->nnz);
                memcpy(i, B->is, sizeof(int64_t) * (size_t)B->nnz);
            }
            as_free(c, B->xs);
            as_free(c, B->is);
            B->xs = x;
            B->is = i;
            B->cap = cap;
        }
        for (t = 0; t < k; t++) B->ps[B->ncols_kept + t + 1] = B->nnz + p[t + 1];
        for (t = 0; t < P->nnz; t++) {
            B->is[B->nnz + t] = e[t].row;
            B->xs[B->nnz + t] = e[t].x;
        }
        B->nnz += P->nnz;
    }
    B->ncols_kept += k;
    return AS_OK;
}

/* The kept columns as a view (k of them; dense when nothing was read). */
static void as_run_kept(const as_blocks *B, as_matrix *X)
{
    static const double none = 0;
    static const int64_t zero = 0;
    if (B->kind == 1) as_view_csc64(X, B->P.n, B->ncols_kept, B->ps ? B->ps : &zero, B->is, B->xs);
    else as_view_dense(X, B->P.n, B->ncols_kept, B->xs ? B->xs : &none, B->P.n);
}

/* The hashes of a partial's columns: the first full pass records them, every
   later read must match. */
static int as_run_hashes(as_blocks *B, const as_part_head *P, const int64_t *sel, as_common *c)
{
    const uint32_t *h = (const uint32_t *)((const unsigned char *)P + as_align8(sizeof(as_part_head)));
    int64_t t;
    if (!B->hash || (P->flags & AS_PF_WHOLE)) return AS_OK;
    if (!B->hashed && !(P->flags & AS_PF_GATHER)) {
        memcpy(B->hash + P->j0, h, sizeof(uint32_t) * (size_t)P->ncols);
        return AS_OK;
    }
    if (!B->hashed) return AS_OK;
    for (t = 0; t < P->ncols; t++) {
        int64_t j = (P->flags & AS_PF_GATHER) ? sel[t] : P->j0 + t;
        if (B->hash[j] != h[t])
            return as_error(c, AS_ERR_INPUT, "X: column %lld read differently in two passes: a reader must "
                            "return the same X every time", (long long)(j + 1));
    }
    return AS_OK;
}

/* The sketch leaves, the chunk Grams and row norms of a partial, added in chunk order. */
static void as_run_sums(as_blocks *B, const as_part_head *P)
{
    as_part_layout L;
    const unsigned char *base = (const unsigned char *)P;
    int64_t i, e, n = P->n;
    as_part_layout_of(P, &L);
    for (i = 0; i < P->nch; i++) {
        int64_t cg = P->j0 / P->chunk + i;
        if (P->flags & AS_PF_SKETCH) {
            const double *leaf = (const double *)(base + L.leaf) + i * n * P->s1;
            if (cg == 0) memcpy(B->acc, leaf, sizeof(double) * (size_t)(n * P->s1));
            else as_block_sketch_add(&B->P, B->acc, leaf);
        }
        if (P->flags & AS_PF_GRAM) {
            const double *Gc = (const double *)(base + L.gram) + i * n * n;
            if (cg == 0) memcpy(B->G, Gc, sizeof(double) * (size_t)(n * n));
            else for (e = 0; e < n * n; e++) B->G[e] += Gc[e];
        }
        if (P->flags & AS_PF_ROWSQ) {
            const double *leaf = (const double *)(base + L.rowsq) + i * n;
            if (cg == 0) memcpy(B->rowsq, leaf, sizeof(double) * (size_t)n);
            else as_block_rowsq_add(n, B->rowsq, leaf);
        }
    }
    if (P->flags & AS_PF_LEV) memcpy(B->lev + P->j0, base + L.lev, sizeof(double) * (size_t)P->ncols);
    if (P->flags & AS_PF_NRM) memcpy(B->nrm + P->j0, base + L.nrm, sizeof(double) * (size_t)P->ncols);
}

int as_blocks_merge(as_blocks *B, const void *part, size_t plen, as_common *c)
{
    const as_part_head *P = part;
    const as_blk_rec *r;
    c->status = AS_OK;
    if (B->failed) return as_error(c, B->failed, "the block run stopped at an earlier error");
    if (!P || plen < sizeof(*P) || P->magic != AS_PART_MAGIC || P->used != (int64_t)plen)
        return as_error(c, AS_ERR_ARG, "as_blocks_merge: not the partial of a block");
    if (P->run != B->id || P->pass != B->pass || B->merged >= B->wave_count)
        return as_error(c, AS_ERR_ARG, "as_blocks_merge: a partial of another run, pass or wave");
    r = B->recs + B->wave_first + B->merged;
    if (P->number != r->number)
        return as_error(c, AS_ERR_ARG, "as_blocks_merge: partials go in block order: got block %lld, "
                        "expected %lld", (long long)P->number, (long long)r->number);
    if (P->status != AS_OK) {
        as_error(c, (int)P->status, "%s", P->msg);
        return as_run_fail(B, c);
    }
    if (P->fed != P->ncols) {
        as_error(c, AS_ERR_ARG, "as_blocks_merge: the partial of columns %lld..%lld holds %lld of its %lld "
                 "columns", (long long)(P->j0 + 1), (long long)P->j1, (long long)P->fed, (long long)P->ncols);
        return as_run_fail(B, c);
    }
    if (P->ncols > 0 && B->kind >= 0 && P->kind != B->kind) {
        as_error(c, AS_ERR_INPUT, "the reader's columns %lld..%lld are %s, earlier ones were %s: return one kind",
                 (long long)(P->j0 + 1), (long long)P->j1, P->kind ? "sparse" : "full", B->kind ? "sparse" : "full");
        return as_run_fail(B, c);
    }
    if (P->ncols > 0) B->kind = P->kind;
    if (as_run_hashes(B, P, (P->flags & AS_PF_GATHER) ? B->sel + P->sa : NULL, c) != AS_OK)
        return as_run_fail(B, c);
    if (P->flags & (AS_PF_GATHER | AS_PF_WHOLE)) {
        if (as_run_keep(B, P, (P->flags & AS_PF_WHOLE) ? B->P.d : B->gathered_before + B->nsel, c) != AS_OK)
            return as_run_fail(B, c);
    } else as_run_sums(B, P);
    B->merged++;
    return AS_OK;
}

int as_blocks_fail(as_blocks *B, int64_t t, const char *msg, as_common *c)
{
    int64_t at = B->wave_first + t;
    if (t < 0 || t >= B->wave_count) at = B->wave_first;
    if (at < B->nblocks)
        as_error(c, AS_ERR_INPUT, "the reader failed on columns %lld..%lld: %s", (long long)(B->recs[at].j0 + 1),
                 (long long)B->recs[at].j1, msg && msg[0] ? msg : "(no message)");
    else as_error(c, AS_ERR_INPUT, "the reader failed: %s", msg && msg[0] ? msg : "(no message)");
    return as_run_fail(B, c);
}

/* ------------------------------------------------------------ the master's steps */
/* The sample from the scores of all columns (before the gather). */
static int as_run_sample(as_blocks *B, as_common *c)
{
    as_result *S = &B->R.S;
    if (as_block_sample(&B->P, &B->o, B->F.rank, B->lev, B->nrm, S, &B->term, c) != AS_OK) return c->status;
    if (B->P.need_lev) {
        S->s = B->P.s;
        S->s2 = B->F.s2;
    }
    as_free(c, B->lev);
    as_free(c, B->nrm);
    B->lev = B->nrm = NULL;
    as_block_factor_free(&B->F, c);
    return AS_OK;
}

/* X(:, index) as the run's kept columns, from the whole X kept (WHOLE). */
static int as_run_select(as_blocks *B, const as_matrix *Xw, int64_t k, const int64_t *index, as_common *c)
{
    int64_t n = B->P.n, t, nz = 0;
    double *x = NULL;
    int64_t *p = NULL, *i = NULL;
    if (B->kind == 1) {
        nz = as_select_nnz(Xw, k, index);
        p = as_malloc(c, (size_t)(k + 1), sizeof(int64_t));
        i = as_malloc(c, (size_t)nz, sizeof(int64_t));
    }
    x = as_malloc(c, (size_t)(B->kind == 1 ? nz : n * k), sizeof(double));
    if (!x || (B->kind == 1 && (!p || !i))) {
        as_free(c, x);
        as_free(c, p);
        as_free(c, i);
        return c->status;
    }
    if (B->kind == 1) {
        p[0] = 0;
        for (t = 0, nz = 0; t < k; t++) {
            AS_FOR_COL(Xw, index[t], row, v, { i[nz] = row; x[nz] = v; nz++; });
            p[t + 1] = nz;
        }
    } else
        for (t = 0; t < k; t++) memcpy(x + t * n, Xw->x + index[t] * n, sizeof(double) * (size_t)n);
    as_free(c, B->xs);
    as_free(c, B->ps);
    as_free(c, B->is);
    B->xs = x;
    B->ps = p;
    B->is = i;
    B->ncols_kept = B->colcap = k;
    B->nnz = B->cap = nz;
    return AS_OK;
}

/* Target mode's run from the scores (the first gather): its pilots, and the
   fields of the result as as_rand fills them. */
static int as_run_target_new(as_blocks *B, as_common *c)
{
    as_result *S = &B->R.S;
    int64_t rank = B->P.need_lev ? B->F.rank : (B->P.n < B->P.d ? B->P.n : B->P.d);
    as_result_options(S, AS_FOR_RAND, (double)B->o.seed, B->o.delta, B->o.rel);
    S->eps_target = as_rand_eps(&B->o);
    S->rank = rank;
    S->s1 = B->P.need_lev ? B->P.s1 : 0;
    if (B->P.need_lev) {
        S->s = B->P.s;
        S->s2 = B->F.s2;
    }
    S->sampling = AS_SAMPLING_POISSON;
    if (B->P.need_nrm) {
        double tn = as_sum(B->P.d, B->nrm);
        /* as_rand recomputes such norms on X / max |X|; blocks cannot */
        if (!isfinite(tn) || (tn > 0 && tn <= 1e-250))
            return as_error(c, AS_ERR_INPUT, "X: the sum of squared column norms %s: rescale X",
                            isfinite(tn) ? "underflows" : "overflows");
    }
    if (as_target_new(NULL, B->P.d, rank, S->s1, &B->o, B->lev, B->nrm, B->rowsq,
                      B->o.error ? B->G : NULL, &B->T, c) != AS_OK) return c->status;
    as_block_factor_free(&B->F, c);
    return as_target_step(B->T, NULL, NULL, 0, c);
}

/* After a gather of target mode: the next step on the columns gathered so
   far; when done, the result and its columns (else one more gather). */
static int as_run_target_step(as_blocks *B, as_common *c)
{
    as_matrix Xg;
    int64_t t, k, *pos = NULL;
    const int64_t *want;
    as_run_kept(B, &Xg);
    if (as_target_step(B->T, &Xg, B->sel, B->nsel, c) != AS_OK) return c->status;
    B->sel = NULL;
    B->nsel = 0;
    if (!as_target_wanted(B->T, &want, &k)) {
        if (B->npass >= (int)(sizeof B->flags / sizeof B->flags[0]))
            return as_error(c, AS_ERR_ARG, "target mode: more gathers than rounds");
        B->flags[B->npass++] = AS_PF_GATHER;
        return AS_OK;
    }
    as_target_result(B->T, &B->R.S);
    k = B->R.S.k;
    if (!(pos = as_malloc(c, (size_t)(k > 0 ? k : 1), sizeof(int64_t)))) return c->status;
    for (t = 0; t < k; t++) pos[t] = as_target_position(B->T, B->R.S.index[t]);
    if (as_run_select(B, &Xg, k, pos, c) == AS_OK) {
        as_run_kept(B, &Xg);
        if (k > 0 && as_matrix_check(&Xg, c) == AS_OK) as_sample_check_finite_cols(&Xg, NULL, &B->R.S, c);
    }
    as_free(c, pos);
    return c->status;
}

/* X read whole (no wider than a sketch): the in-memory call on it. */
static int as_run_whole(as_blocks *B, as_common *c)
{
    as_matrix Xw;
    as_run_kept(B, &Xw);
    if (B->what == AS_BLOCKS_LEVERAGE) {
        if (!(B->R.scores = as_malloc(c, (size_t)B->P.d, sizeof(double)))) return c->status;
        return as_leverage(&Xw, &B->o, B->R.scores, &B->R.rank, c);
    }
    if (as_rand(&Xw, &B->o, &B->R.S, c) != AS_OK) return c->status;
    return as_run_select(B, &Xw, B->R.S.k, B->R.S.index, c);
}

/* After the last pass: the metrics asked for, against the summed X X'. */
static int as_run_metrics(as_blocks *B, as_common *c)
{
    as_matrix Xs;
    as_metrics_options mo = B->mo;
    double t0 = as_wtime();
    if (B->what == AS_BLOCKS_ERROR) return as_attention_error_gram(B->P.n, B->G, B->Y, NULL, &mo, &B->R.metrics, c);
    /* read whole, the in-memory call made them */
    if (!B->metrics || (B->flags[0] & AS_PF_WHOLE)) return AS_OK;
    as_run_kept(B, &Xs);
    mo.spectral = as_spectral_asked(B->o.error, B->o.spectral);
    if (as_attention_error_gram(B->P.n, B->G, &Xs, B->R.S.weight, &mo, &B->R.S.metrics, c) != AS_OK)
        return c->status;
    as_metrics_mask(&B->R.S.metrics, B->o.error, B->o.error);
    B->R.S.error_time = as_wtime() - t0;
    return AS_OK;
}

/* The master's step at the end of a pass. */
static int as_pass_finish(as_blocks *B, as_common *c)
{
    int f = B->flags[B->pass];
    if (f & (AS_PF_SKETCH | AS_PF_LEV | AS_PF_NRM | AS_PF_GRAM | AS_PF_ROWSQ)) {
        B->R.reads++;
        B->hashed = 1;
    }
    if (f & AS_PF_SKETCH) {
        if (as_block_factor_run(&B->P, &B->o, B->acc, &B->F, c) != AS_OK) return c->status;
        as_free(c, B->acc);
        B->acc = NULL;
    }
    if ((f & AS_PF_LEV) && B->what == AS_BLOCKS_LEVERAGE) {
        B->R.scores = B->lev;
        B->lev = NULL;
        B->R.rank = B->F.rank;
    }
    if (f & AS_PF_GATHER) {
        as_matrix Xs;
        B->R.reads += B->nblocks > 0;
        if (B->T) {
            if (as_run_target_step(B, c) != AS_OK) return c->status;
        } else {
            as_run_kept(B, &Xs);
            if (as_block_finish(&Xs, B->P.d, &B->o, B->term, B->rowsq, &B->R.S, c) != AS_OK) return c->status;
        }
        B->R.S.time = as_wtime() - B->t0;
    }
    if (f & AS_PF_WHOLE) {
        B->R.reads = 1;
        return as_run_whole(B, c);
    }
    return AS_OK;
}

/* The blocks of pass B->pass: a full pass's grid, the blocks that hold chosen
   columns (GATHER, after the sampling), or all of X at once (WHOLE). */
static int as_pass_start(as_blocks *B, as_common *c)
{
    int f = B->flags[B->pass];
    int64_t b, d = B->P.d, n = B->P.n, w = B->width, k = B->R.S.k;
    as_free(c, B->recs);
    B->recs = NULL;
    B->nblocks = B->next_block = B->wave_first = B->wave_count = B->merged = 0;
    if (f & AS_PF_GATHER) {
        /* the sample's columns, or those target mode's next step wants */
        if (!isnan(B->o.rel)) {
            if (!B->T && as_run_target_new(B, c) != AS_OK) return c->status;
            as_target_wanted(B->T, &B->sel, &B->nsel);
        } else {
            if (as_run_sample(B, c) != AS_OK) return c->status;
            B->sel = B->R.S.index;
            B->nsel = B->R.S.k;
        }
        B->gathered_before = B->ncols_kept;
        k = B->nsel;
        /* the chosen columns in 2 runs per worker, whatever their place (a read each) */
        B->nblocks = k < 2 * B->workers ? k : 2 * B->workers;
    } else B->nblocks = (f & AS_PF_WHOLE) ? 1 : B->nblocks_full;
    if (B->nblocks > 0 && !(B->recs = as_calloc(c, (size_t)B->nblocks, sizeof(as_blk_rec)))) return c->status;
    if (f & AS_PF_GATHER)
        for (b = 0; b < B->nblocks; b++) {
            B->recs[b].number = b;
            B->recs[b].sa = k * b / B->nblocks;
            B->recs[b].sb = k * (b + 1) / B->nblocks;
            B->recs[b].j0 = B->sel[B->recs[b].sa];
            B->recs[b].j1 = B->sel[B->recs[b].sb - 1] + 1;
        }
    else
        for (b = 0; b < B->nblocks; b++) {
            B->recs[b].number = b;
            B->recs[b].j0 = (f & AS_PF_WHOLE) ? 0 : b * w;
            B->recs[b].j1 = (f & AS_PF_WHOLE) || (b + 1) * w > d ? d : (b + 1) * w;
        }
    if ((f & AS_PF_SKETCH) && !(B->acc = as_calloc(c, (size_t)(n * B->P.s1), sizeof(double)))) return c->status;
    if ((f & AS_PF_GRAM) && !(B->G = as_calloc(c, (size_t)(n * n), sizeof(double)))) return c->status;
    if ((f & AS_PF_ROWSQ) && !(B->rowsq = as_calloc(c, (size_t)n, sizeof(double)))) return c->status;
    as_progress(c, "blocks: pass %d of %d (%s%s%s%s%s), %lld blocks of up to %lld columns", B->pass + 1, B->npass,
                (f & AS_PF_SKETCH) ? "sketch" : "", (f & (AS_PF_LEV | AS_PF_NRM)) ? " scores" : "",
                (f & AS_PF_GRAM) ? " X X'" : "", (f & AS_PF_GATHER) ? "the chosen columns" : "",
                (f & AS_PF_WHOLE) ? "all of X, no wider than a sketch" : "", (long long)B->nblocks,
                (long long)((f & AS_PF_WHOLE) ? d : w));
    if (!c->verbose)
        as_status(c, "blocks: pass %d of %d over %lld blocks, %.1f s", B->pass + 1, B->npass, (long long)B->nblocks,
                  as_wtime() - c->started);
    return AS_OK;
}

/* ------------------------------------------------------------ tasks */
/* The task of blocks first .. first+count-1 of the pass. */
static int as_task_make(as_blocks *B, int64_t first, int64_t count, as_common *c)
{
    int f = B->flags[B->pass];
    as_task_head *T;
    size_t bytes, rec_off = as_align8(sizeof(as_task_head)), nt_off, sel_off;
    int64_t nsel = (f & AS_PF_GATHER) ? B->nsel : 0, qs = (f & AS_PF_LEV) ? B->F.qs : 0;
    nt_off = rec_off + sizeof(as_blk_rec) * (size_t)count;
    sel_off = nt_off + 8 * (size_t)(qs * B->P.n);
    bytes = sel_off + 8 * (size_t)nsel;
    as_free(c, B->task);
    B->task = NULL;
    if (!(B->task = as_calloc(c, 1, bytes))) return c->status;
    B->task_len = bytes;
    T = (as_task_head *)B->task;
    T->magic = AS_TASK_MAGIC;
    T->run = B->id;
    T->bytes = (int64_t)bytes;
    T->flags = f;
    T->pass = B->pass;
    T->count = count;
    T->n = B->P.n;
    T->d = B->P.d;
    T->chunk = B->P.chunk;
    T->s1 = B->P.s1;
    T->s = B->P.s;
    T->seed = B->o.seed;
    T->threads = B->wthreads;
    T->rec_off = (int64_t)rec_off;
    T->nt_off = (int64_t)nt_off;
    T->sel_off = (int64_t)sel_off;
    T->nsel = nsel;
    memcpy(B->task + rec_off, B->recs + first, sizeof(as_blk_rec) * (size_t)count);
    if (qs > 0 && B->F.NT) {
        T->q = B->F.q;
        T->qs = qs;
        memcpy(B->task + nt_off, B->F.NT, 8 * (size_t)(qs * B->P.n));
    }
    if (nsel > 0) memcpy(B->task + sel_off, B->sel, 8 * (size_t)nsel);
    return AS_OK;
}

int as_blocks_next(as_blocks *B, const void **task, size_t *len, as_common *c)
{
    int f;
    int64_t count, wave;
    *task = NULL;
    *len = 0;
    c->status = AS_OK;
    if (B->failed) return as_error(c, B->failed, "the block run stopped at an earlier error");
    if (B->merged < B->wave_count)
        return as_error(c, AS_ERR_ARG, "as_blocks_next: %lld partials of the wave are not merged yet",
                        (long long)(B->wave_count - B->merged));
    while (!B->done && B->next_block >= B->nblocks) {
        if (as_pass_finish(B, c) != AS_OK) return as_run_fail(B, c);
        if (++B->pass < B->npass) {
            if (as_pass_start(B, c) != AS_OK) return as_run_fail(B, c);
            continue;
        }
        if (as_run_metrics(B, c) != AS_OK) return as_run_fail(B, c);
        as_run_kept(B, &B->R.Xs);
        B->R.S.has |= AS_HAS_BLOCKS;
        B->R.S.chunk = B->R.chunk;
        B->R.S.blocks = B->R.blocks;
        B->R.S.reads = B->R.reads;
        B->done = 1;
    }
    if (B->done) return AS_OK;
    /* a wave: 2 blocks per worker of the passes with n x s1 or n x n partials per chunk */
    f = B->flags[B->pass];
    wave = (f & (AS_PF_SKETCH | AS_PF_GRAM)) ? 2 * B->workers : B->nblocks;
    count = B->nblocks - B->next_block < wave ? B->nblocks - B->next_block : wave;
    if (as_task_make(B, B->next_block, count, c) != AS_OK) return as_run_fail(B, c);
    B->wave_first = B->next_block;
    B->wave_count = count;
    B->merged = 0;
    B->next_block += count;
    *task = B->task;
    *len = B->task_len;
    return AS_OK;
}

/* ------------------------------------------------------------ a new run */
/* The memory the run holds, against the 'memory' option, before any column is read. */
static int as_run_memory(const as_blocks *B, as_common *c)
{
    double n = (double)B->P.n, d = (double)B->P.d, s1 = (double)B->P.s1, held = 1 + 2.0 * (double)B->workers *
           (double)(B->width / B->P.chunk), bytes = 0;
    int i, f = 0, iid = as_rand_sampling(&B->o) == AS_SAMPLING_IID;
    char what[300];
    for (i = 0; i < B->npass; i++) f |= B->flags[i];
    if (f & AS_PF_WHOLE) bytes = 16 * n * d;
    if (f & (AS_PF_SKETCH | AS_PF_LEV | AS_PF_NRM | AS_PF_GRAM | AS_PF_ROWSQ)) bytes += 4 * d;
    if (f & AS_PF_ROWSQ) bytes += 8 * n * (held + 1);
    if (f & AS_PF_LEV) bytes += 8 * d;
    if (f & AS_PF_NRM) bytes += 8 * d;
    if (f & AS_PF_GATHER) bytes += 8 * d + (iid ? 12 * d : 0) + (B->o.estimate ? 24 * n * n : 0) +
                                   (isnan(B->o.rel) ? 0 : 16 * d);   /* target mode: probabilities, places */
    if (f & AS_PF_SKETCH) bytes += 8 * n * s1 * held + 16 * n * n;
    if (f & AS_PF_GRAM) bytes += 8 * n * n * held + 16 * n * n;
    snprintf(what, sizeof what, "X read by blocks (n = %.0f rows, d = %.0f columns) needs its scores and a hash per "
             "column, the sampling's arrays, and %.0f n x %s arrays at once (chunks of %lld columns)", n, d, held,
             (f & AS_PF_SKETCH) ? "s1" : "n", (long long)B->P.chunk);
    return as_mem_check(c, bytes, B->o.mem_mb, what);
}

/* The options, the plan and the passes of a new run. */
static int as_run_plan(as_blocks *B, int64_t n, int64_t d, const void *o, const as_matrix *Y, as_common *c)
{
    if (B->what == AS_BLOCKS_ERROR) {
        B->mo = *(const as_metrics_options *)o;
        as_rand_options_init(&B->o);
        B->o.mem_mb = B->mo.mem_mb;   /* the run's arrays under attention_error's 'memory' */
        if (!Y) return as_error(c, AS_ERR_ARG, "as_blocks_new: attention_error needs Y");
        if (Y->nrow != n)
            return as_error(c, AS_ERR_INPUT, "Y must have as many rows as X (%lld); got %lld", (long long)n,
                            (long long)Y->nrow);
        if (Y->ncol > 0 && as_matrix_check_named(Y, "Y", c) != AS_OK) return c->status;
        B->Y = Y;
    } else {
        B->o = *(const as_rand_options *)o;
        /* one seed for every pass (drawn through the front-end's hook when not given) */
        if (as_rand_options_check(&B->o, c) != AS_OK) return c->status;
        B->o.seed = as_seed_resolve(B->o.seed, c);
        if (B->what == AS_BLOCKS_LEVERAGE) {
            if (B->o.leverage == AS_LEV_EXACT && d > (B->o.s1 > 0 ? B->o.s1 : as_default_s1(n)))
                return as_error(c, AS_ERR_ARG, "method = \"exact\" needs a dense d x n copy of X' in memory "
                                "(d = %lld): read by blocks, use \"approx\"", (long long)d);
            B->o.probabilities = AS_PROB_LEVERAGE;
        }
    }
    if (as_block_plan_init(n, d, &B->o, &B->P, c) != AS_OK) return c->status;
    B->metrics = B->what == AS_BLOCKS_RAND && (B->o.error || B->o.spectral > 0);
    if (B->what == AS_BLOCKS_ERROR) B->flags[B->npass++] = AS_PF_GRAM;
    else if (B->P.in_memory) B->flags[B->npass++] = AS_PF_WHOLE;
    else {
        /* the estimate reads the diagonal of X X' (a pass of its own for uniform
           probabilities without the metrics) */
        int scores = (B->P.need_lev ? AS_PF_LEV : 0) | (B->P.need_nrm ? AS_PF_NRM : 0) | (B->metrics ? AS_PF_GRAM : 0) |
                     (B->what == AS_BLOCKS_RAND && (B->o.estimate || !isnan(B->o.rel)) ? AS_PF_ROWSQ : 0);
        if (B->P.need_lev) B->flags[B->npass++] = AS_PF_SKETCH;
        if (scores) B->flags[B->npass++] = scores;
        if (B->what == AS_BLOCKS_RAND) B->flags[B->npass++] = AS_PF_GATHER;
    }
    return AS_OK;
}

int as_blocks_new(int what, int64_t n, int64_t d, const void *o, const as_matrix *Y,
                  int64_t width, int64_t workers, as_blocks **run, as_common *c)
{
    static uint64_t count = 0;
    uint64_t serial;
    as_blocks *B;
    int i, full = 0;
    *run = NULL;
    c->status = AS_OK;
    if (what < AS_BLOCKS_RAND || what > AS_BLOCKS_ERROR || !o)
        return as_error(c, AS_ERR_ARG, "as_blocks_new: unknown run %d", what);
    if (n < 1 || d < 1)
        return as_error(c, AS_ERR_INPUT, "X is empty (%lld x %lld): it needs at least one row and one column",
                        (long long)n, (long long)d);
    if (n > AS_INT_MAX)
        return as_error(c, AS_ERR_TOOBIG, "X has %lld rows; at most %lld are supported", (long long)n,
                        (long long)AS_INT_MAX);
    if (!(B = as_calloc(c, 1, sizeof(*B)))) return c->status;
    B->what = what;
    B->kind = -1;
    B->t0 = as_wtime();
    /* concurrent calls each take their own number */
#pragma omp atomic capture
    serial = ++count;
    B->id = as_rng_u64((uint64_t)(B->t0 * 1e9), serial, (uint64_t)(uintptr_t)B);
    as_result_init(&B->R.S);
    B->R.metrics = B->R.S.metrics;
    B->R.rank = 0;
    if (as_run_plan(B, n, d, o, Y, c) != AS_OK) goto fail;
    B->R.chunk = B->P.chunk;
    B->width = width <= 0 ? B->P.chunk : (width + B->P.chunk - 1) / B->P.chunk * B->P.chunk;
    if (B->width > d) B->width = (d + B->P.chunk - 1) / B->P.chunk * B->P.chunk;
    B->nblocks_full = B->R.blocks = (d + B->width - 1) / B->width;
    B->workers = workers < 1 ? 1 : workers;
    /* workers run the core on one thread each unless asked: the bits do not depend on it */
    B->wthreads = B->workers > 1 && c->nthreads <= 0 ? 1 : c->nthreads;
    if (as_run_memory(B, c) != AS_OK) goto fail;
    for (i = 0; i < B->npass; i++) full |= B->flags[i] & (AS_PF_SKETCH | AS_PF_LEV | AS_PF_NRM | AS_PF_GRAM | AS_PF_ROWSQ);
    if ((full && !(B->hash = as_malloc(c, (size_t)d, sizeof(uint32_t)))) ||
        (B->P.need_lev && !B->P.in_memory && B->what != AS_BLOCKS_ERROR &&
         !(B->lev = as_malloc(c, (size_t)d, sizeof(double)))) ||
        (B->P.need_nrm && !B->P.in_memory && B->what == AS_BLOCKS_RAND &&
         !(B->nrm = as_malloc(c, (size_t)d, sizeof(double)))))
        goto fail;
    if (as_pass_start(B, c) != AS_OK) goto fail;
    *run = B;
    return AS_OK;
fail:
    as_blocks_free(B, c);
    return c->status;
}

as_blocks_result *as_blocks_result_get(as_blocks *B)
{
    return B && B->done ? &B->R : NULL;
}

/* ------------------------------------------------------------ the serial driver */
/* Block t of the task through the reader, in pieces of at most `piece`
   columns (a full pass's within one chunk; a gather's only those that hold
   chosen columns). */
static int as_drive_block(const as_task_head *T, const as_reader *rd, int64_t piece, int64_t t,
                          as_part_head **PP, as_common *c)
{
    const as_blk_rec *r = as_task_recs(T) + t;
    const int64_t *sel = as_task_sel(T);
    int gather = (T->flags & AS_PF_GATHER) != 0;
    int64_t a = r->j0, s = r->sa;
    while (a < r->j1 && (*PP)->status == AS_OK) {
        int64_t b;
        as_matrix X;
        char msg[400] = "";
        int st;
        if (gather) {
            if (s >= r->sb) break;
            a = r->j0 + (sel[s] - r->j0) / piece * piece;
        }
        b = a + piece < r->j1 ? a + piece : r->j1;
        if (!gather && !(T->flags & AS_PF_WHOLE) && b > (a / T->chunk + 1) * T->chunk) b = (a / T->chunk + 1) * T->chunk;
        memset(&X, 0, sizeof X);
        st = rd->read(rd->ctx, a, b, &X, msg, sizeof msg);
        if (st == AS_ERR_INTERRUPT) return as_error(c, AS_ERR_INTERRUPT, "interrupted by the user");
        if (st != 0)
            return as_error(c, AS_ERR_INPUT, "the reader failed on columns %lld..%lld: %s", (long long)(a + 1),
                            (long long)b, msg[0] ? msg : "(no message)");
        if (X.ncol != b - a || X.nrow != T->n)
            return as_error(c, AS_ERR_INPUT, "the reader's columns %lld..%lld must be %lld x %lld, got %lld x %lld",
                             (long long)(a + 1), (long long)b, (long long)T->n, (long long)(b - a),
                             (long long)X.nrow, (long long)X.ncol);
        if (as_part_feed(T, PP, &X, a, NULL, c) != AS_OK) return c->status;
        while (gather && s < r->sb && sel[s] < b) s++;
        a = b;
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

int as_blocks_drive(as_blocks *B, const as_reader *rd, as_common *c)
{
    const void *task;
    size_t len;
    int64_t t, piece = rd->piece > 0 && rd->piece < B->P.chunk ? rd->piece : B->P.chunk;
    for (;;) {
        const as_task_head *T;
        if (as_blocks_next(B, &task, &len, c) != AS_OK || !task) return c->status;
        T = task;
        for (t = 0; t < T->count; t++) {
            as_part_head *P = NULL;
            int st = as_part_begin(T, t, &P, c);
            if (st == AS_OK) st = as_drive_block(T, rd, piece, t, &P, c);
            if (st == AS_OK) st = as_blocks_merge(B, P, (size_t)P->used, c);
            as_free(c, P);
            if (st != AS_OK) return as_run_fail(B, c);
        }
    }
}
