/* block_part.c: a block's partial in a block run: the work of a pass on a block's columns (the sketch leaves, scores, norms, Grams or the chosen columns, and a hash of every column read), as a worker or the serial driver makes it. */
#include "block_format.h"
#include "rand_passes.h"
#include <stdio.h>

/* ------------------------------------------------------------ hashes */
static uint64_t as_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A hash of column j's nonzero entries (row and bits of the value, one
   multiply each, mixed at the end): the same for a dense column and its CSC
   form. */
static uint32_t as_col_hash(const as_matrix *X, int64_t j)
{
    uint64_t h = 0;
    AS_FOR_COL(X, j, row, v, {
        if (v != 0) {
            uint64_t b;
            uint64_t z;
            memcpy(&b, &v, sizeof b);
            z = (b ^ ((uint64_t)row * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
            h += z ^ (z >> 31);
        }
    });
    h = as_mix64(h);
    return (uint32_t)(h ^ (h >> 32));
}

static void as_hash_cols(const as_matrix *X, uint32_t *out, as_common *c)
{
    int64_t j, w = X->ncol;
#ifdef _OPENMP
#pragma omp parallel for num_threads(as_threads_for(c, (double)X->nrow * (double)w)) schedule(static)
#endif
    for (j = 0; j < w; j++) out[j] = as_col_hash(X, j);
}

/* ------------------------------------------------------------ partials */
size_t as_part_layout_of(const as_part_head *h, as_part_layout *L)
{
    size_t at = as_align8(sizeof(as_part_head)), n = (size_t)h->n, w = (size_t)h->ncols,
           nch = (size_t)h->nch;
    L->hash = at;
    at = as_align8(at + 4 * w);
    L->leaf = at;
    if (h->flags & AS_PF_SKETCH) at += 8 * nch * n * (size_t)h->s1;
    L->lev = at;
    if (h->flags & AS_PF_LEV) at += 8 * w;
    L->nrm = at;
    if (h->flags & AS_PF_NRM) at += 8 * w;
    L->gram = at;
    if (h->flags & AS_PF_GRAM) at += 8 * nch * n * n;
    L->rowsq = at;
    if (h->flags & AS_PF_ROWSQ) at += 8 * nch * n;
    L->data = at;
    return at;
}

static const as_task_head *as_task_of(const void *task, size_t len)
{
    const as_task_head *T = task;
    if (!task || len < sizeof(as_task_head) || T->magic != AS_TASK_MAGIC || T->bytes != (int64_t)len)
        return NULL;
    return T;
}

int as_part_begin(const as_task_head *T, int64_t t, as_part_head **out, as_common *c)
{
    const as_blk_rec *r = as_task_recs(T) + t;
    as_part_head h, *P;
    as_part_layout L;
    size_t bytes;
    memset(&h, 0, sizeof h);
    h.magic = AS_PART_MAGIC;
    h.run = T->run;
    h.flags = T->flags;
    h.pass = T->pass;
    h.number = r->number;
    h.j0 = r->j0;
    h.j1 = r->j1;
    h.sa = r->sa;
    h.sb = r->sb;
    h.n = T->n;
    h.s1 = T->s1;
    h.chunk = T->chunk;
    h.nch = r->j1 > r->j0 ? (r->j1 - 1) / T->chunk - r->j0 / T->chunk + 1 : 0;
    h.ncols = (T->flags & AS_PF_GATHER) ? r->sb - r->sa : r->j1 - r->j0;
    h.kind = -1;
    bytes = as_part_layout_of(&h, &L);
    h.used = h.cap = h.data_off = (int64_t)bytes;
    *out = P = as_calloc(c, 1, bytes);
    if (!P) return c->status;
    memcpy(P, &h, sizeof h);
    return AS_OK;
}

/* Room for `need` bytes; the partial may move. */
static int as_part_reserve(as_part_head **PP, size_t need, as_common *c)
{
    as_part_head *P = *PP, *Q;
    size_t cap = (size_t)P->cap;
    if (need <= cap) return AS_OK;
    cap = need > 2 * cap ? need : 2 * cap;
    Q = as_malloc(c, 1, cap);
    if (!Q) return c->status;
    memcpy(Q, P, (size_t)P->used);
    Q->cap = (int64_t)cap;
    as_free(c, P);
    *PP = Q;
    return AS_OK;
}

/* The block's work failed: its message goes into the partial (AS_OK), except
   what stops the worker itself (no memory, an interrupt). */
static int as_part_fail(as_part_head *P, as_common *c)
{
    if (c->status == AS_ERR_NOMEM || c->status == AS_ERR_INTERRUPT) return c->status;
    P->status = c->status;
    snprintf(P->msg, sizeof P->msg, "%s", c->msg);
    return c->status = AS_OK;
}

/* Columns t0 .. t1-1 of X (X's columns g(t)) appended to a GATHER or WHOLE partial. */
static int as_part_append(as_part_head **PP, const as_matrix *X, int64_t t0, int64_t t1,
                          as_common *c)
{
    as_part_head *P = *PP;
    int64_t t, n = P->n;
    if (P->kind == 0) {
        double *x = (double *)((unsigned char *)P + P->data_off);
        for (t = t0; t < t1; t++, P->fed++) {
            double *y = x + P->fed * n;
            memset(y, 0, sizeof(double) * (size_t)n);
            AS_FOR_COL(X, t, row, v, { y[row] = v; });
        }
        return AS_OK;
    }
    {
        int64_t nz = 0, *p;
        as_csc_entry *e;
        for (t = t0; t < t1; t++) nz += as_col_nnz(X, t);
        if (as_part_reserve(PP, (size_t)P->used + sizeof(as_csc_entry) * (size_t)nz, c) != AS_OK)
            return c->status;
        P = *PP;
        p = (int64_t *)((unsigned char *)P + P->data_off);
        e = (as_csc_entry *)((unsigned char *)P + P->used);
        for (t = t0; t < t1; t++, P->fed++) {
            AS_FOR_COL(X, t, row, v, { e->row = row; e->x = v; e++; P->nnz++; });
            p[P->fed + 1] = P->nnz;
        }
        P->used += (int64_t)(sizeof(as_csc_entry) * (size_t)nz);
    }
    return AS_OK;
}

/* The storage of a GATHER or WHOLE partial, once the first columns tell the kind. */
static int as_part_data_begin(as_part_head **PP, as_common *c)
{
    as_part_head *P = *PP;
    size_t need = (size_t)P->data_off +
                  (P->kind == 0 ? 8 * (size_t)P->n * (size_t)P->ncols : 8 * ((size_t)P->ncols + 1));
    if (as_part_reserve(PP, need, c) != AS_OK) return c->status;
    P = *PP;
    memset((unsigned char *)P + P->data_off, 0, need - (size_t)P->data_off);
    P->used = (int64_t)need;
    return AS_OK;
}

/* The Grams of the chunks of X (columns j0 ..) into G (one n x n per chunk of
   the block, summed in column order from the chunk's start). */
static int as_part_gram(as_part_head *P, const as_matrix *X, int64_t j0, double *G, as_common *c)
{
    int64_t a = j0, n = P->n, e, end = j0 + X->ncol;
    double *tmp = NULL;
    while (a < end && c->status == AS_OK) {
        int64_t ch = a / P->chunk, b = (ch + 1) * P->chunk < end ? (ch + 1) * P->chunk : end;
        double *Gc = G + (ch - P->j0 / P->chunk) * n * n;
        as_matrix V, parts[2];
        as_view_cols(X, a - j0, b - j0, &V, parts);
        if (a % P->chunk == 0) as_gram(&V, -1, NULL, NULL, Gc, c);
        else {
            if (!tmp && !(tmp = as_malloc(c, (size_t)(n * n), sizeof(double)))) break;
            if (as_gram(&V, -1, NULL, NULL, tmp, c) == AS_OK)
                for (e = 0; e < n * n; e++) Gc[e] += tmp[e];
        }
        a = b;
    }
    as_free(c, tmp);
    return c->status;
}

/* The sketch leaves of the chunks of X (columns j0 ..). */
static int as_part_sketch(as_part_head *P, const as_task_head *T, const as_matrix *X, int64_t j0,
                          double *leaves, as_common *c)
{
    as_block_plan pl;
    int64_t a = j0, end = j0 + X->ncol;
    memset(&pl, 0, sizeof pl);
    pl.n = T->n;
    pl.d = T->d;
    pl.s1 = T->s1;
    pl.s = T->s;
    pl.chunk = T->chunk;
    pl.nchunk = (T->d + T->chunk - 1) / T->chunk;
    while (a < end && c->status == AS_OK) {
        int64_t ch = a / P->chunk, b = (ch + 1) * P->chunk < end ? (ch + 1) * P->chunk : end;
        as_matrix V, parts[2];
        as_view_cols(X, a - j0, b - j0, &V, parts);
        as_block_sketch(&pl, &V, a, T->seed, leaves + (ch - P->j0 / P->chunk) * P->n * P->s1, c);
        a = b;
    }
    return c->status;
}

/* The rows' squared norms of the chunks of X (columns j0 ..), a leaf per chunk. */
static int as_part_rowsq(as_part_head *P, const as_matrix *X, int64_t j0, double *leaves, as_common *c)
{
    int64_t a = j0, end = j0 + X->ncol;
    while (a < end && c->status == AS_OK) {
        int64_t ch = a / P->chunk, b = (ch + 1) * P->chunk < end ? (ch + 1) * P->chunk : end;
        as_matrix V, parts[2];
        as_view_cols(X, a - j0, b - j0, &V, parts);
        as_block_rowsq(&V, leaves + (ch - P->j0 / P->chunk) * P->n, c);
        a = b;
    }
    return c->status;
}

/* Is X a block the partial can take: n rows, the expected columns, one kind. */
static int as_part_accepts(const as_part_head *P, const as_matrix *X, int64_t j0, const int64_t *cols,
                           as_common *c)
{
    int64_t first = cols ? cols[0] + 1 : j0 + 1, last = cols ? cols[X->ncol - 1] + 1 : j0 + X->ncol;
    int kind = X->kind == AS_DENSE ? 0 : 1;
    if (X->kind == AS_STACKED || X->nrow != P->n)
        return as_error(c, AS_ERR_INPUT, "the reader's columns %lld..%lld must be %lld x %lld, got %lld x %lld",
                        (long long)first, (long long)last, (long long)P->n, (long long)X->ncol,
                        (long long)X->nrow, (long long)X->ncol);
    if (P->kind >= 0 && P->kind != kind)
        return as_error(c, AS_ERR_INPUT, "the reader's columns %lld..%lld are %s, earlier ones were %s: "
                        "return one kind", (long long)first, (long long)last, kind ? "sparse" : "full",
                        P->kind ? "sparse" : "full");
    return AS_OK;
}

int as_part_feed(const as_task_head *T, as_part_head **PP, const as_matrix *Xin, int64_t j0,
                        const int64_t *cols, as_common *c)
{
    as_part_head *P = *PP;
    as_part_layout L;
    as_matrix X;
    void *p_own = NULL;
    unsigned char *base;
    int64_t w = Xin->ncol, t;
    c->status = AS_OK;
    if (P->status != AS_OK || w == 0) return AS_OK;
    if (as_part_accepts(P, Xin, j0, cols, c) != AS_OK) return as_part_fail(P, c);
    if (as_block_rebase(Xin, &X, &p_own, c) != AS_OK) return as_part_fail(P, c);
    P->kind = X.kind == AS_DENSE ? 0 : 1;
    as_part_layout_of(P, &L);
    if (P->flags & (AS_PF_GATHER | AS_PF_WHOLE)) {
        /* the chosen columns among X's, in order */
        const int64_t *sel = as_task_sel(T);
        /* every column read is checked, as in memory all of X is */
        if (as_matrix_check_from(&X, "X", j0, cols, c) != AS_OK) goto done;
        if (P->used == P->data_off && as_part_data_begin(PP, c) != AS_OK) goto done;
        P = *PP;
        for (t = 0; t < w && P->fed < P->ncols; t++) {
            int64_t g = cols ? cols[t] : j0 + t;
            if (g != ((P->flags & AS_PF_GATHER) ? sel[P->sa + P->fed] : P->j0 + P->fed)) continue;
            ((uint32_t *)((unsigned char *)P + L.hash))[P->fed] = as_col_hash(&X, t);
            if (as_part_append(PP, &X, t, t + 1, c) != AS_OK) break;
            P = *PP;
        }
        goto done;
    }
    if (cols || j0 != P->j0 + P->fed || j0 + w > P->j1) {
        as_error(c, AS_ERR_ARG, "columns %lld..%lld fed out of order (the block's next is %lld)",
                 (long long)(j0 + 1), (long long)(j0 + w), (long long)(P->j0 + P->fed + 1));
        goto done;
    }
    base = (unsigned char *)P;
    as_hash_cols(&X, (uint32_t *)(base + L.hash) + (j0 - P->j0), c);
    if ((P->flags & AS_PF_SKETCH) && as_part_sketch(P, T, &X, j0, (double *)(base + L.leaf), c) != AS_OK)
        goto done;
    if (P->flags & (AS_PF_LEV | AS_PF_NRM)) {
        const double *NT = T->q > 0 ? (const double *)((const unsigned char *)T + T->nt_off) : NULL;
        if (as_block_scores(&X, j0, NT, T->q, T->qs,
                            (P->flags & AS_PF_LEV) ? (double *)(base + L.lev) + (j0 - P->j0) : NULL,
                            (P->flags & AS_PF_NRM) ? (double *)(base + L.nrm) + (j0 - P->j0) : NULL, c) != AS_OK)
            goto done;
    }
    /* without the scores or the sketch, the pass checks the block itself */
    if ((P->flags & (AS_PF_GRAM | AS_PF_ROWSQ)) && !(P->flags & (AS_PF_LEV | AS_PF_NRM | AS_PF_SKETCH)) &&
        as_matrix_check_from(&X, "X", j0, NULL, c) != AS_OK)
        goto done;
    if ((P->flags & AS_PF_ROWSQ) && as_part_rowsq(P, &X, j0, (double *)(base + L.rowsq), c) != AS_OK)
        goto done;
    if ((P->flags & AS_PF_GRAM) && as_part_gram(P, &X, j0, (double *)(base + L.gram), c) != AS_OK) goto done;
    P->fed += w;
done:
    as_free(c, p_own);
    return c->status == AS_OK ? AS_OK : as_part_fail(*PP, c);
}

int64_t as_blocks_task_count(const void *task, size_t len)
{
    const as_task_head *T = as_task_of(task, len);
    return T ? T->count : -1;
}

int as_blocks_task_block(const void *task, size_t len, int64_t t, int64_t *j0, int64_t *j1,
                         const int64_t **cols, int64_t *ncols)
{
    const as_task_head *T = as_task_of(task, len);
    const as_blk_rec *r;
    if (!T || t < 0 || t >= T->count) return AS_ERR_ARG;
    r = as_task_recs(T) + t;
    *j0 = r->j0;
    *j1 = r->j1;
    *cols = (T->flags & AS_PF_GATHER) ? as_task_sel(T) + r->sa : NULL;
    *ncols = (T->flags & AS_PF_GATHER) ? r->sb - r->sa : r->j1 - r->j0;
    return AS_OK;
}

int as_blocks_work(const void *task, size_t len, int64_t t, const as_matrix *Xb, void **part,
                   size_t *plen, as_common *c)
{
    const as_task_head *T = as_task_of(task, len);
    as_part_head *P = NULL;
    int saved = c->nthreads;
    *part = NULL;
    *plen = 0;
    c->status = AS_OK;
    if (!T || t < 0 || t >= T->count)
        return as_error(c, AS_ERR_ARG, "as_blocks_work: not a task of a block run, or no block %lld in it",
                        (long long)t);
    if (as_part_begin(T, t, &P, c) != AS_OK) return c->status;
    c->nthreads = (int)T->threads;
    {
        int64_t j0, j1, n;
        const int64_t *cols;
        as_blocks_task_block(task, len, t, &j0, &j1, &cols, &n);
        if (Xb->ncol != n) {
            as_error(c, AS_ERR_INPUT, "the reader's columns %lld..%lld must be %lld x %lld, got %lld x %lld",
                     (long long)(j0 + 1), (long long)j1, (long long)T->n, (long long)n,
                     (long long)Xb->nrow, (long long)Xb->ncol);
            as_part_fail(P, c);
        } else as_part_feed(T, &P, Xb, j0, cols, c);
    }
    c->nthreads = saved;
    if (c->status != AS_OK) {
        as_free(c, P);
        return c->status;
    }
    *part = P;
    *plen = (size_t)P->used;
    return AS_OK;
}
