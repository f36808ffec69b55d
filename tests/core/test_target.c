/* test_target.c: the randomized method's target mode: the error estimate it picks by itself, the shrink of m after a sample that meets the target, and the calibration of a sample to X's squared norm and to its rows'. */
#include "as_internal.h"
#include "calibrate.h"
#include "check.h"
#include "estimate.h"
#include "gram.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include "target.h"
#include <string.h>

/* 'estimate': the multiply-adds of the Grams against a hand count (the
   default Gaussian estimate: Y Y' and one Gram of the columns left to chance,
   at most two Grams of Y; the bootstrap 30 more of those columns); the
   default estimate made whatever its cost (a sample that carries most of X X''s
   work, which the bootstrap's default skipped), "none" and "bootstrap" on
   request; target mode never forms X X': its estimate is the Gaussian one,
   and the exact error of its result meets the target. */
static void test_estimate_auto(void)
{
    int n = 30, d = 2000, j, i;
    double *X = calloc((size_t)(n * d), sizeof(double)), hand = 0;
    int64_t idx[3] = {0, 2, 4};
    check_csc s;
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_result S;
    for (j = 0; j < d; j++)
        for (i = 0; i < (j < 5 ? n : 2); i++)   /* 5 dense columns, the rest with 2 entries */
            X[(i + 3 * j) % n + j * n] = as_rng_normal(5, 1, (uint64_t)(j * n + i)) * 0.1;
    s = check_to_csc(X, n, d);
    as_view_csc32(&A, n, d, s.p32, s.i32, s.x);
    as_common_init(&c);
    for (j = 0; j < d; j++) hand += j < 5 ? 0.5 * n * n : 0.5 * 2 * 3;
    CHECK(fabs(as_gram_madds(&A, d, NULL, &c) - hand) < 1e-9 * hand, "X X': %g multiply-adds, by hand %g",
          as_gram_madds(&A, d, NULL, &c), hand);
    CHECK(as_gram_madds(&A, 3, idx, &c) == 3 * 0.5 * n * n, "3 dense columns: %g", as_gram_madds(&A, 3, idx, &c));
    as_rand_options_init(&o);
    CHECK(o.estimate == AS_ESTIMATE_GAUSSIAN, "the default estimate is %d", o.estimate);
    o.seed = 5;
    o.error = 0;
    o.probabilities = AS_PROB_NORM;      /* the dense columns, drawn: they carry most of X X''s work */
    o.m = 4000;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK && isfinite(S.rel_estimate) && S.rel_estimate > 0 &&
          S.estimate == AS_ESTIMATE_GAUSSIAN && S.estimate_why == AS_WHY_MADE,
          "the default estimate is made: %g (%s): %s", S.rel_estimate, as_estimate_name(S.estimate), c.msg);
    as_result_free(&S, &c);
    o.estimate = AS_ESTIMATE_NONE;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK && isnan(S.rel_estimate) && S.estimate_why == AS_WHY_NOT_ASKED,
          "estimate none: %g: %s", S.rel_estimate, c.msg);
    as_result_free(&S, &c);
    o.estimate = AS_ESTIMATE_BOOTSTRAP;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK && isfinite(S.rel_estimate) && S.estimate == AS_ESTIMATE_BOOTSTRAP,
          "estimate bootstrap: %g (%s): %s", S.rel_estimate, as_estimate_name(S.estimate), c.msg);
    as_result_free(&S, &c);
    {
        as_metrics M;
        o.estimate = AS_ESTIMATE_GAUSSIAN;
        o.m = 0;
        o.probabilities = AS_PROB_NORM;
        o.rel = 0.02;
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "target mode: %s", c.msg);
        CHECK(as_attention_error(&A, S.k, S.index, S.weight, 0, &M, &c) == AS_OK, "%s", c.msg);
        CHECK(S.estimate == AS_ESTIMATE_GAUSSIAN && S.rel_estimate <= 0.02 && M.rel <= 0.02,
              "target mode: estimate %g (%s), exact %g (k = %lld, %d rounds)", S.rel_estimate,
              as_estimate_name(S.estimate), M.rel, (long long)S.k, S.rounds);
        as_result_free(&S, &c);
        o.rel = NAN;
    }
    /* Poisson sampling: the Gram of the columns kept for certain made once,
       the estimate that of whole resamples to rounding, the sample the same */
    {
        as_result S2;
        int64_t t, kc = 0;
        o.rel = NAN;
        o.m = 400;
        o.probabilities = AS_PROB_NORM;
        o.sampling = AS_SAMPLING_POISSON;
        o.estimate = AS_ESTIMATE_BOOTSTRAP;
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
        c.tune.estimate_split = 0;
        CHECK(as_rand(&A, &o, &S2, &c) == AS_OK, "%s", c.msg);
        c.tune.estimate_split = 1;
        for (t = 0; t < S.k; t++) kc += S.weight[t] == 1.0;
        CHECK(kc >= 5 && kc < S.k, "Poisson sample: %lld of %lld columns kept for certain", (long long)kc,
              (long long)S.k);
        CHECK(S.k == S2.k && memcmp(S.index, S2.index, 8 * (size_t)S.k) == 0 &&
              memcmp(S.weight, S2.weight, 8 * (size_t)S.k) == 0, "the estimate's split changes the sample");
        CHECK(S.rel_estimate > 0 && fabs(S.rel_estimate - S2.rel_estimate) <= 1e-12 * S2.rel_estimate &&
              fabs(S.inf_estimate - S2.inf_estimate) <= 1e-12 * S2.inf_estimate,
              "split estimate %.17g / %.17g, whole %.17g / %.17g", S.rel_estimate, S.inf_estimate,
              S2.rel_estimate, S2.inf_estimate);
        as_result_free(&S, &c);
        as_result_free(&S2, &c);
        o.sampling = AS_SAMPLING_IID;
    }
    free(X); free(s.p32); free(s.i32); free(s.p64); free(s.i64); free(s.x);
}

