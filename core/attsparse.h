/* attsparse.h: the one public header of the attsparse C core (no R or Octave header here). */
#ifndef ATTSPARSE_H
#define ATTSPARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ status */
/* 0 is success, negative an error; the message is in as_common.msg.        */
#define AS_OK             0
#define AS_ERR_ARG       -1   /* an option is out of range or of a bad kind   */
#define AS_ERR_INPUT     -2   /* X is malformed (slots, sizes, NaN/Inf)       */
#define AS_ERR_NOMEM     -3   /* an allocation failed                         */
#define AS_ERR_LAPACK    -4   /* LAPACK reported a failure (info > 0)         */
#define AS_ERR_INTERRUPT -5   /* the front-end's interrupt hook said stop     */
#define AS_ERR_TOOBIG    -6   /* a size does not fit the index types in use   */

/* A short identifier per status ("badArgument", "noMemory", ...) for front-end
   error ids such as Octave's "attsparse:badArgument". */
const char *as_status_id(int status);

/* ------------------------------------------------------------------ context */
/* Internal tuning of the core (block sizes, crossovers, the greedy method's
   parts), set to their defaults by as_common_init. Tests and benchmarks may
   change them on their own context; the front-ends leave them alone. */
typedef struct as_tune {
    double parallel_min_work;  /* below this many multiply-adds: one thread      */
    double qk_block;           /* entries of a block of Q K' (as_attention_qkv)  */
    double qk_blas_madds;      /* dense cross products from this size: BLAS      */
    double gram_heavy;         /* share of n from which a column is heavy (> 1: none) */
    double gram_pair_share;    /* share of the work for one pass of a Gram pair  */
    double la_pass_bytes;      /* bytes per pass of a pivoted QR panel           */
    double la_round_madds;     /* multiply-adds per blocked round, a poll between */
    double greedy_batch;       /* greedy: share of the kept columns added a round */
    double greedy_diag;        /* greedy: weight of the diagonal                  */
    double greedy_prune_share; /* greedy: pruning's work, a share of the budget   */
    double det_phi_tol;        /* det: relative slack of the potentials           */
    int64_t det_refresh_cols;  /* det: columns between refreshes; 0: automatic    */
    int64_t refit_k_max;       /* refit: above this many columns, without K      */
    int64_t greedy_k_max;      /* greedy: above this many kept columns, fitted without K */
    int64_t nnls_newton_max;   /* greedy: above this many kept columns, their
                                  nonnegative solve is coordinate descent alone */
    int64_t greedy_beside_k;   /* greedy: kept columns at which the sample path is
                                  tried beside the rounds (sparse X, 'rel'); 0: never */
    double status_after, status_every; /* progress lines: after this many
                                  seconds of a call, at most one this often */
    int    greedy_lawson;      /* greedy: Lawson reweighting steps                */
    int    greedy_minimax;     /* greedy: steps of the minimax fit (0: none)      */
    int    greedy_centre, greedy_gain, greedy_two;  /* greedy: parts of the path  */
    int    estimate_split;     /* bootstrap estimate on split columns             */
    int    spectral_chol;      /* spectral error: try the Cholesky route first    */
    int    gram_avx2, scores_avx2;  /* AVX2 kernels when the CPU has them         */
} as_tune;

/* Passed to every call: hooks set by the front-end, and the status of the
   last call. The core never prints, exits or longjmps; it returns a status. */
typedef struct as_common {
    void *(*malloc_fn)(size_t size);          /* default: malloc           */
    void  (*free_fn)(void *ptr);              /* default: free             */
    int   (*interrupt_fn)(void *ctx);         /* nonzero: stop; may be NULL */
    void  (*print_fn)(void *ctx, const char *line);  /* progress; may be NULL */
    double (*unif_fn)(void *ctx);             /* a uniform number in [0, 1)
                                                 from the host's generator, for
                                                 a seed not given (see
                                                 AS_SEED_DRAW); NULL: seed 0  */
    void  *ctx;                               /* passed to the hooks above  */
    int    nthreads;       /* OpenMP threads; <= 0: the OpenMP default; at
                              most AS_THREADS_MAX and 4x the online CPUs
                              are used                                        */
    int    verbose;        /* 0 silent, 1 progress lines through print_fn     */
    double started;        /* when the call began (as_common_init): a long
                              one reports its progress through print_fn     */
    double reported;       /* when it last did                                */
    const char *phase;     /* the long step under way (NULL: none): its name
                              and the time so far are reported at the
                              interrupt polls                                */
    int    status;         /* status of the last call                         */
    char   msg[512];       /* message of the last error                       */
    as_tune tune;          /* internal tuning (above); as_common_init sets it */
} as_common;

