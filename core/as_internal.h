/* as_internal.h: helpers shared by the core's files (allocation, errors, column loops, private entry points). */
#ifndef AS_INTERNAL_H
#define AS_INTERNAL_H

#include "attsparse.h"
#include "lapack.h"

/* One floating-point contract whoever compiles the core (R CMD INSTALL with
   R's flags, Octave's mkoctfile, a user's -march=native): no fused
   multiply-add contraction, so that the same sums give the same bits in both
   front-ends (make check-flags builds the core with -march=native
   -ffp-contract=fast and compares). Every core file includes this header
   first. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* ================================================================ the core's own entry points
   (no front-end calls them; tests and bench tools include this header) */
/* ---- common: threads */
#define AS_THREADS_MAX 1024
/* ---- matrix.c: views and checks */
/* Z = [Q; K] ((n1 + n2) x d) over two views, Q and K dense or CSC (mixed is
   fine), no data copied: column j of Z is Q's column j, then K's with rows
   offset by n1. Every entry point that takes an X takes Z (attention with
   Q != K: a spectral sparsifier of Z bounds the error of Att(Q, K)); Q and K
   must outlive Z. */
void as_view_stacked(as_matrix *Z, const as_matrix *Q, const as_matrix *K);
/* The same, naming the input `name` in messages (e.g. "Y" for a second matrix). */
int as_matrix_check_named(const as_matrix *A, const char *name, as_common *c);
int64_t as_nnz(const as_matrix *A);          /* stored entries (n*d if dense) */
/* ---- result.c and estimate.c: the error estimate a result carries */
/* Which error estimate a randomized result carries (as_sample.estimate;
   NONE to BOOTSTRAP are also the choices of option 'estimate'): GAUSSIAN
   (the default) from the sampling variance, BOOTSTRAP from resamples (see
   as_rand); EXACT when the sample keeps every column of X that has a
   chance, each for certain, so that Y Y' = X X' and the estimates are 0. */
enum { AS_ESTIMATE_NONE = 0, AS_ESTIMATE_GAUSSIAN = 1, AS_ESTIMATE_BOOTSTRAP = 2, AS_ESTIMATE_EXACT = 4 };
/* Why a result carries no estimate (as_sample.estimate_why). */
enum { AS_WHY_MADE = 0,        /* it carries one                                   */
       AS_WHY_NOT_ASKED = 1,   /* option 'estimate' said none                      */
       AS_WHY_EMPTY = 2,       /* the sample is empty while X is not               */
       AS_WHY_NO_CHANCE = 3,   /* every kept column was certain while others were
                                  left out: Y shows nothing of what it missed     */
       AS_WHY_OVERFLOW = 4,    /* Y Y' overflows                                   */
       AS_WHY_ONE_DRAW = 6,    /* i.i.d. sampling with m = 1: one draw shows nothing
                                  of its spread                                    */
       AS_WHY_REFIT = 7 };     /* option 'refit': the weights were fitted to X X',
                                  whose rel_error is exact                         */
/* The reason in words ("" for AS_WHY_MADE). */
const char *as_estimate_why(int why);
/* The name of an AS_ESTIMATE_* kind ("bootstrap", "none", ...). */
const char *as_estimate_name(int kind);
/* ---- result.c: conditions of presence of the result fields */
/* Conditions of presence (as_field.when): a row with when == 0 is always
   present; else when one of its bits is in the sample's 'has'. */
enum { AS_HAS_KEYS = 1,      /* queries != keys: K given                       */
       AS_HAS_VALUES = 2,    /* values V given                                 */
       AS_HAS_PRESAMPLE = 4, /* det with a randomized first stage              */
       AS_HAS_SPECTRAL = 8,  /* attention_error with spectral = true           */
       AS_HAS_BLOCKS = 16,   /* X read by blocks (as_blocks)                   */
       AS_HAS_REFIT = 32,    /* option 'refit'                                 */
       AS_HAS_CANDIDATES = 64, /* greedy: the candidates are a sample           */
       AS_HAS_MEMORY = 128 };  /* greedy: 'memory' held fewer columns than a round asked for */

/* ---- rand.c and sample.c: the randomized choices */
/* ------------------------------------------------------------------ randomized */
/* MIXED: (p_leverage + p_norm) / 2, each part normalized to sum 1.
   AUTO (the default): LEVERAGE, or in target mode the one of LEVERAGE, NORM,
   MIXED whose pilot sample has the smallest estimated error per kept column. */
enum { AS_PROB_LEVERAGE = 0, AS_PROB_UNIFORM = 1, AS_PROB_NORM = 2, AS_PROB_MIXED = 3,
       AS_PROB_AUTO = 4 };
/* IID: m draws with replacement, a column drawn c times gets weight
   sqrt(c / (m p_j)). POISSON: column j kept with probability
   q_j = min(1, m p_j), weight 1 / sqrt(q_j); the decision depends on
   (seed, j) only. */
enum { AS_SAMPLING_IID = 0, AS_SAMPLING_POISSON = 1 };
enum { AS_LEV_APPROX = 0, AS_LEV_EXACT = 1 };
enum { AS_JL_GAUSSIAN = 0, AS_JL_AMS = 1 };

/* ---- options.c */
enum { AS_OPT_REAL = 0, AS_OPT_WHOLE = 1, AS_OPT_FLAG = 2, AS_OPT_CHOICE = 3 };
/* The row of `name` (exact, lower case) for one of `calls`; NULL if none. */
const as_option *as_option_find(const char *name, unsigned calls);
/* AS_OK and *op, or AS_ERR_ARG "unknown option 'foo'; valid options: ..." */
int as_option_lookup(const char *name, unsigned calls, const as_option **op, as_common *c);
/* What a value of op must be: "a whole number in [1, 64]", "true or false",
   "one of iid|poisson", for messages about values of the wrong host type. */
