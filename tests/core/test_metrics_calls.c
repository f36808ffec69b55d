/* test_metrics_calls.c: attention_error and sym_attention as single core calls (as_attention_error_xy, as_attention_error_gram, as_sym_attention) against a plain computation here. */
#include "check.h"
#include "metrics.h"
#include "options.h"
#include "rng.h"

static double *random_dense(int64_t n, int64_t d, double scale, double dens, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t t;
    for (t = 0; t < n * d; t++) {
        double u = as_rng_unif(seed, 11, (uint64_t)t);
        X[t] = u < dens ? scale * as_rng_normal(seed, 12, (uint64_t)t) : 0.0;
    }
    return X;
}

/* Att = row-softmax(A A') by the textbook formula exp(g) / sum exp(g) (small logits). */
static void plain_attention(int64_t n, int64_t d, const double *A, double *Att)
{
    int64_t i, j, l;
    for (i = 0; i < n; i++) {
        double s = 0;
        for (j = 0; j < n; j++) {
            double g = 0;
            for (l = 0; l < d; l++) g += A[i + l * n] * A[j + l * n];
            Att[i + j * n] = exp(g);
            s += Att[i + j * n];
        }
        for (j = 0; j < n; j++) Att[i + j * n] /= s;
    }
}

static double max_abs_diff(int64_t len, const double *a, const double *b)
{
    double m = 0;
    int64_t t;
    for (t = 0; t < len; t++) m = fmax(m, fabs(a[t] - b[t]));
    return m;
}

/* The metrics of Y against X from the plain attention matrices. */
static void plain_metrics(int64_t n, int64_t d, const double *X, int64_t k, const double *Y, as_metrics *M)
{
    double *A = malloc(sizeof(double) * (size_t)(n * n)), *B = malloc(sizeof(double) * (size_t)(n * n));
    int64_t i, j, l;
    plain_attention(n, d, X, A);
    if (k > 0) plain_attention(n, k, Y, B);
    else for (i = 0; i < n * n; i++) B[i] = 1.0 / (double)n;
    M->inf = M->rel = M->baseline = M->r = 0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double g = 0;
            for (l = 0; l < d; l++) g += X[i + l * n] * X[j + l * n];
            M->r = fmax(M->r, fabs(g));
            M->inf = fmax(M->inf, fabs(B[i + j * n] - A[i + j * n]));
            M->rel = fmax(M->rel, fabs(B[i + j * n] / A[i + j * n] - 1));
            M->baseline = fmax(M->baseline, fabs(1.0 / (double)n / A[i + j * n] - 1));
        }
    free(A);
    free(B);
}

static void test_error_xy(void)
{
    int64_t n = 7, d = 60, k = 9;
    double *X = random_dense(n, d, 0.15, 0.6, 1), *Y = random_dense(n, k, 0.3, 1.0, 2);
    check_views VX, VY;
    as_metrics M, P;
    as_metrics_options o;
    as_common c;
    int a, b;
    as_common_init(&c);
    as_metrics_options_init(&o);
    check_views_make(&VX, n, d, X);
    check_views_make(&VY, n, k, Y);
    plain_metrics(n, d, X, k, Y, &P);
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++) {
            const as_matrix *x = a == 0 ? &VX.D : a == 1 ? &VX.S32 : &VX.S64;
            const as_matrix *y = b == 0 ? &VY.D : b == 1 ? &VY.S32 : &VY.S64;
            CHECK(as_attention_error_xy(x, y, &o, &M, &c) == AS_OK, "%s", c.msg);
            CHECK(fabs(M.inf - P.inf) <= 1e-12 * P.inf && fabs(M.rel - P.rel) <= 1e-12 * P.rel &&
                      fabs(M.baseline - P.baseline) <= 1e-12 * P.baseline && fabs(M.r - P.r) <= 1e-13 * P.r,
                  "kinds %d %d: inf %g/%g rel %g/%g baseline %g/%g r %g/%g", a, b, M.inf, P.inf, M.rel, P.rel,
                  M.baseline, P.baseline, M.r, P.r);
            CHECK(isnan(M.eps_spectral) && isnan(M.bound), "spectral not asked: %g", M.eps_spectral);
        }
    /* no column: the uniform attention, whose rel is the baseline */
    {
        as_matrix E;
        as_view_dense(&E, n, 0, Y, n);
        plain_metrics(n, d, X, 0, Y, &P);
        CHECK(as_attention_error_xy(&VX.S32, &E, &o, &M, &c) == AS_OK, "%s", c.msg);
        CHECK(M.rel == M.baseline && fabs(M.rel - P.rel) <= 1e-12 * P.rel && fabs(M.inf - P.inf) <= 1e-12 * P.inf,
              "Y = 0: rel %g baseline %g plain %g", M.rel, M.baseline, P.rel);
    }
    check_views_free(&VX);
    check_views_free(&VY);
    free(X);
    free(Y);
}