void as_common_init(as_common *c);
void as_free(as_common *c, void *ptr);       /* frees what the core returned */

/* ------------------------------------------------------------------ input view */
/* A no-copy view of X (n x d). Dense: column-major, leading dimension ld >= n.
   CSC: column pointers p (length d+1, p[0] == 0), row indices i (length p[d],
   strictly increasing within a column), values x; 32- or 64-bit indices. */
enum { AS_DENSE = 0, AS_CSC32 = 1, AS_CSC64 = 2, AS_STACKED = 3 };

typedef struct as_matrix {
    int            kind;
    int64_t        nrow, ncol;
    int64_t        ld;           /* dense only */
    const double  *x;
    const int32_t *p32, *i32;    /* AS_CSC32 */
    const int64_t *p64, *i64;    /* AS_CSC64 */
    const struct as_matrix *part[2]; /* AS_STACKED: Z = [part[0]; part[1]] (see as_view_stacked) */
} as_matrix;

/* Fill a view; no data is copied. */
void as_view_dense(as_matrix *A, int64_t nrow, int64_t ncol, const double *x, int64_t ld);
void as_view_csc32(as_matrix *A, int64_t nrow, int64_t ncol, const int32_t *p,
                   const int32_t *i, const double *x);
void as_view_csc64(as_matrix *A, int64_t nrow, int64_t ncol, const int64_t *p,
                   const int64_t *i, const double *x);

/* Check sizes, column pointers, row indices and that every value is finite.
   Every entry point calls it; front-ends may call it first to fail early. */
int as_matrix_check(const as_matrix *A, as_common *c);

/* ------------------------------------------------------------------ results */
/* How far the attention of Y is from that of X (G = X X', H = Y Y'). */
typedef struct as_metrics {
    double inf;          /* max |Att(Y) - Att(X)|                          */
    double rel;          /* max |Att(Y) / Att(X) - 1|                      */
    double baseline;     /* rel of the uniform attention 1/n (Y = 0)       */
    double r;            /* max |G| entrywise                              */
    double eps_spectral; /* min eps: (1-eps) G <= H <= (1+eps) G; NaN if not asked */
    double bound;        /* exp(2 eps_spectral max_i G_ii) - 1; NaN if not asked */
} as_metrics;

