/* linalg.c: the core's long dense linear algebra in pieces with interrupt polls between them (pivoted QR, symmetric eigendecomposition, products), each piece a LAPACK or BLAS building block, the BLAS on one thread. */
#include "as_internal.h"
#include <float.h>

/* Why pieces. One LAPACK call on an n = 2000 problem runs for seconds (the
   pivoted QR of a 20000 x 2000 X' for a minute) without a chance to poll the
   interrupt hook. The drivers below run LAPACK's own algorithms (dgeqp3,
   dsyevd, dsyevr without vectors) by calling their blocked building blocks in the same order
   (dlaqps, dlatrd + dsyr2k, dormtr), with a poll after each block; nothing
   here factors or solves by hand. Where a block would be long (a panel of
   the QR of a tall X', the back-transformation of many eigenvectors), it is
   made narrower; its width depends on the sizes only. Small problems take
   the same blocks as the LAPACK driver, and its bits.

   Why one BLAS thread. A multithreaded BLAS sums in an order that depends on
   its thread count (OpenBLAS's dpotrf and dsymv do), which the caller's
   OPENBLAS_NUM_THREADS or the BLAS's own choice sets, not 'threads'. Each
   driver here tells the BLAS to use one thread for its duration
   (as_blas_threads_set) and spreads the independent blocks of its products
   over the core's OpenMP threads instead, in blocks whose sizes do not depend
   on the thread count. */

/* Bytes a panel of the pivoted QR reads and writes at most: each of its
   columns is a pass of dgemv over the trailing matrix, and the panel's update
   two more (a pass is memory-bound: 10-13 GB/s here, so about 0.25 s).
   (c->tune.la_pass_bytes, 3.2e9) */
/* Multiply-adds of one round of a blocked product or back-transformation
   between polls (at 5-20 G/s on one busy core: 0.015-0.06 s).
   (c->tune.la_round_madds, 3e8) */

/* Columns of C a task of the blocked products writes. */
#define AS_LA_BAND 256

static int as_la_ilaenv(int ispec, const char *name, const char *opts, int n1, int n2, int n3, int n4)
{
    return ilaenv_(&ispec, name, opts, &n1, &n2, &n3, &n4, strlen(name), strlen(opts));
}

/* ------------------------------------------------------------ pivoted QR */

/* Widest panel of dlaqps on an mm x nn trailing matrix within c->tune.la_pass_bytes
   (its columns' passes and two for the update), at least 1. */
static int as_qp3_cap(int mm, int nn, const as_common *c)
{
    double passes = c->tune.la_pass_bytes / (8.0 * (double)mm * (double)nn) - 2.0;
    return passes >= 64 ? 64 : passes >= 1 ? (int)passes : 1;
}

/* Bytes of dlaqp2 over the last t columns of an mm x nn trailing matrix:
   each column a dgemv and a dger pass over what is left. */
static double as_qp3_tail_bytes(int mm, int nn, int t)
{
    return 24.0 * (double)mm * ((double)t * (double)nn - 0.5 * (double)t * (double)t);
}

