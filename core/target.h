/* target.h: target mode of the randomized method as steps (target.c). */
#ifndef AS_TARGET_H
#define AS_TARGET_H

#include "as_internal.h"

/* Target mode's tunables (core/target.c says what each does). */
#define AS_PILOT_FACTOR 4
#define AS_TARGET_ROUNDS 12
#define AS_TARGET_SHRINK 0.8
#define AS_TARGET_MARGIN 1.5
#define AS_TARGET_GROW 4
#define AS_TARGET_FEW 30
/* Read by blocks, a growing round gathers the columns of this many times its
   m (a superset of its own: the rounds after it, up to that m, read nothing). */
#define AS_TARGET_READ_AHEAD 4
/* Target mode's exact check (X X' at hand): at most this many larger samples,
   and as many smaller ones; the smaller ones stop once the smallest m known
   to meet the target is within AS_TARGET_EXACT_STEP times the largest known
   to miss it. */
#define AS_TARGET_EXACT_ROUNDS 24
#define AS_TARGET_EXACT_STEP 1.1
/* Target mode (see as_rand in attsparse.h) as steps (target.c): as_target_new
   draws the pilots (lev, nrm as the candidates need; rowsq the diagonal of
   X X'; s1 the sketch rows, 0: exact scores); as_target_step estimates and
   draws from the columns at hand: X itself (X given to as_target_new), or
   (X NULL, block input) Xv holding the columns gathered[0..ng) gathered in
   this step, after those of earlier steps, in order; it returns when the run
   is done or needs columns that are not at hand, which as_target_wanted
   lists (increasing; it returns nonzero when done). as_target_result moves
   the final sample into out (index, weight, m, estimates, probabilities,
   rounds). G: X X' when the exact error is asked for (else NULL): a sample
   whose exact rel misses the target is then grown until it meets it, and
   one that meets it shrunk (subsets) while a smaller one meets it. The
   options o, lev, nrm, rowsq and G must outlive the run. */
typedef struct as_target as_target;
int  as_target_new(const as_matrix *X, int64_t d, int64_t rank, int64_t s1, const as_rand_options *o,
                   const double *lev, const double *nrm, const double *rowsq, const double *G, as_target **T,
                   as_common *c);
int  as_target_step(as_target *T, const as_matrix *Xv, const int64_t *gathered, int64_t ng, as_common *c);
int  as_target_wanted(const as_target *T, const int64_t **cols, int64_t *ncols);
void as_target_result(as_target *T, as_result *out);
/* Where column j of X is among the columns at hand (X's own j in memory). */
int64_t as_target_position(const as_target *T, int64_t j);
void as_target_free(as_target *T, as_common *c);
/* Target mode on X in memory: out->rank and sketch sizes already set; G as
   for as_target_new. */
int as_rand_target(const as_matrix *X, const as_rand_options *o, const double *lev,
                   const double *nrm, const double *G, as_result *out, as_common *c);

#endif
