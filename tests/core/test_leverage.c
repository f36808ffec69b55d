/* test_leverage.c: leverage scores against an eigendecomposition (exact and sketched), and the default m's beta against the scores it bounds. */
#include "as_internal.h"
#include "check.h"
#include "leverage.h"
#include "rand.h"

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

int main(void)
{
    test_leverage();
    test_default_beta();
    return check_report("test_leverage");
}
