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
   computed anew (and its exact rel compared) every few steps. s->w, s->H,
   s->rowrel and *rel are the best weights found (plan->start: never worse
   than the start's). The greedy method's kept columns (s->sel not NULL) are
   fitted the same way, the columns it holds at 0 (s->ban) left there. */
typedef struct as_kfree_plan {
    int rounds;              /* rounds at most (Lawson's reweighting between two) */
    int steps;               /* steps per round at most            */
    double tol;              /* a round ends at a step that lowers f by less than this share of it */
    int start;               /* the starting weights count among the results (0: only the steps') */
} as_kfree_plan;
int as_refit_kfree(gr_state *s, const as_kfree_plan *plan, double *rel, as_common *c);

/* The candidates of s (s->cand, s->nc of them; s set up by as_gr_setup) made
   its kept columns at squared weights w2, ready for as_refit_kfree: the
   per-candidate and kept-column arrays allocated, as_gr_prepare done, s->H
   made. */
int as_refit_kfree_load(gr_state *s, const double *w2, as_common *c);

/* The greedy method's refit of its kept columns (as_gr_fit's contract: *rel,
   H and the rows' errors those of the weights kept): with the k x k normal
   equations, or without them where as_gr_kfree says so. */
int as_gr_refit(gr_state *s, double *rel, as_common *c);
/* Whether the kept columns of s are fitted without K: past s->kfit columns,
   or where that costs far less (refit_cd.c says how it is counted). */
int as_gr_kfree(const gr_state *s);

#endif
