/* leverage.c: leverage scores of the columns of X, exact or from a sparse embedding + QR + JL. */
#include "as_internal.h"
#include "leverage.h"
#include "rand.h"
#include "rand_passes.h"
#include "rng.h"
#include <float.h>

/* Columns per parallel chunk between interrupt checks. */
#define AS_CHUNK 16384

int64_t as_default_s1(int64_t n) { return 4 * n + 16; }

/* ------------------------------------------------------------ tail factors
   Why the default m holds (as_rand in attsparse.h, the help of attsparse_rand).
   Sampling needs p_j >= tau_j / (beta r) for every column j (Tropp 2012,
   Thm 1.1: the whitened terms then have norm <= R = beta r / m). With
   sigma_j the approximate score, Sigma = sum_j sigma_j and p_j = sigma_j / Sigma,
   that is sigma_j >= tau_j / (b / a) and beta = (b / a) (Sigma / r), Sigma
   measured (it corrects the inflation of sketched scores, about
   s1 / (s1 - r - 1) for a Gaussian-like embedding: 1.33 r at s1 = 4 n + 16):
   - the embedding: G~ = X S1' S1 X' = R'R and w_j = X' G^+ x_j (a fixed vector,
     ||w_j||^2 = tau_j); by Cauchy-Schwarz,
     tau_j^2 = (x_j' G^+ x_j)^2 <= (x_j' G~^+ x_j) (w_j' S1' S1 w_j), so
     x_j' G~^+ x_j >= tau_j / b whenever ||S1 w_j||^2 <= b ||w_j||^2: only the
     UPPER tail of ||S1 w||^2 for d fixed vectors, not a subspace embedding.
     For a Gaussian S1 it is chi-square with s1 degrees of freedom; the OSNAP
     embedding (Nelson, Nguyen, FOCS 2013) has the same second moment, and its
     tails are of the same order up to constants (Cohen, Jayram, Nelson, SOSA
     2018): b is the chi-square value, checked on real data by the tests.
   - the JL step: sigma_j = ||S2' R^-T x_j||^2 is ||R^-T x_j||^2 chi2(s2) / s2
     for the Gaussian S2 (given S1), and only its LOWER tail matters: a.
   Both tails by the chi-square Chernoff bound (Dasgupta, Gupta 2003, Lemma
   2.2; Laurent, Massart 2000): P(chi2(k) <= t k) <= exp(-(k/2)(t - 1 - log t))
   for t < 1, the same for >= when t > 1; over d columns at delta / 4 each,
   t solves (k/2)(t - 1 - log t) = log(4 d / delta). The sampling keeps
   delta / 2. */

/* The t of the chi-square Chernoff bound above: (k/2)(t - 1 - log t) = x, with
   t > 1 (upper) or t < 1 (lower); bisection, the same bits everywhere. */
static double as_chi2_tail(double k, double x, int upper)
{
    double lo = upper ? 1 : 0, hi = upper ? 2 : 1, target = 2 * x / k, mid;
    int it;
    if (upper)
        while (hi - 1 - log(hi) < target) hi *= 2;
    for (it = 0; it < 200; it++) {
        mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        if ((mid - 1 - log(mid) < target) == (upper != 0)) lo = mid; else hi = mid;
    }
    return upper ? hi : lo;
}

/* The JL floor of the default s2: every score keeps at least a third of its
   value, (s2/2)(1/3 - 1 + log 3) = log(4 d / delta), s2 ~ 4.63 log(4 d / delta). */
#define AS_JL_FLOOR (1.0 / 3.0)

double as_default_s2(int64_t d, double delta)
{
    return ceil(2 * log(4.0 * (double)d / delta) / (AS_JL_FLOOR - 1 - log(AS_JL_FLOOR)));
}

int64_t as_jl_width(const as_rand_options *o, int64_t d, int64_t rank)
{
    int64_t q;
    if (o->s2 > 0) return o->s2 < rank ? o->s2 : 0;
    /* The default width is used only where it at least halves the score pass
       (2 s2 <= rank): the JL step's lower tail a (about 1/3 at the default
       width) divides the default m's beta, so a JL step that saves little of
       the score pass would triple the draws for it. Without it the scores are
       the exact projections of the sketch's factor (a = 1). */
    q = (int64_t)as_default_s2(d, o->delta);
    return 2 * q <= rank ? q : 0;
}

