/* qk.c: Q != K: the stacked view's passes (scores, Gram, norm products), cross Grams, the metrics of Att(Q, K) and Att V, exact attention by blocks of rows. */
#include "as_internal.h"
#include <float.h>
#include <stdio.h>

/* Columns between interrupt polls in the passes below. */
#define AS_QK_CHUNK 4096
/* Doubles in one block of logits of as_attention_qkv (32 MiB; tests set less). */
double as_qk_block = 4194304.0;
/* Multiply-adds from which a dense cross Gram goes to BLAS dgemm: below it
   the call (and a threaded BLAS's start-up) costs more than the loops
   (tests set 0 or more). */
double as_qk_blas_madds = 1048576.0;

double as_col_norm_prob(const as_matrix *A, int64_t j, double scale)
{
    double s = 0, a, b, p;
    if (A->kind != AS_STACKED) {
        AS_FOR_COL(A, j, row, v, { (void)row; s += (v / scale) * (v / scale); });
        return s;
    }
    a = as_col_norm_prob(A->part[0], j, scale);
    b = as_col_norm_prob(A->part[1], j, scale);
    /* sqrt(a * a) is a to the bit when a * a neither over- nor underflows */
    p = a * b;
    if (isfinite(p) && (p >= DBL_MIN || p == 0)) return sqrt(p);
    return sqrt(a) * sqrt(b);
}

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

