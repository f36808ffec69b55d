/* gram.c: the exact Gram matrix X X' (dense panels by a packed register-blocked kernel; light CSC columns by sparse outer products, a column of G at a time), the cross products Q K' and the Gram of a stacked [Q; K]. */
#include "as_internal.h"
#include "gram.h"
#include <float.h>

/* Summation order, and why the bits do not depend on the thread count.
   G is built in its upper triangle (column a holds G(b, a), b <= a) and
   mirrored at the end.
   - Dense panels (dense X, or the heavy columns of a CSC X, a block of
     columns at a time) are packed and update G through a fixed grid of
     AS_GRAM_TILE x AS_GRAM_TILE tiles shared among the OpenMP threads; each
     4 x 4 block of a tile sums over the panel's columns in order. Which
     thread runs a tile changes nothing. No BLAS call: the reference BLAS
     that Debian's R and Octave link by default runs dsyrk at about 1 G
     multiply-adds/s here, and an optimized BLAS (OpenBLAS) would sum in an
     order that depends on its own thread count (OPENBLAS_NUM_THREADS), which
     the core cannot fix. tests/core/test_gram.c checks 1 to 4 threads.
   - Light columns of a CSC X: a chunk of columns is sorted by row, and each
     column a of G (rows b <= a) is summed by one thread over the chunk's
     columns in order: every entry is the same sum of the same products in
     the same order whatever the thread. (Tiles of G by bands
     of rows, the chunk's columns streamed past each, sum in the same order
     but read the columns once per tile: on 2 cores the second thread gained
     nothing.)
   - Blocks are taken in column order: light chunks first, then the heavy
     panels; the interrupt hook is polled between blocks.
   The cross products Q K' of Q != K (as_cross_gram, the off-diagonal block
   of a stacked [Q; K]'s Gram) are not symmetric and go to BLAS dgemm when Q
   and K are dense and the product is large (c->tune.qk_blas_madds): equal to the
   loops to rounding, on one BLAS thread in bands of columns and rounds of
   the inner dimension that do not depend on the thread count (linalg.c), so
   their bits do not either. */

/* Tile of G (rows and columns) handled by one thread at a time. */
#define AS_GRAM_TILE 256
/* Multiply-adds per light chunk between interrupt polls: the sparse outer
   products run at 0.5-1 G/s, so about 0.2-0.4 s. */
#define AS_GRAM_LIGHT_MADDS 2e8
/* Columns per dense panel at most: a tile's 64 packed blocks of rows stay in L2. */
#define AS_GRAM_PANEL_MAX 192
/* Multiply-adds per dense panel between interrupt polls, at most (with
   AS_GRAM_PANEL_MAX columns, n = 2000: 3.8e8, 0.05 s at the kernel's rate). */
#define AS_GRAM_BLOCK_MADDS 6e8
/* Entries per light chunk, at most (but one column): its row lists are 16
   bytes an entry. */
#define AS_GRAM_CHUNK_NNZ 1048576
/* Columns per light chunk. */
#define AS_GRAM_CHUNK_COLS 8192
/* Columns between interrupt polls of the cross Gram's sparse loops. */
#define AS_GRAM_CROSS_CHUNK 4096

/* A column is heavy (dense panel) when it holds at least this fraction of
   the rows: its sparse outer product costs nnz^2/2 scattered multiply-adds,
   the dense panel n^2/2 at the BLAS's rate. Measured by make bench-gram.
   (c->tune.gram_heavy, 0.25) */

/* as_gram_pair makes both Grams in one pass when the sample's light work
   is at least this share of X's (tests set 0: always one pass).
   (c->tune.gram_pair_share, 0.5) */

/* Multiply-adds from which a dense cross Gram goes to BLAS dgemm: below it
   the call (and a threaded BLAS's start-up) costs more than the loops
   (tests set 0 or more).
   (c->tune.qk_blas_madds, 1048576) */

static int64_t as_gram_col(const int64_t *index, int64_t t)
{
    return index ? index[t] : t;
}

static int64_t as_gram_colbeg(const as_matrix *X, int64_t j)
{
    return X->kind == AS_CSC32 ? (int64_t)X->p32[j] : X->p64[j];
}

/* Dense panels are packed by blocks of 4 rows: P[(a/4)*4*kb + l*4 + a%4] holds
   row a, column l (rows past n are 0), so that a 4 x 4 block of G reads two
   contiguous streams. The reference BLAS that R and Octave often link runs
   dsyrk at under 1 G multiply-adds/s here; this kernel keeps 16 sums in
   registers. Every entry of G gets c = c + a*b for l = 0, 1, ... in order
   (separate multiply and add, as the scalar code), whichever thread runs it. */
static int64_t as_gram_packed_len(int64_t n, int64_t kb)
{
    return (n + 3) / 4 * 4 * kb;
}

