/* det_bench.c: wall time of as_det (tree search, eps 0.5) for one n x d case; built twice by det.mk, against the core and against the core of the eigendecomposition-per-step version, for a before/after table. */
#include "attsparse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* BET_OLD: this binary is linked with the old core, whose steps each run one
   symmetric eigendecomposition with vectors (dsyevr); else with the current one,
   whose steps each run two Cholesky factorizations, two inverses and two
   symmetric squares of rank-sized matrices. */
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dpotri_(const char *, const int *, double *, const int *, int *, size_t);
void dsyrk_(const char *, const char *, const int *, const int *, const double *, const double *,
            const int *, const double *, double *, const int *, size_t, size_t);
void dsyevr_(const char *, const char *, const char *, const int *, double *, const int *,
             const double *, const double *, const int *, const int *, const double *, int *,
             double *, double *, const int *, int *, double *, const int *, int *, const int *,
             int *, size_t, size_t, size_t);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds of the factorizations one step makes at rank r (median-free: the
   least of 3 runs, the machine being shared). */
static double factor_time(int r)
{
    double *S = malloc(sizeof(double) * (size_t)r * (size_t)r), *M = malloc(sizeof(double) * (size_t)r * (size_t)r);
    double *w = malloc(sizeof(double) * (size_t)r), *Z = malloc(sizeof(double) * (size_t)r * (size_t)r);
    double best = 1e300;
    int rep, i, j, info = 0;
    for (j = 0; j < r; j++)
        for (i = 0; i < r; i++) S[i + j * r] = (i == j ? r : 0) + 1.0 / (1 + i + j);
    for (rep = 0; rep < 3; rep++) {
        double t = now();
#ifdef BENCH_OLD
        int m = 0, il = 1, iu = r, lw = 26 * r + 1, liw = 10 * r + 1, *isz = malloc(sizeof(int) * 2 * (size_t)r);
        int *iw = malloc(sizeof(int) * (size_t)liw);
        double *wk = malloc(sizeof(double) * (size_t)lw), vl = 0, vu = 0, tol = 0;
        memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
        dsyevr_("V", "A", "L", &r, M, &r, &vl, &vu, &il, &iu, &tol, &m, w, Z, &r, isz, wk, &lw, iw, &liw, &info, 1, 1, 1);
        free(isz); free(iw); free(wk);
#else
        int k;
        double one = 1, zero = 0;
        for (k = 0; k < 2; k++) {
            memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
            dpotrf_("L", &r, M, &r, &info, 1);
            dpotri_("L", &r, M, &r, &info, 1);
            dsyrk_("L", "N", &r, &r, &one, M, &r, &zero, Z, &r, 1, 1);
        }
#endif
        t = now() - t;
        if (t < best) best = t;
    }
    free(S); free(M); free(w); free(Z);
    return info == 0 ? best : -1;
}

/* Timing of one run through the progress and interrupt hooks: the first
   iteration starts at the "det: start of Q iterations" line; past the budget
   the run is stopped and its time per iteration extrapolated. */
typedef struct run_clock {
    double t0, t_iter, t_stop, budget;
    long long Q, checks, checks_at_stop;
    int stopped;
} run_clock;

static void on_line(void *ctx, const char *line)
{
    run_clock *rc = ctx;
    if (strncmp(line, "det: start of ", 14) == 0) {
        rc->Q = atoll(line + 14);
        rc->t_iter = now();
    }
}

static int on_check(void *ctx)
{
    run_clock *rc = ctx;
    if (rc->t_iter < 0) return 0;
    rc->checks++;
    if (now() - rc->t_iter > rc->budget) {
        rc->t_stop = now();
        rc->stopped = 1;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long long n, d;
    double budget, *x, fact, per_iter, total, setup;
    long long iters;
    int checks_per_iter, st;
    as_common c;
    as_det_options o;
    as_matrix X;
    as_sample S;
    run_clock rc;
    if (argc < 5) {
        fprintf(stderr, "usage: det_bench n d budget_seconds interrupt_checks_per_iteration\n");
        return 2;
    }
    n = atoll(argv[1]);
    d = atoll(argv[2]);
    budget = atof(argv[3]);
    checks_per_iter = atoi(argv[4]);
    as_common_init(&c);
    x = malloc(sizeof(double) * (size_t)(n * d));
    if (!x || as_example(n, d, 1.0, 42, x, &c) != AS_OK) {
        fprintf(stderr, "det_bench: cannot make the %lld x %lld input\n", n, d);
        return 1;
    }
    as_view_dense(&X, n, d, x, n);
    memset(&rc, 0, sizeof(rc));
    rc.t_iter = -1;
    rc.budget = budget;
    c.ctx = &rc;
    c.print_fn = on_line;
    c.interrupt_fn = on_check;
    c.verbose = 1;
    as_det_options_init(&o);
    o.eps = 0.5;
    rc.t0 = now();
    st = as_det(&X, &o, &S, &c);
    setup = rc.t_iter - rc.t0;
    if (rc.stopped) {
        iters = rc.checks / checks_per_iter;
        if (iters < 1) iters = 1;
        per_iter = (rc.t_stop - rc.t_iter) / (double)iters;
        total = setup + per_iter * (double)rc.Q;
    } else if (st == AS_OK) {
        total = now() - rc.t0;
        iters = rc.Q;
        per_iter = (total - setup) / (double)(rc.Q > 0 ? rc.Q : 1);
    } else {
        fprintf(stderr, "det_bench: as_det failed: %s\n", c.msg);
        return 1;
    }
    fact = factor_time((int)n);
    /* n d Q iterations-run setup ms/iter total how factor-ms share */
    printf("%5lld %7lld %6lld %6lld %7.2f %8.2f %8.1f %-6s %8.2f %5.0f%%\n", n, d, rc.Q, iters, setup,
           1e3 * per_iter, total, rc.stopped ? "extrap" : "full", 1e3 * fact, 100 * fact / per_iter);
    as_sample_free(&S, &c);
    free(x);
    return 0;
}
