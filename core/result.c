/* result.c: a result's life (init, free) and its one description: the fields every front-end shows, in order. */
#include "as_internal.h"
#include "estimate.h"
#include "method_list.h"
#include "options.h"
#include "result.h"
#include <stdio.h>

void as_result_init(as_result *S)
{
    memset(S, 0, sizeof(*S));
    S->eps_bound = NAN;
    S->rel_estimate = S->inf_estimate = NAN;
    S->estimate_why = AS_WHY_NOT_ASKED;
    S->b = S->error_time = NAN;
    S->presample_eps = S->eps_composed = NAN;
    S->beta = S->out_error = S->out_rel_error = NAN;
    S->metrics.inf = S->metrics.rel = S->metrics.baseline = S->metrics.r = NAN;
    S->metrics.eps_spectral = S->metrics.bound = NAN;
    S->eps_target = S->seed = S->delta = S->rel_target = S->refit_rel = NAN;
}

void as_result_free(as_result *S, as_common *c)
{
    as_free(c, S->index);
    as_free(c, S->weight);
    S->index = NULL;
    S->weight = NULL;
    S->k = 0;
}

void as_result_options(as_result *S, unsigned call, double seed, double delta, double rel_target)
{
    S->call = call;
    S->seed = seed;
    S->delta = delta;
    S->rel_target = rel_target;
}

void as_metrics_result(const as_metrics *M, int spectral, as_result *S)
{
    as_result_init(S);
    S->call = AS_FOR_METRICS;
    S->metrics = *M;
    S->has = spectral ? AS_HAS_SPECTRAL : 0;
}

/* What a row reads: a member of as_result, by its C type (AS_STORE_*) and
   offsetof. A number is the member (COUNT: an int64_t whose 0 means none,
   read as NaN: greedy's budget 'max_columns'). A word is made from an int
   member by a function (WORD_AT), or is the choice at that position of the
   option row of the same name and calls (CHOICE_AT). */
#define REAL_AT(f) AS_STORE_DOUBLE, offsetof(as_result, f), NULL
#define INT_AT(f) AS_STORE_INT, offsetof(as_result, f), NULL
#define INT64_AT(f) AS_STORE_INT64, offsetof(as_result, f), NULL
#define COUNT_AT(f) AS_STORE_COUNT, offsetof(as_result, f), NULL
#define CHOICE_AT(f) AS_STORE_INT, offsetof(as_result, f), NULL
#define WORD_AT(f, word) AS_STORE_INT, offsetof(as_result, f), word
/* Y, index, weight, YK: built by the front-ends from the sample's arrays */
#define NO_MEMBER AS_STORE_DOUBLE, 0, NULL

/* The word of a result's call (as_result.call): its method's row of method_list.h. */
#define AS_METHOD_WORD(id, call_bit, word, fname, options, fit, in_memory) if (call == (call_bit)) return word;
static const char *as_method_name(int call)
{
    AS_METHOD_ROWS(AS_METHOD_WORD)
    return "";
}

#define RAND AS_FOR_RAND
#define DET AS_FOR_DET
#define MET AS_FOR_METRICS
#define GREEDY AS_FOR_GREEDY
#define AS_METHOD_CALL(id, call_bit, word, fname, options, fit, in_memory) | (call_bit)
#define SKETCH (0 AS_METHOD_ROWS(AS_METHOD_CALL))
#define QKV (AS_HAS_KEYS | AS_HAS_VALUES)

