/* test_blocks.c: a block run gives as_rand's index, weight and estimate bit for bit, and as_leverage's scores, for any block width, piece size and worker count, driven in-process or by workers; readers held to account. */
#include "check.h"
#include "estimate.h"
#include "rand.h"
#include "rng.h"
#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define TB_POSIX 1
#endif

static double *random_matrix(int64_t n, int64_t d, double density, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t t;
    for (t = 0; t < n * d; t++)
        X[t] = as_rng_unif(seed, 1, (uint64_t)t) < density ? as_rng_normal(seed, 2, (uint64_t)t) : 0.0;
    /* a few heavy columns, so that some Poisson q reach 1 */
    if (d > 23001)
        for (t = 0; t < n; t++) X[t + 17 * n] *= 40, X[t + 23001 * n] *= 60;
    return X;
}

/* CSC of columns j0 .. j1-1 of the dense n x d X (a block as a sparse reader returns it) */
typedef struct { int32_t *p, *i; double *x; } csc32;
static csc32 csc_cols(const double *X, int64_t n, int64_t j0, int64_t j1)
{
    csc32 s;
    int64_t j, r, nz = 0;
    s.p = malloc(sizeof(int32_t) * (size_t)(j1 - j0 + 1));
    s.i = malloc(sizeof(int32_t) * (size_t)(n * (j1 - j0) + 1));
    s.x = malloc(sizeof(double) * (size_t)(n * (j1 - j0) + 1));
    s.p[0] = 0;
    for (j = j0; j < j1; j++) {
        for (r = 0; r < n; r++)
            if (X[r + j * n] != 0) { s.i[nz] = (int32_t)r; s.x[nz] = X[r + j * n]; nz++; }
        s.p[j - j0 + 1] = (int32_t)nz;
    }
    return s;
}
static void csc_free(csc32 *s) { free(s->p); free(s->i); free(s->x); s->p = NULL; s->i = NULL; s->x = NULL; }

/* A reader over a dense X in memory: dense views, or CSC copies; `flaky`
   changes one entry from the second read of column 30000 on; `nan_at` puts a
   NaN there; `fail_at` fails the read of that column with a message. */
typedef struct reader_ctx {
    const double *X;
    int64_t n, d, reads, columns;
    int sparse, flaky, seen;
    int64_t nan_at, fail_at;
    csc32 tmp;
    double *copy;
} reader_ctx;

static int test_read(void *ctx, int64_t j0, int64_t j1, as_matrix *B, char *msg, size_t len)
{
    reader_ctx *r = ctx;
    const double *src = r->X + j0 * r->n;
    r->reads++;
    r->columns += j1 - j0;
    if (r->fail_at >= j0 && r->fail_at < j1) {
        snprintf(msg, len, "disk on fire at column %lld", (long long)(r->fail_at + 1));
        return 1;
    }
    if (r->flaky || r->nan_at >= 0) {
        int64_t at = r->flaky ? 29999 : r->nan_at;
        free(r->copy);
        r->copy = malloc(sizeof(double) * (size_t)(r->n * (j1 - j0)));
        memcpy(r->copy, src, sizeof(double) * (size_t)(r->n * (j1 - j0)));
        if (at >= j0 && at < j1) {
            if (r->nan_at >= 0) r->copy[(at - j0) * r->n + 1] = NAN;
            else if (r->seen++ > 0) r->copy[(at - j0) * r->n + 1] += 1e-3;
        }
        src = r->copy;
    }
    if (!r->sparse) { as_view_dense(B, r->n, j1 - j0, src, r->n); return 0; }
    csc_free(&r->tmp);
    r->tmp = csc_cols(src - j0 * r->n, r->n, j0, j1);
    as_view_csc32(B, r->n, j1 - j0, r->tmp.p, r->tmp.i, r->tmp.x);
    return 0;
}

