/* result.c: a result's life (init, free) and its one description: the fields every front-end shows, in order. */
#include "as_internal.h"
#include <stdio.h>

void as_sample_init(as_sample *S)
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

void as_sample_free(as_sample *S, as_common *c)
{
    as_free(c, S->index);
    as_free(c, S->weight);
    S->index = NULL;
    S->weight = NULL;
    S->k = 0;
}

void as_sample_options(as_sample *S, unsigned call, double seed, double delta, double rel_target)
{
    S->call = call;
    S->seed = seed;
    S->delta = delta;
    S->rel_target = rel_target;
}

void as_metrics_result(const as_metrics *M, int spectral, as_sample *S)
{
    as_sample_init(S);
    S->call = AS_FOR_METRICS;
    S->metrics = *M;
    S->has = spectral ? AS_HAS_SPECTRAL : 0;
}

/* Which member a row reads. */
enum {
    V_NONE, V_M, V_K, V_INF, V_REL, V_R, V_BASELINE, V_EPS_SPECTRAL, V_BOUND, V_RANK, V_METHOD,
    V_TIME, V_ERROR_TIME, V_SEED, V_EPS, V_DELTA, V_PROBABILITIES, V_SAMPLING, V_REL_TARGET,
    V_REL_ESTIMATE, V_INF_ESTIMATE, V_ESTIMATE, V_ESTIMATE_WHY, V_ROUNDS, V_S1, V_S, V_S2, V_BETA, V_B, V_EPS_BOUND,
    V_MAX_COLUMNS, V_STEPS, V_PRESAMPLE_K, V_PRESAMPLE_EPS, V_EPS_COMPOSED, V_OUT_ERROR,
    V_OUT_REL_ERROR, V_CHUNK, V_BLOCKS, V_READS, V_BUDGET, V_REFIT_REL, V_CANDIDATES, V_APPROACH
};

#define RAND AS_FOR_RAND
#define DET AS_FOR_DET
#define MET AS_FOR_METRICS
#define GREEDY AS_FOR_GREEDY
#define SKETCH (AS_FOR_RAND | AS_FOR_DET | AS_FOR_GREEDY)
#define QKV (AS_HAS_KEYS | AS_HAS_VALUES)

