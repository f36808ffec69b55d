/* rglue.c: the R front-end: no-copy views of R matrices and dgCMatrix slots, core calls, results as R objects. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Utils.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "attsparse.h"
#include "rglue.h"

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
void r_common_threads(as_common *c, int threads)
{
    as_common_init(c);
    c->interrupt_fn = r_interrupt;
    c->print_fn = r_print;
    c->nthreads = threads;
}

void r_common(as_common *c, SEXP opts)
{
    r_common_threads(c, (int)r_opt_num(opts, "threads", 0));
    c->verbose = (int)r_opt_num(opts, "verbose", 0);
}

void r_raise(const as_common *c)
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
void r_view(SEXP X, as_matrix *A, const char *what)
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
    const as_matrix *X;
    as_sample *S;
    as_common *c;
} r_wrap_args;

static void r_wrap_cleanup(void *data)
{
    r_wrap_args *w = data;
    as_sample_free(w->S, w->c);
}

static SEXP r_wrap_body(void *data)
{
    r_wrap_args *w = data;
    const as_sample *S = w->S;
    const as_matrix *X = w->X;
    const char *names[] = {"index", "weight", "m", "k", "rank", "s1", "s", "s2", "eps_bound", "Y",
                           "rel_estimate", "inf_estimate", "rounds", "probabilities", "sampling", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names)), index, weight, Y;
    int64_t t, k = S->k, n = X->nrow;

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
    if (X->kind == AS_DENSE) {
        Y = Rf_allocMatrix(REALSXP, (int)n, (int)k);
        SET_VECTOR_ELT(out, 9, Y);
        as_select_dense(X, k, S->index, S->weight, REAL(Y), w->c);
    } else {
        const char *ynames[] = {"p", "i", "x", ""};
        int64_t nz = as_select_nnz(X, k, S->index);
        Y = Rf_mkNamed(VECSXP, ynames);
        SET_VECTOR_ELT(out, 9, Y);
        SET_VECTOR_ELT(Y, 0, Rf_allocVector(INTSXP, k + 1));
        SET_VECTOR_ELT(Y, 1, Rf_allocVector(INTSXP, nz));
        SET_VECTOR_ELT(Y, 2, Rf_allocVector(REALSXP, nz));
        as_select_csc32(X, k, S->index, S->weight, INTEGER(VECTOR_ELT(Y, 0)),
                        INTEGER(VECTOR_ELT(Y, 1)), REAL(VECTOR_ELT(Y, 2)), w->c);
    }
    UNPROTECT(1);
    return out;
}

/* Copy a sample into R objects; the core's arrays are freed on every exit. */
static SEXP r_wrap(const as_matrix *X, as_sample *S, as_common *c)
{
    r_wrap_args w;
    w.X = X;
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

void r_rand_options(SEXP opts, as_rand_options *o)
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
SEXP as_r_rand(SEXP X, SEXP opts)
{
    as_matrix A;
    as_common c;
    as_rand_options o;
    as_sample S;
    r_view(X, &A, "X");
    r_common(&c, opts);
    r_rand_options(opts, &o);
    if (as_rand(&A, &o, &S, &c) != AS_OK) r_raise(&c);
    return r_wrap(&A, &S, &c);
}

SEXP as_r_det(SEXP X, SEXP opts)
{
    static const char *const search[] = {"tree", "scan", NULL};
    as_matrix A;
    as_common c;
    as_det_options o;
    as_sample S;
    r_view(X, &A, "X");
    r_common(&c, opts);
    as_det_options_init(&o);
    o.eps = r_opt_num(opts, "eps", o.eps);
    o.leaf = r_opt_i64(opts, "leaf", o.leaf);
    o.mem_mb = r_opt_num(opts, "memory", o.mem_mb);
    o.search = r_choice(opts, "search", search, o.search);
    if (as_det(&A, &o, &S, &c) != AS_OK) r_raise(&c);
    if (as_sample_check_finite(&A, &S, &c) != AS_OK) {
        as_sample_free(&S, &c);
        r_raise(&c);
    }
    return r_wrap(&A, &S, &c);
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

SEXP as_r_error(SEXP X, SEXP index, SEXP weight, SEXP spectral, SEXP threads)
{
    as_matrix A;
    as_common c;
    as_metrics M;
    R_xlen_t t, k = XLENGTH(index);
    int64_t *idx;
    r_view(X, &A, "X");
    r_common_threads(&c, Rf_asInteger(threads));
    if (TYPEOF(index) != INTSXP || TYPEOF(weight) != REALSXP || XLENGTH(weight) != k)
        Rf_errorcall(R_NilValue, "'index' and 'weight' must be integer and double vectors of one length");
    idx = (int64_t *)R_alloc((size_t)(k ? k : 1), sizeof(int64_t));
    for (t = 0; t < k; t++) {
        int j = INTEGER(index)[t];
        if (j == NA_INTEGER || j < 1 || j > A.ncol)
            Rf_errorcall(R_NilValue, "'index' must hold column numbers in [1, %lld]", (long long)A.ncol);
        idx[t] = j - 1;
    }
    if (as_attention_error(&A, k, idx, REAL(weight), Rf_asLogical(spectral), &M, &c) != AS_OK)
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
