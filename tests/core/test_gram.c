/* test_gram.c: as_gram against a plain triple loop (dense, CSC32, CSC64, subsets, heavy and light columns), the same bits on any thread count, failures and interrupts. */
#include "check.h"
#include "as_internal.h"
#include "gram.h"
#include "metrics.h"
#include "rng.h"
#include "rand.h"
#include <string.h>

/* A context for these tests: small inputs on several threads too (the bits
   must not change). */
static void test_init(as_common *c)
{
    as_common_init(c);
    c->tune.parallel_min_work = 0;
}

/* n x d with column j holding about dens(j) * n nonzeros: a mix of empty,
   light and heavy (near dense) columns; rows beyond `rank` repeat the first. */
static double *make_x(int64_t n, int64_t d, int64_t rank, uint64_t seed)
{
    double *X = calloc((size_t)(n * d), sizeof(double));
    int64_t i, j;
    for (j = 0; j < d; j++) {
        double dens = j % 7 == 0 ? 0.0 : j % 5 == 0 ? 0.9 : j % 3 == 0 ? 0.3 : 0.05;
        for (i = 0; i < rank && i < n; i++) {
            uint64_t at = (uint64_t)(j * n + i);
            if (as_rng_unif(seed, 1, at) < dens) X[i + j * n] = as_rng_normal(seed, 2, at);
        }
        for (i = rank; i < n; i++) X[i + j * n] = X[i % rank + j * n];
    }
    return X;
}

/* sum_t w_t^2 x_t x_t' in long double, full storage */
static void naive_gram(int64_t n, const double *X, int64_t k, const int64_t *index,
                       const double *weight, double *G)
{
    int64_t a, b, t;
    for (a = 0; a < n; a++)
        for (b = 0; b < n; b++) {
            long double s = 0;
            for (t = 0; t < k; t++) {
                int64_t j = index ? index[t] : t;
                double w = weight ? weight[t] : 1.0;
                s += (long double)(w * w) * X[a + j * n] * X[b + j * n];
            }
            G[a + b * n] = (double)s;
        }
}

/* max |G - R| / max |R| (0 when both vanish) */
static double rel_diff(int64_t n, const double *G, const double *R)
{
    double dm = 0, rm = 0;
    int64_t a;
    for (a = 0; a < n * n; a++) {
        dm = fmax(dm, fabs(G[a] - R[a]));
        rm = fmax(rm, fabs(R[a]));
    }
    return rm > 0 ? dm / rm : dm;
}

static int symmetric(int64_t n, const double *G)
{
    int64_t a, b;
    for (a = 0; a < n; a++)
        for (b = 0; b < a; b++)
            if (G[a + b * n] != G[b + a * n]) return 0;
    return 1;
}

static void test_against_naive(int64_t n, int64_t d, int64_t rank, double heavy)
{
    double *X = make_x(n, d, rank, 7 + (uint64_t)n), *R = malloc(sizeof(double) * (size_t)(n * n)),
           *G = malloc(sizeof(double) * (size_t)(n * n)), *w = malloc(sizeof(double) * (size_t)d);
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)d), k = 0, j;
    check_views V;
    const as_matrix *views[3];
    int v, sub;
    as_common c;
    check_views_make(&V, n, d, X);
    views[0] = &V.D; views[1] = &V.S32; views[2] = &V.S64;
    for (j = 0; j < d; j += 1 + j % 3) {
        idx[k] = j;
        w[k++] = 0.5 + as_rng_unif(3, 4, (uint64_t)j);
    }
    for (sub = 0; sub < 3; sub++) {
        /* all columns; a weighted subset; one zero column */
        int64_t kk = sub == 0 ? d : sub == 1 ? k : 1;
        int64_t zero = 0;
        const int64_t *ix = sub == 0 ? NULL : sub == 1 ? idx : &zero;
        const double *wt = sub == 1 ? w : NULL;
        naive_gram(n, X, kk, ix, wt, R);
        for (v = 0; v < 3; v++) {
            test_init(&c);
            c.tune.gram_heavy = heavy;
            c.nthreads = 2;
            CHECK(as_gram(views[v], kk, ix, wt, G, &c) == AS_OK, "%s", c.msg);
            CHECK(rel_diff(n, G, R) <= 1e-13, "n=%lld d=%lld heavy=%g view %d subset %d: rel diff %g",
                  (long long)n, (long long)d, heavy, v, sub, rel_diff(n, G, R));
            CHECK(symmetric(n, G), "view %d subset %d: not symmetric", v, sub);
        }
    }
    check_views_free(&V);
    free(X); free(R); free(G); free(w); free(idx);
}

