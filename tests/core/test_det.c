/* test_det.c: the deterministic algorithm: spectral guarantee, column budget, search modes, determinism, errors. */
#include "as_internal.h"
#include "det_shared.h"
#include "check.h"
#include "det.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include <float.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ hooks */
static int progress_lines = 0, progress_prefixed = 0;
static void collect_line(void *ctx, const char *line)
{
    (void)ctx;
    progress_lines++;
    progress_prefixed += strncmp(line, "det: ", 5) == 0;
}

/* ------------------------------------------------------------------ inputs */
/* Dense n x d Gaussian, with column scales spread over two decades. */
static double *make_dense(int64_t n, int64_t d, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++) {
        double sc = pow(10.0, 2.0 * as_rng_unif(seed, 7, (uint64_t)j) - 1.0);
        for (i = 0; i < n; i++) X[i + j * n] = sc * as_rng_normal(seed, 8, (uint64_t)(j * n + i));
    }
    return X;
}

/* A sparse matrix in both index widths (and dense), entries kept with probability dens. */
typedef struct sp {
    int64_t n, d, nnz;
    int32_t *p32, *i32;
    int64_t *p64, *i64;
    double *x, *dense;
} sp;

static void make_sparse(sp *S, int64_t n, int64_t d, double dens, uint64_t seed)
{
    int64_t i, j, nz = 0;
    S->n = n;
    S->d = d;
    S->dense = calloc((size_t)(n * d), sizeof(double));
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++)
            if (as_rng_unif(seed, 9, (uint64_t)(j * n + i)) < dens) {
                S->dense[i + j * n] = as_rng_normal(seed, 10, (uint64_t)(j * n + i));
                nz++;
            }
    S->nnz = nz;
    S->p32 = malloc(sizeof(int32_t) * (size_t)(d + 1));
    S->p64 = malloc(sizeof(int64_t) * (size_t)(d + 1));
    S->i32 = malloc(sizeof(int32_t) * (size_t)(nz + 1));
    S->i64 = malloc(sizeof(int64_t) * (size_t)(nz + 1));
    S->x = malloc(sizeof(double) * (size_t)(nz + 1));
    nz = 0;
    for (j = 0; j < d; j++) {
        S->p32[j] = (int32_t)nz;
        S->p64[j] = nz;
        for (i = 0; i < n; i++)
            if (S->dense[i + j * n] != 0) {
                S->i32[nz] = (int32_t)i;
                S->i64[nz] = i;
                S->x[nz] = S->dense[i + j * n];
                nz++;
            }
    }
    S->p32[d] = (int32_t)nz;
    S->p64[d] = nz;
}

static void free_sparse(sp *S)
{
    free(S->p32); free(S->i32); free(S->p64); free(S->i64); free(S->x); free(S->dense);
}

/* LAPACK's symmetric eigensolver, for the checks (as R's eigen() and Octave's eig in their tests). */
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info, size_t, size_t);

/* Eigenvalues (ascending, in w) and, with vectors, eigenvectors (in A) of the symmetric A. */
static int sym_eig(int n, double *A, double *w, int vectors)
{
    int lwork = -1, info = 0;
    double q;
    dsyev_(vectors ? "V" : "N", "L", &n, A, &n, w, &q, &lwork, &info, 1, 1);
    lwork = (int)q;
    {
        double *work = malloc(sizeof(double) * (size_t)lwork);
        dsyev_(vectors ? "V" : "N", "L", &n, A, &n, w, work, &lwork, &info, 1, 1);
        free(work);
    }
    return info;
}

/* Generalized eigenvalues mu (ascending, *r of them) of (H, G) on the range of G. */
static void gram_ratio_eig(int64_t n, const double *G, const double *H, double *mu, int64_t *r)
{
    double *V = malloc(sizeof(double) * (size_t)(n * n)), *lam = malloc(sizeof(double) * (size_t)n);
    double *Wt, *C, tol;
    int64_t a, b, i, k = 0;
    memcpy(V, G, sizeof(double) * (size_t)(n * n));
    sym_eig((int)n, V, lam, 1);
    tol = (double)n * 16.0 * DBL_EPSILON * lam[n - 1];
    for (a = 0; a < n; a++) k += lam[a] > tol;
    Wt = malloc(sizeof(double) * (size_t)(n * (k ? k : 1)));
    C = malloc(sizeof(double) * (size_t)((k ? k : 1) * (k ? k : 1)));
    for (i = 0; i < k; i++)   /* Wt(:, i) = v_i / sqrt(lam_i) over the kept ones */
        for (a = 0; a < n; a++) Wt[a + i * n] = V[a + (n - k + i) * n] / sqrt(lam[n - k + i]);
    for (i = 0; i < k; i++)
        for (b = 0; b < k; b++) {
            double sum = 0;
            int64_t p2;
            for (a = 0; a < n; a++)
                for (p2 = 0; p2 < n; p2++) sum += Wt[a + i * n] * H[a + p2 * n] * Wt[p2 + b * n];
            C[i + b * k] = sum;
        }
    if (k) sym_eig((int)k, C, mu, 0);
    *r = k;
    free(V); free(lam); free(Wt); free(C);
}