int as_geqp3(int m, int n, double *A, int lda, int *jpvt, double *tau, as_common *c)
{
    int minmn = m < n ? m : n, nb, nx = 0, j, jb, fjb, nbmax, blas = 0;
    double *vn1 = NULL, *vn2 = NULL, *auxv = NULL, *F = NULL;
    for (j = 0; j < n; j++) jpvt[j] = j + 1;   /* every column free */
    if (minmn == 0) return AS_OK;
    nb = as_la_ilaenv(1, "DGEQRF", " ", m, n, -1, -1);
    if (nb > 1 && nb < minmn) {
        nx = as_la_ilaenv(3, "DGEQRF", " ", m, n, -1, -1);
        if (nx < 0) nx = 0;
    }
    nbmax = nb > 64 ? nb : 64;
    vn1 = as_malloc(c, (size_t)n, sizeof(double));
    vn2 = as_malloc(c, (size_t)n, sizeof(double));
    auxv = as_malloc(c, (size_t)nbmax, sizeof(double));
    F = as_malloc(c, (size_t)n, (size_t)nbmax * sizeof(double));
    if (!vn1 || !vn2 || !auxv || !F) goto done;
    blas = as_blas_threads_set(1);
    {
        int one = 1;
        for (j = 0; j < n; j++) vn2[j] = vn1[j] = dnrm2_(&m, A + (size_t)j * lda, &one);
    }
    j = 0;
    /* dgeqp3's blocked loop: panels of nb columns up to minmn - nx (narrower
       where a panel would be long) */
    if (nb >= 2 && nb < minmn && nx < minmn) {
        int top = minmn - nx;
        while (j < top && as_interrupted(c) == AS_OK) {
            int nn = n - j, cap = as_qp3_cap(m - j, nn, c);
            jb = top - j < nb ? top - j : nb;
            if (jb > cap) jb = cap;
            dlaqps_(&m, &nn, &j, &jb, &fjb, A + (size_t)j * lda, &lda, jpvt + j, tau + j, vn1 + j, vn2 + j,
                    auxv, F, &nn);
            j += fjb;
        }
    }
    /* dgeqp3's unblocked tail, after more panels while it would be long */
    while (j < minmn && c->status == AS_OK &&
           as_qp3_tail_bytes(m - j, n - j, minmn - j) > c->tune.la_pass_bytes && as_interrupted(c) == AS_OK) {
        int nn = n - j, cap = as_qp3_cap(m - j, nn, c);
        jb = minmn - j < cap ? minmn - j : cap;
        dlaqps_(&m, &nn, &j, &jb, &fjb, A + (size_t)j * lda, &lda, jpvt + j, tau + j, vn1 + j, vn2 + j,
                auxv, F, &nn);
        j += fjb;
    }
    if (j < minmn && c->status == AS_OK) {
        int nn = n - j;
        dlaqp2_(&m, &nn, &j, A + (size_t)j * lda, &lda, jpvt + j, tau + j, vn1 + j, vn2 + j, F);
    }
    if (blas > 0) as_blas_threads_set(blas);
done:
    as_free(c, vn1);
    as_free(c, vn2);
    as_free(c, auxv);
    as_free(c, F);
    return c->status;
}

/* ------------------------------------------------------------ eigendecomposition */

/* dsytrd (lower) with llwork doubles of workspace (what the calling driver
   leaves it: less than n nb narrows its panels, as in dsytrd): dlatrd panels
   of nb columns, each followed by the dsyr2k update of the rest and a poll,
   then dsytd2 on the last block. */
static int as_sytrd(int n, double *A, double *d, double *e, double *tau, int llwork, as_common *c)
{
    int nb = as_la_ilaenv(1, "DSYTRD", "L", n, -1, -1, -1), nx = n, i = 0, j, info = 0;
    double *W = NULL, one = 1.0, mone = -1.0;
    if (nb > 1 && nb < n) {
        nx = as_la_ilaenv(3, "DSYTRD", "L", n, -1, -1, -1);
        if (nx < nb) nx = nb;
        if (nx < n) {
            if ((int64_t)llwork < (int64_t)n * nb) {
                nb = llwork / n > 1 ? llwork / n : 1;
                if (nb < as_la_ilaenv(2, "DSYTRD", "L", n, -1, -1, -1)) nx = n;
            }
        } else {
            nx = n;
        }
    } else {
        nb = 1;
    }
    if (nx < n) {
        W = as_malloc(c, (size_t)n, (size_t)nb * sizeof(double));
        if (!W) return c->status;
    }
    for (i = 0; i < n - nx; i += nb) {
        int ni = n - i, nr = n - i - nb;
        if (as_interrupted(c)) break;
        dlatrd_("L", &ni, &nb, A + i + (size_t)i * n, &n, e + i, tau + i, W, &n, 1);
        dsyr2k_("L", "N", &nr, &nb, &mone, A + (i + nb) + (size_t)i * n, &n, W + nb, &n, &one,
                A + (i + nb) + (size_t)(i + nb) * n, &n, 1, 1);
        for (j = i; j < i + nb; j++) {
            A[(j + 1) + (size_t)j * n] = e[j];
            d[j] = A[j + (size_t)j * n];
        }
    }
    if (c->status == AS_OK) {
        int ni = n - i;
        dsytd2_("L", &ni, A + i + (size_t)i * n, &n, d + i, e + i, tau + i, &info, 1);
    }
    as_free(c, W);
    return c->status;
}