/* y += f * A(:, j) */
static void as_qk_axpy_col(const as_matrix *A, int64_t j, double f, double *y)
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
    int na = (int)A->nrow, nb = (int)(b1 - b0), lc = (int)ldc, lda = (int)A->ld, ldb = (int)B->ld;
    double one = 1.0, *PA, *PB;
    int64_t t0;
    size_t pw;
    if (!index && !weight) {
        int kd = (int)kk;
        dgemm_("N", "T", &na, &nb, &kd, &one, A->x, &lda, B->x + b0, &ldb, &one, C, &lc, 1, 1);
        return AS_OK;
    }
    pw = kk < AS_QK_PANEL ? (size_t)kk : AS_QK_PANEL;
    PA = as_malloc(c, (size_t)na * pw, sizeof(double));
    PB = as_malloc(c, (size_t)nb * pw, sizeof(double));
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
    int nt = as_threads(c);
    c->status = AS_OK;
    if (nb <= 0) return AS_OK;
    for (b = 0; b < nb; b++) memset(C + b * ldc, 0, sizeof(double) * (size_t)na);
    if (kk <= 0 || na <= 0) return AS_OK;
    /* dense A and B: BLAS (sizes within its 32-bit integers), unless the
       product is so small that the call costs more than the loops */
    if (A->kind == AS_DENSE && B->kind == AS_DENSE && (double)na * (double)nb * (double)kk >= as_qk_blas_madds &&
        na <= AS_INT_MAX && nb <= AS_INT_MAX &&
        kk <= AS_INT_MAX && ldc <= AS_INT_MAX && A->ld <= AS_INT_MAX && B->ld <= AS_INT_MAX)
        return as_cross_gram_dense(A, B, kk, index, weight, b0, b1, C, ldc, c);
    for (t0 = 0; t0 < kk; t0 += AS_QK_CHUNK) {
        int64_t t1 = t0 + AS_QK_CHUNK < kk ? t0 + AS_QK_CHUNK : kk;
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
                        as_qk_axpy_col(A, j, w2 * bv, C + (rb - b0) * ldc);
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

int as_qk_gram(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
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

/* log sum_j exp(g[j * stride]) over j < n, row maximum subtracted. */
static double as_qk_lse(int64_t n, const double *g)
{
    double mx = -INFINITY, s = 0;
    int64_t j;
    for (j = 0; j < n; j++) if (g[j] > mx) mx = g[j];
    for (j = 0; j < n; j++) s += exp(g[j] - mx);
    return mx + log(s);
}

int as_compare_view(const as_matrix *X, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c)
{
    int64_t n1, n2, N = X->nrow, i, j;
    double ln_n2, mq = 0, mk = 0;
    if (X->kind != AS_STACKED) return as_compare_gram(N, G, H, spectral, out, c);
    n1 = X->part[0]->nrow;
    n2 = X->part[1]->nrow;
    ln_n2 = log((double)n2);
    c->status = AS_OK;
    out->inf = out->rel = out->baseline = out->r = 0;
    out->eps_spectral = out->bound = NAN;
    if (as_gram_finite(N, G, "Z", c) != AS_OK || as_gram_finite(N, H, "Z~", c) != AS_OK)
        return c->status;
    /* row i of Q K' is column i of G from row n1 on (G is symmetric) */
    for (i = 0; i < n1; i++) {
        const double *g = G + i * N + n1, *h = H + i * N + n1;
        double lg = as_qk_lse(n2, g), lh = as_qk_lse(n2, h);
        for (j = 0; j < n2; j++) {
            double gl = g[j] - lg, hl = h[j] - lh;
            out->inf = fmax(out->inf, fabs(exp(hl) - exp(gl)));
            out->rel = fmax(out->rel, fabs(expm1(hl - gl)));
            out->baseline = fmax(out->baseline, fabs(expm1(-ln_n2 - gl)));
            out->r = fmax(out->r, fabs(g[j]));
        }
    }
    if (spectral) {
        as_metrics full;
        if (as_compare_gram(N, G, H, 1, &full, c) != AS_OK) return c->status;
        for (i = 0; i < n1; i++) mq = fmax(mq, G[i + i * N]);
        for (i = n1; i < N; i++) mk = fmax(mk, G[i + i * N]);
        out->eps_spectral = full.eps_spectral;
        out->bound = expm1(2.0 * full.eps_spectral * sqrt(mq) * sqrt(mk));
    }
    return c->status;
}

/* att = softmax(g) (length n), row maximum subtracted. */
static void as_qk_softmax_row(int64_t n, const double *g, double *att)
{
    double l = as_qk_lse(n, g);
    int64_t j;
    for (j = 0; j < n; j++) att[j] = exp(g[j] - l);
}

/* y[l] = sum_j att[j] V(j, l), optionally den[l] = sum_j att[j] |V(j, l)|. */
static void as_qk_times_v(int64_t n2, const double *att, const double *V, int64_t dv,
                          double *y, double *den)
{
    int64_t j, l;
    for (l = 0; l < dv; l++) {
        const double *v = V + l * n2;
        double s = 0, sa = 0;
        for (j = 0; j < n2; j++) {
            s += att[j] * v[j];
            sa += att[j] * fabs(v[j]);
        }
        y[l] = s;
        if (den) den[l] = sa;
    }
}

int as_qk_error(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                const double *V, int64_t dv, int spectral, as_qk_metrics *out, as_common *c)
{
    int64_t N = Z->nrow, n1, n2, i, l;
    double *G = NULL, *H = NULL, *w = NULL;
    out->out_error = out->out_rel_error = NAN;
    if (Z->kind != AS_STACKED)
        return as_error(c, AS_ERR_ARG, "as_qk_error needs a stacked view [Q; K]");
    if (as_matrix_check(Z, c) != AS_OK) return c->status;
    if (k < 0 || (k > 0 && index == NULL))
        return as_error(c, AS_ERR_ARG, "as_qk_error: k = %lld columns need an index", (long long)k);
    if (V != NULL && dv < 0) return as_error(c, AS_ERR_ARG, "V: %lld columns", (long long)dv);
    n1 = Z->part[0]->nrow;
    n2 = Z->part[1]->nrow;
    {
        char what[200];
        snprintf(what, sizeof what, "the error metrics need Z Z' and Z~ Z~' of the stacked [Q; K] "
                 "(2 N^2 doubles, N = nrow(Q) + nrow(K) = %lld)", (long long)N);
        if (as_mem_check(c, 16.0 * (double)N * (double)N, 0, what) != AS_OK) return c->status;
    }
    G = as_malloc(c, (size_t)N, (size_t)N * sizeof(double));
    H = as_malloc(c, (size_t)N, (size_t)N * sizeof(double));
    if (!G || !H || as_gram(Z, -1, NULL, NULL, G, c) != AS_OK) goto done;
    if (k == 0) memset(H, 0, sizeof(double) * (size_t)N * (size_t)N);
    else if (as_gram(Z, k, index, weight, H, c) != AS_OK) goto done;
    if (as_compare_view(Z, G, H, spectral, &out->att, c) != AS_OK || V == NULL) goto done;
    /* Att V and Att~ V a row at a time: two rows of attention, four of outputs */
    w = as_malloc(c, (size_t)(2 * n2 + 4 * (dv > 0 ? dv : 1)), sizeof(double));
    if (!w) goto done;
    out->out_error = out->out_rel_error = 0;
    for (i = 0; i < n1; i++) {
        double *a = w, *ah = w + n2, *y = w + 2 * n2, *yh = y + dv, *den = yh + dv;
        as_qk_softmax_row(n2, G + i * N + n1, a);
        as_qk_softmax_row(n2, H + i * N + n1, ah);
        as_qk_times_v(n2, a, V, dv, y, den);
        as_qk_times_v(n2, ah, V, dv, yh, NULL);
        for (l = 0; l < dv; l++) {
            double e = fabs(yh[l] - y[l]);
            out->out_error = fmax(out->out_error, e);
            if (e > 0) out->out_rel_error = fmax(out->out_rel_error, den[l] > 0 ? e / den[l] : INFINITY);
        }
    }
done:
    as_free(c, G);
    as_free(c, H);
    as_free(c, w);
    return c->status;
}

int as_attention_qkv(const as_matrix *Q, const as_matrix *K, const double *V, int64_t dv,
                     double *out, as_common *c)
{
    int64_t n1 = Q->nrow, n2 = K->nrow, i0, nb, a, l;
    double *C = NULL, *att = NULL, *y = NULL;
    if (as_matrix_check_named(Q, "Q", c) != AS_OK || as_matrix_check_named(K, "K", c) != AS_OK)
        return c->status;
    if (K->ncol != Q->ncol)
        return as_error(c, AS_ERR_INPUT, "K has %lld columns but Q has %lld: queries and keys need the same number of features d",
                        (long long)K->ncol, (long long)Q->ncol);
    if (V != NULL && dv < 1) return as_error(c, AS_ERR_INPUT, "V has no columns");
    /* with V, blocks of rows of Q K' (transposed: a row's logits contiguous);
       without, the n1 x n2 result is the output anyway */
    nb = V == NULL ? n1 : (int64_t)(as_qk_block / (double)n2);
    if (nb < 1) nb = 1;
    if (nb > n1) nb = n1;
    C = as_malloc(c, (size_t)nb, (size_t)n2 * sizeof(double));
    att = as_malloc(c, (size_t)n2, sizeof(double));
    y = as_malloc(c, (size_t)(dv > 0 ? dv : 1), sizeof(double));
    if (!C || !att || !y) goto done;
    for (i0 = 0; i0 < n1; i0 += nb) {
        int64_t i1 = i0 + nb < n1 ? i0 + nb : n1;
        if (as_cross_gram(K, Q, -1, NULL, NULL, i0, i1, C, c) != AS_OK) goto done;
        for (a = 0; a < (i1 - i0) * n2; a++)
            if (!isfinite(C[a])) {
                as_error(c, AS_ERR_INPUT, "Q K' overflows (row %lld of Q): scale Q or K down",
                         (long long)(i0 + a / n2 + 1));
                goto done;
            }
        for (a = 0; a < i1 - i0; a++) {
            int64_t i = i0 + a, j;
            as_qk_softmax_row(n2, C + a * n2, att);
            if (V == NULL) {
                for (j = 0; j < n2; j++) out[i + j * n1] = att[j];
            } else {
                as_qk_times_v(n2, att, V, dv, y, NULL);
                for (l = 0; l < dv; l++) out[i + l * n1] = y[l];
            }
        }
        if (i1 < n1 && as_interrupted(c)) goto done;
    }
done:
    as_free(c, C);
    as_free(c, att);
    as_free(c, y);
    return c->status;
}
