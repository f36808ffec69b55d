/* test_core.c: the core's randomized path, views, validation, metrics, hooks and failure paths (the target mode's choices: test_target.c). */
#include "as_internal.h"   /* as_syev for the reference */
#include "check.h"
#include "leverage.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include <string.h>

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

static void test_validation(void)
{
    as_common c;
    as_matrix A;
    int32_t p[4] = {0, 2, 1, 3}, i[3] = {0, 1, 0}, pbad0[4] = {1, 2, 3, 3}, ibad[3] = {0, 5, 0}, iuns[3] = {1, 0, 0};
    int32_t pok[4] = {0, 2, 2, 3};
    double x[3] = {1, 2, 3}, xnan[3] = {1, NAN, 3}, dense[6] = {1, 2, 3, INFINITY, 5, 6};
    as_common_init(&c);
    as_view_csc32(&A, 2, 3, p, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "decrease"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pbad0, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "start at 0"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, ibad, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "column 1"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, iuns, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "strictly increasing"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, i, xnan);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "NaN"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_OK, "valid CSC accepted: %s", c.msg);
    as_view_dense(&A, 2, 3, dense, 2);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "column 2"), "%s", c.msg);
    as_view_dense(&A, 0, 3, dense, 1);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "empty"), "%s", c.msg);
    as_view_dense(&A, 3, 2, dense, 2);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "leading dimension"), "%s", c.msg);
    {
        as_rand_options o;
        as_rand_options_init(&o);
        o.eps = 1; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'eps'"), "%s", c.msg);
        o.eps = 0.5; o.delta = 0; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'delta'"), "%s", c.msg);
        o.delta = 0.1; o.m = -3; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'m'"), "%s", c.msg);
        o.m = 0; o.seed = 1ULL << 60; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'seed'"), "%s", c.msg);
        o.seed = 0; o.jl = 7; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'jl'"), "%s", c.msg);
        o.jl = 0; o.sampling = 2; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'sampling'"), "%s", c.msg);
        o.sampling = 1; o.rel = 0; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel'"), "%s", c.msg);
        o.rel = 1; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel'"), "%s", c.msg);
        o.rel = 0.1; o.m = 5; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel' and 'm'"), "%s", c.msg);
        o.m = 0; CHECK(as_rand_options_check(&o, &c) == AS_OK, "%s", c.msg);
        /* target mode: Poisson only; eps given keeps the spectral guarantee,
           which norm and uniform probabilities do not carry */
        o.sampling = AS_SAMPLING_IID;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'sampling' = \"iid\""), "%s", c.msg);
        o.sampling = -1; o.probabilities = AS_PROB_NORM;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'eps' with 'rel'") && strstr(c.msg, "norm"),
              "%s", c.msg);
        o.probabilities = AS_PROB_UNIFORM;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "uniform"), "%s", c.msg);
        o.eps = NAN; CHECK(as_rand_options_check(&o, &c) == AS_OK, "norm probabilities without eps: %s", c.msg);
        o.probabilities = AS_PROB_AUTO;
        CHECK(isnan(as_rand_eps(&o)) && as_rand_sampling(&o) == AS_SAMPLING_POISSON, "target mode's eps %g, sampling %d",
              as_rand_eps(&o), as_rand_sampling(&o));
        o.rel = NAN;
        CHECK(as_rand_eps(&o) == AS_EPS_DEFAULT && as_rand_sampling(&o) == AS_SAMPLING_IID, "default eps %g, sampling %d",
              as_rand_eps(&o), as_rand_sampling(&o));
        as_rand_options_init(&o);
        CHECK(isnan(o.eps) && o.sampling == -1, "init: eps %g, sampling %d", o.eps, o.sampling);
        o.probabilities = 5; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'probabilities'"), "%s", c.msg);
    }
}

