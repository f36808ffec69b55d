/* test_nomem.c: every allocation site and every interrupt poll of each entry point, failing in turn: a clean status, nothing leaked. */
#include "as_internal.h"
#include "check.h"
#include "det.h"
#include "greedy.h"
#include "metrics.h"
#include "rand.h"
#include "rng.h"
#include <string.h>

/* n x d, a fraction dens of the entries nonzero; rows beyond `rank` repeat the first ones. */
static double *make_x(int64_t n, int64_t d, double dens, int64_t rank, double scale, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) {
            uint64_t at = (uint64_t)(j * n + (i % rank));
            X[i + j * n] = as_rng_unif(seed, 1, at) < dens ? scale * as_rng_normal(seed, 2, at) : 0.0;
        }
    return X;
}

/* ---- the runs: one entry point with one set of options, outputs freed */
typedef struct rand_case { const as_matrix *X; as_rand_options o; int with_error; } rand_case;

static int run_rand(void *arg, as_common *c)
{
    rand_case *rc = arg;
    as_result S;
    as_metrics M;
    int st = as_rand(rc->X, &rc->o, &S, c);
    if (st == AS_OK && rc->with_error)
        st = as_attention_error(rc->X, S.k, S.index, S.weight, 1, &M, c);
    as_result_free(&S, c);
    return st;
}

static int run_leverage(void *arg, as_common *c)
{
    rand_case *rc = arg;
    int64_t rank;
    double *scores = malloc(sizeof(double) * (size_t)rc->X->ncol);
    int st = as_leverage(rc->X, &rc->o, scores, &rank, c);
    free(scores);
    return st;
}

typedef struct det_case { const as_matrix *X; as_det_options o; } det_case;

static int run_det(void *arg, as_common *c)
{
    det_case *dc = arg;
    as_result S;
    int st = as_det(dc->X, &dc->o, &S, c);
    as_result_free(&S, c);
    return st;
}

typedef struct greedy_case { const as_matrix *X; as_greedy_options o; } greedy_case;

static int run_greedy(void *arg, as_common *c)
{
    greedy_case *gc = arg;
    as_result S;
    int st = as_greedy(gc->X, &gc->o, &S, c);
    as_result_free(&S, c);
    return st;
}

typedef struct gram_case { int64_t n; const double *G, *H; } gram_case;

static int run_compare(void *arg, as_common *c)
{
    gram_case *gc = arg;
    as_metrics M;
    return as_compare_gram(gc->n, gc->G, gc->H, 1, &M, c);
}

static void test_rand_paths(void)
{
    double *X = make_x(6, 300, 0.4, 6, 1.0, 21), *Xr = make_x(8, 120, 1.0, 3, 1.0, 22),
           *Xt = make_x(5, 200, 0.5, 5, 1e-170, 23);
    check_views A, R, T;
    rand_case rc;
    long sites = 0;
    check_views_make(&A, 6, 300, X);
    check_views_make(&R, 8, 120, Xr);
    check_views_make(&T, 5, 200, Xt);

    as_rand_options_init(&rc.o);   /* approximate scores (d > s1), Gaussian JL, then the metrics */
    rc.o.s1 = 40; rc.o.s2 = 3; rc.o.seed = 5; rc.with_error = 1;
    rc.o.beta = 2;   /* a JL of 3 columns would make the default m 9e6 draws (as_sketch_beta) */
    rc.X = &A.S64;
    sites += check_every_failure("rand approx CSC64 + error", run_rand, &rc);
    rc.o.jl = AS_JL_AMS;
    rc.X = &A.D;
    sites += check_every_failure("rand approx AMS dense + error", run_rand, &rc);
    as_rand_options_init(&rc.o);   /* exact scores of a rank-3 X */
    rc.o.leverage = AS_LEV_EXACT; rc.o.seed = 6;
    rc.X = &R.S32;
    sites += check_every_failure("rand exact rank-deficient CSC32 + error", run_rand, &rc);
    sites += check_every_failure("leverage exact CSC32", run_leverage, &rc);
    as_rand_options_init(&rc.o);   /* norm probabilities rescued from underflow (entries 1e-170) */
    rc.o.probabilities = AS_PROB_NORM; rc.o.m = 50; rc.with_error = 0;
    rc.X = &T.S32;
    sites += check_every_failure("rand norm tiny CSC32", run_rand, &rc);
    rc.o.probabilities = AS_PROB_UNIFORM;
    rc.X = &A.D;
    sites += check_every_failure("rand uniform dense", run_rand, &rc);
    as_rand_options_init(&rc.o);   /* target mode: pilots of three schemes, then rounds */
    rc.o.rel = 0.3; rc.o.seed = 2; rc.with_error = 0;
    rc.X = &A.S32;
    sites += check_every_failure("rand target CSC32", run_rand, &rc);
    printf("randomized paths: %ld allocation sites failed in turn\n", sites);
    check_views_free(&A); check_views_free(&R); check_views_free(&T);
    free(X); free(Xr); free(Xt);
}