/* the same bits on 1..4 threads and with or without AVX2, dense and CSC,
   light and heavy columns */
static void test_threads(void)
{
    int64_t n = 301, d = 1200, nn = n * n;   /* two tiles a side */
    double *X = make_x(n, d, n, 11), *G1 = malloc(sizeof(double) * (size_t)nn),
           *Gt = malloc(sizeof(double) * (size_t)nn);
    check_views V;
    const as_matrix *views[2];
    int v, t;
    as_common c;
    check_views_make(&V, n, d, X);
    views[0] = &V.D; views[1] = &V.S32;
    for (v = 0; v < 2; v++) {
        test_init(&c);
        c.nthreads = 1;
        CHECK(as_gram(views[v], -1, NULL, NULL, G1, &c) == AS_OK, "%s", c.msg);
        for (t = 2; t <= 4; t++) {
            c.nthreads = t;
            CHECK(as_gram(views[v], -1, NULL, NULL, Gt, &c) == AS_OK, "%s", c.msg);
            CHECK(memcmp(G1, Gt, sizeof(double) * (size_t)nn) == 0,
                  "view %d: %d threads give other bits than 1", v, t);
        }
        /* the dense panels' baseline code: the bits of the AVX2 one */
        c.tune.gram_avx2 = 0;
        CHECK(as_gram(views[v], -1, NULL, NULL, Gt, &c) == AS_OK, "%s", c.msg);
        c.tune.gram_avx2 = 1;
        CHECK(memcmp(G1, Gt, sizeof(double) * (size_t)nn) == 0,
              "view %d: the baseline dense panels give other bits than the AVX2 ones", v);
    }
    check_views_free(&V);
    free(X); free(G1); free(Gt);
}

/* as_gram_pair: the bits of two as_gram calls (X X' and the sample's Gram),
   CSC32/64 and dense, on 1 to 3 threads, with heavy columns or none, for a
   sample of every column, of a few, and of one; weights far from 1 */
static void test_pair(double heavy, double share)
{
    int64_t n = 300, d = 1500, nn = n * n, k, t, pat;
    double *X = make_x(n, d, n, 19), *G = malloc(sizeof(double) * (size_t)nn),
           *H = malloc(sizeof(double) * (size_t)nn), *G2 = malloc(sizeof(double) * (size_t)nn),
           *H2 = malloc(sizeof(double) * (size_t)nn), *w = malloc(sizeof(double) * (size_t)d);
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)d);
    check_views V;
    const as_matrix *views[3];
    int v, th;
    as_common c;
    check_views_make(&V, n, d, X);
    views[0] = &V.S32; views[1] = &V.S64; views[2] = &V.D;
    for (pat = 0; pat < 3; pat++) {
        /* every column; every third with weights from 0.01 to 100; the last one */
        for (k = 0, t = 0; t < d; t++)
            if (pat == 0 || (pat == 1 && t % 3 == 1) || (pat == 2 && t == d - 1)) {
                idx[k] = t;
                w[k] = pat == 1 ? pow(10.0, 4.0 * as_rng_unif(23, 1, (uint64_t)t) - 2.0) : 1.5;
                k++;
            }
        for (v = 0; v < 3; v++)
            for (th = 1; th <= 3; th++) {
                test_init(&c);
                c.tune.gram_heavy = heavy;
                c.tune.gram_pair_share = share;
                c.nthreads = th;
                CHECK(as_gram(views[v], -1, NULL, NULL, G2, &c) == AS_OK, "%s", c.msg);
                CHECK(as_gram(views[v], k, idx, w, H2, &c) == AS_OK, "%s", c.msg);
                memset(G, 0xff, sizeof(double) * (size_t)nn);
                memset(H, 0xff, sizeof(double) * (size_t)nn);
                CHECK(as_gram_pair(views[v], k, idx, w, G, H, &c) == AS_OK, "%s", c.msg);
                CHECK(memcmp(G, G2, sizeof(double) * (size_t)nn) == 0,
                      "pair: heavy %g share %g view %d pattern %lld, %d threads: X X' differs from as_gram", heavy,
                      share, v, (long long)pat, th);
                CHECK(memcmp(H, H2, sizeof(double) * (size_t)nn) == 0,
                      "pair: heavy %g share %g view %d pattern %lld, %d threads: the sample's Gram differs from as_gram",
                      heavy, share, v, (long long)pat, th);
            }
    }
    check_views_free(&V);
    free(X); free(G); free(H); free(G2); free(H2); free(w); free(idx);
}

