/* test_qkv.c: the stacked view [Q; K] against a copied stacked matrix, norm products with K = Q, cross Grams and Att(Q, K) V against plain loops, the spectral bound, bad inputs. */
#include "check.h"
#include "as_internal.h"
#include "det.h"
#include "estimate.h"
#include "gram.h"
#include "metrics.h"
#include "qk.h"
#include "rand.h"
#include "rng.h"
#include <string.h>

/* A context for these tests: small inputs on several threads too (the bits
   must not change). */
static void test_init(as_common *c)
{
    as_common_init(c);
    c->tune.parallel_min_work = 0;
}

/* n x d, a few large entries per row and many small ones (sparse when dens < 1) */
static double *make_m(int64_t n, int64_t d, double dens, double scale, uint64_t seed)
{
    double *X = calloc((size_t)(n * d), sizeof(double));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) {
            uint64_t at = (uint64_t)(j * n + i);
            if (as_rng_unif(seed, 1, at) < dens) X[i + j * n] = scale * as_rng_normal(seed, 2, at);
        }
    return X;
}

/* Dense views of Q (n1 x d) and K (n2 x d) and the stacked view S = [Q; K] */
static void stack_dense(int64_t n1, int64_t n2, int64_t d, double *Q, double *K, as_matrix *QD,
                        as_matrix *KD, as_matrix *S)
{
    as_view_dense(QD, n1, d, Q, n1);
    as_view_dense(KD, n2, d, K, n2);
    as_view_stacked(S, QD, KD);
}

/* [Q; K] copied, (n1 + n2) x d */
static double *stack_copy(int64_t n1, int64_t n2, int64_t d, const double *Q, const double *K)
{
    int64_t N = n1 + n2, j;
    double *Z = malloc(sizeof(double) * (size_t)(N * d));
    for (j = 0; j < d; j++) {
        memcpy(Z + j * N, Q + j * n1, sizeof(double) * (size_t)n1);
        memcpy(Z + j * N + n1, K + j * n2, sizeof(double) * (size_t)n2);
    }
    return Z;
}

/* the plain computation: logits L = Q~ K~' (n1 x n2) in long double */
static void naive_logits(int64_t n1, int64_t n2, int64_t d, const double *Q, const double *K,
                         int64_t k, const int64_t *idx, const double *w, double *L)
{
    int64_t i, j, t;
    for (i = 0; i < n1; i++)
        for (j = 0; j < n2; j++) {
            long double s = 0;
            for (t = 0; t < (idx ? k : d); t++) {
                int64_t c = idx ? idx[t] : t;
                double ww = w ? w[t] : 1.0;
                s += (long double)ww * ww * Q[i + c * n1] * K[j + c * n2];
            }
            L[i + j * n1] = (double)s;
        }
}

static void naive_softmax_rows(int64_t n1, int64_t n2, const double *L, double *A)
{
    int64_t i, j;
    for (i = 0; i < n1; i++) {
        double mx = -INFINITY, s = 0;
        for (j = 0; j < n2; j++) mx = fmax(mx, L[i + j * n1]);
        for (j = 0; j < n2; j++) s += exp(L[i + j * n1] - mx);
        for (j = 0; j < n2; j++) A[i + j * n1] = exp(L[i + j * n1] - mx) / s;
    }
}

/* leverage sampling on the view of a stacked matrix picks what it picks on a
   CSC copy, bit for bit (the same sums in the same order) */
static void test_view_vs_copy(int64_t n1, int64_t n2, int64_t d, double dens, int prob, int sampling)
{
    double *Q = make_m(n1, d, dens, 0.05, 3), *K = make_m(n2, d, dens, 0.05, 4);
    double *Z = stack_copy(n1, n2, d, Q, K);
    check_views VQ, VK, VZ;
    as_matrix S;
    const as_matrix *qs[2], *ks[2];
    as_rand_options o;
    as_result a, b;
    as_common c;
    int vq, vk;
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    check_views_make(&VZ, n1 + n2, d, Z);
    qs[0] = &VQ.D; qs[1] = &VQ.S32;
    ks[0] = &VK.S64; ks[1] = &VK.D;
    as_rand_options_init(&o);
    o.seed = 17;
    o.m = 6 * (n1 + n2);
    o.probabilities = prob;
    o.sampling = sampling;
    test_init(&c);
    CHECK(as_rand(&VZ.S32, &o, &b, &c) == AS_OK, "%s", c.msg);
    for (vq = 0; vq < 2; vq++)
        for (vk = 0; vk < 2; vk++) {
            as_view_stacked(&S, qs[vq], ks[vk]);
            test_init(&c);
            c.nthreads = 1 + vq + vk;
            CHECK(as_rand(&S, &o, &a, &c) == AS_OK, "%s", c.msg);
            CHECK(a.k == b.k && a.rank == b.rank, "prob %d views %d%d: k %lld vs %lld, rank %lld vs %lld",
                  prob, vq, vk, (long long)a.k, (long long)b.k, (long long)a.rank, (long long)b.rank);
            if (a.k == b.k) {
                CHECK(memcmp(a.index, b.index, sizeof(int64_t) * (size_t)a.k) == 0,
                      "prob %d views %d%d: another index than the copy's", prob, vq, vk);
                CHECK(memcmp(a.weight, b.weight, sizeof(double) * (size_t)a.k) == 0,
                      "prob %d views %d%d: other weights than the copy's", prob, vq, vk);
            }
            as_result_free(&a, &c);
        }
    as_result_free(&b, &c);
    check_views_free(&VQ); check_views_free(&VK); check_views_free(&VZ);
    free(Q); free(K); free(Z);
}

