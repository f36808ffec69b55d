/* qk.h: attention with Q != K: its metrics and the sketches of Z = [X; K] (qk_attention.c, qk_sketch.c). */
#ifndef AS_QK_H
#define AS_QK_H

#include "as_internal.h"
#include "det.h"

typedef struct as_qk_metrics {
    as_metrics att;      /* of Att(Q, K) = row-softmax(Q K'): inf, rel, baseline
                            (uniform 1/n2), r = max |Q K'|, eps_spectral of the
                            stacked Z = [Q; K], bound = exp(2 eps max_i ||q_i||
                            max_j ||k_j||) - 1                                 */
    double out_error;    /* max |Att~ V - Att V|; NaN without V               */
    double out_rel_error;/* max_il |(Att~ V - Att V)_il| / sum_j Att_ij |V_jl|;
                            NaN without V (0/0 counts 0)                       */
} as_qk_metrics;

/* Metrics of Q~ = Q(:, idx) diag(w), K~ = K(:, idx) diag(w) against Q, K
   (Z = [Q; K] a stacked view); V (n2 x dv, column-major) may be NULL. */
int as_qk_error(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                const double *V, int64_t dv, int spectral, as_qk_metrics *out, as_common *c);

/* as_rand and as_det with keys K and values V (X plays the queries Q): the
   sample is of Z = [X; K] (K NULL: of X), and the metrics the options ask for
   come from the same call: with K those of Att(X, K) in out->metrics (the
   symmetric ones of Z are not computed), with V out->out_error and
   out->out_rel_error (K NULL: K = X); error_time counts them all. K NULL and
   V NULL: as_rand, as_det. K: as many columns as X; V: n2 x dv, column-major,
   n2 = nrow(K) (K NULL: nrow(X)), finite. */
int as_rand_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
                const as_rand_options *o, as_result *out, as_common *c);
int as_det_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
               const as_det_options *o, as_result *out, as_common *c);

/* as_qk_error with its two N x N Grams under mem_mb MiB (0: 3/4 of the
   physical memory; as_rand_qkv, as_det_qkv: the option 'memory'). */
int as_qk_error_cap(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                    const double *V, int64_t dv, int spectral, double mem_mb, as_qk_metrics *out,
                    as_common *c);
/* V's values (its shape is the caller's: n2 x dv, as_qkv_shapes); K is
   checked with X by the run (the stacked view: as_matrix_check). */
int as_qkv_check_v(int64_t n2, const double *V, int64_t dv, as_common *c);

/* Doubles in one block of logits of as_attention_qkv with V (default 4 Mi).
   (c->tune.qk_block) */

#endif
