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
static int r_print_stop;
static int r_interrupt(void *ctx)
{
    (void)ctx;
    if (r_print_stop) return 1;   /* an interrupt caught while a progress line was printed (r_print) */
    return R_ToplevelExec(r_check_interrupt, NULL) == FALSE;
}

/* Progress lines (verbose) through R's message(), so that suppressMessages() hides them. An interrupt
   or an error while it runs is caught here (R_tryCatch) and turned into the core's stop at its next
   interrupt check, instead of a jump over the core. */
static SEXP r_message_body(void *line)
{
    SEXP call = PROTECT(Rf_lang2(Rf_install("message"), Rf_mkString((const char *)line)));
    Rf_eval(call, R_BaseEnv);
    UNPROTECT(1);
    return R_NilValue;
}
static SEXP r_message_stop(SEXP cond, void *unused)
{
    (void)cond;
    (void)unused;
    r_print_stop = 1;
    return R_NilValue;
}
static void r_print(void *ctx, const char *line)
{
    SEXP conds;
    (void)ctx;
    conds = PROTECT(Rf_allocVector(STRSXP, 2));
    SET_STRING_ELT(conds, 0, Rf_mkChar("interrupt"));
    SET_STRING_ELT(conds, 1, Rf_mkChar("error"));
    R_tryCatch(r_message_body, (void *)line, conds, r_message_stop, NULL, NULL, NULL);
    UNPROTECT(1);
}

/* A seed the caller did not give comes from R's generator (runif's draw), so
   that set.seed() reproduces a run. */
static double r_unif(void *ctx)
{
    double u;
    (void)ctx;
    GetRNGstate();
    u = unif_rand();
    PutRNGstate();
    return u;
}

/* The context for a call: R's interrupt, print and generator hooks. */
void r_common(as_common *c)
{
    as_common_init(c);
    r_print_stop = 0;
    c->interrupt_fn = r_interrupt;
    c->print_fn = r_print;
    c->unif_fn = r_unif;
}


/* R's words for a value, for the core's messages about a value of the wrong
   kind ("NA", "\"abc\"", "a numeric vector of length 2", "a function"). */
static const char *r_describe(SEXP v, char *buf, size_t len)
{
    /* a function, an environment or an S4 object has no length to read */
    R_xlen_t n = Rf_isVector(v) ? XLENGTH(v) : 1;
    if (IS_S4_OBJECT(v)) {
        SEXP cl = Rf_getAttrib(v, R_ClassSymbol);
        snprintf(buf, len, "an object of class %s",
                 TYPEOF(cl) == STRSXP && XLENGTH(cl) > 0 ? CHAR(STRING_ELT(cl, 0)) : "S4");
    } else if (Rf_isFunction(v)) snprintf(buf, len, "a function");
    else if (Rf_isFactor(v)) snprintf(buf, len, "a factor");
    else if (TYPEOF(v) == VECSXP) snprintf(buf, len, "a list of length %lld", (long long)n);
    else if (TYPEOF(v) == ENVSXP) snprintf(buf, len, "an environment");
    else if (TYPEOF(v) == CPLXSXP) snprintf(buf, len, "a complex number");
    else if (TYPEOF(v) != LGLSXP && TYPEOF(v) != INTSXP && TYPEOF(v) != REALSXP && TYPEOF(v) != STRSXP)
        snprintf(buf, len, "an object of type %s", Rf_type2char(TYPEOF(v)));
    else if (n != 1)
        snprintf(buf, len, "a %s vector of length %lld", TYPEOF(v) == LGLSXP ? "logical" :
                 TYPEOF(v) == STRSXP ? "character" : "numeric", (long long)n);
    else if (TYPEOF(v) == STRSXP)
        snprintf(buf, len, STRING_ELT(v, 0) == NA_STRING ? "NA" : "\"%.64s\"", CHAR(STRING_ELT(v, 0)));
    else if ((TYPEOF(v) == LGLSXP && LOGICAL(v)[0] == NA_LOGICAL) ||
             (TYPEOF(v) == INTSXP && INTEGER(v)[0] == NA_INTEGER) || (TYPEOF(v) == REALSXP && ISNA(REAL(v)[0])))
        snprintf(buf, len, "NA");
    else if (TYPEOF(v) == REALSXP && ISNAN(REAL(v)[0])) snprintf(buf, len, "NaN");
    else if (TYPEOF(v) == LGLSXP) snprintf(buf, len, "%s", LOGICAL(v)[0] ? "TRUE" : "FALSE");
    else snprintf(buf, len, "%.17g", Rf_asReal(v));
    return buf;
}