/* metrics and exact attention against plain loops; the bound holds */
static void test_metrics(int64_t n1, int64_t n2, int64_t d, int64_t dv, double scale, uint64_t seed)
{
    double *Q = make_m(n1, d, 0.3, scale, seed), *K = make_m(n2, d, 0.3, scale, seed + 1);
    double *V = make_m(n2, dv, 1.0, 1.0, seed + 2);
    double *L = malloc(sizeof(double) * (size_t)(n1 * n2)), *Lh = malloc(sizeof(double) * (size_t)(n1 * n2));
    double *A = malloc(sizeof(double) * (size_t)(n1 * n2)), *Ah = malloc(sizeof(double) * (size_t)(n1 * n2));
    double *out = malloc(sizeof(double) * (size_t)(n1 * (n2 > dv ? n2 : dv)));
    double inf = 0, rel = 0, oe = 0, ore = 0, diff, block;
    check_views VQ, VK;
    as_matrix S;
    as_rand_options o;
    as_result s;
    as_qk_metrics M;
    as_common c;
    int64_t i, j, l;
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    as_view_stacked(&S, &VQ.S32, &VK.D);
    as_rand_options_init(&o);
    o.seed = seed;
    o.m = 4 * (n1 + n2);
    test_init(&c);
    /* one call: the sample of [Q; K] and its metrics */
    o.spectral = 1;
    CHECK(as_rand_qkv(&VQ.S32, &VK.D, V, dv, &o, &s, &c) == AS_OK, "%s", c.msg);
    M.att = s.metrics;
    M.out_error = s.out_error;
    M.out_rel_error = s.out_rel_error;
    CHECK(s.error_time >= 0, "error_time %g", s.error_time);
    naive_logits(n1, n2, d, Q, K, 0, NULL, NULL, L);
    naive_logits(n1, n2, d, Q, K, s.k, s.index, s.weight, Lh);
    naive_softmax_rows(n1, n2, L, A);
    naive_softmax_rows(n1, n2, Lh, Ah);
    for (i = 0; i < n1; i++) {
        for (j = 0; j < n2; j++) {
            inf = fmax(inf, fabs(Ah[i + j * n1] - A[i + j * n1]));
            rel = fmax(rel, fabs(Ah[i + j * n1] / A[i + j * n1] - 1));
        }
        for (l = 0; l < dv; l++) {
            double y = 0, yh = 0, den = 0;
            for (j = 0; j < n2; j++) {
                y += A[i + j * n1] * V[j + l * n2];
                yh += Ah[i + j * n1] * V[j + l * n2];
                den += A[i + j * n1] * fabs(V[j + l * n2]);
            }
            oe = fmax(oe, fabs(yh - y));
            ore = fmax(ore, fabs(yh - y) / den);
        }
    }
    CHECK(fabs(M.att.inf - inf) <= 1e-10 * inf + 1e-15, "inf %g vs plain %g", M.att.inf, inf);
    CHECK(fabs(M.att.rel - rel) <= 1e-9 * rel + 1e-14, "rel %g vs plain %g", M.att.rel, rel);
    CHECK(fabs(M.out_error - oe) <= 1e-9 * oe + 1e-14, "out_error %g vs plain %g", M.out_error, oe);
    CHECK(fabs(M.out_rel_error - ore) <= 1e-9 * ore + 1e-14, "out_rel_error %g vs plain %g",
          M.out_rel_error, ore);
    CHECK(M.att.eps_spectral > 0 && M.att.rel <= M.att.bound,
          "rel %g above the bound %g (eps %g)", M.att.rel, M.att.bound, M.att.eps_spectral);
    CHECK(M.out_rel_error <= M.att.bound, "out_rel_error %g above the bound %g", M.out_rel_error, M.att.bound);
    /* exact attention, without V and with V in blocks of 3 rows */
    CHECK(as_attention_qkv(&VQ.S32, &VK.D, NULL, 0, out, &c) == AS_OK, "%s", c.msg);
    for (diff = 0, i = 0; i < n1 * n2; i++) diff = fmax(diff, fabs(out[i] - A[i]));
    CHECK(diff <= 1e-13, "attention(Q, K) differs from the plain one by %g", diff);
    block = c.tune.qk_block;
    c.tune.qk_block = 3.0 * (double)n2;
    CHECK(as_attention_qkv(&VQ.D, &VK.S64, V, dv, out, &c) == AS_OK, "%s", c.msg);
    c.tune.qk_block = block;
    for (diff = 0, i = 0; i < n1; i++)
        for (l = 0; l < dv; l++) {
            double y = 0;
            for (j = 0; j < n2; j++) y += A[i + j * n1] * V[j + l * n2];
            diff = fmax(diff, fabs(out[i + l * n1] - y));
        }
    CHECK(diff <= 1e-13, "attention(Q, K, V) by blocks differs from the plain one by %g", diff);
    as_result_free(&s, &c);
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K); free(V); free(L); free(Lh); free(A); free(Ah); free(out);
}

