/* sample.h: the sampling of the randomized method from its scores (sample.c). */
#ifndef AS_SAMPLE_H
#define AS_SAMPLE_H

#include "as_internal.h"

/* Poisson decisions for columns j0 .. j0+len-1 (prob: theirs, total: the sum
   over all d): column j kept when its uniform (seed, j) is below
   q_j = min(1, m prob_j / total). Returns the count kept; index (global),
   weight 1/sqrt(q_j) and q (NULL: not wanted) of the kept ones when index is
   not NULL (sample.c). */
int64_t as_block_poisson(int64_t j0, int64_t len, const double *prob, double total, int64_t m,
                         uint64_t seed, int64_t *index, double *weight, double *q);
/* The sampling of as_rand and as_block_sample: prob (a work array) from lev
   and nrm, then i.i.d. or Poisson (sample.c). out->s1 says how lev was
   computed (0: exact) for the default m; out->beta receives its beta. */
int as_rand_sample(int64_t d, int64_t rank, const double *lev, const double *nrm, int scheme,
                   const as_rand_options *o, double *prob, as_result *out, double **term,
                   as_common *c);
/* The pieces of sampling that target mode shares (sample.c): prob from lev
   and nrm for one scheme (unnormalized); Poisson's q_j = min(1, m p / total);
   the Poisson sample of all d columns (*qk: q of each kept column, owned);
   the sum of v in order; whether all len values are finite; the beta of a
   scheme's probabilities and the failure probability left to sampling. */
void as_scheme_probabilities(int64_t d, int scheme, const double *lev, const double *nrm,
                             double *prob);
double as_poisson_q(int64_t m, double p, double total);
int as_sample_poisson(int64_t d, const double *prob, double total, int64_t m,
                      uint64_t seed, as_result *out, double **qk, as_common *c);
double as_sum(int64_t d, const double *v);
int as_all_finite(int64_t len, const double *v);
double as_scheme_beta(int64_t d, int64_t rank, const double *lev, int scheme, int64_t s1,
                      const as_rand_options *o, double *delta_sampling);
/* The overflow check of Y from X(:, cols) (cols NULL: all columns of X) (sample.c). */
int as_sample_check_finite_cols(const as_matrix *X, const int64_t *cols, const as_result *S,
                                as_common *c);

#endif