static const as_field as_fields[] = {
    {"Y", AS_FIELD_Y, SKETCH, 0, "the sketch: n x k, Y[, t] = weight[t] * X[, index[t]]; sparse when X is", NO_MEMBER},
    {"index", AS_FIELD_INDEX, SKETCH, 0, "the columns of X kept, 1-based, increasing", NO_MEMBER},
    {"weight", AS_FIELD_WEIGHT, SKETCH, 0, "their weights", NO_MEMBER},
    {"m", AS_FIELD_NUMBER, SKETCH, 0, "draws (randomized), iterations (deterministic) or rounds (greedy)", INT64_AT(m)},
    {"k", AS_FIELD_NUMBER, SKETCH, 0, "columns kept", INT64_AT(k)},
    {"error", AS_FIELD_NUMBER, SKETCH, 0, "max |Att(Y) - Att(X)| (NA when error = false)", REAL_AT(metrics.inf)},
    {"rel_error", AS_FIELD_NUMBER, SKETCH, 0, "max |Att(Y) / Att(X) - 1| (NA when error = false, unless refit = true)", REAL_AT(metrics.rel)},
    {"r", AS_FIELD_NUMBER, SKETCH, 0, "max |X X'| entrywise (NA when error = false)", REAL_AT(metrics.r)},
    {"baseline", AS_FIELD_NUMBER, SKETCH, 0, "rel of the uniform attention 1/n (Y = 0)", REAL_AT(metrics.baseline)},
    {"eps_spectral", AS_FIELD_NUMBER, SKETCH, 0,
     "smallest eps with (1 - eps) X X' <= Y Y' <= (1 + eps) X X' (NA unless spectral)", REAL_AT(metrics.eps_spectral)},
    {"bound", AS_FIELD_NUMBER, SKETCH, 0, "exp(2 eps_spectral max_i G_ii) - 1, a bound on rel", REAL_AT(metrics.bound)},
    {"inf", AS_FIELD_NUMBER, MET, 0, "max |Att(Y) - Att(X)|", REAL_AT(metrics.inf)},
    {"rel", AS_FIELD_NUMBER, MET, 0, "max |Att(Y) / Att(X) - 1|", REAL_AT(metrics.rel)},
    {"baseline", AS_FIELD_NUMBER, MET, 0, "rel of the uniform attention 1/n (Y = 0)", REAL_AT(metrics.baseline)},
    {"r", AS_FIELD_NUMBER, MET, 0, "max |X X'| entrywise", REAL_AT(metrics.r)},
    {"eps_spectral", AS_FIELD_NUMBER, MET, AS_HAS_SPECTRAL,
     "smallest eps with (1 - eps) X X' <= Y Y' <= (1 + eps) X X'", REAL_AT(metrics.eps_spectral)},
    {"bound", AS_FIELD_NUMBER, MET, AS_HAS_SPECTRAL, "exp(2 eps_spectral max_i G_ii) - 1, a bound on rel",
     REAL_AT(metrics.bound)},
    {"rank", AS_FIELD_NUMBER, RAND | DET, 0, "numerical rank of X found by the algorithm", INT64_AT(rank)},
    {"method", AS_FIELD_TEXT, SKETCH, 0, "randomized, deterministic or greedy", AS_STORE_UNSIGNED, offsetof(as_result, call), as_method_name},
    {"time", AS_FIELD_NUMBER, SKETCH, 0, "seconds of the algorithm, the metrics excluded", REAL_AT(time)},
    {"error_time", AS_FIELD_NUMBER, SKETCH, 0, "seconds of the metrics (NA when none)", REAL_AT(error_time)},
    {"seed", AS_FIELD_NUMBER, RAND, 0, "the seed used", REAL_AT(seed)},
    {"eps", AS_FIELD_NUMBER, RAND | DET, 0, "the spectral eps asked for (NA: none, in target mode)", REAL_AT(eps_target)},
    {"delta", AS_FIELD_NUMBER, RAND, 0, "the failure probability asked for", REAL_AT(delta)},
    {"probabilities", AS_FIELD_TEXT, RAND, 0, "the sampling probabilities used", CHOICE_AT(probabilities)},
    {"sampling", AS_FIELD_TEXT, RAND, 0, "iid or poisson", CHOICE_AT(sampling)},
    {"rel_target", AS_FIELD_NUMBER, RAND, 0, "option rel: the target of target mode (NA: off)", REAL_AT(rel_target)},
    {"rel_target", AS_FIELD_NUMBER, GREEDY, 0, "the rel asked for (NA: a budget k instead)", REAL_AT(rel_target)},
    {"max_columns", AS_FIELD_NUMBER, GREEDY, 0, "option k: the column budget, at most ncol(X) and n (n + 1) / 2 (NA: none)", COUNT_AT(max_columns)},
    {"approach", AS_FIELD_TEXT, GREEDY, 0, "rounds, or sample: the heavy columns exact, the rest drawn by squared norm and refitted", CHOICE_AT(approach)},
    {"rounds", AS_FIELD_NUMBER, GREEDY, 0, "rounds of selection and refit (the sample path: draws)", INT_AT(rounds)},
    {"candidates", AS_FIELD_NUMBER, GREEDY, AS_HAS_CANDIDATES, "the columns drawn: option candidates' sample, or the sample path's light columns", INT64_AT(candidates)},
    {"seed", AS_FIELD_NUMBER, GREEDY, AS_HAS_CANDIDATES, "the seed of those columns' draw", REAL_AT(seed)},
    {"rel_estimate", AS_FIELD_NUMBER, RAND, 0, "estimate of rel from Y alone (NA: not made)", REAL_AT(rel_estimate)},
    {"inf_estimate", AS_FIELD_NUMBER, RAND, 0, "the same for the inf error", REAL_AT(inf_estimate)},
    {"estimate", AS_FIELD_TEXT, RAND, 0, "which estimate the two carry (none, bootstrap, exact, measured)", WORD_AT(estimate, as_estimate_name)},
    {"estimate_why", AS_FIELD_TEXT, RAND, 0, "why there is none (empty when there is one)", WORD_AT(estimate_why, as_estimate_why)},
    {"rounds", AS_FIELD_NUMBER, RAND, 0, "samples drawn (target mode), else 1", INT_AT(rounds)},
    {"s1", AS_FIELD_NUMBER, RAND, 0, "rows of the sparse embedding (0: none)", INT64_AT(s1)},
    {"s", AS_FIELD_NUMBER, RAND, 0, "nonzeros per embedding column (0: none)", INT64_AT(s)},
    {"s2", AS_FIELD_NUMBER, RAND, 0, "columns of the JL matrix (0: none)", INT64_AT(s2)},
    {"beta", AS_FIELD_NUMBER, RAND, 0, "the score approximation factor of the default m", REAL_AT(beta)},
    {"b", AS_FIELD_NUMBER, DET, 0, "the BSS sparsity factor for eps", REAL_AT(b)},
    {"eps_bound", AS_FIELD_NUMBER, DET, 0, "the spectral eps BSS certifies, (u - l) / (u + l)", REAL_AT(eps_bound)},
    {"max_columns", AS_FIELD_NUMBER, DET, 0, "the column budget ceil(b rank): BSS iterations", INT64_AT(max_columns)},
    {"steps", AS_FIELD_NUMBER, DET, 0, "BSS steps made", INT64_AT(steps)},
    {"presample_k", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE, "columns of the randomized first stage",
     INT64_AT(presample_k)},
    {"presample_eps", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE,
     "spectral eps of the first stage against X (NA when error = false)", REAL_AT(presample_eps)},
    {"eps_composed", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE,
     "(1 + presample_eps)(1 + eps_bound) - 1: the guarantee against X", REAL_AT(eps_composed)},
    {"seed", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE, "the first stage's seed", REAL_AT(seed)},
    {"refit_rel", AS_FIELD_NUMBER, RAND | DET, AS_HAS_REFIT,
     "refit = true: the exact rel of the sample's own weights, before the refit", REAL_AT(refit_rel)},
    {"YK", AS_FIELD_YK, SKETCH, AS_HAS_KEYS, "the keys' sketch K[, index] * weight", NO_MEMBER},
    {"out_error", AS_FIELD_NUMBER, SKETCH, QKV, "max |Att~ V - Att V| (NA without V)", REAL_AT(out_error)},
    {"out_rel_error", AS_FIELD_NUMBER, SKETCH, QKV, "the same relative to sum_j Att_ij |V_jl| (NA without V)",
     REAL_AT(out_rel_error)},
    {"chunk", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS, "X read by blocks: the canonical chunk width", INT64_AT(chunk)},
    {"blocks", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS, "X read by blocks: the blocks of a pass", INT64_AT(blocks)},
    {"reads", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS,
     "X read by blocks: the passes that read it (the chosen columns' read counts one)", INT64_AT(reads)},
};

#define AS_NFIELDS ((int)(sizeof(as_fields) / sizeof(as_fields[0])))

int as_field_count(void) { return AS_NFIELDS; }

const as_field *as_field_at(int t)
{
    return t >= 0 && t < AS_NFIELDS ? &as_fields[t] : NULL;
}

int as_field_present(const as_field *f, unsigned call, const as_result *S)
{
    return (f->calls & call) && (f->when == 0 || (f->when & S->has));
}

double as_field_number(const as_field *f, const as_result *S)
{
    return f->kind == AS_FIELD_NUMBER ? as_stored_get(S, f->at, f->store) : NAN;
}

const char *as_field_text(const as_field *f, const as_result *S, char *buf, size_t len)
{
    int v;
    if (len == 0) return buf;
    buf[0] = '\0';
    if (f->kind != AS_FIELD_TEXT) return buf;
    v = (int)as_stored_get(S, f->at, f->store);
    if (f->word != NULL) snprintf(buf, len, "%s", f->word(v));
    else as_option_choice(as_option_find(f->name, f->calls), v, buf, len);
    return buf;
}
