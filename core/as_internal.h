/* as_internal.h: what every core file shares (allocation, errors, progress, threads, memory caps, input views and column loops, the dense linear algebra on the BLAS); each module's own entry points are in its header. */
#ifndef AS_INTERNAL_H
#define AS_INTERNAL_H

#include "attsparse.h"
#include "lapack.h"

/* One floating-point contract whoever compiles the core (R CMD INSTALL with
   R's flags, Octave's mkoctfile, a user's -march=native): no fused
   multiply-add contraction, so that the same sums give the same bits in both
   front-ends (make check-flags builds the core with -march=native
   -ffp-contract=fast and compares). Every core file includes this header
   first. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif
/* fmax(a, b) for an a that is not NaN (b NaN: a), inline: libm's fmax is a
   call, which costs more than the comparison in the hottest loops. */
static inline double as_fmax_num(double a, double b)
{
    return b > a ? b : a;
}
/* The largest |expm1(x)| over values x in [lo, hi]: at lo or at hi, expm1
   being increasing (the same number as taking it value by value). */
static inline double as_expm1_span(double lo, double hi)
{
    return fmax(fabs(expm1(lo)), fabs(expm1(hi)));
}
/* A loop whose iterations are independent, vectorized (each element's
   arithmetic as in the loop: the same bits). */
#ifdef _OPENMP
#define AS_SIMD _Pragma("omp simd")
#else
#define AS_SIMD
#endif
/* The most OpenMP threads a call uses (as_common.nthreads). */
#define AS_THREADS_MAX 1024
/* Z = [Q; K] ((n1 + n2) x d) over two views, Q and K dense or CSC (mixed is
   fine), no data copied: column j of Z is Q's column j, then K's with rows
   offset by n1. Every entry point that takes an X takes Z (attention with
   Q != K: a spectral sparsifier of Z bounds the error of Att(Q, K)); Q and K
   must outlive Z. */
void as_view_stacked(as_matrix *Z, const as_matrix *Q, const as_matrix *K);
/* as_matrix_check, naming the input `name` in messages (e.g. "Y" for a second matrix). */
int as_matrix_check_named(const as_matrix *A, const char *name, as_common *c);
int64_t as_nnz(const as_matrix *A);          /* stored entries (n*d if dense) */

/* Allocation through the front-end's hook; NULL sets AS_ERR_NOMEM. */
void *as_malloc(as_common *c, size_t count, size_t size);
void *as_calloc(as_common *c, size_t count, size_t size);

/* A number for messages: whole numbers in full, powers of ten >= 1e6 as 1e6,
   Inf and NaN as R and Octave print them (options.c). */
const char *as_fmt_num(double v, char *buf, size_t len);

/* The C type of a member that an option row (as_option.store) or a result
   row (as_field.store) reads and writes at its offsetof, as a double. */
enum { AS_STORE_DOUBLE = 0,
       AS_STORE_INT = 1,
       AS_STORE_INT64 = 2,
       AS_STORE_SEED = 3,      /* uint64_t: AS_SEED_DRAW read as -1, and stored
                                  for a value below 0                       */
       AS_STORE_UNSIGNED = 4,
       AS_STORE_COUNT = 5 };   /* int64_t: 0 or less (none) read as NaN     */
/* Read the member of type `store` at base + at as a double, or write v to it
   cast to that type (options.c); v must be in the type's range, as a value
   that passed its option row's check is. */
double as_stored_get(const void *base, size_t at, int store);
void   as_stored_set(void *base, size_t at, int store, double v);

