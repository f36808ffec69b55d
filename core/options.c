/* options.c: the one table of options (name, kind, range, default, choices, calls, where each is held), their defaults, checks and setter by name. */
#include "as_internal.h"
#include "det.h"
#include "estimate.h"
#include "greedy.h"
#include "options.h"
#include "rand.h"
#include <ctype.h>
#include <stdio.h>

/* Where a row's value is held: its C type (AS_STORE_*) and its offsetof in
   the options struct of each call the row has (as_option.at, indexed by
   HOME_*; a row names its member in every struct its calls use), or in the
   context. Loads and stores go through as_stored_get / as_stored_set. */
enum { HOME_RAND, HOME_DET, HOME_GREEDY, HOME_METRICS, HOME_COMMON, AS_NHOMES };
typedef char as_option_homes_fit[sizeof(((as_option *)0)->at) / sizeof(size_t) == AS_NHOMES ? 1 : -1];
#define IN_RAND(f) [HOME_RAND] = offsetof(as_rand_options, f)
#define IN_DET(f) [HOME_DET] = offsetof(as_det_options, f)
#define IN_GREEDY(f) [HOME_GREEDY] = offsetof(as_greedy_options, f)
#define IN_MET(f) [HOME_METRICS] = offsetof(as_metrics_options, f)
/* Or'ed into a row's store: the value is an int of as_common (threads,
   verbose), whatever the call. */
#define IN_COMMON 16
#define REAL_AT(...) AS_STORE_DOUBLE, {__VA_ARGS__}
#define INT_AT(...) AS_STORE_INT, {__VA_ARGS__}
#define INT64_AT(...) AS_STORE_INT64, {__VA_ARGS__}
#define SEED_AT(...) AS_STORE_SEED, {__VA_ARGS__}
#define COMMON_INT_AT(f) AS_STORE_INT | IN_COMMON, {[HOME_COMMON] = offsetof(as_common, f)}

#define RAND AS_FOR_RAND
#define DET AS_FOR_DET
#define LEV AS_FOR_LEVERAGE
#define MET AS_FOR_METRICS
#define GRAM AS_FOR_GRAM
#define GREEDY AS_FOR_GREEDY
#define NO_CHOICES NULL

/* The table. A default outside the range (m = 0, s1 = 0, beta = 0, rel = NaN,
   spectral = -1) means "chosen by the core"; it passes the checks of a
   struct but cannot be set by name. */
