/* det.c: the deterministic algorithm: BSS twice-Ramanujan sparsification of the whitened columns, with a tree search. */
#include "as_internal.h"
#include <float.h>
#include <stdlib.h>
#include <time.h>

/* Defaults and block sizes. */
#define AS_DET_MEM_MB    512.0   /* cap on the search tree when mem_mb == 0           */
#define AS_DET_LEAF_MIN  32      /* smallest automatic leaf: below it the walk dominates */
#define AS_DET_BLOCK     512     /* dense columns per dgemm when scoring a range       */
#define AS_DET_PAR_MIN   1024    /* fewer columns than this are scored on one thread   */
#define AS_DET_SCAN_CHUNK 65536  /* columns between interrupt checks in a plain scan   */
#define AS_DET_BUILD_WORK 2e7    /* multiply-adds per thread between interrupt checks  */
#define AS_DET_PHI_TOL   1e-6    /* relative slack allowed on the barrier potentials   */
#define AS_DET_PROGRESS_SEC 10.0 /* at most this long between progress lines (verbose) */
#define AS_DET_BIG_PLAN  1e5     /* more iterations than this: say so (verbose)         */
#define AS_DET_LONG_SEC  60.0    /* an estimated run longer than this: say so (verbose) */
#define AS_DET_LONG_PROBE_SEC 3.0 /* the estimate is made after this long              */

#ifdef _OPENMP
#define AS_SIMD _Pragma("omp simd")
#else
#define AS_SIMD
#endif

/* ------------------------------------------------------------------ packed Grams */
/* Symmetric n x n matrices are kept as their lower triangle, packed by columns:
   entry (a, b), a >= b, at as_det_off(n, b) + a - b. */
static int64_t as_det_off(int64_t n, int64_t b) { return b * n - b * (b - 1) / 2; }

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

/* P = sum over columns j0..j1-1 of x_j x_j' (CSC X): nnz(x_j)^2 / 2 each. */
static void as_det_leaf_csc(const as_matrix *X, int64_t j0, int64_t j1, double *P)
{
    int64_t n = X->nrow, j, q, s;
    memset(P, 0, sizeof(double) * (size_t)(n * (n + 1) / 2));
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
/* A binary tree over L leaves (blocks of lf consecutive columns), nodes in
   pre-order: the node of leaves [lo, hi) has its left child [lo, mid) at id + 1
   and its right child [mid, hi) at id + 2 (mid - lo), mid = lo + (hi - lo) / 2.
   Each node holds P = sum x_j x_j' over its columns (packed, original coordinates),
   so that <P, W' M W> = sum_j v_j' M v_j for the whitened v_j = W x_j. */
typedef struct as_det_tree {
    int64_t L, lf, nodes, np;
    double *P;   /* nodes x np */
} as_det_tree;

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

/* y += val * m (length r). */
static void as_det_axpy(int64_t r, double val, const double *m, double *y)
{
    int64_t i;
    AS_SIMD
    for (i = 0; i < r; i++) y[i] += val * m[i];
}

/* y = M x_j for M (r x n, column-major). */
static void as_det_apply(const as_matrix *X, int64_t j, const double *M, int64_t r, double *y)
{
    memset(y, 0, sizeof(double) * (size_t)r);
    AS_FOR_COL(X, j, row, val, { as_det_axpy(r, val, M + row * r, y); });
}

/* P = sum over columns j0..j1-1 of v_j v_j' with v_j = W x_j (W: r x n), in
   blocks of AS_DET_BLOCK whitened columns held in V (r x AS_DET_BLOCK). */
static void as_det_leaf_white(const as_matrix *X, const double *W, int64_t r, int64_t j0,
                              int64_t j1, double *P, double *V)
{
    int64_t j, t;
    int ri = (int)r, ni = (int)X->nrow;
    double one = 1.0, zero = 0.0;
    as_matrix Vv;
    if (j1 <= j0) memset(P, 0, sizeof(double) * (size_t)(r * (r + 1) / 2));
    for (j = j0; j < j1; j += AS_DET_BLOCK) {
        int nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
        if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
            int ldx = (int)X->ld;
            dgemm_("N", "N", &ri, &nb, &ni, &one, W, &ri, X->x + j * X->ld, &ldx, &zero, V, &ri, 1, 1);
        } else {
            for (t = 0; t < nb; t++) as_det_apply(X, j + t, W, r, V + t * r);
        }
        as_view_dense(&Vv, r, nb, V, r);
        as_det_leaf_dense(&Vv, 0, nb, P, j > j0);
    }
}

/* Leaf Grams in parallel (each leaf is one task: the same sums for any thread
   count), in chunks with an interrupt check between them; then the sums.
   W == NULL: Grams of the columns of X; else of the whitened columns W x_j
   (r x n), with V a workspace of nt x r x AS_DET_BLOCK. */