/* K = Q: norm-product sampling is norm-squared sampling to the bit; the
   cross metrics are the symmetric ones */
static void test_q_equals_k(void)
{
    int64_t n = 20, d = 600;
    double *X = make_m(n, d, 0.2, 0.1, 9);
    check_views V;
    as_matrix S;
    as_rand_options o;
    as_result a, b;
    as_metrics M;
    as_qk_metrics MQ;
    as_common c;
    check_views_make(&V, n, d, X);
    as_view_stacked(&S, &V.S32, &V.S32);
    as_rand_options_init(&o);
    o.seed = 5;
    o.m = 200;
    o.probabilities = AS_PROB_NORM;
    test_init(&c);
    CHECK(as_rand(&V.S32, &o, &a, &c) == AS_OK, "%s", c.msg);
    CHECK(as_rand(&S, &o, &b, &c) == AS_OK, "%s", c.msg);
    CHECK(a.k == b.k && memcmp(a.index, b.index, sizeof(int64_t) * (size_t)a.k) == 0 &&
          memcmp(a.weight, b.weight, sizeof(double) * (size_t)a.k) == 0,
          "K = Q: norm products sample other columns than squared norms");
    CHECK(as_attention_error(&V.S32, a.k, a.index, a.weight, 1, &M, &c) == AS_OK, "%s", c.msg);
    CHECK(as_qk_error(&S, a.k, a.index, a.weight, NULL, 0, 1, &MQ, &c) == AS_OK, "%s", c.msg);
    CHECK(fabs(MQ.att.rel - M.rel) <= 1e-12 * M.rel && fabs(MQ.att.inf - M.inf) <= 1e-12 * M.inf,
          "K = Q: rel %g vs %g, inf %g vs %g", MQ.att.rel, M.rel, MQ.att.inf, M.inf);
    CHECK(fabs(MQ.att.eps_spectral - M.eps_spectral) <= 1e-8 && fabs(MQ.att.bound - M.bound) <= 1e-8,
          "K = Q: eps %g vs %g, bound %g vs %g", MQ.att.eps_spectral, M.eps_spectral, MQ.att.bound, M.bound);
    CHECK(isnan(MQ.out_error), "no V: out_error should be NaN, got %g", MQ.out_error);
    as_result_free(&a, &c);
    as_result_free(&b, &c);
    check_views_free(&V);
    free(X);
}

