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

/* The context for a call: R's interrupt and print hooks. */
void r_common(as_common *c)
{
    as_common_init(c);
    c->interrupt_fn = r_interrupt;
    c->print_fn = r_print;
}


/* The options of `call` (one AS_FOR_*), a named list, into o and c by name:
   the core's table says what each is; here only R's types are read (a
   logical for a flag, a number for a number, a string for a choice; NULL:
   the default). */
void r_set_options(unsigned call, void *o, SEXP opts, as_common *c)
{
    SEXP names = Rf_getAttrib(opts, R_NamesSymbol);
    R_xlen_t t;
    char expect[160];
    if (TYPEOF(opts) != VECSXP || (XLENGTH(opts) > 0 && names == R_NilValue))
        Rf_errorcall(R_NilValue, "further options must be named, e.g. threads = 2");
    for (t = 0; t < XLENGTH(opts); t++) {
        const char *name = CHAR(STRING_ELT(names, t));
        SEXP v = VECTOR_ELT(opts, t);
        const as_option *op;
        int st, one;
        /* K and V (the keys and values of Q != K) are inputs beside X (r_read_inputs) */
        if (v == R_NilValue || strcmp(name, "K") == 0 || strcmp(name, "V") == 0) continue;
        one = XLENGTH(v) == 1;
        if (as_option_lookup(name, call, &op, c) != AS_OK) r_raise(c);
        if (op->kind == AS_OPT_FLAG) {
            if (!Rf_isLogical(v) || !one || LOGICAL(v)[0] == NA_LOGICAL)
                Rf_errorcall(R_NilValue, "'%s' must be TRUE or FALSE", name);
            st = as_options_set(call, o, name, (double)LOGICAL(v)[0], NULL, c);
        } else if (op->kind == AS_OPT_CHOICE) {
            if (!Rf_isString(v) || !one || STRING_ELT(v, 0) == NA_STRING)
                Rf_errorcall(R_NilValue, "'%s' must be a single string: %s", name,
                             as_option_expect(op, expect, sizeof expect));
            st = as_options_set(call, o, name, 0, CHAR(STRING_ELT(v, 0)), c);
        } else {
            if (!(Rf_isReal(v) || Rf_isInteger(v)) || Rf_isFactor(v) || !one ||
                (Rf_isReal(v) && ISNA(REAL(v)[0])) || (Rf_isInteger(v) && INTEGER(v)[0] == NA_INTEGER))
                Rf_errorcall(R_NilValue, "'%s' must be a single number: %s", name,
                             as_option_expect(op, expect, sizeof expect));
            st = as_options_set(call, o, name, Rf_asReal(v), NULL, c);
        }
        if (st != AS_OK) r_raise(c);
    }
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

/* The name of a choice the core made (probabilities, sampling). */
static SEXP r_choice_name(const char *option, int pos)
{
    char buf[64];
    return Rf_mkString(as_option_choice(as_option_find(option, AS_FOR_RAND), pos, buf, sizeof buf));
}

/* Y[, t] = weight[t] * X[, index[t]], with X's row names and the names of the
   columns kept: a base matrix, or a dgCMatrix (made here, as Matrix does). */
static SEXP r_make_y(SEXP Xr, const as_matrix *X, const as_sample *S, const as_common *c)
{
    int64_t t, k = S->k, n = X->nrow;
    int sparse = X->kind != AS_DENSE, nprot = 0;
    SEXP Y, dn, rn = R_NilValue, cn = R_NilValue, cnk = R_NilValue, ydn;
    dn = sparse ? R_do_slot(Xr, Rf_install("Dimnames")) : Rf_getAttrib(Xr, R_DimNamesSymbol);
    if (dn != R_NilValue) {
        rn = VECTOR_ELT(dn, 0);
        cn = VECTOR_ELT(dn, 1);
    }
    if (cn != R_NilValue) {
        cnk = PROTECT(Rf_allocVector(STRSXP, k)); nprot++;
        for (t = 0; t < k; t++) SET_STRING_ELT(cnk, t, STRING_ELT(cn, S->index[t]));
    }
    ydn = PROTECT(Rf_allocVector(VECSXP, 2)); nprot++;
    SET_VECTOR_ELT(ydn, 0, rn);
    SET_VECTOR_ELT(ydn, 1, cnk);
    if (!sparse) {
        Y = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)k)); nprot++;
        as_select_dense(X, k, S->index, S->weight, REAL(Y), c);
        if (rn != R_NilValue || cnk != R_NilValue) Rf_setAttrib(Y, R_DimNamesSymbol, ydn);
    } else {
        int64_t nz = as_select_nnz(X, k, S->index);
        SEXP p, i, x, dim;
        Y = PROTECT(R_do_new_object(PROTECT(R_do_MAKE_CLASS("dgCMatrix")))); nprot += 2;
        p = PROTECT(Rf_allocVector(INTSXP, k + 1)); nprot++;
        i = PROTECT(Rf_allocVector(INTSXP, nz)); nprot++;
        x = PROTECT(Rf_allocVector(REALSXP, nz)); nprot++;
        dim = PROTECT(Rf_allocVector(INTSXP, 2)); nprot++;
        as_select_csc32(X, k, S->index, S->weight, INTEGER(p), INTEGER(i), REAL(x), c);
        INTEGER(dim)[0] = (int)n;
        INTEGER(dim)[1] = (int)k;
        R_do_slot_assign(Y, Rf_install("Dim"), dim);
        R_do_slot_assign(Y, Rf_install("Dimnames"), ydn);
        R_do_slot_assign(Y, Rf_install("p"), p);
        R_do_slot_assign(Y, Rf_install("i"), i);
        R_do_slot_assign(Y, Rf_install("x"), x);
    }
    UNPROTECT(nprot);
    return Y;
}