static int as_det_tree_build(const as_matrix *X, const double *W, int64_t r, double *V,
                             as_det_tree *T, int nt, as_common *c)
{
    int64_t d = X->ncol, i0 = 0, i1, i;
    double budget = AS_DET_BUILD_WORK * nt;
    while (i0 < T->L) {
        double work = 0;
        for (i1 = i0; i1 < T->L && (work < budget || i1 - i0 < nt); i1++) {
            int64_t j0 = i1 * T->lf, j1 = j0 + T->lf < d ? j0 + T->lf : d;
            work += W ? (double)(j1 - j0) * (double)r * ((double)r / 2 + (double)X->nrow)
                      : as_det_leaf_work(X, j0, j1);
        }
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
#endif
        for (i = i0; i < i1; i++) {
            int64_t j0 = i * T->lf, j1 = j0 + T->lf < d ? j0 + T->lf : d;
            double *P = T->P + as_det_leaf_node(T->L, i) * T->np;
            int tid = 0;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            if (W) as_det_leaf_white(X, W, r, j0, j1, P, V + (int64_t)tid * r * AS_DET_BLOCK);
            else if (X->kind == AS_DENSE) as_det_leaf_dense(X, j0, j1, P, 0);
            else as_det_leaf_csc(X, j0, j1, P);
        }
        if (as_interrupted(c)) return c->status;
        if ((i0 * 10) / T->L != (i1 * 10) / T->L)
            as_progress(c, "det: search tree %lld of %lld leaves", (long long)i1, (long long)T->L);
        i0 = i1;
    }
    as_det_tree_sum(T, 0, 0, T->L);
    return AS_OK;
}

/* Walk from the root into the child with the larger <P_child, M> (the children
   sum to the parent, so that child's value is at least half its parent's). */
static int64_t as_det_tree_walk(const as_det_tree *T, const double *Mp)
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

/* ------------------------------------------------------------------ BSS state */
typedef struct as_det_cand {
    int64_t j;         /* -1: none */
    double gap, U, L;  /* L_j - U_j, U_j, L_j */
} as_det_cand;

/* The barrier matrices come from Cholesky factorizations, never from an
   eigendecomposition: with MU = (u'I - A)^-1 and ML = (A - l'I)^-1,
   BU = MU^2 / dphiU + MU and BL = ML^2 / dphiL - ML, so for v = W x
   U = v'MU v + |MU v|^2 / dphiU and L = |ML v|^2 / dphiL - v'ML v. */
typedef struct as_det_run {
    const as_matrix *X;
    int64_t n, d, r;
    int nt;
    double *W;        /* r x n: W G W' = I on the range of G                  */
    double *A;        /* r x r, lower triangle: sum_j s_j v_j v_j'            */
    double *MU, *ML;  /* r x r: (u'I - A)^-1, (A - l'I)^-1 of this step        */
    double *MUp, *MLp;/* r x r: the same of the previous step                 */
    double *Z;        /* 3r x n: [W; MU W; ML W], so Z x_j = [v; MU v; ML v]   */
    double *D, *Mo;   /* 2r x n; n x n: Z(r:3r)' D = W' (BL - BU) W            */
    double *Mp;       /* n (n + 1) / 2: Mo packed, off-diagonal doubled       */
    double *ybuf;     /* dense: 3r x AS_DET_BLOCK; CSC: nt x 3r               */
    double *SQ;       /* r x r: MU^2 or ML^2 (lower triangle), whitened tree  */
    double *v, *wu, *wl; /* 3r: Z x_j of the pick; r: MU v, ML v of the pick  */
    double dphiU, dphiL;
} as_det_run;

/* a is better than b: larger gap, then smaller column (a total order, so the
   best of a range does not depend on how it was split between threads). */
static int as_det_better(const as_det_cand *a, const as_det_cand *b)
{
    if (a->j < 0) return 0;
    if (b->j < 0) return 1;
    return a->gap > b->gap || (a->gap == b->gap && a->j < b->j);
}

/* U_j and L_j from y = Z x_j = [v; MU v; ML v]. */
static void as_det_ul(const as_det_run *R, const double *y, double *U, double *L)
{
    const double *yu = y + R->r, *yl = y + 2 * R->r;
    double vu = 0, uu = 0, vl = 0, ll = 0;
    int64_t i;
    for (i = 0; i < R->r; i++) {
        vu += y[i] * yu[i];
        uu += yu[i] * yu[i];
        vl += y[i] * yl[i];
        ll += yl[i] * yl[i];
    }
    *U = vu + uu / R->dphiU;
    *L = ll / R->dphiL - vl;
}

/* Score column j from y = Z x_j. Only U_j > 0 (not an all-zero column) and
   L_j > U_j qualify. */
static void as_det_consider(const as_det_run *R, const double *y, int64_t j, as_det_cand *best)
{
    double su, sl;
    as_det_cand cand;
    as_det_ul(R, y, &su, &sl);
    if (!(su > 0) || !(sl - su > 0) || !isfinite(sl)) return;
    cand.j = j;
    cand.gap = sl - su;
    cand.U = su;
    cand.L = sl;
    if (as_det_better(&cand, best)) *best = cand;
}