/* The BSS barriers (Batson, Spielman, Srivastava, "Twice-Ramanujan sparsifiers",
   SIAM J. Comput. 2012, section 3) after q shifts on rank r, from the paper's constants. */
typedef struct barrier { double u, l, eU, eL, eps; } barrier;
static barrier bss_barrier(double eps, int64_t r, int64_t q)
{
    double b = pow((1.0 + sqrt(1.0 - eps * eps)) / eps, 2), sb = sqrt(b);
    barrier B;
    B.eU = (sb - 1) / (b + sb);
    B.eL = 1 / sb;
    B.u = (double)r / B.eU + (double)q * (sb + 1) / (sb - 1);
    B.l = -(double)r / B.eL + (double)q;
    B.eps = (B.u - B.l) / (B.u + B.l);
    return B;
}

/* ------------------------------------------------------------------ checks */
/* Column j of X is not all zero (X made by this file: stored zeros only in CSC32). */
static int col_nonzero(const as_matrix *X, int64_t j)
{
    int64_t q;
    if (X->kind == AS_DENSE) {
        for (q = 0; q < X->nrow; q++) if (X->x[q + j * X->ld] != 0) return 1;
        return 0;
    }
    if (X->kind == AS_CSC32) {
        for (q = X->p32[j]; q < X->p32[j + 1]; q++) if (X->x[q] != 0) return 1;
        return 0;
    }
    for (q = X->p64[j]; q < X->p64[j + 1]; q++) if (X->x[q] != 0) return 1;
    return 0;
}

/* Run as_det and check every property of the result against X computed
   independently: G = X X', H = Y Y', spectral eps <= eps_bound <= eps. */
static int det_valid(const char *what, const as_matrix *X, double eps, int search, int64_t leaf,
                     int64_t rank_expected, as_result *S, as_common *c)
{
    as_det_options o;
    as_metrics met;
    int64_t n = X->nrow, t, Qmax;
    double *G, *H;
    int ok = 1, st;
    as_det_options_init(&o);
    o.eps = eps;
    o.search = search;
    o.leaf = leaf;
    st = as_det(X, &o, S, c);
    CHECK(st == AS_OK, "%s eps %g search %d: status %d (%s)", what, eps, search, st, c->msg);
    if (st != AS_OK) return 0;
    if (rank_expected >= 0)
        CHECK(S->rank == rank_expected, "%s: rank %lld, expected %lld", what, (long long)S->rank,
              (long long)rank_expected);
    CHECK(S->eps_target == eps, "%s: eps_target %g", what, S->eps_target);
    CHECK(S->eps_bound <= eps * (1 + 1e-12), "%s: eps_bound %.17g above eps %g", what, S->eps_bound, eps);
    for (t = 0; t < S->k; t++) {
        int good = S->index[t] >= 0 && S->index[t] < X->ncol && (t == 0 || S->index[t] > S->index[t - 1]) &&
                   isfinite(S->weight[t]) && S->weight[t] > 0 && col_nonzero(X, S->index[t]);
        if (!good) {
            ok = 0;
            CHECK(good, "%s: entry %lld: index %lld weight %g (increasing, in range, nonzero column)",
                  what, (long long)t, (long long)S->index[t], S->weight[t]);
            break;
        }
    }
    G = malloc(sizeof(double) * (size_t)(n * n));
    H = malloc(sizeof(double) * (size_t)(n * n));
    CHECK(as_gram(X, -1, NULL, NULL, G, c) == AS_OK, "%s: gram", what);
    CHECK(as_gram(X, S->k, S->index, S->weight, H, c) == AS_OK, "%s: gram of Y", what);
    CHECK(as_compare_gram(n, G, H, 1, &met, c) == AS_OK, "%s: compare", what);
    CHECK(met.eps_spectral <= eps, "%s eps %g search %d: spectral eps %.6g above the request",
          what, eps, search, met.eps_spectral);
    /* the barrier argument, recomputed from Y with an eigensolver: m shifts are
       the fewest whose bound (u - l)/(u + l) reaches eps; Y Y' = gamma A with
       gamma = 2/(u_m + l_m), A (whitened) strictly inside (l_m, u_m), its
       potentials not above their start; Y spans the range (k >= r) and each
       shift adds at most one column (k <= m) */
    {
        double *mu = malloc(sizeof(double) * (size_t)n), su = 0, sl = 0;
        int64_t r = 0, inside = 1;
        barrier B, B1;
        gram_ratio_eig(n, G, H, mu, &r);
        CHECK(r == S->rank, "%s: rank %lld by eig, %lld by as_det", what, (long long)r, (long long)S->rank);
        Qmax = S->m;
        B = bss_barrier(eps, r, Qmax);
        B1 = bss_barrier(eps, r, Qmax - 1);
        CHECK(B.eps <= eps * (1 + 1e-12) && B1.eps > eps * (1 - 1e-9),
              "%s: m = %lld is not the fewest shifts reaching eps (%.17g, %.17g)", what, (long long)Qmax,
              B.eps, B1.eps);
        CHECK(fabs(S->eps_bound - B.eps) <= 1e-12, "%s: eps_bound %.17g, barriers %.17g", what, S->eps_bound, B.eps);
        for (t = 0; t < r; t++) {
            double lam = mu[t] * (B.u + B.l) / 2;
            inside = inside && lam > B.l && lam < B.u;
            su += 1 / (B.u - lam);
            sl += 1 / (lam - B.l);
        }
        CHECK(inside, "%s: an eigenvalue of A outside (l_m, u_m)", what);
        CHECK(su <= B.eU * (1 + 1e-8) && sl <= B.eL * (1 + 1e-8), "%s: potentials %.9g > %.9g or %.9g > %.9g",
              what, su, B.eU, sl, B.eL);
        CHECK(S->k >= r && S->k <= Qmax, "%s: k = %lld outside [rank %lld, m %lld]", what, (long long)S->k,
              (long long)r, (long long)Qmax);
        free(mu);
    }
    CHECK(met.eps_spectral <= S->eps_bound + 1e-9, "%s: spectral eps %.6g above the bound %.6g",
          what, met.eps_spectral, S->eps_bound);
    ok = ok && met.eps_spectral <= eps;
    free(G);
    free(H);
    return ok;
}

