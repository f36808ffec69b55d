/* init.c: registration of the .Call entry points. */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>

SEXP as_r_method(SEXP name, SEXP X, SEXP K, SEXP V, SEXP opts);
SEXP as_r_error_xy(SEXP X, SEXP Y, SEXP opts);
SEXP as_r_softmax(SEXP X, SEXP opts);
SEXP as_r_leverage(SEXP X, SEXP opts);
SEXP as_r_example(SEXP n, SEXP d, SEXP r, SEXP seed);
SEXP as_r_option_table(SEXP calls);
SEXP as_r_default_m(SEXP rank, SEXP eps, SEXP delta, SEXP beta);
SEXP as_r_draw_seed(void);
SEXP as_r_gram(SEXP X, SEXP opts);
SEXP as_r_attention(SEXP Q, SEXP K, SEXP V, SEXP opts);
SEXP as_r_blocks_refuse(SEXP method);
SEXP as_r_precheck(SEXP X, SEXP rel);
SEXP as_r_precheck_shape(SEXP n, SEXP d);
/* rblocks.c */
SEXP as_r_blocks_new(SEXP what, SEXP n, SEXP d, SEXP opts, SEXP Y, SEXP width, SEXP workers);
SEXP as_r_blocks_next(SEXP ptr);
SEXP as_r_blocks_task_block(SEXP task, SEXP t);
SEXP as_r_blocks_work(SEXP task, SEXP t, SEXP Xb);
SEXP as_r_blocks_merge(SEXP ptr, SEXP parts);
SEXP as_r_blocks_result(SEXP ptr);
SEXP as_r_blocks_free(SEXP ptr);

static const R_CallMethodDef call_methods[] = {
    {"method", (DL_FUNC)&as_r_method, 5},
    {"error_xy", (DL_FUNC)&as_r_error_xy, 3},
    {"softmax", (DL_FUNC)&as_r_softmax, 2},
    {"leverage", (DL_FUNC)&as_r_leverage, 2},
    {"example", (DL_FUNC)&as_r_example, 4},
    {"option_table", (DL_FUNC)&as_r_option_table, 1},
    {"default_m", (DL_FUNC)&as_r_default_m, 4},
    {"draw_seed", (DL_FUNC)&as_r_draw_seed, 0},
    {"gram", (DL_FUNC)&as_r_gram, 2},
    {"attention", (DL_FUNC)&as_r_attention, 4},
    {"blocks_refuse", (DL_FUNC)&as_r_blocks_refuse, 1},
    {"precheck", (DL_FUNC)&as_r_precheck, 2},
    {"precheck_shape", (DL_FUNC)&as_r_precheck_shape, 2},
    {"blocks_new", (DL_FUNC)&as_r_blocks_new, 7},
    {"blocks_next", (DL_FUNC)&as_r_blocks_next, 1},
    {"blocks_task_block", (DL_FUNC)&as_r_blocks_task_block, 2},
    {"blocks_work", (DL_FUNC)&as_r_blocks_work, 3},
    {"blocks_merge", (DL_FUNC)&as_r_blocks_merge, 2},
    {"blocks_result", (DL_FUNC)&as_r_blocks_result, 1},
    {"blocks_free", (DL_FUNC)&as_r_blocks_free, 1},
    {NULL, NULL, 0}
};

void R_init_attsparse(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