/* The best candidate among columns j0..j1-1 (merged into *best). */
static void as_det_score(const as_det_run *R, int64_t j0, int64_t j1, as_det_cand *best)
{
    const as_matrix *X = R->X;
    int64_t r3 = 3 * R->r;
    if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
        int ri = (int)r3, ni = (int)R->n, ldx = (int)X->ld, nb;
        double one = 1.0, zero = 0.0;
        int64_t j, t;
        for (j = j0; j < j1; j += AS_DET_BLOCK) {
            nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
            dgemm_("N", "N", &ri, &nb, &ni, &one, R->Z, &ri, X->x + j * X->ld, &ldx, &zero,
                   R->ybuf, &ri, 1, 1);
            for (t = 0; t < nb; t++) as_det_consider(R, R->ybuf + t * r3, j + t, best);
        }
        return;
    }
    if (j1 - j0 < AS_DET_PAR_MIN || R->nt == 1) {
        int64_t j;
        for (j = j0; j < j1; j++) {
            as_det_apply(X, j, R->Z, r3, R->ybuf);
            as_det_consider(R, R->ybuf, j, best);
        }
        return;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(R->nt)
#endif
    {
        int tid = 0;
        int64_t j;
        as_det_cand mine;
        double *y;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        y = R->ybuf + (int64_t)tid * r3;
        mine.j = -1;
        mine.gap = mine.U = mine.L = 0;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (j = j0; j < j1; j++) {
            as_det_apply(X, j, R->Z, r3, y);
            as_det_consider(R, y, j, &mine);
        }
#ifdef _OPENMP
#pragma omp critical(as_det_merge)
#endif
        if (as_det_better(&mine, best)) *best = mine;
    }
}

/* ------------------------------------------------------------------ resolvents */
/* M = (s I - A)^-1 (sign 1) or (A - s I)^-1 (sign -1), full symmetric storage,
   for A (r x r, lower triangle). Returns LAPACK's info: nonzero when the shifted
   matrix is not (numerically) positive definite, i.e. A reached the barrier s. */
static int as_det_resolvent(int64_t r, const double *A, double s, int sign, double *M)
{
    int ri = (int)r, info = 0;
    int64_t a, b;
    for (b = 0; b < r; b++) {
        for (a = b; a < r; a++) M[a + b * r] = -sign * A[a + b * r];
        M[b + b * r] += sign * s;
    }
    dpotrf_("L", &ri, M, &ri, &info, 1);
    if (info != 0) return info;
    dpotri_("L", &ri, M, &ri, &info, 1);
    if (info != 0) return info;
    for (b = 0; b < r; b++)
        for (a = b + 1; a < r; a++) M[b + a * r] = M[a + b * r];
    return 0;
}

static double as_det_trace(int64_t r, const double *M)
{
    double s = 0;
    int64_t i;
    for (i = 0; i < r; i++) s += M[i + i * r];
    return s;
}

static double as_det_dot2(int64_t r, const double *x, const double *y)
{
    double s = 0;
    int64_t i;
    for (i = 0; i < r; i++) s += x[i] * y[i];
    return s;
}

/* <P, M> = tr(P M) for symmetric P, M (full storage). */
static double as_det_frob(int64_t r, const double *P, const double *M)
{
    return as_det_dot2(r * r, P, M);
}

/* x' M x for symmetric M (full storage). */
static double as_det_quad(int64_t r, const double *M, const double *x)
{
    double s = 0;
    int64_t a, b;
    for (b = 0; b < r; b++) {
        double mb = 0;
        for (a = 0; a < r; a++) mb += M[a + b * r] * x[a];
        s += mb * x[b];
    }
    return s;
}

/* Z = [W; MU W; ML W] (the W rows are set once). */
static void as_det_fill_z(as_det_run *R)
{
    int ri = (int)R->r, ni = (int)R->n, r3 = 3 * (int)R->r;
    double one = 1.0, zero = 0.0;
    dgemm_("N", "N", &ri, &ni, &ri, &one, R->MU, &ri, R->W, &ri, &zero, R->Z + R->r, &r3, 1, 1);
    dgemm_("N", "N", &ri, &ni, &ri, &one, R->ML, &ri, R->W, &ri, &zero, R->Z + 2 * R->r, &r3, 1, 1);
}

/* P (packed lower, off-diagonal doubled) = or += sa S + sm M over the lower
   triangles of S and M (r x r). */
static void as_det_pack_add(int64_t r, const double *S, double sa, const double *M, double sm,
                            double *P, int add)
{
    int64_t a, b, e = 0;
    for (b = 0; b < r; b++)
        for (a = b; a < r; a++, e++) {
            double val = (sa * S[a + b * r] + sm * M[a + b * r]) * (a == b ? 1.0 : 2.0);
            P[e] = add ? P[e] + val : val;
        }
}

/* Like as_det_score over a leaf, without the 3r x n matrix Z: the block's
   whitened columns V = W X(:, j..) and then MU V, ML V (r x r products). */
