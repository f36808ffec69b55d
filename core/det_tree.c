/* det_tree.c: the deterministic algorithm's search tree: Grams of blocks of columns (packed), built in parallel, walked towards the columns that can take a step. */
#include "det_shared.h"

/* P = sum over columns j0..j1-1 of x_j x_j' (dense X), four columns per pass. */
static void as_det_leaf_dense(const as_matrix *X, int64_t j0, int64_t j1, double *P, int add)
{
    int64_t n = X->nrow, ld = X->ld, j = j0, a, b;
    if (!add) memset(P, 0, sizeof(double) * (size_t)(n * (n + 1) / 2));
    for (; j + 4 <= j1; j += 4) {
        const double *x0 = X->x + j * ld, *x1 = x0 + ld, *x2 = x1 + ld, *x3 = x2 + ld;
        double *col = P;
        for (b = 0; b < n; b++) {
            const double c0 = x0[b], c1 = x1[b], c2 = x2[b], c3 = x3[b];
            double *pb = col - b;   /* pb[a] is P(a, b) for a >= b */
            AS_SIMD
            for (a = b; a < n; a++) pb[a] += x0[a] * c0 + x1[a] * c1 + x2[a] * c2 + x3[a] * c3;
            col += n - b;
        }
    }
    for (; j < j1; j++) {
        const double *x0 = X->x + j * ld;
        double *col = P;
        for (b = 0; b < n; b++) {
            const double c0 = x0[b];
            double *pb = col - b;
            if (c0 != 0) {
                AS_SIMD
                for (a = b; a < n; a++) pb[a] += x0[a] * c0;
            }
            col += n - b;
        }
    }
}

/* P (+)= sum over columns j0..j1-1 of x_j x_j' (CSC X): nnz(x_j)^2 / 2 each. */
static void as_det_leaf_csc(const as_matrix *X, int64_t j0, int64_t j1, double *P, int add)
{
    int64_t n = X->nrow, j, q, s;
    if (!add) memset(P, 0, sizeof(double) * (size_t)(n * (n + 1) / 2));
    for (j = j0; j < j1; j++) {
        int64_t beg, end;
        if (X->kind == AS_CSC32) { beg = X->p32[j]; end = X->p32[j + 1]; }
        else { beg = X->p64[j]; end = X->p64[j + 1]; }
        for (q = beg; q < end; q++) {
            int64_t a = X->kind == AS_CSC32 ? X->i32[q] : X->i64[q];
            double va = X->x[q];
            for (s = beg; s <= q; s++) {
                int64_t b = X->kind == AS_CSC32 ? X->i32[s] : X->i64[s];
                P[as_det_off(n, b) + a - b] += va * X->x[s];
            }
        }
    }
}

/* Multiply-adds of as_det_leaf_* over columns j0..j1-1. */
static double as_det_leaf_work(const as_matrix *X, int64_t j0, int64_t j1)
{
    double w = 0;
    int64_t j;
    if (X->kind == AS_DENSE) return (double)(j1 - j0) * (double)X->nrow * (double)(X->nrow + 1) / 2;
    for (j = j0; j < j1; j++) {
        double z = (double)as_col_nnz(X, j);
        w += z * (z + 1) / 2 + 1;
    }
    return w;
}

/* <P, M> for packed P and Mp = M packed with its off-diagonal entries doubled. */
static double as_det_dot(const double *P, const double *Mp, int64_t len)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t e = 0;
    for (; e + 4 <= len; e += 4) {
        s0 += P[e] * Mp[e];
        s1 += P[e + 1] * Mp[e + 1];
        s2 += P[e + 2] * Mp[e + 2];
        s3 += P[e + 3] * Mp[e + 3];
    }
    for (; e < len; e++) s0 += P[e] * Mp[e];
    return (s0 + s1) + (s2 + s3);
}

/* ------------------------------------------------------------------ search tree */

static int64_t as_det_leaf_node(int64_t L, int64_t leaf)
{
    int64_t id = 0, lo = 0, hi = L;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (leaf < mid) { id += 1; hi = mid; }
        else { id += 2 * (mid - lo); lo = mid; }
    }
    return id;
}

/* Internal nodes as the sums of their children, element by element. Serial:
   (L - 1) n^2 / 2 additions are few next to the leaves' Grams, and one small
   parallel region per node stalls whenever another process holds a core. */
static void as_det_tree_sum(as_det_tree *T, int64_t id, int64_t lo, int64_t hi)
{
    int64_t mid = lo + (hi - lo) / 2, e, np = T->np;
    double *P, *Pl, *Pr;
    if (hi - lo <= 1) return;
    as_det_tree_sum(T, id + 1, lo, mid);
    as_det_tree_sum(T, id + 2 * (mid - lo), mid, hi);
    P = T->P + id * np;
    Pl = T->P + (id + 1) * np;
    Pr = T->P + (id + 2 * (mid - lo)) * np;
    AS_SIMD
    for (e = 0; e < np; e++) P[e] = Pl[e] + Pr[e];
}

void as_det_axpy(int64_t r, double val, const double *m, double *y)
{
    int64_t i;
    AS_SIMD
    for (i = 0; i < r; i++) y[i] += val * m[i];
}

void as_det_apply(const as_matrix *X, int64_t j, const double *M, int64_t r, double *y)
{
    memset(y, 0, sizeof(double) * (size_t)r);
    AS_FOR_COL(X, j, row, val, { as_det_axpy(r, val, M + row * r, y); });
}

/* P (+)= sum over columns j0..j1-1 of v_j v_j' with v_j = W x_j (W: r x n), in
   blocks of AS_DET_BLOCK whitened columns held in V (r x AS_DET_BLOCK). */