typedef struct gram_case { const as_matrix *X; int64_t k; const int64_t *index; const double *weight; } gram_case;

static int run_gram(void *arg, as_common *c)
{
    gram_case *gc = arg;
    double *G = malloc(sizeof(double) * (size_t)(gc->X->nrow * gc->X->nrow));
    int st = as_gram(gc->X, gc->k, gc->index, gc->weight, G, c);
    free(G);
    return st;
}

static int run_pair(void *arg, as_common *c)
{
    gram_case *gc = arg;
    size_t nn = (size_t)(gc->X->nrow * gc->X->nrow);
    double *G = malloc(sizeof(double) * nn), *H = malloc(sizeof(double) * nn);
    int st = as_gram_pair(gc->X, gc->k, gc->index, gc->weight, G, H, c);
    free(G);
    free(H);
    return st;
}

/* every allocation and every interrupt poll failing in turn; a big enough
   input for several blocks (so several polls: d above a chunk of columns) */
static void test_failures(void)
{
    int64_t n = 64, d = 20000;
    double *X = make_x(n, d, n, 13), w[3] = {1, 2, 3};
    int64_t idx[3] = {1, 5, 10};
    check_views V;
    gram_case gc;
    long polls;
    check_views_make(&V, n, d, X);
    gc.k = -1; gc.index = NULL; gc.weight = NULL;
    gc.X = &V.D;
    check_fail_at = check_stop_at = -1;
    check_run_once(run_gram, &gc, 1);
    polls = check_polls;
    CHECK(polls >= 2, "dense Gram of %lld columns polled the interrupt hook %ld times", (long long)d, polls);
    /* straight on X: no allocation, only the polls */
    CHECK(check_sweep("gram dense", "interrupt poll", run_gram, &gc, &check_stop_at, polls,
                      AS_ERR_INTERRUPT) == 0, "dense Gram: an interrupt poll saying stop did not stop it");
    gc.X = &V.S64;
    check_run_once(run_gram, &gc, 1);
    CHECK(check_polls >= 2, "CSC Gram polled %ld times", check_polls);
    check_every_failure("gram CSC64", run_gram, &gc);
    gc.X = &V.S32;
    check_every_failure("gram CSC32", run_gram, &gc);
    gc.k = 3; gc.index = idx; gc.weight = w;
    check_every_failure("gram CSC32 subset", run_gram, &gc);
    check_every_failure("gram pair CSC32", run_pair, &gc);
    gc.X = &V.S64;
    check_every_failure("gram pair CSC64", run_pair, &gc);
    gc.X = &V.S32;
    gc.X = &V.D;
    check_every_failure("gram dense subset", run_gram, &gc);
    check_views_free(&V);
    free(X);
}

