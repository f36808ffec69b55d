/* greedy.h: the greedy method's options and entry point (greedy.c; its options: options.c). */
#ifndef AS_GREEDY_H
#define AS_GREEDY_H

#include "as_internal.h"

/* The fewest columns for an attention error (greedy.c): columns chosen one
   batch at a time by how much each, alone and at its best weight, lowers a
   weighted least-squares proxy of rel (the row-centred error of Y Y' against
   X X', weighted toward the rows and entries where rel peaks), the weights
   of all kept columns refitted (nonnegative) after each batch. The method
   computes X X' and measures the exact rel of every Y it tries: the result's
   rel is a certificate, not an estimate. Deterministic (a seed only for the
   candidates' sample of a very wide X). */
typedef struct as_greedy_options {
    double   rel;          /* target exact rel, in (0, 1); NaN (default): 0.01
                              unless k is given (as_greedy_rel)                */
    int64_t  k;            /* column budget: the smallest rel found with at
                              most k columns; 0 (default): none               */
    int      error;        /* 0: no eps_spectral unless 'spectral' says so; the
                              metrics inf, rel, baseline, r are always given  */
    int      spectral;     /* nonzero: eps_spectral, bound; -1 (default): as error */
    double   mem_mb;       /* cap on the working arrays in MiB; 0: 3/4 of the
                              memory the process may use                      */
    int64_t  candidates;   /* the columns the selection draws from: 0 (default)
                              every column; else a Poisson sample of about this
                              many by squared norm (the heaviest kept for
                              certain), drawn with 'seed'                    */
    uint64_t seed;         /* the candidates' sample (or the sample path's draws);
                              AS_SEED_DRAW (default): drawn when a sample is made */
    int      approach;     /* AS_APPROACH_*: rounds over the candidates, or the
                              sample path for very wide sparse X              */
    int64_t  minimax;      /* the most rows of X for which the kept columns'
                              weights are also fitted to the largest error
                              itself (the minimax fit); default 90, 0: never */
    uint64_t given;        /* internal: the rows set by as_options_put         */
} as_greedy_options;

/* as_greedy_options.approach: AUTO (default) takes the sample path where a
   Gram of a sparse X costs more than 2e9 multiply-adds
   (the rounds, hundreds of passes each about as costly, would take hours)
   and its heavy columns are at most a quarter of them, else the rounds, with
   the sample path also tried on a sparse X with a target once they keep
   c->tune.greedy_beside_k columns (the better result is kept);
   ROUNDS: the rounds alone;
   SAMPLE: the heavy columns (as as_gram counts them) kept at weight 1, the
   others drawn by squared norm with 'seed' and refitted without the k x k
   normal equations, more drawn until rel meets the target, then pruned. */
enum { AS_APPROACH_AUTO = 0, AS_APPROACH_ROUNDS = 1, AS_APPROACH_SAMPLE = 2 };

#define AS_GREEDY_REL_DEFAULT 0.01

void as_greedy_options_init(as_greedy_options *o);
/* Every field against its row; 'rel' and 'k' together are AS_ERR_ARG. */
int  as_greedy_options_check(const as_greedy_options *o, as_common *c);
/* as_options_set(AS_FOR_GREEDY, o, ...) */
int  as_greedy_options_set(as_greedy_options *o, const char *name, double value,
                           const char *text, as_common *c);
/* The target a run uses: o->rel, else AS_GREEDY_REL_DEFAULT when no k is given, else NaN. */
double as_greedy_rel(const as_greedy_options *o);
/* The budget k capped at what X (n x d) lets a run keep: d columns, and
   n (n + 1) / 2 (the dimension of the symmetric matrices Y Y': a nonnegative
   fit needs no more columns, Caratheodory); the memory check sizes the run
   by it. 0 (no budget) stays 0. The front-ends call it before as_greedy. */
void as_greedy_options_fit(as_greedy_options *o, int64_t n, int64_t d);

/* The greedy method on X: out->index, weight (Y = X(:, index) diag(weight)),
   k, m (rounds), the metrics (rel exact: the certificate), rel_target, and
   max_columns (the budget k, 0: none). With 'rel' the fewest columns found
   whose rel meets it; if no column can lower the error further first, the
   best found, whose rel_error says so. With 'k', the smallest rel found with
   at most k columns. */
int as_greedy(const as_matrix *X, const as_greedy_options *o, as_result *out, as_common *c);

/* The minimax fit weighs every entry of the n x n error: made where n is at
   most this, the default of the greedy method's option 'minimax' and the rows
   the refit of option 'refit' allows it (its time grows steeply with n: 4
   times the run's at 128 rows, 33 times at 200). */
#define AS_GREEDY_MINIMAX_ROWS 90
/* The greedy method's kept columns are fitted without them past this many
   (the K-based fit's five k x k arrays: 670 MB), and before where that costs
   less (refit_cd.c's as_gr_kfree): the default of c->tune.greedy_k_max. */
#define AS_GREEDY_K_MAX 4096
/* The greedy method's tunables are in c->tune (tests and benchmarks set them
   on their context): greedy_batch, the share of the kept columns added per
   round; greedy_lawson, the reweighting steps per refit; greedy_diag, the
   weight of the diagonal entries tried at each refit (in rows);
   greedy_prune_share, the prune's budget (times the rounds' refits); and
   greedy_centre, greedy_gain, greedy_two, parts switched off for its
   ablation (1: on). */

#endif
