/* test_linalg.c: the interruptible drivers of linalg.c against LAPACK's own (the same bits where the blocks are the same, the defining properties where they are narrower), failures and interrupts in turn, and how far apart their polls are. */
#define _POSIX_C_SOURCE 200112L
#include "check.h"
#include "as_internal.h"
#include "det.h"
#include "rand.h"
#include "rng.h"
#include <time.h>

/* the drivers' block sizes as the core sets them (tests narrow them) */

static double *gauss(int64_t len, uint64_t seed)
{
    double *x = malloc(8 * (size_t)(len > 0 ? len : 1));
    int64_t t;
    for (t = 0; t < len; t++) x[t] = as_rng_normal(seed, 1, (uint64_t)t);
    return x;
}

/* A (n x n) = B B' / k + shift I, B n x k Gaussian: symmetric, eigenvalues spread. */
static double *sym_matrix(int n, int k, double shift, uint64_t seed)
{
    double *B = gauss((int64_t)n * k, seed), *A = malloc(8 * (size_t)n * n), one = 1.0 / k, zero = 0;
    int i;
    dsyrk_("L", "N", &n, &k, &one, B, &n, &zero, A, &n, 1, 1);
    for (i = 0; i < n; i++) A[i + (size_t)i * n] += shift;
    for (i = 0; i < n; i++) {
        int j;
        for (j = i + 1; j < n; j++) A[i + (size_t)j * n] = A[j + (size_t)i * n];
    }
    free(B);
    return A;
}

static double max_abs(int64_t len, const double *x)
{
    double m = 0;
    int64_t t;
    for (t = 0; t < len; t++) m = fmax(m, fabs(x[t]));
    return m;
}

/* ------------------------------------------------------------ pivoted QR */

/* R'R = P'A'AP to rel, |R_kk| non-increasing to rel, jpvt a permutation. */
static void check_qr_properties(const char *what, int m, int n, const double *A0, const double *QR,
                                const int *jpvt, double rel)
{
    int k = m < n ? m : n, i, j, l, ok = 1;
    double *G = calloc((size_t)n * n, 8), err = 0, gmax, dec = 0;
    int *seen = calloc((size_t)n, sizeof(int));
    for (j = 0; j < n; j++) {
        ok &= jpvt[j] >= 1 && jpvt[j] <= n && !seen[jpvt[j] - 1];
        if (jpvt[j] >= 1 && jpvt[j] <= n) seen[jpvt[j] - 1] = 1;
    }
    CHECK(ok, "%s: jpvt is a permutation", what);
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            const double *a = A0 + (size_t)(jpvt[i] - 1) * m, *b = A0 + (size_t)(jpvt[j] - 1) * m;
            double s = 0;
            for (l = 0; l < m; l++) s += a[l] * b[l];
            G[i + (size_t)j * n] = s;
        }
    gmax = max_abs((int64_t)n * n, G);
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            double s = 0;
            for (l = 0; l <= (i < j ? i : j) && l < k; l++) s += QR[l + (size_t)i * m] * QR[l + (size_t)j * m];
            err = fmax(err, fabs(s - G[i + (size_t)j * n]));
        }
    for (l = 1; l < k; l++)
        dec = fmax(dec, fabs(QR[l + (size_t)l * m]) - fabs(QR[(l - 1) + (size_t)(l - 1) * m]));
    CHECK(err <= rel * gmax, "%s: |R'R - P'A'AP| = %g of %g", what, err, gmax);
    CHECK(dec <= rel * fabs(QR[0]), "%s: |R_kk| grows by %g", what, dec);
    free(G);
    free(seen);
}