/* Gram: dense (dsyrk), CSC32 and CSC64 (outer products) and a triple loop agree. */
static void test_gram_and_views(void)
{
    int n = 17, d = 900, a, b, j;
    double *X = check_random_matrix(n, d, 0.2, 5), *G0 = calloc(n * n, 8), *G1 = malloc(n * n * 8),
           *G2 = malloc(n * n * 8), *G3 = malloc(n * n * 8), err = 0;
    check_csc s = check_to_csc(X, n, d);
    as_matrix D, S32, S64;
    as_common c;
    as_common_init(&c);
    as_view_dense(&D, n, d, X, n);
    as_view_csc32(&S32, n, d, s.p32, s.i32, s.x);
    as_view_csc64(&S64, n, d, s.p64, s.i64, s.x);
    for (j = 0; j < d; j++) for (a = 0; a < n; a++) for (b = 0; b < n; b++) G0[a + b * n] += X[a + j * n] * X[b + j * n];
    as_gram(&D, -1, NULL, NULL, G1, &c);
    as_gram(&S32, -1, NULL, NULL, G2, &c);
    as_gram(&S64, -1, NULL, NULL, G3, &c);
    for (a = 0; a < n * n; a++) err = fmax(err, fmax(fabs(G1[a] - G0[a]), fabs(G2[a] - G0[a])));
    CHECK(err < 1e-12, "gram dense/CSC vs loop: %g", err);
    CHECK(memcmp(G2, G3, n * n * 8) == 0, "CSC32 and CSC64 grams identical");
    {
        as_rand_options o;
        as_result r32, r64, r1;
        as_rand_options_init(&o);
        o.seed = 77;
        CHECK(as_rand(&S32, &o, &r32, &c) == AS_OK, "%s", c.msg);
        CHECK(as_rand(&S64, &o, &r64, &c) == AS_OK, "%s", c.msg);
        c.nthreads = 1;
        CHECK(as_rand(&S32, &o, &r1, &c) == AS_OK, "%s", c.msg);
        c.nthreads = 0;
        CHECK(r32.k == r64.k && memcmp(r32.index, r64.index, 8 * r32.k) == 0 &&
              memcmp(r32.weight, r64.weight, 8 * r32.k) == 0, "CSC32 and CSC64 give the same sample");
        CHECK(r32.k == r1.k && memcmp(r32.index, r1.index, 8 * r32.k) == 0 &&
              memcmp(r32.weight, r1.weight, 8 * r32.k) == 0, "1 thread and all threads give the same sample");
        for (j = 1; j < r32.k; j++) if (r32.index[j] <= r32.index[j - 1]) break;
        CHECK(j >= r32.k, "indices strictly increasing");
        {   /* Y's selection in both widths matches X */
            int64_t nz = as_select_nnz(&S32, r32.k, r32.index), t, bad = 0;
            int32_t *yp = malloc(4 * (r32.k + 1)), *yi = malloc(4 * nz);
            double *yx = malloc(8 * nz), *yd = malloc(8 * n * r32.k);
            as_select_csc32(&S32, r32.k, r32.index, r32.weight, yp, yi, yx, &c);
            as_select_dense(&D, r32.k, r32.index, r32.weight, yd, &c);
            for (t = 0; t < r32.k; t++) {
                int64_t q;
                for (q = yp[t]; q < yp[t + 1]; q++) bad += yd[yi[q] + t * n] != yx[q];
                for (a = 0; a < n; a++) bad += yd[a + t * n] != r32.weight[t] * X[a + r32.index[t] * n];
            }
            CHECK(bad == 0 && yp[r32.k] == nz, "Y = X(:, index) * weight (dense and CSC)");
            free(yp); free(yi); free(yx); free(yd);
        }
        as_result_free(&r32, &c); as_result_free(&r64, &c); as_result_free(&r1, &c);
    }
    check_csc_free(&s); free(X); free(G0); free(G1); free(G2); free(G3);
}

/* Exact leverage scores equal x_j' G^+ x_j from an eigendecomposition (rank-deficient X). */
static void test_leverage(void)
{
    int n = 12, d = 400, j, a;
    double *X0 = check_random_matrix(8, d, 1.0, 3), *X = malloc(sizeof(double) * n * d), *lev = malloc(8 * d),
           *app = malloc(8 * d), *G = malloc(8 * n * n), lo = 1e9, hi = 0, err = 0, sum = 0;
    int64_t rank;
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_common_init(&c);
    for (j = 0; j < d; j++) for (a = 0; a < n; a++) X[a + j * n] = X0[(a % 8) + j * 8];   /* rank 8 */
    as_view_dense(&A, n, d, X, n);
    as_rand_options_init(&o);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_leverage(&A, &o, lev, &rank, &c) == AS_OK && rank == 8, "rank %lld: %s", (long long)rank, c.msg);
    {   /* reference through the 8 x 8 Gram of the distinct rows: tau_j = z' (Z Z')^-1 z */
        as_matrix B;
        double *lam = malloc(8 * 8), *V = malloc(8 * 64), *w = malloc(8 * 8);
        as_view_dense(&B, 8, d, X0, 8);
        as_gram(&B, -1, NULL, NULL, G, &c);
        as_syev(8, G, lam, V, &c);   /* no hand-written inverse */
        for (j = 0; j < d; j++) {
            double t = 0;
            int q, r;
            for (q = 0; q < 8; q++) { w[q] = 0; for (r = 0; r < 8; r++) w[q] += V[r + q * 8] * X0[r + j * 8]; }
            for (q = 0; q < 8; q++) t += w[q] * w[q] / lam[q];
            err = fmax(err, fabs(t - lev[j]));
            sum += lev[j];
        }
        free(lam); free(V); free(w);
    }
    CHECK(err < 1e-10, "exact leverage vs eigen: %g", err);
    CHECK(fabs(sum - 8) < 1e-9, "scores sum to the rank: %g", sum);
    o.leverage = AS_LEV_APPROX;
    o.s1 = 100;   /* force the sketch (d > s1) */
    CHECK(as_leverage(&A, &o, app, &rank, &c) == AS_OK && rank == 8, "approx rank %lld", (long long)rank);
    for (j = 0; j < d; j++) { lo = fmin(lo, app[j] / lev[j]); hi = fmax(hi, app[j] / lev[j]); }
    CHECK(lo > 1.0 / 3 && hi < 3, "approx/exact in [%g, %g]", lo, hi);
    free(X0); free(X); free(lev); free(app); free(G);
}

