/* rglue.c: the R front-end: no-copy views of R matrices and dgCMatrix slots, core calls, results as R objects. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Utils.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "attsparse.h"

/* ---------------------------------------------------------------- hooks */
static void r_check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* R_CheckUserInterrupt longjmps; R_ToplevelExec contains it, so the core
   sees a plain "stop" and unwinds through its own status path. */
static int r_interrupt(void *ctx)
{
    (void)ctx;
    return R_ToplevelExec(r_check_interrupt, NULL) == FALSE;
}

static void r_print(void *ctx, const char *line)
{
    (void)ctx;
    Rprintf("%s\n", line);
}

static SEXP r_opt(SEXP opts, const char *name)
{
    SEXP names = Rf_getAttrib(opts, R_NamesSymbol);
    R_xlen_t t;
    for (t = 0; t < XLENGTH(opts); t++)
        if (strcmp(CHAR(STRING_ELT(names, t)), name) == 0) return VECTOR_ELT(opts, t);
    return R_NilValue;
}

static double r_opt_num(SEXP opts, const char *name, double dflt)
{
    SEXP v = r_opt(opts, name);
    if (v == R_NilValue) return dflt;
    if (!Rf_isNumeric(v) || XLENGTH(v) != 1)
        Rf_errorcall(R_NilValue, "'%s' must be a single number", name);
    return Rf_asReal(v);
}

/* Whole numbers outside the int64 range are clamped so the core's own range
   check reports them by name. */
static int64_t r_opt_i64(SEXP opts, const char *name, int64_t dflt)
{
    double v = r_opt_num(opts, name, (double)dflt);
    if (ISNAN(v) || v < -1) return -1;
    if (v > 9.2e18) return INT64_MAX;
    return (int64_t)v;
}

/* The context for a call: R's interrupt and print hooks, a thread count. */
static void r_common_threads(as_common *c, int threads)
{
    as_common_init(c);
    c->interrupt_fn = r_interrupt;
    c->print_fn = r_print;
    c->nthreads = threads;
}

static void r_common(as_common *c, SEXP opts)
{
    r_common_threads(c, (int)r_opt_num(opts, "threads", 0));
    c->verbose = (int)r_opt_num(opts, "verbose", 0);
}

static void r_raise(const as_common *c)
{
    if (c->status == AS_ERR_INTERRUPT) Rf_errorcall(R_NilValue, "interrupted by the user");
    Rf_errorcall(R_NilValue, "%s", c->msg);
}

/* ---------------------------------------------------------------- views */
static SEXP r_slot(SEXP X, const char *name)
{
    return R_do_slot(X, Rf_install(name));
}

/* A view of a base double matrix or a dgCMatrix; no copy. Slot lengths are
   checked here (the core cannot see them); their contents by the core. */
static void r_view(SEXP X, as_matrix *A, const char *what)
{
    if (Rf_isReal(X) && Rf_isMatrix(X)) {
        as_view_dense(A, Rf_nrows(X), Rf_ncols(X), REAL(X), Rf_nrows(X));
        return;
    }
    if (IS_S4_OBJECT(X) && Rf_inherits(X, "dgCMatrix")) {
        SEXP dim = r_slot(X, "Dim"), p = r_slot(X, "p"), i = r_slot(X, "i"), x = r_slot(X, "x");
        R_xlen_t d, nz;
        if (TYPEOF(dim) != INTSXP || XLENGTH(dim) != 2 || INTEGER(dim)[0] < 0 || INTEGER(dim)[1] < 0)
            Rf_errorcall(R_NilValue, "%s: malformed dgCMatrix: 'Dim' must be two non-negative integers", what);
        d = INTEGER(dim)[1];
        if (TYPEOF(p) != INTSXP || XLENGTH(p) != d + 1)
            Rf_errorcall(R_NilValue, "%s: malformed dgCMatrix: slot 'p' must be an integer vector of length ncol + 1 = %lld",
                         what, (long long)(d + 1));
        nz = INTEGER(p)[d];
        if (TYPEOF(i) != INTSXP || TYPEOF(x) != REALSXP || nz < 0 || XLENGTH(i) != nz || XLENGTH(x) != nz)
            Rf_errorcall(R_NilValue, "%s: malformed dgCMatrix: slots 'i' and 'x' must be integer and double of length p[ncol + 1] = %lld",
                         what, (long long)nz);
        as_view_csc32(A, INTEGER(dim)[0], d, INTEGER(p), INTEGER(i), REAL(x));
        return;
    }
    Rf_errorcall(R_NilValue, "%s must be a double matrix or a dgCMatrix", what);
}