#if defined(__GNUC__)
typedef double as_gram_v2d __attribute__((vector_size(16), aligned(8)));
/* c (4 x 4, column-major) += A B' over l < kb; pa, pb: packed blocks */
static void as_gram_block(int64_t kb, const double *pa, const double *pb, double *c)
{
    as_gram_v2d c00 = {c[0], c[1]}, c10 = {c[2], c[3]}, c01 = {c[4], c[5]}, c11 = {c[6], c[7]},
                c02 = {c[8], c[9]}, c12 = {c[10], c[11]}, c03 = {c[12], c[13]}, c13 = {c[14], c[15]};
    int64_t l;
    for (l = 0; l < kb; l++) {
        as_gram_v2d a0 = *(const as_gram_v2d *)(pa + 4 * l), a1 = *(const as_gram_v2d *)(pa + 4 * l + 2);
        const double *b = pb + 4 * l;
        as_gram_v2d b0 = {b[0], b[0]}, b1 = {b[1], b[1]}, b2 = {b[2], b[2]}, b3 = {b[3], b[3]};
        c00 = c00 + a0 * b0; c10 = c10 + a1 * b0;
        c01 = c01 + a0 * b1; c11 = c11 + a1 * b1;
        c02 = c02 + a0 * b2; c12 = c12 + a1 * b2;
        c03 = c03 + a0 * b3; c13 = c13 + a1 * b3;
    }
    c[0] = c00[0]; c[1] = c00[1]; c[2] = c10[0]; c[3] = c10[1];
    c[4] = c01[0]; c[5] = c01[1]; c[6] = c11[0]; c[7] = c11[1];
    c[8] = c02[0]; c[9] = c02[1]; c[10] = c12[0]; c[11] = c12[1];
    c[12] = c03[0]; c[13] = c03[1]; c[14] = c13[0]; c[15] = c13[1];
}
#else
static void as_gram_block(int64_t kb, const double *pa, const double *pb, double *c)
{
    int64_t l;
    int r, s;
    for (l = 0; l < kb; l++)
        for (s = 0; s < 4; s++)
            for (r = 0; r < 4; r++) c[r + 4 * s] = c[r + 4 * s] + pa[4 * l + r] * pb[4 * l + s];
}
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define AS_GRAM_HAVE_AVX2 1
typedef double as_gram_v4d __attribute__((vector_size(32), aligned(8)));
/* Two 4 x 4 blocks of G at once, rows of pa0 and of pa1 against the columns
   of pb: c0 and c1 += A B' with 256-bit vectors, for CPUs with AVX2 (checked
   at run time). Multiplies and adds, no FMA: every entry gets the rounding
   and the order of as_gram_block. */
__attribute__((target("avx2"))) static void as_gram_block8(int64_t kb, const double *pa0,
                                                            const double *pa1, const double *pb,
                                                            double *c0, double *c1)
{
    as_gram_v4d x0, x1, x2, x3, y0, y1, y2, y3;
    int64_t l;
    memcpy(&x0, c0, 32); memcpy(&x1, c0 + 4, 32); memcpy(&x2, c0 + 8, 32); memcpy(&x3, c0 + 12, 32);
    memcpy(&y0, c1, 32); memcpy(&y1, c1 + 4, 32); memcpy(&y2, c1 + 8, 32); memcpy(&y3, c1 + 12, 32);
    for (l = 0; l < kb; l++) {
        as_gram_v4d a0 = *(const as_gram_v4d *)(pa0 + 4 * l), a1 = *(const as_gram_v4d *)(pa1 + 4 * l);
        const double *b = pb + 4 * l;
        as_gram_v4d b0 = {b[0], b[0], b[0], b[0]}, b1 = {b[1], b[1], b[1], b[1]},
                    b2 = {b[2], b[2], b[2], b[2]}, b3 = {b[3], b[3], b[3], b[3]};
        x0 = x0 + a0 * b0; y0 = y0 + a1 * b0;
        x1 = x1 + a0 * b1; y1 = y1 + a1 * b1;
        x2 = x2 + a0 * b2; y2 = y2 + a1 * b2;
        x3 = x3 + a0 * b3; y3 = y3 + a1 * b3;
    }
    memcpy(c0, &x0, 32); memcpy(c0 + 4, &x1, 32); memcpy(c0 + 8, &x2, 32); memcpy(c0 + 12, &x3, 32);
    memcpy(c1, &y0, 32); memcpy(c1 + 4, &y1, 32); memcpy(c1 + 8, &y2, 32); memcpy(c1 + 12, &y3, 32);
}
#endif

/* c->tune.gram_avx2 nonzero (default): dense panels use as_gram_block8 on CPUs with AVX2. */

/* c (4 x 4) from G's rows ib.., columns jb.. (0 past n), and back */
static void as_gram_load(int64_t n, const double *G, int64_t ib, int64_t jb, double *c)
{
    int64_t a, b;
    for (b = 0; b < 4; b++)
        for (a = 0; a < 4; a++) c[a + 4 * b] = ib + a < n && jb + b < n ? G[ib + a + (jb + b) * n] : 0.0;
}

static void as_gram_store(int64_t n, double *G, int64_t ib, int64_t jb, const double *c)
{
    int64_t a, b;
    for (b = 0; b < 4; b++)
        for (a = 0; a < 4; a++)
            if (ib + a < n && jb + b < n) G[ib + a + (jb + b) * n] = c[a + 4 * b];
}

