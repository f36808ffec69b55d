/* init.c: registration of the .Call entry points. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>

SEXP as_r_rand(SEXP X, SEXP opts);
SEXP as_r_det(SEXP X, SEXP opts);
SEXP as_r_error_xy(SEXP X, SEXP Y, SEXP opts);
SEXP as_r_softmax(SEXP X, SEXP opts);
SEXP as_r_leverage(SEXP X, SEXP opts);
SEXP as_r_example(SEXP n, SEXP d, SEXP r, SEXP seed);
SEXP as_r_default_m(SEXP rank, SEXP eps, SEXP delta, SEXP beta);
SEXP as_r_gram(SEXP X, SEXP opts);
SEXP as_r_qk_error(SEXP X, SEXP K, SEXP V, SEXP index, SEXP weight, SEXP opts);
SEXP as_r_attention(SEXP Q, SEXP K, SEXP V, SEXP opts);

static const R_CallMethodDef call_methods[] = {
    {"rand", (DL_FUNC)&as_r_rand, 2},
    {"det", (DL_FUNC)&as_r_det, 2},
    {"error_xy", (DL_FUNC)&as_r_error_xy, 3},
    {"softmax", (DL_FUNC)&as_r_softmax, 2},
    {"leverage", (DL_FUNC)&as_r_leverage, 2},
    {"example", (DL_FUNC)&as_r_example, 4},
    {"default_m", (DL_FUNC)&as_r_default_m, 4},
    {"gram", (DL_FUNC)&as_r_gram, 2},
    {"qk_error", (DL_FUNC)&as_r_qk_error, 6},
    {"attention", (DL_FUNC)&as_r_attention, 4},
    {NULL, NULL, 0}
};

void R_init_attsparse(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