static void r_check(const as_matrix *A, as_common *c)
{
    if (as_matrix_check(A, c) != AS_OK) r_raise(c);
}

/* Choices of 'probabilities', at the positions of the core's AS_PROB_*. */
static const char *const r_prob_names[] = {"leverage", "uniform", "norm", "mixed", "auto", NULL};
/* Choices of 'sampling', at the positions of AS_SAMPLING_*. */
static const char *const r_sampling_names[] = {"iid", "poisson", NULL};

/* ---------------------------------------------------------------- results */
typedef struct {
    const as_matrix *X, *K;   /* K: the keys of Q != K (YK), else NULL */
    as_sample *S;
    as_common *c;
} r_wrap_args;

static void r_wrap_cleanup(void *data)
{
    r_wrap_args *w = data;
    as_sample_free(w->S, w->c);
}

/* Y = X(:, index) diag(weight): a base matrix, or the slots of a dgCMatrix. */
static SEXP r_select(const as_matrix *X, const as_sample *S, as_common *c)
{
    int64_t k = S->k;
    SEXP Y;
    if (X->kind == AS_DENSE) {
        Y = PROTECT(Rf_allocMatrix(REALSXP, (int)X->nrow, (int)k));
        as_select_dense(X, k, S->index, S->weight, REAL(Y), c);
    } else {
        const char *ynames[] = {"p", "i", "x", ""};
        int64_t nz = as_select_nnz(X, k, S->index);
        Y = PROTECT(Rf_mkNamed(VECSXP, ynames));
        SET_VECTOR_ELT(Y, 0, Rf_allocVector(INTSXP, k + 1));
        SET_VECTOR_ELT(Y, 1, Rf_allocVector(INTSXP, nz));
        SET_VECTOR_ELT(Y, 2, Rf_allocVector(REALSXP, nz));
        as_select_csc32(X, k, S->index, S->weight, INTEGER(VECTOR_ELT(Y, 0)),
                        INTEGER(VECTOR_ELT(Y, 1)), REAL(VECTOR_ELT(Y, 2)), c);
    }
    UNPROTECT(1);
    return Y;
}

static SEXP r_wrap_body(void *data)
{
    r_wrap_args *w = data;
    const as_sample *S = w->S;
    const as_matrix *X = w->X;
    const char *names[] = {"index", "weight", "m", "k", "rank", "s1", "s", "s2", "eps_bound", "Y",
                           "rel_estimate", "inf_estimate", "rounds", "probabilities", "sampling", "YK", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names)), index, weight;
    int64_t t, k = S->k;

    index = Rf_allocVector(INTSXP, k);
    SET_VECTOR_ELT(out, 0, index);
    weight = Rf_allocVector(REALSXP, k);
    SET_VECTOR_ELT(out, 1, weight);
    for (t = 0; t < k; t++) {
        INTEGER(index)[t] = (int)(S->index[t] + 1);
        REAL(weight)[t] = S->weight[t];
    }
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)S->m));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)k));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)S->rank));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal((double)S->s1));
    SET_VECTOR_ELT(out, 6, Rf_ScalarReal((double)S->s));
    SET_VECTOR_ELT(out, 7, Rf_ScalarReal((double)S->s2));
    SET_VECTOR_ELT(out, 8, Rf_ScalarReal(S->eps_bound));
    SET_VECTOR_ELT(out, 10, Rf_ScalarReal(S->rel_estimate));
    SET_VECTOR_ELT(out, 11, Rf_ScalarReal(S->inf_estimate));
    SET_VECTOR_ELT(out, 12, Rf_ScalarReal((double)S->rounds));
    SET_VECTOR_ELT(out, 13, Rf_mkString(r_prob_names[S->probabilities]));
    SET_VECTOR_ELT(out, 14, Rf_mkString(r_sampling_names[S->sampling]));
    SET_VECTOR_ELT(out, 9, r_select(X, S, w->c));
    if (w->K) SET_VECTOR_ELT(out, 15, r_select(w->K, S, w->c));
    UNPROTECT(1);
    return out;
}