/* det_valid for eps in {0.3, 0.5, 0.8}, with the tree search and the plain scan. */
static void valid_all(const char *what, const as_matrix *X, int64_t leaf, int64_t rank_expected,
                      as_common *c)
{
    double eps[3] = {0.3, 0.5, 0.8};
    as_result S;
    int e, s;
    for (e = 0; e < 3; e++)
        for (s = 0; s < 2; s++) {
            det_valid(what, X, eps[e], s, leaf, rank_expected, &S, c);
            as_result_free(&S, c);
        }
}

static int same_sample(const as_result *a, const as_result *b)
{
    return a->k == b->k && a->m == b->m && a->rank == b->rank &&
           memcmp(a->index, b->index, sizeof(int64_t) * (size_t)a->k) == 0 &&
           memcmp(a->weight, b->weight, sizeof(double) * (size_t)a->k) == 0 &&
           a->eps_bound == b->eps_bound;
}

/* ------------------------------------------------------------------ tests */
static void test_options(as_common *c)
{
    as_det_options o;
    as_result S;
    as_matrix X;
    double x[6] = {1, 2, 3, 4, 5, 6}, bad[6] = {1, 2, NAN, 4, 5, 6};
    double eps_bad[5] = {0, 1, 1.5, -0.2, NAN};
    int e, st;
    as_det_options_init(&o);
    CHECK(o.eps == 0.5 && o.leaf == 0 && o.mem_mb == 0 && o.search == 0, "defaults");
    CHECK(as_det_options_check(&o, c) == AS_OK, "defaults pass: %s", c->msg);
    for (e = 0; e < 5; e++) {
        as_det_options_init(&o);
        o.eps = eps_bad[e];
        st = as_det_options_check(&o, c);
        CHECK(st == AS_ERR_ARG && strstr(c->msg, "'eps'") != NULL, "eps %g: %d %s", eps_bad[e], st, c->msg);
    }
    CHECK(strstr(c->msg, "(0, 1)") != NULL, "message says the range: %s", c->msg);
    as_det_options_init(&o);
    o.leaf = -1;
    CHECK(as_det_options_check(&o, c) == AS_ERR_ARG && strstr(c->msg, "'leaf'"), "leaf: %s", c->msg);
    as_det_options_init(&o);
    o.mem_mb = -1;
    CHECK(as_det_options_check(&o, c) == AS_ERR_ARG && strstr(c->msg, "'memory'"), "mem_mb: %s", c->msg);
    o.mem_mb = INFINITY;
    CHECK(as_det_options_check(&o, c) == AS_ERR_ARG && strstr(c->msg, "'memory'"), "mem_mb inf: %s", c->msg);
    o.mem_mb = NAN;
    CHECK(as_det_options_check(&o, c) == AS_ERR_ARG && strstr(c->msg, "'memory'"), "mem_mb nan: %s", c->msg);
    as_det_options_init(&o);
    o.search = 2;
    CHECK(as_det_options_check(&o, c) == AS_ERR_ARG && strstr(c->msg, "'search'"), "search: %s", c->msg);

    /* as_det checks options and X, and leaves an empty result */
    as_view_dense(&X, 2, 3, x, 2);
    o.search = 2;
    st = as_det(&X, &o, &S, c);
    CHECK(st == AS_ERR_ARG && c->status == AS_ERR_ARG && S.k == 0 && S.index == NULL, "as_det bad options: %d", st);
    as_det_options_init(&o);
    as_view_dense(&X, 2, 3, bad, 2);
    st = as_det(&X, &o, &S, c);
    CHECK(st == AS_ERR_INPUT && strstr(c->msg, "column 2") != NULL, "NaN input: %d %s", st, c->msg);
    as_view_dense(&X, 2, 3, x, 1);
    CHECK(as_det(&X, &o, &S, c) == AS_ERR_INPUT, "bad leading dimension: %s", c->msg);
}