/* The default m's beta: its tail factors solve (k/2)(t - 1 - log t) = log(4 d / delta), and every
   approximate probability is at least tau_j / (beta r) on a matrix with uneven scores and a JL
   step (s2 < rank), on every one of 20 seeds; the default m is the Chernoff formula at that beta. */
static void test_default_beta(void)
{
    int n = 40, d = 2000, j, seed, ok = 0;
    double *X = check_random_matrix(n, d, 1.0, 31), *tau = malloc(8 * d), *sig = malloc(8 * d);
    double x = log(4.0 * d / 0.01), b = as_sketch_beta(176, 0, d, 0.01), ab = as_sketch_beta(0, 30, d, 0.01);
    int64_t rank;
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_result S;
    as_common_init(&c);
    CHECK(fabs(88.0 * (b - 1 - log(b)) - x) < 1e-9 * x && b > 1, "embedding factor b = %g", b);
    CHECK(fabs(15.0 * (1 / ab - 1 + log(ab)) - x) < 1e-9 * x && ab > 1, "JL factor 1/a = %g", ab);
    CHECK(as_sketch_beta(0, 0, d, 0.01) == 1, "no sketch: b / a = 1");
    for (j = 0; j < d; j += 50) { int a; for (a = 0; a < n; a++) X[a + j * n] *= 8; }   /* uneven scores */
    as_view_dense(&A, n, d, X, n);
    as_rand_options_init(&o);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_leverage(&A, &o, tau, &rank, &c) == AS_OK && rank == n, "exact scores: %s", c.msg);
    o.leverage = AS_LEV_APPROX;
    o.s2 = 30;
    o.m = 1;
    o.error = o.estimate = 0;
    for (seed = 1; seed <= 20; seed++) {
        double sum = 0, worst = INFINITY;
        o.seed = (uint64_t)seed;
        CHECK(as_leverage(&A, &o, sig, &rank, &c) == AS_OK, "approx scores: %s", c.msg);
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK && S.s2 == 30, "as_rand: %s", c.msg);
        for (j = 0; j < d; j++) sum += sig[j];
        CHECK(fabs(S.beta - as_sketch_beta(S.s1, 30, d, 0.01) * sum / n) < 1e-12 * S.beta, "beta %g", S.beta);
        for (j = 0; j < d; j++) worst = fmin(worst, sig[j] / sum * n / tau[j]);
        ok += worst >= 1 / S.beta;
        as_result_free(&S, &c);
    }
    CHECK(ok == 20, "min_j p_j r / tau_j >= 1 / beta on %d of 20 seeds", ok);
    o.m = 0;
    o.eps = 0.4;
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK &&
          S.m == (int64_t)as_default_m(n, 0.4, 0.005, S.beta), "default m %lld", (long long)S.m);
    as_result_free(&S, &c);
    free(X); free(tau); free(sig);
}