/* Copy a sample into R objects; the core's arrays are freed on every exit. */
static SEXP r_wrap(const as_matrix *X, const as_matrix *K, as_sample *S, as_common *c)
{
    r_wrap_args w;
    w.X = X;
    w.K = K;
    w.S = S;
    w.c = c;
    return R_ExecWithCleanup(r_wrap_body, &w, r_wrap_cleanup, &w);
}

static int r_choice(SEXP opts, const char *name, const char *const *choices, int dflt)
{
    SEXP v = r_opt(opts, name);
    int t;
    if (v == R_NilValue) return dflt;
    if (!Rf_isString(v) || XLENGTH(v) != 1)
        Rf_errorcall(R_NilValue, "'%s' must be a single string", name);
    for (t = 0; choices[t] != NULL; t++)
        if (strcmp(CHAR(STRING_ELT(v, 0)), choices[t]) == 0) return t;
    Rf_errorcall(R_NilValue, "'%s' must be one of the documented choices, got \"%s\"", name,
                 CHAR(STRING_ELT(v, 0)));
    return dflt;
}

static void r_rand_options(SEXP opts, as_rand_options *o)
{
    static const char *const lev[] = {"approx", "exact", NULL};
    static const char *const jl[] = {"gaussian", "ams", NULL};
    double seed;
    as_rand_options_init(o);
    o->m = r_opt_i64(opts, "m", 0);
    o->eps = r_opt_num(opts, "eps", o->eps);
    o->delta = r_opt_num(opts, "delta", o->delta);
    o->beta = r_opt_num(opts, "beta", o->beta);
    seed = r_opt_num(opts, "seed", 0);
    if (!(seed >= 0 && seed < 9007199254740992.0) || seed != (double)(int64_t)seed)
        Rf_errorcall(R_NilValue, "'seed' must be a whole number in [0, 2^53)");
    o->seed = (uint64_t)seed;
    o->probabilities = r_choice(opts, "probabilities", r_prob_names, o->probabilities);
    o->leverage = r_choice(opts, "leverage", lev, o->leverage);
    o->jl = r_choice(opts, "jl", jl, o->jl);
    o->s1 = r_opt_i64(opts, "s1", 0);
    o->s = r_opt_i64(opts, "s", 0);
    o->s2 = r_opt_i64(opts, "s2", 0);
    o->mem_mb = r_opt_num(opts, "memory", 0);
    o->sampling = r_choice(opts, "sampling", r_sampling_names, o->sampling);
    o->estimate = (int)r_opt_num(opts, "estimate", o->estimate);
    o->rel = r_opt_num(opts, "rel", o->rel);
}

/* ---------------------------------------------------------------- entry points */
/* The input of rand and det: X, or the stacked [X; K] when opts holds K. */
static const as_matrix *r_input(SEXP X, SEXP opts, as_matrix *A, as_matrix *B, as_matrix *Z)
{
    SEXP K = r_opt(opts, "K");
    r_view(X, A, "X");
    if (K == R_NilValue) return A;
    r_view(K, B, "K");
    as_view_stacked(Z, A, B);
    return Z;
}

SEXP as_r_rand(SEXP X, SEXP opts)
{
    as_matrix A, B, Z;
    const as_matrix *in = r_input(X, opts, &A, &B, &Z);
    as_common c;
    as_rand_options o;
    as_sample S;
    r_common(&c, opts);
    r_rand_options(opts, &o);
    if (as_rand(in, &o, &S, &c) != AS_OK) r_raise(&c);
    return r_wrap(&A, in == &Z ? &B : NULL, &S, &c);
}

SEXP as_r_det(SEXP X, SEXP opts)
{
    static const char *const search[] = {"tree", "scan", NULL};
    as_matrix A, B, Z;
    const as_matrix *in = r_input(X, opts, &A, &B, &Z);
    as_common c;
    as_det_options o;
    as_sample S;
    r_common(&c, opts);
    as_det_options_init(&o);
    o.eps = r_opt_num(opts, "eps", o.eps);
    o.leaf = r_opt_i64(opts, "leaf", o.leaf);
    o.mem_mb = r_opt_num(opts, "memory", o.mem_mb);
    o.search = r_choice(opts, "search", search, o.search);
    if (as_det(in, &o, &S, &c) != AS_OK) r_raise(&c);
    if (as_sample_check_finite(in, &S, &c) != AS_OK) {
        as_sample_free(&S, &c);
        r_raise(&c);
    }
    return r_wrap(&A, in == &Z ? &B : NULL, &S, &c);
}