static void test_leaf_cap(as_common *c)
{
    int64_t n = 40, d = 4000;
    double *x = make_dense(n, d, 5);
    as_matrix X;
    as_det_options o;
    as_result S;
    int st;
    as_view_dense(&X, n, d, x, n);
    as_det_options_init(&o);
    o.leaf = 1;
    o.mem_mb = 1;   /* 7999 nodes of 820 numbers: 50 MiB */
    st = as_det(&X, &o, &S, c);
    CHECK(st == AS_ERR_ARG && strstr(c->msg, "'leaf'") && strstr(c->msg, "'memory'"), "leaf over cap: %d %s", st, c->msg);
    /* 'memory' caps every working array, estimated before any is allocated: a
       tiny cap is refused with the total named; a cap just above the arrays
       other than the tree leaves no room for a tree, and the plain scan runs */
    o.leaf = 0;
    o.mem_mb = 0.001;
    o.eps = 0.8;
    st = as_det(&X, &o, &S, c);
    CHECK(st == AS_ERR_TOOBIG && strstr(c->msg, "MiB of working arrays, above 'memory' = 0.001 MiB") &&
          strstr(c->msg, "deterministic"), "tiny cap refused: %d %s", st, c->msg);
    {
        double need = strtod(strstr(c->msg, "): ") + 3, NULL);
        CHECK(need > 0.05 && need < 5, "the estimate %g MiB for n = 40", need);
        o.mem_mb = need + 0.01;
        st = as_det(&X, &o, &S, c);
        CHECK(st == AS_OK && S.k > 0, "a cap without room for a tree falls back to a scan: %d %s", st, c->msg);
        as_result_free(&S, c);
    }
    free(x);
}

static void test_zero(as_common *c)
{
    double x[12] = {0};
    as_matrix X;
    as_det_options o;
    as_result S;
    int s;
    for (s = 0; s < 2; s++) {
        as_view_dense(&X, 3, 4, x, 3);
        as_det_options_init(&o);
        o.search = s;
        CHECK(as_det(&X, &o, &S, c) == AS_OK, "X == 0: %s", c->msg);
        CHECK(S.k == 0 && S.rank == 0 && S.m == 0 && S.eps_bound == 0, "X == 0: k %lld rank %lld",
              (long long)S.k, (long long)S.rank);
        as_result_free(&S, c);
    }
}

static void test_dense(as_common *c)
{
    int64_t n = 20, d = 600;
    double *x = make_dense(n, d, 1);
    as_matrix X;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    valid_all("dense", &X, 0, n, c);
    /* a deep tree: 75 leaves of 8 columns, and one leaf per column */
    det_valid("dense leaf 8", &X, 0.5, 0, 8, n, &S, c);
    as_result_free(&S, c);
    det_valid("dense leaf 1", &X, 0.5, 0, 1, n, &S, c);
    as_result_free(&S, c);
    free(x);
}

static void test_sparse(as_common *c)
{
    double eps[3] = {0.3, 0.5, 0.8};
    sp M;
    as_matrix X32, X64, XD;
    as_result S32, S64, SD;
    int e, s;
    make_sparse(&M, 24, 800, 0.12, 2);
    as_view_csc32(&X32, M.n, M.d, M.p32, M.i32, M.x);
    as_view_csc64(&X64, M.n, M.d, M.p64, M.i64, M.x);
    as_view_dense(&XD, M.n, M.d, M.dense, M.n);
    for (e = 0; e < 3; e++)
        for (s = 0; s < 2; s++) {
            det_valid("csc32", &X32, eps[e], s, 16, M.n, &S32, c);
            det_valid("csc64", &X64, eps[e], s, 16, M.n, &S64, c);
            det_valid("dense copy of sparse", &XD, eps[e], s, 16, M.n, &SD, c);
            CHECK(same_sample(&S32, &S64), "csc32 and csc64 agree (eps %g, search %d)", eps[e], s);
            as_result_free(&S32, c);
            as_result_free(&S64, c);
            as_result_free(&SD, c);
        }
    free_sparse(&M);
}

/* Few rows and many sparse columns: the tree holds Grams of the columns as
   they are (whitening each column would cost more than it saves), while the
   dense copy's tree holds Grams of the whitened columns. Both meet the
   guarantee and pick the same columns (the same arithmetic up to rounding). */
