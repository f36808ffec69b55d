/* rand_passes.c: the randomized algorithm as passes over blocks of columns (larger than memory, or spread over workers). */
#include "as_internal.h"
#include "estimate.h"
#include "leverage.h"
#include "rand.h"
#include "rand_passes.h"
#include "result.h"
#include "sample.h"
#include <float.h>

/* Canonical chunk width: at least this many columns, and at least
   AS_BLOCK_CHUNK_SKETCHES times s1, so that a chunk's leaf (n x s1, zeroed
   and added once per chunk) costs at most 1/16 of the chunk's sketch work
   on dense columns (s = 4 multiply-adds per entry). */
#define AS_BLOCK_CHUNK_MIN 16384
#define AS_BLOCK_CHUNK_SKETCHES 4
/* The chunk width is a multiple of the dense score pass's dgemm width, so a
   block of whole chunks makes the same dgemm calls as one block. */
#define AS_BLOCK_DGEMM 1024

int64_t as_block_chunk(int64_t s1)
{
    int64_t w = AS_BLOCK_CHUNK_SKETCHES * s1;
    if (w < AS_BLOCK_CHUNK_MIN) w = AS_BLOCK_CHUNK_MIN;
    return (w + AS_BLOCK_DGEMM - 1) / AS_BLOCK_DGEMM * AS_BLOCK_DGEMM;
}

void as_block_plan_fill(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P)
{
    int scheme = o->probabilities == AS_PROB_AUTO ? AS_PROB_LEVERAGE : o->probabilities;
    memset(P, 0, sizeof(*P));
    P->n = n;
    P->d = d;
    P->s1 = o->s1 > 0 ? o->s1 : as_default_s1(n);
    P->s = o->s > 0 ? o->s : 4;
    if (P->s > P->s1) P->s = P->s1;
    P->chunk = as_block_chunk(P->s1);
    P->nchunk = (d + P->chunk - 1) / P->chunk;
    /* target mode with probabilities "auto" tries them all */
    int all = !isnan(o->rel) && o->probabilities == AS_PROB_AUTO;
    P->need_lev = scheme == AS_PROB_LEVERAGE || scheme == AS_PROB_MIXED || all;
    P->need_nrm = scheme == AS_PROB_NORM || scheme == AS_PROB_MIXED || all;
    P->in_memory = d <= P->s1;
}

int as_block_plan_init(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P,
                       as_common *c)
{
    memset(P, 0, sizeof(*P));
    if (as_rand_options_check(o, c) != AS_OK) return c->status;
    if (n < 0 || d < 0)
        return as_error(c, AS_ERR_INPUT, "X must have non-negative dimensions, got %lld x %lld",
                        (long long)n, (long long)d);
    if (o->s1 > 0 && o->s1 < n)
        return as_error(c, AS_ERR_ARG, "'s1' must be at least nrow(X) = %lld, got %lld",
                        (long long)n, (long long)o->s1);
    as_block_plan_fill(n, d, o, P);
    if (o->refit && !P->in_memory)
        return as_error(c, AS_ERR_ARG, "'refit' needs X in memory: it fits the kept columns' weights to X X' "
                        "over several passes; read by blocks, leave it out");
    if (P->need_lev && !P->in_memory && o->leverage == AS_LEV_EXACT)
        return as_error(c, AS_ERR_ARG, "leverage = \"exact\" needs a dense d x n copy of X' in memory "
                        "(d = %lld): read by blocks, use \"approx\"", (long long)d);
    return AS_OK;
}

/* as_matrix_check of a block, its messages naming X's own columns. */
static int as_block_check(const as_matrix *Xb, int64_t j0, as_common *c)
{
    return as_matrix_check_from(Xb, "X", j0, NULL, c);
}