static const as_option as_options[] = {
    {"m", AS_OPT_WHOLE, RAND, 1, (double)AS_M_MAX, 0, 0, 0, NO_CHOICES,
     "draws; default from the matrix Chernoff bound (as_default_m)", INT64_AT(IN_RAND(m)), 0},
    {"eps", AS_OPT_REAL, RAND, 0, 1, 1, 1, NAN, NO_CHOICES,
     "target spectral error (0.5; with 'rel': none unless given, then a floor on m)", REAL_AT(IN_RAND(eps)), 0},
    {"eps", AS_OPT_REAL, DET, 0, 1, 1, 1, AS_EPS_DEFAULT, NO_CHOICES,
     "target spectral error (0.5)", REAL_AT(IN_DET(eps)), 0},
    {"delta", AS_OPT_REAL, RAND | LEV, 0, 1, 1, 1, 0.01, NO_CHOICES,
     "failure probability (0.01)", REAL_AT(IN_RAND(delta)), 0},
    {"seed", AS_OPT_WHOLE, RAND | LEV | DET | GREEDY, 0, 9007199254740991.0, 0, 0, -1, NO_CHOICES,
     "seed of the counter-based generator (default: drawn from R's or Octave's generator, so set.seed / rand (\"seed\", s) reproduce a run)", SEED_AT(IN_RAND(seed), IN_DET(seed), IN_GREEDY(seed)), 0},
    {"error", AS_OPT_FLAG, RAND | DET, 0, 1, 0, 0, 1, NO_CHOICES,
     "compute the attention error metrics against X X' (true)", INT_AT(IN_RAND(error), IN_DET(error)), 0},
    {"spectral", AS_OPT_FLAG, RAND | DET | MET | GREEDY, 0, 1, 0, 0, -1, NO_CHOICES,
     "compute eps_spectral and bound (default: as 'error'; attention_error: false)",
     INT_AT(IN_RAND(spectral), IN_DET(spectral), IN_MET(spectral), IN_GREEDY(spectral)), 0},
    {"probabilities", AS_OPT_CHOICE, RAND, 0, AS_PROB_AUTO, 0, 0, AS_PROB_AUTO,
     "leverage|uniform|norm|mixed|auto",
     "sampling probabilities (auto: leverage, or in target mode the pilots' pick)", INT_AT(IN_RAND(probabilities)), 0},
    {"sampling", AS_OPT_CHOICE, RAND, 0, AS_SAMPLING_POISSON, 0, 0, -1, "iid|poisson",
     "i.i.d. draws with replacement or Poisson sampling (iid; with 'rel': poisson)", INT_AT(IN_RAND(sampling)), 0},
    {"rel", AS_OPT_REAL, RAND, 0, 1, 1, 1, NAN, NO_CHOICES,
     "target for rel_estimate: m chosen over rounds (off)", REAL_AT(IN_RAND(rel)), 0},
    {"estimate", AS_OPT_CHOICE, RAND, 0, AS_ESTIMATE_BOOTSTRAP, 0, 0, AS_ESTIMATE_GAUSSIAN, "none|gaussian|bootstrap",
     "error estimate from Y alone: gaussian (the sampling variance, two Grams of Y), bootstrap (31 Grams) or none; false: none, true: gaussian", INT_AT(IN_RAND(estimate)), 1},
    {"leverage", AS_OPT_CHOICE, RAND, 0, AS_LEV_EXACT, 0, 0, AS_LEV_APPROX, "approx|exact",
     "approximate or exact leverage scores (approx)", INT_AT(IN_RAND(leverage)), 0},
    {"method", AS_OPT_CHOICE, LEV, 0, AS_LEV_EXACT, 0, 0, AS_LEV_APPROX, "approx|exact",
     "approximate or exact leverage scores (approx)", INT_AT(IN_RAND(leverage)), 0},
    {"jl", AS_OPT_CHOICE, RAND | LEV, 0, AS_JL_AMS, 0, 0, AS_JL_GAUSSIAN, "gaussian|ams",
     "Johnson-Lindenstrauss matrix (gaussian)", INT_AT(IN_RAND(jl)), 0},
    {"s1", AS_OPT_WHOLE, RAND | LEV, 1, (double)AS_INT_MAX, 0, 0, 0, NO_CHOICES,
     "rows of the sparse embedding (4 n + 16)", INT64_AT(IN_RAND(s1)), 0},
    {"s", AS_OPT_WHOLE, RAND | LEV, 1, 64, 0, 0, 0, NO_CHOICES,
     "nonzeros per embedding column (4)", INT64_AT(IN_RAND(s)), 0},
    {"s2", AS_OPT_WHOLE, RAND | LEV, 1, 100000, 0, 0, 0, NO_CHOICES,
     "columns of the JL matrix (ceil(4.63 log(4 d / delta)) when at most rank/2, else none)", INT64_AT(IN_RAND(s2)), 0},
    {"beta", AS_OPT_REAL, RAND, 1, 1e6, 0, 1, 0, NO_CHOICES,
     "score approximation factor in the default m (from the sketches' tail bounds)", REAL_AT(IN_RAND(beta)), 0},
    {"memory", AS_OPT_REAL, RAND, 0, 1e12, 0, 0, 0, NO_CHOICES,
     "cap in MiB on the working arrays (0: 3/4 of the memory the process may use)", REAL_AT(IN_RAND(mem_mb)), 0},
    {"memory", AS_OPT_REAL, DET, 0, 1e12, 0, 0, 0, NO_CHOICES,
     "cap in MiB on the working arrays, estimated first (0: a search tree up to 512 MiB, the whole under 3/4 of the memory the process may use)", REAL_AT(IN_DET(mem_mb)), 0},
    {"memory", AS_OPT_REAL, MET | GRAM, 0, 1e12, 0, 0, 0, NO_CHOICES,
     "cap in MiB on the n x n arrays and results (0: 3/4 of the memory the process may use)", REAL_AT(IN_MET(mem_mb)), 0},
    {"leaf", AS_OPT_WHOLE, DET, 0, 1e18, 0, 0, 0, NO_CHOICES,
     "columns per leaf of the search tree (0: at least 2 nrow(X), more under the memory cap)", INT64_AT(IN_DET(leaf)), 0},
    {"search", AS_OPT_CHOICE, DET, 0, 1, 0, 0, 0, "tree|scan",
     "tree search or a plain scan of all columns each step (tree)", INT_AT(IN_DET(search)), 0},
    {"batch", AS_OPT_WHOLE, DET, 0, 1e6, 0, 0, 0, NO_CHOICES,
     "most barrier shifts per step, each step certified (0: up to 64; 1: one column per step)", INT64_AT(IN_DET(batch)), 0},
    {"presample", AS_OPT_WHOLE, DET, 0, (double)AS_M_MAX, 0, 0, 0, NO_CHOICES,
     "draws of a randomized first stage, BSS on its columns (0 or false: none; 1 or true: 8 n ln n)", INT64_AT(IN_DET(presample)), 1},
    {"refit", AS_OPT_FLAG, RAND | DET, 0, 1, 0, 0, 0, NO_CHOICES,
     "the kept columns reweighted by the greedy method's nonnegative refit against X X', zero weights dropped (false)", INT_AT(IN_RAND(refit), IN_DET(refit)), 0},
    {"rel", AS_OPT_REAL, GREEDY, 0, 1, 1, 1, NAN, NO_CHOICES,
     "target: the exact rel the kept columns must meet (0.01 unless 'k' is given)", REAL_AT(IN_GREEDY(rel)), 0},
    {"k", AS_OPT_WHOLE, GREEDY, 1, (double)AS_INT_MAX, 0, 0, 0, NO_CHOICES,
     "column budget: the smallest rel found with at most k columns (off)", INT64_AT(IN_GREEDY(k)), 0},
    {"error", AS_OPT_FLAG, GREEDY, 0, 1, 0, 0, 1, NO_CHOICES,
     "false: no eps_spectral by default; rel, inf and r are exact either way (the method measures them)", INT_AT(IN_GREEDY(error)), 0},
    {"candidates", AS_OPT_WHOLE, GREEDY, 1, (double)AS_M_MAX, 0, 0, 0, NO_CHOICES,
     "columns the selection draws from: a Poisson sample of about this many by squared norm, the heaviest kept for certain (default: every column)", INT64_AT(IN_GREEDY(candidates)), 0},
    {"approach", AS_OPT_CHOICE, GREEDY, 0, 2, 0, 0, 0, "auto|rounds|sample",
     "rounds over every candidate, or the sample path (heavy columns exact, the rest sampled by squared norm and refitted; 'rel' only); auto: the sample path where a Gram of a sparse X costs more than 2e9 multiply-adds, else the rounds, with the sample path also tried on a sparse X once they keep 500 columns and the better result kept (auto)", INT_AT(IN_GREEDY(approach)), 0},
    {"minimax", AS_OPT_WHOLE, GREEDY, 0, 1e6, 0, 0, AS_GREEDY_MINIMAX_ROWS, NO_CHOICES,
     "the most rows of X for which the kept columns' weights are also fitted to the largest error itself (90): more rows keep fewer columns in steeply more time (128 rows: 14% fewer, 4 times the time; 200 rows: 13% fewer, 33 times); 0: never", INT64_AT(IN_GREEDY(minimax)), 0},
    {"memory", AS_OPT_REAL, GREEDY, 0, 1e12, 0, 0, 0, NO_CHOICES,
     "cap in MiB on the working arrays (0: 3/4 of the memory the process may use)", REAL_AT(IN_GREEDY(mem_mb)), 0},
    {"threads", AS_OPT_WHOLE, RAND | DET | LEV | MET | GRAM | GREEDY, 0, AS_THREADS_MAX, 0, 0, 0, NO_CHOICES,
     "OpenMP threads (0: the OpenMP default); results do not depend on it", COMMON_INT_AT(nthreads), 0},
    {"verbose", AS_OPT_FLAG, RAND | DET | LEV | GREEDY, 0, 1, 0, 0, 0, NO_CHOICES,
     "progress lines through the print hook (false)", COMMON_INT_AT(verbose), 0},
};

