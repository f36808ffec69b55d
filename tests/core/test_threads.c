/* test_threads.c: the randomized algorithm's passes (sketch, Cholesky/QR, score, sampling) give the same bits for every thread count, index width and vector width. */
#include "check.h"
#include "as_internal.h"
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

typedef struct csc {
    int64_t n, d, nnz;
    int32_t *p32, *i32;
    int64_t *p64, *i64;
    double *x;
} csc;

/* A wide sparse matrix with Zipf-like column counts (a few full columns,
   most with 1-5 entries), over enough columns for several chunks and bands
   of the sketch and score passes; dup > 0 repeats the first dup rows at the
   end (rank-deficient). */
static csc make_csc(int64_t n, int64_t d, int64_t dup, uint64_t seed)
{
    csc s;
    int64_t j, a, nz = 0, base = n - dup;
    unsigned char *mark = calloc((size_t)base, 1);
    double *col = calloc((size_t)base, sizeof(double));
    s.n = n; s.d = d;
    s.p32 = malloc(4 * (size_t)(d + 1)); s.p64 = malloc(8 * (size_t)(d + 1));
    s.i32 = malloc(4 * (size_t)(n * d)); s.i64 = malloc(8 * (size_t)(n * d));
    s.x = malloc(8 * (size_t)(n * d));
    s.p32[0] = 0; s.p64[0] = 0;
    for (j = 0; j < d; j++) {
        int64_t c = (int64_t)(3.0 * (double)base / (double)(1 + as_rng_u64(seed, 1, (uint64_t)j) % 1000)) + 1, t;
        if (c > base) c = base;
        for (t = 0; t < c; t++) {
            int64_t r = (int64_t)(as_rng_u64(seed, 2, (uint64_t)(j * 1024 + t)) % (uint64_t)base);
            mark[r] = 1;
            col[r] = as_rng_normal(seed, 3, (uint64_t)(j * 1024 + t));
        }
        for (a = 0; a < n; a++) {
            int64_t src = a < base ? a : a - base;
            if (mark[src]) {
                s.i32[nz] = (int32_t)a; s.i64[nz] = a; s.x[nz] = col[src]; nz++;
            }
        }
        memset(mark, 0, (size_t)base);
        s.p32[j + 1] = (int32_t)nz; s.p64[j + 1] = nz;
    }
    s.nnz = nz;
    free(mark);
    free(col);
    return s;
}

static void csc_free(csc *s) { free(s->p32); free(s->i32); free(s->p64); free(s->i64); free(s->x); }

static int same_sample(const as_result *a, const as_result *b)
{
    return a->k == b->k && a->m == b->m && a->rank == b->rank &&
           memcmp(a->index, b->index, 8 * (size_t)a->k) == 0 &&
           memcmp(a->weight, b->weight, 8 * (size_t)a->k) == 0;
}

/* as_rand and as_leverage on 1, 2 and 3 threads, CSC32 and CSC64, with and
   without the AVX2 score tile: every result the same bit for bit. */
static void check_invariance(const char *what, const as_matrix *X32, const as_matrix *X64,
                             int64_t expect_rank)
{
    as_common c;
    as_rand_options o;
    as_result ref, other;
    int64_t d = X32->ncol, rank = -1;
    double *lev_ref = malloc(8 * (size_t)d), *lev = malloc(8 * (size_t)d);
    int nt, avx;
    test_init(&c);
    as_rand_options_init(&o);
    o.seed = 2026;
    c.nthreads = 1;
    CHECK(as_rand(X32, &o, &ref, &c) == AS_OK, "%s: %s", what, c.msg);
    CHECK(ref.rank == expect_rank, "%s: rank %lld, expected %lld", what, (long long)ref.rank,
          (long long)expect_rank);
    CHECK(as_leverage(X32, &o, lev_ref, &rank, &c) == AS_OK, "%s: %s", what, c.msg);
    for (nt = 1; nt <= 3; nt++)
        for (avx = 0; avx <= 1; avx++) {
            const as_matrix *X = (nt + avx) % 2 ? X64 : X32;
            c.nthreads = nt;
            c.tune.scores_avx2 = avx;
            CHECK(as_rand(X, &o, &other, &c) == AS_OK, "%s: %s", what, c.msg);
            CHECK(same_sample(&ref, &other), "%s: %d thread(s), avx2 %d, %s: same sample as 1 thread",
                  what, nt, avx, X == X64 ? "CSC64" : "CSC32");
            as_result_free(&other, &c);
            CHECK(as_leverage(X, &o, lev, &rank, &c) == AS_OK, "%s: %s", what, c.msg);
            CHECK(memcmp(lev, lev_ref, 8 * (size_t)d) == 0, "%s: %d thread(s), avx2 %d: same leverage scores",
                  what, nt, avx);
        }
    as_result_free(&ref, &c);
    free(lev_ref);
    free(lev);
}

