/* refit.h: the refit of option 'refit' of the sampling methods (refit.c). */
#ifndef AS_REFIT_H
#define AS_REFIT_H

#include "as_internal.h"

/* Samples of more columns than this are refitted without the k x k normal
   equations: the default of c->tune.refit_k_max (refit.c says why). */
#define AS_REFIT_K_MAX 1024

/* The refit of option 'refit' (as_rand, as_det; refit.c): the weights of
   S's columns (S->index) chosen again, nonnegative, by the greedy method's
   reweighted least squares against X X' (and its minimax fit where n^2 is
   small), the weights with the smallest exact rel kept (the sample's own among them); zero weights dropped (S->k may
   shrink); S->refit_rel the rel before, S->estimate none (AS_WHY_REFIT).
   *G: X X' (n x n) when the caller has it, else NULL: then computed here and
   handed back (the caller frees it with as_free); mem_mb: option 'memory'. */
int as_refit(const as_matrix *X, double **G, double mem_mb, as_result *S, as_common *c);

#endif