/* Y(:, t) = weight[t] * X(:, index[t]), index 0-based, strictly increasing. */
typedef struct as_result {
    int64_t  k;         /* distinct columns                                */
    int64_t *index;     /* length k, owned: release with as_result_free    */
    double  *weight;    /* length k                                        */
    int64_t  m;         /* draws (randomized) or iterations (deterministic) */
    int64_t  rank;      /* numerical rank of X found by the QR/whitening    */
    int64_t  s1, s, s2; /* sketch sizes used (randomized, approx scores)    */
    double   eps_target;/* eps the run was asked for                        */
    double   eps_bound; /* det: (u-l)/(u+l) reached; rand: NaN              */
    /* randomized only (NaN or 0 otherwise): */
    double   rel_estimate; /* estimate of max |Att(Y)/Att(X) - 1| from Y alone,
                              its AS_ESTIMATE_QUANTILE quantile (as_rand: the
                              kinds); NaN when there is none                  */
    double   inf_estimate; /* the same for max |Att(Y) - Att(X)|              */
    int      estimate;     /* AS_ESTIMATE_* the two above carry (NONE: none)   */
    int      estimate_why; /* AS_WHY_*: why there is none (AS_WHY_MADE: there
                              is one); as_estimate_why says it in words       */
    int      probabilities;/* AS_PROB_* used (target mode may pick it)         */
    int      sampling;     /* AS_SAMPLING_* used (target mode: Poisson)        */
    int      rounds;       /* target mode: samples drawn; else 1               */
    double   beta;         /* p_j >= tau_j / (beta rank) for every column j with
                              probability >= 1 - delta/2 (approximate scores),
                              the factor of the default m (as_rand); NaN in
                              target mode and for as_det                      */
    /* deterministic only (NaN or 0 otherwise): */
    double   b;            /* BSS sparsity factor as_bss_b(eps)                */
    int64_t  max_columns;  /* column budget ceil(b rank): the BSS iterations   */
    int64_t  steps;        /* BSS steps made (up to 'batch' shifts each)          */
    double   presample_eps;/* with 'presample': spectral eps of the randomized
                              stage against X (NaN when 'error' is false)      */
    int64_t  presample_k;  /* with 'presample': its distinct columns (else 0)   */
    double   eps_composed; /* with 'presample': (1 + presample_eps)(1 + eps_bound) - 1,
                              the guarantee against X (NaN when not measured) */
    /* every run: */
    double   time;         /* seconds of the algorithm, metrics excluded       */
    double   error_time;   /* seconds of the metrics; NaN when none asked      */
    as_metrics metrics;    /* option 'error': inf, rel, baseline, r; option
                              'spectral': eps_spectral, bound; NaN otherwise
                              (as_rand_qkv, as_det_qkv with K: of Att(X, K))  */
    double   out_error;    /* as_rand_qkv, as_det_qkv with V and option 'error':
                              max |Att~ V - Att V|; NaN otherwise              */
    double   out_rel_error;/* the same, relative (as_qk_metrics)               */
    /* what made it (for the result fields below): */
    unsigned call;         /* AS_FOR_RAND, AS_FOR_DET, ... (AS_FOR_METRICS:
                              only metrics, see as_metrics_result)            */
    unsigned has;          /* AS_HAS_* of the run                              */
    double   seed;         /* the seed used (NaN: none)                        */
    double   delta;        /* rand: the failure probability asked (else NaN)  */
    double   rel_target;   /* rand, greedy: option 'rel' (NaN: not target mode) */
    int64_t  candidates;   /* greedy with option 'candidates': the columns of
                              its sample; the sample path: its light columns
                              drawn (else 0)                                   */
    int      approach;     /* greedy: AS_APPROACH_ROUNDS or AS_APPROACH_SAMPLE  */
    double   refit_rel;    /* option 'refit': the exact rel of the sample's own
                              weights, before the refit (NaN: no refit)        */
    /* X read by blocks (AS_HAS_BLOCKS): */
    int64_t  chunk;        /* the canonical chunk width                        */
    int64_t  blocks;       /* blocks of a pass over X                          */
    int64_t  reads;        /* passes that read X (the chosen columns' one too) */
} as_result;

void as_result_init(as_result *S);
void as_result_free(as_result *S, as_common *c);

/* ------------------------------------------------------------------ result fields */
/* Every field a front-end shows of a result, in the order it shows them: one
   table (core/result.c) that R's list, Octave's info struct and the tests
   are built from, so that the two front-ends cannot differ. A front-end
   loops over the rows of its call, skips the rows as_field_present says are
   absent, and turns each into a host value by its kind. */
enum { AS_FIELD_Y = 0,      /* the sketch Y = X(:, index) diag(weight): n x k,
                               sparse when X is (Octave: the first output)   */
       AS_FIELD_YK = 1,     /* with keys K: K(:, index) diag(weight)           */
       AS_FIELD_INDEX = 2,  /* the columns kept, 1-based                       */
       AS_FIELD_WEIGHT = 3, /* their weights                                   */
       AS_FIELD_NUMBER = 4, /* a number (as_field_number; NaN: not available) */
       AS_FIELD_TEXT = 5 }; /* a word (as_field_text)                          */
typedef struct as_field {
    const char *name;      /* as the user reads it ("rel_error", "seed", ...)  */
    int         kind;      /* AS_FIELD_*                                       */
    unsigned    calls;     /* AS_FOR_* mask of the calls whose results have it */
    unsigned    when;      /* AS_HAS_* mask; 0: always                          */
    const char *help;      /* one line: what it is                              */
    int         store;     /* internal: the member's C type (AS_STORE_*)         */
    size_t      at;        /* internal: the member's offsetof in as_result      */
    const char *(*word)(int value); /* internal: AS_FIELD_TEXT: the word of the
                              member's value; NULL: the choice of that value
                              in the option row of the same name            */
} as_field;

