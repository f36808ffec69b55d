/* metrics.c: softmax attention of a Gram matrix and the error metrics (inf, rel, baseline, spectral eps; of Att(Q, K) for a stacked [Q; K]). */
#include "as_internal.h"
#include "gram.h"
#include "metrics.h"
#include "result.h"
#include <float.h>
#include <stdio.h>

/* log sum_j exp(g[j]), j < n, the maximum subtracted. */
double as_lse(int64_t n, const double *g)
{
    double mx = -INFINITY, s = 0;
    int64_t j;
    for (j = 0; j < n; j++) if (g[j] > mx) mx = g[j];
    for (j = 0; j < n; j++) s += exp(g[j] - mx);
    return mx + log(s);
}

/* log sum_j exp(G(i, j)) for row i (G symmetric: row i is column i). */
static double as_lse_row(int64_t n, const double *G, int64_t i)
{
    return as_lse(n, G + i * n);
}

static void as_row_lse(int64_t n, const double *G, double *lse)
{
    int64_t i;
    for (i = 0; i < n; i++) lse[i] = as_lse_row(n, G, i);
}

void as_softmax(int64_t n, const double *G, double *Att)
{
    int64_t i, j;
    for (i = 0; i < n; i++) {
        double li = as_lse_row(n, G, i);
        for (j = 0; j < n; j++) Att[i + j * n] = exp(G[j + i * n] - li);
    }
}

/* The reciprocal condition number from which G counts as positive definite
   for as_spectral_eps: 1e3 times the whitening's cut (n 16 eps of the largest
   eigenvalue), so that dpocon's estimate, off by a small factor at most,
   never takes a direction the whitening would drop. */
static double as_pd_rcond(int64_t n)
{
    return 1e3 * 16.0 * DBL_EPSILON * (double)n;
}

/* c->tune.spectral_chol nonzero (default): as_spectral_eps takes the Cholesky route when it can. */

/* eps of a positive definite G from its Cholesky factor L (in Gw): the
   eigenvalues of L^-1 H L^-T (dsygst), no eigenvectors. *done = 0 when G is
   not clearly positive definite (then the whitening decides its range). */
static int as_spectral_eps_chol(int n, const double *G, double *Gw, const double *H, double *eps,
                                int *done_chol, as_common *c)
{
    int info = 0, one = 1, blas = as_blas_threads_set(1);
    double anorm, rcond = 0, *work = NULL, *C = NULL, *mu = NULL;
    int *iwork = NULL;
    *done_chol = 0;
    work = as_malloc(c, (size_t)(3 * n), sizeof(double));
    iwork = as_malloc(c, (size_t)n, sizeof(int));
    if (!work || !iwork) goto done;
    memcpy(Gw, G, sizeof(double) * (size_t)n * n);
    anorm = dlansy_("1", "L", &n, Gw, &n, work, 1, 1);
    dpotrf_("L", &n, Gw, &n, &info, 1);
    if (info != 0 || as_interrupted(c)) goto done;
    dpocon_("L", &n, Gw, &n, &anorm, &rcond, work, iwork, &info, 1);
    if (info != 0 || !(rcond > as_pd_rcond(n))) goto done;
    C = as_malloc(c, (size_t)n * n, sizeof(double));
    mu = as_malloc(c, (size_t)n, sizeof(double));
    if (!C || !mu) goto done;
    memcpy(C, H, sizeof(double) * (size_t)n * n);
    dsygst_(&one, "L", &n, C, &n, Gw, &n, &info, 1);
    if (info != 0) {
        as_error(c, AS_ERR_LAPACK, "dsygst failed (info = %d)", info);
        goto done;
    }
    if (as_interrupted(c) || as_syev(n, C, mu, NULL, c) != AS_OK) goto done;
    *eps = fmax(mu[n - 1] - 1.0, 1.0 - mu[0]);
    *done_chol = 1;
done:
    if (blas > 0) as_blas_threads_set(blas);
    as_free(c, work);
    as_free(c, iwork);
    as_free(c, C);
    as_free(c, mu);
    return c->status;
}

/* The mass of H outside G's numerical range (below) from which no finite
   eps exists: 1e3 times the whitening's cut (n 16 DBL_EPSILON) of G's
   largest eigenvalue plus H's trace. A sample of X's own columns puts none
   there but rounding (the same factor as as_pd_rcond above it); a Y with a
   row where X has none, or any Y when X = 0, puts its whole weight there. */
