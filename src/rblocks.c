/* rblocks.c: the R front-end of the core's block passes (X read a block of columns at a time, R/blocks.R). */
#include <R.h>
#include <Rinternals.h>
#include <stdint.h>
#include <string.h>
#include "attsparse.h"
#include "rglue.h"

/* The plan for an n x d X and the options (as for .Call(C_rand): read by the core's table). */
static void rb_plan(SEXP n, SEXP d, SEXP opts, as_rand_options *o, as_block_plan *P, as_common *c)
{
    r_common(c);
    as_rand_options_init(o);
    r_set_options(AS_FOR_RAND, o, opts, c);
    if (as_block_plan_init((int64_t)Rf_asReal(n), (int64_t)Rf_asReal(d), o, P, c) != AS_OK) r_raise(c);
}

SEXP as_r_block_plan(SEXP n, SEXP d, SEXP opts)
{
    const char *names[] = {"chunk", "nchunk", "s1", "s", "need_lev", "need_nrm", "in_memory", ""};
    as_rand_options o;
    as_block_plan P;
    as_common c;
    SEXP out;
    rb_plan(n, d, opts, &o, &P, &c);
    out = PROTECT(Rf_mkNamed(REALSXP, names));
    REAL(out)[0] = (double)P.chunk;
    REAL(out)[1] = (double)P.nchunk;
    REAL(out)[2] = (double)P.s1;
    REAL(out)[3] = (double)P.s;
    REAL(out)[4] = P.need_lev;
    REAL(out)[5] = P.need_nrm;
    REAL(out)[6] = P.in_memory;
    UNPROTECT(1);
    return out;
}

/* The sketch leaves of a block of whole chunks: Xb holds columns j0 + 1 ..
   j0 + ncol(Xb) of X (j0 a multiple of the chunk width); one n x s1 leaf per chunk. */
SEXP as_r_block_sketch(SEXP Xb, SEXP j0, SEXP n, SEXP d, SEXP opts)
{
    as_rand_options o;
    as_block_plan P;
    as_common c;
    as_matrix A, V;
    int64_t first = (int64_t)Rf_asReal(j0), ncol, ch, nch;
    SEXP out;
    rb_plan(n, d, opts, &o, &P, &c);
    r_view(Xb, &A, "a block of X");
    ncol = A.ncol;
    if (first % P.chunk != 0 || (ncol % P.chunk != 0 && first + ncol != P.d))
        Rf_errorcall(R_NilValue, "a block must be whole chunks of %lld columns; got columns %lld..%lld",
                     (long long)P.chunk, (long long)(first + 1), (long long)(first + ncol));
    nch = (ncol + P.chunk - 1) / P.chunk;
    out = PROTECT(Rf_allocVector(VECSXP, nch));
    for (ch = 0; ch < nch; ch++) {
        int64_t a = ch * P.chunk, b = a + P.chunk < ncol ? a + P.chunk : ncol;
        SEXP leaf = Rf_allocVector(REALSXP, (R_xlen_t)(P.n * P.s1));
        SET_VECTOR_ELT(out, ch, leaf);
        memset(REAL(leaf), 0, sizeof(double) * (size_t)(P.n * P.s1));
        V = A;
        V.ncol = b - a;
        if (A.kind == AS_DENSE) V.x = A.x + a * A.ld;
        else V.p32 = A.p32 + a;
        if (as_block_sketch(&P, &V, first + a, o.seed, REAL(leaf), &c) != AS_OK) r_raise(&c);
    }
    UNPROTECT(1);
    return out;
}

/* acc (NULL: the first leaf) plus the leaves, in order; a new vector. */
SEXP as_r_block_fold(SEXP acc, SEXP leaves)
{
    R_xlen_t t, len, e;
    SEXP out;
    if (XLENGTH(leaves) == 0) return acc;
    len = XLENGTH(VECTOR_ELT(leaves, 0));
    out = PROTECT(Rf_allocVector(REALSXP, len));
    t = 0;
    if (acc == R_NilValue) memcpy(REAL(out), REAL(VECTOR_ELT(leaves, t++)), sizeof(double) * (size_t)len);
    else memcpy(REAL(out), REAL(acc), sizeof(double) * (size_t)len);
    for (; t < XLENGTH(leaves); t++) {
        const double *l = REAL(VECTOR_ELT(leaves, t));
        double *a = REAL(out);
        if (XLENGTH(VECTOR_ELT(leaves, t)) != len) Rf_errorcall(R_NilValue, "sketch leaves of unequal lengths");
        for (e = 0; e < len; e++) a[e] += l[e];
    }
    UNPROTECT(1);
    return out;
}