/* Z = Q Z for the Q of as_sytrd (A, tau): dormtr on blocks of columns, each
   within c->tune.la_round_madds, a poll between blocks. Small n: one call with
   the driver's workspace llwork (whose size sets dormqr's blocks, hence its
   bits); in blocks, room for blocks of 64 reflectors. One block at a time:
   dormtr writes into A while it runs (restoring it after), so blocks cannot
   share it on several threads. */
static int as_ormtr(int n, double *A, const double *tau, double *Z, int llwork, as_common *c)
{
    int w, j0, lwork, info = 0;
    double *work = NULL, per = 2.0 * (double)n * (double)n;
    w = per * n <= c->tune.la_round_madds ? n : (int)(c->tune.la_round_madds / per);
    if (w < AS_LA_BAND / 4) w = AS_LA_BAND / 4;
    if (w >= n) w = n;
    lwork = w == n ? llwork : (w + 65) * 64;
    work = as_malloc(c, (size_t)lwork, sizeof(double));
    if (!work) return c->status;
    for (j0 = 0; j0 < n; j0 += w) {
        int wb = n - j0 < w ? n - j0 : w;
        if (j0 > 0 && as_interrupted(c)) break;
        dormtr_("L", "L", "N", &n, &wb, A, &n, tau, Z + (size_t)j0 * n, &n, work, &lwork, &info, 1, 1, 1);
    }
    as_free(c, work);
    return c->status;
}

/* The symmetric eigendecomposition, range 'A', lower triangle: with vectors
   dsyevd's algorithm (dsytrd, dstedc, dormtr), its eigenvalues alone
   dsyevr's (dsytrd, dsterf), each with the workspace its driver gives
   dsytrd and dormtr (which sets their blocks, hence the bits), and its
   scaling of matrices of extreme norm. Divide and conquer for the vectors:
   dsyevr's dstemr fails on the large clusters of a rank-deficient Gram and
   falls back to inverse iteration, seconds without a poll at n = 1500. */