static void as_det_score_white(const as_det_run *R, int64_t j0, int64_t j1, as_det_cand *best)
{
    const as_matrix *X = R->X;
    int64_t r = R->r, j, t;
    int ri = (int)r, r3 = 3 * (int)r, ni = (int)R->n;
    double one = 1.0, zero = 0.0;
    for (j = j0; j < j1; j += AS_DET_BLOCK) {
        int nb = (int)(j1 - j < AS_DET_BLOCK ? j1 - j : AS_DET_BLOCK);
        if (X->kind == AS_DENSE && X->ld <= AS_INT_MAX) {
            int ldx = (int)X->ld;
            dgemm_("N", "N", &ri, &nb, &ni, &one, R->W, &ri, X->x + j * X->ld, &ldx, &zero,
                   R->ybuf, &r3, 1, 1);
        } else {
            for (t = 0; t < nb; t++) as_det_apply(X, j + t, R->W, r, R->ybuf + t * 3 * r);
        }
        dgemm_("N", "N", &ri, &nb, &ri, &one, R->MU, &ri, R->ybuf, &r3, &zero, R->ybuf + r, &r3, 1, 1);
        dgemm_("N", "N", &ri, &nb, &ri, &one, R->ML, &ri, R->ybuf, &r3, &zero, R->ybuf + 2 * r, &r3, 1, 1);
        for (t = 0; t < nb; t++) as_det_consider(R, R->ybuf + t * 3 * r, j + t, best);
    }
}

/* y = M x for symmetric M (r x r, full storage). */
static void as_det_symv(int64_t r, const double *M, const double *x, double *y)
{
    int64_t b;
    memset(y, 0, sizeof(double) * (size_t)r);
    for (b = 0; b < r; b++) as_det_axpy(r, x[b], M + b * r, y);
}