static void test_tree_coordinates(as_common *c)
{
    sp M;
    as_matrix X32, XD;
    as_result S32, SD;
    int64_t t, same = 0;
    make_sparse(&M, 6, 20000, 0.05, 21);
    as_view_csc32(&X32, M.n, M.d, M.p32, M.i32, M.x);
    as_view_dense(&XD, M.n, M.d, M.dense, M.n);
    det_valid("sparse, tree over the columns", &X32, 0.5, 0, 0, M.n, &S32, c);
    det_valid("dense, tree over the whitened columns", &XD, 0.5, 0, 0, M.n, &SD, c);
    if (S32.k == SD.k)
        for (t = 0, same = 1; t < S32.k; t++)
            same = same && S32.index[t] == SD.index[t] &&
                   fabs(S32.weight[t] - SD.weight[t]) <= 1e-9 * SD.weight[t];
    CHECK(same, "tree over columns and over whitened columns pick the same (k %lld and %lld)",
          (long long)S32.k, (long long)SD.k);
    as_result_free(&S32, c);
    as_result_free(&SD, c);
    free_sparse(&M);
}

/* Rows 10..15 repeat rows 0..5 (rank 10), and every 7th column is zero. */
static void test_rank_deficient(as_common *c)
{
    int64_t n = 16, d = 500, i, j;
    double *x = make_dense(n, d, 3);
    sp M;
    as_matrix X, XS;
    as_result S;
    for (j = 0; j < d; j++)
        for (i = 10; i < n; i++) x[i + j * n] = x[i - 10 + j * n];
    for (j = 0; j < d; j += 7)
        for (i = 0; i < n; i++) x[i + j * n] = 0;
    as_view_dense(&X, n, d, x, n);
    valid_all("duplicate rows, zero columns", &X, 0, 10, c);
    /* sparse with empty columns and an empty row: rank 29 */
    make_sparse(&M, 30, 400, 0.1, 4);
    for (j = 0; j < M.d; j++)
        for (i = M.p32[j]; i < M.p32[j + 1]; i++)
            if (M.i32[i] == 29) M.x[i] = 0;   /* stored zeros: a structurally present, empty row */
    as_view_csc32(&XS, M.n, M.d, M.p32, M.i32, M.x);
    det_valid("sparse, empty row", &XS, 0.5, 0, 8, 29, &S, c);
    as_result_free(&S, c);
    free_sparse(&M);
    free(x);
}

static void test_wide_rows(as_common *c)
{
    int64_t n = 30, d = 12;
    double *x = make_dense(n, d, 6);
    as_matrix X;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    valid_all("d < n", &X, 0, d, c);
    /* one column: Y = w x with w^2 in (1 - eps, 1 + eps) */
    as_view_dense(&X, n, 1, x, n);
    if (det_valid("d == 1", &X, 0.5, 0, 0, 1, &S, c))
        CHECK(S.k == 1 && fabs(S.weight[0] * S.weight[0] - 1) <= 0.5, "d == 1: weight %g", S.weight[0]);
    as_result_free(&S, c);
    free(x);
}

static void test_determinism(as_common *c)
{
    int64_t n = 16, d = 3000;
    double *x = make_dense(n, d, 11);
    sp M;
    as_matrix XD, XS;
    as_det_options o;
    as_result a, b;
    int s, kind;
    make_sparse(&M, 16, 3000, 0.2, 12);
    as_view_dense(&XD, n, d, x, n);
    as_view_csc32(&XS, M.n, M.d, M.p32, M.i32, M.x);
    for (kind = 0; kind < 2; kind++)
        for (s = 0; s < 2; s++) {
            const as_matrix *X = kind ? &XS : &XD;
            as_det_options_init(&o);
            o.search = s;
            o.leaf = 20;
            c->nthreads = 1;
            CHECK(as_det(X, &o, &a, c) == AS_OK, "1 thread: %s", c->msg);
            c->nthreads = 2;
            CHECK(as_det(X, &o, &b, c) == AS_OK, "2 threads: %s", c->msg);
            CHECK(same_sample(&a, &b), "%s search %d: 1 and 2 threads give the same index and weight",
                  kind ? "csc" : "dense", s);
            as_result_free(&b, c);
            CHECK(as_det(X, &o, &b, c) == AS_OK, "again: %s", c->msg);
            CHECK(same_sample(&a, &b), "%s search %d: two runs give the same result", kind ? "csc" : "dense", s);
            as_result_free(&a, c);
            as_result_free(&b, c);
        }
    c->nthreads = 0;
    free_sparse(&M);
    free(x);
}

/* Interrupts at every stage (the tree build included): the right status, nothing
   leaked. Every allocation site failing in turn: test_nomem.c. */
