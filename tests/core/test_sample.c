/* test_sample.c: the sampling's draws: binomial variates against their distribution, i.i.d. sampling's multinomial counts for huge m. */
#include "check.h"
#include "estimate.h"
#include "rand.h"
#include "rng.h"
#include <time.h>

/* log of the Binomial(n, p) probability of k */
static double binom_logpmf(double n, double p, double k)
{
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(p) + (n - k) * log1p(-p);
}

/* Pearson's chi-square of N variates of Binomial(n, p), the values pooled
   from the left into bins of expected count at least 5 (the last bin takes
   what is left, to n); *df receives the degrees of freedom. */
static double binom_chisq(double n, double p, uint64_t seed, int N, int *df)
{
    double mean = n * p, sd = sqrt(n * p * (1 - p)), lo = floor(mean - 8 * sd - 1), hi = ceil(mean + 8 * sd + 1);
    int nb, b, t, bins = 0;
    double *obs, *expect, chisq = 0, acc_o = 0, acc_e = 0, left;
    if (lo < 0) lo = 0;
    if (hi > n) hi = n;
    nb = (int)(hi - lo) + 1;
    obs = calloc((size_t)nb, sizeof(double));
    expect = calloc((size_t)nb, sizeof(double));
    /* values outside [lo, hi] (beyond 8 sd) count in the end bins */
    for (t = 0; t < N; t++) {
        double x = as_rng_binomial(n, p, seed, 11, (uint64_t)t);
        obs[x < lo ? 0 : x > hi ? nb - 1 : (int)(x - lo)]++;
    }
    for (b = 0; b < nb; b++) expect[b] = N * exp(binom_logpmf(n, p, lo + b));
    left = 0;
    for (b = 0; b < nb; b++) left += expect[b];
    for (b = 0; b < nb; b++) {
        acc_o += obs[b];
        acc_e += expect[b];
        left -= expect[b];
        if ((acc_e >= 5 && left >= 5) || b == nb - 1) {
            chisq += (acc_o - acc_e) * (acc_o - acc_e) / acc_e;
            bins++;
            acc_o = acc_e = 0;
        }
    }
    *df = bins - 1;
    free(obs);
    free(expect);
    return chisq;
}

/* Every regime of the binomial sampler (inversion below a mean of 10, BTRD
   above, p above 1/2 by symmetry) matches its distribution: Pearson's
   chi-square of 200000 variates under df + 5 sqrt(2 df) (a p-value near
   1e-6 for these df), and the mean within 5 standard errors. */
static void test_binomial(void)
{
    const double cases[][2] = {{20, 0.3}, {1e6, 5e-6}, {30, 0.5}, {100, 0.2}, {1000, 0.9},
                               {1e5, 0.01}, {2147483647.0, 3e-7}, {2147483647.0, 0.37},
                               {1e9, 0.5}, {53, 0.999}};
    int c, N = 200000;
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        double n = cases[c][0], p = cases[c][1], s = 0, sd = sqrt(n * p * (1 - p));
        int df, t;
        double chisq = binom_chisq(n, p, 7 + (uint64_t)c, N, &df);
        for (t = 0; t < N; t++) s += as_rng_binomial(n, p, 99 + (uint64_t)c, 12, (uint64_t)t);
        CHECK(chisq < df + 5 * sqrt(2.0 * df), "Binomial(%g, %g): chi-square %.1f on %d df", n, p, chisq, df);
        CHECK(fabs(s / N - n * p) < 5 * sd / sqrt((double)N), "Binomial(%g, %g): mean %.6g, want %.6g", n, p,
              s / N, n * p);
        CHECK(as_rng_binomial(n, p, 1, 2, 3) == as_rng_binomial(n, p, 1, 2, 3), "a function of its key");
    }
    CHECK(as_rng_binomial(0, 0.5, 1, 1, 1) == 0 && as_rng_binomial(10, 0, 1, 1, 1) == 0 &&
          as_rng_binomial(10, 1, 1, 1, 1) == 10, "the degenerate cases");
}