void as_view_cols(const as_matrix *X, int64_t j0, int64_t j1, as_matrix *V,
                         as_matrix parts[2])
{
    *V = *X;
    V->ncol = j1 - j0;
    if (X->kind == AS_STACKED) {
        as_matrix none[2];
        as_view_cols(X->part[0], j0, j1, &parts[0], none);
        as_view_cols(X->part[1], j0, j1, &parts[1], none);
        V->part[0] = &parts[0];
        V->part[1] = &parts[1];
    } else if (X->kind == AS_DENSE) V->x = X->x + j0 * X->ld;
    else if (X->kind == AS_CSC32) V->p32 = X->p32 + j0;
    else V->p64 = X->p64 + j0;
}

int as_block_rebase(const as_matrix *Xb, as_matrix *V, void **p_own, as_common *c)
{
    int64_t j, base;
    *V = *Xb;
    *p_own = NULL;
    /* a stacked view (as_rand on Q != K) is the core's own, its parts from p = 0 */
    if (Xb->kind == AS_DENSE || Xb->kind == AS_STACKED || Xb->ncol < 0) return AS_OK;
    base = Xb->kind == AS_CSC32 ? (int64_t)Xb->p32[0] : Xb->p64[0];
    if (base == 0) return AS_OK;
    if (base < 0) return as_error(c, AS_ERR_INPUT, "a CSC block's column pointers must not be negative");
    *p_own = as_malloc(c, (size_t)(Xb->ncol + 1), Xb->kind == AS_CSC32 ? sizeof(int32_t) : sizeof(int64_t));
    if (!*p_own) return c->status;
    V->x = Xb->x + base;
    if (Xb->kind == AS_CSC32) {
        int32_t *p = *p_own;
        for (j = 0; j <= Xb->ncol; j++) p[j] = (int32_t)(Xb->p32[j] - base);
        V->p32 = p;
        V->i32 = Xb->i32 + base;
    } else {
        int64_t *p = *p_own;
        for (j = 0; j <= Xb->ncol; j++) p[j] = Xb->p64[j] - base;
        V->p64 = p;
        V->i64 = Xb->i64 + base;
    }
    return AS_OK;
}

static int as_block_sketch_view(const as_block_plan *P, const as_matrix *Xb, int64_t j0,
                                uint64_t seed, double *leaf, as_common *c)
{
    if (Xb->nrow != P->n || j0 < 0 || Xb->ncol < 0 || j0 + Xb->ncol > P->d)
        return as_error(c, AS_ERR_INPUT, "a block of X must have %lld rows and lie in columns 1..%lld; "
                        "got %lld x %lld at column %lld", (long long)P->n, (long long)P->d,
                        (long long)Xb->nrow, (long long)Xb->ncol, (long long)(j0 + 1));
    if (Xb->ncol > 0 && j0 / P->chunk != (j0 + Xb->ncol - 1) / P->chunk)
        return as_error(c, AS_ERR_ARG, "columns %lld..%lld cross a chunk boundary (chunks of %lld columns): "
                        "sketch one chunk at a time", (long long)(j0 + 1), (long long)(j0 + Xb->ncol),
                        (long long)P->chunk);
    if (as_block_check(Xb, j0, c) != AS_OK) return c->status;
    return as_sketch_cols(Xb, j0, P->s1, P->s, seed, leaf, c);
}

int as_block_sketch(const as_block_plan *P, const as_matrix *Xb, int64_t j0, uint64_t seed,
                    double *leaf, as_common *c)
{
    as_matrix V;
    void *p_own = NULL;
    c->status = AS_OK;
    if (as_block_rebase(Xb, &V, &p_own, c) == AS_OK) as_block_sketch_view(P, &V, j0, seed, leaf, c);
    as_free(c, p_own);
    return c->status;
}

void as_block_sketch_add(const as_block_plan *P, double *acc, const double *leaf)
{
    int64_t t, len = P->n * P->s1;
    for (t = 0; t < len; t++) acc[t] += leaf[t];
}