static void test_geqp3(void)
{
    /* sizes: all unblocked (n <= 128), blocked then dlaqp2, wide, rank-deficient */
    int sizes[][2] = {{300, 120}, {3000, 200}, {150, 400}, {2000, 260}};
    int s;
    for (s = 0; s < 4; s++) {
        int m = sizes[s][0], n = sizes[s][1], lwork = -1, info = 0, k = m < n ? m : n, j;
        double *A0 = gauss((int64_t)m * n, 10 + s), *A1 = malloc(8 * (size_t)m * n), *A2 = malloc(8 * (size_t)m * n);
        double *t1 = malloc(8 * (size_t)k), *t2 = malloc(8 * (size_t)k), wq, *work;
        int *p1 = calloc((size_t)n, sizeof(int)), *p2 = calloc((size_t)n, sizeof(int));
        as_common c;
        char what[64];
        if (s == 3)   /* the last 60 columns repeat earlier ones: rank 200 */
            for (j = 200; j < n; j++) memcpy(A0 + (size_t)j * m, A0 + (size_t)(j - 200) * m, 8 * (size_t)m);
        memcpy(A1, A0, 8 * (size_t)m * n);
        memcpy(A2, A0, 8 * (size_t)m * n);
        dgeqp3_(&m, &n, A1, &m, p1, t1, &wq, &lwork, &info);
        lwork = (int)wq;
        work = malloc(8 * (size_t)lwork);
        dgeqp3_(&m, &n, A1, &m, p1, t1, work, &lwork, &info);
        as_common_init(&c);
        snprintf(what, sizeof what, "geqp3 %d x %d", m, n);
        CHECK(as_geqp3(m, n, A2, m, p2, t2, &c) == AS_OK, "%s: %s", what, c.msg);
        CHECK(memcmp(A1, A2, 8 * (size_t)m * n) == 0 && memcmp(p1, p2, sizeof(int) * (size_t)n) == 0 &&
              memcmp(t1, t2, 8 * (size_t)k) == 0, "%s: the bits of dgeqp3", what);
        check_qr_properties(what, m, n, A0, A2, p2, 1e-12);
        /* narrow panels, no dlaqp2 tail: another factorization, the same properties */
        c.tune.la_pass_bytes = 16.0 * m * n;
        memcpy(A2, A0, 8 * (size_t)m * n);
        CHECK(as_geqp3(m, n, A2, m, p2, t2, &c) == AS_OK, "%s: %s", what, c.msg);
        strcat(what, ", narrow panels");
        check_qr_properties(what, m, n, A0, A2, p2, 1e-12);
        if (s == 3) {
            CHECK(fabs(A2[200 + (size_t)200 * m]) < 1e-12 * fabs(A2[0]), "%s: rank 200 found (R_201 = %g)", what,
                  A2[200 + (size_t)200 * m]);
        }
        free(A0); free(A1); free(A2); free(t1); free(t2); free(p1); free(p2); free(work);
    }
}

/* ------------------------------------------------------------ eigendecomposition */

/* |A Z - Z diag(w)| and |Z'Z - I| relative to |A|, w ascending. */
static void check_eig_properties(const char *what, int n, const double *A, const double *w, const double *Z)
{
    double res = 0, orth = 0, an = max_abs((int64_t)n * n, A), one = 1, zero = 0;
    double *AZ = malloc(8 * (size_t)n * n), *ZZ = malloc(8 * (size_t)n * n);
    int i, j, asc = 1;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, Z, &n, &zero, AZ, &n, 1, 1);
    dgemm_("T", "N", &n, &n, &n, &one, Z, &n, Z, &n, &zero, ZZ, &n, 1, 1);
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            res = fmax(res, fabs(AZ[i + (size_t)j * n] - w[j] * Z[i + (size_t)j * n]));
            orth = fmax(orth, fabs(ZZ[i + (size_t)j * n] - (i == j)));
        }
    for (j = 1; j < n; j++) asc &= w[j] >= w[j - 1];
    CHECK(res <= 1e-12 * n * an && orth <= 1e-12 * n && asc, "%s: residual %g (|A| %g), orthogonality %g, ascending %d",
          what, res, an, orth, asc);
    free(AZ);
    free(ZZ);
}

/* With vectors the bits of dsyevd, without them those of dsyevr (the core's
   drivers as it called them before: workspace from their queries). */