static void reader_init(reader_ctx *r, const double *X, int64_t n, int64_t d, int sparse)
{
    memset(r, 0, sizeof *r);
    r->X = X;
    r->n = n;
    r->d = d;
    r->sparse = sparse;
    r->nan_at = r->fail_at = -1;
}
static void reader_done(reader_ctx *r) { csc_free(&r->tmp); free(r->copy); r->copy = NULL; }

/* The run through the in-process driver, pieces of `piece` columns. */
static int run_drive(int what, reader_ctx *rc, const void *o, const as_matrix *Y, int64_t width, int64_t piece,
                     as_blocks **run, as_common *c)
{
    as_reader rd;
    rd.read = test_read;
    rd.ctx = rc;
    rd.piece = piece;
    if (as_blocks_new(what, rc->n, rc->d, o, Y, width, 1, run, c) != AS_OK) return c->status;
    return as_blocks_drive(*run, &rd, c);
}

/* The run as a front-end with `workers` drives it: each wave's blocks read
   whole and worked in reverse order (the work of a block does not depend on
   the others), the partials merged in block order. */
static int run_workers(int what, reader_ctx *rc, const void *o, int64_t width, int64_t workers,
                       as_blocks **run, as_common *c)
{
    const void *task;
    size_t len;
    if (as_blocks_new(what, rc->n, rc->d, o, NULL, width, workers, run, c) != AS_OK) return c->status;
    while (as_blocks_next(*run, &task, &len, c) == AS_OK && task) {
        int64_t t, count = as_blocks_task_count(task, len);
        void **parts = calloc((size_t)count, sizeof(void *));
        size_t *plen = calloc((size_t)count, sizeof(size_t));
        for (t = count - 1; t >= 0; t--) {
            int64_t j0, j1, ncols, u;
            const int64_t *cols;
            as_matrix B;
            double *Xc = NULL;
            csc32 sc = {NULL, NULL, NULL};
            as_blocks_task_block(task, len, t, &j0, &j1, &cols, &ncols);
            if (cols) {   /* a gather reads only the chosen columns */
                Xc = malloc(sizeof(double) * (size_t)(rc->n * ncols + 1));
                for (u = 0; u < ncols; u++) memcpy(Xc + u * rc->n, rc->X + cols[u] * rc->n, sizeof(double) * (size_t)rc->n);
                if (rc->sparse) {
                    sc = csc_cols(Xc, rc->n, 0, ncols);
                    as_view_csc32(&B, rc->n, ncols, sc.p, sc.i, sc.x);
                } else as_view_dense(&B, rc->n, ncols, Xc, rc->n);
            } else {
                char msg[8];
                test_read(rc, j0, j1, &B, msg, sizeof msg);
            }
            CHECK(as_blocks_work(task, len, t, &B, &parts[t], &plen[t], c) == AS_OK, "work: %s", c->msg);
            free(Xc);
            csc_free(&sc);
        }
        for (t = 0; t < count; t++) {
            if (c->status == AS_OK) as_blocks_merge(*run, parts[t], plen[t], c);
            as_free(c, parts[t]);
        }
        free(parts);
        free(plen);
        if (c->status != AS_OK) return c->status;
    }
    return c->status;
}

static int same_sample(const as_result *A, const as_result *B)
{
    int64_t t;
    if (A->k != B->k || A->m != B->m || A->rank != B->rank || A->s1 != B->s1 || A->s2 != B->s2) return 0;
    for (t = 0; t < A->k; t++)
        if (A->index[t] != B->index[t] || memcmp(&A->weight[t], &B->weight[t], sizeof(double)) != 0) return 0;
    if (memcmp(&A->rel_estimate, &B->rel_estimate, sizeof(double)) != 0) return 0;
    if (memcmp(&A->beta, &B->beta, sizeof(double)) != 0) return 0;
    return 1;
}

static double rel_diff(double a, double b)
{
    return a == b ? 0 : fabs(a - b) / fabs(b);
}