/* det on the view: within its eps bound, the metrics' eps agrees */
static void test_det(void)
{
    int64_t n1 = 12, n2 = 9, d = 400;
    double *Q = make_m(n1, d, 0.4, 0.1, 21), *K = make_m(n2, d, 1.0, 0.1, 22);
    check_views VQ, VK;
    as_matrix S;
    as_det_options o;
    as_result s;
    as_qk_metrics M;
    as_common c;
    int search;
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    as_view_stacked(&S, &VQ.S64, &VK.D);
    for (search = 0; search < 2; search++) {
        as_det_options_init(&o);
        o.eps = 0.5;
        o.search = search;
        o.leaf = 32;
        test_init(&c);
        CHECK(as_det(&S, &o, &s, &c) == AS_OK, "%s", c.msg);
        CHECK(s.rank == n1 + n2 && s.k <= (int64_t)ceil(o.eps > 0 ? 14.0 * (double)(n1 + n2) : 0),
              "rank %lld, k %lld", (long long)s.rank, (long long)s.k);
        CHECK(as_qk_error(&S, s.k, s.index, s.weight, NULL, 0, 1, &M, &c) == AS_OK, "%s", c.msg);
        CHECK(M.att.eps_spectral <= s.eps_bound + 1e-9 && s.eps_bound <= o.eps,
              "search %d: eps %g above the det bound %g", search, M.att.eps_spectral, s.eps_bound);
        CHECK(M.att.rel <= M.att.bound, "search %d: rel %g above bound %g", search, M.att.rel, M.att.bound);
        as_result_free(&s, &c);
    }
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K);
}

/* The one call with K and V (as_rand_qkv, as_det_qkv): the sample is that of
   the stacked view; 'error' and 'spectral' pick the metrics; with V alone the
   symmetric metrics are as_rand's and out_error is that of K = X; bad V. */
static void test_qkv_call(void)
{
    int64_t n1 = 10, n2 = 8, d = 300, dv = 2, l, i, j;
    double *Q = make_m(n1, d, 0.5, 0.1, 61), *K = make_m(n2, d, 0.5, 0.1, 62);
    double *V = make_m(n2, dv, 1.0, 1.0, 63), *Vq = make_m(n1, dv, 1.0, 1.0, 64);
    double *L = malloc(sizeof(double) * (size_t)(n1 * n1)), *Lh = malloc(sizeof(double) * (size_t)(n1 * n1));
    double *A = malloc(sizeof(double) * (size_t)(n1 * n1)), *Ah = malloc(sizeof(double) * (size_t)(n1 * n1));
    double oe = 0;
    as_matrix QD, KD, S;
    as_rand_options o;
    as_det_options od;
    as_result a, b;
    as_common c;
    stack_dense(n1, n2, d, Q, K, &QD, &KD, &S);
    test_init(&c);
    as_rand_options_init(&o);
    o.seed = 5;
    o.m = 200;
    /* spectral only: no attention errors, no out_error */
    o.error = 0;
    o.spectral = 1;
    CHECK(as_rand_qkv(&QD, &KD, V, dv, &o, &a, &c) == AS_OK, "%s", c.msg);
    CHECK(isnan(a.metrics.inf) && isnan(a.metrics.rel) && a.metrics.eps_spectral > 0 && isnan(a.out_error) &&
          a.error_time >= 0, "spectral only: inf %g, eps %g, out_error %g", a.metrics.inf,
          a.metrics.eps_spectral, a.out_error);
    /* the sample is the stacked view's */
    o.error = o.spectral = 0;
    CHECK(as_rand(&S, &o, &b, &c) == AS_OK, "%s", c.msg);
    CHECK(a.k == b.k && memcmp(a.index, b.index, sizeof(int64_t) * (size_t)a.k) == 0 &&
          memcmp(a.weight, b.weight, sizeof(double) * (size_t)a.k) == 0, "the sample of [Q; K] differs");
    CHECK(isnan(b.metrics.eps_spectral) && isnan(b.error_time), "no metrics asked: eps %g", b.metrics.eps_spectral);
    as_result_free(&a, &c);
    as_result_free(&b, &c);
    /* V alone: as_rand's symmetric metrics, and out_error of Att(Q, Q) V */
    o.error = 1;
    o.spectral = -1;
    CHECK(as_rand_qkv(&QD, NULL, Vq, dv, &o, &a, &c) == AS_OK, "%s", c.msg);
    CHECK(as_rand(&QD, &o, &b, &c) == AS_OK, "%s", c.msg);
    CHECK(a.k == b.k && memcmp(&a.metrics, &b.metrics, sizeof a.metrics) == 0 && isnan(b.out_error),
          "V alone: metrics differ from as_rand's");
    naive_logits(n1, n1, d, Q, Q, 0, NULL, NULL, L);
    naive_logits(n1, n1, d, Q, Q, a.k, a.index, a.weight, Lh);
    naive_softmax_rows(n1, n1, L, A);
    naive_softmax_rows(n1, n1, Lh, Ah);
    for (i = 0; i < n1; i++)
        for (l = 0; l < dv; l++) {
            double y = 0, yh = 0;
            for (j = 0; j < n1; j++) {
                y += A[i + j * n1] * Vq[j + l * n1];
                yh += Ah[i + j * n1] * Vq[j + l * n1];
            }
            oe = fmax(oe, fabs(yh - y));
        }
    CHECK(fabs(a.out_error - oe) <= 1e-9 * oe + 1e-15, "V alone: out_error %g vs plain %g", a.out_error, oe);
    as_result_free(&a, &c);
    as_result_free(&b, &c);
    /* det: the stacked view's columns, the metrics of Att(Q, K) within the bound */
    as_det_options_init(&od);
    od.eps = 0.5;
    CHECK(as_det_qkv(&QD, &KD, V, dv, &od, &a, &c) == AS_OK, "%s", c.msg);
    od.error = 0;
    CHECK(as_det(&S, &od, &b, &c) == AS_OK, "%s", c.msg);
    CHECK(a.k == b.k && memcmp(a.index, b.index, sizeof(int64_t) * (size_t)a.k) == 0, "det: another sample");
    CHECK(a.metrics.rel <= a.metrics.bound && a.out_rel_error <= a.metrics.bound && a.out_error >= 0,
          "det: rel %g, out_rel_error %g, bound %g", a.metrics.rel, a.out_rel_error, a.metrics.bound);
    as_result_free(&a, &c);
    as_result_free(&b, &c);
    /* bad V */
    V[3] = NAN;
    CHECK(as_rand_qkv(&QD, &KD, V, dv, &o, &a, &c) == AS_ERR_INPUT && strstr(c.msg, "V holds a NaN") &&
          strstr(c.msg, "row 4, column 1"), "NaN in V: %s", c.msg);
    CHECK(as_det_qkv(&QD, &KD, V, 0, &od, &a, &c) == AS_ERR_INPUT && strstr(c.msg, "V has no columns"),
          "V without columns: %s", c.msg);
    free(Q); free(K); free(V); free(Vq); free(L); free(Lh); free(A); free(Ah);
}