static const as_field as_fields[] = {
    {"Y", AS_FIELD_Y, SKETCH, 0, "the sketch: n x k, Y[, t] = weight[t] * X[, index[t]]; sparse when X is", V_NONE},
    {"index", AS_FIELD_INDEX, SKETCH, 0, "the columns of X kept, 1-based, increasing", V_NONE},
    {"weight", AS_FIELD_WEIGHT, SKETCH, 0, "their weights", V_NONE},
    {"m", AS_FIELD_NUMBER, SKETCH, 0, "draws (randomized), iterations (deterministic) or rounds (greedy)", V_M},
    {"k", AS_FIELD_NUMBER, SKETCH, 0, "columns kept", V_K},
    {"error", AS_FIELD_NUMBER, SKETCH, 0, "max |Att(Y) - Att(X)| (NA when error = false)", V_INF},
    {"rel_error", AS_FIELD_NUMBER, SKETCH, 0, "max |Att(Y) / Att(X) - 1| (NA when error = false, unless refit = true)", V_REL},
    {"r", AS_FIELD_NUMBER, SKETCH, 0, "max |X X'| entrywise (NA when error = false)", V_R},
    {"baseline", AS_FIELD_NUMBER, SKETCH, 0, "rel of the uniform attention 1/n (Y = 0)", V_BASELINE},
    {"eps_spectral", AS_FIELD_NUMBER, SKETCH, 0,
     "smallest eps with (1 - eps) X X' <= Y Y' <= (1 + eps) X X' (NA unless spectral)", V_EPS_SPECTRAL},
    {"bound", AS_FIELD_NUMBER, SKETCH, 0, "exp(2 eps_spectral max_i G_ii) - 1, a bound on rel", V_BOUND},
    {"inf", AS_FIELD_NUMBER, MET, 0, "max |Att(Y) - Att(X)|", V_INF},
    {"rel", AS_FIELD_NUMBER, MET, 0, "max |Att(Y) / Att(X) - 1|", V_REL},
    {"baseline", AS_FIELD_NUMBER, MET, 0, "rel of the uniform attention 1/n (Y = 0)", V_BASELINE},
    {"r", AS_FIELD_NUMBER, MET, 0, "max |X X'| entrywise", V_R},
    {"eps_spectral", AS_FIELD_NUMBER, MET, AS_HAS_SPECTRAL,
     "smallest eps with (1 - eps) X X' <= Y Y' <= (1 + eps) X X'", V_EPS_SPECTRAL},
    {"bound", AS_FIELD_NUMBER, MET, AS_HAS_SPECTRAL, "exp(2 eps_spectral max_i G_ii) - 1, a bound on rel",
     V_BOUND},
    {"rank", AS_FIELD_NUMBER, RAND | DET, 0, "numerical rank of X found by the algorithm", V_RANK},
    {"method", AS_FIELD_TEXT, SKETCH, 0, "randomized, deterministic or greedy", V_METHOD},
    {"time", AS_FIELD_NUMBER, SKETCH, 0, "seconds of the algorithm, the metrics excluded", V_TIME},
    {"error_time", AS_FIELD_NUMBER, SKETCH, 0, "seconds of the metrics (NA when none)", V_ERROR_TIME},
    {"seed", AS_FIELD_NUMBER, RAND, 0, "the seed used", V_SEED},
    {"eps", AS_FIELD_NUMBER, RAND | DET, 0, "the spectral eps asked for (NA: none, in target mode)", V_EPS},
    {"delta", AS_FIELD_NUMBER, RAND, 0, "the failure probability asked for", V_DELTA},
    {"probabilities", AS_FIELD_TEXT, RAND, 0, "the sampling probabilities used", V_PROBABILITIES},
    {"sampling", AS_FIELD_TEXT, RAND, 0, "iid or poisson", V_SAMPLING},
    {"rel_target", AS_FIELD_NUMBER, RAND, 0, "option rel: the target of target mode (NA: off)", V_REL_TARGET},
    {"rel_target", AS_FIELD_NUMBER, GREEDY, 0, "the rel asked for (NA: a budget k instead)", V_REL_TARGET},
    {"max_columns", AS_FIELD_NUMBER, GREEDY, 0, "option k: the column budget, at most ncol(X) and n (n + 1) / 2 (NA: none)", V_BUDGET},
    {"approach", AS_FIELD_TEXT, GREEDY, 0, "rounds, or sample: the heavy columns exact, the rest drawn by squared norm and refitted", V_APPROACH},
    {"rounds", AS_FIELD_NUMBER, GREEDY, 0, "rounds of selection and refit (the sample path: draws)", V_ROUNDS},
    {"candidates", AS_FIELD_NUMBER, GREEDY, AS_HAS_CANDIDATES, "the columns drawn: option candidates' sample, or the sample path's light columns", V_CANDIDATES},
    {"seed", AS_FIELD_NUMBER, GREEDY, AS_HAS_CANDIDATES, "the seed of those columns' draw", V_SEED},
    {"rel_estimate", AS_FIELD_NUMBER, RAND, 0, "estimate of rel from Y alone (NA: not made)", V_REL_ESTIMATE},
    {"inf_estimate", AS_FIELD_NUMBER, RAND, 0, "the same for the inf error", V_INF_ESTIMATE},
    {"estimate", AS_FIELD_TEXT, RAND, 0, "which estimate the two carry (none, bootstrap, exact, measured)", V_ESTIMATE},
    {"estimate_why", AS_FIELD_TEXT, RAND, 0, "why there is none (empty when there is one)", V_ESTIMATE_WHY},
    {"rounds", AS_FIELD_NUMBER, RAND, 0, "samples drawn (target mode), else 1", V_ROUNDS},
    {"s1", AS_FIELD_NUMBER, RAND, 0, "rows of the sparse embedding (0: none)", V_S1},
    {"s", AS_FIELD_NUMBER, RAND, 0, "nonzeros per embedding column (0: none)", V_S},
    {"s2", AS_FIELD_NUMBER, RAND, 0, "columns of the JL matrix (0: none)", V_S2},
    {"beta", AS_FIELD_NUMBER, RAND, 0, "the score approximation factor of the default m", V_BETA},
    {"b", AS_FIELD_NUMBER, DET, 0, "the BSS sparsity factor for eps", V_B},
    {"eps_bound", AS_FIELD_NUMBER, DET, 0, "the spectral eps BSS certifies, (u - l) / (u + l)", V_EPS_BOUND},
    {"max_columns", AS_FIELD_NUMBER, DET, 0, "the column budget ceil(b rank): BSS iterations", V_MAX_COLUMNS},
    {"steps", AS_FIELD_NUMBER, DET, 0, "BSS steps made", V_STEPS},
    {"presample_k", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE, "columns of the randomized first stage",
     V_PRESAMPLE_K},
    {"presample_eps", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE,
     "spectral eps of the first stage against X (NA when error = false)", V_PRESAMPLE_EPS},
    {"eps_composed", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE,
     "(1 + presample_eps)(1 + eps_bound) - 1: the guarantee against X", V_EPS_COMPOSED},
    {"seed", AS_FIELD_NUMBER, DET, AS_HAS_PRESAMPLE, "the first stage's seed", V_SEED},
    {"refit_rel", AS_FIELD_NUMBER, RAND | DET, AS_HAS_REFIT,
     "refit = true: the exact rel of the sample's own weights, before the refit", V_REFIT_REL},
    {"YK", AS_FIELD_YK, SKETCH, AS_HAS_KEYS, "the keys' sketch K[, index] * weight", V_NONE},
    {"out_error", AS_FIELD_NUMBER, SKETCH, QKV, "max |Att~ V - Att V| (NA without V)", V_OUT_ERROR},
    {"out_rel_error", AS_FIELD_NUMBER, SKETCH, QKV, "the same relative to sum_j Att_ij |V_jl| (NA without V)",
     V_OUT_REL_ERROR},
    {"chunk", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS, "X read by blocks: the canonical chunk width", V_CHUNK},
    {"blocks", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS, "X read by blocks: the blocks of a pass", V_BLOCKS},
    {"reads", AS_FIELD_NUMBER, RAND, AS_HAS_BLOCKS,
     "X read by blocks: the passes that read it (the chosen columns' read counts one)", V_READS},
};