int as_syev(int n, double *A, double *w, double *Z, as_common *c)
{
    int info = 0, iscale = 0, blas = 0, one = 1, llwork, llwrkn = 0, nbtrd;
    int64_t lwork_drv, n64 = n;
    double safmin, eps, smlnum, bignum, rmin, rmax, anrm, sigma = 1;
    double *e = NULL, *tau = NULL, *dd = NULL, *work = NULL;
    int *iwork = NULL;
    if (n <= 0) return AS_OK;
    if (n == 1) {
        w[0] = A[0];
        if (Z) Z[0] = 1.0;
        return AS_OK;
    }
    e = as_malloc(c, (size_t)n, sizeof(double));
    tau = as_malloc(c, (size_t)n, sizeof(double));
    dd = as_malloc(c, (size_t)n, sizeof(double));
    if (!e || !tau || !dd) goto done;
    blas = as_blas_threads_set(1);
    nbtrd = as_la_ilaenv(1, "DSYTRD", "L", n, -1, -1, -1);
    safmin = dlamch_("S", 1);
    eps = dlamch_("P", 1);
    smlnum = safmin / eps;
    bignum = 1.0 / smlnum;
    rmin = sqrt(smlnum);
    rmax = Z ? sqrt(bignum) : fmin(sqrt(bignum), 1.0 / sqrt(sqrt(safmin)));
    anrm = dlansy_("M", "L", &n, A, &n, dd, 1, 1);
    if (anrm > 0 && anrm < rmin) { iscale = 1; sigma = rmin / anrm; }
    else if (anrm > rmax) { iscale = 1; sigma = rmax / anrm; }
    if (iscale && Z) {
        double from = 1.0;
        int zero = 0;
        dlascl_("L", &zero, &zero, &from, &sigma, &n, &n, A, &n, &info, 1);
    } else if (iscale) {
        int j;
        for (j = 0; j < n; j++) {
            int len = n - j;
            dscal_(&len, &sigma, A + j + (size_t)j * n, &one);
        }
    }
    if (Z) {
        /* dsyevd's minimum workspace (what its query returns) */
        lwork_drv = 1 + 6 * n64 + 2 * n64 * n64;
        if (lwork_drv < 2 * n64 + nbtrd) lwork_drv = 2 * n64 + nbtrd;
        llwork = (int)(lwork_drv - 2 * n64 < AS_INT_MAX ? lwork_drv - 2 * n64 : AS_INT_MAX);
        llwrkn = (int)(lwork_drv - 2 * n64 - n64 * n64 < AS_INT_MAX ? lwork_drv - 2 * n64 - n64 * n64 : AS_INT_MAX);
    } else {
        /* dsyevr's, from its query, plus one (as the core asked it before) */
        int nbq = as_la_ilaenv(1, "DORMTR", "L", n, -1, -1, -1);
        nbq = nbq > nbtrd ? nbq : nbtrd;
        lwork_drv = (nbq + 1) * n64 > 26 * n64 ? (nbq + 1) * n64 : 26 * n64;
        llwork = (int)(lwork_drv + 1 - 5 * n64);
    }
    if (as_sytrd(n, A, dd, e, tau, llwork, c) != AS_OK || as_interrupted(c)) goto unpin;
    memcpy(w, dd, sizeof(double) * (size_t)n);
    if (!Z) {
        dsterf_(&n, w, e, &info);
        if (info != 0) as_error(c, AS_ERR_LAPACK, "dsterf failed (info = %d)", info);
    } else {
        int lwork = -1, liwork = -1, iq = 0;
        double wq = 0;
        dstedc_("I", &n, w, e, Z, &n, &wq, &lwork, &iq, &liwork, &info, 1);
        lwork = (int)wq + 1;
        liwork = iq + 1;
        work = as_malloc(c, (size_t)lwork, sizeof(double));
        iwork = as_malloc(c, (size_t)liwork, sizeof(int));
        if (!work || !iwork) goto unpin;
        dstedc_("I", &n, w, e, Z, &n, work, &lwork, iwork, &liwork, &info, 1);
        if (info != 0) {
            as_error(c, AS_ERR_LAPACK, "dstedc failed (info = %d)", info);
            goto unpin;
        }
        as_free(c, work);
        work = NULL;
        if (as_interrupted(c) == AS_OK) as_ormtr(n, A, tau, Z, llwrkn, c);
    }
    if (iscale && c->status == AS_OK) {
        double inv = 1.0 / sigma;
        dscal_(&n, &inv, w, &one);
    }
unpin:
    if (blas > 0) as_blas_threads_set(blas);
done:
    as_free(c, e);
    as_free(c, tau);
    as_free(c, dd);
    as_free(c, work);
    as_free(c, iwork);
    return c->status;
}

/* ------------------------------------------------------------ products */

/* Columns of the K dimension per round of a blocked product of an m x n result. */
static int64_t as_la_kpanel(int64_t m, int64_t n, int64_t k, const as_common *c)
{
    double kp = floor(c->tune.la_round_madds / ((double)m * (double)n));
    if (kp < 64) kp = 64;
    return kp >= (double)k ? k : (int64_t)kp;
}

/* Task t of a round of a blocked product, over the inner dimension's columns
   p0 .. p0 + pk - 1 (bt: the beta of that panel, 1 after the first). */
typedef void (*as_la_task)(const void *ctx, int64_t t, int64_t p0, int64_t pk, double bt);