/* the same bits on 1..4 threads */
static void test_threads(void)
{
    int64_t n1 = 70, n2 = 50, d = 900, N = n1 + n2;
    double *Q = make_m(n1, d, 0.2, 1, 31), *K = make_m(n2, d, 0.5, 1, 32);
    double *G1 = malloc(sizeof(double) * (size_t)(N * N)), *Gt = malloc(sizeof(double) * (size_t)(N * N));
    check_views VQ, VK;
    as_matrix S;
    as_common c;
    int t;
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    as_view_stacked(&S, &VQ.D, &VK.S32);
    test_init(&c);
    c.nthreads = 1;
    CHECK(as_gram(&S, -1, NULL, NULL, G1, &c) == AS_OK, "%s", c.msg);
    for (t = 2; t <= 4; t++) {
        c.nthreads = t;
        CHECK(as_gram(&S, -1, NULL, NULL, Gt, &c) == AS_OK, "%s", c.msg);
        CHECK(memcmp(G1, Gt, sizeof(double) * (size_t)(N * N)) == 0, "%d threads: other bits", t);
    }
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K); free(G1); free(Gt);
}

/* every allocation and every interrupt poll of the Q != K paths failing in turn */
typedef struct fail_case { const as_matrix *Z; const double *V; int det; } fail_case;

static int run_qk(void *arg, as_common *c)
{
    fail_case *fc = arg;
    const as_matrix *Q = fc->Z->part[0], *K = fc->Z->part[1];
    as_result s;
    double out[12 * 3];
    int st;
    if (fc->det) {
        as_det_options o;
        as_det_options_init(&o);
        o.leaf = 32;
        st = as_det_qkv(Q, K, fc->V, 3, &o, &s, c);
    } else {
        as_rand_options o;
        as_rand_options_init(&o);
        o.seed = 3;
        o.m = 60;
        o.spectral = 1;
        st = as_rand_qkv(Q, K, fc->V, 3, &o, &s, c);
    }
    as_result_free(&s, c);
    if (st != AS_OK) return st;
    return as_attention_qkv(Q, K, fc->V, 3, out, c);
}

static void test_failures(void)
{
    int64_t n1 = 12, n2 = 7, d = 300;
    double *Q = make_m(n1, d, 0.3, 0.1, 51), *K = make_m(n2, d, 0.6, 0.1, 52), *V = make_m(n2, 3, 1, 1, 53);
    check_views VQ, VK;
    as_matrix S;
    fail_case fc;
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    as_view_stacked(&S, &VQ.S32, &VK.D);
    fc.Z = &S;
    fc.V = V;
    fc.det = 0;
    check_every_failure("rand on [Q; K], metrics, attention", run_qk, &fc);
    fc.det = 1;
    check_every_failure("det on [Q; K], metrics, attention", run_qk, &fc);
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K); free(V);
}