#define AS_NOPTIONS ((int)(sizeof(as_options) / sizeof(as_options[0])))
/* the rows an options struct has set are bits of its 64-bit 'given' */
typedef char as_options_fit_given[AS_NOPTIONS <= 64 ? 1 : -1];

int as_option_count(void) { return AS_NOPTIONS; }

const as_option *as_option_at(int t)
{
    return t >= 0 && t < AS_NOPTIONS ? &as_options[t] : NULL;
}

const as_option *as_option_find(const char *name, unsigned calls)
{
    int t;
    if (name == NULL) return NULL;
    for (t = 0; t < AS_NOPTIONS; t++)
        if ((as_options[t].calls & calls) && strcmp(as_options[t].name, name) == 0)
            return &as_options[t];
    return NULL;
}

const char *as_option_names(unsigned calls, char *buf, size_t len)
{
    size_t at = 0;
    int t, u;
    if (len == 0) return buf;
    buf[0] = '\0';
    for (t = 0; t < AS_NOPTIONS; t++) {
        int seen = 0;
        if (!(as_options[t].calls & calls)) continue;
        /* a name listed once even when two rows carry it (memory) */
        for (u = 0; u < t; u++)
            seen |= (as_options[u].calls & calls) && strcmp(as_options[u].name, as_options[t].name) == 0;
        if (seen) continue;
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? ", " : "",
                               as_options[t].name);
        if (at >= len) break;
    }
    return buf;
}