#define AS_OUTSIDE_FACTOR 1e3

/* Smallest eps with (1-eps) G <= H <= (1+eps) G: by Cholesky when G is
   clearly positive definite (a few n^3 / 3 flops, no eigenvectors), else by
   the whitening on G's numerical range, and Inf when H has weight outside
   that range (v'Hv > 0 = v'Gv: no eps will do). */
static int as_spectral_eps(int64_t n64, const double *G, const double *H, double *eps,
                           as_common *c)
{
    int n = (int)n64, r, chol = 0, i;
    int64_t r64 = 0;
    double *Gw = NULL, *W = NULL, *T = NULL, *C = NULL, *mu = NULL, *V0 = NULL;
    double gmax = 0, htr = 0, hout = 0;
    *eps = NAN;
    Gw = as_malloc(c, (size_t)n * n, sizeof(double));
    if (!Gw) goto done;
    if (c->tune.spectral_chol && (as_spectral_eps_chol(n, G, Gw, H, eps, &chol, c) != AS_OK || chol)) goto done;
    if (as_interrupted(c)) goto done;
    memcpy(Gw, G, sizeof(double) * (size_t)n * n);
    /* W (r x n) with W G W' = I on the range of G; V0 (n x (n - r)) the rest */
    if (as_whiten_null(n64, Gw, &W, &r64, &V0, &gmax, c) != AS_OK) goto done;
    r = (int)r64;
    if (r < n) {
        /* trace(V0' H V0), H's weight outside the range */
        int q = n - r;
        T = as_malloc(c, (size_t)n * q, sizeof(double));
        if (!T || as_gemm_blocks("N", "N", n, q, n, 1.0, H, n, V0, n, 0.0, T, n, c) != AS_OK) goto done;
        for (i = 0; i < n * q; i++) hout += V0[i] * T[i];
        for (i = 0; i < n; i++) htr += H[i + (size_t)i * n];
        if (hout > AS_OUTSIDE_FACTOR * (double)n * 16.0 * DBL_EPSILON * (fabs(gmax) + htr)) {
            *eps = INFINITY;
            goto done;
        }
        as_free(c, T);
        T = NULL;
    }
    if (r == 0) { *eps = 0; goto done; }
    T = as_malloc(c, (size_t)n * r, sizeof(double));
    C = as_malloc(c, (size_t)r * r, sizeof(double));
    mu = as_malloc(c, (size_t)r, sizeof(double));
    if (!T || !C || !mu) goto done;
    if (as_gemm_blocks("N", "T", n, r, n, 1.0, H, n, W, r, 0.0, T, n, c) != AS_OK ||
        as_gemm_blocks("N", "N", r, r, n, 1.0, W, r, T, n, 0.0, C, r, c) != AS_OK || as_syev(r, C, mu, NULL, c) != AS_OK)
        goto done;
    *eps = fmax(mu[r - 1] - 1.0, 1.0 - mu[0]);
done:
    as_free(c, Gw);
    as_free(c, W);
    as_free(c, V0);
    as_free(c, T);
    as_free(c, C);
    as_free(c, mu);
    return c->status;
}

/* One row's part of the metrics (m > 0 entries, the row of logits g of X and h
   of Y): the largest |Att(Y) - Att(X)| into *inf, |Att(Y) / Att(X) - 1| into
   *rel (from the row's smallest and largest log-ratio: expm1 is increasing),
   |1/m / Att(X) - 1| into *base, |g| into *r, each the larger of it and its
   value before. */
static void as_row_metrics(int64_t m, const double *g, const double *h, double ln_m, double *inf, double *rel,
                           double *base, double *r)
{
    double lg = as_lse(m, g), lh = as_lse(m, h);
    double dlo = INFINITY, dhi = -INFINITY, glo = INFINITY, ghi = -INFINITY;
    int64_t j;
    for (j = 0; j < m; j++) {
        double gl = g[j] - lg;   /* log Att(X) */
        double hl = h[j] - lh;   /* log Att(Y) */
        *inf = fmax(*inf, fabs(exp(hl) - exp(gl)));
        dlo = fmin(dlo, hl - gl);
        dhi = fmax(dhi, hl - gl);
        glo = fmin(glo, gl);
        ghi = fmax(ghi, gl);
        *r = fmax(*r, fabs(g[j]));
    }
    *rel = fmax(*rel, as_expm1_span(dlo, dhi));
    *base = fmax(*base, as_expm1_span(-ln_m - ghi, -ln_m - glo));
}