static void test_metrics(void)
{
    int n = 6, d = 50, t;
    double *X = check_random_matrix(n, d, 1.0, 8), *G = malloc(8 * n * n), *Z = calloc(n * n, 8), *Att = malloc(8 * n * n);
    as_matrix A;
    as_common c;
    as_metrics M;
    double rowsum = 0;
    as_common_init(&c);
    as_view_dense(&A, n, d, X, n);
    as_gram(&A, -1, NULL, NULL, G, &c);
    as_compare_gram(n, G, G, 1, &M, &c);
    CHECK(M.inf == 0 && M.rel == 0 && fabs(M.eps_spectral) < 1e-12, "Y = X: errors 0 (eps %g)", M.eps_spectral);
    as_compare_gram(n, G, Z, 0, &M, &c);
    CHECK(M.rel == M.baseline && isnan(M.eps_spectral), "Y = 0: rel equals the baseline");
    as_softmax(n, G, Att);
    for (t = 0; t < n; t++) rowsum += Att[t * n];   /* first row */
    CHECK(fabs(rowsum - 1) < 1e-14, "softmax rows sum to 1: %g", rowsum);
    for (t = 0; t < n * n; t++) G[t] *= 1e6;         /* huge logits: no overflow */
    as_softmax(n, G, Att);
    CHECK(isfinite(Att[0]) && Att[0] > 0.99, "large logits stay finite: %g", Att[0]);
    free(X); free(G); free(Z); free(Att);
}

/* The spectral eps by Cholesky (G clearly positive definite) against the
   whitening's eigenvectors: full rank agrees to rounding; rank-deficient and
   nearly singular G go to the whitening (the same bits). */
static void test_spectral_routes(void)
{
    int n = 30, d = 400, kind, t;
    for (kind = 0; kind < 3; kind++) {
        double *X = check_random_matrix(n, d, 1.0, 40 + kind), *G = malloc(8 * n * n), *H = malloc(8 * n * n), *w;
        int64_t idx[120];
        double e_chol, e_white;
        as_matrix A;
        as_common c;
        as_metrics M;
        int64_t j, a;
        /* kind 1: rows 20.. repeat rows 0..; kind 2: and a 1e-9 perturbation */
        for (j = 0; kind > 0 && j < d; j++)
            for (a = 20; a < n; a++)
                X[a + j * n] = X[a - 20 + j * n] + (kind == 2 ? 1e-9 * X[a + j * n] : 0.0);
        w = malloc(8 * 120);
        for (t = 0; t < 120; t++) { idx[t] = 3 * t + 1; w[t] = 1.5 + 0.01 * t; }
        as_common_init(&c);
        as_view_dense(&A, n, d, X, n);
        CHECK(as_gram(&A, -1, NULL, NULL, G, &c) == AS_OK && as_gram(&A, 120, idx, w, H, &c) == AS_OK, "%s", c.msg);
        as_compare_gram(n, G, H, 1, &M, &c);
        e_chol = M.eps_spectral;
        c.tune.spectral_chol = 0;
        as_compare_gram(n, G, H, 1, &M, &c);
        c.tune.spectral_chol = 1;
        e_white = M.eps_spectral;
        CHECK(c.status == AS_OK && isfinite(e_chol) && e_chol > 0.1,
              "spectral routes, kind %d: eps %g (a sample of 120 of 400 columns)", kind, e_chol);
        if (kind == 0)
            CHECK(fabs(e_chol - e_white) <= 1e-10 * fmax(1.0, e_white),
                  "full rank: Cholesky eps %.17g, whitening eps %.17g", e_chol, e_white);
        else
            CHECK(e_chol == e_white, "kind %d: the Cholesky route taken (eps %.17g vs the whitening's %.17g)",
                  kind, e_chol, e_white);
        free(X); free(G); free(H); free(w);
    }
}

/* as_rand then its metrics, as the front-ends run them, for check_every_failure. */
static int run_rand_and_error(void *arg, as_common *c)
{
    const as_matrix *A = arg;
    as_rand_options o;
    as_result S;
    as_metrics M;
    int st;
    as_rand_options_init(&o);
    o.s1 = 60;
    st = as_rand(A, &o, &S, c);
    if (st == AS_OK) st = as_attention_error(A, S.k, S.index, S.weight, 1, &M, c);
    as_result_free(&S, c);
    return st;
}

/* Every allocation failing in turn ends in AS_ERR_NOMEM, every interrupt poll in
   AS_ERR_INTERRUPT, with nothing leaked (more entry points: test_nomem.c). */
static void test_failures(void)
{
    int n = 10, d = 3000;
    double *X = check_random_matrix(n, d, 0.3, 4);
    check_csc s = check_to_csc(X, n, d);
    as_matrix A;
    as_view_csc32(&A, n, d, s.p32, s.i32, s.x);
    CHECK(check_every_failure("rand + error, CSC32", run_rand_and_error, &A) > 10, "allocations exercised");
    check_csc_free(&s); free(X);
}

int main(void)
{
    test_rng();
    test_validation();
    test_gram_and_views();
    test_leverage();
    test_default_beta();
    test_metrics();
    test_spectral_routes();
    test_failures();
    return check_report("test_core");
}