int             as_field_count(void);
const as_field *as_field_at(int t);           /* NULL when out of range */
/* Nonzero when row f belongs to results of `call` and S has it. */
int    as_field_present(const as_field *f, unsigned call, const as_result *S);
/* The value of a AS_FIELD_NUMBER row (NaN: not available). */
double as_field_number(const as_field *f, const as_result *S);
/* The value of a AS_FIELD_TEXT row into buf ("randomized", "poisson", ...). */
const char *as_field_text(const as_field *f, const as_result *S, char *buf, size_t len);
/* S (initialized here) holding only the metrics M of attention_error, for
   the same builders: fields inf, rel, baseline, r, and eps_spectral, bound
   when `spectral`. */
void as_metrics_result(const as_metrics *M, int spectral, as_result *S);
/* The warning a result carries (into buf; NULL: none), that front-ends raise
   as they return it: a figure that overflowed to Inf without being wrong --
   the relative metrics, the estimated rel error, the error of Att V. */
const char *as_result_warning(const as_result *S, char *buf, size_t len);
/* The warning of a result that missed its target (into buf; NULL: none),
   raised by the front-ends as they return it (Octave's identifier
   "attsparse:targetMissed"): a greedy run whose exact rel_error is above
   option 'rel' (no column lowered the error further, or 'memory' held no
   more: AS_HAS_MEMORY). */
const char *as_target_warning(const as_result *S, char *buf, size_t len);

/* ------------------------------------------------------------------ options */
/* Every option of the calls below is one row of one table (core/options.c):
   its user-facing name, kind, range, default and choices, and the calls that
   take it. Front-ends pass the user's options by name to as_options_put and
   list the names from the table; they never restate a range or a default. */
/* The calls an option belongs to (a bit mask in as_option.calls). */
enum { AS_FOR_RAND = 1,      /* as_rand: as_rand_options                      */
       AS_FOR_DET = 2,       /* as_det: as_det_options                        */
       AS_FOR_LEVERAGE = 4,  /* as_leverage: as_rand_options                  */
       AS_FOR_METRICS = 8,   /* attention_error: as_metrics_options           */
       AS_FOR_GRAM = 16,     /* sym_attention, gram: as_metrics_options       */
       AS_FOR_GREEDY = 32 }; /* as_greedy: as_greedy_options                  */

typedef struct as_option {
    const char *name;      /* as the user types it ("memory", "s1", ...)      */
    int         kind;      /* AS_OPT_*                                        */
    unsigned    calls;     /* AS_FOR_* mask                                   */
    double      lo, hi;    /* accepted range, ends open when lo_open/hi_open  */
    int         lo_open, hi_open;
    double      dflt;      /* the default (AS_OPT_CHOICE: its position); a
                              value outside the range means "chosen by the
                              core" (e.g. m = 0: from the Chernoff bound)     */
    const char *choices;   /* AS_OPT_CHOICE: "a|b|c", positions as the AS_* enums */
    const char *help;      /* one line: what it does, what its default is     */
    int         store;     /* internal: the value's C type (AS_STORE_*), and
                              whether it is held in as_common               */
    size_t      at[5];     /* internal: the value's offsetof in the options
                              struct of each call the row has (rand and
                              leverage, det, greedy, metrics and gram), or in
                              as_common                                      */
    int         takes_logical; /* AS_OPT_WHOLE: true/false accepted too (as 1/0);
                              AS_OPT_CHOICE: false its first choice, true its
                              default                                        */
} as_option;

int              as_option_count(void);
const as_option *as_option_at(int t);     /* row t, NULL when out of range */
/* The names of the options of `calls`, ", "-separated, into buf. */
const char *as_option_names(unsigned calls, char *buf, size_t len);
/* An option's value as the host language gave it (R, Octave), for
   as_options_put: the core, not the front-end, decides which host types an
   option takes, so that both front-ends accept and refuse the same values
   with the same messages. Names are matched exactly (lower case). */
enum { AS_HOST_NUMBER = 0,   /* real numbers (integer types too)               */
       AS_HOST_LOGICAL = 1,  /* true/false: flags; whole-number options marked
                                takes_logical (presample: true = the default) */
       AS_HOST_STRING = 2,   /* text: choices (Octave: a char row is one)      */
       AS_HOST_OTHER = 3 };  /* anything else (a function, a list, complex ...) */
typedef struct as_host_value {
    int         type;      /* AS_HOST_* of the elements                         */
    int64_t     length;    /* elements; only a single one is an option value   */
    double      number;    /* NUMBER, LOGICAL (0 or 1), the first element; NaN
                              for R's NA                                        */
    const char *text;      /* STRING, the first element (NULL for R's NA)       */
    const char *what;      /* the host's words for the value, said in messages
                              only where the core has none: "NA", "a function",
                              "a list of length 2"                              */
} as_host_value;
/* Choice number pos of an AS_OPT_CHOICE row ("poisson" for sampling, 1), into
   buf; "" when out of range. */