const char *as_option_expect(const as_option *op, char *buf, size_t len);

/* AS_OK when v is a value of op (a number; a choice's position), else
   AS_ERR_ARG with a message naming the option. */
int as_option_check(const as_option *op, double v, as_common *c);

/* Set option `name` of `call` (one AS_FOR_*) in `o`, the options struct of
   that call: a number (value; AS_OPT_FLAG takes 0 or 1) or, when text is not
   NULL, a string (AS_OPT_CHOICE). Name, kind and range are checked here, with
   messages naming the option; 'threads' and 'verbose' go to c. */
int as_options_set(unsigned call, void *o, const char *name, double value,
                   const char *text, as_common *c);
#define AS_SEED_SPAN 2147483647.0
/* ---- rand.c */
/* The spectral error asked for when eps is not given (outside target mode). */
#define AS_EPS_DEFAULT 0.5

/* Resamples of the bootstrap error estimate and the quantile reported. */
#define AS_ESTIMATE_B 30
#define AS_ESTIMATE_QUANTILE 0.95

int  as_rand_options_check(const as_rand_options *o, as_common *c);
/* The eps and sampling a run uses: the given ones, else the defaults above
   (as_rand_eps: NaN in target mode when eps is not given). */
double as_rand_eps(const as_rand_options *o);
int    as_rand_sampling(const as_rand_options *o);
/* as_options_set(AS_FOR_RAND, o, ...) */
int  as_rand_options_set(as_rand_options *o, const char *name, double value,
                         const char *text, as_common *c);
/* Largest m accepted (draws are counted, not stored; see AS_IID_MULTINOMIAL). */
#define AS_M_MAX 2147483647LL
/* i.i.d. sampling draws its counts as a multinomial (O(d), one binomial a
   column) from this many draws on when m >= d, else one draw at a time
   (O(m log d); 1e8 draws take about 6 s): 2^24, above the m of any default
   run on the inputs the tests and fixtures use, whose draws keep their bits. */
#define AS_IID_MULTINOMIAL 16777216LL

/* Draws from the matrix Chernoff bound (Tropp 2012, Thm 1.1) when every
   p_j >= tau_j / (beta rank), failing with probability at most delta:
   m = ceil(beta * rank * log(2 rank / delta) / ((1+eps) log(1+eps) - eps)).
   as_rand's default m is as_default_m(rank, eps, delta_s, out->beta): with
   o->beta >= 1 (the user's factor) or exact scores delta_s = delta; with
   approximate scores delta_s = delta / 2 and out->beta = (b / a) (Sigma / rank),
   Sigma the sum of the approximate scores and b / a the sketches' tail
   factors (the other delta / 2; core/leverage.c); mixed probabilities twice that; norm and
   uniform ones, which carry no such bound, beta = 2.
   Returns a double so that an oversized m can be reported, not wrapped. */
double as_default_m(int64_t rank, double eps, double delta, double beta);
/* The beta of norm and uniform probabilities, which carry no such bound. */
#define AS_BETA_UNBOUNDED 2.0
/* The randomized algorithm: o->m columns (or the default m) sampled i.i.d.
   or by Poisson sampling from the chosen probabilities, repeats merged and
   reweighted, then the error estimate o->estimate asks for, from the kept
   columns alone (gaussian: core/estimate_gauss.c; bootstrap: estimate.c).
   With o->rel (target mode) m is chosen over rounds of Poisson samples until
   rel_estimate <= rel (core/target.c says how); out->rounds counts them. X X'
   is never formed but for the metrics ('error', 'spectral'). */
int as_rand(const as_matrix *X, const as_rand_options *o, as_sample *out, as_common *c);

/* AS_OK when every entry of Y = X(:, index) * diag(weight) is finite; else
   AS_ERR_INPUT naming the column whose weight times entry overflows. as_rand
   calls it; front-ends call it after as_det. */
int as_sample_check_finite(const as_matrix *X, const as_sample *S, as_common *c);

/* ---- det.c */
/* ------------------------------------------------------------------ deterministic */
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
int as_det(const as_matrix *X, const as_det_options *o, as_sample *out, as_common *c);

/* ---- greedy.c */
/* ------------------------------------------------------------------ greedy */
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
   and its heavy columns are at most a quarter of them; ROUNDS: the rounds;
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
int as_greedy(const as_matrix *X, const as_greedy_options *o, as_sample *out, as_common *c);


/* ---- gram.c and metrics.c */
/* AS_OK when every entry of the n x n Gram G of the input `name` is finite;
   else AS_ERR_INPUT ("X X' overflows ..."): call it before as_softmax.
   name "[X; K]" (or "[X; K] ..." for a sample of it): the stacked input of
   Q != K, whose message names X and K. */
int as_gram_finite(int64_t n, const double *G, const char *name, as_common *c);

/* Row-softmax of a Gram matrix: Att = D^-1 exp(G), row maximum subtracted. */
void as_softmax(int64_t n, const double *G, double *Att);


/* Compare G = X X' with H = Y Y' (both n x n). */
int as_compare_gram(int64_t n, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c);

/* Metrics of Y = X(:, index) * diag(weight) against X. */
int as_attention_error(const as_matrix *X, int64_t k, const int64_t *index,
                       const double *weight, int spectral, as_metrics *out, as_common *c);

/* ---- metrics.c */
/* The same with G = X X' (n x n) given, e.g. summed over blocks of columns
   of an X that is never in memory; Y(:, t) is scaled by weight[t] (weight
   NULL: 1). */