static void test_equal(int sparse, int sampling, int prob)
{
    int64_t n = 12, d = 40000, pieces[] = {0, 5000, 777, 97}, widths[] = {0, 32768, 100000}, workers[] = {1, 3, 2};
    double *X = random_matrix(n, d, sparse ? 0.2 : 1.0, 11);
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_result S;
    as_metrics first;
    csc32 full = {NULL, NULL, NULL};
    reader_ctx rc;
    as_blocks *run = NULL;
    int g;
    as_common_init(&c);
    c.nthreads = 2;
    as_rand_options_init(&o);
    o.seed = 99;
    o.m = 300;
    o.sampling = sampling;
    o.probabilities = prob;
    if (sparse) { full = csc_cols(X, n, 0, d); as_view_csc32(&A, n, d, full.p, full.i, full.x); }
    else as_view_dense(&A, n, d, X, n);
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "as_rand: %s", c.msg);
    for (g = 0; g < 7; g++) {
        const as_blocks_result *R;
        reader_init(&rc, X, n, d, sparse);
        if (g < 4) {
            if (pieces[g] == 97 && !(sparse == 0 && sampling == AS_SAMPLING_POISSON && prob == AS_PROB_LEVERAGE))
                { reader_done(&rc); continue; }   /* many small pieces: once is enough */
            run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, pieces[g], &run, &c);
        } else run_workers(AS_BLOCKS_RAND, &rc, &o, widths[g - 4], workers[g - 4], &run, &c);
        R = as_blocks_result_get(run);
        CHECK(c.status == AS_OK && R, "blocks: %s", c.msg);
        if (R) {
            CHECK(same_sample(&S, &R->S), "%s %s prob %d: case %d: k %lld vs %lld", sparse ? "CSC" : "dense",
                  sampling ? "poisson" : "iid", prob, g, (long long)S.k, (long long)R->S.k);
            CHECK(R->Xs.ncol == R->S.k && R->reads == (prob == AS_PROB_NORM ? 2 : 3),
                  "kept columns %lld, reads %lld", (long long)R->Xs.ncol, (long long)R->reads);
            /* the metrics: to 1e-12 of the in-memory ones, the same bits for the same pieces */
            CHECK(rel_diff(R->S.metrics.rel, S.metrics.rel) < 1e-12 && rel_diff(R->S.metrics.inf, S.metrics.inf) < 1e-12 &&
                  rel_diff(R->S.metrics.eps_spectral, S.metrics.eps_spectral) < 1e-10,
                  "metrics: rel %.17g vs %.17g", R->S.metrics.rel, S.metrics.rel);
            if (g == 0) first = R->S.metrics;
            else if (g >= 4)
                CHECK(memcmp(&first, &R->S.metrics, sizeof first) == 0, "metrics by workers (case %d) differ from the "
                      "driver's in chunks: rel %.17g vs %.17g", g, R->S.metrics.rel, first.rel);
        }
        as_blocks_free(run, &c);
        run = NULL;
        reader_done(&rc);
    }
    CHECK(S.k > 10 && S.rank == n, "a sample of %lld columns, rank %lld", (long long)S.k, (long long)S.rank);
    as_result_free(&S, &c);
    if (sparse) csc_free(&full);
    free(X);
}

/* Target mode read by blocks: the in-memory call's index, weight, m, rounds
   and estimate bit for bit, through the driver and through workers (any
   block grid), in at most 4 reads of X (sketch, scores, the pilots' columns,
   those the predicted round adds; a round that misses reads once more). */
