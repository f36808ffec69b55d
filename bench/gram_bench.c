/* gram_bench.c: times the core's exact Gram X X' (and a Cholesky of it) on an ASBIN001 input, with its multiply-add rate; makes the uniform sparse input. */
/* Usage:
     gram_bench uniform FILE n d per_col seed    CSC n x d, per_col random rows a column
     gram_bench dense FILE n d seed              dense n x d, standard normal entries
     gram_bench time FILE [threads [heavy [chol [pair_keep]]]]
   `time` prints one line: seconds of as_gram, the multiply-adds it had to do
   (sum over columns of nnz(nnz+1)/2 for the light ones, n(n+1)/2 for the dense
   panels' columns), the rate in G multiply-adds/s, and with chol = 1 the
   seconds of dpotrf on G + 1e-10 tr(G)/n I. heavy sets c.tune.gram_heavy.
   Input format: see bench/core_tool.c. */
#include "as_internal.h"
#include "gram.h"
#include "rng.h"
#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what)
{
    fprintf(stderr, "gram_bench: %s\n", what);
    exit(1);
}

static void put(FILE *f, const void *p, size_t size, size_t count)
{
    if (fwrite(p, size, count, f) != count) fail("cannot write the input file");
}

static void get(FILE *f, void *p, size_t size, size_t count)
{
    if (fread(p, size, count, f) != count) fail("input file too short");
}