static SEXP r_metrics(const as_metrics *M)
{
    const char *names[] = {"inf", "rel", "baseline", "r", "eps_spectral", "bound", ""};
    SEXP out = PROTECT(Rf_mkNamed(REALSXP, names));
    REAL(out)[0] = M->inf;
    REAL(out)[1] = M->rel;
    REAL(out)[2] = M->baseline;
    REAL(out)[3] = M->r;
    REAL(out)[4] = M->eps_spectral;
    REAL(out)[5] = M->bound;
    UNPROTECT(1);
    return out;
}

/* 0-based column numbers from R's 1-based index (weights of one length). */
static int64_t *r_index(SEXP index, SEXP weight, int64_t ncol)
{
    R_xlen_t t, k = XLENGTH(index);
    int64_t *idx;
    if (TYPEOF(index) != INTSXP || TYPEOF(weight) != REALSXP || XLENGTH(weight) != k)
        Rf_errorcall(R_NilValue, "'index' and 'weight' must be integer and double vectors of one length");
    idx = (int64_t *)R_alloc((size_t)(k ? k : 1), sizeof(int64_t));
    for (t = 0; t < k; t++) {
        int j = INTEGER(index)[t];
        if (j == NA_INTEGER || j < 1 || j > ncol)
            Rf_errorcall(R_NilValue, "'index' must hold column numbers in [1, %lld]", (long long)ncol);
        idx[t] = j - 1;
    }
    return idx;
}

SEXP as_r_error(SEXP X, SEXP index, SEXP weight, SEXP spectral, SEXP threads)
{
    as_matrix A;
    as_common c;
    as_metrics M;
    int64_t *idx;
    r_view(X, &A, "X");
    r_common_threads(&c, Rf_asInteger(threads));
    idx = r_index(index, weight, A.ncol);
    if (as_attention_error(&A, XLENGTH(index), idx, REAL(weight), Rf_asLogical(spectral), &M, &c) != AS_OK)
        r_raise(&c);
    return r_metrics(&M);
}

SEXP as_r_error_xy(SEXP X, SEXP Y, SEXP spectral, SEXP threads)
{
    as_matrix A, B;
    as_common c;
    as_metrics M;
    SEXP G, H;
    int64_t n;
    r_view(X, &A, "X");
    r_view(Y, &B, "Y");
    r_common_threads(&c, Rf_asInteger(threads));
    r_check(&A, &c);
    n = A.nrow;
    if (B.nrow != n)
        Rf_errorcall(R_NilValue, "'Y' must have as many rows as 'X' (%lld), not %lld",
                     (long long)n, (long long)B.nrow);
    G = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)n));
    H = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)n));
    if (B.ncol == 0) memset(REAL(H), 0, sizeof(double) * (size_t)(n * n));
    else {
        if (as_matrix_check_named(&B, "Y", &c) != AS_OK) r_raise(&c);
        if (as_gram(&B, -1, NULL, NULL, REAL(H), &c) != AS_OK) r_raise(&c);
    }
    if (as_gram(&A, -1, NULL, NULL, REAL(G), &c) != AS_OK ||
        as_compare_gram(n, REAL(G), REAL(H), Rf_asLogical(spectral), &M, &c) != AS_OK)
        r_raise(&c);
    UNPROTECT(2);
    return r_metrics(&M);
}

SEXP as_r_softmax(SEXP X, SEXP threads)
{
    as_matrix A;
    as_common c;
    SEXP G, Att;
    r_view(X, &A, "X");
    r_common_threads(&c, Rf_asInteger(threads));
    r_check(&A, &c);
    G = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)A.nrow));
    Att = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)A.nrow));
    if (as_gram(&A, -1, NULL, NULL, REAL(G), &c) != AS_OK ||
        as_gram_finite(A.nrow, REAL(G), "X", &c) != AS_OK) r_raise(&c);
    as_softmax(A.nrow, REAL(G), REAL(Att));
    UNPROTECT(2);
    return Att;
}

SEXP as_r_leverage(SEXP X, SEXP opts)
{
    as_matrix A;
    as_common c;
    as_rand_options o;
    SEXP scores;
    int64_t rank = 0;
    r_view(X, &A, "X");
    r_common(&c, opts);
    r_rand_options(opts, &o);
    scores = PROTECT(Rf_allocVector(REALSXP, A.ncol > 0 ? A.ncol : 0));
    if (as_leverage(&A, &o, REAL(scores), &rank, &c) != AS_OK) r_raise(&c);
    Rf_setAttrib(scores, Rf_install("rank"), Rf_ScalarReal((double)rank));
    UNPROTECT(1);
    return scores;
}

