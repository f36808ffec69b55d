/* rglue.h: the helpers of rglue.c that rblocks.c shares (views, contexts, options, errors). */
#ifndef AS_RGLUE_H
#define AS_RGLUE_H
#include <Rinternals.h>
#include "attsparse.h"

void r_view(SEXP X, as_matrix *A, const char *what);             /* no-copy view, or an R error */
void r_common_threads(as_common *c, int threads);                  /* R's hooks, a thread count   */
void r_common(as_common *c, SEXP opts);                            /* ... from the options list   */
void r_rand_options(SEXP opts, as_rand_options *o);                /* the randomized options       */
void r_raise(const as_common *c);                                  /* the core's error as R's (does not return) */
#endif