/* The bound of rel from eps (DESIGN.md section 4): Inf when eps is, even for
   X = 0 (where 2 eps max G_ii would be Inf times 0). */
static double as_eps_bound(double eps, double scale)
{
    return isinf(eps) ? INFINITY : expm1(2.0 * eps * scale);
}

int as_compare_gram(int64_t n, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c)
{
    double ln_n = log((double)n), maxdiag = 0;
    c->status = AS_OK;
    out->inf = out->rel = out->baseline = out->r = 0;
    out->eps_spectral = out->bound = NAN;
    /* an overflowed Gram would give NaN metrics */
    if (as_gram_finite(n, G, "X", c) != AS_OK || as_gram_finite(n, H, "Y", c) != AS_OK)
        return c->status;
    /* rows on the core's threads: each thread's maxima, then the maxima of
       those (a maximum does not depend on the order it is taken in) */
#ifdef _OPENMP
#pragma omp parallel num_threads(as_threads_for(c, 8.0 * (double)n * (double)n))
#endif
    {
        double inf = 0, rel = 0, base = 0, r = 0, md = 0;
        int64_t a;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (a = 0; a < n; a++) {
            md = fmax(md, G[a + a * n]);
            as_row_metrics(n, G + a * n, H + a * n, ln_n, &inf, &rel, &base, &r);
        }
#ifdef _OPENMP
#pragma omp critical(as_compare_max)
#endif
        {
            out->inf = fmax(out->inf, inf);
            out->rel = fmax(out->rel, rel);
            out->baseline = fmax(out->baseline, base);
            out->r = fmax(out->r, r);
            maxdiag = fmax(maxdiag, md);
        }
    }
    if (spectral && as_interrupted(c) == AS_OK && as_spectral_eps(n, G, H, &out->eps_spectral, c) == AS_OK)
        out->bound = as_eps_bound(out->eps_spectral, maxdiag);
    return c->status;
}

int as_compare_view(const as_matrix *X, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c)
{
    int64_t n1, n2, N = X->nrow, i;
    double ln_n2, mq = 0, mk = 0;
    if (X->kind != AS_STACKED) return as_compare_gram(N, G, H, spectral, out, c);
    n1 = X->part[0]->nrow;
    n2 = X->part[1]->nrow;
    ln_n2 = log((double)n2);
    c->status = AS_OK;
    out->inf = out->rel = out->baseline = out->r = 0;
    out->eps_spectral = out->bound = NAN;
    if (as_gram_finite(N, G, "[X; K]", c) != AS_OK || as_gram_finite(N, H, "[X; K] sample", c) != AS_OK)
        return c->status;
    /* row i of Q K' is column i of G from row n1 on (G is symmetric) */
    for (i = 0; i < n1; i++) {
        if (n2 > 0)
            as_row_metrics(n2, G + i * N + n1, H + i * N + n1, ln_n2, &out->inf, &out->rel, &out->baseline, &out->r);
    }
    if (spectral) {
        as_metrics full;
        if (as_interrupted(c) || as_compare_gram(N, G, H, 1, &full, c) != AS_OK) return c->status;
        for (i = 0; i < n1; i++) mq = fmax(mq, G[i + i * N]);
        for (i = n1; i < N; i++) mk = fmax(mk, G[i + i * N]);
        out->eps_spectral = full.eps_spectral;
        out->bound = as_eps_bound(full.eps_spectral, sqrt(mq) * sqrt(mk));
    }
    return c->status;
}

int as_metrics_mem_check(int64_t n, int have_g, double mem_mb, as_common *c)
{
    char what[160];
    snprintf(what, sizeof what, "the error metrics need X X' and Y Y' (2 n^2 doubles, n = nrow(X) = %lld)",
             (long long)n);
    return as_mem_check(c, (have_g ? 8.0 : 16.0) * (double)n * (double)n, mem_mb, what);
}

/* The metrics of H = the Gram of Y(:, index) diag(weight) (k columns; index
   NULL: all of Y's) against G = X X' (G NULL: computed from X). The compared
   view (for a stacked [Q; K]: the metrics of Att(Q, K)) is X, or Y when X is
   NULL. Y's Gram and X's are n x n: counted against the memory before either
   is allocated. */
