/* core_tool.c: benchmark inputs (seeded, written once to binary files), their exact Gram, as_rand's phase timings and as_greedy's runs. */
/* Usage:
     core_tool gen-sparse FILE n d nnz seed   Zipf-like document-term matrix, rows of unit norm
     core_tool gen-dense  FILE n d r seed     attsparse_example (n, d, r, seed)
     core_tool gram IN OUT [threads]          exact G = X X' (n x n doubles) of a file
     core_tool run IN [threads [m [reps]]]    as_rand phase timings (verbose hook), sample checksum
     core_tool greedy IN [NAME=VALUE ...] TARGET ...
                                              as_greedy per target (a rel such as 0.02, or kN: a budget
                                              of N columns): columns kept, exact rel, rounds, seconds;
                                              NAME=VALUE sets the method's internal tunables (batch,
                                              lawson, diag, prune, centre, gain, two, minimax, kmax: the K-free
                                              fit past kmax kept columns), mmrows (option 'minimax')
                                              and threads, for
                                              the ablation table (make bench-greedy)
   File format (little-endian): "ASBIN001", int64 n, d, nnz, kind (0 dense, 1 CSC);
   dense: n*d doubles, column-major; CSC: int32 p[d+1], int32 i[nnz], double x[nnz]. */
#include "as_internal.h"
#include "greedy.h"
#include "rand.h"
#include "rng.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bin_matrix {
    int64_t n, d, nnz, kind;
    double *x;
    int32_t *p, *i;
} bin_matrix;

static void die(const char *what)
{
    fprintf(stderr, "core_tool: %s\n", what);
    exit(1);
}

static void write_bin(const char *path, const bin_matrix *B)
{
    FILE *f = fopen(path, "wb");
    int64_t head[4] = {B->n, B->d, B->nnz, B->kind};
    if (!f) die("cannot write the output file");
    fwrite("ASBIN001", 1, 8, f);
    fwrite(head, 8, 4, f);
    if (B->kind == 0) fwrite(B->x, 8, (size_t)(B->n * B->d), f);
    else {
        fwrite(B->p, 4, (size_t)B->d + 1, f);
        fwrite(B->i, 4, (size_t)B->nnz, f);
        fwrite(B->x, 8, (size_t)B->nnz, f);
    }
    if (fclose(f) != 0) die("write failed");
}

static void read_bin(const char *path, bin_matrix *B)
{
    FILE *f = fopen(path, "rb");
    char magic[8];
    int64_t head[4];
    size_t nx;
    if (!f) die("cannot open the input file");
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "ASBIN001", 8) != 0 || fread(head, 8, 4, f) != 4)
        die("not an ASBIN001 file");
    B->n = head[0]; B->d = head[1]; B->nnz = head[2]; B->kind = head[3];
    B->p = NULL; B->i = NULL;
    nx = B->kind == 0 ? (size_t)(B->n * B->d) : (size_t)B->nnz;
    if (B->kind != 0) {
        B->p = malloc(4 * ((size_t)B->d + 1));
        B->i = malloc(4 * (size_t)B->nnz);
        if (!B->p || !B->i) die("out of memory");
        if (fread(B->p, 4, (size_t)B->d + 1, f) != (size_t)B->d + 1 ||
            fread(B->i, 4, (size_t)B->nnz, f) != (size_t)B->nnz) die("short file");
    }
    B->x = malloc(8 * nx);
    if (!B->x) die("out of memory");
    if (fread(B->x, 8, nx, f) != nx) die("short file");
    fclose(f);
}

static void view(const bin_matrix *B, as_matrix *X)
{
    if (B->kind == 0) as_view_dense(X, B->n, B->d, B->x, B->n);
    else as_view_csc32(X, B->n, B->d, B->p, B->i, B->x);
}

/* Column counts c_j = min(n, C / rank_j) with rank_j a random permutation of
   1..d (a Zipf law over the vocabulary, columns in no particular order), C
   chosen so that the counts sum to about nnz; values (1 + log tf) * log(1 + n/c_j)
   with tf geometric; rows scaled to unit norm (so max G_ii = 1). */