/* m = the largest m with i.i.d. draws on a 20 x 100 input: the counts are a
   multinomial (O(d); one draw at a time took 140 s): they sum to m, and
   their chi-square against m / d is under df + 5 sqrt(2 df), over 5 seeds;
   each run takes under 2 s of CPU time. */
static void test_huge_m(void)
{
    int64_t n = 20, d = 100, i, j, t;
    double *x = malloc(sizeof(double) * (size_t)(n * d));
    as_matrix X;
    as_common c;
    as_rand_options o;
    as_result S;
    int seed;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) x[i + j * n] = as_rng_normal(3, 1, (uint64_t)(i + j * n)) * 0.1;
    as_view_dense(&X, n, d, x, n);
    for (seed = 1; seed <= 5; seed++) {
        double sum = 0, chisq = 0, m = (double)AS_M_MAX, e = m / (double)d, secs;
        clock_t t0 = clock();
        as_common_init(&c);
        as_rand_options_init(&o);
        o.m = AS_M_MAX;
        o.seed = (uint64_t)seed;
        o.probabilities = AS_PROB_UNIFORM;
        o.sampling = AS_SAMPLING_IID;
        o.error = 0;
        o.estimate = 0;
        CHECK(as_rand(&X, &o, &S, &c) == AS_OK, "m = %lld: %s", (long long)o.m, c.msg);
        secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        for (t = 0; t < S.k; t++) {
            /* weight = sqrt(count / (m p)), p = 1 / d */
            double count = floor(S.weight[t] * S.weight[t] * e + 0.5);
            sum += count;
            chisq += (count - e) * (count - e) / e;
        }
        chisq += (double)(d - S.k) * e;   /* columns never drawn */
        CHECK(sum == m, "seed %d: counts sum to %.17g, want m = %.17g", seed, sum, m);
        CHECK(chisq < (d - 1) + 5 * sqrt(2.0 * (d - 1)), "seed %d: chi-square %.1f on %lld df", seed, chisq,
              (long long)(d - 1));
        CHECK(secs < 2, "seed %d: %.2f s of CPU time for m = %lld", seed, secs, (long long)o.m);
        as_result_free(&S, &c);
    }
    free(x);
}

/* A 20 x 100 normal X scaled by `scale`, column `heavy` (-1: none) `factor`
   times the others. */
static double *normal_matrix(int64_t n, int64_t d, double scale, int64_t heavy, double factor)
{
    double *x = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++)
            x[i + j * n] = as_rng_normal(42, 1, (uint64_t)(i + j * n)) * scale * (j == heavy ? factor : 1);
    return x;
}

static int run_poisson(const as_matrix *X, int64_t m, int probabilities, uint64_t seed, as_result *S)
{
    as_common c;
    as_rand_options o;
    as_common_init(&c);
    as_rand_options_init(&o);
    o.m = m;
    o.seed = seed;
    o.sampling = AS_SAMPLING_POISSON;
    o.probabilities = probabilities;
    o.error = 0;
    return as_rand(X, &o, S, &c);
}

/* A sample with no column left to chance gets an estimate only when it is
   exact: the empty sample of m = 1 (20 x 100, its exact rel near 1e58) and a
   sample holding only a column kept for certain (40 times the others, norm
   probabilities, m = 4; the rest each kept with probability 0.002) have none, with the reason;
   a sample that keeps every column for certain, and X = 0, have 0. Each had
   0 before. */
