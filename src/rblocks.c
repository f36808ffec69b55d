/* rblocks.c: the R glue of the core's block run (core/block_run.c): a run held by an external pointer, its tasks and partials as raw vectors for BiocParallel's workers (R/blocks.R). */
#include <R.h>
#include <Rinternals.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "attsparse.h"
#include "rglue.h"

/* A run and what each call on it needs: its threads and verbosity, and Y's view (Y is the
   external pointer's protected value). */
typedef struct rb_run {
    as_blocks *run;
    int what, nthreads, verbose, spectral;
    int64_t d;
    as_matrix Y;
} rb_run;

static void rb_free(rb_run *r)
{
    as_common c;
    if (!r) return;
    as_common_init(&c);
    as_blocks_free(r->run, &c);
    r->run = NULL;
}

static void rb_finalize(SEXP ptr)
{
    rb_run *r = R_ExternalPtrAddr(ptr);
    rb_free(r);
    free(r);
    R_ClearExternalPtr(ptr);
}

static rb_run *rb_get(SEXP ptr, as_common *c)
{
    rb_run *r = TYPEOF(ptr) == EXTPTRSXP ? R_ExternalPtrAddr(ptr) : NULL;
    if (!r || !r->run) Rf_errorcall(R_NilValue, "the block run is gone");
    r_common(c);
    c->nthreads = r->nthreads;
    c->verbose = r->verbose;
    return r;
}

/* .Call(C_blocks_new, what ("rand", "leverage", "error"), n, d, options, Y, width, workers) */
SEXP as_r_blocks_new(SEXP what, SEXP n, SEXP d, SEXP opts, SEXP Y, SEXP width, SEXP workers)
{
    const char *w = Rf_isString(what) && XLENGTH(what) == 1 ? CHAR(STRING_ELT(what, 0)) : "";
    int kind = strcmp(w, "rand") == 0 ? AS_BLOCKS_RAND : strcmp(w, "leverage") == 0 ? AS_BLOCKS_LEVERAGE : AS_BLOCKS_ERROR;
    as_common c;
    as_rand_options o;
    as_metrics_options mo;
    as_matrix Yv;
    rb_run *r;
    SEXP ptr;
    r_common(&c);
    memset(&Yv, 0, sizeof Yv);
    as_metrics_options_init(&mo);
    if (kind == AS_BLOCKS_ERROR) {
        r_set_options(AS_FOR_METRICS, &mo, opts, &c);
        r_view(Y, &Yv, "Y");
    } else {
        as_rand_options_init(&o);
        r_set_options(kind == AS_BLOCKS_RAND ? AS_FOR_RAND : AS_FOR_LEVERAGE, &o, opts, &c);
    }
    r = calloc(1, sizeof(*r));
    if (!r) Rf_errorcall(R_NilValue, "out of memory");
    r->what = kind;
    r->spectral = kind == AS_BLOCKS_ERROR && mo.spectral > 0;
    r->d = (int64_t)Rf_asReal(d);
    r->nthreads = c.nthreads;
    r->verbose = c.verbose;
    r->Y = Yv;
    ptr = PROTECT(R_MakeExternalPtr(r, R_NilValue, Y));
    R_RegisterCFinalizerEx(ptr, rb_finalize, TRUE);
    if (as_blocks_new(kind, (int64_t)Rf_asReal(n), (int64_t)Rf_asReal(d),
                      kind == AS_BLOCKS_ERROR ? (const void *)&mo : (const void *)&o, &r->Y,
                      (int64_t)Rf_asReal(width), (int64_t)Rf_asReal(workers), &r->run, &c) != AS_OK)
        r_raise(&c);
    UNPROTECT(1);
    return ptr;
}

/* The next wave: NULL when the run is done, else list(task = <raw>, count = <blocks>). */
SEXP as_r_blocks_next(SEXP ptr)
{
    const char *names[] = {"task", "count", ""};
    as_common c;
    rb_run *r = rb_get(ptr, &c);
    const void *task;
    size_t len;
    SEXP out, raw;
    if (as_blocks_next(r->run, &task, &len, &c) != AS_OK) r_raise(&c);
    if (!task) return R_NilValue;
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    raw = Rf_allocVector(RAWSXP, (R_xlen_t)len);
    SET_VECTOR_ELT(out, 0, raw);
    memcpy(RAW(raw), task, len);
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger((int)as_blocks_task_count(task, len)));
    UNPROTECT(1);
    return out;
}