SEXP r_metrics(const as_metrics *M)
{
    const char *names[] = {"inf", "rel", "baseline", "r", "eps_spectral", "bound", ""};
    const double v[6] = {M->inf, M->rel, M->baseline, M->r, M->eps_spectral, M->bound};
    SEXP out = PROTECT(Rf_mkNamed(REALSXP, names));
    int t;
    /* not computed: R's NA */
    for (t = 0; t < 6; t++) REAL(out)[t] = ISNAN(v[t]) ? NA_REAL : v[t];
    UNPROTECT(1);
    return out;
}

/* ---------------------------------------------------------------- results */
typedef struct {
    SEXP Xr, Kr;                /* Kr: the keys of Q != K (YK), else R_NilValue */
    const as_matrix *X, *K;
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
    const char *names[] = {"Y", "index", "weight", "m", "k", "rank", "s1", "s", "s2", "eps_bound",
                           "rel_estimate", "inf_estimate", "rounds", "probabilities", "sampling",
                           "b", "max_columns", "time", "error_time", "metrics", "YK",
                           "steps", "presample_k", "presample_eps", "eps_composed", "beta",
                           "out_error", "out_rel_error", "eps_target", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, names)), index, weight;
    int64_t t, k = S->k;

    SET_VECTOR_ELT(out, 0, r_make_y(w->Xr, w->X, S, w->c));
    index = Rf_allocVector(INTSXP, k);
    SET_VECTOR_ELT(out, 1, index);
    weight = Rf_allocVector(REALSXP, k);
    SET_VECTOR_ELT(out, 2, weight);
    for (t = 0; t < k; t++) {
        INTEGER(index)[t] = (int)(S->index[t] + 1);
        REAL(weight)[t] = S->weight[t];
    }
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)S->m));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)k));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal((double)S->rank));
    SET_VECTOR_ELT(out, 6, Rf_ScalarReal((double)S->s1));
    SET_VECTOR_ELT(out, 7, Rf_ScalarReal((double)S->s));
    SET_VECTOR_ELT(out, 8, Rf_ScalarReal((double)S->s2));
    SET_VECTOR_ELT(out, 9, Rf_ScalarReal(S->eps_bound));
    SET_VECTOR_ELT(out, 10, Rf_ScalarReal(S->rel_estimate));
    SET_VECTOR_ELT(out, 11, Rf_ScalarReal(S->inf_estimate));
    SET_VECTOR_ELT(out, 12, Rf_ScalarReal((double)S->rounds));
    SET_VECTOR_ELT(out, 13, r_choice_name("probabilities", S->probabilities));
    SET_VECTOR_ELT(out, 14, r_choice_name("sampling", S->sampling));
    SET_VECTOR_ELT(out, 15, Rf_ScalarReal(S->b));
    SET_VECTOR_ELT(out, 16, Rf_ScalarReal((double)S->max_columns));
    SET_VECTOR_ELT(out, 17, Rf_ScalarReal(S->time));
    SET_VECTOR_ELT(out, 18, Rf_ScalarReal(S->error_time));
    SET_VECTOR_ELT(out, 19, r_metrics(&S->metrics));
    if (w->K) SET_VECTOR_ELT(out, 20, r_make_y(w->Kr, w->K, S, w->c));
    SET_VECTOR_ELT(out, 21, Rf_ScalarReal((double)S->steps));
    SET_VECTOR_ELT(out, 22, Rf_ScalarReal((double)S->presample_k));
    SET_VECTOR_ELT(out, 23, Rf_ScalarReal(S->presample_eps));
    SET_VECTOR_ELT(out, 24, Rf_ScalarReal(S->eps_composed));
    SET_VECTOR_ELT(out, 25, Rf_ScalarReal(S->beta));
    SET_VECTOR_ELT(out, 26, Rf_ScalarReal(ISNAN(S->out_error) ? NA_REAL : S->out_error));
    SET_VECTOR_ELT(out, 27, Rf_ScalarReal(ISNAN(S->out_rel_error) ? NA_REAL : S->out_rel_error));
    SET_VECTOR_ELT(out, 28, Rf_ScalarReal(ISNAN(S->eps_target) ? NA_REAL : S->eps_target));
    UNPROTECT(1);
    return out;
}