static void test_interrupt(void)
{
    int64_t n = 12, d = 2000;
    double *x = make_dense(n, d, 13);
    sp M;
    as_matrix XD, XS;
    as_det_options o;
    as_result S;
    as_common c;
    long calls[6] = {0, 1, 2, 3, 10, 100};
    int t, kind, s, st, interrupted = 0;
    make_sparse(&M, 12, 9000, 0.2, 14);
    as_view_dense(&XD, n, d, x, n);
    as_view_csc64(&XS, M.n, M.d, M.p64, M.i64, M.x);
    for (kind = 0; kind < 2; kind++)
        for (s = 0; s < 2; s++)
            for (t = 0; t < 6; t++) {
                as_common_init(&c);
                c.malloc_fn = check_malloc;
                c.free_fn = check_free;
                c.interrupt_fn = check_interrupt;
                check_alloc_live = check_polls = 0;
                check_stop_at = calls[t] + 1;
                as_det_options_init(&o);
                o.search = s;
                o.leaf = 10;   /* many leaves: several build chunks are not needed, one check is */
                st = as_det(kind ? &XS : &XD, &o, &S, &c);
                check_stop_at = -1;
                CHECK(st == AS_ERR_INTERRUPT && c.status == AS_ERR_INTERRUPT, "stop after %ld checks: status %d", calls[t], st);
                CHECK(S.k == 0 && S.index == NULL && S.weight == NULL, "interrupted: empty result");
                CHECK(check_alloc_live == 0, "interrupted after %ld checks: %ld blocks leaked", calls[t], check_alloc_live);
                interrupted += st == AS_ERR_INTERRUPT;
            }
    CHECK(interrupted == 24, "every interrupt seen (%d)", interrupted);
    free_sparse(&M);
    free(x);
}

static void test_progress(void)
{
    int64_t n = 10, d = 300;
    double *x = make_dense(n, d, 15);
    as_matrix X;
    as_det_options o;
    as_result S;
    as_common c;
    as_common_init(&c);
    c.print_fn = collect_line;
    c.verbose = 1;
    as_view_dense(&X, n, d, x, n);
    as_det_options_init(&o);
    o.leaf = 10;
    CHECK(as_det(&X, &o, &S, &c) == AS_OK, "verbose run: %s", c.msg);
    CHECK(progress_lines >= 10 && progress_prefixed == progress_lines, "progress lines: %d (%d prefixed)",
          progress_lines, progress_prefixed);
    as_result_free(&S, &c);
    progress_lines = 0;
    c.verbose = 0;
    CHECK(as_det(&X, &o, &S, &c) == AS_OK && progress_lines == 0, "silent when not verbose");
    as_result_free(&S, &c);
    free(x);
}

/* Every step is certified: with no slack on the potentials (the hook below 0)
   the first check fails, as an error that names the breakdown, and no result
   is returned. The eigendecomposition behind the steps refreshed after every
   step (no Woodbury term ever) and only when it must be (the lower barrier or
   the cancellation test force it: more than the start and the one refresh
   by count, in the progress line): each run
   meets the barrier argument and picks the default run's columns where the
   arithmetic allows. */
static int64_t refresh_count;
static void count_refreshes(void *ctx, const char *line)
{
    const char *p = strstr(line, " searches, ");
    (void)ctx;
    if (p && strstr(line, " refreshes, ")) refresh_count = atoll(p + 11);
}

static void test_refresh(void)
{
    int64_t n = 40, d = 3000, every[3] = {0, 1, 400}, t, u, common;
    double *x = make_dense(n, d, 21);
    as_matrix X;
    as_det_options o;
    as_result S[3], E;
    as_common c;
    int k;
    as_common_init(&c);
    as_view_dense(&X, n, d, x, n);
    as_det_options_init(&o);
    c.tune.det_phi_tol = -0.5;
    CHECK(as_det(&X, &o, &E, &c) == AS_ERR_INPUT && strstr(c.msg, "numerical breakdown at iteration 1") &&
          strstr(c.msg, "potential") && E.k == 0 && E.index == NULL, "no slack: %s", c.msg);
    c.tune.det_phi_tol = 1e-6;
    c.print_fn = count_refreshes;
    c.verbose = 1;
    for (k = 0; k < 3; k++) {
        char what[64];
        c.tune.det_refresh_cols = every[k];
        snprintf(what, sizeof what, "refresh after %lld columns", (long long)every[k]);
        refresh_count = -1;
        det_valid(what, &X, 0.5, 0, 0, n, &S[k], &c);
        if (k == 1) CHECK(refresh_count >= S[k].m, "%s: %lld refreshes for %lld iterations", what,
                          (long long)refresh_count, (long long)S[k].m);
        if (k == 2) CHECK(refresh_count >= 3 && refresh_count < S[k].m / 4,
                          "%s: %lld refreshes (the lower barrier's) for %lld iterations", what,
                          (long long)refresh_count, (long long)S[k].m);
    }
    c.tune.det_refresh_cols = 0;
    for (k = 1; k < 3; k++) {
        for (common = 0, t = 0, u = 0; t < S[0].k && u < S[k].k;) {
            if (S[0].index[t] == S[k].index[u]) { common++; t++; u++; }
            else if (S[0].index[t] < S[k].index[u]) t++;
            else u++;
        }
        CHECK(common >= 0.9 * (double)S[0].k, "refresh rule %lld: %lld of %lld columns in common",
              (long long)every[k], (long long)common, (long long)S[0].k);
    }
    for (k = 0; k < 3; k++) as_result_free(&S[k], &c);
    free(x);
}

