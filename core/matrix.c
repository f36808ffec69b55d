/* matrix.c: views of X, their validation and column selection (Y); the Gram matrix is in gram.c. */
#include "as_internal.h"
#include <float.h>
#include <stdio.h>

void as_view_dense(as_matrix *A, int64_t nrow, int64_t ncol, const double *x, int64_t ld)
{
    memset(A, 0, sizeof(*A));
    A->kind = AS_DENSE;
    A->nrow = nrow;
    A->ncol = ncol;
    A->x = x;
    A->ld = ld;
}

void as_view_csc32(as_matrix *A, int64_t nrow, int64_t ncol, const int32_t *p,
                   const int32_t *i, const double *x)
{
    memset(A, 0, sizeof(*A));
    A->kind = AS_CSC32;
    A->nrow = nrow;
    A->ncol = ncol;
    A->p32 = p;
    A->i32 = i;
    A->x = x;
}

void as_view_csc64(as_matrix *A, int64_t nrow, int64_t ncol, const int64_t *p,
                   const int64_t *i, const double *x)
{
    memset(A, 0, sizeof(*A));
    A->kind = AS_CSC64;
    A->nrow = nrow;
    A->ncol = ncol;
    A->p64 = p;
    A->i64 = i;
    A->x = x;
}

void as_view_stacked(as_matrix *Z, const as_matrix *Q, const as_matrix *K)
{
    memset(Z, 0, sizeof(*Z));
    Z->kind = AS_STACKED;
    Z->nrow = Q->nrow + K->nrow;
    Z->ncol = Q->ncol;
    Z->part[0] = Q;
    Z->part[1] = K;
}

const char *as_input_name(const as_matrix *A)
{
    return A->kind == AS_STACKED ? "[X; K]" : "X";
}

const char *as_input_rows(const as_matrix *A, char *buf, size_t len)
{
    if (A->kind == AS_STACKED)
        snprintf(buf, len, "nrow(X) + nrow(K) = %lld + %lld = %lld", (long long)A->part[0]->nrow,
                 (long long)A->part[1]->nrow, (long long)A->nrow);
    else
        snprintf(buf, len, "nrow(X) = %lld", (long long)A->nrow);
    return buf;
}

int64_t as_nnz(const as_matrix *A)
{
    if (A->kind == AS_DENSE) return A->nrow * A->ncol;
    if (A->kind == AS_STACKED) return as_nnz(A->part[0]) + as_nnz(A->part[1]);
    if (A->kind == AS_CSC32) return A->p32[A->ncol];
    return A->p64[A->ncol];
}

static int64_t as_colptr(const as_matrix *A, int64_t j)
{
    return A->kind == AS_CSC32 ? (int64_t)A->p32[j] : A->p64[j];
}

/* 0 when column j is well formed; else 1 (row index) or 2 (value). */
static int as_check_col(const as_matrix *A, int64_t j)
{
    int bad = 0;
    int64_t prev = -1;
    AS_FOR_COL(A, j, row, v, {
        if (A->kind != AS_DENSE && (row <= prev || row >= A->nrow)) { bad = 1; break; }
        if (!isfinite(v)) { bad = bad ? bad : 2; }
        prev = row;
    });
    return bad;
}

/* Each part on its own (the top named `name`, the bottom K), then their sizes. */
static int as_stacked_check(const as_matrix *A, const char *name, as_common *c)
{
    const as_matrix *Q = A->part[0], *K = A->part[1];
    if (Q == NULL || K == NULL || Q->kind == AS_STACKED || K->kind == AS_STACKED)
        return as_error(c, AS_ERR_INPUT, "%s: a stacked view needs two dense or CSC parts", name);
    if (as_matrix_check_named(Q, name, c) != AS_OK || as_matrix_check_named(K, "K", c) != AS_OK)
        return c->status;
    if (K->ncol != Q->ncol)
        return as_error(c, AS_ERR_INPUT, "K has %lld columns but %s has %lld: queries and keys need the same number of features d",
                        (long long)K->ncol, name, (long long)Q->ncol);
    if (A->nrow != Q->nrow + K->nrow || A->ncol != Q->ncol)
        return as_error(c, AS_ERR_INPUT, "%s: the stacked view's sizes do not match its parts", name);
    if (A->nrow > AS_INT_MAX)
        return as_error(c, AS_ERR_TOOBIG, "%s and K have %lld rows together; at most %lld are supported",
                        name, (long long)A->nrow, (long long)AS_INT_MAX);
    return AS_OK;
}

int as_matrix_check(const as_matrix *A, as_common *c)
{
    return as_matrix_check_named(A, "X", c);
}

int as_matrix_check_named(const as_matrix *A, const char *name, as_common *c)
{
    return as_matrix_check_from(A, name, 0, NULL, c);
}

/* Column j of A as X numbers it (1-based): cols[j] + 1, or j0 + j + 1. */
static long long as_colnum(int64_t j0, const int64_t *cols, int64_t j)
{
    return (long long)(cols ? cols[j] + 1 : j0 + j + 1);
}

