/* refit_cd.h: the refit of a large sample without the k x k normal equations (refit_cd.c): projected gradient steps on the greedy method's weighted proxy, Y Y' kept current by low-rank updates, the exact rel checked at regular steps and the best weights kept. */
#ifndef AS_REFIT_CD_H
#define AS_REFIT_CD_H

#include "greedy_shared.h"

/* Bytes the K-free refit allocates at most for a sample of k columns with
   `entries` stored entries on n rows (X X' and the n x n arrays, the
   candidates' products, a few k-vectors): checked against 'memory' first. */
double as_refit_kfree_bytes(int64_t n, int64_t k, int64_t entries);

/* min over w >= 0 of the proxy f(w) (see the top of greedy.c) for the kept
   columns of s, without K: s set up (as_gr_setup), its candidates the kept
   columns (s->nc = s->k, as_gr_prepare done, score/norm/in allocated), s->w
   the starting weights, s->col/s->sw allocated, s->H = H(s->w). Rounds of
   projected gradient steps (each column's own Newton step as the direction,
   the exact minimum along it, the weights clipped at 0) with Lawson's
   reweighting between rounds; H follows by the step's low-rank update and is
   computed anew (and its exact rel compared) every few steps. s->w, s->H and
   *rel are the best weights found (never worse than the start's). */
int as_refit_kfree(gr_state *s, double *rel, as_common *c);

#endif