const char *as_option_choice(const as_option *op, int pos, char *buf, size_t len);

/* Options of the metrics and Gram calls. */
typedef struct as_metrics_options {
    int spectral;          /* nonzero: eps_spectral and bound too             */
    double mem_mb;         /* cap in MiB on the n x n arrays and results; 0:
                              3/4 of the memory the process may use          */
    uint64_t given;        /* internal: the rows set by as_options_put         */
} as_metrics_options;
void as_metrics_options_init(as_metrics_options *o);

/* Set option `name` of `call` (one AS_FOR_*) in `o`, the options struct of
   that call, from a host value (see as_host_value): name, kind and range
   checked against the row, with messages naming the option; 'threads' and
   'verbose' go to c; an option given twice in one call is AS_ERR_ARG (the
   struct remembers which rows were set). */
int as_options_put(unsigned call, void *o, const char *name, const as_host_value *v,
                   as_common *c);

/* A seed not given: the default of the 'seed' rows. The core draws one
   through as_common.unif_fn when the call needs randomness (rand, det with a
   presample, approximate leverage scores): floor(u * AS_SEED_SPAN), u in
   [0, 1) from the host's generator, so that R's set.seed() and Octave's
   rand ("seed", ...) reproduce a run; the result carries the seed used. */
#define AS_SEED_DRAW UINT64_MAX
/* The seed a call uses: seed itself, or one drawn as said above (0 without
   the hook). */
uint64_t as_seed_resolve(uint64_t seed, as_common *c);

typedef struct as_rand_options {
    int64_t  m;            /* draws; 0: the default (as_rand)                */
    double   eps;          /* target spectral error, in (0, 1); NaN (default):
                              AS_EPS_DEFAULT, and in target mode none; given
                              with rel, a floor (as_rand)                     */
    double   delta;        /* failure probability, in (0, 1)                 */
    double   beta;         /* score approximation factor of the default m; 0
                              (default): from the sketches (as_rand)          */
    uint64_t seed;         /* in [0, 2^53); AS_SEED_DRAW (default): drawn    */
    int      probabilities;/* AS_PROB_*                                      */
    int      leverage;     /* AS_LEV_*                                       */
    int      jl;           /* AS_JL_*                                        */
    int64_t  s1;           /* sparse embedding rows; 0: default              */
    int64_t  s;            /* nonzeros per embedding column; 0: default (4)  */
    int64_t  s2;           /* JL columns; 0: default                         */
    double   mem_mb;       /* cap on the working arrays in MiB; 0: 3/4 of the
                              physical memory                                */
    int      sampling;     /* AS_SAMPLING_*; -1 (default): i.i.d., in target
                              mode Poisson (i.i.d. with rel is an error)      */
    int      estimate;     /* AS_ESTIMATE_NONE, _GAUSSIAN (default) or
                              _BOOTSTRAP: the rel_estimate, inf_estimate made */
    double   rel;          /* NaN (default): off; else target mode, in (0, 1), m 0:
                              Poisson sampling with m raised over rounds until
                              rel_estimate <= rel (see as_rand)              */
    int      error;        /* nonzero (default): out->metrics inf, rel, baseline, r */
    int      spectral;     /* nonzero: out->metrics eps_spectral, bound; -1
                              (default): as error                             */
    int      refit;        /* nonzero: the kept columns reweighted by the greedy
                              method's refit against X X' (as_refit), zero
                              weights dropped, the metrics those of the refit */
    uint64_t given;        /* internal: the rows set by as_options_put         */
} as_rand_options;

/* Defaults from the option table; check: every field against its row, and
   the rules between them (rel with m, with i.i.d. sampling, or with eps and
   probabilities that carry no spectral guarantee: errors). */
void as_rand_options_init(as_rand_options *o);

/* as_default_m with its arguments as a front-end holds them, checked (eps,
   delta, beta by their option rows, rank whole in [0, 2^31 - 1]); NaN takes
   the default: AS_EPS_DEFAULT, the option's delta, AS_BETA_UNBOUNDED. */
int as_default_m_args(double rank, double eps, double delta, double beta, double *m, as_common *c);

