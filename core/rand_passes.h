/* rand_passes.h: the passes of the randomized method over X as blocks of columns (rand_passes.c; driven by block_run.c, and by as_rand over X as one block). */
#ifndef AS_RAND_PASSES_H
#define AS_RAND_PASSES_H

#include "as_internal.h"

typedef struct as_block_plan {
    int64_t n, d;       /* X is n x d                                       */
    int64_t s1, s;      /* sketch rows, nonzeros per column of S1           */
    int64_t chunk;      /* canonical chunk width: a multiple of 1024 that
                           depends on n and s1 only                          */
    int64_t nchunk;     /* ceil(d / chunk)                                  */
    int     need_lev;   /* the probabilities need leverage scores           */
    int     need_nrm;   /* they need the squared column norms               */
    int     in_memory;  /* 1: the scores need X itself (d <= s1: X is no
                           larger than a sketch): read X whole, as_rand     */
} as_block_plan;
/* The plan for an n x d X and options o (checked); AS_ERR_ARG for leverage =
   "exact" when d > s1, and for 'rel' then (target mode needs X in memory). */
int as_block_plan_init(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P,
                       as_common *c);
/* leaf (n x s1) += S1(:, j0 .. j0+ncol-1) Xb', Xb being columns j0 ..
   j0 + ncol(Xb) - 1 of X, all in one chunk (each chunk's leaf from zeros, fed
   its columns in order). A CSC Xb may be a view into a larger CSC (p[0] > 0),
   here and in as_block_scores. Messages name X's own columns. */
int as_block_sketch(const as_block_plan *P, const as_matrix *Xb, int64_t j0, uint64_t seed,
                    double *leaf, as_common *c);
/* acc += leaf (n x s1), the chunks taken in order. */
void as_block_sketch_add(const as_block_plan *P, double *acc, const double *leaf);
/* lev[t] = || x_{j0+t}' N ||^2 (NT NULL or q 0: scores 0) and nrm[t] =
   || x_{j0+t} ||^2, t < ncol(Xb); either output may be NULL. AS_ERR_INPUT when
   a score is not finite. */
int as_block_scores(const as_matrix *Xb, int64_t j0, const double *NT, int64_t q, int64_t qs,
                    double *lev, double *nrm, as_common *c);
/* The sampling from the scores of all d columns (lev, nrm as P says): index,
   weight, m, rank, sampling, probabilities; *term (owned, length k): each kept
   column's draw count (i.i.d.) or q (Poisson), for as_block_finish. A sum of
   nrm that over- or underflows is AS_ERR_INPUT (as_rand rescales X). */
int as_block_sample(const as_block_plan *P, const as_rand_options *o, int64_t rank,
                    const double *lev, const double *nrm, as_result *out, double **term,
                    as_common *c);
/* The diagonal of X X' (the rows' squared norms), which the error estimate
   reads (see as_estimate): leaf (n) += the squares of the entries of Xb row
   by row, Xb being columns of X that lie in one chunk;
   each chunk's leaf summed from zeros, its columns fed in order, the leaves
   added in chunk order (as_block_rowsq_add): any grid of whole chunks gives
   as_block_rowsq_all's bits. A CSC Xb may be a view into a larger CSC; the
   caller checks Xb's values. */
int as_block_rowsq(const as_matrix *Xb, double *leaf, as_common *c);
void as_block_rowsq_add(int64_t n, double *acc, const double *leaf);
/* Xs = X(:, out->index) (n x k, unweighted): Y's overflow check and, when
   o->estimate, the error estimate (as as_rand makes it), given rowsq, the
   diagonal of X X' as above (n doubles; NULL: unknown). */
int as_block_finish(const as_matrix *Xs, int64_t d, const as_rand_options *o, const double *term,
                    const double *rowsq, as_result *out, as_common *c);
/* A view of columns j0 .. j1-1 of X (no copy); a stacked X's parts are
   viewed in parts[2] (the caller's, alive as long as V). */
void as_view_cols(const as_matrix *X, int64_t j0, int64_t j1, as_matrix *V, as_matrix parts[2]);
/* A CSC block may be a view into a larger CSC (p[0] > 0): V is the same
   block with its own column pointers from 0 (*p_own, allocated, or NULL). */
int as_block_rebase(const as_matrix *Xb, as_matrix *V, void **p_own, as_common *c);
/* The canonical chunk width for s1 sketch rows (rand_passes.c). */
int64_t as_block_chunk(int64_t s1);
/* as_block_plan_init without its checks (as_rand's own path, target mode included). */
void as_block_plan_fill(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P);
/* Pass 1 over X as one block: MT (n x s1) = the chunk-ordered sum (rand_passes.c). */
int as_block_sketch_all(const as_block_plan *P, const as_matrix *X, uint64_t seed, double *MT,
                        as_common *c);
/* rowsq (n) = the diagonal of X X' summed as the block passes sum it (see
   as_block_rowsq): chunk leaves added in chunk order (rand_passes.c). */
int as_block_rowsq_all(const as_block_plan *P, const as_matrix *X, double *rowsq, as_common *c);

#endif