/* Block runs through a reader of views into X (CSC ones start at p[j0] > 0). */
typedef struct blocks_case { const as_matrix *X; int what; as_rand_options o; const as_matrix *Y; } blocks_case;

static int nomem_read(void *ctx, int64_t j0, int64_t j1, as_matrix *B, char *msg, size_t len)
{
    const as_matrix *X = ctx;
    (void)msg; (void)len;
    *B = *X;
    B->ncol = j1 - j0;
    if (X->kind == AS_DENSE) B->x = X->x + j0 * X->ld;
    else B->p64 = X->p64 + j0;
    return 0;
}

static int run_blocks(void *arg, as_common *c)
{
    blocks_case *bc = arg;
    as_blocks *run = NULL;
    as_reader rd;
    as_metrics_options mo;
    int st;
    rd.read = nomem_read;
    rd.ctx = (void *)bc->X;
    rd.piece = 5000;
    as_metrics_options_init(&mo);
    mo.spectral = 1;
    st = as_blocks_new(bc->what, bc->X->nrow, bc->X->ncol, bc->what == AS_BLOCKS_ERROR ? (void *)&mo : (void *)&bc->o,
                       bc->Y, 0, 1, &run, c);
    if (st == AS_OK) st = as_blocks_drive(run, &rd, c);
    as_blocks_free(run, c);
    return st;
}

static void test_block_paths(void)
{
    double *X = make_x(6, 20000, 0.4, 6, 1.0, 24);
    check_views A;
    blocks_case bc;
    long sites = 0;
    check_views_make(&A, 6, 20000, X);
    as_rand_options_init(&bc.o);
    bc.o.s1 = 40; bc.o.seed = 5; bc.o.m = 60; bc.o.probabilities = AS_PROB_MIXED;
    bc.what = AS_BLOCKS_RAND;
    bc.X = &A.S64;
    bc.Y = NULL;
    sites += check_every_failure("blocks rand mixed CSC64 + error", run_blocks, &bc);
    bc.o.sampling = AS_SAMPLING_POISSON;
    bc.X = &A.D;
    sites += check_every_failure("blocks rand Poisson dense + error", run_blocks, &bc);
    bc.what = AS_BLOCKS_LEVERAGE;
    sites += check_every_failure("blocks leverage dense", run_blocks, &bc);
    bc.what = AS_BLOCKS_ERROR;
    A.D.ncol = 30;
    bc.Y = &A.D;
    bc.X = &A.S64;
    sites += check_every_failure("blocks attention_error CSC64", run_blocks, &bc);
    bc.what = AS_BLOCKS_RAND;   /* no wider than a sketch: read whole */
    bc.X = &A.D;
    sites += check_every_failure("blocks rand whole dense", run_blocks, &bc);
    A.D.ncol = 20000;
    printf("block paths: %ld allocation sites failed in turn\n", sites);
    check_views_free(&A);
    free(X);
}

static void test_det_paths(void)
{
    double *X = make_x(5, 400, 0.5, 5, 1.0, 31), *Xr = make_x(6, 300, 1.0, 4, 1.0, 32);
    check_views A, R;
    det_case dc;
    long sites = 0;
    int s;
    check_views_make(&A, 5, 400, X);
    check_views_make(&R, 6, 300, Xr);
    for (s = 0; s < 2; s++) {   /* tree search over 8 leaves, then the plain scan */
        as_det_options_init(&dc.o);
        dc.o.eps = 0.8; dc.o.search = s; dc.o.leaf = 50;
        dc.X = &A.D;
        sites += check_every_failure(s ? "det scan dense" : "det tree dense", run_det, &dc);
        dc.X = &A.S32;
        sites += check_every_failure(s ? "det scan CSC32" : "det tree CSC32", run_det, &dc);
        dc.X = &R.S64;
        sites += check_every_failure(s ? "det scan rank-deficient CSC64" : "det tree rank-deficient CSC64",
                                     run_det, &dc);
    }
    printf("deterministic paths: %ld allocation sites failed in turn\n", sites);
    check_views_free(&A); check_views_free(&R);
    free(X); free(Xr);
}