int as_matrix_check_from(const as_matrix *A, const char *name, int64_t j0, const int64_t *cols,
                         as_common *c)
{
    int64_t j, d = A->ncol, badcol = INT64_MAX;
    c->status = AS_OK;
    if (A->kind == AS_STACKED) return as_stacked_check(A, name, c);
    if (A->kind != AS_DENSE && A->kind != AS_CSC32 && A->kind != AS_CSC64)
        return as_error(c, AS_ERR_INPUT, "%s: unknown storage kind %d", name, A->kind);
    if (A->nrow < 1 || A->ncol < 1)
        return as_error(c, AS_ERR_INPUT, "%s is empty (%lld x %lld): it needs at least one row and one column",
                        name, (long long)A->nrow, (long long)A->ncol);
    if (A->nrow > AS_INT_MAX)
        return as_error(c, AS_ERR_TOOBIG, "%s has %lld rows; at most %lld are supported",
                        name, (long long)A->nrow, (long long)AS_INT_MAX);
    if (A->x == NULL)
        return as_error(c, AS_ERR_INPUT, "%s: no values", name);
    if (A->kind == AS_DENSE) {
        if (A->ld < A->nrow)
            return as_error(c, AS_ERR_INPUT, "%s: leading dimension %lld is below the row count %lld",
                            name, (long long)A->ld, (long long)A->nrow);
    } else {
        if ((A->kind == AS_CSC32 && (A->p32 == NULL || A->i32 == NULL)) ||
            (A->kind == AS_CSC64 && (A->p64 == NULL || A->i64 == NULL)))
            return as_error(c, AS_ERR_INPUT, "%s: missing column pointers or row indices", name);
        if (as_colptr(A, 0) != 0)
            return as_error(c, AS_ERR_INPUT, "%s: column pointers must start at 0 (p[0] = %lld)",
                            name, (long long)as_colptr(A, 0));
        for (j = 0; j < d; j++)
            if (as_colptr(A, j + 1) < as_colptr(A, j))
                return as_error(c, AS_ERR_INPUT,
                                "%s: column pointers decrease at column %lld (%lld > %lld)",
                                name, as_colnum(j0, cols, j), (long long)as_colptr(A, j),
                                (long long)as_colptr(A, j + 1));
    }
    /* the smallest bad column, whatever the thread count */
#ifdef _OPENMP
#pragma omp parallel for num_threads(as_threads(c)) schedule(static) reduction(min:badcol)
#endif
    for (j = 0; j < d; j++)
        if (as_check_col(A, j) && j < badcol) badcol = j;
    if (badcol != INT64_MAX) {
        int why = as_check_col(A, badcol);
        if (why == 1)
            return as_error(c, AS_ERR_INPUT,
                            "%s: row indices of column %lld are out of range [1, %lld] or not strictly increasing",
                            name, as_colnum(j0, cols, badcol), (long long)A->nrow);
        return as_error(c, AS_ERR_INPUT, "%s: column %lld holds a NaN or infinite value",
                        name, as_colnum(j0, cols, badcol));
    }
    return AS_OK;
}

double as_col_norm2(const as_matrix *A, int64_t j)
{
    double s = 0;
    AS_FOR_COL(A, j, row, v, { (void)row; s += v * v; });
    return s;
}

/* ||x_j||^2, or ||q_j|| ||k_j|| for a stacked [Q; K] (as_internal.h). */
double as_col_norm_prob(const as_matrix *A, int64_t j, double scale)
{
    double s = 0, a, b, p;
    if (A->kind != AS_STACKED) {
        AS_FOR_COL(A, j, row, v, { (void)row; s += (v / scale) * (v / scale); });
        return s;
    }
    a = as_col_norm_prob(A->part[0], j, scale);
    b = as_col_norm_prob(A->part[1], j, scale);
    /* sqrt(a * a) is a to the bit when a * a neither over- nor underflows */
    p = a * b;
    if (isfinite(p) && (p >= DBL_MIN || p == 0)) return sqrt(p);
    return sqrt(a) * sqrt(b);
}

int64_t as_select_nnz(const as_matrix *X, int64_t k, const int64_t *index)
{
    int64_t t, nz = 0;
    for (t = 0; t < k; t++) nz += as_col_nnz(X, index[t]);
    return nz;
}

/* Y is built by all threads, a share of its columns each: filling Y is the
   first touch of its pages (a front-end's fresh allocation), which costs
   about as much as the copy. Every entry is w * v whatever the thread. */
void as_select_dense(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, double *Y, const as_common *c)
{
    int64_t t, n = X->nrow;
#ifdef _OPENMP
#pragma omp parallel for num_threads(as_threads(c)) schedule(static)
#endif
    for (t = 0; t < k; t++) {
        double *y = Y + t * n, w = weight[t];
        memset(y, 0, sizeof(double) * (size_t)n);
        AS_FOR_COL(X, index[t], row, v, { y[row] = w * v; });
    }
}

/* One body for both index widths of the output: the column pointers first,
   then the columns by all threads. */
#ifdef _OPENMP
#define AS_SELECT_CSC_FILL _Pragma("omp parallel for num_threads(as_threads(c)) schedule(static)")
#else
#define AS_SELECT_CSC_FILL
#endif
#define AS_SELECT_CSC(ITYPE)                                                   \
    {                                                                          \
        int64_t t;                                                             \
        p[0] = 0;                                                              \
        for (t = 0; t < k; t++) p[t + 1] = p[t] + (ITYPE)as_col_nnz(X, index[t]); \
        AS_SELECT_CSC_FILL                                                     \
        for (t = 0; t < k; t++) {                                              \
            int64_t nz = p[t];                                                 \
            double w = weight[t];                                              \
            AS_FOR_COL(X, index[t], row, v, {                                  \
                i[nz] = (ITYPE)row;                                            \
                x[nz] = w * v;                                                 \
                nz++;                                                          \
            });                                                                \
        }                                                                      \
    }

void as_select_csc32(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, int32_t *p, int32_t *i, double *x, const as_common *c)
AS_SELECT_CSC(int32_t)

void as_select_csc64(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, int64_t *p, int64_t *i, double *x, const as_common *c)
AS_SELECT_CSC(int64_t)