/* The tree search and the plain scan on the built-in example. */
static void test_example(as_common *c)
{
    int64_t n = 32, d = 5000;
    double *x = malloc(sizeof(double) * (size_t)(n * d));
    as_matrix X;
    as_result S;
    int s;
    CHECK(as_example(n, d, 1.0, 42, x, c) == AS_OK, "example");
    as_view_dense(&X, n, d, x, n);
    for (s = 0; s < 2; s++) {
        det_valid("example", &X, 0.5, s, 0, n, &S, c);
        as_result_free(&S, c);
    }
    free(x);
}

/* Two stages: the first is as_rand with the same draws and seed; its measured e1
   (checked here by an eigensolver), the certified e2 and the composed bound
   (1-e1)(1-e2) <= Y Y' / X X' <= (1+e1)(1+e2) over seeds, dense and sparse. */
static void test_presample(as_common *c)
{
    int64_t n = 14, d = 3000, t, seed, r = 0, r1 = 0;
    double *x = make_dense(n, d, 31), *G, *H, *H1, *mu;
    sp M;
    as_matrix XD, XS;
    int kind;
    make_sparse(&M, 12, 4000, 0.05, 32);
    as_view_dense(&XD, n, d, x, n);
    as_view_csc32(&XS, M.n, M.d, M.p32, M.i32, M.x);
    G = malloc(sizeof(double) * 14 * 14);
    H = malloc(sizeof(double) * 14 * 14);
    H1 = malloc(sizeof(double) * 14 * 14);
    mu = malloc(sizeof(double) * 14);
    for (kind = 0; kind < 2; kind++)
        for (seed = 1; seed <= 4; seed++) {
            const as_matrix *X = kind ? &XS : &XD;
            int64_t nn = X->nrow, k, sub = 1;
            as_det_options o;
            as_rand_options ro;
            as_result S, S1;
            double e1 = 0, e2, lo = 1e300, hi = 0;
            as_det_options_init(&o);
            o.presample = kind ? 500 : 1;
            o.seed = (uint64_t)seed;
            CHECK(as_det(X, &o, &S, c) == AS_OK, "presample: %s", c->msg);
            as_rand_options_init(&ro);
            ro.m = kind ? 500 : as_det_presample_m(nn);
            ro.seed = (uint64_t)seed;
            ro.error = 0;
            ro.estimate = 0;
            CHECK(as_rand(X, &ro, &S1, c) == AS_OK, "first stage: %s", c->msg);
            CHECK(S.presample_k == S1.k, "presample_k %lld, as_rand's k %lld", (long long)S.presample_k,
                  (long long)S1.k);
            for (k = 0, t = 0; t < S.k; t++) {   /* Y's columns are among the first stage's */
                while (k < S1.k && S1.index[k] < S.index[t]) k++;
                sub = sub && k < S1.k && S1.index[k] == S.index[t];
            }
            CHECK(sub, "Y's columns come from the first stage");
            as_gram(X, -1, NULL, NULL, G, c);
            as_gram(X, S1.k, S1.index, S1.weight, H1, c);
            as_gram(X, S.k, S.index, S.weight, H, c);
            gram_ratio_eig(nn, G, H1, mu, &r1);
            for (t = 0; t < r1; t++) e1 = fmax(e1, fabs(mu[t] - 1));
            CHECK(fabs(S.presample_eps - e1) <= 1e-8, "presample_eps %.12g, eig %.12g", S.presample_eps, e1);
            e2 = S.eps_bound;
            CHECK(e2 <= 0.5 * (1 + 1e-12), "eps_bound %g", e2);
            CHECK(fabs(S.eps_composed - ((1 + e1) * (1 + e2) - 1)) <= 1e-8, "eps_composed %g", S.eps_composed);
            gram_ratio_eig(nn, G, H, mu, &r);
            for (t = 0; t < r; t++) { lo = fmin(lo, mu[t]); hi = fmax(hi, mu[t]); }
            CHECK(lo >= (1 - e1) * (1 - e2) - 1e-9 && hi <= (1 + e1) * (1 + e2) + 1e-9,
                  "%s seed %lld: Y Y' / X X' in [%g, %g], composed bound [%g, %g]", kind ? "sparse" : "dense",
                  (long long)seed, lo, hi, (1 - e1) * (1 - e2), (1 + e1) * (1 + e2));
            CHECK(S.k <= S.max_columns && S.k >= 1, "k %lld, max_columns %lld", (long long)S.k,
                  (long long)S.max_columns);
            as_result_free(&S, c);
            as_result_free(&S1, c);
        }
    {
        /* without the metrics, e1 is not measured: nothing composed is claimed */
        as_det_options o;
        as_result S;
        as_det_options_init(&o);
        o.presample = 400;
        o.error = 0;
        CHECK(as_det(&XD, &o, &S, c) == AS_OK && isnan(S.presample_eps) && isnan(S.eps_composed) &&
              S.presample_k > 0, "presample without error: %s", c->msg);
        as_result_free(&S, c);
        o.presample = -1;
        CHECK(as_det(&XD, &o, &S, c) == AS_ERR_ARG && strstr(c->msg, "'presample'"), "presample -1: %s", c->msg);
        o.presample = 0;
        o.batch = -2;
        CHECK(as_det(&XD, &o, &S, c) == AS_ERR_ARG && strstr(c->msg, "'batch'"), "batch -2: %s", c->msg);
    }
    free(G); free(H); free(H1); free(mu);
    free(x);
    free_sparse(&M);
}

