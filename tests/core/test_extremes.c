/* test_extremes.c: numerical extremes: entries near 1e+-150 (scale invariance), past them (a clear refusal), duplicate and zero columns, rank deficiency, n = 1, d < n, X = 0; an absurd thread count. */
#include "as_internal.h"
#include "check.h"
#include "det.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include <float.h>
#include <string.h>

/* n x d Gaussian times scale; rows beyond `rank` repeat the first ones. */
static double *gauss(int64_t n, int64_t d, int64_t rank, double scale, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) X[i + j * n] = scale * as_rng_normal(seed, 3, (uint64_t)(j * n + i % rank));
    return X;
}

static double *scaled(const double *X, int64_t len, double s)
{
    double *Y = malloc(sizeof(double) * (size_t)len);
    int64_t t;
    for (t = 0; t < len; t++) Y[t] = X[t] * s;
    return Y;
}

static int same_sample(const as_result *a, const as_result *b, double tol)
{
    int64_t t;
    if (a->k != b->k || memcmp(a->index, b->index, sizeof(int64_t) * (size_t)a->k) != 0) return 0;
    for (t = 0; t < a->k; t++)
        if (fabs(a->weight[t] - b->weight[t]) > tol * fabs(a->weight[t])) return 0;
    return 1;
}

/* The spectral error of Y = X(:, index) diag(weight) against X, through the core's metrics. */
static double spectral(const as_matrix *X, const as_result *S)
{
    as_common c;
    as_metrics M;
    as_common_init(&c);
    if (as_attention_error(X, S->k, S->index, S->weight, 1, &M, &c) != AS_OK) return NAN;
    return M.eps_spectral;
}

/* Weights and columns do not depend on the scale of X (Y scales with X), for
   entries near 1e-150 and 1e+150, in every storage, for every probability and
   for the deterministic algorithm. */
static void test_scale_invariance(void)
{
    const double scales[2] = {1e-150, 1e150};
    double *X = gauss(6, 500, 6, 1.0, 1);
    int si, kind, prob;
    as_common c;
    as_common_init(&c);
    for (si = 0; si < 2; si++) {
        double *Xs = scaled(X, 6 * 500, scales[si]);
        check_views V1, Vs;
        check_views_make(&V1, 6, 500, X);
        check_views_make(&Vs, 6, 500, Xs);
        for (kind = 0; kind < 3; kind++) {
            const as_matrix *A1 = kind == 0 ? &V1.D : kind == 1 ? &V1.S32 : &V1.S64;
            const as_matrix *As = kind == 0 ? &Vs.D : kind == 1 ? &Vs.S32 : &Vs.S64;
            as_result S1, Ss;
            as_det_options d;
            for (prob = 0; prob < 4; prob++) {   /* approx, exact, norm, uniform */
                as_rand_options o;
                int st1, sts;
                as_rand_options_init(&o);
                o.seed = 11;
                o.s1 = 100;
                o.leverage = prob == 1 ? AS_LEV_EXACT : AS_LEV_APPROX;
                o.probabilities = prob == 2 ? AS_PROB_NORM : prob == 3 ? AS_PROB_UNIFORM : AS_PROB_LEVERAGE;
                st1 = as_rand(A1, &o, &S1, &c);
                sts = as_rand(As, &o, &Ss, &c);
                CHECK(st1 == AS_OK && sts == AS_OK && Ss.rank == 6 && same_sample(&S1, &Ss, 1e-9),
                      "rand scale %g kind %d prob %d: status %d (%s), rank %lld, same sample %d", scales[si],
                      kind, prob, sts, c.msg, (long long)Ss.rank, same_sample(&S1, &Ss, 1e-9));
                as_result_free(&S1, &c);
                as_result_free(&Ss, &c);
            }
            as_det_options_init(&d);
            d.leaf = 40;
            CHECK(as_det(A1, &d, &S1, &c) == AS_OK && as_det(As, &d, &Ss, &c) == AS_OK &&
                  same_sample(&S1, &Ss, 1e-8) && spectral(As, &Ss) <= Ss.eps_bound + 1e-9,
                  "det scale %g kind %d: %s; eps %g (bound %g)", scales[si], kind, c.msg,
                  spectral(As, &Ss), Ss.eps_bound);
            as_result_free(&S1, &c);
            as_result_free(&Ss, &c);
        }
        check_views_free(&V1);
        check_views_free(&Vs);
        free(Xs);
    }
    free(X);
}

