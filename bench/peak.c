/* peak.c: the machine's multiply-add peak, measured: OpenBLAS dgemm (its AVX2/FMA kernels) and in-cache SSE2 and AVX2 multiply + add loops (what the score pass's two tiles can issue);
   then the ceilings of the sparse passes' memory access: the score pass's gather multiply-add with its table in L1 and at the benchmark's size, and the sketch pass's reads of columns of X in sequence and a band's way. */
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

/* The sparse score pass's inner loop on synthetic data: for each of nnz
   entries (row index, value), 16 multiply-adds with a 16-double tile of row
   `index` of a table of `rows` rows (row stride `stride` doubles), summed per
   column of 100 entries. Rows drawn uniformly: the gather of the real pass. */
__attribute__((target("avx2")))
static double gather_avx2(const int *ri, const double *xv, long nnz, const double *T, long stride)
{
    double tot = 0;
    long j0, k;
    for (j0 = 0; j0 + 100 <= nnz; j0 += 100) {
        v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0, s;
        for (k = j0; k < j0 + 100; k++) {
            const double *r = T + (long)ri[k] * stride;
            v4d v = {xv[k], xv[k], xv[k], xv[k]}, t0, t1, t2, t3;
            memcpy(&t0, r, 32); memcpy(&t1, r + 4, 32); memcpy(&t2, r + 8, 32); memcpy(&t3, r + 12, 32);
            a0 += v * t0; a1 += v * t1; a2 += v * t2; a3 += v * t3;
        }
        s = a0 * a0 + a1 * a1 + a2 * a2 + a3 * a3;
        tot += s[0] + s[1] + s[2] + s[3];
    }
    return tot;
}

static double gather_rate(long rows, long stride, int nthreads)
{
    long nnz = 1L << 23, k, r;
    int *ri = malloc(sizeof(int) * nnz);
    double *xv = malloc(sizeof(double) * nnz), *T = malloc(sizeof(double) * rows * stride), best = 0,
           sink = 0;
    unsigned long z = 88172645463325252UL;
    if (!ri || !xv || !T) exit(1);
    for (k = 0; k < rows * stride; k++) T[k] = 1.0 / (1 + k % 7);
    for (k = 0; k < nnz; k++) {
        z ^= z << 13; z ^= z >> 7; z ^= z << 17;
        ri[k] = (int)(z % (unsigned long)rows);
        xv[k] = 1.0 / (1 + k % 11);
    }
    for (r = 0; r < 5; r++) {
        double t0 = now(), t;
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads) reduction(+:sink)
#endif
        sink += gather_avx2(ri, xv, nnz, T, stride);
        t = now() - t0;
        if (16.0 * nnz * nthreads / t > best) best = 16.0 * nnz * nthreads / t;
    }
    if (sink == 12345.678) printf(" ");
    free(ri); free(xv); free(T);
    return best;
}

/* The sketch pass's reads of X: columns of 100 (row index, value) entries,
   read in sequence (len a multiple of 4), and read a band's way (every 64th column, one band per
   thread, 64 sweeps: each column's entries are contiguous but the columns
   are apart). Bytes of X read per second. */
static double column_read_rate(int nthreads, long step)
{
    long ncol = 1500000, len = 100, nnz = ncol * len, k, r;
    int *ri = malloc(sizeof(int) * nnz);
    double *xv = malloc(sizeof(double) * nnz), best = 0, sink = 0;
    if (!ri || !xv) exit(1);
    for (k = 0; k < nnz; k++) { ri[k] = (int)(k % 2000); xv[k] = 1.0 / (1 + k % 13); }
    for (r = 0; r < 3; r++) {
        double t0 = now(), t;
        long g;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) reduction(+:sink) schedule(dynamic, 1)
#endif
        for (g = 0; g < step; g++) {
            long j, e;
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;   /* independent sums: not latency-bound */
            for (j = g; j < ncol; j += step)
                for (e = j * len; e < (j + 1) * len; e += 4) {
                    s0 += xv[e] * ri[e]; s1 += xv[e + 1] * ri[e + 1];
                    s2 += xv[e + 2] * ri[e + 2]; s3 += xv[e + 3] * ri[e + 3];
                }
            sink += s0 + s1 + s2 + s3;
        }
        t = now() - t0;
        if (12.0 * nnz / t > best) best = 12.0 * nnz / t;
    }
    if (sink == 12345.678) printf(" ");
    free(ri); free(xv);
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
    if (__builtin_cpu_supports("avx2")) {
        printf("ceiling: score pass's gather multiply-add (AVX2 tile of 16), table 64 x 16 (8 KiB, in L1), "
               "%d thread(s): %.1f G multiply-adds/s\n", nthreads, gather_rate(64, 16, nthreads) / 1e9);
        printf("ceiling: score pass's gather multiply-add (AVX2 tile of 16), table 2000 x 144 (the sparse "
               "benchmark's N', tile 250 KiB), %d thread(s): %.1f G multiply-adds/s\n", nthreads,
               gather_rate(2000, 144, nthreads) / 1e9);
    }
    printf("ceiling: sketch pass's reads of X (1.5e6 columns of 100 entries, 1.8 GB), in sequence, "
           "%d thread(s): %.1f GB/s\n", nthreads, column_read_rate(nthreads, 1) / 1e9);
    printf("ceiling: sketch pass's reads of X, every 64th column (a band's way), %d thread(s): %.1f GB/s\n",
           nthreads, column_read_rate(nthreads, 64) / 1e9);
    return 0;
}