/* Zero an n x s1 array on all threads: the first touch of its pages is most of the cost. */
static void as_zero_sketch(const as_block_plan *P, double *MT, as_common *c)
{
    int64_t h;
#ifdef _OPENMP
#pragma omp parallel for num_threads(as_threads(c)) schedule(static)
#endif
    for (h = 0; h < P->s1; h++) memset(MT + h * P->n, 0, sizeof(double) * (size_t)P->n);
}

int as_block_sketch_all(const as_block_plan *P, const as_matrix *X, uint64_t seed, double *MT,
                        as_common *c)
{
    int64_t ch;
    double *leaf = NULL;
    c->status = AS_OK;
    as_zero_sketch(P, MT, c);
    if (P->nchunk > 1) {
        leaf = as_malloc(c, (size_t)(P->n * P->s1), sizeof(double));
        if (!leaf) return c->status;
    }
    for (ch = 0; ch < P->nchunk && c->status == AS_OK; ch++) {
        int64_t j0 = ch * P->chunk, j1 = j0 + P->chunk < P->d ? j0 + P->chunk : P->d;
        as_matrix V, parts[2];
        as_view_cols(X, j0, j1, &V, parts);
        if (ch == 0) { as_sketch_cols(&V, j0, P->s1, P->s, seed, MT, c); continue; }
        as_zero_sketch(P, leaf, c);
        if (as_sketch_cols(&V, j0, P->s1, P->s, seed, leaf, c) == AS_OK)
            as_block_sketch_add(P, MT, leaf);
    }
    as_free(c, leaf);
    return c->status;
}

static int as_block_scores_view(const as_matrix *Xb, int64_t j0, const double *NT, int64_t q,
                                int64_t qs, double *lev, double *nrm, as_common *c)
{
    int64_t j, len = Xb->ncol;
    c->status = AS_OK;
    if (as_block_check(Xb, j0, c) != AS_OK) return c->status;
    if (nrm)
        for (j = 0; j < len; j++) {
            nrm[j] = as_col_norm_prob(Xb, j, 1.0);
            /* a nonzero column whose squared norm underflowed to 0 (entries near 1e-162
               and below) leaves the smallest double, so that as_block_sample refuses an X
               whose norms all underflow instead of sampling nothing from it */
            if (nrm[j] == 0) AS_FOR_COL(Xb, j, row, v, { (void)row; if (v != 0) nrm[j] = DBL_MIN * DBL_EPSILON; });
        }
    if (!lev) return AS_OK;
    if (!NT || q == 0) {
        memset(lev, 0, sizeof(double) * (size_t)len);
        return AS_OK;
    }
    if (as_scores_cols(Xb, NT, q, qs, lev, c) != AS_OK) return c->status;
    for (j = 0; j < len; j++)
        if (!isfinite(lev[j]))
            /* R^-1 over- or underflowed: subnormal entries, or entries near DBL_MAX */
            return as_error(c, AS_ERR_INPUT, "X: the leverage score of column %lld is not finite "
                            "(entries too close to 0 or to the largest double): rescale X",
                            (long long)(j0 + j + 1));
    return AS_OK;
}

int as_block_scores(const as_matrix *Xb, int64_t j0, const double *NT, int64_t q, int64_t qs,
                    double *lev, double *nrm, as_common *c)
{
    as_matrix V;
    void *p_own = NULL;
    c->status = AS_OK;
    if (as_block_rebase(Xb, &V, &p_own, c) == AS_OK)
        as_block_scores_view(&V, j0, NT, q, qs, lev, nrm, c);
    as_free(c, p_own);
    return c->status;
}

