/* example.c: the built-in default input, the same in every front-end. */
#include "as_internal.h"

int as_example(int64_t n, int64_t d, double r, uint64_t seed, double *X, as_common *c)
{
    int64_t i, j;
    c->status = AS_OK;
    if (n < 1 || d < 1)
        return as_error(c, AS_ERR_ARG, "'n' and 'd' must be at least 1");
    if (!(r > 0) || !isfinite(r))
        return as_error(c, AS_ERR_ARG, "'r' must be positive and finite, got %g", r);
    /* Gaussian rows with a few heavy columns (so leverage scores are uneven),
       each row scaled to squared norm r: then max |X X'| = r exactly. */
    for (j = 0; j < d; j++) {
        double heavy = (as_rng_u64(seed, 11, (uint64_t)j) % 50 == 0) ? 8.0 : 1.0;
        for (i = 0; i < n; i++)
            X[i + j * n] = heavy * as_rng_normal(seed, 12, (uint64_t)(j * n + i));
    }
    for (i = 0; i < n; i++) {
        double s = 0, sc;
        for (j = 0; j < d; j++) s += X[i + j * n] * X[i + j * n];
        sc = s > 0 ? sqrt(r / s) : 0;
        for (j = 0; j < d; j++) X[i + j * n] *= sc;
    }
    return AS_OK;
}