/* Several shifts per step: the steps take s shifts when the potentials are at
   most 1/s of their bounds. Started from barriers twice as far out (potentials
   at half their bounds), the steps take two shifts and more; the final A,
   rebuilt from the picks, must still lie strictly inside the final barriers
   with the potentials not above eU, eL (checked by an eigensolver). */
static void test_batch_steps(as_common *c)
{
    int64_t n = 10, d = 1500, r = 0, np = 0, steps = 0, t, a, b2;
    double *x = make_dense(n, d, 51), *G = malloc(sizeof(double) * 100), *W = NULL;
    double *A = calloc(100, sizeof(double)), lam[10], v[10], u, l, su = 0, sl = 0;
    as_matrix X;
    as_bss_plan P;
    as_det_pick *picks;
    int inside = 1;
    as_view_dense(&X, n, d, x, n);
    as_gram(&X, -1, NULL, NULL, G, c);
    CHECK(as_whiten(n, G, &W, &r, c) == AS_OK && r == n, "whiten: rank %lld", (long long)r);
    as_bss_plan_init(0.5, r, 0, &P);
    P.u0 *= 2;
    P.l0 *= 2;
    picks = malloc(sizeof(as_det_pick) * (size_t)P.Q);
    CHECK(as_bss_run(&X, W, r, &P, picks, &np, &steps, c) == AS_OK, "bss: %s", c->msg);
    CHECK(steps <= P.Q / 2 + 1 && np <= P.Q, "%lld steps for %lld shifts, %lld picks", (long long)steps,
          (long long)P.Q, (long long)np);
    for (t = 0; t < np; t++) {
        memset(v, 0, sizeof v);
        for (a = 0; a < n; a++)
            for (b2 = 0; b2 < r; b2++) v[b2] += W[b2 + a * r] * x[a + picks[t].j * n];
        for (a = 0; a < r; a++)
            for (b2 = 0; b2 < r; b2++) A[a + b2 * r] += picks[t].t * v[a] * v[b2];
    }
    sym_eig((int)r, A, lam, 0);
    u = P.u0 + (double)P.Q * P.dU;
    l = P.l0 + (double)P.Q * P.dL;
    for (t = 0; t < r; t++) {
        inside = inside && lam[t] > l && lam[t] < u;
        su += 1 / (u - lam[t]);
        sl += 1 / (lam[t] - l);
    }
    CHECK(inside && su <= P.eU * (1 + 1e-8) && sl <= P.eL * (1 + 1e-8),
          "batched steps: A in [%g, %g] of (%g, %g), potentials %g <= %g, %g <= %g", lam[0], lam[r - 1], l, u,
          su, P.eU, sl, P.eL);
    {
        /* batch = 1: one shift per step, whatever the potentials */
        as_det_options o;
        as_result S;
        as_det_options_init(&o);
        o.batch = 1;
        o.eps = 0.3;
        CHECK(as_det(&X, &o, &S, c) == AS_OK && S.steps == S.m && S.eps_bound <= 0.3 + 1e-12,
              "batch 1: %lld steps, %lld shifts: %s", (long long)S.steps, (long long)S.m, c->msg);
        as_result_free(&S, c);
    }
    free(picks); free(W); free(G); free(A); free(x);
}

int main(void)
{
    as_common c;
    as_common_init(&c);
    test_options(&c);
    test_leaf_cap(&c);
    test_zero(&c);
    test_dense(&c);
    test_sparse(&c);
    test_tree_coordinates(&c);
    test_rank_deficient(&c);
    test_wide_rows(&c);
    test_determinism(&c);
    test_interrupt();
    test_progress();
    test_example(&c);
    test_presample(&c);
    test_batch_steps(&c);
    test_refresh();
    return check_report("test_det");
}
