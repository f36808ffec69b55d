/* qk_sketch.c: the sketches with keys and values: as_rand and as_det on the stacked [X; K], then the metrics of Att(X, K) and Att V from the same call. */
#include "as_internal.h"
#include "det.h"
#include "metrics.h"
#include "qk.h"
#include "rand.h"
#include "result.h"

/* The metrics of a sample S of [X; K] (of X when K is NULL) that 'error' and
   'spectral' ask for: with K those of Att(X, K) replace S's (which the run
   did not compute), with V out_error and out_rel_error. */
static int as_qkv_metrics(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
                          int error, int spectral, double mem_mb, as_result *S, as_common *c)
{
    as_matrix Z;
    as_qk_metrics Q;
    double t0 = as_wtime();
    spectral = as_spectral_asked(error, spectral);
    if (K == NULL && (!error || V == NULL)) return AS_OK;   /* the run's own metrics */
    if (K != NULL && !error && !spectral) return AS_OK;
    as_view_stacked(&Z, X, K != NULL ? K : X);
    if (as_qk_error_cap(&Z, S->k, S->index, S->weight, V, dv, K != NULL && spectral, mem_mb, &Q, c) != AS_OK)
        return c->status;
    if (K != NULL) {
        S->metrics = Q.att;
        as_metrics_mask(&S->metrics, error, error);
        S->error_time = 0;
    }
    if (error) {
        S->out_error = Q.out_error;
        S->out_rel_error = Q.out_rel_error;
    }
    S->error_time = (isnan(S->error_time) ? 0 : S->error_time) + (as_wtime() - t0);
    return AS_OK;
}

/* as_rand or as_det behind one signature */
typedef int (*as_qkv_algorithm)(const as_matrix *X, const void *o, as_result *out, as_common *c);
static int as_qkv_rand(const as_matrix *X, const void *o, as_result *out, as_common *c)
{
    return as_rand(X, (const as_rand_options *)o, out, c);
}
static int as_qkv_det(const as_matrix *X, const void *o, as_result *out, as_common *c)
{
    return as_det(X, (const as_det_options *)o, out, c);
}

/* The run on [X; K] (K NULL: X) with the options `inner`, a copy of the
   caller's whose 'error' and 'spectral' (*error, *spectral) are turned off
   with K; then the metrics the caller asked for, their Grams under mem_mb. */
static int as_qkv_run(as_qkv_algorithm run, const as_matrix *X, const as_matrix *K, const double *V,
                      int64_t dv, const void *inner, int *error, int *spectral, double mem_mb,
                      as_result *out, as_common *c)
{
    int want_error = *error, want_spectral = *spectral;
    as_matrix Z;
    as_result_init(out);   /* freeable whatever fails */
    if (as_qkv_check_v(K != NULL ? K->nrow : X->nrow, V, dv, c) != AS_OK) return c->status;
    if (K != NULL) {
        as_view_stacked(&Z, X, K);
        *error = *spectral = 0;
    }
    if (run(K != NULL ? &Z : X, inner, out, c) != AS_OK) return c->status;
    out->has |= (K != NULL ? AS_HAS_KEYS : 0) | (V != NULL ? AS_HAS_VALUES : 0);
    /* a failure leaves nothing for the caller to free, as every call's */
    if (as_qkv_metrics(X, K, V, dv, want_error, want_spectral, mem_mb, out, c) != AS_OK) as_result_free(out, c);
    return c->status;
}

/* The refit fits X X' (the symmetric attention): not Att(X, K) nor Att V. */
static int as_qkv_no_refit(as_result *out, as_common *c)
{
    as_result_init(out);
    return as_error(c, AS_ERR_ARG, "'refit' fits the weights to X X' (the attention of X with itself): it "
                    "cannot be used with 'K' or 'V'");
}

int as_rand_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
                const as_rand_options *o, as_result *out, as_common *c)
{
    as_rand_options inner = *o;
    if (K == NULL && V == NULL) return as_rand(X, o, out, c);
    if (o->refit) return as_qkv_no_refit(out, c);
    return as_qkv_run(as_qkv_rand, X, K, V, dv, &inner, &inner.error, &inner.spectral, o->mem_mb, out, c);
}

int as_det_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
               const as_det_options *o, as_result *out, as_common *c)
{
    as_det_options inner = *o;
    if (K == NULL && V == NULL) return as_det(X, o, out, c);
    if (o->refit) return as_qkv_no_refit(out, c);
    return as_qkv_run(as_qkv_det, X, K, V, dv, &inner, &inner.error, &inner.spectral, o->mem_mb, out, c);
}

