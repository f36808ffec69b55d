/* test_nnls.c: the nonnegative least-squares solver on its own (as_nnls_solve): the KKT conditions of its answer and its objective against a brute force over every support, on small random problems, rank-deficient ones included, with and without banned unknowns. */
#include "nnls.h"
#include "check.h"
#include "rng.h"

#define KMAX 8

/* Solve the p x p system M v = r (M overwritten) by Gaussian elimination with
   partial pivoting; 0 when a pivot is below tiny (a dependent support). */
static int solve_small(int64_t p, double *M, double *r, double tiny)
{
    int64_t i, j, l;
    for (j = 0; j < p; j++) {
        int64_t piv = j;
        for (i = j + 1; i < p; i++)
            if (fabs(M[i + j * p]) > fabs(M[piv + j * p])) piv = i;
        if (!(fabs(M[piv + j * p]) > tiny)) return 0;
        if (piv != j) {
            double t;
            for (l = 0; l < p; l++) { t = M[j + l * p]; M[j + l * p] = M[piv + l * p]; M[piv + l * p] = t; }
            t = r[j]; r[j] = r[piv]; r[piv] = t;
        }
        for (i = j + 1; i < p; i++) {
            double f = M[i + j * p] / M[j + j * p];
            for (l = j; l < p; l++) M[i + l * p] -= f * M[j + l * p];
            r[i] -= f * r[j];
        }
    }
    for (j = p - 1; j >= 0; j--) {
        for (l = j + 1; l < p; l++) r[j] -= M[j + l * p] * r[l];
        r[j] /= M[j + j * p];
    }
    return 1;
}

/* The smallest w'Kw - 2 b'w over w >= 0 with the banned unknowns at 0: the
   unconstrained minimum on every support whose K block is nonsingular, kept
   when nonnegative (a minimum has a support of independent columns). */
static double brute_force(int64_t k, const double *K, const double *b, const unsigned char *ban, double scale)
{
    double best = 0, M[KMAX * KMAX], r[KMAX], w[KMAX], kw[KMAX];   /* the empty support: f = 0 */
    unsigned mask;
    for (mask = 1; mask < (1u << k); mask++) {
        int64_t S[KMAX], p = 0, q, t, a;
        int ok = 1;
        for (a = 0; a < k; a++)
            if (mask & (1u << a)) {
                if (ban && ban[a]) ok = 0;
                S[p++] = a;
            }
        if (!ok) continue;
        for (q = 0; q < p; q++) {
            for (t = 0; t < p; t++) M[t + q * p] = K[S[t] + S[q] * k];
            r[q] = b[S[q]];
        }
        if (!solve_small(p, M, r, 1e-9 * scale)) continue;
        for (a = 0; a < k; a++) w[a] = 0;
        for (q = 0; q < p; q++) {
            if (r[q] < 0) ok = 0;
            w[S[q]] = r[q];
        }
        if (ok) best = fmin(best, as_nnls_objective(k, K, b, w, kw));
    }
    return best;
}

/* One problem: K = A'A (A m x k, Gaussian; `dup` columns repeat the first
   ones, so K is singular when dup > 0 or m < k), b = A'y; ban: every third
   unknown when nonzero. */