/* A row of `calls` whose name is `name` but for case, for a hint; NULL if none. */
static const as_option *as_option_find_nocase(const char *name, unsigned calls)
{
    int t;
    size_t a;
    for (t = 0; t < AS_NOPTIONS; t++) {
        const char *r = as_options[t].name;
        if (!(as_options[t].calls & calls) || strlen(r) != strlen(name)) continue;
        for (a = 0; r[a] && tolower((unsigned char)r[a]) == tolower((unsigned char)name[a]); a++)
            ;
        if (r[a] == '\0') return &as_options[t];
    }
    return NULL;
}

int as_option_lookup(const char *name, unsigned calls, const as_option **op, as_common *c)
{
    char names[512];
    const as_option *near;
    *op = as_option_find(name, calls);
    if (*op != NULL) return AS_OK;
    near = as_option_find_nocase(name, calls);
    if (near != NULL)
        return as_error(c, AS_ERR_ARG, "unknown option '%.64s': option names are lower case, "
                        "did you mean '%s'?", name, near->name);
    return as_error(c, AS_ERR_ARG, "unknown option '%.64s'; valid options: %s", name,
                    as_option_names(calls, names, sizeof names));
}

const char *as_option_choice(const as_option *op, int pos, char *buf, size_t len)
{
    const char *ch = op->choices ? op->choices : "";
    int t;
    if (len == 0) return buf;
    buf[0] = '\0';
    for (t = 0; *ch; t++) {
        size_t n = strcspn(ch, "|");
        if (t == pos) {
            snprintf(buf, len, "%.*s", (int)n, ch);
            break;
        }
        ch += n + (ch[n] == '|');
    }
    return buf;
}

