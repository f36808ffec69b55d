/* det_shared.h: what the deterministic algorithm's files share (det.c: options, budget, driver; det_tree.c: the search tree; det_bss.c: the barrier steps; det_score.c: their column scores). */
#ifndef AS_DET_SHARED_H
#define AS_DET_SHARED_H

#include "as_internal.h"

#define AS_DET_BLOCK      512     /* dense columns per dgemm when scoring a range      */
#define AS_DET_BUILD_WORK 2e7     /* multiply-adds per thread between interrupt checks */
#define AS_DET_BATCH_MAX  64      /* most barrier shifts in one step when 'batch' = 0  */
#define AS_DET_CACHE      32

/* Symmetric n x n matrices are kept as their lower triangle, packed by columns:
   entry (a, b), a >= b, at as_det_off(n, b) + a - b. */
static inline int64_t as_det_off(int64_t n, int64_t b) { return b * n - b * (b - 1) / 2; }

/* ---- the search tree (det_tree.c) */
/* A binary tree over L leaves (blocks of lf consecutive columns), nodes in
   pre-order: the node of leaves [lo, hi) has its left child [lo, mid) at id + 1
   and its right child [mid, hi) at id + 2 (mid - lo), mid = lo + (hi - lo) / 2.
   Each node holds P = sum x_j x_j' over its columns (packed, np numbers): of the
   columns as they are, or of the whitened columns W x_j. */
typedef struct as_det_tree {
    int64_t L, lf, nodes, np;
    double *P;   /* nodes x np */
} as_det_tree;

/* Fill T->P: W == NULL: Grams of the columns of X; else of the whitened columns
   W x_j (W: r x n), with V a workspace of nt x r x AS_DET_BLOCK. */
int as_det_tree_build(const as_matrix *X, const double *W, int64_t r, double *V, as_det_tree *T,
                      int nt, as_common *c);
/* The leaf reached from the root by always entering the child with the larger
   <P_child, M> (Mp: M packed, off-diagonal entries doubled). */
int64_t as_det_tree_walk(const as_det_tree *T, const double *Mp);
/* y += val * m (length r). */
void as_det_axpy(int64_t r, double val, const double *m, double *y);
/* y = M x_j for M (r x n, column-major). */
void as_det_apply(const as_matrix *X, int64_t j, const double *M, int64_t r, double *y);

/* ---- the barrier steps (det_bss.c) */
/* The barriers of Batson, Spielman, Srivastava (2012, proof of Thm 3.1) for
   rank r: after q shifts u = u0 + q dU, l = l0 + q dL, potentials at most eU, eL. */
typedef struct as_bss_plan {
    double b, dU, dL, eU, eL, u0, l0;
    int64_t Q;          /* shifts: ceil(b r)                                    */
    int64_t batch;      /* most shifts in one step (1: one column per step)     */
    int use_tree, white;/* tree search; its nodes hold whitened Grams           */
    const as_det_tree *T;
} as_bss_plan;

/* One pick: column j received t, in pick order q. */
typedef struct as_det_pick {
    int64_t j, q;
    double t;
} as_det_pick;

/* The relative slack allowed on the barrier potentials (1e-6; tests set it
   below 0 to see a breakdown reported).
   (c->tune.det_phi_tol) */
/* Columns added between refreshes of the eigendecomposition (0: the rule,
   rank / 8 within 8 .. 64; tests set it to reach the other refreshes).
   (c->tune.det_refresh_cols) */

/* The plan of as_det for eps and rank r (no allocation). */
void as_bss_plan_init(double eps, int64_t r, int64_t batch, as_bss_plan *P);
/* Doubles of the steps' workspaces for rank r, n rows, nt threads (as_bss_run). */
double as_bss_workspace(int64_t n, int64_t r, int nt, const as_bss_plan *P, const as_common *c);
/* Run the steps on the columns of X whitened by W (r x n): picks (room for
   P->Q) and their count, the number of steps made. */
int as_bss_run(const as_matrix *X, const double *W, int64_t r, const as_bss_plan *P,
               as_det_pick *picks, int64_t *npicks, int64_t *steps, as_common *c);

#endif