/* G(upper) += P P' for the packed n x kb panel P, over the tile grid; the
   lower part of the diagonal tiles is written too (as_gram mirrors it away). */
static void as_gram_tiles(int64_t n, const double *P, int64_t kb, double *G, int nt, const as_common *c)
{
    int64_t nb = (n + AS_GRAM_TILE - 1) / AS_GRAM_TILE, ntile = nb * (nb + 1) / 2, s;
    int avx2 = 0;
    (void)avx2;
    if (kb <= 0) return;
#ifdef AS_GRAM_HAVE_AVX2
    avx2 = c->tune.gram_avx2 != 0 && __builtin_cpu_supports("avx2");
#endif
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
#else
    (void)nt;
#endif
    for (s = 0; s < ntile; s++) {
        /* tile s: column block J, row block I <= J (tiles of column J are J+1) */
        int64_t J = 0, I, r = s, i0, j0, i1, j1, ib, jb;
        while (r > J) { r -= J + 1; J++; }
        I = r;
        i0 = I * AS_GRAM_TILE;
        j0 = J * AS_GRAM_TILE;
        i1 = i0 + AS_GRAM_TILE < n ? i0 + AS_GRAM_TILE : n;
        j1 = j0 + AS_GRAM_TILE < n ? j0 + AS_GRAM_TILE : n;
        for (jb = j0; jb < j1; jb += 4)
            for (ib = i0; ib < i1 && ib <= jb; ib += 4) {
                double c[16];
#ifdef AS_GRAM_HAVE_AVX2
                if (avx2 && ib + 4 < i1 && ib + 4 <= jb) {
                    /* this block and the next one down */
                    double c1[16];
                    as_gram_load(n, G, ib, jb, c);
                    as_gram_load(n, G, ib + 4, jb, c1);
                    as_gram_block8(kb, P + ib * kb, P + (ib + 4) * kb, P + jb * kb, c, c1);
                    as_gram_store(n, G, ib, jb, c);
                    as_gram_store(n, G, ib + 4, jb, c1);
                    ib += 4;
                    continue;
                }
#endif
                as_gram_load(n, G, ib, jb, c);
                as_gram_block(kb, P + ib * kb, P + jb * kb, c);
                as_gram_store(n, G, ib, jb, c);
            }
    }
}

/* Columns per dense panel: about AS_GRAM_BLOCK_MADDS multiply-adds. */
static int64_t as_gram_panel_cols(int64_t n)
{
    double kb = AS_GRAM_BLOCK_MADDS / (0.5 * (double)n * (double)n);
    if (kb < 32) kb = 32;
    if (kb > AS_GRAM_PANEL_MAX) kb = AS_GRAM_PANEL_MAX;
    return (int64_t)kb;
}

static int as_gram_dense(const as_matrix *X, int64_t kk, const int64_t *index,
                         const double *weight, double *G, as_common *c)
{
    int64_t n = X->nrow, kb = as_gram_panel_cols(n), t0;
    int nt = as_threads_for(c, 0.5 * (double)n * (double)n * (double)kk);
    double *P;
    kb = kb < kk ? kb : kk;
    P = as_malloc(c, (size_t)as_gram_packed_len(n, kb), sizeof(double));
    if (!P) return c->status;
    for (t0 = 0; t0 < kk; t0 += kb) {
        int64_t nbk = kk - t0 < kb ? kk - t0 : kb, t;
        /* packed with the panel's own width nbk */
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static)
#endif
        for (t = 0; t < nbk; t++) {
            const double *xj = X->x + as_gram_col(index, t0 + t) * X->ld;
            double w = weight ? weight[t0 + t] : 1.0;
            int64_t a;
            for (a = 0; a < n; a++) P[(a >> 2) * 4 * nbk + t * 4 + (a & 3)] = w * xj[a];
            for (; a & 3; a++) P[(a >> 2) * 4 * nbk + t * 4 + (a & 3)] = 0.0;
        }
        as_gram_tiles(n, P, nbk, G, nt, c);
        if (t0 + kb < kk && as_interrupted(c)) break;
    }
    as_free(c, P);
    return c->status;
}

/* Row index of stored entry q of a CSC X. */
static int64_t as_gram_row(const as_matrix *X, int64_t q)
{
    return X->kind == AS_CSC32 ? (int64_t)X->i32[q] : X->i64[q];
}

/* g[2 ri[r]] += va xv[r] and g[2 ri[r] + 1] += vb xv[r] for r in [r0, r1):
   the two Grams' entries side by side, one 16-byte add for both (the
   products and sums rounded as the scalar loop rounds them). */