/* A number for messages: whole numbers in full, powers of ten >= 1e6 as 1e6. */
const char *as_fmt_num(double v, char *buf, size_t len)
{
    double e = v > 0 ? floor(log10(v) + 0.5) : 0;
    if (isnan(v)) snprintf(buf, len, "NaN");
    else if (isinf(v)) snprintf(buf, len, "%sInf", v < 0 ? "-" : "");
    else if (v >= 1e6 && e >= 6 && v == pow(10.0, e)) snprintf(buf, len, "1e%.0f", e);
    else if (v == floor(v) && fabs(v) < 1e16) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.15g", v);
    return buf;
}

const char *as_option_expect(const as_option *op, char *buf, size_t len)
{
    char lo[32], hi[32];
    switch (op->kind) {
    case AS_OPT_FLAG: snprintf(buf, len, "true or false"); break;
    case AS_OPT_CHOICE: snprintf(buf, len, "one of %s%s", op->choices, op->takes_logical ? ", true or false" : ""); break;
    default:
        snprintf(buf, len, "%s in %s%s, %s%s", op->kind == AS_OPT_WHOLE ? "a whole number" : "a number",
                 op->lo_open ? "(" : "[", as_fmt_num(op->lo, lo, sizeof lo),
                 as_fmt_num(op->hi, hi, sizeof hi), op->hi_open ? ")" : "]");
    }
    return buf;
}

/* Nonzero when v is the row's "chosen by the core" default. */
static int as_option_is_auto(const as_option *op, double v)
{
    return (isnan(op->dflt) && isnan(v)) ||
           (v == op->dflt && (op->dflt < op->lo || op->dflt > op->hi));
}

/* AS_OK when v is a value of op; else AS_ERR_ARG naming the option. */
int as_option_check(const as_option *op, double v, as_common *c)
{
    char expect[160], got[32];
    int ok = v == v;
    if (op->kind == AS_OPT_FLAG) ok = v == 0 || v == 1;
    else if (op->kind == AS_OPT_CHOICE) ok = v >= op->lo && v <= op->hi && v == floor(v);
    else {
        ok = ok && (op->lo_open ? v > op->lo : v >= op->lo) && (op->hi_open ? v < op->hi : v <= op->hi);
        if (op->kind == AS_OPT_WHOLE) ok = ok && v == floor(v);
    }
    if (ok) return AS_OK;
    return as_error(c, AS_ERR_ARG, "'%s' must be %s, got %s", op->name,
                    as_option_expect(op, expect, sizeof expect), as_fmt_num(v, got, sizeof got));
}

/* ---------------------------------------------------------------- storage */
double as_stored_get(const void *base, size_t at, int store)
{
    const char *p = (const char *)base + at;
    switch (store) {
    case AS_STORE_INT: return *(const int *)p;
    case AS_STORE_UNSIGNED: return *(const unsigned *)p;
    case AS_STORE_INT64: return (double)*(const int64_t *)p;
    case AS_STORE_COUNT: return *(const int64_t *)p > 0 ? (double)*(const int64_t *)p : NAN;
    case AS_STORE_SEED: return *(const uint64_t *)p == AS_SEED_DRAW ? -1 : (double)*(const uint64_t *)p;
    default: return *(const double *)p;
    }
}

void as_stored_set(void *base, size_t at, int store, double v)
{
    char *p = (char *)base + at;
    switch (store) {
    case AS_STORE_INT: *(int *)p = (int)v; break;
    case AS_STORE_UNSIGNED: *(unsigned *)p = (unsigned)v; break;
    case AS_STORE_INT64: case AS_STORE_COUNT: *(int64_t *)p = (int64_t)v; break;
    case AS_STORE_SEED: *(uint64_t *)p = v < 0 ? AS_SEED_DRAW : (uint64_t)v; break;
    default: *(double *)p = v;
    }
}

/* The struct of a call: as_rand_options (RAND, LEVERAGE), as_det_options
   (DET), as_greedy_options (GREEDY), as_metrics_options (METRICS, GRAM). */