/* Target mode when the pilot meets the target with room to spare: the result
   is a subset of the pilot's columns, m at most the pilot's and at least the
   rank, its estimate within the target; heavy > 0 scales the first `heavy`
   columns by 60 and X back to max |X X'| = 0.5 (a few columns hold most of
   the mass, most kept columns certain). Returns how many seeds of 10 ended
   with fewer columns than the pilot. */
static int target_shrink_case(int heavy, int probabilities, double rel)
{
    as_common c;
    as_rand_options o;
    as_matrix A;
    as_result S, P;
    int n = 30, d = 6000, seed, fewer = 0;
    int64_t i, j, u;
    double *X = malloc(sizeof(double) * n * d);
    as_common_init(&c);
    CHECK(as_example(n, d, 0.5, 8, X, &c) == AS_OK, "%s", c.msg);
    if (heavy > 0) {
        double r = 0;
        for (j = 0; j < heavy; j++)
            for (i = 0; i < n; i++) X[i + j * n] *= 60;
        for (i = 0; i < n; i++)
            for (u = 0; u < n; u++) {
                double g = 0;
                for (j = 0; j < d; j++) g += X[i + j * n] * X[u + j * n];
                r = fmax(r, fabs(g));
            }
        for (j = 0; j < (int64_t)n * d; j++) X[j] *= sqrt(0.5 / r);
    }
    as_view_dense(&A, n, d, X, n);
    for (seed = 1; seed <= 10; seed++) {
        int64_t t, sub = 1;
        as_rand_options_init(&o);
        o.seed = (uint64_t)seed;
        o.error = 0;
        o.probabilities = probabilities;
        o.rel = rel;
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
        o.rel = NAN;
        o.m = 4 * S.rank;
        o.sampling = AS_SAMPLING_POISSON;
        CHECK(as_rand(&A, &o, &P, &c) == AS_OK, "%s", c.msg);
        for (t = 0, u = 0; t < S.k; t++) {
            while (u < P.k && P.index[u] < S.index[t]) u++;
            sub &= u < P.k && P.index[u] == S.index[t];
        }
        /* the pilot's estimate is the same number in target mode and here */
        CHECK(P.rel_estimate <= rel && S.m <= P.m && sub && S.rel_estimate <= rel && S.m >= S.rank &&
              S.estimate == AS_ESTIMATE_GAUSSIAN,
              "heavy %d seed %d: pilot m %lld k %lld estimate %g; target m %lld k %lld estimate %g, %d rounds, subset %d",
              heavy, seed, (long long)P.m, (long long)P.k, P.rel_estimate, (long long)S.m, (long long)S.k,
              S.rel_estimate, S.rounds, (int)sub);
        fewer += S.k < P.k;
        as_result_free(&S, &c);
        as_result_free(&P, &c);
    }
    free(X);
    return fewer;
}