/* Past the representable squares: a refusal that says why, never NaN weights
   or an empty "exact" answer. */
static void test_beyond_range(void)
{
    double *X = gauss(5, 200, 5, 1.0, 2), *Xbig = scaled(X, 1000, 1e160), *Xtiny = scaled(X, 1000, 1e-160),
           *Xsub = scaled(X, 1000, 1e-310);
    as_matrix A, B, T, U;
    as_common c;
    as_result S, R;
    as_rand_options o;
    as_det_options d;
    as_metrics M;
    int64_t t;
    as_common_init(&c);
    as_view_dense(&A, 5, 200, X, 5);
    as_view_dense(&B, 5, 200, Xbig, 5);
    as_view_dense(&T, 5, 200, Xtiny, 5);
    as_view_dense(&U, 5, 200, Xsub, 5);
    as_det_options_init(&d);
    CHECK(as_det(&B, &d, &S, &c) == AS_ERR_INPUT && strstr(c.msg, "X X' overflows") && S.index == NULL,
          "det, entries 1e160: %s", c.msg);
    CHECK(as_det(&T, &d, &S, &c) == AS_ERR_INPUT && strstr(c.msg, "X X' underflows") && S.index == NULL,
          "det, entries 1e-160: %s", c.msg);
    as_rand_options_init(&o);
    o.seed = 3;
    o.error = 0;   /* the metrics would need X X', which overflows (checked next) */
    CHECK(as_rand(&B, &o, &S, &c) == AS_OK, "rand, entries 1e160 (scores do not square X): %s", c.msg);
    CHECK(as_attention_error(&B, S.k, S.index, S.weight, 0, &M, &c) == AS_ERR_INPUT &&
          strstr(c.msg, "X X' overflows"), "metrics, entries 1e160: %s", c.msg);
    as_result_free(&S, &c);
    /* norm probabilities: squares that overflow (1e160) or underflow (1e-160) are rescued */
    o.probabilities = AS_PROB_NORM;
    CHECK(as_rand(&A, &o, &R, &c) == AS_OK, "%s", c.msg);
    CHECK(as_rand(&B, &o, &S, &c) == AS_OK && same_sample(&R, &S, 1e-12), "norm, entries 1e160: %s", c.msg);
    as_result_free(&S, &c);
    CHECK(as_rand(&T, &o, &S, &c) == AS_OK && same_sample(&R, &S, 1e-12), "norm, entries 1e-160: %s", c.msg);
    as_result_free(&S, &c);
    as_result_free(&R, &c);
    /* subnormal entries: leverage scores either finite or refused */
    o.probabilities = AS_PROB_LEVERAGE;
    o.leverage = AS_LEV_EXACT;
    t = as_rand(&U, &o, &S, &c);
    if (t == AS_OK) {
        int64_t q, ok = S.k > 0;
        for (q = 0; q < S.k; q++) ok &= isfinite(S.weight[q]) && S.weight[q] > 0;
        CHECK(ok, "subnormal entries: %lld columns with finite weights", (long long)S.k);
    } else {
        CHECK(t == AS_ERR_INPUT && strstr(c.msg, "not finite"), "subnormal entries: %s", c.msg);
    }
    as_result_free(&S, &c);
    free(X); free(Xbig); free(Xtiny); free(Xsub);
}