static void test_target(int sparse, int prob, double rel)
{
    int64_t n = 12, d = 40000, widths[] = {0, 32768}, workers[] = {1, 3}, pieces[] = {0, 777};
    double *X = random_matrix(n, d, sparse ? 0.2 : 1.0, 5), scale;
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_result S;
    csc32 full = {NULL, NULL, NULL};
    reader_ctx rc;
    as_blocks *run = NULL;
    int g;
    int64_t t;
    /* rows of squared norm about 1 (logits of attention's scale) */
    scale = 1 / sqrt((sparse ? 0.2 : 1.0) * (double)d + 3600 + 1600);
    for (t = 0; t < n * d; t++) X[t] *= scale;
    as_common_init(&c);
    as_rand_options_init(&o);
    o.seed = 7;
    o.rel = rel;
    o.probabilities = prob;
    if (sparse) { full = csc_cols(X, n, 0, d); as_view_csc32(&A, n, d, full.p, full.i, full.x); }
    else as_view_dense(&A, n, d, X, n);
    /* the exact error (asked for by default) meets the target; the estimate is
       of the smallest draw that met it, and may be above it */
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK && S.metrics.rel <= rel && S.estimate == AS_ESTIMATE_GAUSSIAN,
          "as_rand: rel %g, estimate %g: %s", S.metrics.rel, S.rel_estimate, c.msg);
    for (g = 0; g < 4; g++) {
        const as_blocks_result *R;
        reader_init(&rc, X, n, d, sparse);
        /* pieces below the dgemm width: sparse only (a dense score pass in 777
           columns makes other dgemm calls, whose last bits may differ) */
        if (g == 1 && !sparse) { reader_done(&rc); continue; }
        if (g < 2) run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, pieces[g], &run, &c);
        else run_workers(AS_BLOCKS_RAND, &rc, &o, widths[g - 2], workers[g - 2], &run, &c);
        R = as_blocks_result_get(run);
        CHECK(c.status == AS_OK && R, "target blocks: %s", c.msg);
        if (R) {
            CHECK(same_sample(&S, &R->S) && R->S.rounds == S.rounds && R->S.probabilities == S.probabilities &&
                  memcmp(&R->S.inf_estimate, &S.inf_estimate, sizeof(double)) == 0,
                  "%s prob %d rel %g, case %d: k %lld vs %lld, m %lld vs %lld, estimate %.17g vs %.17g, inf %.17g vs "
                  "%.17g, rank %lld vs %lld, s2 %lld vs %lld, beta %g vs %g, rounds %d vs %d, prob %d vs %d", sparse ? "CSC" : "dense", prob, rel, g,
                  (long long)S.k, (long long)R->S.k, (long long)S.m, (long long)R->S.m, S.rel_estimate,
                  R->S.rel_estimate, S.inf_estimate, R->S.inf_estimate, (long long)S.rank, (long long)R->S.rank,
                  (long long)S.s2, (long long)R->S.s2, S.beta, R->S.beta, S.rounds, R->S.rounds, S.probabilities, R->S.probabilities);
            CHECK(R->Xs.ncol == R->S.k && R->reads <= 4 &&
                  rel_diff(R->S.metrics.rel, S.metrics.rel) < 1e-12,
                  "kept columns %lld of %lld, reads %lld in %d rounds, rel %.17g vs %.17g", (long long)R->Xs.ncol,
                  (long long)R->S.k, (long long)R->reads, S.rounds, R->S.metrics.rel, S.metrics.rel);
        }
        as_blocks_free(run, &c);
        run = NULL;
        reader_done(&rc);
    }
    as_result_free(&S, &c);
    if (sparse) csc_free(&full);
    free(X);
}