/* Rows of X orthogonal: X X' = diag(x_i^2), Y = diag(y_i) gives the generalized
   eigenvalues y_i^2 / x_i^2, so eps_spectral = max |y_i^2 / x_i^2 - 1| and the
   bound exp(2 eps max x_i^2) - 1. */
static void test_spectral(void)
{
    const double xs[3] = {0.5, 0.8, 0.3}, ys[3] = {0.45, 0.9, 0.3};
    double X[3 * 6] = {0}, Y[9] = {0}, eps = 0, maxd = 0;
    as_matrix A, B;
    as_metrics M;
    as_metrics_options o;
    as_common c;
    int i;
    as_common_init(&c);
    as_metrics_options_init(&o);
    o.spectral = 1;
    for (i = 0; i < 3; i++) {
        /* row i lives in columns 2i and 2i+1: x_i^2 = xs[i]^2 */
        X[i + (2 * i) * 3] = xs[i] * 0.6;
        X[i + (2 * i + 1) * 3] = xs[i] * 0.8;
        Y[i + i * 3] = ys[i];
        eps = fmax(eps, fabs(ys[i] * ys[i] / (xs[i] * xs[i]) - 1));
        maxd = fmax(maxd, xs[i] * xs[i]);
    }
    as_view_dense(&A, 3, 6, X, 3);
    as_view_dense(&B, 3, 3, Y, 3);
    CHECK(as_attention_error_xy(&A, &B, &o, &M, &c) == AS_OK, "%s", c.msg);
    CHECK(fabs(M.eps_spectral - eps) <= 1e-12, "eps_spectral %.17g, want %.17g", M.eps_spectral, eps);
    CHECK(fabs(M.bound - expm1(2 * eps * maxd)) <= 1e-12, "bound %g, want %g", M.bound, expm1(2 * eps * maxd));
    CHECK(M.rel <= M.bound, "rel %g above its bound %g", M.rel, M.bound);
}

/* eps_spectral of Y against X (dense) with spectral on. */
static as_metrics spectral_of(int64_t n, int64_t d, const double *X, int64_t k, const double *Y)
{
    as_matrix A, B;
    as_metrics M;
    as_metrics_options o = {.spectral = 1};
    as_common c;
    as_common_init(&c);
    as_view_dense(&A, n, d, X, n);
    as_view_dense(&B, n, k, Y, n);
    CHECK(as_attention_error_xy(&A, &B, &o, &M, &c) == AS_OK, "%s", c.msg);
    return M;
}

/* Where H = Y Y' puts weight outside the range of G = X X' (v'Hv > 0 = v'Gv),
   no eps makes H <= (1+eps) G: eps_spectral and its bound are Inf, and the
   bound still holds rel. Where Y lies in X's range (its own columns, rows
   repeated or dependent, many columns summed with rounding), they stay finite. */
