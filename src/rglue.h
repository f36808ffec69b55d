/* rglue.h: the helpers of rglue.c that rblocks.c shares (views, contexts, options, errors). */
#ifndef AS_RGLUE_H
#define AS_RGLUE_H
#include <Rinternals.h>
#include "attsparse.h"

void r_view(SEXP X, as_matrix *A, const char *what);             /* no-copy view, or an R error */
void r_common(as_common *c);                                       /* R's interrupt and print hooks */
/* the options of `call` (one AS_FOR_*), a named list, into o and c by the core's table */
void r_set_options(unsigned call, void *o, SEXP opts, as_common *c);
SEXP r_metrics(const as_metrics *M);                               /* named: inf, rel, baseline, r, eps_spectral, bound (NA: not computed) */
/* a result as a named list, one element per row of the core's field table (core/result.c) */
SEXP r_result(SEXP Xr, const as_matrix *X, SEXP Kr, const as_matrix *K, const as_result *S,
              const as_common *c);
void r_raise(const as_common *c);                                  /* the core's error as R's (does not return) */
/* The result list of a sample S whose columns were gathered into Xs (Y = Xs
   diag(weight), no dimnames); S's arrays are freed. */
SEXP r_wrap_gathered(const as_matrix *Xs, as_result *S, as_common *c);
#endif