int as_attention_error_gram(int64_t n, const double *G, const as_matrix *Y, const double *weight,
                            const as_metrics_options *o, as_metrics *out, as_common *c);
/* ---- qk_attention.c */
/* C ((nrow(A)) x (b1 - b0), column-major) = A(:, idx) diag(w)^2 B(b0:b1-1, idx)':
   row j of C pairs row j of A with rows b0.. of B. index == NULL: all columns,
   weight == NULL: weights 1. A, B dense or CSC with the same ncol. Dense A and
   B (a large product): BLAS dgemm in blocks; otherwise each entry is summed in
   column order. The same bits on any thread count either way. */
int as_cross_gram(const as_matrix *A, const as_matrix *B, int64_t k, const int64_t *index,
                  const double *weight, int64_t b0, int64_t b1, double *C, as_common *c);

typedef struct as_qk_metrics {
    as_metrics att;      /* of Att(Q, K) = row-softmax(Q K'): inf, rel, baseline
                            (uniform 1/n2), r = max |Q K'|, eps_spectral of the
                            stacked Z = [Q; K], bound = exp(2 eps max_i ||q_i||
                            max_j ||k_j||) - 1                                 */
    double out_error;    /* max |Att~ V - Att V|; NaN without V               */
    double out_rel_error;/* max_il |(Att~ V - Att V)_il| / sum_j Att_ij |V_jl|;
                            NaN without V (0/0 counts 0)                       */
} as_qk_metrics;

/* Metrics of Q~ = Q(:, idx) diag(w), K~ = K(:, idx) diag(w) against Q, K
   (Z = [Q; K] a stacked view); V (n2 x dv, column-major) may be NULL. */
int as_qk_error(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                const double *V, int64_t dv, int spectral, as_qk_metrics *out, as_common *c);

/* as_rand and as_det with keys K and values V (X plays the queries Q): the
   sample is of Z = [X; K] (K NULL: of X), and the metrics the options ask for
   come from the same call: with K those of Att(X, K) in out->metrics (the
   symmetric ones of Z are not computed), with V out->out_error and
   out->out_rel_error (K NULL: K = X); error_time counts them all. K NULL and
   V NULL: as_rand, as_det. K: as many columns as X; V: n2 x dv, column-major,
   n2 = nrow(K) (K NULL: nrow(X)), finite. */
int as_rand_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
                const as_rand_options *o, as_sample *out, as_common *c);
int as_det_qkv(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv,
               const as_det_options *o, as_sample *out, as_common *c);

/* ---- example.c */
#define AS_EXAMPLE_N 100
#define AS_EXAMPLE_D 20000
#define AS_EXAMPLE_R 0.05
#define AS_EXAMPLE_SEED 1
#define AS_EXAMPLE_MAX 4e9
/* ---- rng.c */
/* Counter-based generator: depends on (seed, stream, index) only. */
uint64_t as_rng_u64(uint64_t seed, uint64_t stream, uint64_t index);
double   as_rng_unif(uint64_t seed, uint64_t stream, uint64_t index);   /* in (0, 1) */
double   as_rng_normal(uint64_t seed, uint64_t stream, uint64_t index);
/* A Binomial(n, p) variate (n a whole number up to 2^53, p in [0, 1]), exact:
   inversion when n min(p, 1 - p) < 10, else Hormann's BTRD; it reads the
   uniforms of indices index * 2^16 ... of the stream. */
double   as_rng_binomial(double n, double p, uint64_t seed, uint64_t stream, uint64_t index);

/* ---- precheck.c */
#define AS_PRECHECK_ROWS 1000


/* Allocation through the front-end's hook; NULL sets AS_ERR_NOMEM. */
void *as_malloc(as_common *c, size_t count, size_t size);
void *as_calloc(as_common *c, size_t count, size_t size);

/* A number for messages: whole numbers in full, powers of ten >= 1e6 as 1e6,
   Inf and NaN as R and Octave print them (options.c). */
const char *as_fmt_num(double v, char *buf, size_t len);

/* The C type of a member that an option row (as_option.store) or a result
   row (as_field.store) reads and writes at its offsetof, as a double. */
enum { AS_STORE_DOUBLE = 0,
       AS_STORE_INT = 1,
       AS_STORE_INT64 = 2,
       AS_STORE_SEED = 3,      /* uint64_t: AS_SEED_DRAW read as -1, and stored
                                  for a value below 0                       */
       AS_STORE_UNSIGNED = 4,
       AS_STORE_COUNT = 5 };   /* int64_t: 0 or less (none) read as NaN     */
/* Read the member of type `store` at base + at as a double, or write v to it
   cast to that type (options.c); v must be in the type's range, as a value
   that passed its option row's check is. */
double as_stored_get(const void *base, size_t at, int store);
void   as_stored_set(void *base, size_t at, int store, double v);