/* leverage scores and attention_error by blocks; an X no wider than a sketch read whole */
static void test_other_runs(void)
{
    int64_t n = 10, d = 40000, rank, j, t;
    double *X = random_matrix(n, d, 0.3, 5), *ref = malloc(sizeof(double) * (size_t)d);
    as_common c;
    as_rand_options o;
    as_metrics_options mo;
    as_matrix A, Y;
    as_metrics M;
    as_result S;
    reader_ctx rc;
    as_blocks *run = NULL;
    const as_blocks_result *R;
    as_common_init(&c);
    as_rand_options_init(&o);
    o.seed = 4;
    as_view_dense(&A, n, d, X, n);
    CHECK(as_leverage(&A, &o, ref, &rank, &c) == AS_OK, "as_leverage: %s", c.msg);
    reader_init(&rc, X, n, d, 0);
    run_drive(AS_BLOCKS_LEVERAGE, &rc, &o, NULL, 0, 3000, &run, &c);
    R = as_blocks_result_get(run);
    CHECK(R && memcmp(R->scores, ref, sizeof(double) * (size_t)d) == 0 && R->rank == rank && R->reads == 2,
          "leverage by blocks: %s", c.msg);
    as_blocks_free(run, &c);
    reader_done(&rc);
    /* attention_error of the first 300 columns against X */
    as_metrics_options_init(&mo);
    mo.spectral = 1;
    as_view_dense(&Y, n, 300, X, n);
    CHECK(as_attention_error_xy(&A, &Y, &mo, &M, &c) == AS_OK, "%s", c.msg);
    reader_init(&rc, X, n, d, 1);
    run_drive(AS_BLOCKS_ERROR, &rc, &mo, &Y, 0, 0, &run, &c);
    R = as_blocks_result_get(run);
    CHECK(R && rel_diff(R->metrics.rel, M.rel) < 1e-12 && rel_diff(R->metrics.eps_spectral, M.eps_spectral) < 1e-10 &&
          R->reads == 1, "attention_error by blocks: %s", c.msg);
    as_blocks_free(run, &c);
    reader_done(&rc);
    /* d <= s1: read whole, once; the in-memory result, target mode too */
    for (t = 0; t < 2; t++) {
        as_rand_options_init(&o);
        o.seed = 8;
        if (t) o.rel = 0.2;
        as_view_dense(&A, n, 40, X, n);
        CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "%s", c.msg);
        reader_init(&rc, X, n, 40, 0);
        run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, 7, &run, &c);
        R = as_blocks_result_get(run);
        CHECK(R && same_sample(&S, &R->S) && R->reads == 1 &&
              memcmp(&S.metrics, &R->S.metrics, sizeof S.metrics) == 0, "whole (rel %d): %s", (int)t, c.msg);
        if (R)
            for (j = 0; j < R->S.k; j++)
                CHECK(memcmp(R->Xs.x + j * n, X + R->S.index[j] * n, sizeof(double) * (size_t)n) == 0, "Xs column %lld", (long long)j);
        as_result_free(&S, &c);
        as_blocks_free(run, &c);
        reader_done(&rc);
    }
    free(ref);
    free(X);
}

/* a reader that changes its answer, fails, returns a NaN or the wrong shape */
static void test_readers(void)
{
    int64_t n = 4, d = 40000;
    double *X = random_matrix(n, d, 1.0, 3);
    as_common c;
    as_rand_options o;
    reader_ctx rc;
    as_blocks *run = NULL;
    int sp;
    as_common_init(&c);
    as_rand_options_init(&o);
    o.seed = 2;
    o.error = 0;
    for (sp = 0; sp < 2; sp++) {
        reader_init(&rc, X, n, d, sp);
        rc.flaky = 1;
        CHECK(run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, 0, &run, &c) == AS_ERR_INPUT &&
              strstr(c.msg, "column 30000 read differently in two passes"), "flaky: %s", c.msg);
        as_blocks_free(run, &c);
        reader_done(&rc);
        reader_init(&rc, X, n, d, sp);
        rc.nan_at = 29999;
        CHECK(run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, 0, &run, &c) == AS_ERR_INPUT &&
              strcmp(c.msg, "X: column 30000 holds a NaN or infinite value") == 0, "NaN: %s", c.msg);
        as_blocks_free(run, &c);
        reader_done(&rc);
        reader_init(&rc, X, n, d, sp);
        rc.nan_at = 29999;
        CHECK(run_workers(AS_BLOCKS_RAND, &rc, &o, 0, 2, &run, &c) == AS_ERR_INPUT &&
              strcmp(c.msg, "X: column 30000 holds a NaN or infinite value") == 0, "NaN by workers: %s", c.msg);
        as_blocks_free(run, &c);
        reader_done(&rc);
    }
    /* the reader's own message, with the columns it failed on */
    reader_init(&rc, X, n, d, 0);
    rc.fail_at = 20000;
    CHECK(run_drive(AS_BLOCKS_RAND, &rc, &o, NULL, 0, 0, &run, &c) == AS_ERR_INPUT &&
          strstr(c.msg, "the reader failed on columns 16385..32768: disk on fire at column 20001"), "fail: %s", c.msg);
    {
        const void *task;
        size_t len;
        CHECK(as_blocks_next(run, &task, &len, &c) == AS_ERR_INPUT, "a stopped run stays stopped");
    }
    as_blocks_free(run, &c);
    reader_done(&rc);
    free(X);
}

