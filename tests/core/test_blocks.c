/* test_blocks.c: the block passes give as_rand's index, weight and estimate bit for bit, for any grid of whole chunks. */
#include "check.h"

static double *random_matrix(int64_t n, int64_t d, double density, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t t;
    for (t = 0; t < n * d; t++)
        X[t] = as_rng_unif(seed, 1, (uint64_t)t) < density ? as_rng_normal(seed, 2, (uint64_t)t) : 0.0;
    /* a few heavy columns, so that some Poisson q reach 1 */
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
static void csc_free(csc32 *s) { free(s->p); free(s->i); free(s->x); }

/* a view of columns j0 .. j1-1, dense or a fresh CSC copy (freed by the caller) */
static void block_view(const double *X, int64_t n, int64_t j0, int64_t j1, int sparse, as_matrix *V,
                       csc32 *tmp)
{
    if (!sparse) { as_view_dense(V, n, j1 - j0, X + j0 * n, n); return; }
    *tmp = csc_cols(X, n, j0, j1);
    as_view_csc32(V, n, j1 - j0, tmp->p, tmp->i, tmp->x);
}

/* The five passes, blocks of `bchunks` whole chunks, each chunk fed in pieces
   of `piece` columns; blocks are taken in reverse order for the score pass
   (order must not matter there). */
static int run_blocks(const double *X, int64_t n, int64_t d, int sparse, const as_rand_options *o,
                      int64_t bchunks, int64_t piece, as_sample *out, as_common *c)
{
    as_block_plan P;
    as_block_factor F;
    double *acc = NULL, *leaf = NULL, *lev = NULL, *nrm = NULL, *term = NULL, *Xs = NULL;
    int64_t ch, b, nb, t, j;
    as_matrix V;
    csc32 tmp;
    memset(&F, 0, sizeof F);
    as_sample_init(out);
    if (as_block_plan_init(n, d, o, &P, c) != AS_OK) return c->status;
    if (P.in_memory) return AS_ERR_ARG;   /* d <= s1: not these cases */
    acc = calloc((size_t)(n * P.s1), sizeof(double));
    leaf = calloc((size_t)(n * P.s1), sizeof(double));
    lev = calloc((size_t)d, sizeof(double));
    nrm = calloc((size_t)d, sizeof(double));
    if (P.need_lev) {
        /* pass 1: one leaf per chunk, summed in chunk order */
        for (ch = 0; ch < P.nchunk; ch++) {
            int64_t c0 = ch * P.chunk, c1 = c0 + P.chunk < d ? c0 + P.chunk : d, j0;
            memset(leaf, 0, sizeof(double) * (size_t)(n * P.s1));
            for (j0 = c0; j0 < c1; j0 += piece) {
                int64_t j1 = j0 + piece < c1 ? j0 + piece : c1;
                block_view(X, n, j0, j1, sparse, &V, &tmp);
                as_block_sketch(&P, &V, j0, o->seed, leaf, c);
                if (sparse) csc_free(&tmp);
                if (c->status != AS_OK) goto done;
            }
            if (ch == 0) memcpy(acc, leaf, sizeof(double) * (size_t)(n * P.s1));
            else as_block_sketch_add(&P, acc, leaf);
        }
        if (as_block_factor_run(&P, o, acc, &F, c) != AS_OK) goto done;
    }
    /* pass 2 (scores) over blocks of bchunks chunks, last block first */
    nb = (P.nchunk + bchunks - 1) / bchunks;
    for (b = nb - 1; b >= 0; b--) {
        int64_t j0 = b * bchunks * P.chunk, j1 = j0 + bchunks * P.chunk < d ? j0 + bchunks * P.chunk : d;
        block_view(X, n, j0, j1, sparse, &V, &tmp);
        as_block_scores(&V, j0, F.NT, F.q, F.qs, P.need_lev ? lev + j0 : NULL,
                        P.need_nrm ? nrm + j0 : NULL, c);
        if (sparse) csc_free(&tmp);
        if (c->status != AS_OK) goto done;
    }
    if (as_block_sample(&P, o, F.rank, P.need_lev ? lev : NULL, P.need_nrm ? nrm : NULL, out, &term, c) != AS_OK)
        goto done;
    out->s1 = P.need_lev ? P.s1 : 0;
    /* pass 5: gather */
    Xs = malloc(sizeof(double) * (size_t)(n * (out->k + 1)));
    for (t = 0; t < out->k; t++)
        for (j = 0; j < n; j++) Xs[j + t * n] = X[j + out->index[t] * n];
    block_view(Xs, n, 0, out->k, sparse, &V, &tmp);
    as_block_finish(&V, d, o, term, out, c);
    if (sparse) csc_free(&tmp);
done:
    as_block_factor_free(&F, c);
    as_free(c, term);
    free(acc); free(leaf); free(lev); free(nrm); free(Xs);
    return c->status;
}

static int same_sample(const as_sample *A, const as_sample *B)
{
    int64_t t;
    if (A->k != B->k || A->m != B->m || A->rank != B->rank) return 0;
    for (t = 0; t < A->k; t++)
        if (A->index[t] != B->index[t] || memcmp(&A->weight[t], &B->weight[t], sizeof(double)) != 0) return 0;
    if (memcmp(&A->rel_estimate, &B->rel_estimate, sizeof(double)) != 0) return 0;
    return 1;
}

static void test_equal(int sparse, int sampling, int prob)
{
    int64_t n = 12, d = 40000, grids[][2] = {{1, 16384}, {2, 5000}, {3, 777}, {1, 97}};
    double *X = random_matrix(n, d, sparse ? 0.2 : 1.0, 11);
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_sample S, B;
    csc32 full;
    int g;
    as_common_init(&c);
    c.nthreads = 2;
    as_rand_options_init(&o);
    o.seed = 99;
    o.m = 300;
    o.sampling = sampling;
    o.probabilities = prob;
    block_view(X, n, 0, d, sparse, &A, &full);
    CHECK(as_rand(&A, &o, &S, &c) == AS_OK, "as_rand: %s", c.msg);
    for (g = 0; g < 4; g++) {
        if (grids[g][1] == 97 && !(sparse == 0 && sampling == AS_SAMPLING_POISSON && prob == AS_PROB_LEVERAGE))
            continue;   /* many small pieces: once is enough */
        CHECK(run_blocks(X, n, d, sparse, &o, grids[g][0], grids[g][1], &B, &c) == AS_OK, "blocks: %s", c.msg);
        CHECK(same_sample(&S, &B), "%s %s prob %d: blocks of %lld chunks in pieces of %lld: k %lld vs %lld",
              sparse ? "CSC" : "dense", sampling ? "poisson" : "iid", prob, (long long)grids[g][0],
              (long long)grids[g][1], (long long)S.k, (long long)B.k);
        as_sample_free(&B, &c);
    }
    CHECK(S.k > 10 && S.rank == n, "a sample of %lld columns, rank %lld", (long long)S.k, (long long)S.rank);
    as_sample_free(&S, &c);
    if (sparse) csc_free(&full);
    free(X);
}

static void test_errors(void)
{
    as_common c;
    as_rand_options o;
    as_block_plan P;
    double *X = random_matrix(4, 40000, 1.0, 3), *leaf = calloc(4 * 32, sizeof(double));
    as_matrix V;
    as_common_init(&c);
    as_rand_options_init(&o);
    o.rel = 0.1;
    CHECK(as_block_plan_init(4, 40000, &o, &P, &c) == AS_ERR_ARG && strstr(c.msg, "in memory"), "rel: %s", c.msg);
    as_rand_options_init(&o);
    o.leverage = AS_LEV_EXACT;
    CHECK(as_block_plan_init(4, 40000, &o, &P, &c) == AS_ERR_ARG && strstr(c.msg, "exact"), "exact: %s", c.msg);
    as_rand_options_init(&o);
    CHECK(as_block_plan_init(4, 20, &o, &P, &c) == AS_OK && P.in_memory, "d <= s1: read X whole");
    CHECK(as_block_plan_init(4, 40000, &o, &P, &c) == AS_OK && !P.in_memory && P.chunk % 1024 == 0 &&
          P.nchunk == (40000 + P.chunk - 1) / P.chunk, "plan: chunk %lld", (long long)P.chunk);
    as_view_dense(&V, 4, 100, X + (P.chunk - 50) * 4, 4);
    CHECK(as_block_sketch(&P, &V, P.chunk - 50, 1, leaf, &c) == AS_ERR_ARG && strstr(c.msg, "chunk"),
          "a piece across chunks is refused: %s", c.msg);
    as_view_dense(&V, 3, 10, X, 3);
    CHECK(as_block_sketch(&P, &V, 0, 1, leaf, &c) == AS_ERR_INPUT, "a block with the wrong rows is refused");
    free(X);
    free(leaf);
}

int main(void)
{
    int sp, sa;
    for (sp = 0; sp < 2; sp++)
        for (sa = 0; sa < 2; sa++) test_equal(sp, sa, AS_PROB_LEVERAGE);
    test_equal(0, AS_SAMPLING_POISSON, AS_PROB_MIXED);
    test_equal(1, AS_SAMPLING_IID, AS_PROB_NORM);
    test_errors();
    printf("test_blocks: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed > 0;
}