static void test_bad_inputs(void)
{
    double Q[6] = {1, 2, 3, 4, 5, 6}, K[4] = {1, 2, 3, 4}, bad[6] = {1, 2, NAN, 4, 5, 6}, out[6];
    as_matrix A, B, S;
    as_rand_options o;
    as_result s;
    as_common c;
    as_view_dense(&A, 2, 3, Q, 2);
    as_view_dense(&B, 2, 2, K, 2);
    as_view_stacked(&S, &A, &B);
    as_rand_options_init(&o);
    test_init(&c);
    CHECK(as_rand(&S, &o, &s, &c) == AS_ERR_INPUT && strstr(c.msg, "K has 2 columns but X has 3"),
          "another d: %s", c.msg);
    CHECK(as_attention_qkv(&A, &B, NULL, 0, out, &c) == AS_ERR_INPUT && strstr(c.msg, "K must have as many columns as Q (d = 3 features), got 2"),
          "attention, another d: %s", c.msg);
    as_view_dense(&B, 2, 3, bad, 2);
    as_view_stacked(&S, &A, &B);
    CHECK(as_rand(&S, &o, &s, &c) == AS_ERR_INPUT && strstr(c.msg, "K: column 2"), "NaN in K: %s", c.msg);
}

/* Messages about a call with K speak of X and K and their rows, never of the
   stacked matrix the core works on. */
static void test_messages_name_k(void)
{
    int64_t n = 20, d = 100, t;
    double *Q = make_m(n, d, 1.0, 1.0, 71), *K = malloc(8 * (size_t)(n * d));
    as_matrix A, B;
    as_rand_options o;
    as_det_options od;
    as_result s;
    as_common c;
    test_init(&c);
    for (t = 0; t < n * d; t++) K[t] = 1e160 * Q[t];
    as_view_dense(&A, n, d, Q, n);
    as_view_dense(&B, n, d, K, n);
    as_rand_options_init(&o);
    as_det_options_init(&od);
    CHECK(as_rand_qkv(&A, &B, NULL, 0, &o, &s, &c) == AS_ERR_INPUT &&
          strstr(c.msg, "X X', X K' or K K' overflows") && strstr(c.msg, "scale X and K down") && !strstr(c.msg, "Z"),
          "rand, K overflows: %s", c.msg);
    CHECK(as_det_qkv(&A, &B, NULL, 0, &od, &s, &c) == AS_ERR_INPUT &&
          strstr(c.msg, "X X', X K' or K K' overflows") && !strstr(c.msg, "Z"), "det, K overflows: %s", c.msg);
    as_view_dense(&B, n, d, Q, n);
    o.mem_mb = 0.01;
    o.leverage = AS_LEV_EXACT;
    CHECK(as_rand_qkv(&A, &B, NULL, 0, &o, &s, &c) == AS_ERR_TOOBIG &&
          strstr(c.msg, "copy of [X; K]' (d x n = 100 x 40 doubles, n = nrow(X) + nrow(K) = 20 + 20 = 40)"),
          "rand, memory: %s", c.msg);
    od.mem_mb = 0.01;
    CHECK(as_det_qkv(&A, &B, NULL, 0, &od, &s, &c) == AS_ERR_TOOBIG &&
          strstr(c.msg, "(n = nrow(X) + nrow(K) = 20 + 20 = 40,"), "det, memory: %s", c.msg);
    as_rand_options_init(&o);
    o.s1 = 30;
    CHECK(as_rand_qkv(&A, &B, NULL, 0, &o, &s, &c) == AS_ERR_ARG &&
          strstr(c.msg, "'s1' must be at least nrow(X) + nrow(K) = 20 + 20 = 40, got 30"), "rand, s1: %s", c.msg);
    free(Q);
    free(K);
}

/* The cross Gram and the stacked Gram for every pair of storages (dense pairs
   go through BLAS dgemm, the others through the sparse loops), with and
   without an index and weights, against long double loops; the stacked Gram
   [Q; K][Q; K]' against the Gram of a copied stacked matrix. */