SEXP as_r_block_factor(SEXP MT, SEXP n, SEXP d, SEXP opts)
{
    const char *names[] = {"NT", "rank", "q", "qs", "s2", ""};
    as_rand_options o;
    as_block_plan P;
    as_common c;
    as_block_factor F;
    SEXP out, NT;
    rb_plan(n, d, opts, &o, &P, &c);
    if (TYPEOF(MT) != REALSXP || XLENGTH(MT) != (R_xlen_t)(P.n * P.s1))
        Rf_errorcall(R_NilValue, "the sketch must be a double vector of n * s1 = %lld entries", (long long)(P.n * P.s1));
    if (as_block_factor_run(&P, &o, REAL(MT), &F, &c) != AS_OK) r_raise(&c);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    NT = Rf_allocVector(REALSXP, (R_xlen_t)(F.qs * P.n));
    SET_VECTOR_ELT(out, 0, NT);
    if (F.NT) memcpy(REAL(NT), F.NT, sizeof(double) * (size_t)(F.qs * P.n));
    as_block_factor_free(&F, &c);
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal((double)F.rank));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)F.q));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)F.qs));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)F.s2));
    UNPROTECT(1);
    return out;
}

/* Scores of a block: list(lev, nrm), each NULL when not wanted. */
SEXP as_r_block_scores(SEXP Xb, SEXP j0, SEXP factor, SEXP need, SEXP threads)
{
    const char *names[] = {"lev", "nrm", ""};
    as_common c;
    as_matrix A;
    SEXP out, lev = R_NilValue, nrm = R_NilValue, NT = VECTOR_ELT(factor, 0);
    int need_lev = LOGICAL(need)[0], need_nrm = LOGICAL(need)[1];
    int64_t q = (int64_t)Rf_asReal(VECTOR_ELT(factor, 2)), qs = (int64_t)Rf_asReal(VECTOR_ELT(factor, 3));
    r_common(&c);
    c.nthreads = Rf_asInteger(threads);
    r_view(Xb, &A, "a block of X");
    if (need_lev && q > 0 && XLENGTH(NT) != (R_xlen_t)(qs * A.nrow))
        Rf_errorcall(R_NilValue, "the factor does not match the block's %lld rows", (long long)A.nrow);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    if (need_lev) { lev = Rf_allocVector(REALSXP, A.ncol); SET_VECTOR_ELT(out, 0, lev); }
    if (need_nrm) { nrm = Rf_allocVector(REALSXP, A.ncol); SET_VECTOR_ELT(out, 1, nrm); }
    if (as_block_scores(&A, (int64_t)Rf_asReal(j0), q > 0 ? REAL(NT) : NULL, q, qs,
                        need_lev ? REAL(lev) : NULL, need_nrm ? REAL(nrm) : NULL, &c) != AS_OK)
        r_raise(&c);
    UNPROTECT(1);
    return out;
}

