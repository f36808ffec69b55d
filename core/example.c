/* example.c: the built-in default input, the same in every front-end. */
#include "as_internal.h"
#include "options.h"
#include "rng.h"

/* The defaults of as_example_args. */
#define AS_EXAMPLE_N 100
#define AS_EXAMPLE_D 20000
#define AS_EXAMPLE_R 0.05
#define AS_EXAMPLE_SEED 1
#define AS_EXAMPLE_MAX 4e9

int as_example_args(double *np, double *dp, double *rp, double *seedp, as_common *c)
{
    double n, d, r, seed;
    const char *what;
    if (isnan(*np)) *np = AS_EXAMPLE_N;
    if (isnan(*dp)) *dp = AS_EXAMPLE_D;
    if (isnan(*rp)) *rp = AS_EXAMPLE_R;
    if (isnan(*seedp)) *seedp = AS_EXAMPLE_SEED;
    n = *np, d = *dp, r = *rp, seed = *seedp;
    what = !(n >= 1 && n <= AS_INT_MAX && n == floor(n)) ? "n" :
           !(d >= 1 && d <= AS_INT_MAX && d == floor(d)) ? "d" : NULL;
    c->status = AS_OK;
    char got[32];
    if (what != NULL)
        return as_error(c, AS_ERR_ARG, "'%s' must be a whole number in [1, %lld], got %s", what,
                        (long long)AS_INT_MAX, as_fmt_num(*what == 'n' ? n : d, got, sizeof got));
    if (n * d > AS_EXAMPLE_MAX)
        return as_error(c, AS_ERR_TOOBIG, "the example of %.0f x %.0f has %.4g entries, above the "
                        "%.0e (32 GB) it may have", n, d, n * d, AS_EXAMPLE_MAX);
    if (!(r > 0) || !isfinite(r))
        return as_error(c, AS_ERR_ARG, "'r' must be a positive finite number, got %s",
                        as_fmt_num(r, got, sizeof got));
    return as_option_check(as_option_find("seed", AS_FOR_RAND), seed, c);
}

int as_example(int64_t n, int64_t d, double r, uint64_t seed, double *X, as_common *c)
{
    int64_t i, j;
    double nn = (double)n, dd = (double)d, ss = (double)seed;
    if (as_example_args(&nn, &dd, &r, &ss, c) != AS_OK) return c->status;
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