static void as_gram_pair_axpy(const as_matrix *X, int64_t r0, int64_t r1, double va, double vb,
                              double *g)
{
    const double *xv = X->x;
    int64_t r;
#if defined(__GNUC__)
    as_gram_v2d v = {va, vb};
#define AS_PAIR_STEP(row)                                                  \
    do {                                                                   \
        as_gram_v2d *gp = (as_gram_v2d *)(g + 2 * (row)), xr = {xv[r], xv[r]}; \
        *gp = *gp + v * xr;                                                \
    } while (0)
#else
#define AS_PAIR_STEP(row)                                                  \
    do {                                                                   \
        g[2 * (row)] += va * xv[r];                                        \
        g[2 * (row) + 1] += vb * xv[r];                                    \
    } while (0)
#endif
    if (X->kind == AS_CSC32)
        for (r = r0; r < r1; r++) AS_PAIR_STEP(X->i32[r]);
    else
        for (r = r0; r < r1; r++) AS_PAIR_STEP(X->i64[r]);
#undef AS_PAIR_STEP
}

/* The first stored entry in [q, e) of a CSC column whose row is at least
   lo (e when none): a binary search, the rows increasing. */
static int64_t as_gram_first(const as_matrix *X, int64_t q, int64_t e, int64_t lo)
{
    while (q < e) {
        int64_t mid = q + (e - q) / 2;
        if (as_gram_row(X, mid) < lo) q = mid + 1;
        else e = mid;
    }
    return q;
}

/* A light chunk's entries by row: for row a, the entries e in [rp[a],
   rp[a+1]) are (rt[e], rq[e]): the chunk position t of a column holding row a
   and the stored entry's position, in column order. */
typedef struct as_gram_rows {
    int64_t *rp, *rt, *rq, *fill;
} as_gram_rows;

/* The light columns t0..t1-1 (positions in index, or columns; heavy[t] ones
   skipped, nz their entries) into G's upper triangle, a row of G at a time:
   column a of G (entries (b, a), b <= a, in cache) gets, column after column
   of the chunk, the products of the column's entry in row a with its entries
   in rows b <= a. Each column a is summed by one thread over the chunk's
   columns in order: the bits do not depend on the thread count or on which
   thread takes a row.
   With h2 (as_gram_pair): G holds pairs, entry (b, a) at G[2 (b + a n)] and
   its second Gram's at the next double, which gets h2[t] times the product
   (h2[t] = 0: the column is not in the second Gram; adding its +-0 products
   leaves every sum's bits as they are). One 16-byte add serves both. */
static void as_gram_light_chunk(const as_matrix *X, int64_t t0, int64_t t1,
                                const int64_t *index, const double *weight, const double *h2,
                                const unsigned char *heavy, double *G, as_gram_rows *R, int nt)
{
    int64_t n = X->nrow;
    const double *xv = X->x;
    R->rp[0] = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#else
    (void)nt;
#endif
    {
        int64_t lo, hi, t, q, e, a, pass;
        /* the chunk's entries by row, a counting sort of each thread's band
           of rows (columns in order): count, the offsets, then fill */
        as_thread_band(n, &lo, &hi);
        for (a = lo; a < hi; a++) R->rp[a + 1] = 0;
        for (pass = 0; pass < 2; pass++) {
            for (t = t0; t < t1; t++) {
                int64_t j = as_gram_col(index, t);
                if (heavy[t]) continue;
                e = as_gram_colbeg(X, j) + as_col_nnz(X, j);
                for (q = as_gram_first(X, as_gram_colbeg(X, j), e, lo); q < e; q++) {
                    int64_t row = as_gram_row(X, q);
                    if (row >= hi) break;
                    if (pass == 0) R->rp[row + 1]++;
                    else {
                        int64_t f = R->fill[row]++;
                        R->rt[f] = t;
                        R->rq[f] = q;
                    }
                }
            }
            if (pass == 0) {
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
                {
                    for (a = 0; a < n; a++) R->rp[a + 1] += R->rp[a];
                    memcpy(R->fill, R->rp, sizeof(int64_t) * (size_t)n);
                }
            }
        }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp for schedule(dynamic, 16)
#endif
        for (a = 0; a < n; a++) {
            for (e = R->rp[a]; e < R->rp[a + 1]; e++) {
                int64_t u = R->rt[e], qa = R->rq[e], r, q0 = as_gram_colbeg(X, as_gram_col(index, u));
                double w2 = weight ? weight[u] * weight[u] : 1.0, va = w2 * xv[qa];
#if defined(__GNUC__)
                /* the next column's first entries on their way to cache (10-15% on the Zipf input) */
                if (e + 1 < R->rp[a + 1]) {
                    int64_t qn = as_gram_colbeg(X, as_gram_col(index, R->rt[e + 1]));
                    __builtin_prefetch(xv + qn);
                    if (X->kind == AS_CSC32) __builtin_prefetch(X->i32 + qn);
                    else __builtin_prefetch(X->i64 + qn);
                }
#endif
                if (h2) {
                    as_gram_pair_axpy(X, q0, qa + 1, va, h2[u] * xv[qa], G + 2 * a * n);
                    continue;
                }
                {
                    double *g = G + a * n;
                    if (X->kind == AS_CSC32) {
                        const int32_t *ri = X->i32;
                        for (r = q0; r <= qa; r++) g[ri[r]] += va * xv[r];
                    } else {
                        const int64_t *ri = X->i64;
                        for (r = q0; r <= qa; r++) g[ri[r]] += va * xv[r];
                    }
                }
            }
        }
    }
}

