/* peak.c: the machine's multiply-add peak, measured: OpenBLAS dgemm (its AVX2/FMA kernels) and in-cache SSE2 and AVX2 multiply + add loops (what the score pass's two tiles can issue). */
/* Usage: peak [threads]   (OpenBLAS reads OPENBLAS_NUM_THREADS; the loop runs on `threads` OpenMP threads)
   Prints multiply-adds per second (1 multiply-add = 2 flops), best of several runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc, size_t, size_t);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef double v2d __attribute__((vector_size(16)));

/* 12 independent accumulators in registers (more than the add latency
   times the issue width), operands in registers: counts issued
   multiply-adds, not memory traffic. */
static double madd_loop(long iters)
{
    v2d x = {1.0000001, 0.9999999}, y = {1e-9, -1e-9};
    v2d a0 = {0, 1}, a1 = {1, 2}, a2 = {2, 3}, a3 = {3, 4}, a4 = {4, 5}, a5 = {5, 6},
        a6 = {6, 7}, a7 = {7, 8}, a8 = {8, 9}, a9 = {9, 10}, a10 = {10, 11}, a11 = {11, 12}, s;
    long t;
    for (t = 0; t < iters; t++) {
        a0 = a0 * x + y; a1 = a1 * x + y; a2 = a2 * x + y; a3 = a3 * x + y;
        a4 = a4 * x + y; a5 = a5 * x + y; a6 = a6 * x + y; a7 = a7 * x + y;
        a8 = a8 * x + y; a9 = a9 * x + y; a10 = a10 * x + y; a11 = a11 * x + y;
        __asm__ volatile("" : "+x"(x), "+x"(y));   /* keep the loop from being folded */
    }
    s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    return s[0] + s[1];
}

/* The same with 256-bit vectors (what the score pass's AVX2 tile can issue):
   multiplies and adds, no FMA. */
typedef double v4d __attribute__((vector_size(32)));
__attribute__((target("avx2")))
static double madd_loop_avx2(long iters)
{
    v4d x = {1.0000001, 0.9999999, 1.0000001, 0.9999999}, y = {1e-9, -1e-9, 1e-9, -1e-9};
    v4d a0 = {0, 1, 2, 3}, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5,
        a6 = a0 + 6, a7 = a0 + 7, a8 = a0 + 8, a9 = a0 + 9, a10 = a0 + 10, a11 = a0 + 11, s;
    long t;
    for (t = 0; t < iters; t++) {
        a0 = a0 * x + y; a1 = a1 * x + y; a2 = a2 * x + y; a3 = a3 * x + y;
        a4 = a4 * x + y; a5 = a5 * x + y; a6 = a6 * x + y; a7 = a7 * x + y;
        a8 = a8 * x + y; a9 = a9 * x + y; a10 = a10 * x + y; a11 = a11 * x + y;
        __asm__ volatile("" : "+x"(x), "+x"(y));
    }
    s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    return s[0] + s[1] + s[2] + s[3];
}

/* Best multiply-add rate of a loop over 5 runs on nthreads threads. */
static double loop_rate(double (*loop)(long), double madds_per_iter, long iters, int nthreads)
{
    double best = 0, sink = 0;
    int r;
    for (r = 0; r < 5; r++) {
        double t0 = now(), t;
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads) reduction(+:sink)
#endif
        sink += loop(iters);
        t = now() - t0;
        if (madds_per_iter * iters * nthreads / t > best) best = madds_per_iter * iters * nthreads / t;
    }
    if (sink == 12345.678) printf(" ");   /* keep the loops' results alive */
    return best;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 1, n = 3000, r;
    double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n),
           *C = malloc(sizeof(double) * n * n), one = 1.0, zero = 0.0, best = 0;
    long i, iters = 20000000;
    if (!A || !B || !C) return 1;
    for (i = 0; i < (long)n * n; i++) { A[i] = 1.0 / (1 + i % 7); B[i] = 1.0 / (1 + i % 5); }
    for (r = 0; r < 5; r++) {
        double t0 = now(), t;
        dgemm_("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1);
        t = now() - t0;
        if ((double)n * n * n / t > best) best = (double)n * n * n / t;
    }
    printf("peak: dgemm %d x %d x %d (OPENBLAS_NUM_THREADS=%s): %.1f G multiply-adds/s\n", n, n, n,
           getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : "unset", best / 1e9);
    printf("peak: in-cache SSE2 multiply + add loop, %d thread(s): %.1f G multiply-adds/s\n",
           nthreads, loop_rate(madd_loop, 24.0, iters, nthreads) / 1e9);
    if (__builtin_cpu_supports("avx2"))
        printf("peak: in-cache AVX2 multiply + add loop, %d thread(s): %.1f G multiply-adds/s\n",
               nthreads, loop_rate(madd_loop_avx2, 48.0, iters, nthreads) / 1e9);
    free(A); free(B); free(C);
    return 0;
}