/* Leverage scores of the columns of X (length d). Exact (O(d n^2), dense
   d x n workspace) or approximate (sparse embedding, pivoted QR, JL).
   *rank receives the numerical rank. */
int as_leverage(const as_matrix *X, const as_rand_options *o, double *scores,
                int64_t *rank, as_common *c);

/* ------------------------------------------------------------------ block input */
/* X read a block of columns at a time, never whole (larger than memory, or
   spread over workers): the randomized algorithm, its leverage scores and the
   error metrics of a Y against X, the same bits as in memory for any block
   width and worker count (core/block_run.c says how). as_blocks_drive reads
   the blocks through a reader in this process; a front-end with workers
   loops over as_blocks_next (a wave's task), as_blocks_work (a block's
   partial, on a worker) and as_blocks_merge (the partials in block order). */
typedef struct as_blocks as_blocks;

/* For a front-end given X by blocks for `method` ("rand", "det", "greedy", ...):
   AS_OK when the method reads X by blocks (or is no row of the method table,
   as_method_find), else AS_ERR_INPUT with the message saying why it needs X
   in memory (the row's in_memory) and what to use instead. */
int as_blocks_refuse(const char *method, as_common *c);

/* What a run computes. */
enum { AS_BLOCKS_RAND = 0,       /* as_rand: a sample, Y's columns, metrics   */
       AS_BLOCKS_LEVERAGE = 1,   /* as_leverage: the scores of all columns   */
       AS_BLOCKS_ERROR = 2 };    /* as_attention_error_xy: Y's metrics       */

/* The reader of as_blocks_drive: read(ctx, j0, j1, B, msg, len) points *B at
   columns j0 .. j1-1 of X (0-based; dense or CSC, valid until the next read)
   and returns 0; on failure nonzero (AS_ERR_INTERRUPT after a Ctrl-C) with
   the reader's own words in msg. */
typedef struct as_reader {
    int    (*read)(void *ctx, int64_t j0, int64_t j1, as_matrix *B, char *msg, size_t len);
    void    *ctx;
    int64_t  piece;   /* most columns a read; 0 (or more than a chunk): a chunk */
} as_reader;

/* A run of `what` on an n x d X. o: the options (RAND, LEVERAGE:
   as_rand_options; ERROR: as_metrics_options), checked here; Y (ERROR only):
   the n x k sketch to compare, the caller's, alive as long as the run. width:
   columns per block, rounded up to whole chunks (0: one chunk); workers: how
   many blocks run at once (a wave of the passes whose partials hold n x s1 or
   n x n doubles per chunk is 2 blocks per worker). The memory the run holds
   (scores and hashes per column, the sampling's arrays, the sketches, a
   wave's partials) is checked against the 'memory' option before any column
   is read: AS_ERR_TOOBIG. Options that need X in memory (leverage = "exact"
   when d > s1) are AS_ERR_ARG. */
int  as_blocks_new(int what, int64_t n, int64_t d, const void *o, const as_matrix *Y,
                   int64_t width, int64_t workers, as_blocks **run, as_common *c);
void as_blocks_free(as_blocks *run, as_common *c);

/* Every pass through the reader, in this process; then the result is ready.
   A reader's failure is AS_ERR_INPUT "the reader failed on columns a..b: <its
   message>" (its own status when AS_ERR_INTERRUPT). */
int  as_blocks_drive(as_blocks *run, const as_reader *rd, as_common *c);

/* The next wave: *task (the run's, *len bytes, valid until the next call)
   when blocks are to be read, NULL when the run is done (the result ready).
   Every partial of a wave must be merged before the next call. */
int  as_blocks_next(as_blocks *run, const void **task, size_t *len, as_common *c);
/* The blocks of a task: their count; block t's columns j0 .. j1-1, and the
   columns to read (*cols, *ncols: a gather reads only the chosen ones;
   *cols NULL: all of j0 .. j1-1). -1 when task is not a task. */
int64_t as_blocks_task_count(const void *task, size_t len);
int  as_blocks_task_block(const void *task, size_t len, int64_t t, int64_t *j0, int64_t *j1,
                          const int64_t **cols, int64_t *ncols);
/* Block t's partial from Xb, the block's columns read at once (as
   as_blocks_task_block says): a flat byte string in *part (*plen bytes;
   release with as_free). Returns AS_OK when a partial was made, even one
   carrying the block's error; AS_ERR_NOMEM, AS_ERR_INTERRUPT or AS_ERR_ARG
   (not a task) otherwise. c->nthreads is the task's (the run's choice for a
   worker). */