/* The methods a front-end may give X by blocks: the randomized ones; det and
   greedy refused with the core's words on why they need X in memory. */
static void test_blocks_refuse(void)
{
    as_common c;
    as_common_init(&c);
    CHECK(as_blocks_refuse("rand", &c) == AS_OK, "rand refused: %s", c.msg);
    CHECK(as_blocks_refuse("det", &c) == AS_ERR_INPUT && strstr(c.msg, "X must be in memory: BSS revisits") &&
              strstr(c.msg, "use attsparse_rand"),
          "det: %s", c.msg);
    CHECK(as_blocks_refuse("greedy", &c) == AS_ERR_INPUT && strstr(c.msg, "computes X X'"), "greedy: %s", c.msg);
}

/* what a run refuses before it reads a column; a task or partial misused */
static void test_refusals(void)
{
    int64_t n = 4, d = 40000;
    double *X = random_matrix(n, d, 1.0, 3);
    as_common c;
    as_rand_options o;
    reader_ctx rc;
    as_blocks *run = NULL, *other = NULL;
    const void *task, *task2;
    size_t len, len2, plen;
    void *part = NULL;
    as_matrix B;
    char msg[8];
    as_common_init(&c);
    as_rand_options_init(&o);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_blocks_new(AS_BLOCKS_RAND, n, d, &o, NULL, 0, 1, &run, &c) == AS_ERR_ARG && strstr(c.msg, "exact"),
          "exact: %s", c.msg);
    CHECK(as_blocks_new(AS_BLOCKS_LEVERAGE, n, d, &o, NULL, 0, 1, &run, &c) == AS_ERR_ARG &&
          strstr(c.msg, "method = \"exact\""), "exact leverage: %s", c.msg);
    /* the 'memory' cap, before any read: 1e6 columns need more than 1 MiB */
    as_rand_options_init(&o);
    o.mem_mb = 1;
    CHECK(as_blocks_new(AS_BLOCKS_RAND, 1, 1000000, &o, NULL, 0, 1, &run, &c) == AS_ERR_TOOBIG &&
          strstr(c.msg, "'memory' = 1 MiB"), "memory: %s", c.msg);
    o.mem_mb = 0;
    CHECK(as_blocks_new(AS_BLOCKS_RAND, 1, (int64_t)1e15, &o, NULL, 0, 1, &run, &c) == AS_ERR_TOOBIG, "1e15 columns: %s", c.msg);
    CHECK(as_blocks_new(AS_BLOCKS_RAND, 0, 10, &o, NULL, 0, 1, &run, &c) == AS_ERR_INPUT, "no rows");
    /* a partial of another run, or out of order */
    o.seed = 1;
    CHECK(as_blocks_new(AS_BLOCKS_RAND, n, d, &o, NULL, 0, 1, &run, &c) == AS_OK, "%s", c.msg);
    CHECK(as_blocks_new(AS_BLOCKS_RAND, n, d, &o, NULL, 0, 2, &other, &c) == AS_OK, "%s", c.msg);
    CHECK(as_blocks_next(run, &task, &len, &c) == AS_OK && as_blocks_task_count(task, len) == 2, "a wave of 2");
    CHECK(as_blocks_next(other, &task2, &len2, &c) == AS_OK, "%s", c.msg);
    reader_init(&rc, X, n, d, 0);
    test_read(&rc, 0, 16384, &B, msg, sizeof msg);
    CHECK(as_blocks_work(task2, len2, 0, &B, &part, &plen, &c) == AS_OK, "%s", c.msg);
    CHECK(as_blocks_merge(run, part, plen, &c) == AS_ERR_ARG && strstr(c.msg, "another run"), "another run: %s", c.msg);
    as_free(&c, part);
    test_read(&rc, 16384, 32768, &B, msg, sizeof msg);
    CHECK(as_blocks_work(task, len, 1, &B, &part, &plen, &c) == AS_OK, "%s", c.msg);
    CHECK(as_blocks_merge(run, part, plen, &c) == AS_ERR_ARG && strstr(c.msg, "block order"), "order: %s", c.msg);
    as_free(&c, part);
    CHECK(as_blocks_next(run, &task2, &len2, &c) == AS_ERR_ARG && strstr(c.msg, "not merged"), "unmerged: %s", c.msg);
    /* a block of the wrong width rides in its partial */
    as_view_dense(&B, n, 10, X, n);
    CHECK(as_blocks_work(task, len, 0, &B, &part, &plen, &c) == AS_OK, "%s", c.msg);
    CHECK(as_blocks_merge(run, part, plen, &c) == AS_ERR_INPUT && strstr(c.msg, "must be 4 x 16384, got 4 x 10"),
          "shape: %s", c.msg);
    as_free(&c, part);
    CHECK(as_blocks_work("not a task", 11, 0, &B, &part, &plen, &c) == AS_ERR_ARG, "not a task");
    as_blocks_free(run, &c);
    as_blocks_free(other, &c);
    reader_done(&rc);
    free(X);
}

