/* det.h: the deterministic method's options and entry points (det.c, det_bss.c; its options: options.c). */
#ifndef AS_DET_H
#define AS_DET_H

#include "as_internal.h"

typedef struct as_det_options {
    double  eps;           /* target spectral error, in (0, 1)                */
    int64_t leaf;          /* columns per leaf of the search tree; 0: auto    */
    double  mem_mb;        /* cap on all working arrays in MiB; 0: auto */
    int     search;        /* 0: tree search, 1: plain scan of all columns    */
    int     error;         /* nonzero (default): out->metrics inf, rel, baseline, r */
    int     spectral;      /* nonzero: eps_spectral, bound; -1 (default): as error */
    int64_t batch;         /* most barrier shifts per step; 0 (default): up to 64,
                              1: one column per step (the paper's algorithm)     */
    int64_t presample;     /* 0 (default): BSS on X; else BSS on the columns of an
                              as_rand sample of X with this many draws (1: the
                              default, as_det_presample_m)                      */
    uint64_t seed;         /* the presample's seed; AS_SEED_DRAW (default): drawn */
    int      refit;        /* as in as_rand_options                               */
    uint64_t given;        /* internal: the rows set by as_options_put            */
} as_det_options;

void as_det_options_init(as_det_options *o);
int  as_det_options_check(const as_det_options *o, as_common *c);
/* as_options_set(AS_FOR_DET, o, ...) */
int  as_det_options_set(as_det_options *o, const char *name, double value,
                        const char *text, as_common *c);

/* BSS sparsity factor for a target eps in (0, 1): b = ((1 + sqrt(1 - eps^2)) / eps)^2,
   the b > 1 whose barriers give (1 - eps) I <= A <= (1 + eps) I with
   eps = 2 sqrt(b) / (b + 1) (Batson, Spielman, Srivastava, Twice-Ramanujan
   sparsifiers, SIAM J. Comput. 41(6), 2012, Thm 3.1). */
double as_bss_b(double eps);

/* The default presample (option 'presample' = 1): draws of the randomized
   stage for n rows, ceil(AS_DET_PRESAMPLE_FACTOR n ln n) and at least 2 n. */
#define AS_DET_PRESAMPLE_FACTOR 8.0
int64_t as_det_presample_m(int64_t n);

/* The deterministic algorithm: BSS on the whitened columns, at most
   ceil(b rank) distinct columns (out->b, out->max_columns); Y is checked for
   overflow, and the metrics asked by o->error / o->spectral reuse X X'. */
int as_det(const as_matrix *X, const as_det_options *o, as_result *out, as_common *c);

#endif