/* Rounds over panels of kp columns of the inner dimension (k of them; k = 0:
   one empty round), each round's ntask tasks on nt of the core's threads
   (which thread runs a task changes no bit), the BLAS on one thread, a poll
   between rounds. */
static int as_la_rounds(int64_t k, int64_t kp, int64_t ntask, int nt, double beta, as_la_task fn, const void *ctx,
                        as_common *c)
{
    int64_t p0 = 0;
    int blas = as_blas_threads_set(1);
    if (nt > ntask) nt = (int)ntask;
    do {
        int64_t t, pk = k - p0 < kp ? k - p0 : kp;
        double bt = p0 == 0 ? beta : 1.0;
        if (p0 > 0 && as_interrupted(c)) break;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
#endif
        for (t = 0; t < ntask; t++) fn(ctx, t, p0, pk, bt);
        p0 += kp;
    } while (p0 < k);
    if (blas > 0) as_blas_threads_set(blas);
    return c->status;
}

typedef struct as_la_prod {
    const char *ta, *tb;
    int64_t m, n, lda, ldb, ldc;
    double alpha;
    const double *A, *B;
    double *C;
} as_la_prod;

/* A band of AS_LA_BAND columns of C += op(A) op(B) over one panel. */
static void as_gemm_task(const void *ctx, int64_t b, int64_t p0, int64_t pk, double bt)
{
    const as_la_prod *P = ctx;
    int64_t j0 = b * AS_LA_BAND;
    int mi = (int)P->m, wi = (int)(P->n - j0 < AS_LA_BAND ? P->n - j0 : AS_LA_BAND), ki = (int)pk;
    int la = (int)P->lda, lb = (int)P->ldb, lc = (int)P->ldc;
    const double *Ap = *P->ta == 'N' ? P->A + p0 * P->lda : P->A + p0;
    const double *Bp = *P->tb == 'N' ? P->B + p0 + j0 * P->ldb : P->B + j0 + p0 * P->ldb;
    dgemm_(P->ta, P->tb, &mi, &wi, &ki, &P->alpha, Ap, &la, Bp, &lb, &bt, P->C + j0 * P->ldc, &lc, 1, 1);
}

int as_gemm_blocks(const char *ta, const char *tb, int64_t m, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C,
                   int64_t ldc, as_common *c)
{
    as_la_prod P;
    c->status = AS_OK;
    if (m <= 0 || n <= 0) return AS_OK;
    if (k <= 0) {
        int64_t i, j;
        for (j = 0; j < n; j++)
            for (i = 0; i < m; i++) C[i + j * ldc] = beta == 0 ? 0 : beta * C[i + j * ldc];
        return AS_OK;
    }
    P.ta = ta; P.tb = tb; P.m = m; P.n = n; P.lda = lda; P.ldb = ldb; P.ldc = ldc;
    P.alpha = alpha; P.A = A; P.B = B; P.C = C;
    return as_la_rounds(k, as_la_kpanel(m, n, k, c), (n + AS_LA_BAND - 1) / AS_LA_BAND,
                        as_threads_for(c, (double)m * (double)n * (double)k), beta, as_gemm_task, &P, c);
}

/* Tile t of the triangle uplo of C (+)= alpha A A' or A'A over one panel:
   block column bj, block row bi >= bj (lower) or <= bj (upper). */
