/* test_refit.c: the refit of option 'refit' without the k x k normal equations (refit_cd.c, taken above AS_REFIT_K_MAX columns): its result against the sample and the K-based fit, the same bits on any thread count, its memory check, its interrupt polls, every allocation and poll failing in turn. */
#define _POSIX_C_SOURCE 200112L
#include "as_internal.h"
#include "refit_cd.h"
#include "check.h"
#include "estimate.h"
#include "greedy.h"
#include "metrics.h"
#include "rand.h"
#include "refit.h"
#include "result.h"
#include "rng.h"
#include <string.h>

/* n x d Gaussian times scale, a fraction dens of the entries nonzero. */
static double *gauss(int64_t n, int64_t d, double dens, double scale, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) {
            uint64_t at = (uint64_t)(j * n + i);
            X[i + j * n] = as_rng_unif(seed, 1, at) < dens ? scale * as_rng_normal(seed, 2, at) : 0.0;
        }
    return X;
}

/* Steps of the minimax fit of the K-based refit (-1: the default). */
static int minimax_steps = -1;

/* A norm-Poisson sample of about m columns (seed 4), refitted or not, with
   c->tune.refit_k_max = kmax, on `threads` threads, a cap `mem`. */
static int sample(const as_matrix *X, double m, int refit, int64_t kmax, int threads, double mem, as_result *S,
                  as_common *c)
{
    as_rand_options ro;
    int st;
    as_common_init(c);
    c->tune.refit_k_max = kmax;
    if (minimax_steps >= 0) c->tune.greedy_minimax = minimax_steps;
    c->nthreads = threads;
    as_rand_options_init(&ro);
    ro.m = m;
    ro.probabilities = AS_PROB_NORM;
    ro.sampling = AS_SAMPLING_POISSON;
    ro.seed = 4;
    ro.refit = refit;
    ro.mem_mb = mem;
    st = as_rand(X, &ro, S, c);
    return st;
}

static int same_bits(const as_result *a, const as_result *b)
{
    return a->k == b->k && memcmp(a->index, b->index, sizeof(int64_t) * (size_t)a->k) == 0 &&
           memcmp(a->weight, b->weight, sizeof(double) * (size_t)a->k) == 0 && a->metrics.rel == b->metrics.rel;
}

/* The K-free refit of the small sample of test_greedy's refit test, in every
   storage: a subset of the sample's columns, rel exact and lowered (to within
   a third of what the K-based fit reaches), refit_rel the sample's own; the
   same bits on 1 and 3 threads. */
static void test_small(void)
{
    double *X = gauss(10, 2000, 0.3, 0.1, 90);
    check_views V;
    as_common c;
    as_result plain, kfit, fit, fit3;
    int kind;
    check_views_make(&V, 10, 2000, X);
    for (kind = 0; kind < 3; kind++) {
        const as_matrix *A = kind == 0 ? &V.D : kind == 1 ? &V.S32 : &V.S64;
        as_metrics M;
        int64_t a = 0, t;
        int subset = 1;
        CHECK(sample(A, 60, 0, 0, 1, 0, &plain, &c) == AS_OK, "view %d: %s", kind, c.msg);
        /* the K-based least-squares fit the K-free one approximates (its minimax fit off) */
        minimax_steps = 0;
        CHECK(sample(A, 60, 1, 1000000, 1, 0, &kfit, &c) == AS_OK, "view %d, K: %s", kind, c.msg);
        minimax_steps = -1;
        CHECK(sample(A, 60, 1, 0, 1, 0, &fit, &c) == AS_OK, "view %d, K-free: %s", kind, c.msg);
        CHECK(sample(A, 60, 1, 0, 3, 0, &fit3, &c) == AS_OK, "view %d, K-free, 3 threads: %s", kind, c.msg);
        for (t = 0; t < fit.k; t++) {
            while (a < plain.k && plain.index[a] < fit.index[t]) a++;
            subset = subset && a < plain.k && plain.index[a] == fit.index[t] && fit.weight[t] > 0;
        }
        CHECK(subset && fit.k > 0 && fit.k <= plain.k, "view %d: %lld of the sample's %lld columns, subset %d", kind,
              (long long)fit.k, (long long)plain.k, subset);
        CHECK(fit.refit_rel == plain.metrics.rel && kfit.refit_rel == plain.metrics.rel,
              "view %d: refit_rel %.17g, the sample's rel %.17g", kind, fit.refit_rel, plain.metrics.rel);
        memset(&M, 0, sizeof M);
        CHECK(as_attention_error(A, fit.k, fit.index, fit.weight, 0, &M, &c) == AS_OK &&
              fabs(M.rel - fit.metrics.rel) <= 1e-12 * M.rel, "view %d: rel %.17g, as_attention_error %.17g", kind,
              fit.metrics.rel, M.rel);
        CHECK(fit.metrics.rel < 0.5 * plain.metrics.rel && fit.metrics.rel <= 1.5 * kfit.metrics.rel,
              "view %d: rel %g after the K-free refit, %g before, %g after the K-based one", kind, fit.metrics.rel,
              plain.metrics.rel, kfit.metrics.rel);
        CHECK(fit.estimate_why == AS_WHY_REFIT && (fit.has & AS_HAS_REFIT), "view %d: the refit's fields", kind);
        CHECK(same_bits(&fit, &fit3), "view %d: 1 and 3 threads differ", kind);
        as_result_free(&plain, &c);
        as_result_free(&kfit, &c);
        as_result_free(&fit, &c);
        as_result_free(&fit3, &c);
    }
    check_views_free(&V);
    free(X);
}