static void as_det_leaf_white(const as_matrix *X, const double *W, int64_t r, int64_t j0,
                              int64_t j1, double *P, double *V, int add)
{
    int64_t j, t;
    int ri = (int)r, ni = (int)X->nrow;
    double one = 1.0, zero = 0.0;
    as_matrix Vv;
    if (j1 <= j0 && !add) memset(P, 0, sizeof(double) * (size_t)(r * (r + 1) / 2));
    for (j = j0; j < j1; j += AS_DET_BLOCK) {
        int nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
        if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
            int ldx = (int)X->ld;
            dgemm_("N", "N", &ri, &nb, &ni, &one, W, &ri, X->x + j * X->ld, &ldx, &zero, V, &ri, 1, 1);
        } else {
            for (t = 0; t < nb; t++) as_det_apply(X, j + t, W, r, V + t * r);
        }
        as_view_dense(&Vv, r, nb, V, r);
        as_det_leaf_dense(&Vv, 0, nb, P, add || j > j0);
    }
}

/* The end of the piece of a leaf's columns that starts at j (the leaf ends at
   j1), about AS_DET_BUILD_WORK multiply-adds: whole blocks of AS_DET_BLOCK
   whitened columns, whole groups of four dense columns (the kernels' own
   steps: pieces sum in the same order as the leaf at once), or CSC columns. */
static int64_t as_det_piece_end(const as_matrix *X, const double *W, int64_t r, int64_t j, int64_t j1)
{
    int64_t e;
    double n2 = (double)X->nrow * (double)(X->nrow + 1) / 2, w = 0;
    if (W) e = j + AS_DET_BLOCK;
    else if (X->kind == AS_DENSE) e = j + 4 * (int64_t)fmax(1.0, floor(AS_DET_BUILD_WORK / (4.0 * n2)));
    else {
        for (e = j; e < j1 && w < AS_DET_BUILD_WORK; e++) {
            double z = (double)as_col_nnz(X, e);
            w += z * (z + 1) / 2 + 1;
        }
    }
    (void)r;
    return e < j1 ? e : j1;
}

/* Leaf Grams in parallel (each leaf one task at a time: the same sums for
   any thread count), a group of leaves at a time; each leaf a piece of its
   columns per round, with an interrupt check between rounds (a leaf can be
   many seconds of work: thousands of whitened columns of rank n). Then the
   sums. W == NULL: Grams of the columns of X; else of the whitened columns
   W x_j (r x n), with V a workspace of nt x r x AS_DET_BLOCK. */
int as_det_tree_build(const as_matrix *X, const double *W, int64_t r, double *V,
                             as_det_tree *T, int nt, as_common *c)
{
    int64_t d = X->ncol, i0 = 0, i1, i, *next;
    double budget = AS_DET_BUILD_WORK * nt;
    /* the whitened leaves' dgemm on one BLAS thread each (linalg.c) */
    int blas;
    next = as_malloc(c, (size_t)T->L, sizeof(int64_t));
    if (!next) return c->status;
    blas = W ? as_blas_threads_set(1) : 0;
    while (i0 < T->L && c->status == AS_OK) {
        double work = 0;
        int more = 1;
        for (i1 = i0; i1 < T->L && (work < budget || i1 - i0 < nt); i1++) {
            int64_t j0 = i1 * T->lf, j1 = j0 + T->lf < d ? j0 + T->lf : d;
            work += W ? (double)(j1 - j0) * (double)r * ((double)r / 2 + (double)X->nrow)
                      : as_det_leaf_work(X, j0, j1);
            next[i1] = j0;
        }
        while (more) {
            more = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) reduction(|:more)
#endif
            for (i = i0; i < i1; i++) {
                int64_t j0 = i * T->lf, j1 = j0 + T->lf < d ? j0 + T->lf : d, a = next[i], e;
                double *P = T->P + as_det_leaf_node(T->L, i) * T->np;
                int tid = 0;
#ifdef _OPENMP
                tid = omp_get_thread_num();
#endif
                if (a >= j1 && a > j0) continue;
                e = as_det_piece_end(X, W, r, a, j1);
                if (W) as_det_leaf_white(X, W, r, a, e, P, V + (int64_t)tid * r * AS_DET_BLOCK, a > j0);
                else if (X->kind == AS_DENSE) as_det_leaf_dense(X, a, e, P, a > j0);
                else as_det_leaf_csc(X, a, e, P, a > j0);
                next[i] = e > a ? e : j1 + 1;
                more |= next[i] < j1;
            }
            if (as_interrupted(c)) break;
        }
        if ((i0 * 10) / T->L != (i1 * 10) / T->L)
            as_progress(c, "det: search tree %lld of %lld leaves", (long long)i1, (long long)T->L);
        i0 = i1;
    }
    if (blas > 0) as_blas_threads_set(blas);
    as_free(c, next);
    if (c->status == AS_OK) as_det_tree_sum(T, 0, 0, T->L);
    return c->status;
}

/* Walk from the root into the child with the larger <P_child, M> (the children
   sum to the parent, so that child's value is at least half its parent's). */
int64_t as_det_tree_walk(const as_det_tree *T, const double *Mp)
{
    int64_t id = 0, lo = 0, hi = T->L;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2, left = id + 1, right = id + 2 * (mid - lo);
        double vl = as_det_dot(T->P + left * T->np, Mp, T->np);
        double vr = as_det_dot(T->P + right * T->np, Mp, T->np);
        if (vr > vl) { id = right; lo = mid; }
        else { id = left; hi = mid; }
    }
    return lo;
}