static void test_syev(void)
{
    int sizes[] = {1, 2, 40, 150, 300}, s, withz;
    double scales[] = {1, 1e-300, 1e300};
    for (s = 0; s < 5; s++) {
        int n = sizes[s], sc;
        for (sc = 0; sc < 3; sc++)
            for (withz = 0; withz <= 1; withz++) {
                double *A0 = sym_matrix(n, 2 * n, 0.1, 20 + s), *A1 = malloc(8 * (size_t)n * n),
                       *A2 = malloc(8 * (size_t)n * n), *w1 = malloc(8 * (size_t)n), *w2 = malloc(8 * (size_t)n),
                       *Z1 = malloc(8 * (size_t)n * n), *Z2 = malloc(8 * (size_t)n * n), *work, wq = 0;
                int lwork = -1, liwork = -1, iq = 0, info = 0, m = 0, il = 1, iu = n, *iwork,
                    *isuppz = malloc(8 * (size_t)n);
                double vl = 0, vu = 0, abstol = 0;
                int64_t t;
                as_common c;
                char what[80];
                for (t = 0; t < (int64_t)n * n; t++) A0[t] *= scales[sc];
                memcpy(A1, A0, 8 * (size_t)n * n);
                memcpy(A2, A0, 8 * (size_t)n * n);
                if (withz) dsyevd_("V", "L", &n, A1, &n, w1, &wq, &lwork, &iq, &liwork, &info, 1, 1);
                else dsyevr_("N", "A", "L", &n, A1, &n, &vl, &vu, &il, &iu, &abstol, &m, w1, Z1, &n, isuppz, &wq,
                             &lwork, &iq, &liwork, &info, 1, 1, 1);
                lwork = (int)wq + !withz;
                liwork = iq + !withz;
                work = malloc(8 * (size_t)lwork);
                iwork = malloc(sizeof(int) * (size_t)liwork);
                if (withz) dsyevd_("V", "L", &n, A1, &n, w1, work, &lwork, iwork, &liwork, &info, 1, 1);
                else dsyevr_("N", "A", "L", &n, A1, &n, &vl, &vu, &il, &iu, &abstol, &m, w1, Z1, &n, isuppz, work,
                             &lwork, iwork, &liwork, &info, 1, 1, 1);
                as_common_init(&c);
                snprintf(what, sizeof what, "%s n = %d, scale %g", withz ? "dsyevd" : "dsyevr", n, scales[sc]);
                CHECK(as_syev(n, A2, w2, withz ? Z2 : NULL, &c) == AS_OK, "%s: %s", what, c.msg);
                CHECK(info == 0 && memcmp(w1, w2, 8 * (size_t)n) == 0 &&
                      (!withz || memcmp(A1, Z2, 8 * (size_t)n * n) == 0), "%s: the bits of LAPACK's driver", what);
                if (n >= 150 && sc == 0 && withz) {
                    /* the back-transformation in blocks of 64 columns */
                    c.tune.la_round_madds = 1;
                    memcpy(A2, A0, 8 * (size_t)n * n);
                    CHECK(as_syev(n, A2, w2, Z2, &c) == AS_OK, "%s", c.msg);
                    snprintf(what, sizeof what, "dsyevd n = %d, blocks", n);
                    CHECK(memcmp(w1, w2, 8 * (size_t)n) == 0, "%s: the same eigenvalues", what);
                    check_eig_properties(what, n, A0, w2, Z2);
                }
                free(A0); free(A1); free(A2); free(w1); free(w2); free(Z1); free(Z2); free(isuppz);
                free(work); free(iwork);
            }
    }
    {
        /* a Gram of rank n / 2 (its rows twice): one eigenvalue repeated n / 2
           times, on which dsyevr's dstemr fails and falls back to slow inverse
           iteration */
        int n = 400, k = 800, i;
        double *B = gauss((int64_t)n * k, 29), *A = malloc(8 * (size_t)n * n), *A2 = malloc(8 * (size_t)n * n),
               *w = malloc(8 * (size_t)n), *Z = malloc(8 * (size_t)n * n), one = 1, zero = 0;
        as_common c;
        for (i = 0; i < k; i++) memcpy(B + (size_t)i * n + n / 2, B + (size_t)i * n, 8 * (size_t)(n / 2));
        dsyrk_("L", "N", &n, &k, &one, B, &n, &zero, A, &n, 1, 1);
        for (i = 0; i < n; i++) {
            int j;
            for (j = i + 1; j < n; j++) A[i + (size_t)j * n] = A[j + (size_t)i * n];
        }
        memcpy(A2, A, 8 * (size_t)n * n);
        as_common_init(&c);
        CHECK(as_syev(n, A2, w, Z, &c) == AS_OK, "%s", c.msg);
        check_eig_properties("rank n / 2", n, A, w, Z);
        free(B); free(A); free(A2); free(w); free(Z);
    }
}

/* ------------------------------------------------------------ products */

static double rel_diff(int64_t len, const double *a, const double *b)
{
    double d = 0, m = 0;
    int64_t t;
    for (t = 0; t < len; t++) {
        d = fmax(d, fabs(a[t] - b[t]));
        m = fmax(m, fabs(b[t]));
    }
    return m > 0 ? d / m : d;
}