static int as_metrics_gram(const as_matrix *X, const double *G, const as_matrix *Y, int64_t k,
                           const int64_t *index, const double *weight, int spectral, double mem_mb,
                           as_metrics *out, as_common *c)
{
    int64_t n = Y->nrow;
    double *Gown = NULL, *H = NULL;
    int paired = G == NULL && X == Y && k > 0;
    if (as_metrics_mem_check(n, G != NULL, mem_mb, c) != AS_OK) return c->status;
    H = as_malloc(c, (size_t)n, (size_t)n * sizeof(double));
    if (!H) goto done;
    if (paired) {
        /* both Grams from one pass over X's columns */
        Gown = as_malloc(c, (size_t)n, (size_t)n * sizeof(double));
        if (!Gown || as_gram_pair(X, k, index, weight, Gown, H, c) != AS_OK) goto done;
        G = Gown;
    } else if (G == NULL) {
        Gown = as_malloc(c, (size_t)n, (size_t)n * sizeof(double));
        if (!Gown || as_gram(X, -1, NULL, NULL, Gown, c) != AS_OK) goto done;
        G = Gown;
    }
    /* an empty sample is Y = 0 (uniform attention), never "all columns"
       (what as_gram reads from index == NULL) */
    if (k == 0) memset(H, 0, sizeof(double) * (size_t)n * (size_t)n);
    else if (!paired && as_gram(Y, k, index, weight, H, c) != AS_OK) goto done;
    as_compare_view(X ? X : Y, G, H, spectral, out, c);
done:
    as_free(c, Gown);
    as_free(c, H);
    return c->status;
}

int as_metrics_of(const as_matrix *X, const double *G, int64_t k, const int64_t *index,
                  const double *weight, int spectral, as_metrics *out, as_common *c)
{
    if (k < 0 || (k > 0 && index == NULL))
        return as_error(c, AS_ERR_ARG, "as_attention_error: k = %lld columns need an index",
                        (long long)k);
    return as_metrics_gram(X, G, X, k, index, weight, spectral, 0, out, c);
}

int as_attention_error(const as_matrix *X, int64_t k, const int64_t *index,
                       const double *weight, int spectral, as_metrics *out, as_common *c)
{
    if (as_matrix_check(X, c) != AS_OK) return c->status;
    return as_metrics_of(X, NULL, k, index, weight, spectral, out, c);
}

/* Y beside an X with n rows: as many rows, and (with columns) valid values;
   no column is the empty sketch (uniform attention), not an error. */
static int as_check_y(int64_t n, const as_matrix *Y, as_common *c)
{
    if (Y->nrow != n)
        return as_error(c, AS_ERR_INPUT, "Y must have as many rows as X (%lld), got %lld", (long long)n,
                        (long long)Y->nrow);
    if (Y->ncol > 0) return as_matrix_check_named(Y, "Y", c);
    return c->status = AS_OK;
}

int as_attention_error_xy(const as_matrix *X, const as_matrix *Y, const as_metrics_options *o,
                          as_metrics *out, as_common *c)
{
    if (as_matrix_check(X, c) != AS_OK || as_check_y(X->nrow, Y, c) != AS_OK) return c->status;
    return as_metrics_gram(X, NULL, Y, Y->ncol, NULL, NULL, o->spectral > 0, o->mem_mb, out, c);
}

int as_attention_error_gram(int64_t n, const double *G, const as_matrix *Y, const double *weight,
                            const as_metrics_options *o, as_metrics *out, as_common *c)
{
    if (as_check_y(n, Y, c) != AS_OK) return c->status;
    return as_metrics_gram(NULL, G, Y, Y->ncol, NULL, weight, o->spectral > 0, o->mem_mb, out, c);
}

int as_sym_attention(const as_matrix *X, double *Att, as_common *c)
{
    int64_t n = X->nrow, i, j;
    double *lse;
    if (as_matrix_check(X, c) != AS_OK) return c->status;
    lse = as_malloc(c, (size_t)(n > 0 ? n : 1), sizeof(double));
    if (!lse) return c->status;
    /* X X' in the output, then each entry turned into its attention in place
       (G is symmetric: row i is column i) */
    if (as_gram(X, -1, NULL, NULL, Att, c) == AS_OK && as_gram_finite(n, Att, "X", c) == AS_OK) {
        as_row_lse(n, Att, lse);
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) Att[i + j * n] = exp(Att[i + j * n] - lse[i]);
    }
    as_free(c, lse);
    return c->status;
}

