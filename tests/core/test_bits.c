/* test_bits.c: every call (det, rand, leverage, metrics, Q != K, greedy, refit) gives the same bits on 1 to 8 threads and whatever thread count the host set for its BLAS, at sizes where the threads and the BLAS really split the work. */
#define _POSIX_C_SOURCE 200112L
#include "check.h"
#include "as_internal.h"
#include "bits_hash.h"
#include "det.h"
#include "estimate.h"
#include "greedy.h"
#include "qk.h"
#include "rand.h"
#include "rng.h"
#include <unistd.h>

typedef struct bits_case {
    const char *what;
    int kind;              /* 0 det, 1 rand, 2 leverage, 3 metrics, 4 rand with K and V, 5 det with K,
                              6 greedy */
    const as_matrix *X, *K, *Y;
    const double *V;
    int64_t dv;
    as_rand_options ro;
    as_det_options dopt;
    as_greedy_options go;
} bits_case;

/* One run on nt threads with the host's BLAS on blas threads (0: as it is). */
static uint64_t run_case(const bits_case *B, int nt, int blas)
{
    as_common c;
    as_result S;
    uint64_t h = 0;
    int st = AS_OK, prev = blas > 0 ? as_blas_threads_set(blas) : 0;
    as_common_init(&c);
    /* every parallel region on every thread count, however small its work */
    c.tune.parallel_min_work = 0;
    c.tune.qk_blas_madds = 0;
    c.nthreads = nt;
    if (B->kind == 0) st = as_det(B->X, &B->dopt, &S, &c);
    else if (B->kind == 1) st = as_rand(B->X, &B->ro, &S, &c);
    else if (B->kind == 4) st = as_rand_qkv(B->X, B->K, B->V, B->dv, &B->ro, &S, &c);
    else if (B->kind == 5) st = as_det_qkv(B->X, B->K, B->V, B->dv, &B->dopt, &S, &c);
    else if (B->kind == 6) st = as_greedy(B->X, &B->go, &S, &c);
    if (B->kind == 0 || B->kind == 1 || B->kind >= 4) {
        if (st == AS_OK) h = bits_hash_sample(&S);
        as_result_free(&S, &c);
    } else if (B->kind == 2) {
        double *lev = malloc(8 * (size_t)B->X->ncol);
        int64_t rank = 0;
        st = as_leverage(B->X, &B->ro, lev, &rank, &c);
        h = bits_hash(bits_hash(BITS_HASH_START, lev, 8 * (size_t)B->X->ncol), &rank, sizeof rank);
        free(lev);
    } else {
        as_metrics_options mo;
        as_metrics m;
        as_metrics_options_init(&mo);
        mo.spectral = 1;
        st = as_attention_error_xy(B->X, B->Y, &mo, &m, &c);
        h = bits_hash(BITS_HASH_START, &m, sizeof m);
    }
    if (prev > 0) as_blas_threads_set(prev);
    CHECK(st == AS_OK, "%s on %d threads: %s", B->what, nt, c.msg);
    return h;
}

/* The same hash on 1..8 threads, and with the host's BLAS set to 1 and to 4 threads. */
static void check_case(const bits_case *B)
{
    double t0 = as_wtime();
    uint64_t ref = run_case(B, 1, 0), h;
    int nt, bad = 0;
    for (nt = 2; nt <= 8; nt++) {
        h = run_case(B, nt, 0);
        if (h != ref && bad++ < 2) fprintf(stderr, "%s: %d threads give other bits than 1\n", B->what, nt);
    }
    h = run_case(B, 1, 1);
    if (h != ref && bad++ < 3) fprintf(stderr, "%s: a BLAS on 1 thread gives other bits\n", B->what);
    h = run_case(B, 1, 4);
    if (h != ref && bad++ < 4) fprintf(stderr, "%s: a BLAS on 4 threads gives other bits\n", B->what);
    h = run_case(B, 3, 4);
    if (h != ref && bad++ < 5) fprintf(stderr, "%s: 3 threads and a BLAS on 4 give other bits\n", B->what);
    CHECK(bad == 0, "%s: the same bits on every thread count (%d differ)", B->what, bad);
    printf("test_bits: %s: %.1f s\n", B->what, as_wtime() - t0);
}

