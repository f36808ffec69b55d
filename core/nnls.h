/* nnls.h: the nonnegative least-squares solver min w'Kw - 2 b'w over w >= 0 (nnls.c), which sees only K, b, w, a ban mask and its workspace. */
#ifndef AS_NNLS_H
#define AS_NNLS_H

#include "as_internal.h"

/* The solver's working arrays for up to cap unknowns. */
typedef struct as_nnls_work {
    int64_t cap;
    double *g;     /* cap: b - K w                          */
    double *kw;    /* cap: K w (the objective's)             */
    double *wn;    /* cap: a Newton step's trial weights     */
    double *z;     /* cap: the minimum on the support        */
    int64_t *P;    /* cap: the support {w > 0}               */
    double *KP;    /* cap x cap: K on the support, factored  */
    int64_t newton_max; /* Newton steps up to this many unknowns (as_nnls_work_alloc:
                           AS_NNLS_NEWTON_MAX; more for a solve that must converge) */
} as_nnls_work;

/* Past this many unknowns the solver's rounds are coordinate descent alone
   (a Newton step's factor costs k^3 / 3): on a K of correlated columns the
   descent stops short of the minimum, which keeps fewer columns in the
   greedy method (its fits at ALL's 1%: 1108 columns, with Newton steps 1153)
   but whose gradient then no longer says which column would lower the fit
   (greedy.c's rounds converge it before they conclude that none would). */
#define AS_NNLS_NEWTON_MAX 2048

/* Room for cap unknowns (W's arrays allocated; W->cap set). */
int as_nnls_work_alloc(as_nnls_work *W, int64_t cap, as_common *c);
void as_nnls_work_free(as_nnls_work *W, as_common *c);

/* min f(w) - f(0) = w'Kw - 2 b'w over w >= 0, the unknowns a with ban[a]
   nonzero held where they are (ban NULL: none), from the w given (K: k x k,
   symmetric positive semidefinite, leading dimension k): rounds of a few
   coordinate-descent sweeps (which find the support) and Newton steps on the
   support (LAPACK's Cholesky, which converge on it), until the projected
   gradient is small against the weights or a round no longer lowers f.
   Returns c->status (an interrupt stops it, w as far as it got). */
int as_nnls_solve(int64_t k, const double *K, const double *b, const unsigned char *ban, double *w,
                  as_nnls_work *W, as_common *c);
/* w'Kw - 2 b'w, K w summed by columns (w's nonzeros) into kw (k doubles). */
double as_nnls_objective(int64_t k, const double *K, const double *b, const double *w, double *kw);

#endif