/* Pass 4 from the scores of all columns: list(index (1-based), weight, m, rank, term, ..., beta). */
SEXP as_r_block_sample(SEXP n, SEXP d, SEXP opts, SEXP rank, SEXP lev, SEXP nrm)
{
    const char *names[] = {"index", "weight", "m", "k", "rank", "term", "probabilities", "sampling", "beta",
                           "eps", "delta", ""};
    as_rand_options o;
    as_block_plan P;
    as_common c;
    as_sample S;
    double *term = NULL;
    int64_t t;
    SEXP out, index, weight, tv;
    rb_plan(n, d, opts, &o, &P, &c);
    if ((P.need_lev && (TYPEOF(lev) != REALSXP || XLENGTH(lev) != P.d)) ||
        (P.need_nrm && (TYPEOF(nrm) != REALSXP || XLENGTH(nrm) != P.d)))
        Rf_errorcall(R_NilValue, "the scores must be double vectors of length ncol(X) = %lld", (long long)P.d);
    if (as_block_sample(&P, &o, (int64_t)Rf_asReal(rank), P.need_lev ? REAL(lev) : NULL,
                        P.need_nrm ? REAL(nrm) : NULL, &S, &term, &c) != AS_OK)
        r_raise(&c);
    out = PROTECT(Rf_mkNamed(VECSXP, names));
    index = Rf_allocVector(INTSXP, S.k);
    SET_VECTOR_ELT(out, 0, index);
    weight = Rf_allocVector(REALSXP, S.k);
    SET_VECTOR_ELT(out, 1, weight);
    tv = Rf_allocVector(REALSXP, S.k);
    SET_VECTOR_ELT(out, 5, tv);
    for (t = 0; t < S.k; t++) {
        INTEGER(index)[t] = (int)(S.index[t] + 1);
        REAL(weight)[t] = S.weight[t];
        REAL(tv)[t] = term[t];
    }
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)S.m));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)S.k));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal((double)S.rank));
    SET_VECTOR_ELT(out, 6, Rf_ScalarInteger(S.probabilities));
    SET_VECTOR_ELT(out, 7, Rf_ScalarInteger(S.sampling));
    SET_VECTOR_ELT(out, 8, Rf_ScalarReal(S.beta));
    SET_VECTOR_ELT(out, 9, Rf_ScalarReal(S.eps_target));
    SET_VECTOR_ELT(out, 10, Rf_ScalarReal(S.delta));
    as_free(&c, term);
    as_sample_free(&S, &c);
    UNPROTECT(1);
    return out;
}

/* Pass 5: Y's overflow check and the estimate from the gathered columns Xs:
   c(rel_estimate, inf_estimate). */
SEXP as_r_block_finish(SEXP Xs, SEXP d, SEXP opts, SEXP res)
{
    const char *names[] = {"rel_estimate", "inf_estimate", ""};
    as_rand_options o;
    as_common c;
    as_matrix A;
    as_sample S;
    SEXP index = VECTOR_ELT(res, 0), weight = VECTOR_ELT(res, 1), term = VECTOR_ELT(res, 5), out;
    R_xlen_t t, k = XLENGTH(index);
    r_common(&c);
    as_rand_options_init(&o);
    r_set_options(AS_FOR_RAND, &o, opts, &c);
    r_view(Xs, &A, "the gathered columns");
    as_sample_init(&S);
    S.k = k;
    S.index = (int64_t *)R_alloc((size_t)(k ? k : 1), sizeof(int64_t));
    S.weight = REAL(weight);
    for (t = 0; t < k; t++) S.index[t] = INTEGER(index)[t] - 1;
    /* as_block_finish writes only the estimates; the arrays stay R's */
    if (as_block_finish(&A, (int64_t)Rf_asReal(d), &o, REAL(term), &S, &c) != AS_OK) r_raise(&c);
    out = PROTECT(Rf_mkNamed(REALSXP, names));
    REAL(out)[0] = S.rel_estimate;
    REAL(out)[1] = S.inf_estimate;
    UNPROTECT(1);
    return out;
}

/* attention_error of Y against an X read by blocks: G = X X' summed over them (n x n). */
SEXP as_r_error_gram(SEXP G, SEXP Y, SEXP opts)
{
    as_common c;
    as_metrics_options o;
    as_metrics M;
    as_matrix B;
    as_sample S;
    r_common(&c);
    as_metrics_options_init(&o);
    r_set_options(AS_FOR_METRICS, &o, opts, &c);
    if (!Rf_isReal(G) || !Rf_isMatrix(G) || Rf_ncols(G) != Rf_nrows(G))
        Rf_errorcall(R_NilValue, "G must be an n x n double matrix");
    r_view(Y, &B, "Y");
    if (as_attention_error_gram(Rf_nrows(G), REAL(G), &B, NULL, &o, &M, &c) != AS_OK) r_raise(&c);
    as_metrics_result(&M, o.spectral, &S);
    return r_result(R_NilValue, NULL, R_NilValue, NULL, &S, &c);
}
