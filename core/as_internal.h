/* as_internal.h: helpers shared by the core's files (allocation, errors, column loops, BLAS/LAPACK). */
#ifndef AS_INTERNAL_H
#define AS_INTERNAL_H

#include "attsparse.h"
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Allocation through the front-end's hook; NULL sets AS_ERR_NOMEM. */
void *as_malloc(as_common *c, size_t count, size_t size);
void *as_calloc(as_common *c, size_t count, size_t size);

/* Record an error (printf-style message) and return the status. */
int as_error(as_common *c, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Ask the front-end whether to stop; call on the main thread only. */
int as_interrupted(as_common *c);

/* Emit a progress line when verbose. */
void as_progress(as_common *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int as_threads(const as_common *c);

/* Threads the machine can be asked for: 4x its online CPUs (libgomp exits
   the process when it cannot create a thread). */
int as_threads_cap(void);

/* AS_OK when `bytes` of working arrays fit under cap_mb MiB (0: 3/4 of the
   physical memory); else AS_ERR_TOOBIG saying `what` needs them. */
int as_mem_check(as_common *c, double bytes, double cap_mb, const char *what);

/* Run BODY once per stored entry of column j of A, with ROW (int64_t) and
   VAL (double) set; the index width is resolved once per column, not per entry. */
#define AS_FOR_COL(A, j, ROW, VAL, BODY)                                        \
    do {                                                                        \
        const as_matrix *A_ = (A);                                              \
        int64_t j_ = (j), k_, e_;                                               \
        if (A_->kind == AS_DENSE) {                                             \
            const double *c_ = A_->x + j_ * A_->ld;                             \
            for (k_ = 0; k_ < A_->nrow; k_++) {                                 \
                int64_t ROW = k_; double VAL = c_[k_]; BODY                     \
            }                                                                   \
        } else if (A_->kind == AS_CSC32) {                                      \
            for (k_ = A_->p32[j_], e_ = A_->p32[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = A_->i32[k_]; double VAL = A_->x[k_]; BODY         \
            }                                                                   \
        } else {                                                                \
            for (k_ = A_->p64[j_], e_ = A_->p64[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = A_->i64[k_]; double VAL = A_->x[k_]; BODY         \
            }                                                                   \
        }                                                                       \
    } while (0)

/* Stored entries of column j. */
static inline int64_t as_col_nnz(const as_matrix *A, int64_t j)
{
    if (A->kind == AS_DENSE) return A->nrow;
    if (A->kind == AS_CSC32) return (int64_t)A->p32[j + 1] - A->p32[j];
    return A->p64[j + 1] - A->p64[j];
}

/* Squared norm of column j. */
double as_col_norm2(const as_matrix *A, int64_t j);


/* Sizes handed to LAPACK must fit its 32-bit integers. */
#define AS_INT_MAX 2147483647LL

/* BLAS/LAPACK (Fortran, LP64) with the hidden string lengths made explicit. */
typedef size_t as_fclen;
void dgeqp3_(const int *m, const int *n, double *a, const int *lda, int *jpvt,
             double *tau, double *work, const int *lwork, int *info);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, double *b, const int *ldb,
            as_fclen, as_fclen, as_fclen, as_fclen);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *beta,
            double *c, const int *ldc, as_fclen, as_fclen);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, as_fclen, as_fclen);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, as_fclen);
void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info, as_fclen);
void dpocon_(const char *uplo, const int *n, const double *a, const int *lda,
             const double *anorm, double *rcond, double *work, int *iwork, int *info, as_fclen);
double dlansy_(const char *norm, const char *uplo, const int *n, const double *a,
               const int *lda, double *work, as_fclen, as_fclen);
void dsyevr_(const char *jobz, const char *range, const char *uplo, const int *n,
             double *a, const int *lda, const double *vl, const double *vu,
             const int *il, const int *iu, const double *abstol, int *m, double *w,
             double *z, const int *ldz, int *isuppz, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info, as_fclen, as_fclen, as_fclen);

/* Symmetric eigendecomposition of the n x n matrix A (overwritten): eigenvalues
   ascending in w, eigenvectors in Z (n x n) when Z != NULL. */
int as_syev(int n, double *A, double *w, double *Z, as_common *c);

/* Default sketch sizes: embedding rows and JL columns. */
int64_t as_default_s1(int64_t n);
int64_t as_default_s2(int64_t d, double delta);

/* as_leverage without the checks; fills used->rank, s1, s, s2 (0: not used). */
int as_leverage_run(const as_matrix *X, const as_rand_options *o, double *scores,
                    as_sample *used, as_common *c);

/* M' += S1(:, j0 + (0 .. ncol(X)-1)) X' (n x s1) in column order (leverage.c). */
int as_sketch_cols(const as_matrix *X, int64_t j0, int64_t s1, int64_t s, uint64_t seed,
                   double *MT, as_common *c);
/* scores[j] = || x_j' N ||^2, NT = N' (q x n, leading dimension qs) (leverage.c). */
int as_scores_cols(const as_matrix *X, const double *NT, int64_t q, int64_t qs, double *scores,
                   as_common *c);
/* The canonical chunk width for s1 sketch rows (blocks.c). */
int64_t as_block_chunk(int64_t s1);
/* as_block_plan_init without its checks (as_rand's own path, target mode included). */
void as_block_plan_fill(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P);
/* Pass 1 over X as one block: MT (n x s1) = the chunk-ordered sum (blocks.c). */
int as_block_sketch_all(const as_block_plan *P, const as_matrix *X, uint64_t seed, double *MT,
                        as_common *c);
/* The sampling of as_rand and as_block_sample: prob (a work array) from lev
   and nrm, then i.i.d. or Poisson (sample.c). */
int as_rand_sample(int64_t d, int64_t rank, const double *lev, const double *nrm, int scheme,
                   const as_rand_options *o, double *prob, as_sample *out, double **term,
                   as_common *c);
/* The bootstrap estimate of a sample whose columns are X(:, cols) (cols NULL:
   X's columns are the sample's), d the width of the whole input (sample.c). */
int as_estimate(const as_matrix *X, const int64_t *cols, int64_t d, as_sample *S, int sampling,
                const double *term, uint64_t seed, int round, as_common *c);
/* The overflow check of Y from X(:, cols) (cols NULL: all columns of X) (sample.c). */
int as_sample_check_finite_cols(const as_matrix *X, const int64_t *cols, const as_sample *S,
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

/* Nonzero (default): the sparse score pass uses 256-bit vectors on CPUs with
   AVX2 (same roundings as the baseline code); 0: baseline code only. */
extern int as_scores_avx2;

/* Fraction of the rows from which a column of a CSC X goes into as_gram's
   dense panels (> 1: none does); the default is measured by make bench-gram. */
extern double as_gram_heavy;

/* Random streams (distinct constants keep the draws of each step independent). */
enum { AS_STREAM_OSNAP = 1, AS_STREAM_JL = 2, AS_STREAM_SAMPLE = 3, AS_STREAM_AMS = 4,
       AS_STREAM_POISSON = 5, AS_STREAM_BOOTSTRAP = 6 };

#endif