/* Block t (1-based) of a task: list(j0, j1, cols): columns j0 + 1 .. j1, or the 1-based cols to read. */
SEXP as_r_blocks_task_block(SEXP task, SEXP t)
{
    const char *names[] = {"j0", "j1", "cols", ""};
    int64_t j0, j1, ncols, u;
    const int64_t *cols;
    SEXP out, cv;
    if (TYPEOF(task) != RAWSXP ||
        as_blocks_task_block(RAW(task), (size_t)XLENGTH(task), (int64_t)Rf_asInteger(t) - 1, &j0, &j1, &cols, &ncols) != AS_OK)
        Rf_errorcall(R_NilValue, "not a block of a task of the block run");
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal((double)j0));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal((double)j1));
    if (cols) {
        cv = Rf_allocVector(REALSXP, (R_xlen_t)ncols);
        SET_VECTOR_ELT(out, 2, cv);
        for (u = 0; u < ncols; u++) REAL(cv)[u] = (double)(cols[u] + 1);
    }
    UNPROTECT(1);
    return out;
}

/* The partial, copied into a raw vector; the core's copy is freed on every exit. */
typedef struct rb_part { void *part; size_t len; } rb_part;
static SEXP rb_part_raw(void *data)
{
    rb_part *p = data;
    SEXP raw = Rf_allocVector(RAWSXP, (R_xlen_t)p->len);
    memcpy(RAW(raw), p->part, p->len);
    return raw;
}
static void rb_part_free(void *data)
{
    rb_part *p = data;
    as_common c;
    as_common_init(&c);
    as_free(&c, p->part);
    p->part = NULL;
}

/* A worker's work on block t (1-based) of a task: its partial (raw). The block's own errors ride
   in the partial (the merge reports them); an interrupt stops the worker here. */
SEXP as_r_blocks_work(SEXP task, SEXP t, SEXP Xb)
{
    as_common c;
    as_matrix A;
    rb_part p;
    if (TYPEOF(task) != RAWSXP) Rf_errorcall(R_NilValue, "not a task of the block run");
    r_view(Xb, &A, "a block of X");
    r_common(&c);
    if (as_blocks_work(RAW(task), (size_t)XLENGTH(task), (int64_t)Rf_asInteger(t) - 1, &A, &p.part, &p.len, &c) != AS_OK)
        r_raise(&c);
    return R_ExecWithCleanup(rb_part_raw, &p, rb_part_free, &p);
}

/* The wave's partials, in block order: raw vectors, or a reader's error message (a string). */
SEXP as_r_blocks_merge(SEXP ptr, SEXP parts)
{
    as_common c;
    rb_run *r = rb_get(ptr, &c);
    R_xlen_t t;
    if (TYPEOF(parts) != VECSXP) Rf_errorcall(R_NilValue, "the partials must be a list");
    for (t = 0; t < XLENGTH(parts); t++) {
        SEXP p = VECTOR_ELT(parts, t);
        int st;
        if (TYPEOF(p) == RAWSXP) st = as_blocks_merge(r->run, RAW(p), (size_t)XLENGTH(p), &c);
        else if (Rf_isString(p) && XLENGTH(p) >= 1) st = as_blocks_fail(r->run, (int64_t)t, CHAR(STRING_ELT(p, 0)), &c);
        else st = as_blocks_fail(r->run, (int64_t)t, "the worker returned neither a partial nor a message", &c);
        if (st != AS_OK) r_raise(&c);
    }
    return R_NilValue;
}

/* The result: rand: the list of .Call(C_method, "rand", ...) (the run's chunk, blocks and reads among its fields);
   leverage: the scores (attribute rank); error: the metrics' list. */
SEXP as_r_blocks_result(SEXP ptr)
{
    as_common c;
    rb_run *r = rb_get(ptr, &c);
    as_blocks_result *R = as_blocks_result_get(r->run);
    if (!R) Rf_errorcall(R_NilValue, "the block run is not done");
    if (r->what == AS_BLOCKS_ERROR) {
        as_result S;
        as_metrics_result(&R->metrics, r->spectral, &S);
        return r_result(R_NilValue, NULL, R_NilValue, NULL, &S, &c);
    }
    if (r->what == AS_BLOCKS_LEVERAGE) {
        SEXP s = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)r->d));
        memcpy(REAL(s), R->scores, sizeof(double) * (size_t)r->d);
        Rf_setAttrib(s, Rf_install("rank"), Rf_ScalarReal((double)R->rank));
        UNPROTECT(1);
        return s;
    }
    return r_wrap_gathered(&R->Xs, &R->S, &c);
}

/* Free the run's memory now (the pointer stays, empty). */
SEXP as_r_blocks_free(SEXP ptr)
{
    rb_run *r = TYPEOF(ptr) == EXTPTRSXP ? R_ExternalPtrAddr(ptr) : NULL;
    rb_free(r);
    return R_NilValue;
}