/* Record an error (printf-style message) and return the status. */
int as_error(as_common *c, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Ask the front-end whether to stop; call on the main thread only. */
int as_interrupted(as_common *c);

/* Target mode's tunables (core/target.c says what each does). */
#define AS_PILOT_FACTOR 4
#define AS_TARGET_ROUNDS 12
#define AS_TARGET_SHRINK 0.8
#define AS_TARGET_MARGIN 1.5
#define AS_TARGET_GROW 4
#define AS_TARGET_FEW 30
/* Read by blocks, a growing round gathers the columns of this many times its
   m (a superset of its own: the rounds after it, up to that m, read nothing). */
#define AS_TARGET_READ_AHEAD 4
/* The minimax fit weighs every entry of the n x n error: made where n is at
   most this, the default of the greedy method's option 'minimax' and the rows
   the refit of option 'refit' allows it (its time grows steeply with n: 4
   times the run's at 128 rows, 33 times at 200). */
#define AS_GREEDY_MINIMAX_ROWS 90
/* Samples of more columns than this are refitted without the k x k normal
   equations: the default of c->tune.refit_k_max (refit.c says why). */
#define AS_REFIT_K_MAX 1024
/* The greedy method's kept columns are fitted without them past this many
   (the K-based fit's five k x k arrays: 670 MB), and before where that costs
   less (refit_cd.c's as_gr_kfree): the default of c->tune.greedy_k_max. */
#define AS_GREEDY_K_MAX 4096

/* A long call's progress line: always when verbose; otherwise once the call
   has run c->tune.status_after seconds (2), at most one every
   c->tune.status_every seconds (2): a user waiting on a long call sees it
   move; a short call prints nothing. */
void as_status(as_common *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Emit a progress line when verbose. */
void as_progress(as_common *c, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int as_threads(const as_common *c);
/* Below this many multiply-adds a call's parallel regions run on one thread:
   starting them, and the spin-waiting of OpenMP threads between them, cost
   more than they save (on a busy machine the waiting threads take the CPU
   from the working one: the bootstrap estimate's 31 small Grams of Y ran 20x
   slower with two spinning threads than on one). About 10 ms of work: 3e7.
   c->tune.parallel_min_work, so that the tests of thread-count invariance can set it to 0. */
/* as_threads, or 1 when the call's work (multiply-adds) is below c->tune.parallel_min_work. */
int as_threads_for(const as_common *c, double work);

/* Wall-clock seconds from an arbitrary origin (for as_sample.time). */
double as_wtime(void);

/* The metrics of Y = X(:, index) * diag(weight) against X; G = X X' when the
   caller has it (else NULL: computed here). */
int as_metrics_of(const as_matrix *X, const double *G, int64_t k, const int64_t *index,
                  const double *weight, int spectral, as_metrics *out, as_common *c);
/* Whether the spectral metrics are asked for: option 'spectral' (-1, its
   default: as option 'error'). */
int as_spectral_asked(int error, int spectral);
/* The metrics not asked for set to NaN: inf, baseline, r without 'error',
   rel without `rel`. */
void as_metrics_mask(as_metrics *M, int error, int rel);
/* S->metrics and S->error_time as asked by the options 'error' and 'spectral'
   (spectral < 0: as error); G as for as_metrics_of. */
int as_sample_metrics(const as_matrix *X, const double *G, int error, int spectral,
                      as_sample *S, as_common *c);

/* Threads the machine can be asked for: 4x its online CPUs (libgomp exits
   the process when it cannot create a thread). */
int as_threads_cap(void);

/* AS_OK when `bytes` of working arrays fit under cap_mb MiB (0: 3/4 of the
   physical memory); else AS_ERR_TOOBIG saying `what` needs them. */
int as_mem_check(as_common *c, double bytes, double cap_mb, const char *what);
/* The same with the bytes' own noun (" of working arrays" above; "" for a
   result the caller allocates). */
int as_mem_check_as(as_common *c, double bytes, double cap_mb, const char *what, const char *noun);
/* Record in S what made it: the call (AS_FOR_*) and the options the result
   fields show (NaN: not applicable) (result.c). */
void as_sample_options(as_sample *S, unsigned call, double seed, double delta, double rel_target);

/* 3/4 of the physical memory, or of the process's limit (RLIMIT_AS,
   RLIMIT_DATA) when lower, in MiB (0: unknown). */
double as_mem_default_mb(void);
/* Set the BLAS's thread count to n (n <= 0: leave it) where the library
   allows it (OpenBLAS, FlexiBLAS); returns the count before (0: unknown, and
   nothing was set). */
int as_blas_threads_set(int n);

/* Run BODY once per stored entry of column j of A (dense or CSC), with ROW
   (int64_t, plus OFF) and VAL (double) set; the index width is resolved once
   per column, not per entry. */
#define AS_FOR_COL_PART(A, j, OFF, ROW, VAL, BODY)                              \
    do {                                                                        \
        const as_matrix *A_ = (A);                                              \
        int64_t j_ = (j), k_, e_, o_ = (OFF);                                   \
        if (A_->kind == AS_DENSE) {                                             \
            const double *c_ = A_->x + j_ * A_->ld;                             \
            for (k_ = 0; k_ < A_->nrow; k_++) {                                 \
                int64_t ROW = o_ + k_; double VAL = c_[k_]; BODY                \
            }                                                                   \
        } else if (A_->kind == AS_CSC32) {                                      \
            for (k_ = A_->p32[j_], e_ = A_->p32[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = o_ + A_->i32[k_]; double VAL = A_->x[k_]; BODY    \
            }                                                                   \
        } else {                                                                \
            for (k_ = A_->p64[j_], e_ = A_->p64[j_ + 1]; k_ < e_; k_++) {       \
                int64_t ROW = o_ + A_->i64[k_]; double VAL = A_->x[k_]; BODY    \
            }                                                                   \
        }                                                                       \
    } while (0)

/* The same for any view: a stacked Z = [Q; K] walks Q's column, then K's with
   rows offset by nrow(Q) (a `break` in BODY leaves only the part it is in). */
#define AS_FOR_COL(A, j, ROW, VAL, BODY)                                        \
    do {                                                                        \
        const as_matrix *Z_ = (A);                                              \
        int64_t jz_ = (j);                                                      \
        if (Z_->kind == AS_STACKED) {                                           \
            AS_FOR_COL_PART(Z_->part[0], jz_, 0, ROW, VAL, BODY);               \
            AS_FOR_COL_PART(Z_->part[1], jz_, Z_->part[0]->nrow, ROW, VAL, BODY); \
        } else AS_FOR_COL_PART(Z_, jz_, 0, ROW, VAL, BODY);                     \
    } while (0)

/* Stored entries of column j. */
static inline int64_t as_col_nnz(const as_matrix *A, int64_t j)
{
    if (A->kind == AS_DENSE) return A->nrow;
    if (A->kind == AS_CSC32) return (int64_t)A->p32[j + 1] - A->p32[j];
    if (A->kind == AS_STACKED) return as_col_nnz(A->part[0], j) + as_col_nnz(A->part[1], j);
    return A->p64[j + 1] - A->p64[j];
}

/* How messages name an input: "X", or "[X; K]" for the stacked view that
   as_rand_qkv and as_det_qkv sample (X plays the queries). */
const char *as_input_name(const as_matrix *A);
/* Its rows for messages: "nrow(X) = 20", "nrow(X) + nrow(K) = 20 + 20 = 40". */
const char *as_input_rows(const as_matrix *A, char *buf, size_t len);

/* Squared norm of column j. */
double as_col_norm2(const as_matrix *A, int64_t j);
/* The norm-sampling weight of column j, the entries divided by scale (1: as
   they are): ||x_j||^2, and for a stacked [Q; K] the product ||q_j|| ||k_j||
   (Drineas, Kannan, Mahoney 2006), which is ||q_j||^2 to the bit when K = Q. */
double as_col_norm_prob(const as_matrix *A, int64_t j, double scale);

/* The refit of option 'refit' (as_rand, as_det; refit.c): the weights of
   S's columns (S->index) chosen again, nonnegative, by the greedy method's
   reweighted least squares against X X' (and its minimax fit where n^2 is
   small), the weights with the smallest exact rel kept (the sample's own among them); zero weights dropped (S->k may
   shrink); S->refit_rel the rel before, S->estimate none (AS_WHY_REFIT).
   *G: X X' (n x n) when the caller has it, else NULL: then computed here and
   handed back (the caller frees it with as_free); mem_mb: option 'memory'. */
int as_refit(const as_matrix *X, double **G, double mem_mb, as_sample *S, as_common *c);
/* The greedy method's tunables are in c->tune (tests and benchmarks set them
   on their context): greedy_batch, the share of the kept columns added per
   round; greedy_lawson, the reweighting steps per refit; greedy_diag, the
   weight of the diagonal entries tried at each refit (in rows);
   greedy_prune_share, the prune's budget (times the rounds' refits); and
   greedy_centre, greedy_gain, greedy_two, parts switched off for its
   ablation (1: on). */

/* ---- Q != K (qk_attention.c) */
/* as_qk_error with its two N x N Grams under mem_mb MiB (0: 3/4 of the
   physical memory; as_rand_qkv, as_det_qkv: the option 'memory'). */
int as_qk_error_cap(const as_matrix *Z, int64_t k, const int64_t *index, const double *weight,
                    const double *V, int64_t dv, int spectral, double mem_mb, as_qk_metrics *out,
                    as_common *c);
/* V's values (its shape is the caller's: n2 x dv, as_qkv_shapes); K is
   checked with X by the run (the stacked view: as_matrix_check). */
int as_qkv_check_v(int64_t n2, const double *V, int64_t dv, as_common *c);
/* Doubles in one block of logits of as_attention_qkv with V (default 4 Mi).
   (c->tune.qk_block) */
/* Multiply-adds from which a dense cross Gram calls dgemm (default 1 Mi; gram.c).
   (c->tune.qk_blas_madds) */
/* scores[j] = || z_j' N ||^2 for a stacked view (leverage.c, beside as_scores_cols; NT is
   q x N with leading dimension qs). */
int as_qk_scores(const as_matrix *Z, const double *NT, int64_t q, int64_t qs, double *scores,
                 as_common *c);
/* log sum_j exp(g[j]) over j < n, the maximum subtracted (metrics.c). */
double as_lse(int64_t n, const double *g);
/* as_compare_gram for any view: for a stacked Z, the metrics of the cross
   attention row-softmax(Q K') read from the blocks of G = Z Z', H = Z~ Z~' (metrics.c). */
int as_compare_view(const as_matrix *X, const double *G, const double *H, int spectral,
                    as_metrics *out, as_common *c);


/* ---- long dense linear algebra in pieces between interrupt polls, the BLAS
   on one thread (linalg.c) */
/* Symmetric eigendecomposition of the n x n matrix A (lower triangle;
   destroyed): eigenvalues ascending in w, eigenvectors in Z (n x n, not A)
   when Z != NULL (dsyevd's algorithm; without vectors dsyevr's). */
int as_syev(int n, double *A, double *w, double *Z, as_common *c);
/* dgeqp3 (every column free: jpvt is set here), its panels narrowed where
   they would be long. */
int as_geqp3(int m, int n, double *A, int lda, int *jpvt, double *tau, as_common *c);
/* dgemm: C = alpha op(A) op(B) + beta C (m x n, k inner), by bands of C's
   columns on the core's threads and rounds of the inner dimension. */
int as_gemm_blocks(const char *ta, const char *tb, int64_t m, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, const double *B, int64_t ldb, double beta, double *C,
                   int64_t ldc, as_common *c);
/* dsyrk: C = alpha A A' (trans "N", A n x k) or A'A ("T", A k x n) + beta C,
   the triangle uplo, by tiles on the core's threads. */
int as_syrk_blocks(const char *uplo, const char *trans, int64_t n, int64_t k, double alpha,
                   const double *A, int64_t lda, double beta, double *C, int64_t ldc, as_common *c);
/* B (r x q) = U^-1 B for U upper triangular (r x r), by bands of B's columns. */
int as_trsm_blocks(int64_t r, int64_t q, const double *U, int64_t ldu, double *B, int64_t ldb,
                   as_common *c);
/* Bytes of memory traffic of one panel of as_geqp3, and multiply-adds of one
   round of the products and of the eigenvectors' back-transformation,
   between polls (tests set less): c->tune.la_pass_bytes, la_round_madds. */

/* Whitening of the Gram G (n x n, destroyed): W (r x n, allocated) with
   W G W' = I_r over the eigenvalues of G above n 16 DBL_EPSILON lambda_max(G)
   (whiten.c; the deterministic algorithm and the spectral eps). */
int as_whiten(int64_t n, double *G, double **W, int64_t *rank, as_common *c);
/* The same, with (null not NULL) the eigenvectors of the eigenvalues at or
   below the cut (n x (n - rank), allocated; NULL when rank = n) and (lmax not
   NULL) the largest eigenvalue of G. */
int as_whiten_null(int64_t n, double *G, double **W, int64_t *rank, double **null, double *lmax,
                   as_common *c);

/* ---- the block passes (rand_passes.c; driven by block_run.c, and by as_rand
   over X as one block): see "block input" in attsparse.h */
typedef struct as_block_plan {
    int64_t n, d;       /* X is n x d                                       */
    int64_t s1, s;      /* sketch rows, nonzeros per column of S1           */
    int64_t chunk;      /* canonical chunk width: a multiple of 1024 that
                           depends on n and s1 only                          */
    int64_t nchunk;     /* ceil(d / chunk)                                  */
    int     need_lev;   /* the probabilities need leverage scores           */
    int     need_nrm;   /* they need the squared column norms               */
    int     in_memory;  /* 1: the scores need X itself (d <= s1: X is no
                           larger than a sketch): read X whole, as_rand     */
} as_block_plan;
/* The plan for an n x d X and options o (checked); AS_ERR_ARG for leverage =
   "exact" when d > s1, and for 'rel' then (target mode needs X in memory). */
int as_block_plan_init(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P,
                       as_common *c);
/* leaf (n x s1) += S1(:, j0 .. j0+ncol-1) Xb', Xb being columns j0 ..
   j0 + ncol(Xb) - 1 of X, all in one chunk (each chunk's leaf from zeros, fed
   its columns in order). A CSC Xb may be a view into a larger CSC (p[0] > 0),
   here and in as_block_scores. Messages name X's own columns. */
int as_block_sketch(const as_block_plan *P, const as_matrix *Xb, int64_t j0, uint64_t seed,
                    double *leaf, as_common *c);
/* acc += leaf (n x s1), the chunks taken in order. */
void as_block_sketch_add(const as_block_plan *P, double *acc, const double *leaf);
/* The sketch's factor: N' (q x n, leading dimension qs, rows q .. qs-1 zero),
   the numerical rank, the JL width used (0: none) (leverage.c). */
typedef struct as_block_factor {
    int64_t rank, q, qs, s2;
    double *NT;          /* inside NTbuf                                    */
    double *NTbuf;       /* owned: release with as_block_factor_free        */
} as_block_factor;
int as_block_factor_run(const as_block_plan *P, const as_rand_options *o, const double *MT,
                        as_block_factor *F, as_common *c);
void as_block_factor_free(as_block_factor *F, as_common *c);
/* lev[t] = || x_{j0+t}' N ||^2 (NT NULL or q 0: scores 0) and nrm[t] =
   || x_{j0+t} ||^2, t < ncol(Xb); either output may be NULL. AS_ERR_INPUT when
   a score is not finite. */
int as_block_scores(const as_matrix *Xb, int64_t j0, const double *NT, int64_t q, int64_t qs,
                    double *lev, double *nrm, as_common *c);
/* The sampling from the scores of all d columns (lev, nrm as P says): index,
   weight, m, rank, sampling, probabilities; *term (owned, length k): each kept
   column's draw count (i.i.d.) or q (Poisson), for as_block_finish. A sum of
   nrm that over- or underflows is AS_ERR_INPUT (as_rand rescales X). */
int as_block_sample(const as_block_plan *P, const as_rand_options *o, int64_t rank,
                    const double *lev, const double *nrm, as_sample *out, double **term,
                    as_common *c);
/* Poisson decisions for columns j0 .. j0+len-1 (prob: theirs, total: the sum
   over all d): column j kept when its uniform (seed, j) is below
   q_j = min(1, m prob_j / total). Returns the count kept; index (global),
   weight 1/sqrt(q_j) and q (NULL: not wanted) of the kept ones when index is
   not NULL (sample.c). */
int64_t as_block_poisson(int64_t j0, int64_t len, const double *prob, double total, int64_t m,
                         uint64_t seed, int64_t *index, double *weight, double *q);
/* The diagonal of X X' (the rows' squared norms), which the error estimate
   reads (see as_estimate): leaf (n) += the squares of the entries of Xb row
   by row, Xb being columns of X that lie in one chunk;
   each chunk's leaf summed from zeros, its columns fed in order, the leaves
   added in chunk order (as_block_rowsq_add): any grid of whole chunks gives
   as_block_rowsq_all's bits. A CSC Xb may be a view into a larger CSC; the
   caller checks Xb's values. */
int as_block_rowsq(const as_matrix *Xb, double *leaf, as_common *c);
void as_block_rowsq_add(int64_t n, double *acc, const double *leaf);
/* Xs = X(:, out->index) (n x k, unweighted): Y's overflow check and, when
   o->estimate, the error estimate (as as_rand makes it), given rowsq, the
   diagonal of X X' as above (n doubles; NULL: unknown). */
int as_block_finish(const as_matrix *Xs, int64_t d, const as_rand_options *o, const double *term,
                    const double *rowsq, as_sample *out, as_common *c);
/* A view of columns j0 .. j1-1 of X (no copy); a stacked X's parts are
   viewed in parts[2] (the caller's, alive as long as V). */
void as_view_cols(const as_matrix *X, int64_t j0, int64_t j1, as_matrix *V, as_matrix parts[2]);
/* A CSC block may be a view into a larger CSC (p[0] > 0): V is the same
   block with its own column pointers from 0 (*p_own, allocated, or NULL). */
int as_block_rebase(const as_matrix *Xb, as_matrix *V, void **p_own, as_common *c);
/* as_matrix_check_named with the columns of A numbered as X's in messages
   (a block of a larger X): column j is X's cols[j] (cols NULL: j0 + j) (matrix.c). */
int as_matrix_check_from(const as_matrix *A, const char *name, int64_t j0, const int64_t *cols,
                         as_common *c);
/* Default sketch sizes: embedding rows, and JL columns (a double: it may be
   too large to cast; leverage.c). */
int64_t as_default_s1(int64_t n);
double as_default_s2(int64_t d, double delta);
/* The JL width the approximate scores of a rank-r X use: o->s2 or the
   default, 0 when not below the rank (no JL step) (leverage.c). */
int64_t as_jl_width(const as_rand_options *o, int64_t d, int64_t rank);
/* b / a of the sketches' tail bounds (leverage.c, the comment at the top):
   with probability >= 1 - delta/2 every approximate score of the d columns is
   at least tau_j / (b / a); s1 = 0 or s2 = 0: that sketch not used. */
double as_sketch_beta(int64_t s1, int64_t s2, int64_t d, double delta);

/* What the leverage scores of X used: numerical rank, embedding rows and
   nonzeros per column, JL width (0: not used; s1 = 0: exact scores). */
typedef struct as_lev_info {
    int64_t rank, s1, s, s2;
} as_lev_info;
/* as_leverage without the checks (rand.c). */
int as_leverage_run(const as_matrix *X, const as_rand_options *o, double *scores,
                    as_lev_info *info, as_common *c);
/* The factor of the exact scores: X' copied, its pivoted QR (leverage.c). */
int as_exact_factor(const as_matrix *X, const as_rand_options *o, as_block_factor *F, as_common *c);
/* Target mode (see as_rand in attsparse.h) as steps (target.c): as_target_new
   draws the pilots (lev, nrm as the candidates need; rowsq the diagonal of
   X X'; s1 the sketch rows, 0: exact scores); as_target_step estimates and
   draws from the columns at hand: X itself (X given to as_target_new), or
   (X NULL, block input) Xv holding the columns gathered[0..ng) gathered in
   this step, after those of earlier steps, in order; it returns when the run
   is done or needs columns that are not at hand, which as_target_wanted
   lists (increasing; it returns nonzero when done). as_target_result moves
   the final sample into out (index, weight, m, estimates, probabilities,
   rounds). The options o, lev, nrm and rowsq must outlive the run. */
typedef struct as_target as_target;
int  as_target_new(const as_matrix *X, int64_t d, int64_t rank, int64_t s1, const as_rand_options *o,
                   const double *lev, const double *nrm, const double *rowsq, as_target **T, as_common *c);
int  as_target_step(as_target *T, const as_matrix *Xv, const int64_t *gathered, int64_t ng, as_common *c);
int  as_target_wanted(const as_target *T, const int64_t **cols, int64_t *ncols);
void as_target_result(as_target *T, as_sample *out);
/* Where column j of X is among the columns at hand (X's own j in memory). */
int64_t as_target_position(const as_target *T, int64_t j);
void as_target_free(as_target *T, as_common *c);
/* Target mode on X in memory: out->rank and sketch sizes already set. */
int as_rand_target(const as_matrix *X, const as_rand_options *o, const double *lev,
                   const double *nrm, as_sample *out, as_common *c);

/* M' += S1(:, j0 + (0 .. ncol(X)-1)) X' (n x s1) in column order (leverage.c). */
int as_sketch_cols(const as_matrix *X, int64_t j0, int64_t s1, int64_t s, uint64_t seed,
                   double *MT, as_common *c);
/* scores[j] = || x_j' N ||^2, NT = N' (q x n, leading dimension qs) (leverage.c). */
int as_scores_cols(const as_matrix *X, const double *NT, int64_t q, int64_t qs, double *scores,
                   as_common *c);
/* The canonical chunk width for s1 sketch rows (rand_passes.c). */
int64_t as_block_chunk(int64_t s1);
/* as_block_plan_init without its checks (as_rand's own path, target mode included). */
void as_block_plan_fill(int64_t n, int64_t d, const as_rand_options *o, as_block_plan *P);
/* Pass 1 over X as one block: MT (n x s1) = the chunk-ordered sum (rand_passes.c). */
int as_block_sketch_all(const as_block_plan *P, const as_matrix *X, uint64_t seed, double *MT,
                        as_common *c);
/* The sampling of as_rand and as_block_sample: prob (a work array) from lev
   and nrm, then i.i.d. or Poisson (sample.c). out->s1 says how lev was
   computed (0: exact) for the default m; out->beta receives its beta. */
int as_rand_sample(int64_t d, int64_t rank, const double *lev, const double *nrm, int scheme,
                   const as_rand_options *o, double *prob, as_sample *out, double **term,
                   as_common *c);
/* The error estimate of kind `kind` (AS_ESTIMATE_GAUSSIAN or _BOOTSTRAP)
   of a sample whose columns are X(:, cols) (cols NULL: X's columns are the
   sample's), d the width of the whole input; term[t]: the draw count
   (i.i.d.) or q (Poisson) of the t-th kept column (estimate.c). rowsq (NULL:
   unknown): the diagonal of X X' (the rows' squared norms): a sample whose
   kept columns are all certain (or none) is exact when the diagonal of Y Y'
   is that of X X' (estimates 0), else it gets none (AS_WHY_NO_CHANCE,
   AS_WHY_EMPTY); the Gaussian estimate knows the error of the diagonal
   from it, and with diag_check the bootstrap is checked against it (round:
   the bootstrap's resample stream). Sets S->estimate and S->estimate_why. */
int as_estimate(const as_matrix *X, const int64_t *cols, int64_t d, as_sample *S, int sampling,
                const double *term, uint64_t seed, int round, const double *rowsq, int diag_check, int kind,
                as_common *c);
/* The Gaussian estimate (estimate_gauss.c; as_estimate calls it once it
   knows some column is left to chance): one Gram of Y and one of the
   columns left to chance, transformed. */
int as_estimate_gauss(const as_matrix *X, const int64_t *cols, as_sample *S, int sampling,
                      const double *term, const double *rowsq, as_common *c);
/* rowsq (n) = the diagonal of X X' summed as the block passes sum it (see
   as_block_rowsq): chunk leaves added in chunk order (rand_passes.c). */
int as_block_rowsq_all(const as_block_plan *P, const as_matrix *X, double *rowsq, as_common *c);
/* Nonzero (default): with Poisson sampling, as_estimate makes the Gram of
   the columns kept for certain once; 0: every resample's Gram whole.
   (c->tune.estimate_split) */
/* Whether o asks for an estimate; S->estimate_why says when not (estimate.c). */
int as_estimate_wanted(const as_rand_options *o, as_sample *S);
/* The estimate's working arrays (and target mode's rounds') on top of
   `bytes` of the sampling's, refused above the 'memory' cap (estimate.c). */
int as_estimate_memory(const as_matrix *X, const as_rand_options *o, double bytes, as_common *c);
/* The pieces of sampling that target mode shares (sample.c): prob from lev
   and nrm for one scheme (unnormalized); Poisson's q_j = min(1, m p / total);
   the Poisson sample of all d columns (*qk: q of each kept column, owned);
   the sum of v in order; whether all len values are finite; the beta of a
   scheme's probabilities and the failure probability left to sampling. */
void as_scheme_probabilities(int64_t d, int scheme, const double *lev, const double *nrm,
                             double *prob);
double as_poisson_q(int64_t m, double p, double total);
int as_sample_poisson(int64_t d, const double *prob, double total, int64_t m,
                      uint64_t seed, as_sample *out, double **qk, as_common *c);
double as_sum(int64_t d, const double *v);
int as_all_finite(int64_t len, const double *v);
double as_scheme_beta(int64_t d, int64_t rank, const double *lev, int scheme, int64_t s1,
                      const as_rand_options *o, double *delta_sampling);
/* The overflow check of Y from X(:, cols) (cols NULL: all columns of X) (sample.c). */
int as_sample_check_finite_cols(const as_matrix *X, const int64_t *cols, const as_sample *S,
                                as_common *c);

/* [lo, hi): the calling OpenMP thread's share of 0..n-1, in thread order
   (the whole range outside a parallel region). */
static inline void as_thread_band(int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t tid = 0, ntid = 1;
#ifdef _OPENMP
    tid = omp_get_thread_num();
    ntid = omp_get_num_threads();
#endif
    *lo = n * tid / ntid;
    *hi = n * (tid + 1) / ntid;
}

/* Nonzero (default): the sparse score pass uses 256-bit vectors on CPUs with
   AVX2 (same roundings as the baseline code); 0: baseline code only.
   (c->tune.scores_avx2) */

/* Fraction of the rows from which a column of a CSC X goes into as_gram's
   dense panels (> 1: none does); the default is measured by make bench-gram.
   (c->tune.gram_heavy) */
/* Share of X's light-column work from which as_gram_pair makes both Grams in
   one pass (below it, two passes; the same bits either way).
   (c->tune.gram_pair_share) */
/* Nonzero (default): as_gram's dense panels use 256-bit vectors on CPUs with
   AVX2 (same roundings as the baseline code); 0: baseline code only.
   (c->tune.gram_avx2) */
/* Nonzero (default): the spectral eps of a clearly positive definite X X'
   by Cholesky and dsygst; 0: always by the whitening (eigenvectors).
   (c->tune.spectral_chol) */
/* Whether column j of X goes into as_gram's dense panels (at least
   c->tune.gram_heavy n entries; every column of a dense X). */
int as_gram_is_heavy(const as_matrix *X, int64_t j, const as_common *c);
/* An n x n symmetric matrix's lower triangle from its upper one. */
void as_gram_mirror(int64_t n, double *G);
/* The multiply-adds of as_gram over columns index[0..k) of X (index NULL:
   all of them): dense panels n^2 / 2 a column, light columns z (z + 1) / 2. */
double as_gram_madds(const as_matrix *X, int64_t k, const int64_t *index, const as_common *c);
/* G = X X' and H = the Gram of X(:, index[0..k)) diag(weight) (as as_gram
   computes each, bit for bit), a CSC X's light columns in one pass for both
   when their pairs (2 n^2 doubles more) fit in 3/4 of the memory. */
int as_gram_pair(const as_matrix *X, int64_t k, const int64_t *index, const double *weight,
                 double *G, double *H, as_common *c);

/* Random streams (distinct constants keep the draws of each step independent). */
enum { AS_STREAM_OSNAP = 1, AS_STREAM_JL = 2, AS_STREAM_SAMPLE = 3, AS_STREAM_AMS = 4,
       AS_STREAM_POISSON = 5, AS_STREAM_BOOTSTRAP = 6, AS_STREAM_MULTINOMIAL = 7 };

#endif