static void test_spectral_outside(void)
{
    int64_t n = 3, d = 60, k = 40, t, i;
    double X0[6] = {0}, I3[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    double *X = random_dense(n, d, 0.1, 1.0, 7), *Y = malloc(8 * (size_t)(n * d));
    as_metrics M;
    for (i = 0; i < 3; i++) I3[i + 3 * i] = 1;
    /* X = 0, Y = I: G = 0 */
    M = spectral_of(3, 2, X0, 3, I3);
    CHECK(isinf(M.eps_spectral) && isinf(M.bound) && M.rel <= M.bound && isfinite(M.rel),
          "X = 0, Y = I: eps %g bound %g rel %g", M.eps_spectral, M.bound, M.rel);
    /* X = 0, Y = 0: exact */
    M = spectral_of(3, 2, X0, 0, I3);
    CHECK(M.eps_spectral == 0 && M.bound == 0, "X = 0, Y = 0: eps %g bound %g", M.eps_spectral, M.bound);
    /* row 3 of X zero, Y = X's first 40 columns with row 3 of another X */
    for (t = 0; t < n * k; t++) Y[t] = X[t];
    for (t = 0; t < d; t++) X[2 + t * n] = 0;
    M = spectral_of(n, d, X, k, Y);
    CHECK(isinf(M.eps_spectral) && isinf(M.bound), "X with a zero row, Y without: eps %g bound %g", M.eps_spectral,
          M.bound);
    /* Y = 1.2 X (row 3 zero in both): 1.44 G on G's range */
    for (t = 0; t < n * d; t++) Y[t] = 1.2 * X[t];
    M = spectral_of(n, d, X, d, Y);
    CHECK(isfinite(M.eps_spectral) && fabs(M.eps_spectral - 0.44) < 1e-6 && M.rel <= M.bound,
          "Y in X's range, a zero row: eps %g (want 1.2^2 - 1 on X's range)", M.eps_spectral);
    free(X);
    free(Y);
    {
        /* row 3 = row 1 + row 2 over 20000 columns, Y = half of them: H's
           rows are as dependent as G's but for the rounding of long sums */
        int64_t dd = 20000, kk = 10000;
        double *Xd = random_dense(n, dd, 1.0, 1.0, 8), *Yd = malloc(8 * (size_t)(n * kk));
        for (t = 0; t < dd; t++) Xd[2 + t * n] = Xd[t * n] + Xd[1 + t * n];
        for (t = 0; t < n * kk; t++) Yd[t] = 1.4142135623730951 * Xd[t];
        M = spectral_of(n, dd, Xd, kk, Yd);
        CHECK(isfinite(M.eps_spectral) && M.eps_spectral < 0.2 && M.rel <= M.bound,
              "dependent rows: eps %g, bound %g", M.eps_spectral, M.bound);
        free(Xd);
        free(Yd);
    }
}

/* G given (as a reader of blocks sums it) and Y's columns weighted: the same
   metrics as Y diag(weight) against X. */
static void test_error_gram(void)
{
    int64_t n = 6, d = 40, k = 5, i, j, l;
    double *X = random_dense(n, d, 0.2, 0.7, 3), *Y = random_dense(n, k, 0.4, 1.0, 4);
    double *G = malloc(sizeof(double) * (size_t)(n * n)), *Yw = malloc(sizeof(double) * (size_t)(n * k));
    double w[5] = {0.5, 2.0, 1.5, 0.25, 1.0};
    as_matrix A, B, Bw;
    as_metrics M, Mw;
    as_metrics_options o;
    as_common c;
    as_common_init(&c);
    as_metrics_options_init(&o);
    o.spectral = 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double g = 0;
            for (l = 0; l < d; l++) g += X[i + l * n] * X[j + l * n];
            G[i + j * n] = g;
        }
    for (l = 0; l < k; l++)
        for (i = 0; i < n; i++) Yw[i + l * n] = w[l] * Y[i + l * n];
    as_view_dense(&A, n, d, X, n);
    as_view_dense(&B, n, k, Y, n);
    as_view_dense(&Bw, n, k, Yw, n);
    CHECK(as_attention_error_gram(n, G, &B, w, &o, &M, &c) == AS_OK, "%s", c.msg);
    CHECK(as_attention_error_xy(&A, &Bw, &o, &Mw, &c) == AS_OK, "%s", c.msg);
    CHECK(fabs(M.rel - Mw.rel) <= 1e-12 * Mw.rel && fabs(M.inf - Mw.inf) <= 1e-12 * Mw.inf &&
              fabs(M.eps_spectral - Mw.eps_spectral) <= 1e-10,
          "gram given: rel %g vs %g, eps %g vs %g", M.rel, Mw.rel, M.eps_spectral, Mw.eps_spectral);
    CHECK(as_attention_error_gram(n + 1, G, &B, w, &o, &M, &c) == AS_ERR_INPUT &&
              strcmp(c.msg, "Y must have as many rows as X (7), got 6") == 0, "rows: %s", c.msg);
    free(X); free(Y); free(G); free(Yw);
}