/* Dense n x d with a few heavy columns (as_example), and its CSC form with
   about a quarter of the entries kept. */
typedef struct data {
    int64_t n, d;
    double *x, *sx;
    int32_t *p, *i;
    as_matrix D, S;
} data;

static void data_make(data *A, int64_t n, int64_t d, uint64_t seed)
{
    as_common c;
    int64_t j, r, nz = 0;
    as_common_init(&c);
    A->n = n;
    A->d = d;
    A->x = malloc(8 * (size_t)(n * d));
    as_example(n, d, 1.0, seed, A->x, &c);
    A->p = malloc(4 * (size_t)(d + 1));
    A->i = malloc(4 * (size_t)(n * d));
    A->sx = malloc(8 * (size_t)(n * d));
    A->p[0] = 0;
    for (j = 0; j < d; j++) {
        for (r = 0; r < n; r++)
            if (as_rng_u64(seed, 9, (uint64_t)(j * n + r)) % 4 == 0) {
                A->i[nz] = (int32_t)r;
                A->sx[nz++] = A->x[r + j * n];
            }
        A->p[j + 1] = (int32_t)nz;
    }
    as_view_dense(&A->D, n, d, A->x, n);
    as_view_csc32(&A->S, n, d, A->p, A->i, A->sx);
}

static void data_free(data *A) { free(A->x); free(A->sx); free(A->p); free(A->i); }

/* The options of a randomized case: seed, then probabilities, sampling,
   leverage scores as the AS_* enums (-1: the default), rel (0: off); m and
   refit as B->ro has them. */
static void rand_case(bits_case *B, int kind, const char *what, uint64_t seed, int prob, int sampling, int lev,
                      double rel)
{
    int refit = B->ro.refit;
    int64_t m = B->ro.m;
    as_rand_options_init(&B->ro);
    B->ro.refit = refit;
    B->ro.m = m;
    B->kind = kind;
    B->what = what;
    B->ro.seed = seed;
    B->ro.spectral = rel > 0 ? -1 : 1;
    B->ro.estimate = rel > 0 ? AS_ESTIMATE_GAUSSIAN : AS_ESTIMATE_BOOTSTRAP;
    if (prob >= 0) B->ro.probabilities = prob;
    if (sampling >= 0) B->ro.sampling = sampling;
    if (lev >= 0) B->ro.leverage = lev;
    if (rel > 0) B->ro.rel = rel;
    check_case(B);
}

/* A greedy case: target rel, or budget k (rel NaN). */
static void greedy_case(bits_case *B, const char *what, double rel, int64_t k)
{
    as_greedy_options_init(&B->go);
    B->kind = 6;
    B->what = what;
    B->go.rel = rel;
    B->go.k = k;
    B->go.spectral = 1;
    check_case(B);
}

/* A deterministic case: batch, search, presample as the options (refit: B->dopt.refit after). */
static void det_case(bits_case *B, int kind, const char *what, int64_t batch, int search, int64_t presample)
{
    int refit = B->dopt.refit;
    as_det_options_init(&B->dopt);
    B->dopt.refit = refit;
    B->kind = kind;
    B->what = what;
    B->dopt.spectral = 1;
    B->dopt.batch = batch;
    B->dopt.search = search;
    B->dopt.presample = presample;
    B->dopt.seed = 7;
    check_case(B);
}