/* Duplicate and zero columns, exact rank deficiency, n = 1, d < n, X = 0. */
static void test_shapes(void)
{
    int64_t n = 6, d = 300, j, i, t;
    double *X0 = gauss(n, d / 3, n, 1.0, 5), *X = calloc((size_t)(n * d), sizeof(double)),
           *lev = malloc(sizeof(double) * (size_t)d), *Xr = gauss(n, 200, 3, 1.0, 6),
           *X1 = gauss(1, 50, 1, 1.0, 7), *Xw = gauss(8, 5, 8, 1.0, 8), *Z = calloc(40, sizeof(double));
    as_matrix A, R, O, W, E;
    as_common c;
    as_rand_options o;
    as_det_options dopt;
    as_result S;
    int64_t rank, zero_picked = 0;
    as_common_init(&c);
    /* columns 3t and 3t+1 equal, 3t+2 zero */
    for (j = 0; j < d / 3; j++)
        for (i = 0; i < n; i++) X[i + 3 * j * n] = X[i + (3 * j + 1) * n] = X0[i + j * n];
    as_view_dense(&A, n, d, X, n);
    as_rand_options_init(&o);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_leverage(&A, &o, lev, &rank, &c) == AS_OK && rank == n, "%s", c.msg);
    for (j = 0, t = 0; j < d / 3; j++)
        t += fabs(lev[3 * j] - lev[3 * j + 1]) > 1e-12 || lev[3 * j + 2] != 0;
    CHECK(t == 0, "duplicate columns share a score, zero columns score 0 (%lld bad)", (long long)t);
    o.leverage = AS_LEV_APPROX;
    o.seed = 9;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
    for (t = 0; t < S.k; t++) zero_picked += S.index[t] % 3 == 2;
    CHECK(zero_picked == 0 && spectral(&A, &S) < 1, "rand: %lld zero columns picked", (long long)zero_picked);
    as_result_free(&S, &c);
    as_det_options_init(&dopt);
    CHECK(as_det(&A, &dopt, &S, &c) == AS_OK, "%s", c.msg);
    for (t = 0, zero_picked = 0; t < S.k; t++) zero_picked += S.index[t] % 3 == 2;
    CHECK(zero_picked == 0 && spectral(&A, &S) <= S.eps_bound + 1e-9, "det: %lld zero columns picked, eps %g",
          (long long)zero_picked, spectral(&A, &S));
    as_result_free(&S, &c);

    /* rows 4..6 repeat rows 1..3: rank 3 exactly */
    as_view_dense(&R, n, 200, Xr, n);
    CHECK(as_rand(&R, &o, &S, &c) == AS_OK && S.rank == 3 && spectral(&R, &S) < 1, "rank-deficient rand: rank %lld",
          (long long)S.rank);
    as_result_free(&S, &c);
    CHECK(as_det(&R, &dopt, &S, &c) == AS_OK && S.rank == 3 && spectral(&R, &S) <= S.eps_bound + 1e-9 &&
          S.k <= (int64_t)ceil(S.m), "rank-deficient det: rank %lld, k %lld", (long long)S.rank, (long long)S.k);
    as_result_free(&S, &c);

    /* n = 1 */
    as_view_dense(&O, 1, 50, X1, 1);
    CHECK(as_rand(&O, &o, &S, &c) == AS_OK && S.rank == 1 && S.k >= 1 && spectral(&O, &S) < 1, "n = 1 rand: %s", c.msg);
    as_result_free(&S, &c);
    CHECK(as_det(&O, &dopt, &S, &c) == AS_OK && S.rank == 1 && spectral(&O, &S) <= S.eps_bound + 1e-9,
          "n = 1 det: %s", c.msg);
    as_result_free(&S, &c);

    /* d < n: rank d, every column's exact score 1 */
    as_view_dense(&W, 8, 5, Xw, 8);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_leverage(&W, &o, lev, &rank, &c) == AS_OK && rank == 5, "d < n: rank %lld", (long long)rank);
    for (j = 0, t = 0; j < 5; j++) t += fabs(lev[j] - 1) > 1e-10;
    CHECK(t == 0, "d < n: every score 1");
    CHECK(as_det(&W, &dopt, &S, &c) == AS_OK && S.rank == 5 && spectral(&W, &S) <= S.eps_bound + 1e-9,
          "d < n det: %s", c.msg);
    as_result_free(&S, &c);

    /* X = 0: the empty Y is exact */
    as_view_dense(&E, 4, 10, Z, 4);
    CHECK(as_rand(&E, &o, &S, &c) == AS_OK && S.k == 0 && S.rank == 0, "X = 0 rand: k %lld", (long long)S.k);
    as_result_free(&S, &c);
    CHECK(as_det(&E, &dopt, &S, &c) == AS_OK && S.k == 0 && S.rank == 0, "X = 0 det: k %lld", (long long)S.k);
    as_result_free(&S, &c);
    free(X0); free(X); free(lev); free(Xr); free(X1); free(Xw); free(Z);
}

/* An absurd thread count is capped (OpenMP would exhaust the stack or abort),
   and the result does not depend on it: as_rand, then as_det. */