/* The n x n results (gram, sym_attention, attention) and attention_error's Grams against the
   option 'memory' of their calls: refused before allocating, the message naming the result, its
   size and the cap; under the cap, AS_OK. */
static void test_output_memory(as_metrics_options o, as_metrics M, as_common c)
{
    double x[6] = {1, 2, 3, 4, 5, 6};
    int64_t p[3] = {0, 0, 0}, none = 0;
    as_matrix Q, K, Z;
    /* 1e5 rows, 2 columns: only the shapes are read */
    as_view_dense(&Q, 100000, 2, x, 100000);
    as_view_dense(&K, 3, 2, x, 3);
    CHECK(as_options_set(AS_FOR_GRAM, &o, "memory", 1000, NULL, &c) == AS_OK && o.mem_mb == 1000, "%s", c.msg);
    CHECK(as_output_check(AS_OUT_GRAM, &Q, NULL, -1, &o, &c) == AS_ERR_TOOBIG &&
              strcmp(c.msg, "the result X X' (n x n doubles, n = nrow(X) = 100000): 7.629e+04 MiB, above "
                            "'memory' = 1000 MiB") == 0, "gram: %s", c.msg);
    CHECK(as_output_check(AS_OUT_SYM_ATTENTION, &Q, NULL, -1, &o, &c) == AS_ERR_TOOBIG &&
              strstr(c.msg, "the result Att(X) (n x n doubles, n = nrow(X) = 100000): 7.629e+04 MiB"), "%s", c.msg);
    CHECK(as_output_check(AS_OUT_ATTENTION, &Q, &Q, -1, &o, &c) == AS_ERR_TOOBIG &&
              strstr(c.msg, "the result Att(Q, K) (n1 x n2 doubles, n1 = nrow(Q) = 100000, n2 = nrow(K) = 100000)"),
          "%s", c.msg);
    /* 1e5 x 3 and 1e5 x 4 fit in 1000 MiB; 1e5 x 2e3 does not */
    CHECK(as_output_check(AS_OUT_ATTENTION, &Q, &K, -1, &o, &c) == AS_OK, "%s", c.msg);
    CHECK(as_output_check(AS_OUT_ATTENTION, &Q, &Q, 4, &o, &c) == AS_OK, "%s", c.msg);
    CHECK(as_output_check(AS_OUT_ATTENTION, &Q, &Q, 2000, &o, &c) == AS_ERR_TOOBIG &&
              strstr(c.msg, "the result Att(Q, K) V (n1 x dv doubles, n1 = nrow(Q) = 100000, dv = ncol(V) = 2000)"),
          "%s", c.msg);
    /* the default cap (0): 3/4 of the memory the process may use, said as such */
    as_metrics_options_init(&o);
    CHECK(as_output_check(AS_OUT_GRAM, &Q, NULL, -1, &o, &c) != AS_OK ||
              as_output_check(AS_OUT_GRAM, &K, NULL, -1, &o, &c) == AS_OK, "%s", c.msg);
    /* attention_error: its two Grams under its own 'memory' (an all-zero sparse X of 1e5 rows) */
    as_view_csc64(&Z, 100000, 2, p, &none, x);
    CHECK(as_options_set(AS_FOR_METRICS, &o, "memory", 1, NULL, &c) == AS_OK, "%s", c.msg);
    CHECK(as_attention_error_xy(&Z, &Z, &o, &M, &c) == AS_ERR_TOOBIG &&
              strstr(c.msg, "the error metrics need X X' and Y Y' (2 n^2 doubles, n = nrow(X) = 100000)") &&
              strstr(c.msg, "above 'memory' = 1 MiB"), "%s", c.msg);
    CHECK(as_options_set(AS_FOR_GRAM, &o, "memory", -1, NULL, &c) == AS_ERR_ARG &&
              strcmp(c.msg, "'memory' must be a number in [0, 1e12], got -1") == 0, "%s", c.msg);
}