int main(int argc, char **argv)
{
    data A, Kd, R;
    as_matrix Yv, Kv;
    double *V, *Ydense;
    int64_t t, n = 100, d = 1200, dv = 3;
    bits_case B;
    /* Up to 8 threads on a machine of fewer cores: waiting OpenMP threads that
       spin take the cores from the working ones (20x slower on a busy 2-core
       machine). libgomp reads its wait policy before main: run again with it. */
    (void)argc;
    if (getenv("OMP_WAIT_POLICY") == NULL && setenv("OMP_WAIT_POLICY", "passive", 1) == 0)
        execv("/proc/self/exe", argv);
    data_make(&A, n, d, 3);
    data_make(&Kd, 20, d, 4);
    V = malloc(8 * (size_t)(20 * dv));
    for (t = 0; t < 20 * dv; t++) V[t] = as_rng_normal(5, 1, (uint64_t)t);
    memset(&B, 0, sizeof B);

    B.X = &A.D;
    det_case(&B, 0, "det, dense, tree search", 0, 0, 0);
    det_case(&B, 0, "det, dense, batch = 1, plain scan", 1, 1, 0);
    B.X = &A.S;
    det_case(&B, 0, "det, sparse, presample", 0, 0, 1);
    B.X = &A.D;
    rand_case(&B, 1, "rand, dense, estimate and spectral", 11, -1, -1, -1, 0);
    B.X = &A.S;
    rand_case(&B, 1, "rand, sparse, exact leverage, Poisson, mixed", 11, AS_PROB_MIXED, AS_SAMPLING_POISSON,
              AS_LEV_EXACT, 0);
    rand_case(&B, 1, "rand, sparse, target mode", 12, -1, -1, -1, 0.05);
    B.X = &A.D;
    rand_case(&B, 2, "leverage, dense, exact", 0, -1, -1, AS_LEV_EXACT, 0);
    rand_case(&B, 2, "leverage, dense, approximate", 0, -1, -1, AS_LEV_APPROX, 0);
    /* greedy and refit: 20 rows for the runs that keep hundreds of columns */
    as_view_dense(&Kv, 20, d, Kd.x, 20);
    B.X = &Kv;
    greedy_case(&B, "greedy, dense, rel 2%", 0.02, 0);
    B.dopt.refit = 1;
    det_case(&B, 0, "det, dense, refit", 0, 0, 0);
    B.dopt.refit = 0;
    B.X = &A.S;
    greedy_case(&B, "greedy, sparse, budget 40", NAN, 40);
    B.ro.refit = 1;
    B.ro.m = 300;
    rand_case(&B, 1, "rand, sparse, norm Poisson, m = 300, refit", 14, AS_PROB_NORM, AS_SAMPLING_POISSON, -1, 0);
    B.ro.refit = 0;
    B.ro.m = 0;
    B.X = &A.D;

    /* the metrics with spectral: X of full rank (Cholesky) and with repeated
       rows (the whitening), Y some of its columns */
    B.kind = 3;
    Ydense = malloc(8 * (size_t)(n * 300));
    for (t = 0; t < n * 300; t++) Ydense[t] = 1.3 * A.x[t];
    as_view_dense(&Yv, n, 300, Ydense, n);
    B.Y = &Yv;
    B.what = "attention_error, spectral, full rank";
    check_case(&B);
    data_make(&R, n, d, 6);
    for (t = 0; t < d; t++) memcpy(R.x + t * n + n - 20, R.x + t * n, 8 * 20);   /* the last 20 rows repeat the first */
    for (t = 0; t < n * 300; t++) Ydense[t] = 1.1 * R.x[t];
    B.X = &R.D;
    B.what = "attention_error, spectral, rank-deficient";
    check_case(&B);

    as_view_dense(&Kv, 20, d, Kd.x, 20);
    B.X = &A.D;
    B.K = &Kv;
    B.V = V;
    B.dv = dv;
    rand_case(&B, 4, "rand with K and V, dense", 13, -1, -1, -1, 0);
    det_case(&B, 5, "det with K and V, dense", 0, 0, 0);

    free(V);
    free(Ydense);
    data_free(&A);
    data_free(&Kd);
    data_free(&R);
    printf("test_bits: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