int main(int argc, char **argv)
{
    as_common c;
    as_common_init(&c);
    if (argc >= 7 && strcmp(argv[1], "uniform") == 0) {
        int64_t n = atoll(argv[3]), d = atoll(argv[4]), per = atoll(argv[5]), j, a, head[4];
        uint64_t seed = (uint64_t)atoll(argv[6]);
        unsigned char *mark = calloc((size_t)n, 1);
        int32_t *p = malloc(4 * (size_t)(d + 1)), *ri = malloc(4 * (size_t)(per > 0 ? per : 1));
        double *x = malloc(8 * (size_t)(per > 0 ? per : 1));
        FILE *f = fopen(argv[2], "wb");
        if (!f || !mark || !p || !ri || !x || per > n || n * d > 4e12) fail("bad sizes or no memory");
        for (j = 0; j <= d; j++) p[j] = (int32_t)(j * per);
        if (d * per > 2147483647LL) fail("too many nonzeros for int32 indices");
        head[0] = n; head[1] = d; head[2] = d * per; head[3] = 1;
        put(f, "ASBIN001", 1, 8);
        put(f, head, 8, 4);
        put(f, p, 4, (size_t)(d + 1));
        /* rows: Floyd's sample per column, in increasing order */
        for (j = 0; j < d; j++) {
            int64_t u = 0, e = 0;
            for (a = n - per; a < n; a++) {
                int64_t r = (int64_t)(as_rng_u64(seed, 1, (uint64_t)(j * 4096 + u++)) % (uint64_t)(a + 1));
                if (mark[r]) r = a;
                mark[r] = 1;
            }
            for (a = 0; a < n; a++) if (mark[a]) { ri[e++] = (int32_t)a; mark[a] = 0; }
            put(f, ri, 4, (size_t)per);
        }
        for (j = 0; j < d; j++) {
            for (a = 0; a < per; a++) x[a] = as_rng_normal(seed, 2, (uint64_t)(j * per + a));
            put(f, x, 8, (size_t)per);
        }
        if (fclose(f) != 0) fail("cannot write the input file");
        printf("gram_bench: %s: sparse %lld x %lld, %lld per column\n", argv[2], (long long)n,
               (long long)d, (long long)per);
        return 0;
    }
    if (argc >= 6 && strcmp(argv[1], "dense") == 0) {
        int64_t n = atoll(argv[3]), d = atoll(argv[4]), j, a, head[4];
        uint64_t seed = (uint64_t)atoll(argv[5]);
        double *x = malloc(8 * (size_t)n);
        FILE *f = fopen(argv[2], "wb");
        if (!f || !x) fail("no memory");
        head[0] = n; head[1] = d; head[2] = n * d; head[3] = 0;
        put(f, "ASBIN001", 1, 8);
        put(f, head, 8, 4);
        for (j = 0; j < d; j++) {
            for (a = 0; a < n; a++) x[a] = as_rng_normal(seed, 3, (uint64_t)(j * n + a));
            put(f, x, 8, (size_t)n);
        }
        if (fclose(f) != 0) fail("cannot write the input file");
        printf("gram_bench: %s: dense %lld x %lld\n", argv[2], (long long)n, (long long)d);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "time") == 0) {
        int64_t head[4], n, d, nnz, j, a;
        char magic[8];
        int32_t *p = NULL, *ri = NULL;
        double *x, *G, t0, tg, tc = -1, madds = 0, dense_madds = 0, tr = 0;
        as_matrix X;
        FILE *f = fopen(argv[2], "rb");
        if (!f) fail("cannot open the input file");
        get(f, magic, 1, 8);
        get(f, head, 8, 4);
        if (memcmp(magic, "ASBIN001", 8) != 0) fail("not an ASBIN001 file");
        n = head[0]; d = head[1]; nnz = head[2];
        c.nthreads = argc > 3 ? atoi(argv[3]) : 0;
        if (argc > 4) c.tune.gram_heavy = atof(argv[4]);
        x = malloc(8 * (size_t)nnz);
        G = malloc(8 * (size_t)(n * n));
        if (!x || !G) fail("no memory");
        if (head[3] == 0) {
            get(f, x, 8, (size_t)nnz);
            as_view_dense(&X, n, d, x, n);
            dense_madds = 0.5 * (double)n * (double)(n + 1) * (double)d;
        } else {
            p = malloc(4 * (size_t)(d + 1));
            ri = malloc(4 * (size_t)nnz);
            if (!p || !ri) fail("no memory");
            get(f, p, 4, (size_t)(d + 1));
            get(f, ri, 4, (size_t)nnz);
            get(f, x, 8, (size_t)nnz);
            as_view_csc32(&X, n, d, p, ri, x);
            for (j = 0; j < d; j++) {
                double z = (double)(p[j + 1] - p[j]);
                if (z >= ceil(c.tune.gram_heavy * (double)n) && z > 0 && c.tune.gram_heavy <= 1)
                    dense_madds += 0.5 * (double)n * (double)(n + 1);
                else madds += 0.5 * z * (z + 1);
            }
        }
        fclose(f);
        t0 = as_wtime();
        if (as_gram(&X, -1, NULL, NULL, G, &c) != AS_OK) fail(c.msg);
        tg = as_wtime() - t0;
        if (argc > 5 && atoi(argv[5])) {
            int nn = (int)n, info;
            for (a = 0; a < n; a++) tr += G[a + a * n];
            for (a = 0; a < n; a++) G[a + a * n] += 1e-10 * tr / (double)n;
            t0 = as_wtime();
            dpotrf_("L", &nn, G, &nn, &info, 1);
            tc = as_wtime() - t0;
            if (info != 0) fprintf(stderr, "gram_bench: dpotrf info %d\n", info);
        }
        if (argc > 6 && atof(argv[6]) > 0) {
            /* the error metrics' two Grams: X X' and a sample's (each column kept with
               probability argv[6], weight 1.5), as two as_gram calls and as as_gram_pair's
               one pass (c.tune.gram_pair_share = 0: whatever the sample's share) */
            double keep = atof(argv[6]), t2, tp, *H = malloc(8 * (size_t)(n * n)),
                   *w = malloc(8 * (size_t)(d > 0 ? d : 1));
            int64_t *idx = malloc(8 * (size_t)(d > 0 ? d : 1)), k = 0;
            if (!H || !w || !idx) fail("no memory");
            for (j = 0; j < d; j++)
                if (as_rng_unif(7, 1, (uint64_t)j) < keep) { idx[k] = j; w[k++] = 1.5; }
            t0 = as_wtime();
            if (as_gram(&X, -1, NULL, NULL, G, &c) != AS_OK || as_gram(&X, k, idx, w, H, &c) != AS_OK)
                fail(c.msg);
            t2 = as_wtime() - t0;
            c.tune.gram_pair_share = 0;
            t0 = as_wtime();
            if (as_gram_pair(&X, k, idx, w, G, H, &c) != AS_OK) fail(c.msg);
            tp = as_wtime() - t0;
            printf("gram_bench: %s threads=%d: X X' and a sample's Gram (k = %lld): two passes %.3f s, "
                   "one pass %.3f s (%.2fx)\n", argv[2], as_threads(&c), (long long)k, t2, tp, t2 / tp);
        }
        printf("gram_bench: %s n=%lld d=%lld nnz=%lld threads=%d heavy=%g: gram %.3f s, "
               "%.3g light + %.3g dense-panel multiply-adds, %.2f G/s; chol %.3f s\n",
               argv[2], (long long)n, (long long)d, (long long)nnz, as_threads(&c), c.tune.gram_heavy, tg,
               madds, dense_madds, (madds + dense_madds) / tg * 1e-9, tc);
        return 0;
    }
    fail("usage: gram_bench uniform FILE n d per_col seed | dense FILE n d seed | time FILE [threads [heavy [chol [pair_keep]]]]");
    return 1;
}