/* Target mode below its pilot (a subset, predicted by the pilot's spread),
   on the example at a loose target and with a few heavy columns. */
static void test_target_shrink(void)
{
    int fewer = target_shrink_case(0, AS_PROB_LEVERAGE, 0.5);
    CHECK(fewer >= 5, "leverage: fewer columns than the pilot in %d of 10 seeds", fewer);
    fewer = target_shrink_case(40, AS_PROB_NORM, 0.1);
    CHECK(fewer >= 5, "heavy columns: fewer columns than the pilot in %d of 10 seeds", fewer);
}

/* Target mode with the exact error on a rank-one X (x_j = v_j u): every
   sample's Y Y' is a multiple of X X', so the error is the scale alone, which
   Poisson sampling leaves to chance and the calibration to X's total squared
   norm takes out. Its result meets a target of 1e-6 with at most the pilot's
   columns, and Y's squared norm is X's; the same call with the estimate alone
   (no calibration) keeps several times more. */
static void test_target_calibrate(void)
{
    int n = 20, d = 3000, seed;
    int64_t i, j, t, k_est = 0;
    double *X = malloc(sizeof(double) * n * d), *u = malloc(sizeof(double) * n), vv = 0, umax = 0, fro = 0;
    as_common c;
    as_rand_options o;
    as_matrix A;
    as_result S;
    as_metrics M;
    as_common_init(&c);
    for (i = 0; i < n; i++) {
        u[i] = as_rng_normal(21, 1, (uint64_t)i);
        umax = fmax(umax, u[i] * u[i]);
    }
    for (j = 0; j < d; j++) {
        double v = exp(as_rng_normal(22, 1, (uint64_t)j));
        for (i = 0; i < n; i++) X[i + j * n] = v * u[i];
        vv += v * v;
    }
    for (j = 0; j < (int64_t)n * d; j++) {
        X[j] /= sqrt(vv * umax);                 /* max (X X')_ii = 1 */
        fro += X[j] * X[j];
    }
    as_view_dense(&A, n, d, X, n);
    for (seed = 1; seed <= 5; seed++) {
        double ysq = 0;
        as_rand_options_init(&o);
        o.seed = (uint64_t)seed;
        o.rel = 1e-6;
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
        CHECK(as_attention_error(&A, S.k, S.index, S.weight, 0, &M, &c) == AS_OK, "%s", c.msg);
        for (t = 0; t < S.k; t++) {
            double x2 = 0;
            for (i = 0; i < n; i++) x2 += X[i + S.index[t] * n] * X[i + S.index[t] * n];
            ysq += S.weight[t] * S.weight[t] * x2;
        }
        CHECK(M.rel <= 1e-6 && S.k >= 1 && S.k <= AS_PILOT_FACTOR && fabs(ysq - fro) <= 1e-12 * fro,
              "seed %d: k = %lld, exact rel %g, |Y|^2 %.17g against |X|^2 %.17g", seed, (long long)S.k, M.rel,
              ysq, fro);
        as_result_free(&S, &c);
    }
    as_rand_options_init(&o);
    o.seed = 1;
    o.rel = 1e-6;
    o.error = 0;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
    k_est = S.k;
    as_result_free(&S, &c);
    CHECK(k_est > 4 * AS_PILOT_FACTOR, "the estimate alone keeps %lld columns", (long long)k_est);
    free(X);
    free(u);
}

