/* metrics.h: the error metrics' entry points beside the public ones (metrics.c). */
#ifndef AS_METRICS_H
#define AS_METRICS_H

#include "as_internal.h"

/* Row-softmax of a Gram matrix: Att = D^-1 exp(G), row maximum subtracted. */
void as_softmax(int64_t n, const double *G, double *Att);

/* Compare G = X X' with H = Y Y' (both n x n). */
int as_compare_gram(int64_t n, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c);

/* Metrics of Y = X(:, index) * diag(weight) against X. */
int as_attention_error(const as_matrix *X, int64_t k, const int64_t *index,
                       const double *weight, int spectral, as_metrics *out, as_common *c);

/* as_attention_error_xy with G = X X' (n x n) given, e.g. summed over blocks of columns
   of an X that is never in memory; Y(:, t) is scaled by weight[t] (weight
   NULL: 1). */
int as_attention_error_gram(int64_t n, const double *G, const as_matrix *Y, const double *weight,
                            const as_metrics_options *o, as_metrics *out, as_common *c);
/* The metrics of Y = X(:, index) * diag(weight) against X; G = X X' when the
   caller has it (else NULL: computed here). */
int as_metrics_of(const as_matrix *X, const double *G, int64_t k, const int64_t *index,
                  const double *weight, int spectral, as_metrics *out, as_common *c);
/* Whether the spectral metrics are asked for: option 'spectral' (-1, its
   default: as option 'error'). */
int as_spectral_asked(int error, int spectral);
/* The metrics not asked for set to NaN: inf, baseline, r without 'error',
   rel without `rel`. */
void as_metrics_mask(as_metrics *M, int error, int rel);
/* S->metrics and S->error_time as asked by the options 'error' and 'spectral'
   (spectral < 0: as error); G as for as_metrics_of. */
int as_result_metrics(const as_matrix *X, const double *G, int error, int spectral,
                      as_result *S, as_common *c);

/* log sum_j exp(g[j]) over j < n, the maximum subtracted (metrics.c). */
double as_lse(int64_t n, const double *g);
/* as_compare_gram for any view: for a stacked Z, the metrics of the cross
   attention row-softmax(Q K') read from the blocks of G = Z Z', H = Z~ Z~' (metrics.c). */
/* The memory the metrics' Grams take counted against mem_mb (0: the
   default cap): Y Y', and X X' unless have_g. */
int as_metrics_mem_check(int64_t n, int have_g, double mem_mb, as_common *c);

int as_compare_view(const as_matrix *X, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c);

/* Nonzero (default): the spectral eps of a clearly positive definite X X'
   by Cholesky and dsygst; 0: always by the whitening (eigenvectors).
   (c->tune.spectral_chol) */

#endif