double as_sketch_beta(int64_t s1, int64_t s2, int64_t d, double delta)
{
    double x = log(4.0 * (double)d / delta);
    double b = s1 > 0 ? as_chi2_tail((double)s1, x, 1) : 1;
    double a = s2 > 0 ? as_chi2_tail((double)s2, x, 0) : 1;
    return b / a;
}

/* Row of S1 holding the b-th nonzero of its column j (one in each of the s
   blocks of rows), and that nonzero's sign (*pos: +1/sqrt(s)); a function
   of (seed, j, b) only. */
static inline int64_t as_osnap_hash(uint64_t seed, int64_t s1, int64_t s, int64_t j, int64_t b,
                                    int *pos)
{
    int64_t blo = s1 * b / s, bhi = s1 * (b + 1) / s;
    uint64_t z = as_rng_u64(seed, AS_STREAM_OSNAP, (uint64_t)(j * s + b));
    *pos = (int)(z & 1);
    return blo + (int64_t)((z >> 1) % (uint64_t)(bhi - blo));
}

/* Sketch rows per band of the embedding pass: a band of M' (n x AS_EMBED_BAND)
   stays in cache while the columns hashed into it are added. */
#define AS_EMBED_BAND 32

/* The sketch of a dense X (columns j0g + (0 .. ncol(X) - 1) of the whole input): thread t owns a band of rows of X and of M' and
   adds its part of every column, in column order, to the s columns of M'
   the column hashes to. X is read once; the entries of M' are the sums of
   the sparse pass, in the same order. */