/* the metrics stop on an interrupt inside the Gram */
static void test_metrics_interrupt(void)
{
    int64_t n = 64, d = 20000, idx[2] = {0, 3};
    double *X = make_x(n, d, n, 17), w[2] = {1, 1};
    check_views V;
    as_common c;
    as_metrics M;
    int st;
    check_views_make(&V, n, d, X);
    test_init(&c);
    c.interrupt_fn = check_interrupt;
    check_polls = 0;
    check_stop_at = 1;
    st = as_attention_error(&V.D, 2, idx, w, 0, &M, &c);
    CHECK(st == AS_ERR_INTERRUPT && check_polls == 1, "attention_error: status %d after %ld polls", st, check_polls);
    check_stop_at = -1;
    check_views_free(&V);
    free(X);
}

/* The light columns' summation order, which gives every entry its bits:
   G(b, a) is the sum over the columns in their order of (w^2 x_a) x_b,
   each product rounded, then added; here over more columns than one chunk
   holds, on 1 and 2 threads, against that plain loop in double. */
static void test_light_order(void)
{
    int64_t n = 60, d = 18000, a, b, t, k = 0, nn = n * n;   /* k > AS_GRAM_CHUNK_COLS */
    double *X = calloc((size_t)(n * d), sizeof(double)), *G = malloc(sizeof(double) * (size_t)nn),
           *R = malloc(sizeof(double) * (size_t)nn), *w = malloc(sizeof(double) * (size_t)d);
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)d), i, j;
    check_views V;
    int v, th;
    as_common c;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) {
            uint64_t at = (uint64_t)(j * n + i);
            if (as_rng_unif(11, 1, at) < (j % 4 == 0 ? 0.4 : 0.08)) X[i + j * n] = as_rng_normal(11, 2, at);
        }
    for (j = 0; j < d; j += 1 + j % 2) {
        idx[k] = j;
        w[k++] = 0.25 + as_rng_unif(11, 3, (uint64_t)j);
    }
    for (a = 0; a < n; a++)
        for (b = 0; b <= a; b++) {
            double s = 0;
            for (t = 0; t < k; t++) {
                double xa = X[a + idx[t] * n], xb = X[b + idx[t] * n];
                if (xa != 0 && xb != 0) s += (w[t] * w[t] * xa) * xb;
            }
            R[b + a * n] = R[a + b * n] = s;
        }
    check_views_make(&V, n, d, X);
    for (v = 0; v < 2; v++)
        for (th = 1; th <= 2; th++) {
            test_init(&c);
            c.tune.gram_heavy = 2.0;   /* every column light */
            c.nthreads = th;
            CHECK(as_gram(v == 0 ? &V.S32 : &V.S64, k, idx, w, G, &c) == AS_OK, "%s", c.msg);
            CHECK(memcmp(G, R, sizeof(double) * (size_t)nn) == 0,
                  "light order: view %d, %d threads: not the bits of the plain loop (rel diff %g)", v, th,
                  rel_diff(n, G, R));
        }
    check_views_free(&V);
    free(X); free(G); free(R); free(w); free(idx);
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

int main(void)
{
    test_against_naive(5, 40, 5, 0.25);
    test_against_naive(37, 500, 37, 0.25);
    test_against_naive(37, 500, 10, 0.25);    /* rank-deficient */
    test_against_naive(37, 500, 37, 2.0);     /* no heavy column */
    test_against_naive(37, 500, 37, 0.0);     /* every column heavy */
    test_against_naive(300, 800, 300, 0.25);  /* two tiles a side */
    test_threads();
    test_light_order();
    test_pair(0.25, 0.0);   /* one pass for every sample */
    test_pair(2.0, 0.0);    /* no heavy column */
    test_pair(0.0, 0.0);    /* every column heavy */
    test_pair(0.25, 0.5);   /* the default: two passes for the smaller samples */
    test_failures();
    test_metrics_interrupt();
    test_gram_and_views();
    return check_report("test_gram");
}