/* Raking (as_calibrate_rows): the calibrated terms give every row of Y the
   squared norm of X's row, with positive factors, the same bits from a dense
   and a sparse X; none with fewer columns than rows, with a row no column
   touches, or with totals no positive combination of the columns reaches
   (two rows equal in every column, unequal in X). */
static void test_calibrate_rows(void)
{
    int n = 20, d = 300, k = 60, ok = 0, ok2 = 0;
    int64_t i, j, t, idx[60];
    double *X = malloc(sizeof(double) * n * d), rowsq[20], w[60], fac[60], fac2[60];
    check_csc s;
    as_matrix A, S;
    as_common c;
    as_common_init(&c);
    for (j = 0; j < (int64_t)n * d; j++) X[j] = as_rng_normal(31, 1, (uint64_t)j) * (j % 3 == 0 ? 0 : 1);
    for (i = 0; i < n; i++) {
        rowsq[i] = 0;
        for (j = 0; j < d; j++) rowsq[i] += X[i + j * n] * X[i + j * n];
    }
    for (t = 0; t < k; t++) {
        idx[t] = 5 * t;
        w[t] = sqrt((double)d / k) * (1 + 0.03 * as_rng_normal(32, 1, (uint64_t)t));
    }
    as_view_dense(&A, n, d, X, n);
    s = check_to_csc(X, n, d);
    as_view_csc32(&S, n, d, s.p32, s.i32, s.x);
    CHECK(as_calibrate_rows(&A, k, idx, w, rowsq, fac, &ok, &c) == AS_OK && ok, "raking: %s", c.msg);
    CHECK(as_calibrate_rows(&S, k, idx, w, rowsq, fac2, &ok2, &c) == AS_OK && ok2 &&
          memcmp(fac, fac2, sizeof fac) == 0, "raking: a sparse X gives other factors");
    for (i = 0; i < n; i++) {
        double h = 0;
        for (t = 0; t < k; t++) h += w[t] * w[t] * fac[t] * X[i + idx[t] * n] * X[i + idx[t] * n];
        CHECK(fabs(h - rowsq[i]) <= 1e-6 * rowsq[i], "row %lld: %.17g against %.17g", (long long)i, h, rowsq[i]);
    }
    for (t = 0; t < k; t++) CHECK(fac[t] > 0 && isfinite(fac[t]), "factor %lld: %g", (long long)t, fac[t]);
    /* fewer columns than rows */
    CHECK(as_calibrate_rows(&A, n - 1, idx, w, rowsq, fac, &ok, &c) == AS_OK && !ok, "raking with %d columns", n - 1);
    /* row 0 untouched by the sample's columns */
    for (t = 0; t < k; t++) X[idx[t] * n] = 0;
    CHECK(as_calibrate_rows(&A, k, idx, w, rowsq, fac, &ok, &c) == AS_OK && !ok, "raking with row 0 uncovered");
    /* rows 0 and 1 alike in every column of the sample, their totals not */
    for (t = 0; t < k; t++) X[idx[t] * n] = X[1 + idx[t] * n];
    rowsq[0] = 2 * rowsq[1];
    CHECK(as_calibrate_rows(&A, k, idx, w, rowsq, fac, &ok, &c) == AS_OK && !ok, "raking beyond the columns' cone");
    free(X);
    free(s.p32); free(s.i32); free(s.p64); free(s.i64); free(s.x);
}

int main(void)
{
    test_estimate_auto();
    test_target_shrink();
    test_target_calibrate();
    test_calibrate_rows();
    return check_report("test_target");
}
