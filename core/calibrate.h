/* calibrate.h: a sample's weights calibrated to totals of X that are known without X X' (survey
   calibration): to X's squared norm (one factor) and to the rows' squared norms (raking). */
#ifndef AS_CALIBRATE_H
#define AS_CALIBRATE_H
#include "as_internal.h"

/* The factor on Y Y' that gives Y the squared norm of X: sum_i rowsq[i] over sum_t
   w[t]^2 |X(:, idx[t])|^2 (NaN when Y has none). */
double as_calibrate_trace(const as_matrix *Xv, int64_t k, const int64_t *idx, const double *w,
                          const double *rowsq);

/* Raking: per-column factors fac[t] = exp(sum_i lambda_i X(i, idx[t])^2) on the terms of
   Y Y' (the weights times sqrt(fac)) such that every row of Y has the squared norm of X's
   row, rowsq (Deville and Sarndal 1992, the exponential distance; Newton's method on its
   convex dual). *ok is 0 when there is no such calibration (fewer columns than rows to
   calibrate, a row with no entry among them, totals outside the cone of the columns) or
   Newton's method did not reach it; fac is then left as it was. */
int as_calibrate_rows(const as_matrix *Xv, int64_t k, const int64_t *idx, const double *w,
                      const double *rowsq, double *fac, int *ok, as_common *c);

#endif
