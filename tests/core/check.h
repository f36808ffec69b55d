/* check.h: a minimal test harness for the core's C tests; prints "N passed, N failed". */
#ifndef AS_CHECK_H
#define AS_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include "as_internal.h"
#include "rng.h"

static int check_passed = 0, check_failed = 0;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (cond) check_passed++;                                             \
        else {                                                                \
            check_failed++;                                                   \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

/* ---- failure injection through the core's hooks (attsparse.h must come first).
   check_malloc / check_free count calls and live blocks; call number
   check_fail_at (1-based) returns NULL. check_interrupt says stop at poll
   number check_stop_at. Atomic: the core may allocate inside parallel regions. */
static long check_alloc_calls = 0, check_alloc_live = 0, check_fail_at = -1;
static long check_polls = 0, check_stop_at = -1;
static long check_sites_total = 0, check_polls_total = 0;   /* exercised by check_every_failure */

static inline void *check_malloc(size_t size)
{
    long call;
    void *p;
#ifdef _OPENMP
#pragma omp atomic capture
#endif
    call = ++check_alloc_calls;
    if (call == check_fail_at) return NULL;
    p = malloc(size);
    if (p) {
#ifdef _OPENMP
#pragma omp atomic
#endif
        check_alloc_live++;
    }
    return p;
}

static inline void check_free(void *p)
{
    if (!p) return;
#ifdef _OPENMP
#pragma omp atomic
#endif
    check_alloc_live--;
    free(p);
}

static inline int check_interrupt(void *ctx)
{
    (void)ctx;
    return ++check_polls == check_stop_at;
}

/* A run under test: calls the core with c (hooks set), frees what a successful
   call returned, and returns the call's status. */
typedef int (*check_run_fn)(void *arg, as_common *c);

static inline int check_run_once(check_run_fn run, void *arg, int threads)
{
    as_common c;
    as_common_init(&c);
    c.malloc_fn = check_malloc;
    c.free_fn = check_free;
    c.interrupt_fn = check_interrupt;
    c.nthreads = threads;
    check_alloc_calls = check_alloc_live = check_polls = 0;
    return run(arg, &c);
}

/* Runs `run` `count` times, the k-th time with *knob = k (an allocation or a poll
   that fails); each run must return `expect` and leave no block live. Returns
   the number of runs that did not. */
static inline long check_sweep(const char *what, const char *kind, check_run_fn run, void *arg,
                               long *knob, long count, int expect)
{
    long k, bad = 0;
    int st;
    for (k = 1; k <= count; k++) {
        *knob = k;
        st = check_run_once(run, arg, 1);
        if (st != expect || check_alloc_live != 0) {
            if (bad++ < 3)
                fprintf(stderr, "%s: %s %ld of %ld failing: status %d, %ld blocks live\n", what, kind, k,
                        count, st, check_alloc_live);
        }
    }
    *knob = -1;
    return bad;
}

/* Every allocation of the run failing in turn ends in AS_ERR_NOMEM and every
   interrupt poll saying stop in turn ends in AS_ERR_INTERRUPT, with no block
   left live either way; the run itself succeeds and leaks nothing. One thread,
   so that the k-th allocation is the same one each time. Returns the number of
   allocations exercised. */
static inline long check_every_failure(const char *what, check_run_fn run, void *arg)
{
    long total, polls, bad;
    int st;
    check_fail_at = check_stop_at = -1;
    st = check_run_once(run, arg, 1);
    total = check_alloc_calls;
    polls = check_polls;
    CHECK(st == AS_OK && check_alloc_live == 0 && total > 0,
          "%s: status %d, %ld blocks live after a successful run of %ld allocations", what, st,
          check_alloc_live, total);
    bad = check_sweep(what, "allocation", run, arg, &check_fail_at, total, AS_ERR_NOMEM);
    bad += check_sweep(what, "interrupt poll", run, arg, &check_stop_at, polls, AS_ERR_INTERRUPT);
    CHECK(bad == 0, "%s: %ld allocation sites and %ld interrupt polls failing in turn: %ld bad runs",
          what, total, polls, bad);
    check_sites_total += total;
    check_polls_total += polls;
    return total;
}

/* X in all three storages (dense, CSC32, CSC64) from a dense n x d array. */
typedef struct check_views {
    int64_t n, d;
    double *dense, *x;
    int32_t *p32, *i32;
    int64_t *p64, *i64;
    as_matrix D, S32, S64;
} check_views;

static inline void check_views_make(check_views *V, int64_t n, int64_t d, const double *X)
{
    int64_t i, j, nz = 0;
    V->n = n;
    V->d = d;
    V->dense = malloc(sizeof(double) * (size_t)(n * d));
    memcpy(V->dense, X, sizeof(double) * (size_t)(n * d));
    V->x = malloc(sizeof(double) * (size_t)(n * d + 1));
    V->i32 = malloc(sizeof(int32_t) * (size_t)(n * d + 1));
    V->i64 = malloc(sizeof(int64_t) * (size_t)(n * d + 1));
    V->p32 = malloc(sizeof(int32_t) * (size_t)(d + 1));
    V->p64 = malloc(sizeof(int64_t) * (size_t)(d + 1));
    V->p32[0] = 0;
    V->p64[0] = 0;
    for (j = 0; j < d; j++) {
        for (i = 0; i < n; i++)
            if (X[i + j * n] != 0) {
                V->i32[nz] = (int32_t)i;
                V->i64[nz] = i;
                V->x[nz++] = X[i + j * n];
            }
        V->p32[j + 1] = (int32_t)nz;
        V->p64[j + 1] = nz;
    }
    as_view_dense(&V->D, n, d, V->dense, n);
    as_view_csc32(&V->S32, n, d, V->p32, V->i32, V->x);
    as_view_csc64(&V->S64, n, d, V->p64, V->i64, V->x);
}

static inline void check_views_free(check_views *V)
{
    free(V->dense); free(V->x); free(V->i32); free(V->i64); free(V->p32); free(V->p64);
}

/* dense n x d -> CSC arrays of both index widths (the caller makes the views) */
typedef struct { int32_t *p32, *i32; int64_t *p64, *i64; double *x; } check_csc;
static inline check_csc check_to_csc(const double *X, int n, int d)
{
    check_csc s;
    int64_t nz = 0, j, i;
    s.p32 = malloc(sizeof(int32_t) * (d + 1)); s.p64 = malloc(sizeof(int64_t) * (d + 1));
    s.i32 = malloc(sizeof(int32_t) * n * d); s.i64 = malloc(sizeof(int64_t) * n * d);
    s.x = malloc(sizeof(double) * n * d);
    s.p32[0] = 0; s.p64[0] = 0;
    for (j = 0; j < d; j++) {
        for (i = 0; i < n; i++) if (X[i + j * n] != 0) { s.i32[nz] = (int32_t)i; s.i64[nz] = i; s.x[nz] = X[i + j * n]; nz++; }
        s.p32[j + 1] = (int32_t)nz; s.p64[j + 1] = nz;
    }
    return s;
}
static inline void check_csc_free(check_csc *s) { free(s->p32); free(s->i32); free(s->p64); free(s->i64); free(s->x); }

/* n x d, each entry nonzero (standard normal) with probability density */
static inline double *check_random_matrix(int n, int d, double density, uint64_t seed)
{
    double *X = malloc(sizeof(double) * n * d);
    int64_t t;
    for (t = 0; t < (int64_t)n * d; t++)
        X[t] = as_rng_unif(seed, 1, (uint64_t)t) < density ? as_rng_normal(seed, 2, (uint64_t)t) : 0.0;
    return X;
}

static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}
/* ---- how far apart the interrupt polls are (c.interrupt_fn = gap_hook; a
   test that defines _POSIX_C_SOURCE, for clock_gettime) */
#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 199309L
static double gap_last, gap_max, gap_start;
static double gap_stop_after;

/* CPU seconds of the calling thread: the work between two polls, which is
   their distance on an idle core, whatever else the machine runs (the LAPACK
   pieces run on the caller's thread, the BLAS on one thread). */
static inline double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The longest gap in gap_max; stop once gap_stop_after seconds of CPU passed
   since gap_start. */
static inline int gap_hook(void *ctx)
{
    double t = cpu_s();
    (void)ctx;
    gap_max = fmax(gap_max, t - gap_last);
    gap_last = t;
    return t - gap_start > gap_stop_after;
}
#endif

#endif