static void test_products(void)
{
    int m = 300, n = 520, k = 700, tr, nt;
    double *A = gauss((int64_t)k * k, 31), *B = gauss((int64_t)k * k, 32), *C0 = gauss((int64_t)k * k, 33);
    double *C1 = malloc(8 * (size_t)k * k), *C2 = malloc(8 * (size_t)k * k), *C3 = malloc(8 * (size_t)k * k);
    double alpha = 0.7, beta = -0.3;
    as_common c;
    as_common_init(&c);
    c.tune.parallel_min_work = 0;
    c.tune.la_round_madds = 1;   /* gemm: k in panels of 256 */
    for (tr = 0; tr < 4; tr++) {
        const char *ta = tr & 1 ? "T" : "N", *tb = tr & 2 ? "T" : "N";
        int lda = tr & 1 ? k : m, ldb = tr & 2 ? n : k;
        memcpy(C1, C0, 8 * (size_t)m * n);
        dgemm_(ta, tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C1, &m, 1, 1);
        for (nt = 1; nt <= 4; nt++) {
            c.nthreads = nt;
            memcpy(C2, C0, 8 * (size_t)m * n);
            CHECK(as_gemm_blocks(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C2, m, &c) == AS_OK, "%s", c.msg);
            CHECK(rel_diff((int64_t)m * n, C2, C1) < 1e-13, "gemm %s%s: %g from dgemm", ta, tb,
                  rel_diff((int64_t)m * n, C2, C1));
            if (nt == 1) memcpy(C3, C2, 8 * (size_t)m * n);
            CHECK(memcmp(C2, C3, 8 * (size_t)m * n) == 0, "gemm %s%s: %d threads, other bits than 1", ta, tb, nt);
        }
    }
    for (tr = 0; tr < 4; tr++) {
        const char *uplo = tr & 1 ? "U" : "L", *trans = tr & 2 ? "T" : "N";
        int lda = tr & 2 ? k : n, i, j;
        double err = 0, mx = 0;
        memcpy(C1, C0, 8 * (size_t)n * n);
        dsyrk_(uplo, trans, &n, &k, &alpha, A, &lda, &beta, C1, &n, 1, 1);
        for (nt = 1; nt <= 3; nt++) {
            c.nthreads = nt;
            memcpy(C2, C0, 8 * (size_t)n * n);
            CHECK(as_syrk_blocks(uplo, trans, n, k, alpha, A, lda, beta, C2, n, &c) == AS_OK, "%s", c.msg);
            for (j = 0; j < n; j++)
                for (i = 0; i < n; i++) {
                    int in = tr & 1 ? i <= j : i >= j;
                    double want = in ? C1[i + (size_t)j * n] : C0[i + (size_t)j * n];
                    err = fmax(err, fabs(C2[i + (size_t)j * n] - want));
                    mx = fmax(mx, fabs(want));
                }
            CHECK(err < 1e-13 * mx, "syrk %s%s: %g from dsyrk (the other triangle untouched)", uplo, trans, err / mx);
            if (nt == 1) memcpy(C3, C2, 8 * (size_t)n * n);
            CHECK(memcmp(C2, C3, 8 * (size_t)n * n) == 0, "syrk %s%s: %d threads, other bits than 1", uplo, trans, nt);
        }
    }
    {
        /* U from the QR of a Gaussian (well conditioned), 600 right-hand sides */
        int r = 200, q = 600, i, j;
        double *U = gauss((int64_t)r * r, 34), one = 1;
        for (j = 0; j < r; j++)
            for (i = 0; i < r; i++) U[i + (size_t)j * r] = i > j ? 0 : i == j ? 10 + fabs(U[i + (size_t)j * r]) : U[i + (size_t)j * r];
        memcpy(C1, B, 8 * (size_t)r * q);
        dtrsm_("L", "U", "N", "N", &r, &q, &one, U, &r, C1, &r, 1, 1, 1, 1);
        for (nt = 1; nt <= 3; nt++) {
            c.nthreads = nt;
            memcpy(C2, B, 8 * (size_t)r * q);
            CHECK(as_trsm_blocks(r, q, U, r, C2, r, &c) == AS_OK, "%s", c.msg);
            CHECK(memcmp(C1, C2, 8 * (size_t)r * q) == 0, "trsm: %d threads, not the bits of dtrsm", nt);
        }
        free(U);
    }
    free(A); free(B); free(C0); free(C1); free(C2); free(C3);
}

/* ------------------------------------------------------------ failures and interrupts */

typedef struct la_case {
    int kind, m, n;
    const double *A;
} la_case;

static int run_la(void *arg, as_common *c)
{
    la_case *L = arg;
    int64_t len = (int64_t)L->m * L->n;
    double *A = malloc(8 * (size_t)len), *w = malloc(8 * (size_t)(L->m + L->n)), *Z = malloc(8 * (size_t)len);
    int *jp = malloc(sizeof(int) * (size_t)L->n), st;
    memcpy(A, L->A, 8 * (size_t)len);
    c->tune.la_pass_bytes = 8.0 * 400 * 60 * 6;   /* panels of 4 columns: many polls */
    c->tune.la_round_madds = 1;
    if (L->kind == 0) st = as_geqp3(L->m, L->n, A, L->m, jp, w, c);
    else if (L->kind == 1) st = as_syev(L->n, A, w, Z, c);
    else st = as_syev(L->n, A, w, NULL, c);
    free(A); free(w); free(Z); free(jp);
    return st;
}