/* Record an error (printf-style message) and return the status. */
int as_error(as_common *c, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Ask the front-end whether to stop; call on the main thread only. */
int as_interrupted(as_common *c);

/* A long call's progress line: always when verbose; otherwise once the call
   has run c->tune.status_after seconds (2), at most one every
   c->tune.status_every seconds (2): a user waiting on a long call sees it
   move; a short call prints nothing. */
void as_status(as_common *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Emit a progress line when verbose. */
void as_progress(as_common *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int as_threads(const as_common *c);
/* Below this many multiply-adds a call's parallel regions run on one thread:
   starting them, and the spin-waiting of OpenMP threads between them, cost
   more than they save (on a busy machine the waiting threads take the CPU
   from the working one: the bootstrap estimate's 31 small Grams of Y ran 20x
   slower with two spinning threads than on one). About 10 ms of work: 3e7.
   c->tune.parallel_min_work, so that the tests of thread-count invariance can set it to 0. */
/* as_threads, or 1 when the call's work (multiply-adds) is below c->tune.parallel_min_work. */
int as_threads_for(const as_common *c, double work);

/* Wall-clock seconds from an arbitrary origin (for as_result.time). */
double as_wtime(void);
/* Threads the machine can be asked for: 4x its online CPUs (libgomp exits
   the process when it cannot create a thread). */
int as_threads_cap(void);

/* AS_OK when `bytes` of working arrays fit under cap_mb MiB (0: 3/4 of the
   physical memory); else AS_ERR_TOOBIG saying `what` needs them. */
int as_mem_check(as_common *c, double bytes, double cap_mb, const char *what);
/* The same with the bytes' own noun (" of working arrays" above; "" for a
   result the caller allocates). */
int as_mem_check_as(as_common *c, double bytes, double cap_mb, const char *what, const char *noun);

/* 3/4 of the physical memory, or of the process's limit (RLIMIT_AS,
   RLIMIT_DATA) when lower, in MiB (0: unknown). */
double as_mem_default_mb(void);
/* Set the BLAS's thread count to n (n <= 0: leave it) where the library
   allows it (OpenBLAS, FlexiBLAS); returns the count before (0: unknown, and
   nothing was set). */
int as_blas_threads_set(int n);

/* Run BODY once per stored entry of column j of A (dense or CSC), with ROW
   (int64_t, plus OFF) and VAL (double) set; the index width is resolved once
   per column, not per entry. */
#define AS_FOR_COL_PART(A, j, OFF, ROW, VAL, BODY)                              \
    do {                                                                        \
        const as_matrix *A_ = (A);                                              \
        int64_t j_ = (j), k_, e_, o_ = (OFF);                                   \
        if (A_->kind == AS_DENSE) {                                             \
            const double *c_ = A_->x + j_ * A_->ld;                             \
            for (k_ = 0; k_ < A_->nrow; k_++) {                                 \
                int64_t ROW = o_ + k_; double VAL = c_[k_]; BODY                \
            }                                                                   \
        } else if (A_->kind == AS_CSC32) {                                      \
            for (k_ = A_->p32[j_], e_ = A_->p32[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = o_ + A_->i32[k_]; double VAL = A_->x[k_]; BODY    \
            }                                                                   \
        } else {                                                                \
            for (k_ = A_->p64[j_], e_ = A_->p64[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = o_ + A_->i64[k_]; double VAL = A_->x[k_]; BODY    \
            }                                                                   \
        }                                                                       \
    } while (0)

/* The same for any view: a stacked Z = [Q; K] walks Q's column, then K's with
   rows offset by nrow(Q) (a `break` in BODY leaves only the part it is in). */
#define AS_FOR_COL(A, j, ROW, VAL, BODY)                                        \
    do {                                                                        \
        const as_matrix *Z_ = (A);                                              \
        int64_t jz_ = (j);                                                      \
        if (Z_->kind == AS_STACKED) {                                           \
            AS_FOR_COL_PART(Z_->part[0], jz_, 0, ROW, VAL, BODY);               \
            AS_FOR_COL_PART(Z_->part[1], jz_, Z_->part[0]->nrow, ROW, VAL, BODY); \
        } else AS_FOR_COL_PART(Z_, jz_, 0, ROW, VAL, BODY);                     \
    } while (0)

/* Stored entries of column j. */
static inline int64_t as_col_nnz(const as_matrix *A, int64_t j)
{
    if (A->kind == AS_DENSE) return A->nrow;
    if (A->kind == AS_CSC32) return (int64_t)A->p32[j + 1] - A->p32[j];
    if (A->kind == AS_STACKED) return as_col_nnz(A->part[0], j) + as_col_nnz(A->part[1], j);
    return A->p64[j + 1] - A->p64[j];
}

/* How messages name an input: "X", or "[X; K]" for the stacked view that
   as_rand_qkv and as_det_qkv sample (X plays the queries). */
const char *as_input_name(const as_matrix *A);
/* Its rows for messages: "nrow(X) = 20", "nrow(X) + nrow(K) = 20 + 20 = 40". */
const char *as_input_rows(const as_matrix *A, char *buf, size_t len);

/* Squared norm of column j. */
double as_col_norm2(const as_matrix *A, int64_t j);
/* The norm-sampling weight of column j, the entries divided by scale (1: as
   they are): ||x_j||^2, and for a stacked [Q; K] the product ||q_j|| ||k_j||
   (Drineas, Kannan, Mahoney 2006), which is ||q_j||^2 to the bit when K = Q. */
double as_col_norm_prob(const as_matrix *A, int64_t j, double scale);
/* ---- long dense linear algebra in pieces between interrupt polls, the BLAS
   on one thread (linalg.c) */
/* Symmetric eigendecomposition of the n x n matrix A (lower triangle;
   destroyed): eigenvalues ascending in w, eigenvectors in Z (n x n, not A)
   when Z != NULL (dsyevd's algorithm; without vectors dsyevr's). */
int as_syev(int n, double *A, double *w, double *Z, as_common *c);
/* dgeqp3 (every column free: jpvt is set here), its panels narrowed where
   they would be long. */
int as_geqp3(int m, int n, double *A, int lda, int *jpvt, double *tau, as_common *c);
/* dgemm: C = alpha op(A) op(B) + beta C (m x n, k inner), by bands of C's
   columns on the core's threads and rounds of the inner dimension. */
int as_gemm_blocks(const char *ta, const char *tb, int64_t m, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C,
                   int64_t ldc, as_common *c);
/* dsyrk: C = alpha A A' (trans "N", A n x k) or A'A ("T", A k x n) + beta C,
   the triangle uplo, by tiles on the core's threads. */
int as_syrk_blocks(const char *uplo, const char *trans, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, double beta, double *C, int64_t ldc, as_common *c);
/* B (r x q) = U^-1 B for U upper triangular (r x r), by bands of B's columns. */
int as_trsm_blocks(int64_t r, int64_t q, const double *U, int64_t ldu, double *B, int64_t ldb,
                   as_common *c);
/* Bytes of memory traffic of one panel of as_geqp3, and multiply-adds of one
   round of the products and of the eigenvectors' back-transformation,
   between polls (tests set less): c->tune.la_pass_bytes, la_round_madds. */

/* Whitening of the Gram G (n x n, destroyed): W (r x n, allocated) with
   W G W' = I_r over the eigenvalues of G above n 16 DBL_EPSILON lambda_max(G)
   (whiten.c; the deterministic algorithm and the spectral eps). */
int as_whiten(int64_t n, double *G, double **W, int64_t *rank, as_common *c);
/* The same, with (null not NULL) the eigenvectors of the eigenvalues at or
   below the cut (n x (n - rank), allocated; NULL when rank = n) and (lmax not
   NULL) the largest eigenvalue of G. */
int as_whiten_null(int64_t n, double *G, double **W, int64_t *rank, double **null, double *lmax,
                   as_common *c);

/* as_matrix_check_named with the columns of A numbered as X's in messages
   (a block of a larger X): column j is X's cols[j] (cols NULL: j0 + j) (matrix.c). */
int as_matrix_check_from(const as_matrix *A, const char *name, int64_t j0, const int64_t *cols,
                         as_common *c);

/* [lo, hi): the calling OpenMP thread's share of 0..n-1, in thread order
   (the whole range outside a parallel region). */
static inline void as_thread_band(int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t tid = 0, ntid = 1;
#ifdef _OPENMP
    tid = omp_get_thread_num();
    ntid = omp_get_num_threads();
#endif
    *lo = n * tid / ntid;
    *hi = n * (tid + 1) / ntid;
}

#endif