int  as_blocks_work(const void *task, size_t len, int64_t t, const as_matrix *Xb, void **part,
                    size_t *plen, as_common *c);
/* Merge the wave's next partial (block order); AS_OK, or the block's error,
   a partial of another run or out of order, a column that read differently
   in an earlier pass. As the last of a wave it may run the master's step
   (the factor, the sampling, the estimate, the metrics). */
int  as_blocks_merge(as_blocks *run, const void *part, size_t plen, as_common *c);
/* The front-end could not read block t of the current wave: the run stops
   with AS_ERR_INPUT "the reader failed on columns a..b: msg". */
int  as_blocks_fail(as_blocks *run, int64_t t, const char *msg, as_common *c);

typedef struct as_blocks_result {
    as_result  S;        /* RAND: as as_rand fills it (index, weight, m, rank,
                            estimate, metrics, ...); owned by the run      */
    as_matrix  Xs;       /* RAND: X(:, S.index), unweighted: Y = Xs diag(weight) */
    double    *scores;   /* LEVERAGE: d scores; owned by the run            */
    int64_t    rank;     /* LEVERAGE: the numerical rank                    */
    as_metrics metrics;  /* ERROR: inf, rel, baseline, r (eps_spectral, bound
                            with 'spectral', else NaN)                      */
    int64_t    chunk;    /* the canonical chunk width                       */
    int64_t    blocks;   /* blocks of the grid of a full pass               */
    int64_t    reads;    /* passes that read X (a gather of the chosen
                            columns counts one; whole: 1)                   */
} as_blocks_result;
/* The result of a finished run (NULL before). A front-end may take S's
   arrays (then as_result_init(&S)): as_blocks_free frees what is left. */
as_blocks_result *as_blocks_result_get(as_blocks *run);

/* ------------------------------------------------------------------ Y and metrics */
/* Stored entries of Y = X(:, index) (k columns). */
int64_t as_select_nnz(const as_matrix *X, int64_t k, const int64_t *index);
/* Dense Y (nrow x k, column-major), built on as_threads(c) threads. */
void as_select_dense(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, double *Y, const as_common *c);
/* CSC Y: p has k+1 entries, i and x as_select_nnz entries; on as_threads(c) threads. */
void as_select_csc32(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, int32_t *p, int32_t *i, double *x, const as_common *c);
void as_select_csc64(const as_matrix *X, int64_t k, const int64_t *index,
                     const double *weight, int64_t *p, int64_t *i, double *x, const as_common *c);

/* G = sum_t weight[t]^2 X(:,index[t]) X(:,index[t])' (n x n, full storage,
   symmetric); index == NULL: all columns, weight == NULL: weights 1. The same
   bits on any thread count; the interrupt hook is polled between blocks of
   columns (well under a second apart). */
int as_gram(const as_matrix *X, int64_t k, const int64_t *index, const double *weight,
            double *G, as_common *c);

/* attention_error: the metrics of any Y (n x k, dense or CSC, k may be 0:
   the uniform attention) against X (n x d). X and Y are checked here (Y's
   rows against X's, every value finite; messages name X and Y); o->spectral
   (AS_FOR_METRICS options): eps_spectral and bound too, else NaN. */
int as_attention_error_xy(const as_matrix *X, const as_matrix *Y, const as_metrics_options *o,
                          as_metrics *out, as_common *c);
/* sym_attention: Att = D(X)^-1 exp(X X') (n x n, the caller's buffer), X
   checked here; AS_ERR_INPUT when X X' overflows. */
int as_sym_attention(const as_matrix *X, double *Att, as_common *c);
/* Before a front-end allocates the result of gram (AS_OUT_GRAM: X X', n x n),
   sym_attention (AS_OUT_SYM_ATTENTION: Att(X), n x n) or attention
   (AS_OUT_ATTENTION: Att(Q, K), nrow(Q) x nrow(K); with values, dv >= 0:
   Att(Q, K) V, nrow(Q) x dv; K NULL: Q): AS_ERR_TOOBIG naming the result and
   the 'memory' option (o->mem_mb) when it is above the cap. */
enum { AS_OUT_GRAM = 0, AS_OUT_SYM_ATTENTION = 1, AS_OUT_ATTENTION = 2 };
int as_output_check(int what, const as_matrix *Q, const as_matrix *K, int64_t dv,
                    const as_metrics_options *o, as_common *c);