#define AS_NFIELDS ((int)(sizeof(as_fields) / sizeof(as_fields[0])))

int as_field_count(void) { return AS_NFIELDS; }

const as_field *as_field_at(int t)
{
    return t >= 0 && t < AS_NFIELDS ? &as_fields[t] : NULL;
}

int as_field_present(const as_field *f, unsigned call, const as_sample *S)
{
    return (f->calls & call) && (f->when == 0 || (f->when & S->has));
}

double as_field_number(const as_field *f, const as_sample *S)
{
    switch (f->id) {
    case V_M: return (double)S->m;
    case V_K: return (double)S->k;
    case V_INF: return S->metrics.inf;
    case V_REL: return S->metrics.rel;
    case V_R: return S->metrics.r;
    case V_BASELINE: return S->metrics.baseline;
    case V_EPS_SPECTRAL: return S->metrics.eps_spectral;
    case V_BOUND: return S->metrics.bound;
    case V_RANK: return (double)S->rank;
    case V_TIME: return S->time;
    case V_ERROR_TIME: return S->error_time;
    case V_SEED: return S->seed;
    case V_EPS: return S->eps_target;
    case V_DELTA: return S->delta;
    case V_REL_TARGET: return S->rel_target;
    case V_REL_ESTIMATE: return S->rel_estimate;
    case V_INF_ESTIMATE: return S->inf_estimate;
    case V_ROUNDS: return (double)S->rounds;
    case V_S1: return (double)S->s1;
    case V_S: return (double)S->s;
    case V_S2: return (double)S->s2;
    case V_BETA: return S->beta;
    case V_B: return S->b;
    case V_EPS_BOUND: return S->eps_bound;
    case V_MAX_COLUMNS: return (double)S->max_columns;
    case V_STEPS: return (double)S->steps;
    case V_PRESAMPLE_K: return (double)S->presample_k;
    case V_PRESAMPLE_EPS: return S->presample_eps;
    case V_EPS_COMPOSED: return S->eps_composed;
    case V_OUT_ERROR: return S->out_error;
    case V_OUT_REL_ERROR: return S->out_rel_error;
    case V_CHUNK: return (double)S->chunk;
    case V_BLOCKS: return (double)S->blocks;
    case V_READS: return (double)S->reads;
    case V_REFIT_REL: return S->refit_rel;
    case V_CANDIDATES: return (double)S->candidates;
    case V_BUDGET: return S->max_columns > 0 ? (double)S->max_columns : NAN;
    default: return NAN;
    }
}

const char *as_field_text(const as_field *f, const as_sample *S, char *buf, size_t len)
{
    if (len == 0) return buf;
    buf[0] = '\0';
    switch (f->id) {
    case V_METHOD:
        snprintf(buf, len, "%s", S->call == AS_FOR_RAND ? "randomized" : S->call == AS_FOR_DET ?
                 "deterministic" : S->call == AS_FOR_GREEDY ? "greedy" : "");
        break;
    case V_PROBABILITIES:
        as_option_choice(as_option_find("probabilities", AS_FOR_RAND), S->probabilities, buf, len);
        break;
    case V_SAMPLING:
        as_option_choice(as_option_find("sampling", AS_FOR_RAND), S->sampling, buf, len);
        break;
    case V_APPROACH:
        as_option_choice(as_option_find("approach", AS_FOR_GREEDY), S->approach, buf, len);
        break;
    case V_ESTIMATE: snprintf(buf, len, "%s", as_estimate_name(S->estimate)); break;
    case V_ESTIMATE_WHY: snprintf(buf, len, "%s", as_estimate_why(S->estimate_why)); break;
    default: break;
    }
    return buf;
}