static void test_cross_kinds(void)
{
    int64_t n1 = 9, n2 = 13, d = 700, N = n1 + n2, k = 300, t, a, b;
    double *Q = make_m(n1, d, 0.4, 1, 51), *K = make_m(n2, d, 0.6, 1, 52), *Z = stack_copy(n1, n2, d, Q, K);
    double *L = malloc(sizeof(double) * (size_t)(n1 * n2)), *C = malloc(sizeof(double) * (size_t)(n2 * n1));
    double *G = malloc(sizeof(double) * (size_t)(N * N)), *Gz = malloc(sizeof(double) * (size_t)(N * N));
    int64_t idx[300];
    double w[300];
    check_views VQ, VK;
    as_matrix Sz, Dz;
    as_common c;
    int kq, kk, sub;
    for (t = 0; t < k; t++) {
        idx[t] = 2 * t + (t % 3 == 0);
        w[t] = 0.5 + as_rng_unif(53, 1, (uint64_t)t);
    }
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    as_view_dense(&Dz, N, d, Z, N);
    test_init(&c);
    for (sub = 0; sub < 4; sub++) {
        /* sub 0, 1: dense pairs by dgemm; 2, 3: by the loops */
        c.tune.qk_blas_madds = sub < 2 ? 0 : INFINITY;
        naive_logits(n1, n2, d, Q, K, (sub & 1) ? k : 0, (sub & 1) ? idx : NULL, (sub & 1) ? w : NULL, L);
        CHECK(as_gram(&Dz, (sub & 1) ? k : -1, (sub & 1) ? idx : NULL, (sub & 1) ? w : NULL, Gz, &c) == AS_OK, "%s", c.msg);
        for (kq = 0; kq < 3; kq++)
            for (kk = 0; kk < 3; kk++) {
                const as_matrix *q = kq == 0 ? &VQ.D : kq == 1 ? &VQ.S32 : &VQ.S64;
                const as_matrix *kv = kk == 0 ? &VK.D : kk == 1 ? &VK.S32 : &VK.S64;
                double err = 0, gerr = 0, scale = 0;
                /* C (n2 x n1) = K~ Q~': C(j, i) = L(i, j) */
                CHECK(as_cross_gram(kv, q, (sub & 1) ? k : -1, (sub & 1) ? idx : NULL, (sub & 1) ? w : NULL, 0, n1, C, &c) == AS_OK,
                      "%s", c.msg);
                for (a = 0; a < n1; a++)
                    for (b = 0; b < n2; b++) {
                        err = fmax(err, fabs(C[b + a * n2] - L[a + b * n1]));
                        scale = fmax(scale, fabs(L[a + b * n1]));
                    }
                CHECK(err <= 1e-13 * scale, "kinds %d %d sub %d: cross Gram off by %g (scale %g)", kq, kk, sub, err,
                      scale);
                as_view_stacked(&Sz, q, kv);
                CHECK(as_gram(&Sz, (sub & 1) ? k : -1, (sub & 1) ? idx : NULL, (sub & 1) ? w : NULL, G, &c) == AS_OK, "%s", c.msg);
                for (t = 0; t < N * N; t++) gerr = fmax(gerr, fabs(G[t] - Gz[t]));
                for (a = 0; a < N; a++)
                    for (b = 0; b < a; b++) gerr = fmax(gerr, fabs(G[a + b * N] - G[b + a * N]) * 1e3);
                CHECK(gerr <= 1e-12 * Gz[0] * 10, "kinds %d %d sub %d: stacked Gram off by %g", kq, kk, sub, gerr);
            }
    }
    c.tune.qk_blas_madds = 0;
    /* rows b0..b1-1 of B only: the blocks of as_attention_qkv */
    naive_logits(n1, n2, d, Q, K, 0, NULL, NULL, L);
    CHECK(as_cross_gram(&VK.D, &VQ.D, -1, NULL, NULL, 3, 7, C, &c) == AS_OK, "%s", c.msg);
    {
        double err = 0;
        for (a = 0; a < 4; a++)
            for (b = 0; b < n2; b++) err = fmax(err, fabs(C[b + a * n2] - L[(a + 3) + b * n1]));
        CHECK(err <= 1e-12, "rows 3..6 of Q: off by %g", err);
    }
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K); free(Z); free(L); free(C); free(G); free(Gz);
}

/* The stacked N x N Grams of the error estimate count against 'memory': a
   cap between what the sampling needs and what the estimate adds refuses it
   with the message of the estimate; estimate = false then runs. */