/* ------------------------------------------------------------------ Q != K (qk_attention.c; gram.c) */
/* The shapes of keys K (NULL: none) and values V (v_rows x v_cols; v_rows < 0:
   no V) against the queries Q, named qname in messages ("X" in the sketches,
   "Q" in attention), before any work: K as many columns as Q, V as many rows
   as the keys (K, or Q itself without K) and at least one column. The
   front-ends call it before they view V, whose row count the calls below
   cannot see. AS_ERR_INPUT naming K or V. */
int as_qkv_shapes(const as_matrix *Q, const as_matrix *K, int64_t v_rows, int64_t v_cols, const char *qname,
                  as_common *c);

/* ------------------------------------------------------------------ the methods */
/* The sketching methods, one row each (core/methods.c): what a front-end needs
   to run any of them through one path: view X (and K, V), fill an options
   struct of options_size bytes by options_init, put the user's options in it
   by name (as_options_put with `call`), options_fit when the row has one, run,
   and wrap the sample. */
typedef struct as_method {
    const char *name;          /* "rand", "det", "greedy"                        */
    const char *fname;         /* the user's function, the same in R and Octave  */
    unsigned    call;          /* its AS_FOR_* bit: the option rows it takes     */
    size_t      options_size;  /* sizeof its options struct                      */
    void      (*options_init)(void *o);
    /* the options fitted to X's shape (n x d) before the run; NULL: none */
    void      (*options_fit)(void *o, int64_t n, int64_t d);
    /* X (n x d), keys K (NULL: none) and values V (n2 x dv, column-major;
       NULL: none) into out, as as_rand_qkv; a method without keys and values
       refuses them (AS_ERR_ARG, "unknown option 'K'" as among its options) */
    int       (*run)(const as_matrix *X, const as_matrix *K, const double *V, int64_t dv, const void *o,
                     as_result *out, as_common *c);
    const char *in_memory;     /* NULL: X may come by blocks; else why the method
                                  needs X in memory (as_blocks_refuse)          */
} as_method;

/* The row of the method `name`; NULL when there is none. */
const as_method *as_method_find(const char *name);

/* Exact attention D^-1 exp(Q K') (row maximum subtracted): out is n1 x n2
   when V == NULL, else D^-1 exp(Q K') V (n1 x dv, V n2 x dv column-major),
   computed a block of rows at a time (no n1 x n2 matrix kept). */
int as_attention_qkv(const as_matrix *Q, const as_matrix *K, const double *V, int64_t dv,
                     double *out, as_common *c);

/* The built-in default input: X (n x d, dense, column-major, caller's buffer),
   seeded, rows scaled so that max |X X'| = r. */
int as_example(int64_t n, int64_t d, double r, uint64_t seed, double *X, as_common *c);
/* Its arguments as a front-end holds them, checked before X is allocated, a
   NaN replaced by the defaults of core/example.c: n, d whole in [1, 2^31 - 1], n d at most 4e9
   (AS_ERR_TOOBIG), r positive and finite, seed as the option
   'seed'. */
int as_example_args(double *n, double *d, double *r, double *seed, as_common *c);

/* The traps of an input found before any work (core/precheck.c): X transposed (more rows than columns,
   at least AS_PRECHECK_ROWS rows: a warning), logits that overflow the relative error or so small that
   Y = 0 meets rel_target (NaN: none) (a message); the texts name the scale to use, sqrt(1 / gmax). */
enum { AS_PRECHECK_TRANSPOSED = 1, AS_PRECHECK_OVERFLOW = 2, AS_PRECHECK_TRIVIAL = 4 };
typedef struct as_precheck_out {
    int    flags;
    double gmax;               /* max_i (X X')_ii */
    double scale;              /* the factor that makes it 1 */
    char   transposed[256];    /* the warning, when flags has AS_PRECHECK_TRANSPOSED */
    char   scale_note[384];    /* the message, when flags has AS_PRECHECK_OVERFLOW or _TRIVIAL */
} as_precheck_out;
int as_precheck(const as_matrix *X, double rel_target, as_precheck_out *out, as_common *c);
/* The trap of the shape alone, for an X read by blocks (before any pass): X transposed. */
void as_precheck_shape(int64_t n, int64_t d, as_precheck_out *out);

#ifdef __cplusplus
}
#endif
#endif