/* An R value as the core's host value; what it is, the core decides. */
static void r_host_value(SEXP v, as_host_value *h, char *what, size_t len)
{
    int plain = !IS_S4_OBJECT(v) && !Rf_isFactor(v) && Rf_isVectorAtomic(v);
    h->length = plain ? (int64_t)XLENGTH(v) : 0;
    h->what = r_describe(v, what, len);
    h->text = NULL;
    h->number = NAN;
    h->type = AS_HOST_OTHER;
    if (!plain) return;
    switch (TYPEOF(v)) {
    case LGLSXP:
        h->type = AS_HOST_LOGICAL;
        if (h->length > 0 && LOGICAL(v)[0] != NA_LOGICAL) h->number = LOGICAL(v)[0];
        break;
    case INTSXP:
        h->type = AS_HOST_NUMBER;
        if (h->length > 0 && INTEGER(v)[0] != NA_INTEGER) h->number = INTEGER(v)[0];
        break;
    case REALSXP:
        h->type = AS_HOST_NUMBER;
        if (h->length > 0) h->number = REAL(v)[0];
        break;
    case STRSXP:
        h->type = AS_HOST_STRING;
        if (h->length > 0 && STRING_ELT(v, 0) != NA_STRING) h->text = CHAR(STRING_ELT(v, 0));
        break;
    default: break;
    }
}

/* The options of `call` (one AS_FOR_*), a named list, into o and c by name:
   names, kinds, ranges and repeats are the core's to check. NULL: the
   default. K and V are arguments of their own (as_r_method), never options. */