static int as_call_home(unsigned call)
{
    if (call == AS_FOR_RAND || call == AS_FOR_LEVERAGE) return HOME_RAND;
    return call == AS_FOR_DET ? HOME_DET : call == AS_FOR_GREEDY ? HOME_GREEDY : HOME_METRICS;
}

static int as_option_home(const as_option *op, unsigned call)
{
    return op->store & IN_COMMON ? HOME_COMMON : as_call_home(call);
}

static double as_option_load(unsigned call, const void *o, const as_option *op, const as_common *c)
{
    int home = as_option_home(op, call);
    return as_stored_get(home == HOME_COMMON ? (const void *)c : o, op->at[home], op->store & ~IN_COMMON);
}

/* v has passed the row's check, so the cast to the member's type is in range. */
static void as_option_store(unsigned call, void *o, const as_option *op, double v, as_common *c)
{
    int home = as_option_home(op, call);
    as_stored_set(home == HOME_COMMON ? (void *)c : o, op->at[home], op->store & ~IN_COMMON, v);
}

/* The rows whose value is in the struct of `call` (not in the context). */
static int as_option_in_struct(const as_option *op, unsigned call)
{
    unsigned calls = call == AS_FOR_RAND || call == AS_FOR_LEVERAGE ? (AS_FOR_RAND | AS_FOR_LEVERAGE) : call;
    return (op->calls & calls) && !(op->store & IN_COMMON);
}

static void as_options_defaults(unsigned call, void *o)
{
    int t;
    for (t = 0; t < AS_NOPTIONS; t++)
        if (as_option_in_struct(&as_options[t], call))
            as_option_store(call, o, &as_options[t], as_options[t].dflt, NULL);
}

/* Every stored field against its row (C callers fill the structs directly). */
static int as_options_check(unsigned call, const void *o, as_common *c)
{
    int t;
    c->status = AS_OK;
    for (t = 0; t < AS_NOPTIONS; t++) {
        const as_option *op = &as_options[t];
        double v;
        if (!as_option_in_struct(op, call)) continue;
        v = as_option_load(call, o, op, c);
        if (!as_option_is_auto(op, v) && as_option_check(op, v, c) != AS_OK) return c->status;
    }
    return AS_OK;
}

int as_options_set(unsigned call, void *o, const char *name, double value, const char *text,
                   as_common *c)
{
    const as_option *op;
    char expect[160];
    c->status = AS_OK;
    if (as_option_lookup(name, call, &op, c) != AS_OK) return c->status;
    if (op->kind == AS_OPT_CHOICE) {
        const char *ch = op->choices;
        int pos;
        if (text == NULL) {
            char got[32];
            return as_error(c, AS_ERR_ARG, "'%s' must be %s, got %s", op->name,
                            as_option_expect(op, expect, sizeof expect), as_fmt_num(value, got, sizeof got));
        }
        for (pos = 0; *ch; pos++) {
            size_t len = strcspn(ch, "|");
            if (strlen(text) == len && strncmp(text, ch, len) == 0) {
                as_option_store(call, o, op, (double)pos, c);
                return AS_OK;
            }
            ch += len + (ch[len] == '|');
        }
        return as_error(c, AS_ERR_ARG, "'%s' must be %s, got \"%.64s\"", op->name,
                        as_option_expect(op, expect, sizeof expect), text);
    }
    if (text != NULL)
        return as_error(c, AS_ERR_ARG, "'%s' must be %s, got the string \"%.64s\"", op->name,
                        as_option_expect(op, expect, sizeof expect), text);
    if (as_option_check(op, value, c) != AS_OK) return c->status;
    as_option_store(call, o, op, value, c);
    return AS_OK;
}

/* The 'given' mask of a call's options struct. */
static uint64_t *as_options_given(unsigned call, void *o)
{
    static const size_t given_at[] = {
        [HOME_RAND] = offsetof(as_rand_options, given), [HOME_DET] = offsetof(as_det_options, given),
        [HOME_GREEDY] = offsetof(as_greedy_options, given), [HOME_METRICS] = offsetof(as_metrics_options, given)};
    return (uint64_t *)((char *)o + given_at[as_call_home(call)]);
}

