/* peak.c: the machine's multiply-add peak, measured: OpenBLAS dgemm (its AVX2/FMA kernels) and an in-cache SSE2 multiply-add loop (what the portable build can issue). */
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

/* 12 independent accumulators (more than the add latency times the issue
   width), operands in registers: counts issued multiply-adds, not memory. */
static double madd_loop(long iters)
{
    v2d a[12], x = {1.0000001, 0.9999999}, y = {1e-9, -1e-9};
    double s = 0;
    long t;
    int u;
    for (u = 0; u < 12; u++) a[u] = (v2d){(double)u, (double)-u};
    for (t = 0; t < iters; t++) {
        for (u = 0; u < 12; u++) a[u] = a[u] * x + y;
        __asm__ volatile("" : "+x"(x));   /* keep the loop from being folded */
    }
    for (u = 0; u < 12; u++) s += a[u][0] + a[u][1];
    return s;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 1, n = 3000, r;
    double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n),
           *C = malloc(sizeof(double) * n * n), one = 1.0, zero = 0.0, best = 0, sink = 0;
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
    best = 0;
    for (r = 0; r < 5; r++) {
        double t0 = now(), t;
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads) reduction(+:sink)
#endif
        sink += madd_loop(iters);
        t = now() - t0;
        if (24.0 * iters * nthreads / t > best) best = 24.0 * iters * nthreads / t;
    }
    printf("peak: in-cache SSE2 multiply + add loop, %d thread(s): %.1f G multiply-adds/s (checksum %g)\n",
           nthreads, best / 1e9, sink);
    free(A); free(B); free(C);
    return 0;
}
