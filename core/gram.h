/* gram.h: the Gram kernels' entry points beside as_gram: the cross Gram, the pair of Grams, their sizes (gram.c). */
#ifndef AS_GRAM_H
#define AS_GRAM_H

#include "as_internal.h"

/* AS_OK when every entry of the n x n Gram G of the input `name` is finite;
   else AS_ERR_INPUT ("X X' overflows ..."): call it before as_softmax.
   name "[X; K]" (or "[X; K] ..." for a sample of it): the stacked input of
   Q != K, whose message names X and K. */
int as_gram_finite(int64_t n, const double *G, const char *name, as_common *c);
/* C ((nrow(A)) x (b1 - b0), column-major) = A(:, idx) diag(w)^2 B(b0:b1-1, idx)':
   row j of C pairs row j of A with rows b0.. of B. index == NULL: all columns,
   weight == NULL: weights 1. A, B dense or CSC with the same ncol. Dense A and
   B (a large product): BLAS dgemm in blocks; otherwise each entry is summed in
   column order. The same bits on any thread count either way. */
int as_cross_gram(const as_matrix *A, const as_matrix *B, int64_t k, const int64_t *index,
                  const double *weight, int64_t b0, int64_t b1, double *C, as_common *c);

/* Multiply-adds from which a dense cross Gram calls dgemm (default 1 Mi; gram.c).
   (c->tune.qk_blas_madds) */
/* Fraction of the rows from which a column of a CSC X goes into as_gram's
   dense panels (> 1: none does); the default is measured by make bench-gram.
   (c->tune.gram_heavy) */
/* Share of X's light-column work from which as_gram_pair makes both Grams in
   one pass (below it, two passes; the same bits either way).
   (c->tune.gram_pair_share) */
/* Nonzero (default): as_gram's dense panels use 256-bit vectors on CPUs with
   AVX2 (same roundings as the baseline code); 0: baseline code only.
   (c->tune.gram_avx2) */
/* Whether column j of X goes into as_gram's dense panels (at least
   c->tune.gram_heavy n entries; every column of a dense X). */
int as_gram_is_heavy(const as_matrix *X, int64_t j, const as_common *c);
/* An n x n symmetric matrix's lower triangle from its upper one. */
void as_gram_mirror(int64_t n, double *G);
/* The multiply-adds of as_gram over columns index[0..k) of X (index NULL:
   all of them): dense panels n^2 / 2 a column, light columns z (z + 1) / 2. */
double as_gram_madds(const as_matrix *X, int64_t k, const int64_t *index, const as_common *c);
/* G = X X' and H = the Gram of X(:, index[0..k)) diag(weight) (as as_gram
   computes each, bit for bit), a CSC X's light columns in one pass for both
   when their pairs (2 n^2 doubles more) fit in 3/4 of the memory. */
int as_gram_pair(const as_matrix *X, int64_t k, const int64_t *index, const double *weight,
                 double *G, double *H, as_common *c);

#endif