/* The greedy method (target, budget; dense, CSC, rank-deficient) and the
   refit of option 'refit' after as_rand and as_det (CSC: a dense X's refit
   gathers its columns, whose buffer leaks when that allocation fails). */
static void test_greedy_paths(void)
{
    double *X = make_x(4, 80, 0.4, 4, 0.3, 51), *Xr = make_x(5, 60, 1.0, 3, 0.2, 52);
    check_views A, R;
    greedy_case gc;
    rand_case rc;
    det_case dc;
    long sites = 0;
    check_views_make(&A, 4, 80, X);
    check_views_make(&R, 5, 60, Xr);
    as_greedy_options_init(&gc.o);
    gc.o.rel = 0.05;
    gc.X = &A.D;
    sites += check_every_failure("greedy target dense", run_greedy, &gc);
    gc.X = &R.S64;
    sites += check_every_failure("greedy target rank-deficient CSC64", run_greedy, &gc);
    as_greedy_options_init(&gc.o);
    gc.o.k = 4;
    gc.o.spectral = 1;
    gc.X = &A.D;
    sites += check_every_failure("greedy budget dense + spectral", run_greedy, &gc);
    as_rand_options_init(&rc.o);
    rc.o.m = 16; rc.o.seed = 3; rc.o.probabilities = AS_PROB_NORM; rc.o.sampling = AS_SAMPLING_POISSON;
    rc.o.refit = 1; rc.o.error = 0; rc.with_error = 0;   /* the refit computes X X' itself */
    rc.X = &A.S64;
    sites += check_every_failure("rand refit CSC64, no metrics", run_rand, &rc);
    as_det_options_init(&dc.o);
    dc.o.eps = 0.8; dc.o.refit = 1;   /* X X' from the BSS run */
    dc.X = &R.S32;
    sites += check_every_failure("det refit rank-deficient CSC32", run_det, &dc);
    printf("greedy and refit paths: %ld allocation sites failed in turn\n", sites);
    check_views_free(&A); check_views_free(&R);
    free(X); free(Xr);
}

static void test_metric_paths(void)
{
    int64_t n = 7, a;
    double *X = make_x(n, 60, 1.0, n, 1.0, 41), *G = malloc(sizeof(double) * (size_t)(n * n)),
           *H = malloc(sizeof(double) * (size_t)(n * n));
    as_matrix A;
    as_common c;
    gram_case gc;
    as_common_init(&c);
    as_view_dense(&A, n, 60, X, n);
    as_gram(&A, -1, NULL, NULL, G, &c);
    for (a = 0; a < n * n; a++) H[a] = 1.1 * G[a];
    gc.n = n; gc.G = G; gc.H = H;
    check_every_failure("compare_gram spectral", run_compare, &gc);
    free(X); free(G); free(H);
}

/* as_rand then its metrics, as the front-ends run them, for check_every_failure. */
static int run_rand_and_error(void *arg, as_common *c)
{
    const as_matrix *A = arg;
    as_rand_options o;
    as_result S;
    as_metrics M;
    int st;
    as_rand_options_init(&o);
    o.s1 = 60;
    st = as_rand(A, &o, &S, c);
    if (st == AS_OK) st = as_attention_error(A, S.k, S.index, S.weight, 1, &M, c);
    as_result_free(&S, c);
    return st;
}

/* Every allocation failing in turn ends in AS_ERR_NOMEM, every interrupt poll in
   AS_ERR_INTERRUPT, with nothing leaked (as the other entry points here). */
static void test_rand_and_error(void)
{
    int n = 10, d = 3000;
    double *X = check_random_matrix(n, d, 0.3, 4);
    check_csc s = check_to_csc(X, n, d);
    as_matrix A;
    as_view_csc32(&A, n, d, s.p32, s.i32, s.x);
    CHECK(check_every_failure("rand + error, CSC32", run_rand_and_error, &A) > 10, "allocations exercised");
    check_csc_free(&s); free(X);
}

int main(void)
{
    test_rand_paths();
    test_block_paths();
    test_det_paths();
    test_greedy_paths();
    test_metric_paths();
    test_rand_and_error();
    printf("test_nomem: %ld allocations and %ld interrupt polls failed in turn\n", check_sites_total,
           check_polls_total);
    return check_report("test_nomem");
}
