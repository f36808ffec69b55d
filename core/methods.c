/* methods.c: the table of sketching methods (rand, det, greedy; rows from method_list.h) that both front-ends run through one path, and the refusal of X by blocks it gives. */
#include "as_internal.h"
#include "det.h"
#include "greedy.h"
#include "method_list.h"
#include "options.h"
#include "qk.h"
#include <string.h>

/* Each row's functions over the untyped options struct of the table. */
static void rand_init(void *o)
{
    as_rand_options_init(o);
}

static int rand_run(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv, const void *o,
                    as_result *out, as_common *c)
{
    return as_rand_qkv(X, K, V, dv, o, out, c);
}

static void det_init(void *o)
{
    as_det_options_init(o);
}

static int det_run(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv, const void *o,
                   as_result *out, as_common *c)
{
    return as_det_qkv(X, K, V, dv, o, out, c);
}

static void greedy_init(void *o)
{
    as_greedy_options_init(o);
}

static void greedy_fit(void *o, int64_t n, int64_t d)
{
    as_greedy_options_fit(o, n, d);
}

/* The greedy method fits X X': keys and values are none of its inputs, and
   the refusal is the one their names get among its options. */
static int greedy_run(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv, const void *o,
                      as_result *out, as_common *c)
{
    const as_option *op;
    (void)dv;
    if (K != NULL || V != NULL) {
        as_result_init(out);
        return as_option_lookup(K != NULL ? "K" : "V", AS_FOR_GREEDY, &op, c);
    }
    return as_greedy(X, o, out, c);
}

#define AS_METHOD_ROW(id, call, word, fname, options, fit, in_memory) \
    {#id, fname, call, sizeof(options), id##_init, fit, id##_run, in_memory},
static const as_method as_methods[] = {AS_METHOD_ROWS(AS_METHOD_ROW)};

const as_method *as_method_find(const char *name)
{
    size_t t;
    for (t = 0; t < sizeof as_methods / sizeof as_methods[0]; t++)
        if (strcmp(name, as_methods[t].name) == 0) return &as_methods[t];
    return NULL;
}

int as_blocks_refuse(const char *method, as_common *c)
{
    const as_method *m = as_method_find(method);
    c->status = AS_OK;
    if (m != NULL && m->in_memory != NULL)
        return as_error(c, AS_ERR_INPUT, "X must be in memory: %s; read by blocks, use attsparse_rand "
                        "(or X as a matrix, when it fits in memory)", m->in_memory);
    return AS_OK;
}