static void test_bad_inputs(void)
{
    double X[8] = {1, 2, 3, 4, 5, 6, 7, 8}, Y[6] = {1, 2, 3, 4, NAN, 6}, Att[16];
    as_matrix A, B;
    as_metrics M;
    as_metrics_options o;
    as_common c;
    as_common_init(&c);
    as_metrics_options_init(&o);
    as_view_dense(&A, 4, 2, X, 4);
    as_view_dense(&B, 3, 2, Y, 3);
    CHECK(as_attention_error_xy(&A, &B, &o, &M, &c) == AS_ERR_INPUT &&
              strcmp(c.msg, "Y must have as many rows as X (4), got 3") == 0, "rows: %s", c.msg);
    as_view_dense(&A, 3, 2, X, 3);
    CHECK(as_attention_error_xy(&A, &B, &o, &M, &c) == AS_ERR_INPUT && strstr(c.msg, "Y: column 2 holds a NaN"),
          "NaN in Y: %s", c.msg);
    CHECK(as_attention_error_xy(&B, &A, &o, &M, &c) == AS_ERR_INPUT && strstr(c.msg, "X: column 2 holds a NaN"),
          "NaN in X: %s", c.msg);
    CHECK(as_sym_attention(&B, Att, &c) == AS_ERR_INPUT && strstr(c.msg, "X: column 2 holds a NaN"),
          "NaN in X of sym_attention: %s", c.msg);
    {
        double big[2] = {1e160, 1e160};
        as_matrix H;
        as_view_dense(&H, 1, 2, big, 1);
        CHECK(as_sym_attention(&H, Att, &c) == AS_ERR_INPUT && strstr(c.msg, "X X' overflows"), "%s", c.msg);
        CHECK(as_attention_error_xy(&H, &H, &o, &M, &c) == AS_ERR_INPUT && strstr(c.msg, "X X' overflows"),
              "%s", c.msg);
    }
    test_output_memory(o, M, c);
}

