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
SEXP as_r_option_table(SEXP calls);
SEXP as_r_default_m(SEXP rank, SEXP eps, SEXP delta, SEXP beta);
SEXP as_r_draw_seed(void);
SEXP as_r_gram(SEXP X, SEXP opts);
SEXP as_r_attention(SEXP Q, SEXP K, SEXP V, SEXP opts);
/* rblocks.c */
SEXP as_r_block_plan(SEXP n, SEXP d, SEXP opts);
SEXP as_r_block_sketch(SEXP Xb, SEXP j0, SEXP n, SEXP d, SEXP opts);
SEXP as_r_block_fold(SEXP acc, SEXP leaves);
SEXP as_r_block_factor(SEXP MT, SEXP n, SEXP d, SEXP opts);
SEXP as_r_block_scores(SEXP Xb, SEXP j0, SEXP factor, SEXP need, SEXP threads);
SEXP as_r_block_sample(SEXP n, SEXP d, SEXP opts, SEXP rank, SEXP lev, SEXP nrm);
SEXP as_r_block_finish(SEXP Xs, SEXP d, SEXP opts, SEXP res);
SEXP as_r_error_gram(SEXP G, SEXP Y, SEXP opts);

static const R_CallMethodDef call_methods[] = {
    {"rand", (DL_FUNC)&as_r_rand, 2},
    {"det", (DL_FUNC)&as_r_det, 2},
    {"error_xy", (DL_FUNC)&as_r_error_xy, 3},
    {"softmax", (DL_FUNC)&as_r_softmax, 2},
    {"leverage", (DL_FUNC)&as_r_leverage, 2},
    {"example", (DL_FUNC)&as_r_example, 4},
    {"option_table", (DL_FUNC)&as_r_option_table, 1},
    {"default_m", (DL_FUNC)&as_r_default_m, 4},
    {"draw_seed", (DL_FUNC)&as_r_draw_seed, 0},
    {"gram", (DL_FUNC)&as_r_gram, 2},
    {"attention", (DL_FUNC)&as_r_attention, 4},
    {"block_plan", (DL_FUNC)&as_r_block_plan, 3},
    {"block_sketch", (DL_FUNC)&as_r_block_sketch, 5},
    {"block_fold", (DL_FUNC)&as_r_block_fold, 2},
    {"block_factor", (DL_FUNC)&as_r_block_factor, 4},
    {"block_scores", (DL_FUNC)&as_r_block_scores, 5},
    {"block_sample", (DL_FUNC)&as_r_block_sample, 6},
    {"block_finish", (DL_FUNC)&as_r_block_finish, 4},
    {"error_gram", (DL_FUNC)&as_r_error_gram, 3},
    {NULL, NULL, 0}
};

void R_init_attsparse(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