#ifdef TB_POSIX
/* Under an address-space limit of 3 GB, an X whose scores alone need more is
   refused up front, naming the 'memory' option (the default cap follows the limit). */
static void test_rlimit(void)
{
    pid_t pid = fork();
    int status = 0;
    if (pid == 0) {
        struct rlimit rl;
        as_common c;
        as_rand_options o;
        as_blocks *run = NULL;
        rl.rlim_cur = rl.rlim_max = (rlim_t)3 << 30;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(2);
        as_common_init(&c);
        as_rand_options_init(&o);
        o.m = 50;
        o.error = 0;
        _exit(as_blocks_new(AS_BLOCKS_RAND, 1, 500000000, &o, NULL, 0, 1, &run, &c) == AS_ERR_TOOBIG &&
              strstr(c.msg, "'memory'") ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "5e8 columns under a 3 GB limit: exit %d", WEXITSTATUS(status));
}
#endif

int main(void)
{
    int sp, sa;
    for (sp = 0; sp < 2; sp++)
        for (sa = 0; sa < 2; sa++) test_equal(sp, sa, AS_PROB_LEVERAGE);
    test_equal(0, AS_SAMPLING_POISSON, AS_PROB_MIXED);
    test_equal(1, AS_SAMPLING_IID, AS_PROB_NORM);
    test_target(0, AS_PROB_AUTO, 0.05);
    test_target(1, AS_PROB_AUTO, 0.02);
    test_target(1, AS_PROB_LEVERAGE, 0.1);
    test_other_runs();
    test_readers();
    test_refusals();
    test_blocks_refuse();
#ifdef TB_POSIX
    test_rlimit();
#endif
    printf("test_blocks: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed > 0;
}