/* as_gram's multiply-adds for a column of z entries: a heavy one (at least
   hmin entries) goes to a dense panel, n^2 / 2; a light one z (z + 1) / 2. */
static double as_gram_col_madds(int64_t n, double z, int64_t hmin, const as_common *c)
{
    return c->tune.gram_heavy <= 1.0 && z >= (double)hmin ? 0.5 * (double)n * (double)n : 0.5 * z * (z + 1);
}

static int64_t as_gram_hmin(int64_t n, const as_common *c)
{
    int64_t hmin = (int64_t)ceil(c->tune.gram_heavy * (double)n);
    return hmin < 1 ? 1 : hmin;
}

int as_gram_is_heavy(const as_matrix *X, int64_t j, const as_common *c)
{
    return c->tune.gram_heavy <= 1.0 && as_col_nnz(X, j) >= as_gram_hmin(X->nrow, c);
}

double as_gram_madds(const as_matrix *X, int64_t k, const int64_t *index, const as_common *c)
{
    int64_t n = X->nrow, hmin = as_gram_hmin(n, c), t;
    double work = 0;
    if (X->kind == AS_DENSE) return 0.5 * (double)n * (double)n * (double)(index ? k : X->ncol);
    for (t = 0; t < (index ? k : X->ncol); t++)
        work += as_gram_col_madds(n, (double)as_col_nnz(X, index ? index[t] : t), hmin, c);
    return work;
}

/* heavy[t] for the columns t < kk of index (NULL: all of X's); returns their
   count, and the multiply-adds of all kk columns in *work. */
static int64_t as_gram_classify(const as_matrix *X, int64_t kk, const int64_t *index,
                                unsigned char *heavy, double *work, const as_common *c)
{
    int64_t n = X->nrow, hmin = as_gram_hmin(n, c), t, nheavy = 0;
    *work = 0;
    for (t = 0; t < kk; t++) {
        double z = (double)as_col_nnz(X, as_gram_col(index, t));
        heavy[t] = c->tune.gram_heavy <= 1.0 && z >= (double)hmin;
        nheavy += heavy[t];
        *work += as_gram_col_madds(n, z, hmin, c);
    }
    return nheavy;
}

/* The light columns of index[0..kk) (heavy[t] == 0) into G's upper triangle,
   a chunk at a time (h2: the pairs of as_gram_pair). */
static int as_gram_light(const as_matrix *X, int64_t kk, const int64_t *index,
                         const double *weight, const double *h2, const unsigned char *heavy,
                         double *G, int nt, as_common *c)
{
    int64_t n = X->nrow, t0, t, cap = 0, zmax = 0;
    as_gram_rows R;
    /* a chunk's entries: at most AS_GRAM_CHUNK_NNZ and one column more */
    for (t = 0; t < kk; t++) {
        int64_t z = heavy[t] ? 0 : as_col_nnz(X, as_gram_col(index, t));
        cap += z;
        zmax = z > zmax ? z : zmax;
    }
    cap = cap < AS_GRAM_CHUNK_NNZ + zmax ? cap : AS_GRAM_CHUNK_NNZ + zmax;
    R.rp = as_malloc(c, (size_t)(n + 1), sizeof(int64_t));
    R.fill = as_malloc(c, (size_t)n, sizeof(int64_t));
    R.rt = as_malloc(c, (size_t)(cap > 0 ? cap : 1), sizeof(int64_t));
    R.rq = as_malloc(c, (size_t)(cap > 0 ? cap : 1), sizeof(int64_t));
    if (R.rp && R.fill && R.rt && R.rq)
        for (t0 = 0; t0 < kk;) {
            /* a chunk: up to AS_GRAM_CHUNK_COLS columns, about AS_GRAM_LIGHT_MADDS
               multiply-adds, at most AS_GRAM_CHUNK_NNZ entries but one column */
            int64_t t1 = t0, nz = 0;
            double madds = 0;
            while (t1 < kk && t1 - t0 < AS_GRAM_CHUNK_COLS && madds < AS_GRAM_LIGHT_MADDS) {
                int64_t z = heavy[t1] ? 0 : as_col_nnz(X, as_gram_col(index, t1));
                if (t1 > t0 && nz + z > AS_GRAM_CHUNK_NNZ) break;
                madds += 0.5 * (double)z * (double)(z + 1);
                nz += z;
                t1++;
            }
            as_gram_light_chunk(X, t0, t1, index, weight, h2, heavy, G, &R, nt);
            t0 = t1;
            if (as_interrupted(c)) break;
        }
    as_free(c, R.rp);
    as_free(c, R.fill);
    as_free(c, R.rt);
    as_free(c, R.rq);
    return c->status;
}

/* The nheavy heavy columns of index[0..kk) into G's upper triangle, packed
   into dense panels of at most as_gram_panel_cols(n) columns. */