static void test_memory(void)
{
    int64_t n1 = 150, n2 = 150, d = 400, N = n1 + n2;
    double *Q = make_m(n1, d, 1.0, 0.05, 61), *K = make_m(n2, d, 1.0, 0.05, 62);
    double est_mib = 24.0 * (double)N * (double)N / 1048576.0;
    as_matrix A, B, S;
    as_rand_options o;
    as_result s;
    as_common c;
    stack_dense(n1, n2, d, Q, K, &A, &B, &S);
    test_init(&c);
    as_rand_options_init(&o);
    o.seed = 3;
    o.m = 200;
    o.error = 0;
    o.probabilities = AS_PROB_NORM;   /* no sketch: the probabilities need 36 d bytes */
    o.mem_mb = 0.5 * est_mib;
    CHECK(as_rand(&S, &o, &s, &c) == AS_ERR_TOOBIG && strstr(c.msg, "the error estimate needs 3 n x n arrays") &&
              strstr(c.msg, "above 'memory' = "),
          "a cap below the stacked Grams of the estimate: %d %s", c.status, c.msg);
    o.estimate = AS_ESTIMATE_NONE;
    CHECK(as_rand(&S, &o, &s, &c) == AS_OK, "without the estimate: %s", c.msg);
    as_result_free(&s, &c);
    o.estimate = AS_ESTIMATE_GAUSSIAN;
    o.mem_mb = 1.2 * est_mib;
    CHECK(as_rand(&S, &o, &s, &c) == AS_OK, "a cap above them: %s", c.msg);
    as_result_free(&s, &c);
    free(Q); free(K);
}

/* Bytes the core holds through its allocation hooks: now and at most. */
static size_t peak_live = 0, peak_max = 0;

static void *peak_malloc(size_t size)
{
    size_t *p = malloc(size + 16);
    if (!p) return NULL;
    p[0] = size;
#ifdef _OPENMP
#pragma omp critical(peak_bytes)
#endif
    {
        peak_live += size;
        if (peak_live > peak_max) peak_max = peak_live;
    }
    return (char *)p + 16;
}

static void peak_free(void *q)
{
    size_t *p;
    if (!q) return;
    p = (size_t *)((char *)q - 16);
#ifdef _OPENMP
#pragma omp critical(peak_bytes)
#endif
    peak_live -= p[0];
    free(p);
}

/* The stacked Gram is built inside its N x N output: what it allocates
   besides is panels, far below one more N x N copy (the 'memory' estimate
   counts the output alone). */
static void test_stacked_gram_memory(void)
{
    int64_t n1 = 500, n2 = 400, d = 120, N = n1 + n2, k = 60, t;
    double *Q = make_m(n1, d, 1.0, 0.05, 71), *K = make_m(n2, d, 0.2, 0.05, 72);
    double *G = malloc(sizeof(double) * (size_t)(N * N)), w[60];
    int64_t idx[60];
    check_views VQ, VK;
    as_matrix S;
    as_common c;
    int kind;
    for (t = 0; t < k; t++) { idx[t] = 2 * t; w[t] = 1.5; }
    check_views_make(&VQ, n1, d, Q);
    check_views_make(&VK, n2, d, K);
    for (kind = 0; kind < 2; kind++) {
        test_init(&c);
        c.malloc_fn = peak_malloc;
        c.free_fn = peak_free;
        as_view_stacked(&S, &VQ.D, kind ? &VK.S32 : &VK.D);
        peak_live = peak_max = 0;
        CHECK(as_gram(&S, -1, NULL, NULL, G, &c) == AS_OK && as_gram(&S, k, idx, w, G, &c) == AS_OK, "%s", c.msg);
        CHECK(peak_live == 0 && (double)peak_max < 0.25 * 8.0 * (double)(N * N),
              "K %s: the stacked Gram held %.0f bytes besides its output (N^2 doubles: %.0f)", kind ? "CSC" : "dense",
              (double)peak_max, 8.0 * (double)(N * N));
    }
    check_views_free(&VQ); check_views_free(&VK);
    free(Q); free(K); free(G);
}

int main(void)
{
    test_view_vs_copy(15, 11, 700, 0.3, AS_PROB_LEVERAGE, AS_SAMPLING_IID);
    test_view_vs_copy(15, 11, 700, 0.3, AS_PROB_LEVERAGE, AS_SAMPLING_POISSON);
    test_view_vs_copy(6, 9, 30, 0.5, AS_PROB_LEVERAGE, AS_SAMPLING_IID);   /* d <= s1: exact scores */
    test_metrics(13, 17, 500, 3, 0.08, 41);
    test_metrics(30, 8, 2000, 2, 0.03, 43);
    test_q_equals_k();
    test_det();
    test_qkv_call();
    test_threads();
    test_cross_kinds();
    test_memory();
    test_stacked_gram_memory();
    test_bad_inputs();
    test_messages_name_k();
    test_failures();
    return check_report("test_qkv");
}
