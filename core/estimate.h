/* estimate.h: the error estimate of a randomized sample from its kept columns alone (estimate.c, estimate_gauss.c). */
#ifndef AS_ESTIMATE_H
#define AS_ESTIMATE_H

#include "as_internal.h"

/* Which error estimate a randomized result carries (as_result.estimate;
   NONE to BOOTSTRAP are also the choices of option 'estimate'): GAUSSIAN
   (the default) from the sampling variance, BOOTSTRAP from resamples (see
   as_rand); EXACT when the sample keeps every column of X that has a
   chance, each for certain, so that Y Y' = X X' and the estimates are 0. */
enum { AS_ESTIMATE_NONE = 0, AS_ESTIMATE_GAUSSIAN = 1, AS_ESTIMATE_BOOTSTRAP = 2, AS_ESTIMATE_EXACT = 4 };
/* Why a result carries no estimate (as_result.estimate_why). */
enum { AS_WHY_MADE = 0,        /* it carries one                                   */
       AS_WHY_NOT_ASKED = 1,   /* option 'estimate' said none                      */
       AS_WHY_EMPTY = 2,       /* the sample is empty while X is not               */
       AS_WHY_NO_CHANCE = 3,   /* every kept column was certain while others were
                                  left out: Y shows nothing of what it missed     */
       AS_WHY_OVERFLOW = 4,    /* Y Y' overflows                                   */
       AS_WHY_ONE_DRAW = 6,    /* i.i.d. sampling with m = 1: one draw shows nothing
                                  of its spread                                    */
       AS_WHY_REFIT = 7 };     /* option 'refit': the weights were fitted to X X',
                                  whose rel_error is exact                         */
/* The reason in words ("" for AS_WHY_MADE). */
const char *as_estimate_why(int why);
/* The name of an AS_ESTIMATE_* kind ("bootstrap", "none", ...). */
const char *as_estimate_name(int kind);
/* Resamples of the bootstrap error estimate and the quantile reported. */
#define AS_ESTIMATE_B 30
#define AS_ESTIMATE_QUANTILE 0.95
/* The error estimate of kind `kind` (AS_ESTIMATE_GAUSSIAN or _BOOTSTRAP)
   of a sample whose columns are X(:, cols) (cols NULL: X's columns are the
   sample's), d the width of the whole input; term[t]: the draw count
   (i.i.d.) or q (Poisson) of the t-th kept column (estimate.c). rowsq (NULL:
   unknown): the diagonal of X X' (the rows' squared norms): a sample whose
   kept columns are all certain (or none) is exact when the diagonal of Y Y'
   is that of X X' (estimates 0), else it gets none (AS_WHY_NO_CHANCE,
   AS_WHY_EMPTY); the Gaussian estimate knows the error of the diagonal
   from it, and with diag_check the bootstrap is checked against it (round:
   the bootstrap's resample stream). Sets S->estimate and S->estimate_why. */
int as_estimate(const as_matrix *X, const int64_t *cols, int64_t d, as_result *S, int sampling,
                const double *term, uint64_t seed, int round, const double *rowsq, int diag_check, int kind,
                as_common *c);
/* The Gaussian estimate (estimate_gauss.c; as_estimate calls it once it
   knows some column is left to chance): one Gram of Y and one of the
   columns left to chance, transformed. */
int as_estimate_gauss(const as_matrix *X, const int64_t *cols, as_result *S, int sampling,
                      const double *term, const double *rowsq, as_common *c);
/* Nonzero (default): with Poisson sampling, as_estimate makes the Gram of
   the columns kept for certain once; 0: every resample's Gram whole.
   (c->tune.estimate_split) */
/* Whether o asks for an estimate; S->estimate_why says when not (estimate.c). */
int as_estimate_wanted(const as_rand_options *o, as_result *S);
/* The estimate's working arrays (and target mode's rounds') on top of
   `bytes` of the sampling's, refused above the 'memory' cap (estimate.c). */
int as_estimate_memory(const as_matrix *X, const as_rand_options *o, double bytes, as_common *c);

#endif