/* A host value for messages, the same words in R and Octave: a number as
   as_fmt_num, true/false, "text", "2 values"; the host's own words only for
   what has no such form (NA, a function, a list, ...). */
static const char *as_host_got(const as_host_value *v, char *buf, size_t len)
{
    const char *host = v->what ? v->what : "another type";
    if (v->type == AS_HOST_OTHER) return host;
    if (v->length != 1) snprintf(buf, len, "%lld values", (long long)v->length);
    else if (v->type == AS_HOST_STRING) {
        if (v->text == NULL) return host;
        snprintf(buf, len, "\"%.64s\"", v->text);
    } else if (isnan(v->number)) return v->what ? v->what : "NaN";
    else if (v->type == AS_HOST_LOGICAL) snprintf(buf, len, "%s", v->number ? "true" : "false");
    else as_fmt_num(v->number, buf, len);
    return buf;
}

int as_options_put(unsigned call, void *o, const char *name, const as_host_value *v, as_common *c)
{
    const as_option *op;
    char expect[160], got[96];
    uint64_t *given, bit;
    int st = AS_ERR_ARG;
    c->status = AS_OK;
    if (as_option_lookup(name, call, &op, c) != AS_OK) return c->status;
    given = as_options_given(call, o);
    bit = (uint64_t)1 << (op - as_options);
    if (*given & bit) return as_error(c, AS_ERR_ARG, "option '%s' is given twice", op->name);
    if (v->length == 1) {
        int number = v->type == AS_HOST_NUMBER && !isnan(v->number);
        int logical = v->type == AS_HOST_LOGICAL && !isnan(v->number);
        if (op->kind == AS_OPT_CHOICE && v->type == AS_HOST_STRING && v->text != NULL)
            st = as_options_set(call, o, op->name, 0, v->text, c);
        /* a choice that takes true/false: false its first choice, true its default */
        else if (op->kind == AS_OPT_CHOICE && logical && op->takes_logical) {
            as_option_store(call, o, op, v->number ? op->dflt : op->lo, c);
            st = AS_OK;
        }
        /* a flag takes true/false and the numbers 0 and 1; a number, a number
           (true/false too where the row says so) */
        else if ((op->kind == AS_OPT_FLAG && (logical || (number && (v->number == 0 || v->number == 1)))) ||
                 (op->kind != AS_OPT_FLAG && op->kind != AS_OPT_CHOICE &&
                  (number || (logical && op->takes_logical))))
            st = as_options_set(call, o, op->name, v->number, NULL, c);
        if (st == AS_OK) *given |= bit;
        if (st != AS_ERR_ARG || c->status == AS_ERR_ARG) return c->status;
    }
    return as_error(c, AS_ERR_ARG, "'%s' must be %s, got %s", op->name,
                    as_option_expect(op, expect, sizeof expect), as_host_got(v, got, sizeof got));
}

uint64_t as_seed_resolve(uint64_t seed, as_common *c)
{
    double u;
    if (seed != AS_SEED_DRAW) return seed;
    if (c->unif_fn == NULL) return 0;
    u = c->unif_fn(c->ctx);
    return u >= 0 && u < 1 ? (uint64_t)floor(u * AS_SEED_SPAN) : 0;
}

/* ---------------------------------------------------------------- per call */
void as_rand_options_init(as_rand_options *o)
{
    memset(o, 0, sizeof(*o));
    as_options_defaults(AS_FOR_RAND, o);
}