/* Copy a sample into R objects; the core's arrays are freed on every exit. */
static SEXP r_wrap(SEXP Xr, const as_matrix *X, SEXP Kr, const as_matrix *K, as_sample *S, as_common *c)
{
    r_wrap_args w;
    w.Xr = Xr;
    w.Kr = Kr;
    w.X = X;
    w.K = K;
    w.S = S;
    w.c = c;
    return R_ExecWithCleanup(r_wrap_body, &w, r_wrap_cleanup, &w);
}

/* ---------------------------------------------------------------- entry points */
/* The element `name` of the named list opts, or R_NilValue. */
static SEXP r_opt(SEXP opts, const char *name)
{
    SEXP names = Rf_getAttrib(opts, R_NamesSymbol);
    R_xlen_t t;
    if (TYPEOF(opts) != VECSXP || names == R_NilValue) return R_NilValue;
    for (t = 0; t < XLENGTH(opts); t++)
        if (strcmp(CHAR(STRING_ELT(names, t)), name) == 0) return VECTOR_ELT(opts, t);
    return R_NilValue;
}

static const double *r_values(SEXP V, int64_t n2, int64_t *dv);

/* The inputs of rand and det: X, and the keys K and values V when opts holds
   them (K NULL and V NULL otherwise). */
typedef struct {
    as_matrix X, Kv;
    const as_matrix *K;
    const double *V;
    int64_t dv;
} r_inputs;

static void r_read_inputs(SEXP X, SEXP opts, r_inputs *in)
{
    SEXP K = r_opt(opts, "K");
    r_view(X, &in->X, "X");
    in->K = NULL;
    if (K != R_NilValue) {
        r_view(K, &in->Kv, "K");
        in->K = &in->Kv;
    }
    in->V = r_values(r_opt(opts, "V"), in->K ? in->K->nrow : in->X.nrow, &in->dv);
}

SEXP as_r_rand(SEXP X, SEXP opts)
{
    r_inputs in;
    as_common c;
    as_rand_options o;
    as_sample S;
    r_read_inputs(X, opts, &in);
    r_common(&c);
    as_rand_options_init(&o);
    r_set_options(AS_FOR_RAND, &o, opts, &c);
    if (as_rand_qkv(&in.X, in.K, in.V, in.dv, &o, &S, &c) != AS_OK) r_raise(&c);
    return r_wrap(X, &in.X, r_opt(opts, "K"), in.K, &S, &c);
}