static void test_failures(void)
{
    double *G = gauss(400 * 60, 41), *S = sym_matrix(80, 100, 0.1, 42);
    la_case cases[] = {{0, 400, 60, NULL}, {1, 80, 80, NULL}, {3, 80, 80, NULL}};
    const char *names[] = {"geqp3", "syev", "syev values"};
    int t;
    for (t = 0; t < 3; t++) {
        cases[t].A = t == 0 ? G : S;
        check_every_failure(names[t], run_la, &cases[t]);
    }
    CHECK(check_polls_total > 15, "interrupt polls exercised: %ld", check_polls_total);
    free(G);
    free(S);
}

/* ------------------------------------------------------------ how far apart the polls are */

/* The most CPU time between polls (the start counts as one) in whole calls,
   the hook stopping each after a few seconds of CPU: exact leverage scores
   (a pivoted QR of the 12000 x 1500 X': dgeqp3 takes 7 s with its only poll
   at the end), the deterministic algorithm (X X', its whitening, the search
   tree, the first steps) and the spectral error of a rank-deficient X (its
   whitening). Not under ATTSPARSE_UNTIMED (valgrind: the BLAS runs emulated,
   tens of times slower). */
static void test_path_gaps(void)
{
    int64_t n = 1500, d = 12000, t;
    double *X, *lev;
    int64_t rank = 0;
    int st;
    as_matrix V;
    as_common c;
    as_rand_options ro;
    as_det_options dop;
    as_result S;
    if (getenv("ATTSPARSE_UNTIMED")) return;
    X = gauss(n * d, 61);
    for (t = 0; t < n * d; t++) X[t] *= 0.01;
    as_view_dense(&V, n, d, X, n);
    as_common_init(&c);
    c.interrupt_fn = gap_hook;
    as_rand_options_init(&ro);
    ro.leverage = AS_LEV_EXACT;
    lev = malloc(8 * (size_t)d);
    gap_stop_after = 1;
    gap_start = gap_last = cpu_s();
    gap_max = 0;
    st = as_leverage(&V, &ro, lev, &rank, &c);
    CHECK(st == AS_ERR_INTERRUPT && gap_max < 0.5, "exact leverage, %lld x %lld: status %d, polls %.2f s of CPU apart",
          (long long)n, (long long)d, st, gap_max);
    printf("test_linalg: exact leverage %lld x %lld: polls at most %.3f s of CPU apart\n", (long long)n, (long long)d,
           gap_max);
    free(lev);
    as_view_dense(&V, n, 3000, X, n);
    as_det_options_init(&dop);
    dop.error = 0;
    gap_stop_after = 2.5;
    gap_start = gap_last = cpu_s();
    gap_max = 0;
    st = as_det(&V, &dop, &S, &c);
    CHECK(st == AS_ERR_INTERRUPT && gap_max < 0.5, "det, %lld x 3000: status %d, polls %.2f s of CPU apart", (long long)n,
          st, gap_max);
    printf("test_linalg: det %lld x 3000: polls at most %.3f s of CPU apart\n", (long long)n, gap_max);
    {
        /* rows repeated: X X' of rank n / 2, the whitening route */
        as_matrix Y;
        as_metrics M;
        as_metrics_options mo;
        for (t = 0; t < 3000; t++) memcpy(X + t * n + n / 2, X + t * n, 8 * (size_t)(n / 2));
        as_view_dense(&Y, n, 1000, X, n);
        as_metrics_options_init(&mo);
        mo.spectral = 1;
        gap_stop_after = 1e9;
        c.status = AS_OK;
        gap_start = gap_last = cpu_s();
        gap_max = 0;
        st = as_attention_error_xy(&V, &Y, &mo, &M, &c);
        gap_max = fmax(gap_max, cpu_s() - gap_last);
        CHECK(st == AS_OK && gap_max < 0.5, "spectral error, rank %lld: status %d, polls %.2f s of CPU apart",
              (long long)(n / 2), st, gap_max);
        printf("test_linalg: spectral error of rank %lld: polls at most %.3f s of CPU apart\n", (long long)(n / 2),
               gap_max);
    }
    free(X);
}

int main(void)
{
    /* LAPACK's drivers here on one BLAS thread, as the core's run */
    as_blas_threads_set(1);
    test_geqp3();
    test_syev();
    test_products();
    test_failures();
    test_path_gaps();
    printf("test_linalg: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}
