/* qk_attention.c: Q != K primitives: the metrics of Att(Q, K) and Att V, the shapes and values of K and V, exact attention by blocks of rows (the Grams: gram.c; the stacked view's scores: leverage.c; the sketches with keys and values: qk_sketch.c). */
#include "as_internal.h"
#include "gram.h"
#include "metrics.h"
#include "qk.h"
#include <float.h>
#include <stdio.h>

/* Doubles in one block of logits of as_attention_qkv: c->tune.qk_block (32 MiB; tests set less). */

/* att = softmax(g) (length n), row maximum subtracted. */
static void as_qk_softmax_row(int64_t n, const double *g, double *att)
{
    double l = as_lse(n, g);
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
    return as_qk_error_cap(Z, k, index, weight, V, dv, spectral, 0, out, c);
}

int as_qk_error_cap(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                    const double *V, int64_t dv, int spectral, double mem_mb, as_qk_metrics *out,
                    as_common *c)
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
        snprintf(what, sizeof what, "the error metrics of Att(X, K) need the Grams of [X; K] and of its sample "
                 "(2 N^2 doubles, N = nrow(X) + nrow(K) = %lld)", (long long)N);
        if (as_mem_check(c, 16.0 * (double)N * (double)N, mem_mb, what) != AS_OK) return c->status;
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

int as_qkv_check_v(int64_t n2, const double *V, int64_t dv, as_common *c)
{
    int64_t t;
    if (V == NULL) return AS_OK;
    if (dv < 1) return as_error(c, AS_ERR_INPUT, "V has no columns");
    for (t = 0; t < n2 * dv; t++)
        if (!isfinite(V[t]))
            return as_error(c, AS_ERR_INPUT, "V holds a NaN or infinite value (row %lld, column %lld)",
                            (long long)(t % n2 + 1), (long long)(t / n2 + 1));
    return AS_OK;
}

int as_qkv_shapes(const as_matrix *Q, const as_matrix *K, int64_t v_rows, int64_t v_cols, const char *qname,
                  as_common *c)
{
    const char *keys = K != NULL ? "K" : qname;
    int64_t n2 = K != NULL ? K->nrow : Q->nrow;
    c->status = AS_OK;
    if (K != NULL && K->ncol != Q->ncol)
        return as_error(c, AS_ERR_INPUT, "K must have as many columns as %s (d = %lld features), got %lld", qname,
                        (long long)Q->ncol, (long long)K->ncol);
    if (v_rows >= 0 && v_rows != n2)
        return as_error(c, AS_ERR_INPUT, "V must have as many rows as %s (n2 = %lld), got %lld", keys,
                        (long long)n2, (long long)v_rows);
    if (v_rows >= 0 && v_cols < 1) return as_error(c, AS_ERR_INPUT, "V has no columns");
    return AS_OK;
}

int as_attention_qkv(const as_matrix *Q, const as_matrix *K, const double *V, int64_t dv,
                     double *out, as_common *c)
{
    int64_t n1 = Q->nrow, n2 = K->nrow, i0, nb, a, l;
    double *C = NULL, *att = NULL, *y = NULL;
    if (as_matrix_check_named(Q, "Q", c) != AS_OK || as_matrix_check_named(K, "K", c) != AS_OK)
        return c->status;
    if (as_qkv_shapes(Q, K, V != NULL ? n2 : -1, dv, "Q", c) != AS_OK || as_qkv_check_v(n2, V, dv, c) != AS_OK)
        return c->status;
    /* with V, blocks of rows of Q K' (transposed: a row's logits contiguous);
       without, the n1 x n2 result is the output anyway */
    nb = V == NULL ? n1 : (int64_t)(c->tune.qk_block / (double)n2);
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