/* Approximate scores of the Cholesky path within a factor 3 of the exact ones. */
static void check_factor3(const char *what, const as_matrix *X)
{
    as_common c;
    as_rand_options o;
    int64_t d = X->ncol, j, rank, bad = 0;
    double *ex = malloc(8 * (size_t)d), *ap = malloc(8 * (size_t)d), lo = 1e300, hi = 0;
    test_init(&c);
    as_rand_options_init(&o);
    o.seed = 7;
    o.leverage = AS_LEV_EXACT;
    CHECK(as_leverage(X, &o, ex, &rank, &c) == AS_OK, "%s", c.msg);
    o.leverage = AS_LEV_APPROX;
    CHECK(as_leverage(X, &o, ap, &rank, &c) == AS_OK, "%s", c.msg);
    for (j = 0; j < d; j++) {
        if (ex[j] > 1e-12) {
            double r = ap[j] / ex[j];
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        } else bad += ap[j] > 1e-10;
    }
    CHECK(lo > 1.0 / 3 && hi < 3 && bad == 0, "%s: approx/exact in [%.3f, %.3f], %lld zero columns scored",
          what, lo, hi, (long long)bad);
    free(ex);
    free(ap);
}

int main(void)
{
    /* full rank (the Cholesky of the sketch's Gram) and rank-deficient (the
       pivoted-QR fallback); d spans several 4096-column chunks of the sketch
       and 16384-column chunks of the score pass */
    csc full = make_csc(40, 40000, 0, 11), def = make_csc(30, 20000, 6, 12);
    as_matrix F32, F64, D32, D64;
    as_view_csc32(&F32, full.n, full.d, full.p32, full.i32, full.x);
    as_view_csc64(&F64, full.n, full.d, full.p64, full.i64, full.x);
    as_view_csc32(&D32, def.n, def.d, def.p32, def.i32, def.x);
    as_view_csc64(&D64, def.n, def.d, def.p64, def.i64, def.x);
    check_invariance("full rank", &F32, &F64, 40);
    check_invariance("rank-deficient", &D32, &D64, 24);
    check_factor3("full rank", &F32);
    check_factor3("rank-deficient", &D32);
    {   /* dense input: the sketch's bands and the dgemm score pass */
        int64_t n = 20, d = 9000, t;
        double *X = malloc(8 * (size_t)(n * d));
        as_matrix D;
        as_common c;
        as_rand_options o;
        as_result a, b;
        for (t = 0; t < n * d; t++) X[t] = as_rng_normal(5, 1, (uint64_t)t);
        as_view_dense(&D, n, d, X, n);
        test_init(&c);
        as_rand_options_init(&o);
        o.seed = 3;
        c.nthreads = 1;
        CHECK(as_rand(&D, &o, &a, &c) == AS_OK, "%s", c.msg);
        c.nthreads = 2;
        CHECK(as_rand(&D, &o, &b, &c) == AS_OK, "%s", c.msg);
        CHECK(same_sample(&a, &b), "dense: 1 and 2 threads give the same sample");
        as_result_free(&a, &c);
        as_result_free(&b, &c);
        free(X);
    }
    csc_free(&full);
    csc_free(&def);
    printf("test_threads: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