SEXP as_r_det(SEXP X, SEXP opts)
{
    r_inputs in;
    as_common c;
    as_det_options o;
    as_sample S;
    r_read_inputs(X, opts, &in);
    r_common(&c);
    as_det_options_init(&o);
    r_set_options(AS_FOR_DET, &o, opts, &c);
    if (as_det_qkv(&in.X, in.K, in.V, in.dv, &o, &S, &c) != AS_OK) r_raise(&c);
    return r_wrap(X, &in.X, r_opt(opts, "K"), in.K, &S, &c);
}

SEXP as_r_error_xy(SEXP X, SEXP Y, SEXP opts)
{
    as_matrix A, B;
    as_common c;
    as_metrics_options o;
    as_metrics M;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_METRICS, &o, opts, &c);
    r_view(X, &A, "X");
    r_view(Y, &B, "Y");
    if (as_attention_error_xy(&A, &B, &o, &M, &c) != AS_OK) r_raise(&c);
    return r_metrics(&M);
}

SEXP as_r_softmax(SEXP X, SEXP opts)
{
    as_matrix A;
    as_common c;
    as_metrics_options o;
    SEXP Att;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_GRAM, &o, opts, &c);
    r_view(X, &A, "X");
    r_check(&A, &c);   /* before the n x n result is allocated */
    Att = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)A.nrow));
    if (as_sym_attention(&A, REAL(Att), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return Att;
}

SEXP as_r_leverage(SEXP X, SEXP opts)
{
    as_matrix A;
    as_common c;
    as_rand_options o;
    SEXP scores;
    int64_t rank = 0;
    r_common(&c);
    as_rand_options_init(&o);
    r_set_options(AS_FOR_LEVERAGE, &o, opts, &c);
    r_view(X, &A, "X");
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

SEXP as_r_gram(SEXP X, SEXP opts)
{
    as_matrix A;
    as_common c;
    as_metrics_options o;
    SEXP G;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_GRAM, &o, opts, &c);
    r_view(X, &A, "X");
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

SEXP as_r_attention(SEXP Q, SEXP K, SEXP V, SEXP opts)
{
    as_matrix A, B;
    as_common c;
    as_metrics_options o;
    const double *v;
    int64_t dv;
    SEXP out;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_GRAM, &o, opts, &c);
    r_view(Q, &A, "Q");
    r_view(K, &B, "K");
    v = r_values(V, B.nrow, &dv);
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)(v ? dv : B.nrow)));
    if (as_attention_qkv(&A, &B, v, dv, REAL(out), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return out;
}

/* ---------------------------------------------------------------- the option table */
/* The rows of the core's option table of one call ("rand" or "det"): name,
   kind, default and choices, for tests that sweep every option. */
SEXP as_r_option_table(SEXP call)
{
    const char *names[] = {"name", "kind", "default", "choices", ""};
    const char *kinds[] = {"real", "whole", "flag", "choice"};
    const char *what = Rf_isString(call) && XLENGTH(call) == 1 ? CHAR(STRING_ELT(call, 0)) : "";
    unsigned mask = strcmp(what, "rand") == 0 ? AS_FOR_RAND : strcmp(what, "det") == 0 ? AS_FOR_DET : 0;
    int t, nrow = 0, at = 0;
    SEXP out, name, kind, dflt, choices;
    for (t = 0; t < as_option_count(); t++) nrow += (as_option_at(t)->calls & mask) != 0;
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, name = Rf_allocVector(STRSXP, nrow));
    SET_VECTOR_ELT(out, 1, kind = Rf_allocVector(STRSXP, nrow));
    SET_VECTOR_ELT(out, 2, dflt = Rf_allocVector(REALSXP, nrow));
    SET_VECTOR_ELT(out, 3, choices = Rf_allocVector(STRSXP, nrow));
    for (t = 0; t < as_option_count(); t++) {
        const as_option *op = as_option_at(t);
        if (!(op->calls & mask)) continue;
        SET_STRING_ELT(name, at, Rf_mkChar(op->name));
        SET_STRING_ELT(kind, at, Rf_mkChar(kinds[op->kind]));
        REAL(dflt)[at] = op->dflt;
        SET_STRING_ELT(choices, at, op->choices ? Rf_mkChar(op->choices) : NA_STRING);
        at++;
    }
    UNPROTECT(1);
    return out;
}