SEXP as_r_example(SEXP n, SEXP d, SEXP r, SEXP seed)
{
    as_common c;
    double nn = Rf_asReal(n), dd = Rf_asReal(d);
    SEXP X;
    as_common_init(&c);
    if (!(nn >= 1 && dd >= 1 && nn <= 1e5 && dd <= 2147483647.0 && nn * dd <= 4e9))
        Rf_errorcall(R_NilValue, "'n' and 'd' must be at least 1 with n * d at most 4e9");
    X = PROTECT(Rf_allocMatrix(REALSXP, (int)nn, (int)dd));
    if (as_example((int64_t)nn, (int64_t)dd, Rf_asReal(r), (uint64_t)Rf_asReal(seed), REAL(X), &c) != AS_OK)
        r_raise(&c);
    UNPROTECT(1);
    return X;
}

SEXP as_r_default_m(SEXP rank, SEXP eps, SEXP delta, SEXP beta)
{
    return Rf_ScalarReal(as_default_m((int64_t)Rf_asReal(rank), Rf_asReal(eps),
                                      Rf_asReal(delta), Rf_asReal(beta)));
}

SEXP as_r_gram(SEXP X, SEXP threads)
{
    as_matrix A;
    as_common c;
    SEXP G;
    r_view(X, &A, "X");
    r_common_threads(&c, Rf_asInteger(threads));
    r_check(&A, &c);
    G = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)A.nrow));
    if (as_gram(&A, -1, NULL, NULL, REAL(G), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return G;
}

/* ---------------------------------------------------------------- Q != K */
/* V: a double matrix with nrow(K) rows, or NULL. */
static const double *r_values(SEXP V, int64_t n2, int64_t *dv)
{
    *dv = 0;
    if (V == R_NilValue) return NULL;
    if (!Rf_isReal(V) || !Rf_isMatrix(V))
        Rf_errorcall(R_NilValue, "'V' must be a double matrix");
    if (Rf_nrows(V) != n2)
        Rf_errorcall(R_NilValue, "'V' must have as many rows as 'K' has (%lld), not %d", (long long)n2,
                     Rf_nrows(V));
    *dv = Rf_ncols(V);
    return REAL(V);
}

SEXP as_r_qk_error(SEXP X, SEXP K, SEXP V, SEXP index, SEXP weight, SEXP spectral, SEXP threads)
{
    const char *names[] = {"inf", "rel", "baseline", "r", "eps_spectral", "bound", "out_error",
                           "out_rel_error", ""};
    as_matrix A, B, Z;
    as_common c;
    as_qk_metrics M;
    const double *v;
    int64_t *idx, dv;
    SEXP out;
    r_view(X, &A, "X");
    r_view(K, &B, "K");
    as_view_stacked(&Z, &A, &B);
    r_common_threads(&c, Rf_asInteger(threads));
    v = r_values(V, B.nrow, &dv);
    idx = r_index(index, weight, A.ncol);
    if (as_qk_error(&Z, XLENGTH(index), idx, REAL(weight), v, dv, Rf_asLogical(spectral), &M, &c) != AS_OK)
        r_raise(&c);
    out = PROTECT(Rf_mkNamed(REALSXP, names));
    REAL(out)[0] = M.att.inf;
    REAL(out)[1] = M.att.rel;
    REAL(out)[2] = M.att.baseline;
    REAL(out)[3] = M.att.r;
    REAL(out)[4] = M.att.eps_spectral;
    REAL(out)[5] = M.att.bound;
    REAL(out)[6] = M.out_error;
    REAL(out)[7] = M.out_rel_error;
    UNPROTECT(1);
    return out;
}

SEXP as_r_attention(SEXP Q, SEXP K, SEXP V, SEXP threads)
{
    as_matrix A, B;
    as_common c;
    const double *v;
    int64_t dv;
    SEXP out;
    r_view(Q, &A, "Q");
    r_view(K, &B, "K");
    r_common_threads(&c, Rf_asInteger(threads));
    v = r_values(V, B.nrow, &dv);
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)(v ? dv : B.nrow)));
    if (as_attention_qkv(&A, &B, v, dv, REAL(out), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return out;
}