/* A plain scan of all columns, with interrupt checks between chunks. */
static int as_det_scan_all(const as_det_run *R, as_det_cand *best, as_common *c)
{
    int64_t j0;
    for (j0 = 0; j0 < R->d; j0 += AS_DET_SCAN_CHUNK) {
        int64_t j1 = j0 + AS_DET_SCAN_CHUNK < R->d ? j0 + AS_DET_SCAN_CHUNK : R->d;
        as_det_score(R, j0, j1, best);
        if (j1 < R->d && as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

static double as_det_absmax(int64_t len, const double *x)
{
    double m = 0;
    int64_t i;
    for (i = 0; i < len; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* Whitening of G (n x n, destroyed): W (r x n) with
   W G W' = I_r over the eigenvalues above the tolerance of as_compare_gram. */
static int as_det_whiten(int64_t n, double *G, double **W, int64_t *rank, as_common *c)
{
    double *lam = as_malloc(c, (size_t)n, sizeof(double));
    double *V = as_malloc(c, (size_t)(n * n), sizeof(double));
    int64_t r = 0, a, i;
    double tol, gabs = as_det_absmax(n * n, G);
    *W = NULL;
    *rank = 0;
    if (!lam || !V || as_syev((int)n, G, lam, V, c) != AS_OK) goto done;
    if (!(fabs(lam[n - 1]) <= DBL_MAX) || !(fabs(lam[0]) <= DBL_MAX)) {
        /* X X' is finite entry by entry but its largest eigenvalue (up to n times
           its largest entry) is not: the whitening would find rank 0 */
        as_error(c, AS_ERR_TOOBIG, "the largest eigenvalue of X X' overflows (X X' has entries up to %g, "
                 "n = %lld rows): scale X down", gabs, (long long)n);
        goto done;
    }
    tol = (double)n * 16.0 * DBL_EPSILON * fabs(lam[n - 1]);
    for (a = n - 1; a >= 0 && lam[a] > tol; a--) r++;
    *rank = r;
    if (r == 0) goto done;
    *W = as_malloc(c, (size_t)(r * n), sizeof(double));
    if (!*W) goto done;
    for (i = 0; i < r; i++) {
        double sc = 1.0 / sqrt(lam[n - r + i]);
        const double *vi = V + (n - r + i) * n;
        for (a = 0; a < n; a++) (*W)[i + a * r] = sc * vi[a];
    }
done:
    as_free(c, lam);
    as_free(c, V);
    return c->status;
}

/* One pick of the run: column j received t in iteration q. */
typedef struct as_det_pick {
    int64_t j, q;
    double t;
} as_det_pick;

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

static int as_det_breakdown(as_common *c, int64_t q, const char *what)
{
    return as_error(c, AS_ERR_INPUT,
                    "deterministic algorithm: numerical breakdown at iteration %lld (%s); "
                    "X is too ill-conditioned for its numerical rank: scale or drop near-dependent rows",
                    (long long)(q + 1), what);
}

int as_det(const as_matrix *X, const as_det_options *o, as_sample *out, as_common *c)
{
    int64_t n, d, r = 0, Q, q, i, a, b2, k, np, lf = 0, L = 1, fallbacks = 0;
    int nt, use_tree, white;
    double b, sb, dU, dL, eU, eL, u0, l0, u, l, gamma, cap, node_mb, gmax, au, al, tp;
    time_t t_start, t_last;
    int said_long = 0;
    double *G = NULL, *Gm = NULL, t0 = as_wtime();
    as_det_tree T;
    as_det_run R;
    as_det_pick *picks = NULL;

    as_sample_init(out);
    if (as_matrix_check(X, c) != AS_OK || as_det_options_check(o, c) != AS_OK)
        return c->status;
    n = X->nrow;
    d = X->ncol;
    nt = as_threads(c);
    np = n * (n + 1) / 2;
    memset(&T, 0, sizeof(T));
    memset(&R, 0, sizeof(R));
    out->eps_target = o->eps;

    /* barrier parameters (Batson, Spielman, Srivastava 2012, proof of Thm 3.1);
       b > 1 for eps in (0, 1) */
    b = as_bss_b(o->eps);
    out->b = b;
    sb = sqrt(b);
    dL = 1.0;
    dU = (sb + 1.0) / (sb - 1.0);
    eL = 1.0 / sb;
    eU = (sb - 1.0) / (b + sb);
    if (b * (double)n > (double)AS_M_MAX)
        return as_error(c, AS_ERR_TOOBIG, "'eps' = %g needs up to %.3g iterations (b = %.4g per row of X): use a larger 'eps'",
                        o->eps, b * (double)n, b);

    /* the search tree: as many leaves as the memory cap allows, leaves of at
       least AS_DET_LEAF_MIN columns unless 'leaf' says otherwise */
    cap = (o->mem_mb > 0 ? o->mem_mb : AS_DET_MEM_MB) * 1048576.0;
    node_mb = (double)np * sizeof(double) / 1048576.0;
    if (o->leaf > 0) {
        lf = o->leaf < d ? o->leaf : d;
        L = (d + lf - 1) / lf;
        if (L > 1 && o->search == 0 && (2.0 * L - 1) * node_mb * 1048576.0 > cap)
            return as_error(c, AS_ERR_ARG, "'leaf' = %lld makes a search tree of %.3g MiB, above 'memory' = %g MiB: use a larger 'leaf' or 'memory'",
                            (long long)o->leaf, (2.0 * L - 1) * node_mb,
                            o->mem_mb > 0 ? o->mem_mb : AS_DET_MEM_MB);
    } else {
        double lmax = floor((cap / (node_mb * 1048576.0) + 1.0) / 2.0);
        if (lmax >= 2) {
            lf = (int64_t)ceil((double)d / lmax);
            if (lf < AS_DET_LEAF_MIN) lf = AS_DET_LEAF_MIN;
            if (lf > d) lf = d;
            L = (d + lf - 1) / lf;
        }
    }
    use_tree = o->search == 0 && L >= 2;

    /* The tree holds Grams of the whitened columns when building it that way
       (a Gram of X, then r n + r^2 / 2 per column) costs less than what it saves:
       three products of O(n^3) per iteration, about b n iterations. */
    white = use_tree && (X->kind == AS_DENSE || X->kind == AS_STACKED ||
                         (double)as_nnz(X) * n + (double)d * n * n <= 6.0 * b * pow((double)n, 4));
    G = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!G) goto done;
    if (use_tree) {
        T.L = L;
        T.lf = lf;
        T.nodes = 2 * L - 1;
        T.np = np;
        as_progress(c, "det: search tree of %lld leaves x %lld columns (%.0f MiB%s)",
                    (long long)L, (long long)lf, (double)T.nodes * node_mb,
                    white ? ", whitened columns" : "");
        T.P = as_malloc(c, (size_t)T.nodes, (size_t)np * sizeof(double));
        if (!T.P) goto done;
    }
    if (use_tree && !white) {
        if (as_det_tree_build(X, NULL, 0, NULL, &T, nt, c) != AS_OK) goto done;
        /* the root is G = X X' */
        for (b2 = 0; b2 < n; b2++)
            for (a = b2; a < n; a++)
                G[a + b2 * n] = G[b2 + a * n] = T.P[as_det_off(n, b2) + a - b2];
    } else {
        if (o->search == 0 && !use_tree)
            as_progress(c, "det: no search tree (d = %lld, leaf %lld, cap %.0f MiB): plain scan",
                        (long long)d, (long long)lf, cap / 1048576.0);
        if (as_gram(X, -1, NULL, NULL, G, c) != AS_OK) goto done;
    }
    if (as_gram_finite(n, G, "X", c) != AS_OK) goto done;
    for (gmax = 0, a = 0; a < n; a++) gmax = fmax(gmax, G[a + a * n]);
    if (gmax < 1024 * DBL_MIN && as_det_nonzero(X)) {
        /* the squares of X's entries are subnormal or 0: its rank would be lost */
        as_error(c, AS_ERR_INPUT, "X X' underflows (largest squared row norm %g): scale X up", gmax);
        goto done;
    }
    if (o->error || o->spectral > 0) {
        /* the metrics compare with this X X' (the whitening destroys G) */
        Gm = as_malloc(c, (size_t)(n * n), sizeof(double));
        if (!Gm) goto done;
        memcpy(Gm, G, sizeof(double) * (size_t)(n * n));
    }
    if (as_det_whiten(n, G, &R.W, &r, c) != AS_OK) goto done;
    as_free(c, G);
    G = NULL;
    out->rank = r;
    if (r == 0) {
        if (as_det_nonzero(X)) {
            /* a nonzero X has rank >= 1: whitening lost it */
            as_error(c, AS_ERR_INPUT, "the whitening of X found rank 0 although X is nonzero: scale X");
            goto done;
        }
        out->eps_bound = 0;   /* X == 0: the empty Y is exact */
        goto done;
    }
    if (white) {
        double *V = as_malloc(c, (size_t)nt * (size_t)r, AS_DET_BLOCK * sizeof(double));
        T.np = r * (r + 1) / 2;
        if (!V) goto done;
        as_det_tree_build(X, R.W, r, V, &T, nt, c);
        as_free(c, V);
        if (c->status != AS_OK) goto done;
    }

    Q = (int64_t)ceil(b * (double)r);
    out->max_columns = Q;
    u0 = (double)r / eU;
    l0 = -(double)r / eL;
    R.X = X;
    R.n = n;
    R.d = d;
    R.r = r;
    R.nt = nt;
    /* every workspace once, before the first step */
    R.A = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.MU = as_malloc(c, (size_t)(r * r), sizeof(double));
    R.ML = as_malloc(c, (size_t)(r * r), sizeof(double));
    R.MUp = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.MLp = as_calloc(c, (size_t)(r * r), sizeof(double));
    R.Z = as_malloc(c, (size_t)(3 * r * n), sizeof(double));
    R.ybuf = as_malloc(c, (size_t)(3 * r * (nt > AS_DET_BLOCK ? nt : AS_DET_BLOCK)), sizeof(double));
    R.v = as_malloc(c, (size_t)(3 * r), sizeof(double));
    R.wu = as_calloc(c, (size_t)r, sizeof(double));
    R.wl = as_calloc(c, (size_t)r, sizeof(double));
    picks = as_malloc(c, (size_t)Q, sizeof(as_det_pick));
    if (!R.A || !R.MU || !R.ML || !R.MUp || !R.MLp || !R.Z || !R.ybuf || !R.v || !R.wu || !R.wl || !picks)
        goto done;
    if (use_tree) {
        R.SQ = as_malloc(c, (size_t)(r * r), sizeof(double));
        R.D = as_malloc(c, (size_t)(2 * r * n), sizeof(double));
        R.Mo = as_malloc(c, (size_t)(n * n), sizeof(double));
        R.Mp = as_malloc(c, (size_t)np, sizeof(double));
        if (!R.SQ || !R.D || !R.Mo || !R.Mp) goto done;
    }
    /* the W rows of Z never change */
    for (a = 0; a < n; a++) memcpy(R.Z + a * 3 * r, R.W + a * r, sizeof(double) * (size_t)r);
    /* before the first step A = 0: (u0 I - A)^-1 = I / u0, (A - l0 I)^-1 = I / -l0 */
    for (i = 0; i < r; i++) {
        R.MUp[i + i * r] = 1.0 / u0;
        R.MLp[i + i * r] = -1.0 / l0;
    }
    au = al = tp = 0;
    as_progress(c, "det: start of %lld iterations, rank %lld, eps %g, b = %.4g, %s", (long long)Q,
                (long long)r, o->eps, b, use_tree ? "tree search" : "plain scan");
    if ((double)Q > AS_DET_BIG_PLAN)
        as_progress(c, "det: a large plan: %lld iterations of O(rank^3) = %.3g flops each", (long long)Q,
                    10.0 * (double)r * (double)r * (double)r);
    t_start = time(NULL);
    t_last = t_start;

    for (q = 0; q < Q; q++) {
        double phiU, phiL, t, one = 1.0, zero = 0.0, up, lp, *sw;
        int ri = (int)r, ni = (int)n, r2 = 2 * (int)r, r3 = 3 * (int)r;
        as_det_cand best;
        /* barriers from the counter of this iteration: u = u_q, l = l_q */
        u = u0 + (double)q * dU;
        l = l0 + (double)q * dL;
        up = u + dU;
        lp = l + dL;
        if (as_interrupted(c)) goto done;
        /* a Cholesky factorization of each certifies A < u'I and A > l'I */
        if (as_det_resolvent(r, R.A, up, 1, R.MU) != 0) {
            as_det_breakdown(c, q, "A reached the upper barrier: u'I - A is not positive definite");
            goto done;
        }
        if (as_interrupted(c)) goto done;
        if (as_det_resolvent(r, R.A, lp, -1, R.ML) != 0) {
            as_det_breakdown(c, q, "A reached the lower barrier: A - l'I is not positive definite");
            goto done;
        }
        if (as_interrupted(c)) goto done;
        /* The potentials at (u, l) for this A and their drops, without cancellation:
           (uI - A)^-1 = MUp + tp wu wu' / (1 - tp au) (the previous pick, Sherman-Morrison),
           PhiU(u) - PhiU(u') = dU tr((uI - A)^-1 MU), and the same below with
           (A - lI)^-1 = MLp - tp wl wl' / (1 + tp al). */
        phiU = as_det_trace(r, R.MUp) + (q ? tp * as_det_dot2(r, R.wu, R.wu) / (1.0 - tp * au) : 0);
        phiL = as_det_trace(r, R.MLp) - (q ? tp * as_det_dot2(r, R.wl, R.wl) / (1.0 + tp * al) : 0);
        R.dphiU = dU * (as_det_frob(r, R.MUp, R.MU) +
                        (q ? tp * as_det_quad(r, R.MU, R.wu) / (1.0 - tp * au) : 0));
        R.dphiL = dL * (as_det_frob(r, R.MLp, R.ML) -
                        (q ? tp * as_det_quad(r, R.ML, R.wl) / (1.0 + tp * al) : 0));
        if (!(phiU <= eU * (1 + AS_DET_PHI_TOL)) || !(phiL <= eL * (1 + AS_DET_PHI_TOL)) ||
            !(R.dphiU > 0) || !(R.dphiL > 0) || !isfinite(R.dphiU) || !isfinite(R.dphiL)) {
            as_det_breakdown(c, q, "a barrier potential grew");
            goto done;
        }
        best.j = -1;
        best.gap = best.U = best.L = 0;
        if (white) {
            int64_t leaf, j0, j1;
            /* BL - BU = ML^2 / dphiL - ML - MU^2 / dphiU - MU, packed (off-diagonal
               doubled) for the walk over the whitened tree */
            dsyrk_("L", "N", &ri, &ri, &one, R.MU, &ri, &zero, R.SQ, &ri, 1, 1);
            as_det_pack_add(r, R.SQ, -1.0 / R.dphiU, R.MU, -1.0, R.Mp, 0);
            if (as_interrupted(c)) goto done;
            dsyrk_("L", "N", &ri, &ri, &one, R.ML, &ri, &zero, R.SQ, &ri, 1, 1);
            as_det_pack_add(r, R.SQ, 1.0 / R.dphiL, R.ML, -1.0, R.Mp, 1);
            leaf = as_det_tree_walk(&T, R.Mp);
            j0 = leaf * lf;
            j1 = j0 + lf < d ? j0 + lf : d;
            as_det_score_white(&R, j0, j1, &best);
            if (best.j < 0) {
                /* rounding left the chosen leaf without a candidate: look everywhere */
                fallbacks++;
                as_det_fill_z(&R);
                if (as_det_scan_all(&R, &best, c) != AS_OK) goto done;
            }
        } else if (use_tree) {
            int64_t leaf, j0, j1, e = 0;
            as_det_fill_z(&R);
            /* Mo = W' (BL - BU) W = [MU W; ML W]' [-(MU W / dphiU + W); ML W / dphiL - W] */
            for (a = 0; a < n; a++) {
                const double *za = R.Z + a * 3 * r;
                double *da = R.D + a * 2 * r;
                for (i = 0; i < r; i++) {
                    da[i] = -(za[r + i] / R.dphiU + za[i]);
                    da[r + i] = za[2 * r + i] / R.dphiL - za[i];
                }
            }
            if (as_interrupted(c)) goto done;
            dgemm_("T", "N", &ni, &ni, &r2, &one, R.Z + r, &r3, R.D, &r2, &zero, R.Mo, &ni, 1, 1);
            for (b2 = 0; b2 < n; b2++) {
                R.Mp[e++] = R.Mo[b2 + b2 * n];
                for (a = b2 + 1; a < n; a++) R.Mp[e++] = R.Mo[a + b2 * n] + R.Mo[b2 + a * n];
            }
            leaf = as_det_tree_walk(&T, R.Mp);
            j0 = leaf * lf;
            j1 = j0 + lf < d ? j0 + lf : d;
            as_det_score(&R, j0, j1, &best);
            if (best.j < 0) {
                /* rounding left the chosen leaf without a candidate: look everywhere */
                fallbacks++;
                if (as_det_scan_all(&R, &best, c) != AS_OK) goto done;
            }
        } else {
            as_det_fill_z(&R);
            if (as_det_scan_all(&R, &best, c) != AS_OK) goto done;
        }
        if (best.j < 0) {
            as_det_breakdown(c, q, "no column has U_j < L_j");
            goto done;
        }
        /* 1/t in the middle of [U_j, L_j]: both potentials can only go down */
        t = 2.0 / (best.U + best.L);
        as_det_apply(X, best.j, R.W, r, R.v);
        as_det_symv(r, R.MU, R.v, R.v + r);
        as_det_symv(r, R.ML, R.v, R.v + 2 * r);
        au = as_det_dot2(r, R.v, R.v + r);
        al = as_det_dot2(r, R.v, R.v + 2 * r);
        /* u'I - (A + t v v') is positive definite iff 1 - t v'MU v > 0 (u'I - A is):
           this certifies the upper barrier after the step; the lower one only
           moves away (A grows) and the next step's factorization at its own,
           higher l' certifies it */
        if (!(1.0 - t * au > 0)) {
            as_det_breakdown(c, q, "the step would cross the upper barrier");
            goto done;
        }
        for (b2 = 0; b2 < r; b2++) {
            double tv = t * R.v[b2];
            for (a = b2; a < r; a++) R.A[a + b2 * r] += tv * R.v[a];
        }
        memcpy(R.wu, R.v + r, sizeof(double) * (size_t)r);
        memcpy(R.wl, R.v + 2 * r, sizeof(double) * (size_t)r);
        tp = t;
        sw = R.MUp; R.MUp = R.MU; R.MU = sw;
        sw = R.MLp; R.MLp = R.ML; R.ML = sw;
        picks[q].j = best.j;
        picks[q].q = q;
        picks[q].t = t;
        if (c->verbose && !said_long && difftime(time(NULL), t_start) >= AS_DET_LONG_PROBE_SEC) {
            double el = difftime(time(NULL), t_start), est = el / (double)(q + 1) * (double)Q;
            said_long = 1;
            if (est > AS_DET_LONG_SEC)
                as_progress(c, "det: a long run: %lld iterations at about %.2f s each, about %.0f s in all",
                            (long long)Q, el / (double)(q + 1), est);
        }
        if (c->verbose && (((q + 1) * 10) / Q != (q * 10) / Q ||
                           difftime(time(NULL), t_last) >= AS_DET_PROGRESS_SEC)) {
            double el = difftime(time(NULL), t_start);
            t_last = time(NULL);
            as_progress(c, "det: iteration %lld of %lld, (u-l)/(u+l) = %.4g, %.0f s elapsed, about %.0f s left",
                        (long long)(q + 1), (long long)Q, (up - lp) / (up + lp), el,
                        el / (double)(q + 1) * (double)(Q - q - 1));
        }
    }

    /* the final A must lie strictly between the final barriers: certified by
       two Cholesky factorizations */
    u = u0 + (double)Q * dU;
    l = l0 + (double)Q * dL;
    if (as_det_resolvent(r, R.A, u, 1, R.MU) != 0 || as_det_resolvent(r, R.A, l, -1, R.ML) != 0) {
        as_det_breakdown(c, Q - 1, "the final A is not between the barriers");
        goto done;
    }
    gamma = 2.0 / (u + l);
    out->m = Q;
    out->eps_bound = (u - l) / (u + l);

    /* merge repeated picks; the sums run in iteration order */
    qsort(picks, (size_t)Q, sizeof(as_det_pick), as_det_pick_cmp);
    for (k = 0, q = 0; q < Q; q++) k += q == 0 || picks[q].j != picks[q - 1].j;
    out->index = as_malloc(c, (size_t)k, sizeof(int64_t));
    out->weight = as_malloc(c, (size_t)k, sizeof(double));
    if (!out->index || !out->weight) goto done;
    for (k = -1, q = 0; q < Q; q++) {
        if (q == 0 || picks[q].j != picks[q - 1].j) {
            k++;
            out->index[k] = picks[q].j;
            out->weight[k] = 0;
        }
        out->weight[k] += picks[q].t;
    }
    out->k = k + 1;
    for (i = 0; i < out->k; i++) out->weight[i] = sqrt(gamma * out->weight[i]);
    as_progress(c, "det: %lld iterations, %lld distinct columns, eps bound %.4g, %.0f s%s",
                (long long)Q, (long long)out->k, out->eps_bound, difftime(time(NULL), t_start),
                fallbacks ? " (some leaves rescanned)" : "");

done:
    as_free(c, G);
    G = NULL;
    as_free(c, T.P);
    as_free(c, R.W);
    as_free(c, R.A);
    as_free(c, R.MU);
    as_free(c, R.ML);
    as_free(c, R.MUp);
    as_free(c, R.MLp);
    as_free(c, R.wu);
    as_free(c, R.SQ);
    as_free(c, R.wl);
    as_free(c, R.Z);
    as_free(c, R.D);
    as_free(c, R.Mo);
    as_free(c, R.Mp);
    as_free(c, R.ybuf);
    as_free(c, R.v);
    as_free(c, picks);
    out->time = as_wtime() - t0;
    if (c->status == AS_OK && as_sample_check_finite(X, out, c) == AS_OK)
        as_sample_metrics(X, Gm, o->error, o->spectral, out, c);
    as_free(c, Gm);
    if (c->status != AS_OK) as_sample_free(out, c);
    return c->status;
}

double as_bss_b(double eps)
{
    double sb = (1.0 + sqrt(1.0 - eps * eps)) / eps;   /* sqrt(b) */
    return sb * sb;
}