int as_rand_options_check(const as_rand_options *o, as_common *c)
{
    if (as_options_check(AS_FOR_RAND, o, c) != AS_OK) return c->status;
    if (!isnan(o->rel) && o->m != 0)
        return as_error(c, AS_ERR_ARG, "'rel' and 'm' cannot be given together: 'rel' chooses m");
    if (!isnan(o->rel) && o->estimate == AS_ESTIMATE_NONE)
        return as_error(c, AS_ERR_ARG, "'estimate' = \"none\" cannot be used with 'rel': target mode meets 'rel' "
                        "by the estimate");
    if (!isnan(o->rel) && o->sampling == AS_SAMPLING_IID)
        return as_error(c, AS_ERR_ARG, "'sampling' = \"iid\" cannot be used with 'rel': target mode samples "
                        "by Poisson (a larger m keeps a superset of the columns)");
    if (!isnan(o->rel) && !isnan(o->eps) &&
        (o->probabilities == AS_PROB_NORM || o->probabilities == AS_PROB_UNIFORM))
        return as_error(c, AS_ERR_ARG, "'eps' with 'rel' keeps the spectral guarantee, which %s probabilities "
                        "do not carry: use \"leverage\", \"mixed\" or \"auto\"",
                        o->probabilities == AS_PROB_NORM ? "norm" : "uniform");
    return AS_OK;
}

double as_rand_eps(const as_rand_options *o)
{
    return !isnan(o->eps) ? o->eps : isnan(o->rel) ? AS_EPS_DEFAULT : NAN;
}

int as_rand_sampling(const as_rand_options *o)
{
    return o->sampling >= 0 ? o->sampling : isnan(o->rel) ? AS_SAMPLING_IID : AS_SAMPLING_POISSON;
}

int as_rand_options_set(as_rand_options *o, const char *name, double value, const char *text,
                        as_common *c)
{
    return as_options_set(AS_FOR_RAND, o, name, value, text, c);
}

void as_det_options_init(as_det_options *o)
{
    memset(o, 0, sizeof(*o));
    as_options_defaults(AS_FOR_DET, o);
}

int as_det_options_check(const as_det_options *o, as_common *c)
{
    return as_options_check(AS_FOR_DET, o, c);
}

int as_det_options_set(as_det_options *o, const char *name, double value, const char *text,
                       as_common *c)
{
    return as_options_set(AS_FOR_DET, o, name, value, text, c);
}

void as_metrics_options_init(as_metrics_options *o)
{
    memset(o, 0, sizeof(*o));   /* spectral: the row's "as error" means false here */
}

void as_greedy_options_init(as_greedy_options *o)
{
    memset(o, 0, sizeof(*o));
    as_options_defaults(AS_FOR_GREEDY, o);
}

int as_greedy_options_check(const as_greedy_options *o, as_common *c)
{
    if (as_options_check(AS_FOR_GREEDY, o, c) != AS_OK) return c->status;
    if (!isnan(o->rel) && o->k != 0)
        return as_error(c, AS_ERR_ARG, "'rel' and 'k' cannot be given together: 'rel' asks for the fewest "
                        "columns that meet it, 'k' for the smallest rel with k columns");
    if (o->approach == AS_APPROACH_SAMPLE && o->k != 0)
        return as_error(c, AS_ERR_ARG, "'approach' = \"sample\" takes a target 'rel', not a budget 'k': "
                        "its columns grow until rel meets the target");
    if (o->approach == AS_APPROACH_SAMPLE && o->candidates > 0)
        return as_error(c, AS_ERR_ARG, "'approach' = \"sample\" draws its own columns: 'candidates' is for the rounds");
    return AS_OK;
}

double as_greedy_rel(const as_greedy_options *o)
{
    return !isnan(o->rel) ? o->rel : o->k == 0 ? AS_GREEDY_REL_DEFAULT : NAN;
}

void as_greedy_options_fit(as_greedy_options *o, int64_t n, int64_t d)
{
    /* n (n + 1) / 2 as a double: n up to 2^31 - 1 overflows no int64 product here */
    double most = fmin((double)d, 0.5 * (double)n * ((double)n + 1));
    if (o->k > 0 && most >= 1 && (double)o->k > most) o->k = (int64_t)most;
}

int as_greedy_options_set(as_greedy_options *o, const char *name, double value, const char *text,
                          as_common *c)
{
    return as_options_set(AS_FOR_GREEDY, o, name, value, text, c);
}
