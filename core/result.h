/* result.h: what the result table (result.c) reads of a result beyond its public fields. */
#ifndef AS_RESULT_H
#define AS_RESULT_H

#include "as_internal.h"

/* Conditions of presence (as_field.when): a row with when == 0 is always
   present; else when one of its bits is in the sample's 'has'. */
enum { AS_HAS_KEYS = 1,      /* queries != keys: K given                       */
       AS_HAS_VALUES = 2,    /* values V given                                 */
       AS_HAS_PRESAMPLE = 4, /* det with a randomized first stage              */
       AS_HAS_SPECTRAL = 8,  /* attention_error with spectral = true           */
       AS_HAS_BLOCKS = 16,   /* X read by blocks (as_blocks)                   */
       AS_HAS_REFIT = 32,    /* option 'refit'                                 */
       AS_HAS_CANDIDATES = 64, /* greedy: the candidates are a sample           */
       AS_HAS_MEMORY = 128 };  /* greedy: 'memory' held fewer columns than a round asked for */

/* Record in S what made it: the call (AS_FOR_*) and the options the result
   fields show (NaN: not applicable) (result.c). */
void as_result_options(as_result *S, unsigned call, double seed, double delta, double rel_target);

#endif