static void test_no_chance(void)
{
    int64_t n = 20, d = 100, t;
    double *x = normal_matrix(n, d, 1, -1, 1), *xh = normal_matrix(n, d, 0.1, 4, 40), *z = calloc(60, sizeof(double));
    as_matrix X, Xh, Z;
    as_result S;
    as_common cc;
    int seed, empty = 0, certain = 0, other = 0;
    as_common_init(&cc);
    as_view_dense(&X, n, d, x, n);
    as_view_dense(&Xh, n, d, xh, n);
    for (seed = 1; seed <= 10; seed++) {
        CHECK(run_poisson(&X, 1, AS_PROB_LEVERAGE, (uint64_t)seed, &S) == AS_OK, "m = 1, seed %d", seed);
        if (S.k == 0) {
            empty++;
            CHECK(isnan(S.rel_estimate) && isnan(S.inf_estimate) && S.estimate == AS_ESTIMATE_NONE &&
                  S.estimate_why == AS_WHY_EMPTY, "empty sample, seed %d: estimate %g (%s), why %d", seed,
                  S.rel_estimate, as_estimate_name(S.estimate), S.estimate_why);
        }
        as_result_free(&S, &cc);
    }
    CHECK(empty >= 5, "m = 1: %d empty samples of 10", empty);
    for (seed = 1; seed <= 40; seed++) {
        CHECK(run_poisson(&Xh, 4, AS_PROB_NORM, (uint64_t)seed, &S) == AS_OK, "m = 4, seed %d", seed);
        if (S.k == 1 && S.index[0] == 4) {
            certain++;
            CHECK(isnan(S.rel_estimate) && S.estimate_why == AS_WHY_NO_CHANCE && *as_estimate_why(S.estimate_why),
                  "only the certain column, seed %d: estimate %g, why %d", seed, S.rel_estimate, S.estimate_why);
        } else {
            other++;
            CHECK(S.rel_estimate > 0 && S.estimate == AS_ESTIMATE_GAUSSIAN, "seed %d, k = %lld: estimate %g",
                  seed, (long long)S.k, S.rel_estimate);
        }
        as_result_free(&S, &cc);
    }
    CHECK(certain >= 15 && other >= 1, "m = 4: %d samples of the certain column alone, %d others", certain, other);
    /* m far above d: every column certain and kept */
    CHECK(run_poisson(&X, 100000, AS_PROB_NORM, 1, &S) == AS_OK && S.k == d, "every column kept: k = %lld",
          (long long)S.k);
    CHECK(S.rel_estimate == 0 && S.inf_estimate == 0 && S.estimate == AS_ESTIMATE_EXACT && S.estimate_why == AS_WHY_MADE,
          "exact sample: estimate %g (%s)", S.rel_estimate, as_estimate_name(S.estimate));
    for (t = 0; t < S.k; t++) if (S.weight[t] != 1) break;
    CHECK(t == S.k, "every weight 1");
    as_result_free(&S, &cc);
    as_view_dense(&Z, 3, 20, z, 3);
    CHECK(run_poisson(&Z, 5, AS_PROB_NORM, 1, &S) == AS_OK && S.k == 0 && S.rel_estimate == 0 &&
          S.estimate == AS_ESTIMATE_EXACT, "X = 0: k = %lld, estimate %g", (long long)S.k, S.rel_estimate);
    as_result_free(&S, &cc);
    free(x);
    free(xh);
    free(z);
}

static void test_rng(void)
{
    double s = 0, s2 = 0, umin = 1, umax = 0;
    int t, N = 200000;
    CHECK(as_rng_u64(1, 2, 3) == as_rng_u64(1, 2, 3), "counter RNG is a function of its key");
    CHECK(as_rng_u64(1, 2, 3) != as_rng_u64(1, 2, 4) && as_rng_u64(1, 2, 3) != as_rng_u64(2, 2, 3), "keys differ");
    for (t = 0; t < N; t++) {
        double z = as_rng_normal(9, 1, (uint64_t)t), u = as_rng_unif(9, 2, (uint64_t)t);
        s += z; s2 += z * z;
        if (u < umin) umin = u;
        if (u > umax) umax = u;
    }
    CHECK(fabs(s / N) < 0.01 && fabs(s2 / N - 1) < 0.02, "normal mean %g var %g", s / N, s2 / N);
    CHECK(umin > 0 && umax < 1 && umin < 1e-4 && umax > 1 - 1e-4, "uniform in (0,1): [%g, %g]", umin, umax);
}

int main(void)
{
    test_binomial();
    test_huge_m();
    test_no_chance();
    test_rng();
    return check_report("test_sample");
}