static int as_gram_heavy_panels(const as_matrix *X, int64_t kk, const int64_t *index,
                                const double *weight, const unsigned char *heavy, int64_t nheavy,
                                double *G, int nt, as_common *c)
{
    int64_t n = X->nrow, kb = as_gram_panel_cols(n), h = 0, col = 0, hb, t;
    double *B;
    if (nheavy <= 0) return c->status;
    kb = kb < nheavy ? kb : nheavy;
    B = as_malloc(c, (size_t)as_gram_packed_len(n, kb), sizeof(double));
    if (!B) return c->status;
    for (t = 0; t < kk; t++) {
        if (!heavy[t]) continue;
        /* the panel's width: kb, or what is left */
        hb = nheavy - (h - col) < kb ? nheavy - (h - col) : kb;
        if (col == 0) memset(B, 0, sizeof(double) * (size_t)as_gram_packed_len(n, hb));
        {
            double w = weight ? weight[t] : 1.0;
            AS_FOR_COL(X, as_gram_col(index, t), row, v,
                       { B[(row >> 2) * 4 * hb + col * 4 + (row & 3)] = w * v; });
        }
        col++;
        h++;
        if (col == hb) {
            as_gram_tiles(n, B, hb, G, nt, c);
            col = 0;
            if (h < nheavy && as_interrupted(c)) break;
        }
    }
    as_free(c, B);
    return c->status;
}

static int as_gram_csc(const as_matrix *X, int64_t kk, const int64_t *index,
                       const double *weight, double *G, as_common *c)
{
    int64_t nheavy;
    double work;
    unsigned char *heavy = as_malloc(c, (size_t)(kk > 0 ? kk : 1), 1);
    if (!heavy) return c->status;
    nheavy = as_gram_classify(X, kk, index, heavy, &work, c);
    {
        int nt = as_threads_for(c, work);
        if ((nheavy == kk || as_gram_light(X, kk, index, weight, NULL, heavy, G, nt, c) == AS_OK))
            as_gram_heavy_panels(X, kk, index, weight, heavy, nheavy, G, nt, c);
    }
    as_free(c, heavy);
    return c->status;
}

/* ---- cross products Q K' and the stacked Gram of Q != K */
/* y += f * A(:, j) */
static void as_gram_axpy_col(const as_matrix *A, int64_t j, double f, double *y)
{
    AS_FOR_COL(A, j, row, v, { y[row] += f * v; });
}

/* Columns per packed panel of the dense path with an index or weights. */
#define AS_QK_PANEL 256

/* The dense path of as_cross_gram_ld: BLAS dgemm, C += A(:, idx) diag(w)^2
   B(b0:b1-1, idx)'. Without index and weights A and B are read in place;
   else the columns are packed a panel at a time (A's scaled by w^2). */
static int as_cross_gram_dense(const as_matrix *A, const as_matrix *B, int64_t kk,
                               const int64_t *index, const double *weight, int64_t b0, int64_t b1,
                               double *C, int64_t ldc, as_common *c)
{
    int na = (int)A->nrow, nb = (int)(b1 - b0), lc = (int)ldc, blas;
    double one = 1.0, *PA, *PB;
    int64_t t0;
    size_t pw;
    if (!index && !weight)
        return as_gemm_blocks("N", "T", na, nb, kk, 1.0, A->x, A->ld, B->x + b0, B->ld, 1.0, C, ldc, c);
    pw = kk < AS_QK_PANEL ? (size_t)kk : AS_QK_PANEL;
    PA = as_malloc(c, (size_t)na * pw, sizeof(double));
    PB = as_malloc(c, (size_t)nb * pw, sizeof(double));
    blas = as_blas_threads_set(1);
    for (t0 = 0; PA && PB && t0 < kk; t0 += AS_QK_PANEL) {
        int kb = (int)(kk - t0 < AS_QK_PANEL ? kk - t0 : AS_QK_PANEL), t, a;
        for (t = 0; t < kb; t++) {
            int64_t j = index ? index[t0 + t] : t0 + t;
            double w = weight ? weight[t0 + t] : 1.0, w2 = w * w;
            const double *xa = A->x + j * A->ld, *xb = B->x + j * B->ld + b0;
            for (a = 0; a < na; a++) PA[a + (size_t)t * na] = w2 * xa[a];
            memcpy(PB + (size_t)t * nb, xb, sizeof(double) * (size_t)nb);
        }
        dgemm_("N", "T", &na, &nb, &kb, &one, PA, &na, PB, &nb, &one, C, &lc, 1, 1);
        if (t0 + AS_QK_PANEL < kk && as_interrupted(c)) break;
    }
    if (blas > 0) as_blas_threads_set(blas);
    as_free(c, PA);
    as_free(c, PB);
    return c->status;
}