static void test_thread_cap(void)
{
    double *X = gauss(6, 3000, 6, 1.0, 9);
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_det_options d;
    as_result S[2];
    int alg, t;
    as_common_init(&c);
    as_view_dense(&A, 6, 3000, X, 6);
    as_rand_options_init(&o);
    o.seed = 2;
    as_det_options_init(&d);
    for (alg = 0; alg < 2; alg++) {
        for (t = 0; t < 2; t++) {
            c.nthreads = t ? 100000 : 1;
            CHECK((alg ? as_det(&A, &d, &S[t], &c) : as_rand(&A, &o, &S[t], &c)) == AS_OK,
                  "alg %d, %d threads asked: %s", alg, c.nthreads, c.msg);
        }
        CHECK(same_sample(&S[0], &S[1], 0), "alg %d: 100000 threads asked, another sample", alg);
        as_result_free(&S[0], &c);
        as_result_free(&S[1], &c);
    }
    free(X);
}

/* An empty sample is Y = 0 (uniform attention) whatever its index pointer:
   its rel is the baseline, never the 0 of "all columns". A delta whose JL
   width ceil(8 log(d / delta)) is infinite is refused, not cast to int64_t. */
static void test_empty_sample_and_tiny_delta(void)
{
    double *X = gauss(4, 5000, 4, 1.0, 3);
    as_matrix A;
    as_metrics M, M0;
    as_rand_options o;
    as_result S;
    as_common c;
    int64_t idx0 = 0;
    as_common_init(&c);
    as_view_dense(&A, 4, 5000, X, 4);
    CHECK(as_attention_error(&A, 0, NULL, NULL, 0, &M, &c) == AS_OK, "%s", c.msg);
    CHECK(as_attention_error(&A, 0, &idx0, NULL, 0, &M0, &c) == AS_OK, "%s", c.msg);
    CHECK(M.rel > 0.1 && M.rel == M.baseline && M.rel == M0.rel && M.inf == M0.inf,
          "empty sample: rel %g, baseline %g, with an index pointer %g", M.rel, M.baseline, M0.rel);
    CHECK(as_attention_error(&A, 3, NULL, NULL, 0, &M, &c) == AS_ERR_ARG, "k = 3 without index: %d", c.status);
    as_rand_options_init(&o);
    o.delta = 5e-324;
    o.m = 500;
    o.seed = 1;
    CHECK(as_rand(&A, &o, &S, &c) == AS_ERR_TOOBIG && strstr(c.msg, "'delta'") != NULL &&
          strstr(c.msg, "= inf columns") != NULL && S.k == 0, "delta 5e-324: %s", c.msg);
    o.delta = 1e-300;   /* finite width (about 5600, above the rank: exact scores): accepted */
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK && S.k > 0 && S.m == 500, "delta 1e-300: %s, m %lld",
          c.msg, (long long)S.m);
    as_result_free(&S, &c);
    free(X);
}

static double b_of_eps(double eps)
{
    double s = (1.0 + sqrt(1.0 - eps * eps)) / eps;
    return s * s;
}

/* A constant X with entries 1e153 (n = 100, d = 50): every entry of X X' is
   finite (5e307) but its largest eigenvalue (5e309) is not. The deterministic
   algorithm must say so, not return k = 0 with a zero error; scaled down by
   1e150 the same X gives its one column. */
static void test_eigen_overflow(void)
{
    int64_t n = 100, d = 50, e;
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    as_common c;
    as_matrix A;
    as_result S;
    as_det_options o;
    int st;
    as_common_init(&c);
    as_det_options_init(&o);
    for (e = 0; e < n * d; e++) X[e] = 1e153;
    as_view_dense(&A, n, d, X, n);
    st = as_det(&A, &o, &S, &c);
    CHECK(st == AS_ERR_TOOBIG && strstr(c.msg, "overflows") != NULL && S.k == 0 && S.index == NULL,
          "det of 1e153 * ones(100, 50): status %d (%s), k %lld", st, c.msg, (long long)S.k);
    for (e = 0; e < n * d; e++) X[e] = 1e3;
    st = as_det(&A, &o, &S, &c);
    CHECK(st == AS_OK && S.rank == 1 && S.k >= 1 && S.k <= (int64_t)ceil(b_of_eps(0.5)),
          "det of 1e3 * ones(100, 50): status %d (%s), rank %lld, k %lld", st, c.msg,
          (long long)S.rank, (long long)S.k);
    as_result_free(&S, &c);
    free(X);
}

int main(void)
{
    test_empty_sample_and_tiny_delta();
    test_scale_invariance();
    test_beyond_range();
    test_shapes();
    test_thread_cap();
    test_eigen_overflow();
    return check_report("test_extremes");
}
