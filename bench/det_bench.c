/* det_bench.c: wall time of as_det (tree search, eps 0.5) for one n x d case; built four times by det.mk (against the eigendecomposition-per-step core, two Cholesky-per-step cores and the current one) for a before/after table. */
#include "as_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef BENCH_OLD
#include "det_shared.h"
#include "det.h"
#endif

/* BENCH_OLD = 1: linked with the core whose steps each run one symmetric
   eigendecomposition with vectors (dsyevr); 2: with the core whose steps each
   run two Cholesky factorizations, two inverses and two symmetric squares;
   3: with the core whose steps each run two Cholesky factorizations and two
   triangular inverses (squares and a tree search only when no kept column
   qualifies); undefined: the current core, which refreshes an
   eigendecomposition (dsyevd) every few dozen steps and updates it in between
   by Woodbury's identity (no factorization of rank size per step). */
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dpotri_(const char *, const int *, double *, const int *, int *, size_t);
void dsyrk_(const char *, const char *, const int *, const int *, const double *, const double *,
            const int *, const double *, double *, const int *, size_t, size_t);
#if defined(BENCH_OLD) && BENCH_OLD == 3
int as_det_tri_inverse(int n, double *L, int ld);   /* that core's det_shared.h */
#endif
void dsyevd_(const char *, const char *, const int *, double *, const int *, double *, double *,
             const int *, int *, const int *, int *, size_t, size_t);
void dsyevr_(const char *, const char *, const char *, const int *, double *, const int *,
             const double *, const double *, const int *, const int *, const double *, int *,
             double *, double *, const int *, int *, double *, const int *, int *, const int *,
             int *, size_t, size_t, size_t);

/* Seconds of wall clock, or with the argument "cpu" of this process's CPU time
   (on a machine shared with other work, with one thread, the CPU time of a
   run is what it would take alone). */
static int use_cpu = 0;
static double now(void)
{
    struct timespec t;
    clock_gettime(use_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds of the factorizations one step makes at rank r (the least of 3
   runs, the machine being shared). */
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
#if defined(BENCH_OLD) && BENCH_OLD == 1
        int m = 0, il = 1, iu = r, lw = 26 * r + 1, liw = 10 * r + 1, *isz = malloc(sizeof(int) * 2 * (size_t)r);
        int *iw = malloc(sizeof(int) * (size_t)liw);
        double *wk = malloc(sizeof(double) * (size_t)lw), vl = 0, vu = 0, tol = 0;
        memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
        dsyevr_("V", "A", "L", &r, M, &r, &vl, &vu, &il, &iu, &tol, &m, w, Z, &r, isz, wk, &lw, iw, &liw, &info, 1, 1, 1);
        free(isz); free(iw); free(wk);
#elif defined(BENCH_OLD) && BENCH_OLD == 2
        int k;
        double one = 1, zero = 0;
        for (k = 0; k < 2; k++) {
            memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
            dpotrf_("L", &r, M, &r, &info, 1);
            dpotri_("L", &r, M, &r, &info, 1);
            dsyrk_("L", "N", &r, &r, &one, M, &r, &zero, Z, &r, 1, 1);
        }
#elif defined(BENCH_OLD)
        int k;
        for (k = 0; k < 2 && info == 0; k++) {
            memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
            dpotrf_("L", &r, M, &r, &info, 1);
            if (info == 0) info = as_det_tri_inverse(r, M, r);
        }
#else
        int lw = 1 + 6 * r + 2 * r * r, liw = 3 + 5 * r, *iw = malloc(sizeof(int) * (size_t)liw);
        double *wk = malloc(sizeof(double) * (size_t)lw);
        memcpy(M, S, sizeof(double) * (size_t)r * (size_t)r);
        dsyevd_("V", "L", &r, M, &r, w, wk, &lw, iw, &liw, &info, 1, 1);
        free(iw); free(wk);
#endif
        t = now() - t;
        if (t < best) best = t;
    }
    free(S); free(M); free(w); free(Z);
    return info == 0 ? best : -1;
}

/* Timing of one run through the progress and interrupt hooks: the first
   iteration starts at the "det: start of Q iterations" line; each
   "det: iteration q of Q" line records how far the run got; past the budget
   the run is stopped and its time extrapolated from the last such line. */