/* as_cross_gram into C with leading dimension ldc >= nrow(A). */
static int as_cross_gram_ld(const as_matrix *A, const as_matrix *B, int64_t k, const int64_t *index,
                            const double *weight, int64_t b0, int64_t b1, double *C, int64_t ldc,
                            as_common *c)
{
    int64_t na = A->nrow, nb = b1 - b0, kk = index ? k : A->ncol, t0, b;
    /* at most na nb kk multiply-adds (fewer when sparse) */
    int nt = as_threads_for(c, (double)na * (double)nb * (double)kk);
    c->status = AS_OK;
    if (nb <= 0) return AS_OK;
    for (b = 0; b < nb; b++) memset(C + b * ldc, 0, sizeof(double) * (size_t)na);
    if (kk <= 0 || na <= 0) return AS_OK;
    /* dense A and B: BLAS (sizes within its 32-bit integers), unless the
       product is so small that the call costs more than the loops */
    if (A->kind == AS_DENSE && B->kind == AS_DENSE && (double)na * (double)nb * (double)kk >= c->tune.qk_blas_madds &&
        na <= AS_INT_MAX && nb <= AS_INT_MAX &&
        kk <= AS_INT_MAX && ldc <= AS_INT_MAX && A->ld <= AS_INT_MAX && B->ld <= AS_INT_MAX)
        return as_cross_gram_dense(A, B, kk, index, weight, b0, b1, C, ldc, c);
    for (t0 = 0; t0 < kk; t0 += AS_GRAM_CROSS_CHUNK) {
        int64_t t1 = t0 + AS_GRAM_CROSS_CHUNK < kk ? t0 + AS_GRAM_CROSS_CHUNK : kk;
        /* each thread owns a band of C's columns (rows of B): every entry is
           summed over the columns t in order, whatever the thread count */
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
        {
            int64_t lo, hi, t;
            as_thread_band(nb, &lo, &hi);
            for (t = t0; t < t1 && lo < hi; t++) {
                int64_t j = index ? index[t] : t;
                double w = weight ? weight[t] : 1.0, w2 = w * w;
                AS_FOR_COL(B, j, rb, bv, {
                    if (rb >= b0 + lo && rb < b0 + hi && bv != 0) {
                        as_gram_axpy_col(A, j, w2 * bv, C + (rb - b0) * ldc);
                    }
                });
            }
        }
        if (t1 < kk && as_interrupted(c)) return c->status;
    }
    return AS_OK;
}

int as_cross_gram(const as_matrix *A, const as_matrix *B, int64_t k, const int64_t *index,
                  const double *weight, int64_t b0, int64_t b1, double *C, as_common *c)
{
    return as_cross_gram_ld(A, B, k, index, weight, b0, b1, C, A->nrow, c);
}

/* Z Z' (N x N, N = n1 + n2) of a stacked view Z = [Q; K]. */
static int as_gram_stacked(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
               double *G, as_common *c)
{
    const as_matrix *Q = Z->part[0], *K = Z->part[1];
    int64_t n1 = Q->nrow, n2 = K->nrow, N = n1 + n2, a, b;
    c->status = AS_OK;
    /* The blocks are computed inside G itself, no n x n copy beside it (the
       'memory' estimate counts G alone): K K' into G's last n2^2 entries, its
       columns then moved forward to rows and columns n1.. (column b's place
       is at or before its source, and ends before column b+1's source); then
       Q Q' into G's first n1^2 entries, moved back to leading dimension N
       from the last column (the places do not meet the K block); then K Q'
       below Q Q' and its mirror. */
    if (as_gram(K, k, index, weight, G + (N * N - n2 * n2), c) != AS_OK) return c->status;
    for (b = 0; b < n2; b++)
        memmove(G + (n1 + b) * N + n1, G + (N * N - n2 * n2) + b * n2, sizeof(double) * (size_t)n2);
    if (as_gram(Q, k, index, weight, G, c) != AS_OK) return c->status;
    for (b = n1 - 1; b > 0; b--) memmove(G + b * N, G + b * n1, sizeof(double) * (size_t)n1);
    if (as_cross_gram_ld(K, Q, k, index, weight, 0, n1, G + n1, N, c) != AS_OK) return c->status;
    /* G(a, n1 + j) = G(n1 + j, a): k_j . q_a */
    for (b = n1; b < N; b++)
        for (a = 0; a < n1; a++) G[a + b * N] = G[b + a * N];
    return AS_OK;
}

/* G's lower triangle from its upper one, by tiles of AS_MIRROR_TILE (the rows
   read of a column of tiles stay in cache). */
#define AS_MIRROR_TILE 64
void as_gram_mirror(int64_t n, double *G)
{
    int64_t a0, b0, a, b;
    for (b0 = 0; b0 < n; b0 += AS_MIRROR_TILE)
        for (a0 = b0; a0 < n; a0 += AS_MIRROR_TILE) {
            int64_t b1 = b0 + AS_MIRROR_TILE < n ? b0 + AS_MIRROR_TILE : n;
            int64_t a1 = a0 + AS_MIRROR_TILE < n ? a0 + AS_MIRROR_TILE : n;
            for (b = b0; b < b1; b++)
                for (a = a0 > b + 1 ? a0 : b + 1; a < a1; a++) G[a + b * n] = G[b + a * n];
        }
}