static int as_embed_dense(const as_matrix *X, int64_t j0g, int64_t s1, int64_t s, uint64_t seed,
                          double *MT, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j0;
    double scale = 1.0 / sqrt((double)s);
    int nt = as_threads(c);
    for (j0 = 0; j0 < d; j0 += AS_CHUNK) {
        int64_t j1 = j0 + AS_CHUNK < d ? j0 + AS_CHUNK : d;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
        {
            int64_t lo, hi, j, b, row;
            as_thread_band(n, &lo, &hi);
            for (j = j0; j < j1; j++) {
                const double *restrict xc = X->x + j * X->ld;
                for (b = 0; b < s; b++) {
                    int pos;
                    int64_t h = as_osnap_hash(seed, s1, s, j0g + j, b, &pos);
                    double sg = pos ? scale : -scale;
                    double *restrict m = MT + h * n;
#ifdef _OPENMP
#pragma omp simd
#endif
                    for (row = lo; row < hi; row++) m[row] += sg * xc[row];
                }
            }
        }
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* M' += S1(:, j0g + (0 .. ncol(X) - 1)) X' (n x s1): column j of X, column j0g + j of the
   whole input, goes, times +-1/sqrt(s), to one row of
   each of the s blocks of S1. The (column, block) pairs of a chunk of columns
   are bucketed by band of sketch rows (a counting sort that keeps column
   order), and each band is filled by one thread: every entry of M' is summed
   in column order whatever the thread count, and a band's writes stay in
   cache instead of landing anywhere in the n x s1 array. */
int as_sketch_cols(const as_matrix *X, int64_t j0g, int64_t s1, int64_t s, uint64_t seed,
                   double *MT, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j0, nband = (s1 + AS_EMBED_BAND - 1) / AS_EMBED_BAND;
    int64_t chunk = AS_CHUNK, *start = NULL, *pair = NULL;
    double scale = 1.0 / sqrt((double)s);
    int nt = as_threads(c);
    if (X->kind == AS_DENSE) return as_embed_dense(X, j0g, s1, s, seed, MT, c);
    start = as_malloc(c, (size_t)nband + 1, sizeof(int64_t));
    pair = as_malloc(c, (size_t)(chunk * s), sizeof(int64_t));
    if (!start || !pair) goto done;
    for (j0 = 0; j0 < d && c->status == AS_OK; j0 += chunk) {
        int64_t j1 = j0 + chunk < d ? j0 + chunk : d, j, b, g;
        /* bucket the pairs: pair = (j - j0) * 2 s1 + 2 h + sign bit */
        memset(start, 0, sizeof(int64_t) * (size_t)(nband + 1));
        for (j = j0; j < j1; j++)
            for (b = 0; b < s; b++) {
                int pos;
                start[as_osnap_hash(seed, s1, s, j0g + j, b, &pos) / AS_EMBED_BAND + 1]++;
            }
        for (g = 0; g < nband; g++) start[g + 1] += start[g];
        for (j = j0; j < j1; j++)
            for (b = 0; b < s; b++) {
                int pos;
                int64_t h = as_osnap_hash(seed, s1, s, j0g + j, b, &pos);
                pair[start[h / AS_EMBED_BAND]++] = (j - j0) * 2 * s1 + 2 * h + pos;
            }
        /* start[g] is now the end of band g: shift back to the starts */
        for (g = nband; g > 0; g--) start[g] = start[g - 1];
        start[0] = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
#endif
        for (g = 0; g < nband; g++) {
            int64_t e;
            for (e = start[g]; e < start[g + 1]; e++) {
                int64_t code = pair[e], jj = j0 + code / (2 * s1), h = (code % (2 * s1)) / 2;
                double sg = (code & 1) ? scale : -scale;
                double *col = MT + h * n;
                AS_FOR_COL(X, jj, row, v, { col[row] += sg * v; });
            }
        }
        as_interrupted(c);
    }
done:
    as_free(c, start);
    as_free(c, pair);
    return c->status;
}

/* The prime of the 4-wise independent family below. */
#define AS_AMS_P 2147483647ULL

/* One sign of a 4-wise independent family: a random cubic over GF(2^31 - 1),
   evaluated at a (< 2^31), its parity as the sign (bias 1 / P). */
static double as_ams_sign(const uint64_t coef[4], uint64_t a)
{
    uint64_t acc = 0;
    int t;
    for (t = 3; t >= 0; t--) acc = (acc * a + coef[t]) % AS_AMS_P;
    return (acc & 1) ? 1.0 : -1.0;
}

/* Width of the JL tiles of the sparse score pass: the accumulators of a tile
   stay in registers, and a tile of N' (n x AS_SCORE_TILE) stays in cache. The
   row stride of N' is padded to a multiple of it with zero columns (adding
   their 0 * 0 leaves a score's bits unchanged). */
#define AS_SCORE_TILE 16
/* Nonzero: the sparse score pass may use its AVX2 tile when the CPU has AVX2
   (tests set 0 to check that both tiles give the same bits).
   (c->tune.scores_avx2, 1) */

/* Columns per task of the sparse score pass. */
#define AS_SCORE_TASK 128

/* scores[j] += sum_a (x_j' N(:, a))^2 over the AS_SCORE_TILE columns a of one
   tile; NT holds the tile's rows with stride q. Each sum runs over the entries
   of column j in row order and the squares are added in a's order, so the
   tiles add up to exactly the untiled sum. DECL, STEP and STORE hold the 16
   sums: in registers (vector extensions of GCC and clang: elementwise IEEE
   multiplies and adds, the roundings of the scalar loop) or in an array. */
#define AS_SCORES_TILE_FN(NAME, ATTR, DECL, STEP, STORE)                       \
    ATTR static void NAME(const as_matrix *X, int64_t ja, int64_t jb,          \
                          const double *restrict NT, int64_t q,                \
                          double *restrict scores)                             \
    {                                                                          \
        const double *restrict xv = X->x;                                      \
        int64_t j;                                                             \
        for (j = ja; j < jb; j++) {                                            \
            double acc[AS_SCORE_TILE], s = scores[j];                          \
            int64_t k, ke;                                                     \
            int a;                                                             \
            DECL;                                                              \
            if (X->kind == AS_CSC32) {                                         \
                const int32_t *restrict ri = X->i32;                           \
                for (k = X->p32[j], ke = X->p32[j + 1]; k < ke; k++) {         \
                    AS_PREFETCH(NT + (int64_t)ri[k + 8 < ke ? k + 8 : k] * q); \
                    STEP(NT + (int64_t)ri[k] * q, xv[k]);                      \
                }                                                              \
            } else {                                                           \
                const int64_t *restrict ri = X->i64;                           \
                for (k = X->p64[j], ke = X->p64[j + 1]; k < ke; k++) {         \
                    AS_PREFETCH(NT + ri[k + 8 < ke ? k + 8 : k] * q);          \
                    STEP(NT + ri[k] * q, xv[k]);                               \
                }                                                              \
            }                                                                  \
            STORE(acc);                                                        \
            for (a = 0; a < AS_SCORE_TILE; a++) s += acc[a] * acc[a];          \
            scores[j] = s;                                                     \
        }                                                                      \
    }

#if defined(__GNUC__)
/* the next nonzero's row of the tile: two 64-byte lines */
#define AS_PREFETCH(P) (__builtin_prefetch(P), __builtin_prefetch((P) + 8))
/* 128-bit vectors: 8 SSE2 registers (baseline x86-64; pairs elsewhere) */
typedef double as_v2d __attribute__((vector_size(16), aligned(8)));
#define AS_V2_DECL as_v2d a0 = {0, 0}, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
#define AS_V2_STEP(NR, V)                                                      \
    do {                                                                       \
        const as_v2d *nv_ = (const as_v2d *)(NR);                             \
        as_v2d vv_ = {V, V};                                                   \
        a0 += vv_ * nv_[0]; a1 += vv_ * nv_[1];                                \
        a2 += vv_ * nv_[2]; a3 += vv_ * nv_[3];                                \
        a4 += vv_ * nv_[4]; a5 += vv_ * nv_[5];                                \
        a6 += vv_ * nv_[6]; a7 += vv_ * nv_[7];                                \
    } while (0)
#define AS_V2_STORE(ACC)                                                       \
    do { memcpy(ACC, &a0, 16); memcpy(ACC + 2, &a1, 16);                       \
         memcpy(ACC + 4, &a2, 16); memcpy(ACC + 6, &a3, 16);                   \
         memcpy(ACC + 8, &a4, 16); memcpy(ACC + 10, &a5, 16);                  \
         memcpy(ACC + 12, &a6, 16); memcpy(ACC + 14, &a7, 16); } while (0)
AS_SCORES_TILE_FN(as_scores_tile, , AS_V2_DECL, AS_V2_STEP, AS_V2_STORE)
#else
#define AS_PREFETCH(P) ((void)0)
#define AS_ARR_DECL double acc_[AS_SCORE_TILE] = {0}
#define AS_ARR_STEP(NR, V)                                                     \
    do { int a_; for (a_ = 0; a_ < AS_SCORE_TILE; a_++) acc_[a_] += (V) * (NR)[a_]; } while (0)
#define AS_ARR_STORE(ACC) memcpy(ACC, acc_, sizeof acc_)
AS_SCORES_TILE_FN(as_scores_tile, , AS_ARR_DECL, AS_ARR_STEP, AS_ARR_STORE)
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define AS_HAVE_AVX2_TILE 1
/* 256-bit vectors in 4 registers, for CPUs with AVX2 (checked at run time,
   so the build stays baseline x86-64): multiplies and adds, no FMA, so the
   same roundings and bits as as_scores_tile. */
typedef double as_v4d __attribute__((vector_size(32), aligned(8)));
#define AS_V4_DECL as_v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0
#define AS_V4_STEP(NR, V)                                                      \
    do {                                                                       \
        const as_v4d *nv_ = (const as_v4d *)(NR);                             \
        as_v4d vv_ = {V, V, V, V};                                             \
        a0 += vv_ * nv_[0]; a1 += vv_ * nv_[1];                                \
        a2 += vv_ * nv_[2]; a3 += vv_ * nv_[3];                                \
    } while (0)
#define AS_V4_STORE(ACC)                                                       \
    do { memcpy(ACC, &a0, 32); memcpy(ACC + 4, &a1, 32);                       \
         memcpy(ACC + 8, &a2, 32); memcpy(ACC + 12, &a3, 32); } while (0)
AS_SCORES_TILE_FN(as_scores_tile_avx2, __attribute__((target("avx2"))), AS_V4_DECL, AS_V4_STEP,
                  AS_V4_STORE)
#endif

/* Columns between interrupt polls of the stacked view's scores. */
#define AS_QK_CHUNK 4096

/* The scores of a stacked Z = [Q; K] (as_internal.h). */
int as_qk_scores(const as_matrix *Z, const double *NT, int64_t q, int64_t qs, double *scores,
                 as_common *c)
{
    int64_t d = Z->ncol, j0;
    int nt = as_threads(c);
    double *acc = as_malloc(c, (size_t)nt * (size_t)q, sizeof(double));
    if (!acc) return c->status;
    for (j0 = 0; j0 < d; j0 += AS_QK_CHUNK) {
        int64_t j1 = j0 + AS_QK_CHUNK < d ? j0 + AS_QK_CHUNK : d, j;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
        for (j = j0; j < j1; j++) {
            int tid = 0;
            double *u, s = 0;
            int64_t a;
#ifdef _OPENMP
            tid = omp_get_thread_num();
#endif
            u = acc + (int64_t)tid * q;
            memset(u, 0, sizeof(double) * (size_t)q);
            /* u = N' z_j over the entries of Q's column, then K's */
            AS_FOR_COL(Z, j, row, v, {
                const double *nr = NT + row * qs;
                for (a = 0; a < q; a++) u[a] += v * nr[a];
            });
            for (a = 0; a < q; a++) s += u[a] * u[a];
            scores[j] = s;
        }
        if (as_interrupted(c)) break;
    }
    as_free(c, acc);
    return c->status;
}

/* scores[j] = || x_j' N ||^2 with NT = N' (q x n, leading dimension qs, a
   multiple of AS_SCORE_TILE; rows q .. qs-1 zero). */
int as_scores_cols(const as_matrix *X, const double *NT, int64_t q, int64_t qs, double *scores,
                   as_common *c)
{
    int64_t d = X->ncol, n = X->nrow, j0;
    int nt = as_threads(c), avx2 = 0;
    (void)avx2;
    if (X->kind == AS_STACKED) return as_qk_scores(X, NT, q, qs, scores, c);
    if (X->kind == AS_DENSE) {
        /* blocks of 1024 columns through dgemm, T = N' X(:, block), the
           blocks on the core's threads (each block the same call whatever the
           thread count), a poll after each round */
        int64_t nblk = (d + 1023) / 1024, b0;
        int blas;
        double *T;
        nt = as_threads_for(c, (double)q * (double)n * (double)d);
        if (nt > nblk) nt = (int)nblk;
        T = as_malloc(c, (size_t)nt * (size_t)q, 1024 * sizeof(double));
        if (!T) return c->status;
        blas = as_blas_threads_set(1);
        for (b0 = 0; b0 < nblk; b0 += nt) {
            int64_t b1 = b0 + nt < nblk ? b0 + nt : nblk, b;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (b1 - b0 > 1)
#endif
            for (b = b0; b < b1; b++) {
                int qi = (int)q, qsi = (int)qs, ni = (int)n, ldx = (int)X->ld, tid = 0, nb;
                int64_t jb = b * 1024, t, a;
                double one = 1.0, zero = 0.0, *Tt;
#ifdef _OPENMP
                tid = omp_get_thread_num();
#endif
                Tt = T + (size_t)tid * (size_t)q * 1024;
                nb = (int)(d - jb < 1024 ? d - jb : 1024);
                dgemm_("N", "N", &qi, &nb, &ni, &one, NT, &qsi, X->x + jb * X->ld, &ldx, &zero, Tt, &qi, 1, 1);
                for (t = 0; t < nb; t++) {
                    double s = 0;
                    for (a = 0; a < q; a++) s += Tt[a + t * q] * Tt[a + t * q];
                    scores[jb + t] = s;
                }
            }
            if (b1 < nblk && as_interrupted(c)) break;
        }
        if (blas > 0) as_blas_threads_set(blas);
        as_free(c, T);
        return c->status;
    }
    /* Sparse: a task is a block of columns, walked once per tile of N'
       (q is a multiple of AS_SCORE_TILE here) */
#ifdef AS_HAVE_AVX2_TILE
    avx2 = c->tune.scores_avx2 != 0 && __builtin_cpu_supports("avx2");
#endif
    memset(scores, 0, sizeof(double) * (size_t)d);
    for (j0 = 0; j0 < d; j0 += AS_CHUNK) {
        int64_t j1 = j0 + AS_CHUNK < d ? j0 + AS_CHUNK : d, ja;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
#endif
        for (ja = j0; ja < j1; ja += AS_SCORE_TASK) {
            int64_t jb = ja + AS_SCORE_TASK < j1 ? ja + AS_SCORE_TASK : j1, a0;
            for (a0 = 0; a0 < qs; a0 += AS_SCORE_TILE)
#ifdef AS_HAVE_AVX2_TILE
                if (avx2) as_scores_tile_avx2(X, ja, jb, NT + a0, qs, scores);
                else
#endif
                as_scores_tile(X, ja, jb, NT + a0, qs, scores);
        }
        if (as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

/* Smallest reciprocal condition number of the sketch's Gram M'M accepted
   for its Cholesky factor; below it the pivoted QR of M is used. The scores
   then carry relative errors near eps / rcond <= 2e-6, far inside the
   factor 3 that the sampling needs. */
#define AS_CHOL_RCOND 1e-10

/* U (n x n, upper) with U'U = M'M = MT MT' from one dsyrk on MT (n x s1)
   and a Cholesky: half the multiply-adds of a QR of M, all of them in
   level-3 BLAS, and no transposed copy of M. Returns 1 when the Gram is
   positive definite with rcond > AS_CHOL_RCOND, 0 when the caller must fall
   back to the rank-revealing QR (c->status says whether memory ran out or
   the user interrupted). */
static int as_sketch_cholesky(const double *MT, int64_t n, int64_t s1, double *U, as_common *c)
{
    int ni = (int)n, info = 0, ok = 0, blas;
    double anorm, rcond = 0;
    double *work = as_malloc(c, 3 * (size_t)n, sizeof(double));
    int *iwork = as_malloc(c, (size_t)n, sizeof(int));
    if (work && iwork && as_syrk_blocks("U", "N", n, s1, 1.0, MT, n, 0.0, U, n, c) == AS_OK &&
        as_interrupted(c) == AS_OK) {
        blas = as_blas_threads_set(1);
        anorm = dlansy_("1", "U", &ni, U, &ni, work, 1, 1);
        dpotrf_("U", &ni, U, &ni, &info, 1);
        if (info == 0 && anorm > 0 && isfinite(anorm)) {
            dpocon_("U", &ni, U, &ni, &anorm, &rcond, work, iwork, &info, 1);
            ok = info == 0 && rcond > AS_CHOL_RCOND;
        }
        if (blas > 0) as_blas_threads_set(blas);
    }
    as_free(c, work);
    as_free(c, iwork);
    return ok;
}

/* From the triangular factor R of the sketch or of X' (M, mrows x n, R in
   its upper triangle, column pivots jpvt) to N' = (R^-1 S2)' in F: the
   numerical rank from R's diagonal, the JL matrix S2 (the identity for exact
   scores or when the JL width is not below the rank), then one dtrsm. */
static int as_factor_tail(const double *M, int64_t mrows, int64_t n, const int *jpvt, int exact,
                          int64_t d, const as_rand_options *o, as_block_factor *F, as_common *c)
{
    int64_t r, q, qs, a, j;
    int jl;
    double *Z = NULL, tol;

    r = 0;
    tol = (double)(mrows > n ? mrows : n) * DBL_EPSILON * fabs(M[0]);
    for (a = 0; a < (mrows < n ? mrows : n); a++)
        if (fabs(M[a + a * mrows]) > tol && M[0] != 0) r++;
        else break;
    F->rank = r;
    F->q = F->qs = F->s2 = 0;
    if (r == 0) return AS_OK;
    if (!exact && o->s2 == 0) {
        /* the default width as a double first: a delta near the smallest
           double makes it infinite, and a cast of that to int64_t is undefined */
        double s2d = as_default_s2(d, o->delta);
        if (!(s2d <= 100000))
            return as_error(c, AS_ERR_TOOBIG, "'delta' = %g needs a JL sketch of ceil(4.63 log(4 d / delta)) = %g columns "
                            "(d = ncol(X) = %lld), above 100000: use a larger 'delta' or pass 's2'",
                            o->delta, s2d, (long long)d);
    }
    q = exact ? r : as_jl_width(o, d, r);
    jl = q > 0 && q < r;
    if (!jl) q = r;
    else F->s2 = q;
    /* the sparse score pass wants N' rows padded to whole tiles (zero columns
       add 0 * 0 to a score: its bits are unchanged, dense or sparse) */
    qs = (q + AS_SCORE_TILE - 1) / AS_SCORE_TILE * AS_SCORE_TILE;
    Z = as_calloc(c, (size_t)(r * q), sizeof(double));
    F->NTbuf = as_calloc(c, (size_t)(qs * n + 8), sizeof(double));
    if (!Z || !F->NTbuf) goto done;
    /* rows of N' start on 64-byte lines: a tile is exactly two of them */
    F->NT = F->NTbuf + (8 - ((uintptr_t)F->NTbuf / sizeof(double)) % 8) % 8;
    if (!jl) {
        for (a = 0; a < r; a++) Z[a + a * r] = 1.0;
    } else if (o->jl == AS_JL_GAUSSIAN) {
        double sc = 1.0 / sqrt((double)q);
        for (j = 0; j < q; j++)
            for (a = 0; a < r; a++)
                Z[a + j * r] = sc * as_rng_normal(o->seed, AS_STREAM_JL, (uint64_t)(j * r + a));
    } else {
        double sc = 1.0 / sqrt((double)q);
        for (j = 0; j < q; j++) {
            uint64_t coef[4];
            int t;
            for (t = 0; t < 4; t++)
                coef[t] = as_rng_u64(o->seed, AS_STREAM_AMS, (uint64_t)(4 * j + t)) % AS_AMS_P;
            for (a = 0; a < r; a++) Z[a + j * r] = sc * as_ams_sign(coef, (uint64_t)a);
        }
    }
    if (as_interrupted(c) || as_trsm_blocks(r, q, M, mrows, Z, r, c) != AS_OK) goto done;
    /* N(perm(a), :) = Z(a, :), stored transposed */
    for (a = 0; a < r; a++) {
        int64_t row = jpvt[a] - 1;
        for (j = 0; j < q; j++) F->NT[j + row * qs] = Z[a + j * r];
    }
    F->q = q;
    F->qs = qs;
done:
    as_free(c, Z);
    return c->status;
}

/* Pivoted QR of M (mrows x n, overwritten: R in its upper triangle). */
static int as_pivoted_qr(double *M, int64_t mrows, int64_t n, int *jpvt, as_common *c)
{
    double *tau = as_malloc(c, (size_t)n, sizeof(double));
    if (!tau) return c->status;
    as_geqp3((int)mrows, (int)n, M, (int)mrows, jpvt, tau, c);
    as_free(c, tau);
    return c->status;
}

int as_block_factor_run(const as_block_plan *P, const as_rand_options *o, const double *MT,
                        as_block_factor *F, as_common *c)
{
    int64_t n = P->n, mrows = P->s1, a, j;
    int chol = 0, *jpvt = NULL;
    double *M = NULL;
    memset(F, 0, sizeof(*F));
    c->status = AS_OK;
    if (n > AS_INT_MAX || P->s1 > AS_INT_MAX)
        return as_error(c, AS_ERR_TOOBIG, "nrow(X) = %lld is above %lld, the largest size LAPACK takes",
                        (long long)n, (long long)AS_INT_MAX);
    jpvt = as_calloc(c, (size_t)n, sizeof(int));
    M = as_malloc(c, (size_t)(n * n), sizeof(double));
    if (!jpvt || !M) goto done;
    chol = as_sketch_cholesky(MT, n, mrows, M, c);
    if (chol) {
        /* R = U: full rank, no pivoting */
        mrows = n;
        for (a = 0; a < n; a++) jpvt[a] = (int)(a + 1);
    } else {
        if (c->status != AS_OK) goto done;
        as_free(c, M);
        M = as_malloc(c, (size_t)(mrows * n), sizeof(double));
        if (!M) goto done;
        for (a = 0; a < n; a++)
            for (j = 0; j < mrows; j++) M[j + a * mrows] = MT[a + j * n];
        if (as_pivoted_qr(M, mrows, n, jpvt, c) != AS_OK) goto done;
    }
    as_progress(c, "leverage: %s done", chol ? "Cholesky of the sketch's Gram" : "pivoted QR");
    as_factor_tail(M, mrows, n, jpvt, 0, P->d, o, F, c);
done:
    as_free(c, M);
    as_free(c, jpvt);
    if (c->status != AS_OK) as_block_factor_free(F, c);
    return c->status;
}

void as_block_factor_free(as_block_factor *F, as_common *c)
{
    as_free(c, F->NTbuf);
    F->NTbuf = NULL;
    F->NT = NULL;
}

int as_exact_factor(const as_matrix *X, const as_rand_options *o, as_block_factor *F, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j;
    int *jpvt = NULL;
    double *M = NULL;
    memset(F, 0, sizeof(*F));
    jpvt = as_calloc(c, (size_t)n, sizeof(int));
    M = as_calloc(c, (size_t)(d * n), sizeof(double));
    if (!jpvt || !M) goto done;
    for (j = 0; j < d; j++)
        AS_FOR_COL(X, j, row, v, { M[j + row * d] = v; });
    if (as_pivoted_qr(M, d, n, jpvt, c) != AS_OK) goto done;
    as_progress(c, "leverage: pivoted QR done");
    as_factor_tail(M, d, n, jpvt, 1, d, o, F, c);
done:
    as_free(c, M);
    as_free(c, jpvt);
    if (c->status != AS_OK) as_block_factor_free(F, c);
    return c->status;
}