static void as_syrk_task(const void *ctx, int64_t t, int64_t p0, int64_t pk, double bt)
{
    const as_la_prod *P = ctx;
    int64_t nb = (P->n + AS_LA_BAND - 1) / AS_LA_BAND, bj = 0, rem = t, bi, i0, j0;
    int wi, wj, ki = (int)pk, la = (int)P->lda, lc = (int)P->ldc, tn = *P->tb == 'N';
    double *Ct;
    while (rem >= nb - bj) { rem -= nb - bj; bj++; }
    bi = bj + rem;
    if (*P->ta == 'U') { int64_t sw = bi; bi = bj; bj = sw; }
    i0 = bi * AS_LA_BAND;
    j0 = bj * AS_LA_BAND;
    wi = (int)(P->n - i0 < AS_LA_BAND ? P->n - i0 : AS_LA_BAND);
    wj = (int)(P->n - j0 < AS_LA_BAND ? P->n - j0 : AS_LA_BAND);
    Ct = P->C + i0 + j0 * P->ldc;
    if (pk <= 0) {
        /* k = 0: C = beta C */
        int a, b;
        for (b = 0; b < wj; b++)
            for (a = 0; a < wi; a++) Ct[a + b * P->ldc] = bt == 0 ? 0 : bt * Ct[a + b * P->ldc];
    } else if (bi == bj) {
        dsyrk_(P->ta, P->tb, &wi, &ki, &P->alpha, tn ? P->A + i0 + p0 * P->lda : P->A + p0 + i0 * P->lda, &la, &bt,
               Ct, &lc, 1, 1);
    } else if (tn) {
        dgemm_("N", "T", &wi, &wj, &ki, &P->alpha, P->A + i0 + p0 * P->lda, &la, P->A + j0 + p0 * P->lda, &la, &bt,
               Ct, &lc, 1, 1);
    } else {
        dgemm_("T", "N", &wi, &wj, &ki, &P->alpha, P->A + p0 + i0 * P->lda, &la, P->A + p0 + j0 * P->lda, &la, &bt,
               Ct, &lc, 1, 1);
    }
}

int as_syrk_blocks(const char *uplo, const char *trans, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, double beta, double *C, int64_t ldc, as_common *c)
{
    as_la_prod P;
    int64_t nb = (n + AS_LA_BAND - 1) / AS_LA_BAND;
    c->status = AS_OK;
    if (n <= 0) return AS_OK;
    memset(&P, 0, sizeof P);
    P.ta = uplo; P.tb = trans; P.n = n; P.lda = lda; P.ldc = ldc; P.alpha = alpha; P.A = A; P.C = C;
    return as_la_rounds(k, as_la_kpanel(n, n / 2 + 1, k > 0 ? k : 1, c), nb * (nb + 1) / 2,
                        as_threads_for(c, (double)n * (double)n * (double)k / 2), beta, as_syrk_task, &P, c);
}

/* Band p0 + t (of the round's pk) of B = U^-1 B. */
static void as_trsm_task(const void *ctx, int64_t t, int64_t p0, int64_t pk, double bt)
{
    const as_la_prod *P = ctx;
    int64_t j0 = (p0 + t) * AS_LA_BAND;
    int ri = (int)P->m, wi, lu = (int)P->lda, lb = (int)P->ldb;
    double one = 1.0;
    (void)bt;
    if (t >= pk) return;
    wi = (int)(P->n - j0 < AS_LA_BAND ? P->n - j0 : AS_LA_BAND);
    dtrsm_("L", "U", "N", "N", &ri, &wi, &one, P->A, &lu, P->C + j0 * P->ldb, &lb, 1, 1, 1, 1);
}

int as_trsm_blocks(int64_t r, int64_t q, const double *U, int64_t ldu, double *B, int64_t ldb,
                   as_common *c)
{
    as_la_prod P;
    int64_t nband = (q + AS_LA_BAND - 1) / AS_LA_BAND, per;
    int nt;
    c->status = AS_OK;
    if (r <= 0 || q <= 0) return AS_OK;
    /* rounds of bands within c->tune.la_round_madds (r^2 / 2 a column), at least one a thread */
    per = (int64_t)(c->tune.la_round_madds / (0.5 * (double)r * (double)r * AS_LA_BAND));
    nt = as_threads_for(c, 0.5 * (double)r * (double)r * (double)q);
    if (per < nt) per = nt;
    if (per < 1) per = 1;
    memset(&P, 0, sizeof P);
    P.m = r; P.n = q; P.lda = ldu; P.ldb = ldb; P.A = U; P.C = B;
    return as_la_rounds(nband, per, per, nt, 1.0, as_trsm_task, &P, c);
}