const char *as_result_warning(const as_result *S, char *buf, size_t len)
{
    const as_metrics *M = &S->metrics;
    size_t at = 0;
    if (len == 0) return NULL;
    buf[0] = '\0';
    /* the ratios of attention entries near exp(-2 r): past r of about 350 they overflow */
    if (!isnan(M->r) && (!isfinite(M->rel) || !isfinite(M->baseline)))
        at += (size_t)snprintf(buf, len, "the relative attention error %s: max |X X'| = %g, so "
                               "Att(X) has entries near exp(-%g); the spectral eps is unaffected",
                               isfinite(M->rel) ? "is far beyond any use and its baseline (Y = 0) overflows to Inf"
                                                : "overflows to Inf", M->r, 2 * M->r);
    else if (isinf(S->rel_estimate))
        at += (size_t)snprintf(buf, len, "the estimated relative attention error overflows to Inf: the attention "
                               "of Y or of a resample has entries too small for their ratios (logits of "
                               "several hundred); inf_estimate is unaffected");
    /* |Att~ V - Att V| <= 2 max |V|: only a V near the largest double overflows it */
    if (isinf(S->out_error) && at < len)
        snprintf(buf + at, len - at, "%sthe error of Att V overflows to Inf: V has entries above half the "
                 "largest double (%.3g); scale V down", at ? "; " : "", DBL_MAX / 2);
    return buf[0] ? buf : NULL;
}

const char *as_target_warning(const as_result *S, char *buf, size_t len)
{
    if (len == 0) return NULL;
    buf[0] = '\0';
    if (S->call != AS_FOR_GREEDY || isnan(S->rel_target) || !(S->metrics.rel > S->rel_target)) return NULL;
    snprintf(buf, len, "the target rel = %.4g%% was not met: the best found keeps %lld columns with rel %.4g%% "
             "(%s)", 100 * S->rel_target, (long long)S->k, 100 * S->metrics.rel,
             (S->has & AS_HAS_MEMORY) ? "'memory' held no more columns: raise it for more"
                                      : "no column lowered the error further");
    return buf;
}

int as_output_check(int what, const as_matrix *Q, const as_matrix *K, int64_t dv,
                    const as_metrics_options *o, as_common *c)
{
    long long n1 = (long long)Q->nrow, n2 = (long long)(K ? K : Q)->nrow;
    char desc[200];
    c->status = AS_OK;
    if (what == AS_OUT_ATTENTION && dv >= 0)
        snprintf(desc, sizeof desc, "the result Att(Q, K) V (n1 x dv doubles, n1 = nrow(Q) = %lld, dv = ncol(V) = %lld)",
                 n1, (long long)dv);
    else if (what == AS_OUT_ATTENTION)
        snprintf(desc, sizeof desc, "the result Att(Q, K) (n1 x n2 doubles, n1 = nrow(Q) = %lld, n2 = nrow(K) = %lld)",
                 n1, n2);
    else
        snprintf(desc, sizeof desc, "the result %s (n x n doubles, n = nrow(X) = %lld)",
                 what == AS_OUT_GRAM ? "X X'" : "Att(X)", n1);
    return as_mem_check_as(c, 8.0 * (double)n1 * (double)(what == AS_OUT_ATTENTION && dv >= 0 ? dv : n2),
                           o->mem_mb, desc, "");
}

int as_spectral_asked(int error, int spectral)
{
    return spectral < 0 ? error : spectral;
}

void as_metrics_mask(as_metrics *M, int error, int rel)
{
    if (!error) M->inf = M->baseline = M->r = NAN;
    if (!rel) M->rel = NAN;
}

int as_result_metrics(const as_matrix *X, const double *G, int error, int spectral,
                      as_result *S, as_common *c)
{
    double t0;
    /* a refit has X X' at hand: the exact rel of the weights it chose costs Y Y' only, and is kept */
    int rel = error || (G != NULL && (S->has & AS_HAS_REFIT));
    spectral = as_spectral_asked(error, spectral);
    if (!rel && !spectral) return AS_OK;
    t0 = as_wtime();
    c->phase = G ? "metrics: the error of Y against the exact X X'" : "metrics: the exact X X' and the error of Y";
    as_metrics_of(X, G, S->k, S->index, S->weight, spectral, &S->metrics, c);
    c->phase = NULL;
    if (c->status != AS_OK) return c->status;
    as_metrics_mask(&S->metrics, error, rel);
    S->error_time = as_wtime() - t0;
    return AS_OK;
}