typedef struct run_clock {
    double t_iter, t_line, t_stop, budget;
    long long Q, q_line, checks, refreshes;
    int stopped;
} run_clock;

/* Interrupt polls per iteration of the eigendecomposition core, whose
   progress lines came only every tenth of a run: its stopped runs are
   extrapolated from the polls when no line came. */
#if defined(BENCH_OLD) && BENCH_OLD == 1
#define POLLS_PER_ITER 1
#else
#define POLLS_PER_ITER 0
#endif

static void on_line(void *ctx, const char *line)
{
    run_clock *rc = ctx;
    if (strncmp(line, "det: start of ", 14) == 0) {
        rc->Q = atoll(line + 14);
        rc->t_iter = now();
    } else if (strstr(line, " refreshes, ")) {
        /* "det: Q iterations in S steps, N searches, R refreshes, ..." */
        const char *p = strstr(line, " searches, ");
        if (p) rc->refreshes = atoll(p + 11);
    } else if (strncmp(line, "det: iteration ", 15) == 0) {
        rc->q_line = atoll(line + 15);
        rc->t_line = now();
    }
}

static int on_check(void *ctx)
{
    run_clock *rc = ctx;
    if (rc->t_iter < 0) return 0;
    rc->checks++;
    if (now() - rc->t_iter <= rc->budget) return 0;
    rc->t_stop = now();
    rc->stopped = 1;
    return 1;
}

int main(int argc, char **argv)
{
    long long n, d, steps;
    double budget, *x, fact, share, per_iter, total, setup, t0;
    int st;
    as_common c;
    as_det_options o;
    as_matrix X;
    as_result S;
    run_clock rc;
    if (argc < 4) {
        fprintf(stderr, "usage: det_bench n d budget_seconds [wall|cpu]\n");
        return 2;
    }
    n = atoll(argv[1]);
    d = atoll(argv[2]);
    budget = atof(argv[3]);
    use_cpu = argc > 4 && strcmp(argv[4], "cpu") == 0;
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
#if !defined(BENCH_OLD) || BENCH_OLD == 2
    o.error = 0;   /* the eig core computed no metrics in as_det */
#endif
    t0 = now();
    st = as_det(&X, &o, &S, &c);
    setup = rc.t_iter - t0;
    steps = rc.Q;
#ifndef BENCH_OLD
    if (st == AS_OK) steps = S.steps;
#endif
    if (rc.stopped) {
        if (rc.q_line < 1 && POLLS_PER_ITER > 0) {
            rc.q_line = rc.checks / (POLLS_PER_ITER > 0 ? POLLS_PER_ITER : 1);
            rc.t_line = rc.t_stop;
        }
        if (rc.q_line < 1) {
            fprintf(stderr, "det_bench: %lld x %lld stopped before its first progress line\n", n, d);
            return 1;
        }
        per_iter = (rc.t_line - rc.t_iter) / (double)rc.q_line;
        total = setup + per_iter * (double)rc.Q;
        steps = -1;
    } else if (st == AS_OK) {
        total = now() - t0;
        per_iter = (total - setup) / (double)(rc.Q > 0 ? rc.Q : 1);
    } else {
        fprintf(stderr, "det_bench: as_det failed: %s\n", c.msg);
        return 1;
    }
    fact = factor_time((int)n);
#ifdef BENCH_OLD
    share = 100 * fact / per_iter;   /* of a step */
#else
    /* the refreshes' share of the iterations (0 for a stopped run: its final
       line, with the count, never came) */
    share = rc.stopped ? 0.0 : 100 * fact * (double)rc.refreshes / (per_iter * (double)rc.Q);
#endif
    /* n d Q steps k setup ms/iter total how factor-ms share ("-": not known for a stopped run) */
    {
        char sk[32] = "-", kk[32] = "-";
        if (!rc.stopped) {
            snprintf(sk, sizeof sk, "%lld", steps);
            snprintf(kk, sizeof kk, "%lld", (long long)S.k);
        }
        printf("%5lld %7lld %6lld %6s %6s %7.2f %8.2f %8.1f %-6s %8.2f %5.0f%%\n", n, d, rc.Q, sk, kk, setup,
               1e3 * per_iter, total, rc.stopped ? "extrap" : "full", 1e3 * fact, share);
    }
    as_result_free(&S, &c);
    free(x);
    return 0;
}