int as_gram(const as_matrix *X, int64_t k, const int64_t *index, const double *weight,
            double *G, as_common *c)
{
    int64_t n = X->nrow, kk = index ? k : X->ncol;
    c->status = AS_OK;
    if (X->kind == AS_STACKED) return as_gram_stacked(X, k, index, weight, G, c);
    memset(G, 0, sizeof(double) * (size_t)(n * n));
    if (kk > 0) {
        if (X->kind == AS_DENSE) as_gram_dense(X, kk, index, weight, G, c);
        else as_gram_csc(X, kk, index, weight, G, c);
    }
    if (c->status != AS_OK) return c->status;
    as_gram_mirror(n, G);
    return AS_OK;
}

int as_gram_pair(const as_matrix *X, int64_t k, const int64_t *index, const double *weight,
                 double *G, double *H, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, t, a, b, nheavy, nheavy_h;
    double work, work_h, *h2 = NULL, *P = NULL, cap = as_mem_default_mb();
    unsigned char *heavy = NULL, *heavy_h = NULL;
    int nt;
    c->status = AS_OK;
    /* the sparse outer products of the light columns serve both Grams only
       for a CSC X whose pairs (2 n^2 doubles more) fit in memory */
    if (X->kind == AS_DENSE || X->kind == AS_STACKED || k <= 0 ||
        (cap > 0 && 32.0 * (double)n * (double)n / 1048576.0 > cap)) {
        if (as_gram(X, -1, NULL, NULL, G, c) != AS_OK) return c->status;
        if (k <= 0) {
            memset(H, 0, sizeof(double) * (size_t)(n * n));
            return c->status;
        }
        return as_gram(X, k, index, weight, H, c);
    }
    memset(G, 0, sizeof(double) * (size_t)(n * n));
    memset(H, 0, sizeof(double) * (size_t)(n * n));
    heavy = as_malloc(c, (size_t)(d > 0 ? d : 1), 1);
    heavy_h = as_malloc(c, (size_t)k, 1);
    h2 = as_malloc(c, (size_t)(d > 0 ? d : 1), sizeof(double));
    if (!heavy || !heavy_h || !h2) goto done;
    nheavy = as_gram_classify(X, d, NULL, heavy, &work, c);
    nheavy_h = as_gram_classify(X, k, index, heavy_h, &work_h, c);
    /* one pass pays when the sample holds about half of the light columns'
       work or more (Zipf input: 1.2x faster at 85%, level at 50%, 0.87x at
       1.5%): else two, the same bits */
    if (work_h - 0.5 * (double)n * (double)n * (double)nheavy_h <
        c->tune.gram_pair_share * (work - 0.5 * (double)n * (double)n * (double)nheavy)) {
        as_free(c, heavy);
        as_free(c, heavy_h);
        as_free(c, h2);
        if (as_gram(X, -1, NULL, NULL, G, c) != AS_OK) return c->status;
        return as_gram(X, k, index, weight, H, c);
    }
    nt = as_threads_for(c, work + work_h);
    /* h2[j]: the squared weight of column j in the sample, 0 out of it */
    for (t = 0; t < d; t++) h2[t] = 0;
    for (t = 0; t < k; t++) h2[index[t]] = weight ? weight[t] * weight[t] : 1.0;
    if (nheavy < d) {
        P = as_malloc(c, (size_t)(2 * n), (size_t)n * sizeof(double));
        if (!P) goto done;
        memset(P, 0, sizeof(double) * (size_t)(2 * n * n));
        if (as_gram_light(X, d, NULL, NULL, h2, heavy, P, nt, c) != AS_OK)
            goto done;
        for (a = 0; a < n; a++)
            for (b = 0; b <= a; b++) {
                G[b + a * n] = P[2 * (b + a * n)];
                H[b + a * n] = P[2 * (b + a * n) + 1];
            }
        as_free(c, P);
        P = NULL;
    }
    /* then the heavy panels, as as_gram adds them after the light columns */
    if (as_gram_heavy_panels(X, d, NULL, NULL, heavy, nheavy, G, nt, c) != AS_OK ||
        as_gram_heavy_panels(X, k, index, weight, heavy_h, nheavy_h, H, nt, c) != AS_OK)
        goto done;
    as_gram_mirror(n, G);
    as_gram_mirror(n, H);
done:
    as_free(c, heavy);
    as_free(c, heavy_h);
    as_free(c, h2);
    as_free(c, P);
    return c->status;
}

int as_gram_finite(int64_t n, const double *G, const char *name, as_common *c)
{
    int64_t a;
    for (a = 0; a < n * n; a++)
        if (!isfinite(G[a])) {
            if (name[0] == '[')
                /* the stacked [X; K] of Q != K: its blocks are X X', X K' and K K' */
                return as_error(c, AS_ERR_INPUT,
                                "X X', X K' or K K'%s overflows (X or K has entries near %g or a large row norm): "
                                "scale X and K down", strcmp(name, "[X; K]") ? " of the sample" : "",
                                sqrt(DBL_MAX / (double)n));
            return as_error(c, AS_ERR_INPUT,
                            "%s %s' overflows (%s has entries near %g or a large row norm): scale %s down",
                            name, name, name, sqrt(DBL_MAX / (double)n), name);
        }
    return AS_OK;
}