int as_block_sample(const as_block_plan *P, const as_rand_options *o, int64_t rank,
                    const double *lev, const double *nrm, as_result *out, double **term,
                    as_common *c)
{
    int64_t j, d = P->d;
    int scheme = o->probabilities == AS_PROB_AUTO ? AS_PROB_LEVERAGE : o->probabilities;
    double *prob = NULL, tn = 0;
    as_result_init(out);
    *term = NULL;
    c->status = AS_OK;
    if ((P->need_lev && !lev) || (P->need_nrm && !nrm))
        return as_error(c, AS_ERR_ARG, "as_block_sample: the plan needs %s scores",
                        P->need_lev && !lev ? "leverage" : "norm");
    if (P->need_nrm) {
        for (j = 0; j < d; j++) tn += nrm[j];
        /* as_rand recomputes such norms on X / max |X|; blocks cannot */
        if (!isfinite(tn) || (tn > 0 && tn <= 1e-250))
            return as_error(c, AS_ERR_INPUT, "X: the sum of squared column norms %s: rescale X",
                            isfinite(tn) ? "underflows" : "overflows");
    }
    as_result_options(out, AS_FOR_RAND, (double)o->seed, o->delta, o->rel);
    out->eps_target = as_rand_eps(o);
    out->rank = P->need_lev ? rank : (P->n < d ? P->n : d);
    out->s1 = P->need_lev && !P->in_memory ? P->s1 : 0;   /* approximate scores: the default m's beta */
    out->probabilities = scheme;
    out->sampling = as_rand_sampling(o);
    out->rounds = 1;
    prob = as_malloc(c, (size_t)d, sizeof(double));
    if (prob) as_rand_sample(d, out->rank, lev, nrm, scheme, o, prob, out, term, c);
    as_free(c, prob);
    if (c->status != AS_OK) {
        as_free(c, *term);
        *term = NULL;
        as_result_free(out, c);
    }
    return c->status;
}

int as_block_rowsq(const as_matrix *Xb, double *leaf, as_common *c)
{
    as_matrix V;
    void *p_own = NULL;
    int64_t j;
    c->status = AS_OK;
    if (as_block_rebase(Xb, &V, &p_own, c) == AS_OK)
        for (j = 0; j < V.ncol; j++) AS_FOR_COL(&V, j, row, v, { leaf[row] += v * v; });
    as_free(c, p_own);
    return c->status;
}

void as_block_rowsq_add(int64_t n, double *acc, const double *leaf)
{
    int64_t i;
    for (i = 0; i < n; i++) acc[i] += leaf[i];
}

int as_block_rowsq_all(const as_block_plan *P, const as_matrix *X, double *rowsq, as_common *c)
{
    int64_t ch;
    double *leaf = P->nchunk > 1 ? as_malloc(c, (size_t)P->n, sizeof(double)) : NULL;
    c->status = AS_OK;
    if (P->nchunk > 1 && !leaf) return c->status;
    memset(rowsq, 0, sizeof(double) * (size_t)P->n);
    for (ch = 0; ch < P->nchunk && c->status == AS_OK; ch++) {
        int64_t j0 = ch * P->chunk, j1 = j0 + P->chunk < P->d ? j0 + P->chunk : P->d, j;
        double *target = ch == 0 ? rowsq : leaf;
        if (ch > 0) memset(leaf, 0, sizeof(double) * (size_t)P->n);
        for (j = j0; j < j1; j++) AS_FOR_COL(X, j, row, v, { target[row] += v * v; });
        if (ch > 0) as_block_rowsq_add(P->n, rowsq, leaf);
        if (as_interrupted(c)) break;
    }
    as_free(c, leaf);
    return c->status;
}

int as_block_finish(const as_matrix *Xs, int64_t d, const as_rand_options *o, const double *term,
                    const double *rowsq, as_result *out, as_common *c)
{
    c->status = AS_OK;
    if (Xs->ncol != out->k)
        return as_error(c, AS_ERR_INPUT, "the gathered columns must be the %lld sampled ones, got %lld",
                        (long long)out->k, (long long)Xs->ncol);
    if (out->k > 0 && (as_matrix_check(Xs, c) != AS_OK ||
                       as_sample_check_finite_cols(Xs, NULL, out, c) != AS_OK))
        return c->status;
    if (as_estimate_wanted(o, out))
        as_estimate(Xs, NULL, d, out, as_rand_sampling(o), term, o->seed, 0, rowsq, 0, o->estimate, c);
    return c->status;
}
