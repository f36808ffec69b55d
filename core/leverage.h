/* leverage.h: the leverage scores' sketches, factor and score passes (leverage.c). */
#ifndef AS_LEVERAGE_H
#define AS_LEVERAGE_H

#include "as_internal.h"
#include "rand_passes.h"

/* scores[j] = || z_j' N ||^2 for a stacked view (leverage.c, beside as_scores_cols; NT is
   q x N with leading dimension qs). */
int as_qk_scores(const as_matrix *Z, const double *NT, int64_t q, int64_t qs, double *scores,
                 as_common *c);
/* The sketch's factor: N' (q x n, leading dimension qs, rows q .. qs-1 zero),
   the numerical rank, the JL width used (0: none) (leverage.c). */
typedef struct as_block_factor {
    int64_t rank, q, qs, s2;
    double *NT;          /* inside NTbuf                                    */
    double *NTbuf;       /* owned: release with as_block_factor_free        */
} as_block_factor;
int as_block_factor_run(const as_block_plan *P, const as_rand_options *o, const double *MT,
                        as_block_factor *F, as_common *c);
void as_block_factor_free(as_block_factor *F, as_common *c);
/* Default sketch sizes: embedding rows, and JL columns (a double: it may be
   too large to cast; leverage.c). */
int64_t as_default_s1(int64_t n);
double as_default_s2(int64_t d, double delta);
/* The JL width the approximate scores of a rank-r X use: o->s2 or the
   default, 0 when not below the rank (no JL step) (leverage.c). */
int64_t as_jl_width(const as_rand_options *o, int64_t d, int64_t rank);
/* b / a of the sketches' tail bounds (leverage.c, the comment at the top):
   with probability >= 1 - delta/2 every approximate score of the d columns is
   at least tau_j / (b / a); s1 = 0 or s2 = 0: that sketch not used. */
double as_sketch_beta(int64_t s1, int64_t s2, int64_t d, double delta);

/* The factor of the exact scores: X' copied, its pivoted QR (leverage.c). */
int as_exact_factor(const as_matrix *X, const as_rand_options *o, as_block_factor *F, as_common *c);
/* M' += S1(:, j0 + (0 .. ncol(X)-1)) X' (n x s1) in column order (leverage.c). */
int as_sketch_cols(const as_matrix *X, int64_t j0, int64_t s1, int64_t s, uint64_t seed,
                   double *MT, as_common *c);
/* scores[j] = || x_j' N ||^2, NT = N' (q x n, leading dimension qs) (leverage.c). */
int as_scores_cols(const as_matrix *X, const double *NT, int64_t q, int64_t qs, double *scores,
                   as_common *c);
/* Nonzero (default): the sparse score pass uses 256-bit vectors on CPUs with
   AVX2 (same roundings as the baseline code); 0: baseline code only.
   (c->tune.scores_avx2) */

#endif