/* Past AS_REFIT_K_MAX columns the K-free fit by default: a sample of about
   2000 columns on 30 rows refits within a cap the K-based fit's five k x k
   arrays (150 MiB) would exceed; a cap below its own need is refused before
   any work, naming the refit. */
static void test_memory(void)
{
    int64_t n = 30, d = 2500;
    double *X = gauss(n, d, 1.0, 0.05, 91);
    as_matrix A;
    as_common c;
    as_result plain, fit;
    int st;
    as_view_dense(&A, n, d, X, n);
    CHECK(sample(&A, 2200, 0, AS_REFIT_K_MAX, 1, 0, &plain, &c) == AS_OK && plain.k > AS_REFIT_K_MAX,
          "the sample: %lld columns: %s", (long long)plain.k, c.msg);
    st = sample(&A, 2200, 1, AS_REFIT_K_MAX, 1, 40, &fit, &c);
    CHECK(st == AS_OK && fit.metrics.rel < plain.metrics.rel && fit.refit_rel == plain.metrics.rel,
          "K-free under memory = 40: status %d, rel %g, the sample's %g: %s", st, fit.metrics.rel, plain.metrics.rel,
          c.msg);
    as_result_free(&fit, &c);
    st = sample(&A, 2200, 1, 1000000, 1, 40, &fit, &c);
    CHECK(st == AS_ERR_TOOBIG && strstr(c.msg, "the refit") && fit.index == NULL,
          "the K-based fit under memory = 40: status %d: %s", st, c.msg);
    st = sample(&A, 2200, 1, AS_REFIT_K_MAX, 1, 0.5, &fit, &c);
    CHECK(st == AS_ERR_TOOBIG && strstr(c.msg, "the refit") && fit.index == NULL,
          "K-free under memory = 0.5: status %d: %s", st, c.msg);
    as_result_free(&plain, &c);
    free(X);
}

/* ---------------------------------------------------------------- interrupt polls */
/* A K-free refit of a sample of 8000 draws on 200 rows polls at most 0.1 s of
   CPU apart (stopped inside the refit: 0.3 s of CPU after the sample alone
   took). */
static void test_polls(void)
{
    int64_t n = 200, d = 8000;
    double *X;
    as_matrix A;
    as_common c;
    as_rand_options ro;
    as_result S;
    int st;
    /* not under ATTSPARSE_UNTIMED (valgrind: the BLAS runs emulated, tens of
       times slower, and the gaps mean nothing); the stop at every poll is
       test_failures' */
    if (getenv("ATTSPARSE_UNTIMED")) return;
    X = gauss(n, d, 1.0, 0.012, 92);
    as_view_dense(&A, n, d, X, n);
    as_common_init(&c);
    c.nthreads = 1;
    c.interrupt_fn = gap_hook;
    as_rand_options_init(&ro);
    ro.m = 8000;
    ro.seed = 1;
    gap_stop_after = 1e9;
    gap_start = cpu_s();
    st = as_rand(&A, &ro, &S, &c);
    as_result_free(&S, &c);
    gap_stop_after = cpu_s() - gap_start + 0.3;
    ro.refit = 1;
    gap_start = gap_last = cpu_s();
    gap_max = 0;
    st = as_rand(&A, &ro, &S, &c);
    CHECK(st == AS_ERR_INTERRUPT && gap_max < 0.1 && S.index == NULL, "refit of %lld x %lld: status %d, polls %.3f s of CPU apart",
          (long long)n, (long long)d, st, gap_max);
    printf("test_refit: K-free refit %lld x %lld, m = 8000: polls at most %.3f s of CPU apart\n", (long long)n,
           (long long)d, gap_max);
    as_result_free(&S, &c);
    free(X);
}

/* ---------------------------------------------------------------- allocations and polls failing */
typedef struct refit_case { const as_matrix *X; } refit_case;