static void test_sym_attention(void)
{
    int64_t n = 9, d = 70, i, j;
    double *X = random_dense(n, d, 0.2, 0.5, 5), *P = malloc(sizeof(double) * (size_t)(n * n));
    double *Att = malloc(sizeof(double) * (size_t)(n * n)), big[2] = {100, 101};
    check_views V;
    as_matrix L;
    as_common c;
    int a;
    as_common_init(&c);
    check_views_make(&V, n, d, X);
    plain_attention(n, d, X, P);
    for (a = 0; a < 3; a++) {
        const as_matrix *x = a == 0 ? &V.D : a == 1 ? &V.S32 : &V.S64;
        CHECK(as_sym_attention(x, Att, &c) == AS_OK, "%s", c.msg);
        CHECK(max_abs_diff(n * n, Att, P) <= 1e-15, "kind %d: differs from exp(G) / rowsum by %g", a,
              max_abs_diff(n * n, Att, P));
    }
    for (i = 0; i < n; i++) {
        double s = 0;
        for (j = 0; j < n; j++) s += Att[i + j * n];
        CHECK(fabs(s - 1) <= 1e-14, "row %lld sums to %.17g", (long long)i, s);
    }
    /* logits 1e4: exp would overflow without the row maximum subtracted */
    as_view_dense(&L, 2, 1, big, 2);
    /* row 2: logits 10100 and 10201, softmax (1 / (1 + e^101), 1 / (1 + e^-101)) */
    CHECK(as_sym_attention(&L, Att, &c) == AS_OK && fabs(Att[1] / (1 / (1 + exp(101.0))) - 1) < 1e-13 &&
              fabs(Att[3] - 1) < 1e-15,
          "large logits: %g %g", Att[1], Att[3]);
    check_views_free(&V);
    free(X); free(P); free(Att);
}

/* The warning a result carries: none for finite figures; the overflowed estimate and the
   error of Att V said, each with what causes it. */
static void test_sample_warning(void)
{
    as_result S;
    char text[512];
    as_result_init(&S);
    S.rel_estimate = 0.1;
    CHECK(as_result_warning(&S, text, sizeof text) == NULL, "%s", text);
    S.metrics.r = 400;
    S.metrics.rel = INFINITY;
    S.metrics.baseline = INFINITY;
    CHECK(as_result_warning(&S, text, sizeof text) &&
              strcmp(text, "the relative attention error overflows to Inf: max |X X'| = 400, so Att(X) has entries "
                           "near exp(-800); the spectral eps is unaffected") == 0, "%s", text);
    /* raw counts (logits in the thousands): rel itself finite but astronomically large, the baseline Inf */
    S.metrics.rel = 1e248;
    CHECK(as_result_warning(&S, text, sizeof text) &&
              strstr(text, "the relative attention error is far beyond any use and its baseline (Y = 0) overflows "
                           "to Inf: max |X X'| = 400") == text, "%s", text);
    as_result_init(&S);
    S.rel_estimate = INFINITY;
    CHECK(as_result_warning(&S, text, sizeof text) &&
              strstr(text, "the estimated relative attention error overflows to Inf: ") == text, "%s", text);
    S.out_error = INFINITY;
    CHECK(as_result_warning(&S, text, sizeof text) && strstr(text, "inf_estimate is unaffected; the error of Att V "
                                                                   "overflows to Inf: V has entries above half"),
          "%s", text);
}

/* every allocation and interrupt poll failing in turn: a status, nothing leaked */
typedef struct calls_case { const as_matrix *X, *Y; } calls_case;

static int run_calls(void *arg, as_common *c)
{
    calls_case *cc = arg;
    as_metrics M;
    as_metrics_options o;
    double Att[64];
    int st;
    as_metrics_options_init(&o);
    o.spectral = 1;
    st = as_attention_error_xy(cc->X, cc->Y, &o, &M, c);
    if (st == AS_OK) st = as_sym_attention(cc->X, Att, c);
    return st;
}

static void test_failures(void)
{
    int64_t n = 8, d = 50;
    double *X = random_dense(n, d, 0.2, 0.4, 6);
    check_views V;
    calls_case cc;
    check_views_make(&V, n, d, X);
    cc.X = &V.S32;
    cc.Y = &V.D;
    check_every_failure("error_xy + sym_attention", run_calls, &cc);
    check_views_free(&V);
    free(X);
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

int main(void)
{
    test_error_xy();
    test_spectral();
    test_spectral_outside();
    test_error_gram();
    test_bad_inputs();
    test_sym_attention();
    test_sample_warning();
    test_failures();
    test_metrics();
    test_spectral_routes();
    return check_report("test_metrics_calls");
}