static void gen_sparse(bin_matrix *B, int64_t n, int64_t d, double nnz, uint64_t seed)
{
    int64_t *rank = malloc(8 * (size_t)d), j, t, nz;
    int32_t *cnt = malloc(4 * (size_t)d);
    double lo = 1, hi = 1e15, C = 0, *rownorm = calloc((size_t)n, 8);
    unsigned char *mark = calloc((size_t)n, 1);
    if (!rank || !cnt || !rownorm || !mark) die("out of memory");
    for (j = 0; j < d; j++) rank[j] = j + 1;
    for (j = d - 1; j > 0; j--) {           /* Fisher-Yates */
        int64_t r = (int64_t)(as_rng_u64(seed, 11, (uint64_t)j) % (uint64_t)(j + 1)), tmp = rank[j];
        rank[j] = rank[r];
        rank[r] = tmp;
    }
    for (t = 0; t < 200; t++) {             /* bisect C */
        double total = 0;
        C = sqrt(lo * hi);
        for (j = 0; j < d; j++) {
            double c = floor(C / (double)rank[j] + 0.5);
            total += c < 1 ? 1 : (c > (double)n ? (double)n : c);
        }
        if (total > nnz) hi = C; else lo = C;
    }
    B->p = malloc(4 * ((size_t)d + 1));
    if (!B->p) die("out of memory");
    B->p[0] = 0;
    for (j = 0, nz = 0; j < d; j++) {
        double c = floor(C / (double)rank[j] + 0.5);
        cnt[j] = (int32_t)(c < 1 ? 1 : (c > (double)n ? (double)n : c));
        nz += cnt[j];
        if (nz > 2147483647LL) die("too many nonzeros for int32 indices");
        B->p[j + 1] = (int32_t)nz;
    }
    B->n = n; B->d = d; B->nnz = nz; B->kind = 1;
    B->i = malloc(4 * (size_t)nz);
    B->x = malloc(8 * (size_t)nz);
    if (!B->i || !B->x) die("out of memory");
    for (j = 0; j < d; j++) {
        int32_t *ri = B->i + B->p[j];
        int64_t c = cnt[j], a, u = 0;
        double idf = log(1.0 + (double)n / (double)c);
        if (c == n) for (a = 0; a < n; a++) ri[a] = (int32_t)a;
        else {
            /* Floyd's sample of c distinct rows */
            for (a = n - c; a < n; a++) {
                int64_t r = (int64_t)(as_rng_u64(seed, 12, (uint64_t)(j * 4096 + u++)) % (uint64_t)(a + 1));
                if (mark[r]) r = a;
                mark[r] = 1;
            }
            {   /* the marked rows, in increasing order */
                int64_t e = 0;
                for (a = 0; a < n; a++) if (mark[a]) { ri[e++] = (int32_t)a; mark[a] = 0; }
            }
        }
        for (a = 0; a < c; a++) {
            double uu = as_rng_unif(seed, 13, (uint64_t)(B->p[j] + a));
            double tf = 1.0 + floor(log(uu) / log(0.6));     /* geometric, mean 2.5 */
            double v = (1.0 + log(tf)) * idf;
            B->x[B->p[j] + a] = v;
            rownorm[ri[a]] += v * v;
        }
    }
    for (t = 0; t < nz; t++) B->x[t] /= sqrt(rownorm[B->i[t]]);
    free(rank); free(cnt); free(rownorm); free(mark);
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static as_common ctx;
static double t_start, t_last, c_last;

static void on_line(void *c, const char *line)
{
    double t = as_wtime(), u = cpu();
    (void)c;
    fprintf(stderr, "  [%7.3f s, +%6.3f wall, +%6.3f cpu] %s\n", t - t_start, t - t_last, u - c_last, line);
    t_last = t;
    c_last = u;
}

/* FNV-1a of the sample's index and weight bits (the same columns and weights: the same checksum). */
static uint64_t sample_hash(const as_result *S)
{
    uint64_t h = 1469598103934665603ULL;
    int64_t t;
    for (t = 0; t < S->k; t++) {
        uint64_t w;
        memcpy(&w, &S->weight[t], 8);
        h = (h ^ (uint64_t)S->index[t]) * 1099511628211ULL;
        h = (h ^ w) * 1099511628211ULL;
    }
    return h;
}

int main(int argc, char **argv)
{
    bin_matrix B;
    as_matrix X;
    if (argc < 3) die("usage: core_tool gen-sparse|gen-dense|gram|run FILE [threads [m [reps [rel]]]] ...");
    as_common_init(&ctx);
    memset(&B, 0, sizeof B);
    if (strcmp(argv[1], "gen-sparse") == 0 && argc == 7) {
        double t0 = as_wtime();
        gen_sparse(&B, atoll(argv[3]), atoll(argv[4]), atof(argv[5]), (uint64_t)atoll(argv[6]));
        write_bin(argv[2], &B);
        printf("core_tool: %s: sparse %lld x %lld, %lld nonzeros (%.1f s)\n", argv[2],
               (long long)B.n, (long long)B.d, (long long)B.nnz, as_wtime() - t0);
    } else if (strcmp(argv[1], "gen-dense") == 0 && argc == 7) {
        B.n = atoll(argv[3]); B.d = atoll(argv[4]); B.kind = 0; B.nnz = B.n * B.d;
        B.x = malloc(8 * (size_t)(B.n * B.d));
        if (!B.x) die("out of memory");
        if (as_example(B.n, B.d, atof(argv[5]), (uint64_t)atoll(argv[6]), B.x, &ctx) != AS_OK) die(ctx.msg);
        write_bin(argv[2], &B);
        printf("core_tool: %s: dense %lld x %lld\n", argv[2], (long long)B.n, (long long)B.d);
    } else if (strcmp(argv[1], "gram") == 0 && argc >= 4) {
        double *G, t0;
        FILE *f;
        read_bin(argv[2], &B);
        view(&B, &X);
        ctx.nthreads = argc > 4 ? atoi(argv[4]) : 0;
        G = malloc(8 * (size_t)(B.n * B.n));
        if (!G) die("out of memory");
        t0 = as_wtime();
        if (as_gram(&X, -1, NULL, NULL, G, &ctx) != AS_OK) die(ctx.msg);
        printf("core_tool: exact Gram of %s in %.2f s\n", argv[2], as_wtime() - t0);
        f = fopen(argv[3], "wb");
        if (!f || fwrite(G, 8, (size_t)(B.n * B.n), f) != (size_t)(B.n * B.n) || fclose(f) != 0)
            die("cannot write the Gram file");
    } else if (strcmp(argv[1], "run") == 0) {
        as_rand_options o;
        as_result S;
        int reps = argc > 5 ? atoi(argv[5]) : 1, r;
        read_bin(argv[2], &B);
        view(&B, &X);
        ctx.nthreads = argc > 3 ? atoi(argv[3]) : 0;
        ctx.verbose = 1;
        ctx.print_fn = on_line;
        as_rand_options_init(&o);
        o.seed = 1;
        o.m = argc > 4 ? atoll(argv[4]) : 0;
        /* argv[6]: a target rel (target mode; m is then left to it) */
        if (argc > 6) { o.rel = atof(argv[6]); o.m = 0; }
        for (r = 0; r < reps; r++) {
            uint64_t h;
            t_start = t_last = as_wtime();
            c_last = cpu();
            if (as_rand(&X, &o, &S, &ctx) != AS_OK) die(ctx.msg);
            h = sample_hash(&S);
            printf("core_tool: as_rand %.3f s (threads %d): m %lld, k %lld, rank %lld, s1 %lld, s %lld, s2 %lld, checksum %016llx\n",
                   as_wtime() - t_start, ctx.nthreads, (long long)S.m, (long long)S.k, (long long)S.rank,
                   (long long)S.s1, (long long)S.s, (long long)S.s2, (unsigned long long)h);
            as_result_free(&S, &ctx);
        }
    } else if (strcmp(argv[1], "greedy") == 0) {
        int t, approach = AS_APPROACH_AUTO;
        uint64_t seed = 1;
        int64_t mmrows = -1;
        read_bin(argv[2], &B);
        view(&B, &X);
        for (t = 3; t < argc; t++) {
            const char *a = argv[t], *eq = strchr(a, '=');
            as_greedy_options o;
            as_result S;
            double t0;
            if (eq) {
                double v = atof(eq + 1);
                if (strncmp(a, "batch=", 6) == 0) ctx.tune.greedy_batch = v;
                else if (strncmp(a, "lawson=", 7) == 0) ctx.tune.greedy_lawson = (int)v;
                else if (strncmp(a, "diag=", 5) == 0) ctx.tune.greedy_diag = v;
                else if (strncmp(a, "prune=", 6) == 0) ctx.tune.greedy_prune_share = v;
                else if (strncmp(a, "centre=", 7) == 0) ctx.tune.greedy_centre = (int)v;
                else if (strncmp(a, "gain=", 5) == 0) ctx.tune.greedy_gain = (int)v;
                else if (strncmp(a, "two=", 4) == 0) ctx.tune.greedy_two = (int)v;
                else if (strncmp(a, "minimax=", 8) == 0) ctx.tune.greedy_minimax = (int)v;
                else if (strncmp(a, "kmax=", 5) == 0) ctx.tune.greedy_k_max = (int64_t)v;
                else if (strncmp(a, "newton=", 7) == 0) ctx.tune.nnls_newton_max = (int64_t)v;
                else if (strncmp(a, "mmrows=", 7) == 0) mmrows = (int64_t)v;
                else if (strncmp(a, "threads=", 8) == 0) ctx.nthreads = (int)v;
                else if (strncmp(a, "approach=", 9) == 0) approach = (int)v;
                else if (strncmp(a, "seed=", 5) == 0) seed = (uint64_t)v;
                else if (strncmp(a, "verbose=", 8) == 0) { ctx.verbose = (int)v; ctx.print_fn = on_line; }
                else die("greedy: unknown setting (batch, lawson, diag, prune, centre, gain, two, minimax, kmax, mmrows, threads, approach, seed, verbose)");
                continue;
            }
            as_greedy_options_init(&o);
            o.approach = approach;
            o.seed = seed;
            if (mmrows >= 0) o.minimax = mmrows;
            if (a[0] == 'k') o.k = atoll(a + 1);
            else o.rel = atof(a);
            t0 = t_start = t_last = as_wtime();
            c_last = cpu();
            if (as_greedy(&X, &o, &S, &ctx) != AS_OK) die(ctx.msg);
            printf("core_tool: greedy %s %s: k %lld, rel %.4g%%, baseline %.4g%%, rounds %lld, checksum %016llx, %.2f s\n",
                   argv[2], a, (long long)S.k, 100 * S.metrics.rel, 100 * S.metrics.baseline, (long long)S.m,
                   (unsigned long long)sample_hash(&S), as_wtime() - t0);
            as_result_free(&S, &ctx);
        }
    } else die("usage: core_tool gen-sparse|gen-dense|gram|run|greedy FILE ...");
    return 0;
}