static int run_refit(void *arg, as_common *c)
{
    refit_case *rc = arg;
    as_rand_options ro;
    as_result S;
    int st;
    as_rand_options_init(&ro);
    ro.m = 16; ro.seed = 3; ro.probabilities = AS_PROB_NORM; ro.sampling = AS_SAMPLING_POISSON;
    ro.refit = 1; ro.error = 0;
    c->tune.refit_k_max = 0;
    st = as_rand(rc->X, &ro, &S, c);
    as_result_free(&S, c);
    return st;
}

static void test_failures(void)
{
    double *X = gauss(4, 80, 0.4, 0.3, 51);
    check_views V;
    refit_case rc;
    check_views_make(&V, 4, 80, X);
    rc.X = &V.D;
    check_every_failure("K-free refit, dense", run_refit, &rc);
    rc.X = &V.S64;
    check_every_failure("K-free refit, CSC64", run_refit, &rc);
    check_views_free(&V);
    free(X);
}

/* ---------------------------------------------------------------- the greedy method's memory check */
/* Live bytes of the core's allocations (a size before each block) and their peak. */
static double mem_live, mem_peak;

static void *mem_malloc(size_t size)
{
    double *p = malloc(size + 16);
    if (!p) return NULL;
    p[0] = (double)size;
    mem_live += (double)size;
    mem_peak = fmax(mem_peak, mem_live);
    return p + 2;
}

static void mem_free(void *q)
{
    double *p;
    if (!q) return;
    p = (double *)q - 2;
    mem_live -= p[0];
    free(p);
}

/* A greedy run on one thread under 'memory' = mem (MiB), the peak of what
   it allocated into *peak (MiB). */
static as_common mem_c;   /* the run's hooks: its result freed with them */

static int greedy_peak(const as_matrix *X, double rel, int64_t k, double mem, as_result *S, double *peak, char *msg)
{
    as_common c;
    as_greedy_options o;
    int st;
    as_common_init(&c);
    c.nthreads = 1;
    c.malloc_fn = mem_malloc;
    c.free_fn = mem_free;
    as_greedy_options_init(&o);
    o.rel = rel;
    o.k = k;
    o.mem_mb = mem;
    mem_live = mem_peak = 0;
    st = as_greedy(X, &o, S, &c);
    *peak = mem_peak / 1048576.0;
    strcpy(msg, c.msg);
    mem_c = c;
    return st;
}

/* The check is of the true maximum: a budget run under the smallest 'memory'
   its check passes (the figure of the message refusing less) allocates at
   most that, on dense and sparse input; a target run under a cap that binds
   midway allocates at most the cap too, and either returns the best it found
   (with AS_HAS_MEMORY and a warning naming 'memory') or refuses naming it. */
static void test_greedy_memory(void)
{
    int64_t n = 60, d = 3000;
    double *X = gauss(n, d, 0.5, 0.05, 93), peak, need;
    check_views V;
    as_result S;
    char msg[512], text[512];
    int kind, st;
    check_views_make(&V, n, d, X);
    for (kind = 0; kind < 2; kind++) {
        const as_matrix *A = kind == 0 ? &V.D : &V.S64;
        const char *at;
        st = greedy_peak(A, NAN, 300, 0.01, &S, &peak, msg);
        at = strstr(msg, "kept): ");
        need = at ? strtod(at + 7, NULL) : NAN;
        CHECK(st == AS_ERR_TOOBIG && need > 1 && peak == 0, "view %d: budget 300 under memory = 0.01: %s", kind, msg);
        st = greedy_peak(A, NAN, 300, need + 0.01, &S, &peak, msg);
        CHECK(st == AS_OK && S.k > 100 && peak <= need + 0.01, "view %d: budget 300 under memory = %.2f: status %d, "
              "%lld columns, peak %.3f MiB: %s", kind, need + 0.01, st, (long long)(st == AS_OK ? S.k : -1), peak, msg);
        if (st == AS_OK) as_result_free(&S, &mem_c);
        /* the target: 1% needs more than 300 columns; a cap at the budget's */
        st = greedy_peak(A, 0.01, 0, need + 0.01, &S, &peak, msg);
        CHECK(peak <= need + 0.01, "view %d: rel = 0.01 under memory = %.2f: peak %.3f MiB", kind, need + 0.01, peak);
        if (st == AS_OK) {
            CHECK((S.has & AS_HAS_MEMORY) && S.metrics.rel > 0.01 && as_target_warning(&S, text, sizeof text) &&
                  strstr(text, "'memory'"), "view %d: rel = 0.01 capped: rel %g, %lld columns", kind, S.metrics.rel,
                  (long long)S.k);
            as_result_free(&S, &mem_c);
        } else
            CHECK(st == AS_ERR_TOOBIG && strstr(msg, "'memory'"), "view %d: rel = 0.01 capped: status %d: %s", kind, st,
                  msg);
    }
    check_views_free(&V);
    free(X);
}

int main(void)
{
    test_small();
    test_memory();
    test_polls();
    test_failures();
    test_greedy_memory();
    return check_report("test_refit");
}