static void one_problem(int64_t k, int64_t m, int64_t dup, int ban_some, int warm, uint64_t seed)
{
    double A[KMAX * KMAX * 2], K[KMAX * KMAX], b[KMAX], y[2 * KMAX], w[KMAX], g[KMAX], kw[KMAX];
    double scale = 0, wmax = 0, bmax = 0, f, fb, tol;
    unsigned char ban[KMAX];
    int64_t a, j, i;
    as_nnls_work W;
    as_common c;
    int st;
    as_common_init(&c);
    for (j = 0; j < k; j++)
        for (i = 0; i < m; i++)
            A[i + j * m] = j >= k - dup ? A[i + (j - (k - dup)) * m] : as_rng_normal(seed, 1, (uint64_t)(i + j * m));
    for (i = 0; i < m; i++) y[i] = as_rng_normal(seed, 2, (uint64_t)i);
    for (a = 0; a < k; a++) {
        double v = 0;
        for (j = 0; j < k; j++) {
            double s = 0;
            for (i = 0; i < m; i++) s += A[i + a * m] * A[i + j * m];
            K[a + j * k] = s;
        }
        for (i = 0; i < m; i++) v += A[i + a * m] * y[i];
        b[a] = v;
        ban[a] = ban_some && a % 3 == 1;
        w[a] = warm && !ban[a] ? fabs(as_rng_normal(seed, 3, (uint64_t)a)) : 0;
        scale = fmax(scale, K[a + a * k]);
        bmax = fmax(bmax, fabs(b[a]));
    }
    st = as_nnls_work_alloc(&W, k, &c);
    CHECK(st == AS_OK, "work for k = %lld: %d", (long long)k, st);
    if (st != AS_OK) return;
    st = as_nnls_solve(k, K, b, ban, w, &W, &c);
    CHECK(st == AS_OK, "solve k = %lld: %d %s", (long long)k, st, c.msg);
    for (a = 0; a < k; a++) wmax = fmax(wmax, w[a]);
    tol = 1e-7 * (bmax + scale * wmax);
    for (a = 0; a < k; a++) {
        g[a] = b[a];
        for (j = 0; j < k; j++) g[a] -= K[a + j * k] * w[j];   /* -1/2 the gradient of f */
    }
    for (a = 0; a < k; a++) {
        CHECK(w[a] >= 0, "seed %llu: w[%lld] = %g < 0", (unsigned long long)seed, (long long)a, w[a]);
        if (ban[a]) {
            CHECK(w[a] == 0, "seed %llu: banned w[%lld] = %g moved", (unsigned long long)seed, (long long)a, w[a]);
            continue;
        }
        if (w[a] > 0)
            CHECK(fabs(g[a]) <= tol, "seed %llu (k %lld, m %lld, dup %lld): gradient %g at w[%lld] = %g > 0 (tol %g)",
                  (unsigned long long)seed, (long long)k, (long long)m, (long long)dup, -2 * g[a], (long long)a, w[a], tol);
        else
            CHECK(g[a] <= tol, "seed %llu (k %lld, m %lld, dup %lld): gradient %g < 0 at w[%lld] = 0 (tol %g)",
                  (unsigned long long)seed, (long long)k, (long long)m, (long long)dup, -2 * g[a], (long long)a, tol);
        CHECK(fabs(w[a] * g[a]) <= tol * (wmax + 1e-300), "seed %llu: w g = %g at %lld", (unsigned long long)seed,
              w[a] * g[a], (long long)a);
    }
    f = as_nnls_objective(k, K, b, w, kw);
    fb = brute_force(k, K, b, ban, scale);
    CHECK(fabs(f - fb) <= 1e-9 * (fabs(fb) + bmax * bmax / scale + 1e-300),
          "seed %llu (k %lld, m %lld, dup %lld, ban %d, warm %d): f %.17g, brute force %.17g",
          (unsigned long long)seed, (long long)k, (long long)m, (long long)dup, ban_some, warm, f, fb);
    as_nnls_work_free(&W, &c);
}

/* No unknown, a zero K, everything banned: w as given, status AS_OK. */
static void edge_cases(void)
{
    double K[4] = {0, 0, 0, 0}, b[2] = {1, -1}, w[2] = {0, 0}, K2[4] = {2, 1, 1, 2}, w2[2] = {0, 0};
    unsigned char ban[2] = {1, 1};
    as_nnls_work W;
    as_common c;
    as_common_init(&c);
    CHECK(as_nnls_work_alloc(&W, 2, &c) == AS_OK, "work");
    CHECK(as_nnls_solve(0, K, b, NULL, w, &W, &c) == AS_OK && w[0] == 0 && w[1] == 0, "k = 0");
    CHECK(as_nnls_solve(2, K, b, NULL, w, &W, &c) == AS_OK && w[0] == 0 && w[1] == 0, "K = 0: w %g %g", w[0], w[1]);
    CHECK(as_nnls_solve(2, K2, b, ban, w2, &W, &c) == AS_OK && w2[0] == 0 && w2[1] == 0, "all banned: %g %g", w2[0],
          w2[1]);
    /* K = [2 1; 1 2], b = (1, -1): the minimum over w >= 0 is w = (1/2, 0) */
    CHECK(as_nnls_solve(2, K2, b, NULL, w2, &W, &c) == AS_OK && fabs(w2[0] - 0.5) < 1e-14 && w2[1] == 0,
          "2 x 2: w %.17g %.17g", w2[0], w2[1]);
    as_nnls_work_free(&W, &c);
}

int main(void)
{
    uint64_t seed = 1;
    int64_t k;
    edge_cases();
    for (k = 1; k <= KMAX; k++) {
        int rep;
        for (rep = 0; rep < 6; rep++) {
            one_problem(k, 2 * k, 0, rep % 2, rep % 3 == 2, seed++);             /* full rank */
            one_problem(k, k > 2 ? k - 2 : 1, 0, rep % 2, rep % 3 == 2, seed++); /* fewer rows than unknowns */
            if (k >= 3) one_problem(k, 2 * k, k / 3, rep % 2, rep % 3 == 2, seed++);  /* repeated columns */
        }
    }
    return check_report("test_nnls");
}