void r_set_options(unsigned call, void *o, SEXP opts, as_common *c)
{
    SEXP names = Rf_getAttrib(opts, R_NamesSymbol);
    R_xlen_t t;
    char what[160];
    if (TYPEOF(opts) != VECSXP || (XLENGTH(opts) > 0 && names == R_NilValue))
        Rf_errorcall(R_NilValue, "further options must be named, e.g. threads = 2");
    for (t = 0; t < XLENGTH(opts); t++) {
        const char *name = CHAR(STRING_ELT(names, t));
        SEXP v = VECTOR_ELT(opts, t);
        as_host_value h;
        if (*name == '\0') Rf_errorcall(R_NilValue, "further options must be named, e.g. threads = 2");
        if (v == R_NilValue) continue;
        r_host_value(v, &h, what, sizeof what);
        if (as_options_put(call, o, name, &h, c) != AS_OK) r_raise(c);
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

/* A dgCMatrix's Dimnames slot as Matrix's validity has it: a list of two,
   each NULL or an atomic vector as long as its dimension (Y takes its names). */
static int r_dimnames_ok(SEXP dn, const int *dim)
{
    int t;
    if (TYPEOF(dn) != VECSXP || XLENGTH(dn) != 2) return 0;
    for (t = 0; t < 2; t++) {
        SEXP v = VECTOR_ELT(dn, t);
        if (v != R_NilValue && (!Rf_isVectorAtomic(v) || XLENGTH(v) != dim[t])) return 0;
    }
    return 1;
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
        if (!r_dimnames_ok(r_slot(X, "Dimnames"), INTEGER(dim)))
            Rf_errorcall(R_NilValue, "%s: malformed dgCMatrix: slot 'Dimnames' must be a list of two elements, "
                         "each NULL or a vector of names, of length nrow = %d and ncol = %d", what,
                         INTEGER(dim)[0], INTEGER(dim)[1]);
        as_view_csc32(A, INTEGER(dim)[0], d, INTEGER(p), INTEGER(i), REAL(x));
        return;
    }
    Rf_errorcall(R_NilValue, "%s must be a double matrix or a dgCMatrix", what);
}

static void r_check(const as_matrix *A, as_common *c)
{
    if (as_matrix_check(A, c) != AS_OK) r_raise(c);
}

/* Y[, t] = weight[t] * X[, index[t]], with X's row names and the names of the
   columns kept: a base matrix, or a dgCMatrix (made here, as Matrix does). */
/* (Y's columns are X's cols, NULL: S->index; Xr NULL: no names.) */
static SEXP r_make_y(SEXP Xr, const as_matrix *X, const as_result *S, const int64_t *cols,
                     const as_common *c)
{
    int64_t t, k = S->k, n = X->nrow;
    int sparse = X->kind != AS_DENSE, nprot = 0;
    SEXP Y, dn, rn = R_NilValue, cn = R_NilValue, cnk = R_NilValue, ydn;
    const int64_t *index = cols ? cols : S->index;
    dn = Xr == R_NilValue ? R_NilValue
         : sparse ? R_do_slot(Xr, Rf_install("Dimnames")) : Rf_getAttrib(Xr, R_DimNamesSymbol);
    if (dn != R_NilValue) {
        /* names of another type (Matrix's validity allows them) as R's dimnames<- makes them: text */
        rn = VECTOR_ELT(dn, 0);
        cn = VECTOR_ELT(dn, 1);
        if (rn != R_NilValue && TYPEOF(rn) != STRSXP) { rn = PROTECT(Rf_coerceVector(rn, STRSXP)); nprot++; }
        if (cn != R_NilValue && TYPEOF(cn) != STRSXP) { cn = PROTECT(Rf_coerceVector(cn, STRSXP)); nprot++; }
    }
    if (cn != R_NilValue) {
        cnk = PROTECT(Rf_allocVector(STRSXP, k)); nprot++;
        for (t = 0; t < k; t++) SET_STRING_ELT(cnk, t, STRING_ELT(cn, index[t]));
    }
    ydn = PROTECT(Rf_allocVector(VECSXP, 2)); nprot++;
    SET_VECTOR_ELT(ydn, 0, rn);
    SET_VECTOR_ELT(ydn, 1, cnk);
    if (!sparse) {
        Y = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)k)); nprot++;
        as_select_dense(X, k, index, S->weight, REAL(Y), c);
        if (rn != R_NilValue || cnk != R_NilValue) Rf_setAttrib(Y, R_DimNamesSymbol, ydn);
    } else {
        int64_t nz = as_select_nnz(X, k, index);
        SEXP p, i, x, dim;
        Y = PROTECT(R_do_new_object(PROTECT(R_do_MAKE_CLASS("dgCMatrix")))); nprot += 2;
        p = PROTECT(Rf_allocVector(INTSXP, k + 1)); nprot++;
        i = PROTECT(Rf_allocVector(INTSXP, nz)); nprot++;
        x = PROTECT(Rf_allocVector(REALSXP, nz)); nprot++;
        dim = PROTECT(Rf_allocVector(INTSXP, 2)); nprot++;
        as_select_csc32(X, k, index, S->weight, INTEGER(p), INTEGER(i), REAL(x), c);
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
/* A result as a named list: one element per row of the core's field table
   (core/result.c) that S has, in the table's order; Y and YK as R matrices
   with X's (K's) row names. Xr, X, Kr, K are not read for a metrics result. */
static SEXP r_result_cols(SEXP Xr, const as_matrix *X, const int64_t *cols, SEXP Kr, const as_matrix *K,
                          const as_result *S, const as_common *c);

SEXP r_result(SEXP Xr, const as_matrix *X, SEXP Kr, const as_matrix *K, const as_result *S,
              const as_common *c)
{
    return r_result_cols(Xr, X, NULL, Kr, K, S, c);
}

/* The same with Y's columns X's cols (NULL: S->index). */
static SEXP r_result_cols(SEXP Xr, const as_matrix *X, const int64_t *cols, SEXP Kr, const as_matrix *K,
                          const as_result *S, const as_common *c)
{
    int t, n = 0, at = 0;
    int64_t j;
    char text[512];
    SEXP out, names, v;
    for (t = 0; t < as_field_count(); t++) n += as_field_present(as_field_at(t), S->call, S);
    out = PROTECT(Rf_allocVector(VECSXP, n));
    names = PROTECT(Rf_allocVector(STRSXP, n));
    for (t = 0; t < as_field_count(); t++) {
        const as_field *f = as_field_at(t);
        double x;
        if (!as_field_present(f, S->call, S)) continue;
        switch (f->kind) {
        case AS_FIELD_Y: v = r_make_y(Xr, X, S, cols, c); break;
        case AS_FIELD_YK: v = r_make_y(Kr, K, S, NULL, c); break;
        case AS_FIELD_INDEX:
            v = Rf_allocVector(INTSXP, S->k);
            for (j = 0; j < S->k; j++) INTEGER(v)[j] = (int)(S->index[j] + 1);
            break;
        case AS_FIELD_WEIGHT:
            v = Rf_allocVector(REALSXP, S->k);
            if (S->k > 0) memcpy(REAL(v), S->weight, sizeof(double) * (size_t)S->k);
            break;
        case AS_FIELD_TEXT: v = Rf_mkString(as_field_text(f, S, text, sizeof text)); break;
        default:
            x = as_field_number(f, S);
            v = Rf_ScalarReal(ISNAN(x) ? NA_REAL : x);
        }
        SET_VECTOR_ELT(out, at, v);
        SET_STRING_ELT(names, at++, Rf_mkChar(f->name));
    }
    Rf_setAttrib(out, R_NamesSymbol, names);
    if (as_result_warning(S, text, sizeof text)) Rf_warningcall(R_NilValue, "%s", text);
    if (as_target_warning(S, text, sizeof text)) Rf_warningcall(R_NilValue, "%s", text);
    UNPROTECT(2);
    return out;
}

typedef struct {
    SEXP Xr, Kr;                /* Kr: the keys of Q != K (YK), else R_NilValue */
    const as_matrix *X, *K;
    const int64_t *cols;        /* Y's columns of X (NULL: S->index)            */
    as_result *S;
    as_common *c;
} r_wrap_args;

static void r_wrap_cleanup(void *data)
{
    r_wrap_args *w = data;
    as_result_free(w->S, w->c);
}

static SEXP r_wrap_body(void *data)
{
    r_wrap_args *w = data;
    return r_result_cols(w->Xr, w->X, w->cols, w->Kr, w->K, w->S, w->c);
}

/* Copy a sample into R objects; the core's arrays are freed on every exit. */
static SEXP r_wrap(SEXP Xr, const as_matrix *X, SEXP Kr, const as_matrix *K, as_result *S, as_common *c)
{
    r_wrap_args w;
    w.Xr = Xr;
    w.Kr = Kr;
    w.X = X;
    w.K = K;
    w.cols = NULL;
    w.S = S;
    w.c = c;
    return R_ExecWithCleanup(r_wrap_body, &w, r_wrap_cleanup, &w);
}

SEXP r_wrap_gathered(const as_matrix *Xs, as_result *S, as_common *c)
{
    r_wrap_args w;
    int64_t t, *cols = (int64_t *)R_alloc((size_t)(S->k > 0 ? S->k : 1), sizeof(int64_t));
    for (t = 0; t < S->k; t++) cols[t] = t;
    w.Xr = w.Kr = R_NilValue;
    w.X = Xs;
    w.K = NULL;
    w.cols = cols;
    w.S = S;
    w.c = c;
    return R_ExecWithCleanup(r_wrap_body, &w, r_wrap_cleanup, &w);
}

/* ---------------------------------------------------------------- entry points */
static const double *r_values(SEXP V, const as_matrix *Q, const as_matrix *K, const char *qname, int64_t *dv);

/* The inputs of a method: X, and the keys K and values V (K NULL and V NULL
   when not given). */
typedef struct {
    as_matrix X, Kv;
    const as_matrix *K;
    const double *V;
    int64_t dv;
} r_inputs;

static void r_read_inputs(SEXP X, SEXP K, SEXP V, r_inputs *in)
{
    r_view(X, &in->X, "X");
    in->K = NULL;
    if (K != R_NilValue) {
        r_view(K, &in->Kv, "K");
        in->K = &in->Kv;
    }
    in->V = r_values(V, &in->X, in->K, "X", &in->dv);
}

/* The row of the core's method table (core/methods.c) a string names; NULL: none. */
static const as_method *r_method(SEXP name)
{
    return as_method_find(Rf_isString(name) && XLENGTH(name) == 1 ? CHAR(STRING_ELT(name, 0)) : "");
}

/* Any method of the core's table by its name: X, the keys K
   and values V (NULL: none), the options a named list. */
SEXP as_r_method(SEXP name, SEXP X, SEXP K, SEXP V, SEXP opts)
{
    const as_method *m = r_method(name);
    r_inputs in;
    as_common c;
    as_result S;
    void *o;
    if (m == NULL) Rf_errorcall(R_NilValue, "no method of that name");
    r_read_inputs(X, K, V, &in);
    r_common(&c);
    o = R_alloc(1, m->options_size);
    m->options_init(o);
    r_set_options(m->call, o, opts, &c);
    if (m->options_fit != NULL) m->options_fit(o, in.X.nrow, in.X.ncol);
    if (m->run(&in.X, in.K, in.V, in.dv, o, &S, &c) != AS_OK) r_raise(&c);
    return r_wrap(X, &in.X, K, in.K, &S, &c);
}

SEXP as_r_error_xy(SEXP X, SEXP Y, SEXP opts)
{
    as_matrix A, B;
    as_common c;
    as_metrics_options o;
    as_metrics M;
    as_result S;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_METRICS, &o, opts, &c);
    r_view(X, &A, "X");
    r_view(Y, &B, "Y");
    if (as_attention_error_xy(&A, &B, &o, &M, &c) != AS_OK) r_raise(&c);
    as_metrics_result(&M, o.spectral, &S);
    return r_result(R_NilValue, NULL, R_NilValue, NULL, &S, &c);
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
    if (as_output_check(AS_OUT_SYM_ATTENTION, &A, NULL, -1, &o, &c) != AS_OK) r_raise(&c);
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
    double nn = Rf_asReal(n), dd = Rf_asReal(d), rr = Rf_asReal(r), ss = Rf_asReal(seed);
    SEXP X;
    as_common_init(&c);
    /* the defaults (NA here) and every limit are the core's, checked before X is allocated */
    if (as_example_args(&nn, &dd, &rr, &ss, &c) != AS_OK) r_raise(&c);
    X = PROTECT(Rf_allocMatrix(REALSXP, (int)nn, (int)dd));
    if (as_example((int64_t)nn, (int64_t)dd, rr, (uint64_t)ss, REAL(X), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return X;
}

SEXP as_r_draw_seed(void)
{
    as_common c;
    r_common(&c);
    return Rf_ScalarReal((double)as_seed_resolve(AS_SEED_DRAW, &c));
}

SEXP as_r_default_m(SEXP rank, SEXP eps, SEXP delta, SEXP beta)
{
    as_common c;
    double m;
    as_common_init(&c);
    if (as_default_m_args(Rf_asReal(rank), Rf_asReal(eps), Rf_asReal(delta), Rf_asReal(beta), &m, &c) != AS_OK)
        r_raise(&c);
    return Rf_ScalarReal(m);
}

/* The core's refusal of X by blocks for a method that needs it in memory. */
SEXP as_r_blocks_refuse(SEXP method)
{
    as_common c;
    as_common_init(&c);
    if (as_blocks_refuse(CHAR(STRING_ELT(method, 0)), &c) != AS_OK) r_raise(&c);
    return R_NilValue;
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
    if (as_output_check(AS_OUT_GRAM, &A, NULL, -1, &o, &c) != AS_OK) r_raise(&c);
    G = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)A.nrow));
    if (as_gram(&A, -1, NULL, NULL, REAL(G), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return G;
}

/* ---------------------------------------------------------------- Q != K */
/* V: a double matrix or NULL; its shape against Q and K (qname: "X" in the
   sketches, "Q" in attention) and its values are the core's to check. */
static const double *r_values(SEXP V, const as_matrix *Q, const as_matrix *K, const char *qname, int64_t *dv)
{
    as_common c;
    *dv = 0;
    as_common_init(&c);
    if (V != R_NilValue && (!Rf_isReal(V) || !Rf_isMatrix(V)))
        Rf_errorcall(R_NilValue, "'V' must be a double matrix");
    if (as_qkv_shapes(Q, K, V == R_NilValue ? -1 : Rf_nrows(V), V == R_NilValue ? 0 : Rf_ncols(V), qname, &c) != AS_OK)
        r_raise(&c);
    if (V == R_NilValue) return NULL;
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
    v = r_values(V, &A, &B, "Q", &dv);
    if (as_output_check(AS_OUT_ATTENTION, &A, &B, v ? dv : -1, &o, &c) != AS_OK) r_raise(&c);
    out = PROTECT(Rf_allocMatrix(REALSXP, (int)A.nrow, (int)(v ? dv : B.nrow)));
    if (as_attention_qkv(&A, &B, v, dv, REAL(out), &c) != AS_OK) r_raise(&c);
    UNPROTECT(1);
    return out;
}

/* ---------------------------------------------------------------- the option table */
/* The rows of the core's option table of one method ("rand", "det" or "greedy"): name,
   kind, default and choices, for tests that sweep every option. */
SEXP as_r_option_table(SEXP call)
{
    const char *names[] = {"name", "kind", "default", "choices", ""};
    const char *kinds[] = {"real", "whole", "flag", "choice"};
    const as_method *m = r_method(call);
    unsigned mask = m != NULL ? m->call : 0;
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

/* The trap of an X read by blocks, from its shape alone (core/precheck.c): the warning, "" when none. */
SEXP as_r_precheck_shape(SEXP n, SEXP d)
{
    as_precheck_out out;
    as_precheck_shape((int64_t)Rf_asReal(n), (int64_t)Rf_asReal(d), &out);
    return Rf_mkString((out.flags & AS_PRECHECK_TRANSPOSED) ? out.transposed : "");
}

/* The traps of X found before any work (core/precheck.c): list(warning, message, scale), the texts
   empty when there is none; R raises them (R/precheck.R). */
SEXP as_r_precheck(SEXP X, SEXP rel)
{
    as_matrix A;
    as_common c;
    as_precheck_out out;
    SEXP res, names;
    r_common(&c);
    r_view(X, &A, "X");
    r_check(&A, &c);
    if (as_precheck(&A, Rf_asReal(rel), &out, &c) != AS_OK) r_raise(&c);
    res = PROTECT(Rf_allocVector(VECSXP, 3));
    names = PROTECT(Rf_allocVector(STRSXP, 3));
    SET_VECTOR_ELT(res, 0, Rf_mkString((out.flags & AS_PRECHECK_TRANSPOSED) ? out.transposed : ""));
    SET_VECTOR_ELT(res, 1, Rf_mkString((out.flags & (AS_PRECHECK_OVERFLOW | AS_PRECHECK_TRIVIAL)) ? out.scale_note : ""));
    SET_VECTOR_ELT(res, 2, Rf_ScalarReal(out.scale));
    SET_STRING_ELT(names, 0, Rf_mkChar("warning"));
    SET_STRING_ELT(names, 1, Rf_mkChar("message"));
    SET_STRING_ELT(names, 2, Rf_mkChar("scale"));
    Rf_setAttrib(res, R_NamesSymbol, names);
    UNPROTECT(2);
    return res;
}
