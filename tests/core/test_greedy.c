/* test_greedy.c: as_greedy (the fewest columns for an exact rel, or the smallest rel for a budget k) and option refit of as_rand and as_det: the certificate against an independent as_attention_error, targets met on several kinds of input, budgets, bad options, the result's fields and warnings. */
#include "as_internal.h"
#include "check.h"
#include "det.h"
#include "estimate.h"
#include "greedy.h"
#include "metrics.h"
#include "qk.h"
#include "rand.h"
#include "result.h"
#include "rng.h"
#include <string.h>

/* n x d Gaussian times scale, a fraction dens of the entries nonzero; rows
   beyond `rank` repeat the first ones. */
static double *gauss(int64_t n, int64_t d, double dens, int64_t rank, double scale, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t i, j;
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) {
            uint64_t at = (uint64_t)(j * n + i % rank);
            X[i + j * n] = as_rng_unif(seed, 1, at) < dens ? scale * as_rng_normal(seed, 2, at) : 0.0;
        }
    return X;
}

/* The metrics of S's Y against X by the core's own as_attention_error, a call
   independent of the run (it recomputes X X' and Y Y'). */
static as_metrics measure(const as_matrix *X, const as_result *S)
{
    as_common c;
    as_metrics M;
    as_common_init(&c);
    memset(&M, 0, sizeof M);
    M.rel = NAN;
    if (as_attention_error(X, S->k, S->index, S->weight, 0, &M, &c) != AS_OK) M.rel = NAN;
    return M;
}

/* Index increasing, weights positive, k within d. */
static int well_formed(const as_result *S, int64_t d)
{
    int64_t t;
    for (t = 0; t < S->k; t++) {
        if (S->index[t] < 0 || S->index[t] >= d || !(S->weight[t] > 0)) return 0;
        if (t > 0 && S->index[t] <= S->index[t - 1]) return 0;
    }
    return S->k <= d;
}

/* |a - b| <= tol |b|, or both at rounding level (every column kept) */
static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b) + 1e-13;
}

/* One run with target rel (budget 0) or budget k (rel NaN): the status, the
   certificate and the target checked; S returned for more checks. */
static int run_checked(const char *what, const as_matrix *X, double rel, int64_t k, as_result *S)
{
    as_common c;
    as_greedy_options o;
    as_metrics M;
    int st;
    as_common_init(&c);
    as_greedy_options_init(&o);
    o.rel = rel;
    o.k = k;
    st = as_greedy(X, &o, S, &c);
    CHECK(st == AS_OK, "%s: status %d: %s", what, st, c.msg);
    if (st != AS_OK) return st;
    M = measure(X, S);
    CHECK(well_formed(S, X->ncol), "%s: index increasing, weights positive", what);
    CHECK(S->call == AS_FOR_GREEDY, "%s: call %u", what, S->call);
    CHECK(close_rel(S->metrics.rel, M.rel, 1e-12) && close_rel(S->metrics.inf, M.inf, 1e-12) &&
          close_rel(S->metrics.baseline, M.baseline, 1e-12) && close_rel(S->metrics.r, M.r, 1e-12),
          "%s: rel %.17g, as_attention_error %.17g (inf %.17g vs %.17g)", what, S->metrics.rel, M.rel,
          S->metrics.inf, M.inf);
    if (!isnan(rel)) {
        CHECK(S->metrics.rel <= rel, "%s: rel %g above the target %g with %lld columns", what, S->metrics.rel, rel,
              (long long)S->k);
        CHECK(S->rel_target == rel && S->max_columns == 0, "%s: rel_target %g, max_columns %lld", what,
              S->rel_target, (long long)S->max_columns);
    } else {
        CHECK(S->k <= k, "%s: %lld columns for a budget of %lld", what, (long long)S->k, (long long)k);
        CHECK(isnan(S->rel_target) && S->max_columns == k, "%s: rel_target %g, max_columns %lld", what,
              S->rel_target, (long long)S->max_columns);
    }
    CHECK(S->m == S->rounds && S->time >= 0 && S->error_time >= 0, "%s: m %lld, rounds %d", what, (long long)S->m,
          S->rounds);
    return st;
}

/* Targets met with the exact rel on dense, CSC32 and CSC64 views of several
   inputs; CSC32 and CSC64 give the same bits (a dense view's Grams round
   otherwise, and the greedy choices may part). */
static void test_targets(void)
{
    struct { const char *name; int64_t n, d, rank; double dens, scale; } in[] = {
        {"dense", 12, 1500, 12, 1.0, 0.02},
        {"sparse", 10, 3000, 10, 0.05, 0.15},
        {"rank-deficient", 9, 800, 6, 1.0, 0.05},
        {"d < n", 25, 10, 25, 1.0, 0.2},
        {"large logits", 8, 400, 8, 1.0, 0.12},
    };
    const double targets[3] = {0.05, 0.02, 0.005};
    size_t t;
    int r;
    for (t = 0; t < sizeof in / sizeof in[0]; t++) {
        double *X = gauss(in[t].n, in[t].d, in[t].dens, in[t].rank, in[t].scale, 40 + t);
        check_views V;
        check_views_make(&V, in[t].n, in[t].d, X);
        for (r = 0; r < 3; r++) {
            as_result Sd, S32, S64;
            char what[120];
            as_common c;
            as_common_init(&c);
            snprintf(what, sizeof what, "%s, rel %g, dense", in[t].name, targets[r]);
            if (run_checked(what, &V.D, targets[r], 0, &Sd) != AS_OK) continue;
            snprintf(what, sizeof what, "%s, rel %g, CSC32", in[t].name, targets[r]);
            if (run_checked(what, &V.S32, targets[r], 0, &S32) == AS_OK) {
                snprintf(what, sizeof what, "%s, rel %g, CSC64", in[t].name, targets[r]);
                if (run_checked(what, &V.S64, targets[r], 0, &S64) == AS_OK) {
                    CHECK(S32.k == S64.k && memcmp(S32.index, S64.index, 8 * (size_t)S32.k) == 0 &&
                          memcmp(S32.weight, S64.weight, 8 * (size_t)S32.k) == 0,
                          "%s: CSC32 and CSC64 give other bits", what);
                    as_result_free(&S64, &c);
                }
                as_result_free(&S32, &c);
            }
            /* the baseline is the rel of Y = 0; a useful answer is below it */
            CHECK(Sd.metrics.rel <= Sd.metrics.baseline, "%s: rel %g above the baseline %g", in[t].name,
                  Sd.metrics.rel, Sd.metrics.baseline);
            as_result_free(&Sd, &c);
        }
        check_views_free(&V);
        free(X);
    }
}

/* Zero columns are never kept; a tiny X (the uniform attention already meets
   the target) keeps none; X = 0 likewise. */
static void test_zero_and_tiny(void)
{
    double *X = gauss(8, 600, 1.0, 8, 0.05, 50);
    as_matrix A;
    as_result S;
    as_common c;
    int64_t j, t;
    as_common_init(&c);
    for (j = 1; j < 600; j += 2) memset(X + j * 8, 0, 8 * sizeof(double));
    as_view_dense(&A, 8, 600, X, 8);
    if (run_checked("zero columns", &A, 0.01, 0, &S) == AS_OK) {
        int odd = 0;
        for (t = 0; t < S.k; t++) odd += S.index[t] % 2;
        CHECK(odd == 0 && S.k > 0, "zero columns: %d of %lld kept columns are zero", odd, (long long)S.k);
        as_result_free(&S, &c);
    }
    for (t = 0; t < 8 * 600; t++) X[t] *= 1e-150;
    if (run_checked("entries 1e-150", &A, 0.01, 0, &S) == AS_OK) {
        CHECK(S.k == 0 && S.m == 0 && S.metrics.rel == S.metrics.baseline && S.metrics.rel <= 0.01,
              "entries 1e-150: %lld columns, rel %g, baseline %g", (long long)S.k, S.metrics.rel, S.metrics.baseline);
        as_result_free(&S, &c);
    }
    memset(X, 0, sizeof(double) * 8 * 600);
    if (run_checked("X = 0", &A, 0.01, 0, &S) == AS_OK) {
        CHECK(S.k == 0 && S.metrics.rel == 0, "X = 0: %lld columns, rel %g", (long long)S.k, S.metrics.rel);
        as_result_free(&S, &c);
    }
    free(X);
}

/* A budget k: at most k columns; on these inputs a budget twice as large
   gives a smaller rel (a larger budget is not always better by one column:
   the greedy path differs). */
static void test_budget(void)
{
    uint64_t seeds[3] = {60, 61, 62};
    int s, b;
    for (s = 0; s < 3; s++) {
        double *X = gauss(10, 1200, s == 1 ? 0.1 : 1.0, s == 2 ? 6 : 10, s == 1 ? 0.1 : 0.04, seeds[s]);
        as_matrix A;
        double prev = INFINITY;
        as_view_dense(&A, 10, 1200, X, 10);
        for (b = 4; b <= 32; b *= 2) {
            as_result S;
            as_common c;
            char what[64];
            as_common_init(&c);
            snprintf(what, sizeof what, "input %d, budget %d", s, b);
            if (run_checked(what, &A, NAN, b, &S) != AS_OK) continue;
            CHECK(S.metrics.rel < prev, "%s: rel %g, not below %g of half the budget", what, S.metrics.rel, prev);
            prev = S.metrics.rel;
            as_result_free(&S, &c);
        }
        free(X);
    }
}

/* A target only every column at weight 1 meets (Y = X): met, whatever the fit
   of the proxy found; a target no subset of the candidates meets: the best found,
   the core's warning; none when met. */
static void test_missed(void)
{
    double *X = gauss(3, 5, 1.0, 3, 1.0, 70);
    as_matrix A;
    as_result S;
    as_common c;
    as_greedy_options o;
    char buf[256];
    as_common_init(&c);
    as_view_dense(&A, 3, 5, X, 3);
    as_greedy_options_init(&o);
    o.rel = 1e-15;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_OK && S.metrics.rel <= 1e-15 && as_target_warning(&S, buf, sizeof buf) == NULL,
          "every column: rel %g with %lld columns (%s)", S.metrics.rel, (long long)S.k, c.msg);
    as_result_free(&S, &c);
    o.candidates = 2;
    o.seed = 1;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_OK, "missed: %s", c.msg);
    CHECK(S.metrics.rel > 1e-15 && S.k <= 2, "missed: rel %g with %lld columns", S.metrics.rel, (long long)S.k);
    CHECK(as_target_warning(&S, buf, sizeof buf) != NULL && strstr(buf, "was not met") != NULL,
          "missed: warning '%s'", buf);
    CHECK(as_result_warning(&S, buf, sizeof buf) == NULL, "missed: an overflow warning '%s'", buf);
    as_result_free(&S, &c);
    o.rel = 0.5;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_OK && S.metrics.rel <= 0.5 &&
          as_target_warning(&S, buf, sizeof buf) == NULL, "met: rel %g, warning", S.metrics.rel);
    as_result_free(&S, &c);
    free(X);
}

/* Bad options and input: the core's status and words, nothing returned. */
static void test_bad(void)
{
    double *X = gauss(4, 50, 1.0, 4, 0.3, 80);
    as_matrix A;
    as_result S;
    as_common c;
    as_greedy_options o;
    int st;
    as_common_init(&c);
    as_view_dense(&A, 4, 50, X, 4);
    as_greedy_options_init(&o);
    CHECK(as_greedy_options_set(&o, "rel", 0, NULL, &c) == AS_ERR_ARG &&
          strstr(c.msg, "'rel' must be a number in (0, 1), got 0") != NULL, "rel = 0: %s", c.msg);
    CHECK(as_greedy_options_set(&o, "rel", 1, NULL, &c) == AS_ERR_ARG, "rel = 1: %s", c.msg);
    CHECK(as_greedy_options_set(&o, "k", 0, NULL, &c) == AS_ERR_ARG &&
          strstr(c.msg, "'k' must be a whole number in [1, ") != NULL, "k = 0: %s", c.msg);
    CHECK(as_greedy_options_set(&o, "k", 2.5, NULL, &c) == AS_ERR_ARG, "k = 2.5: %s", c.msg);
    CHECK(as_greedy_options_set(&o, "eps", 0.5, NULL, &c) == AS_ERR_ARG && strstr(c.msg, "unknown option 'eps'"),
          "eps: %s", c.msg);
    CHECK(as_greedy_options_set(&o, "rel", 0.1, NULL, &c) == AS_OK && as_greedy_options_set(&o, "k", 5, NULL, &c) == AS_OK,
          "rel, k by name: %s", c.msg);
    st = as_greedy(&A, &o, &S, &c);
    CHECK(st == AS_ERR_ARG && strstr(c.msg, "'rel' and 'k' cannot be given together") && S.k == 0 && S.index == NULL,
          "rel with k: status %d: %s", st, c.msg);
    /* a struct filled by hand is checked too */
    as_greedy_options_init(&o);
    o.rel = 1.5;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_ERR_ARG && S.index == NULL, "rel = 1.5 in the struct: %s", c.msg);
    as_greedy_options_init(&o);
    o.k = -3;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_ERR_ARG, "k = -3 in the struct: %s", c.msg);
    as_greedy_options_init(&o);
    o.mem_mb = 1e-4;
    st = as_greedy(&A, &o, &S, &c);
    CHECK(st == AS_ERR_TOOBIG && strstr(c.msg, "above 'memory'"), "memory cap: status %d: %s", st, c.msg);
    as_greedy_options_init(&o);
    X[7] = NAN;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_ERR_INPUT && strstr(c.msg, "holds a NaN"), "NaN: %s", c.msg);
    X[7] = 1e160;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_ERR_INPUT && strstr(c.msg, "X X' overflows"), "overflow: %s", c.msg);
    A.ncol = 0;
    CHECK(as_greedy(&A, &o, &S, &c) == AS_ERR_INPUT && strstr(c.msg, "X is empty"), "empty: %s", c.msg);
    free(X);
}

/* The fields of a greedy result: its own rows, not rand's or det's. */
static void test_fields(void)
{
    const char *want[] = {"Y", "index", "weight", "m", "k", "error", "rel_error", "r", "baseline", "eps_spectral",
                          "bound", "method", "time", "error_time", "rel_target", "max_columns", "approach", "rounds"};
    as_result S;
    int t, n = 0, ok = 1;
    char buf[32];
    as_result_init(&S);
    S.call = AS_FOR_GREEDY;
    for (t = 0; t < as_field_count(); t++) {
        const as_field *f = as_field_at(t);
        if (!as_field_present(f, AS_FOR_GREEDY, &S)) continue;
        ok = ok && n < (int)(sizeof want / sizeof want[0]) && strcmp(f->name, want[n]) == 0;
        n++;
        if (strcmp(f->name, "method") == 0)
            CHECK(strcmp(as_field_text(f, &S, buf, sizeof buf), "greedy") == 0, "method '%s'", buf);
        if (strcmp(f->name, "max_columns") == 0) CHECK(isnan(as_field_number(f, &S)), "max_columns of no budget");
    }
    CHECK(ok && n == (int)(sizeof want / sizeof want[0]), "greedy's fields: %d, in the order of the table: %d", n, ok);
}

/* ---------------------------------------------------------------- refit */
/* A sample and its refit: the same columns (fewer or as many), rel not raised,
   refit_rel the sample's own rel, no estimate. */
static void check_refit(const char *what, const as_matrix *X, const as_result *plain, const as_result *fit)
{
    as_metrics M = measure(X, fit);
    int64_t a = 0, t;
    int subset = 1;
    for (t = 0; t < fit->k; t++) {
        while (a < plain->k && plain->index[a] < fit->index[t]) a++;
        subset = subset && a < plain->k && plain->index[a] == fit->index[t];
    }
    CHECK(subset && fit->k <= plain->k && well_formed(fit, X->ncol), "%s: %lld of the sample's %lld columns, subset %d",
          what, (long long)fit->k, (long long)plain->k, subset);
    CHECK(fit->refit_rel == plain->metrics.rel, "%s: refit_rel %.17g, the sample's rel %.17g", what, fit->refit_rel,
          plain->metrics.rel);
    CHECK(fit->metrics.rel <= fit->refit_rel * (1 + 1e-12), "%s: rel %g after the refit, %g before", what,
          fit->metrics.rel, fit->refit_rel);
    CHECK(close_rel(fit->metrics.rel, M.rel, 1e-12), "%s: rel %.17g, as_attention_error %.17g", what,
          fit->metrics.rel, M.rel);
    CHECK((fit->has & AS_HAS_REFIT) && !(plain->has & AS_HAS_REFIT) && isnan(plain->refit_rel),
          "%s: AS_HAS_REFIT", what);
    CHECK(fit->estimate == AS_ESTIMATE_NONE && fit->estimate_why == AS_WHY_REFIT && isnan(fit->rel_estimate),
          "%s: estimate %d, why %d", what, fit->estimate, fit->estimate_why);
}

static void test_refit(void)
{
    double *X = gauss(10, 2000, 0.3, 10, 0.1, 90);
    check_views V;
    as_common c;
    as_rand_options ro;
    as_det_options dopt;
    as_result plain, fit;
    int kind, lowered = 0;
    as_common_init(&c);
    check_views_make(&V, 10, 2000, X);
    for (kind = 0; kind < 3; kind++) {
        const as_matrix *A = kind == 0 ? &V.D : kind == 1 ? &V.S32 : &V.S64;
        char what[64];
        as_rand_options_init(&ro);
        ro.m = 60;
        ro.probabilities = AS_PROB_NORM;
        ro.sampling = AS_SAMPLING_POISSON;
        ro.seed = 4;
        snprintf(what, sizeof what, "rand refit, view %d", kind);
        CHECK(as_rand(A, &ro, &plain, &c) == AS_OK, "%s: %s", what, c.msg);
        ro.refit = 1;
        CHECK(as_rand(A, &ro, &fit, &c) == AS_OK, "%s: %s", what, c.msg);
        check_refit(what, A, &plain, &fit);
        lowered += fit.metrics.rel < 0.5 * plain.metrics.rel;
        as_result_free(&plain, &c);
        as_result_free(&fit, &c);
    }
    CHECK(lowered == 3, "the refit halves rel of a norm-Poisson sample on %d of 3 views", lowered);
    as_det_options_init(&dopt);
    CHECK(as_det(&V.D, &dopt, &plain, &c) == AS_OK, "det: %s", c.msg);
    dopt.refit = 1;
    CHECK(as_det(&V.D, &dopt, &fit, &c) == AS_OK, "det refit: %s", c.msg);
    check_refit("det refit", &V.D, &plain, &fit);
    CHECK(fit.eps_bound == plain.eps_bound, "det refit: eps_bound %g, %g", fit.eps_bound, plain.eps_bound);
    as_result_free(&plain, &c);
    as_result_free(&fit, &c);
    /* error = false: the refit still made, and the rel of its weights given (X X' at hand), no other metric */
    as_rand_options_init(&ro);
    ro.m = 60; ro.seed = 4; ro.refit = 1; ro.error = 0; ro.estimate = 0;
    CHECK(as_rand(&V.D, &ro, &fit, &c) == AS_OK && !isnan(fit.refit_rel) && fit.metrics.rel <= fit.refit_rel &&
          isnan(fit.metrics.inf) && isnan(fit.metrics.r), "refit without the metrics: %s", c.msg);
    as_result_free(&fit, &c);
    /* with keys: refused */
    ro.error = 1;
    CHECK(as_rand_qkv(&V.D, &V.S32, NULL, 0, &ro, &fit, &c) == AS_ERR_ARG && strstr(c.msg, "'refit'") && fit.index == NULL,
          "refit with K: %s", c.msg);
    dopt.refit = 1;
    {
        double v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        CHECK(as_det_qkv(&V.D, NULL, v, 1, &dopt, &fit, &c) == AS_ERR_ARG && strstr(c.msg, "'refit'"),
              "det refit with V: %s", c.msg);
    }
    /* read by blocks (wider than the sketch): refused before any read */
    {
        as_blocks *run = NULL;
        int st = as_blocks_new(AS_BLOCKS_RAND, 10, 2000, &ro, NULL, 0, 1, &run, &c);
        CHECK(st == AS_ERR_ARG && strstr(c.msg, "'refit' needs X in memory"), "refit by blocks: %d %s", st, c.msg);
        as_blocks_free(run, &c);
    }
    check_views_free(&V);
    free(X);
}

/* A refit of a sample that keeps no column (all of X zero, or one Poisson
   draw that keeps none): k = 0 as without the refit, refit_rel and rel that of
   Y = 0, no crash. */
static void test_refit_empty(void)
{
    const int64_t n = 20, d = 2000;
    double *Z = calloc((size_t)(n * 100), sizeof(double)), *E = malloc(sizeof(double) * (size_t)(n * d));
    as_matrix A, B;
    as_common c;
    as_rand_options ro;
    as_det_options dopt;
    as_result plain, fit;
    int k;
    as_common_init(&c);
    as_view_dense(&A, n, 100, Z, n);
    CHECK(as_example(n, d, 0.5, 1, E, &c) == AS_OK, "example: %s", c.msg);
    as_view_dense(&B, n, d, E, n);
    for (k = 0; k < 3; k++) {
        const as_matrix *X = k == 2 ? &B : &A;
        const char *what = k == 0 ? "rand on zeros" : k == 1 ? "det on zeros" : "rand, one Poisson draw";
        int st0, st1;
        as_rand_options_init(&ro);
        ro.m = k == 2 ? 1 : 10;
        ro.seed = 1;
        if (k == 2) ro.sampling = AS_SAMPLING_POISSON;
        as_det_options_init(&dopt);
        st0 = k == 1 ? as_det(X, &dopt, &plain, &c) : as_rand(X, &ro, &plain, &c);
        ro.refit = dopt.refit = 1;
        st1 = k == 1 ? as_det(X, &dopt, &fit, &c) : as_rand(X, &ro, &fit, &c);
        CHECK(st0 == AS_OK && st1 == AS_OK, "%s: status %d, with the refit %d: %s", what, st0, st1, c.msg);
        if (st0 != AS_OK || st1 != AS_OK) continue;
        CHECK(plain.k == 0 && fit.k == 0, "%s: %lld columns, %lld with the refit", what, (long long)plain.k,
              (long long)fit.k);
        CHECK(fit.refit_rel == plain.metrics.rel && fit.metrics.rel == plain.metrics.rel &&
              fit.metrics.rel == fit.metrics.baseline && (fit.has & AS_HAS_REFIT),
              "%s: rel %g, refit_rel %g, the sample's rel %g, baseline %g", what, fit.metrics.rel, fit.refit_rel,
              plain.metrics.rel, fit.metrics.baseline);
        as_result_free(&plain, &c);
        as_result_free(&fit, &c);
    }
    free(Z);
    free(E);
}

/* A wide sparse input whose candidate passes span several blocks: column j
   holds about 20 / (1 + j / 400) entries (Zipf-like: about 400 columns heavy,
   the rest light, most with none to two), rows of norm 2. With a budget of
   200 columns: the same columns and weights on 1, 2 and 3 threads, in CSC32
   and CSC64. With 12: no column set found beats Y = 0 (rel 104%; the greedy
   method's 12 columns have 699%), so none is kept. */
/* A wide sparse 40 x d input: column j holds each row with probability
   0.5 / (1 + j / 400) (a few hundred heavy columns, a long tail of light
   ones), rows scaled to norm 2; *heavy: the columns with at least n / 4
   entries. */
static double *wide_input(int64_t d, int64_t *heavy)
{
    const int64_t n = 40;
    double *X = calloc((size_t)(n * d), sizeof(double)), norm[40] = {0};
    int64_t i, j;
    *heavy = 0;
    for (j = 0; j < d; j++) {
        double p = 0.5 / (1.0 + (double)j / 400.0);
        int64_t m = 0;
        for (i = 0; i < n; i++)
            if (as_rng_unif(91, 1, (uint64_t)(j * n + i)) < p) {
                X[i + j * n] = 1.0 + as_rng_unif(91, 2, (uint64_t)(j * n + i));
                m++;
            }
        *heavy += 4 * m >= n;
    }
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) norm[i] += X[i + j * n] * X[i + j * n];
    for (j = 0; j < d; j++)
        for (i = 0; i < n; i++) X[i + j * n] *= 2.0 / sqrt(norm[i]);
    return X;
}

static void test_wide_sparse(void)
{
    const int64_t n = 40, d = 20000;
    int64_t heavy;
    double *X = wide_input(d, &heavy);
    check_views V;
    as_result S[3];
    int t;
    CHECK(heavy > 256, "the input has %lld heavy columns, fewer than a block's 256", (long long)heavy);
    check_views_make(&V, n, d, X);
    for (t = 0; t < 3; t++) {
        as_common c;
        as_greedy_options o;
        as_common_init(&c);
        c.nthreads = t + 1;
        as_greedy_options_init(&o);
        o.k = 200;
        CHECK(as_greedy(t == 2 ? &V.S64 : &V.S32, &o, &S[t], &c) == AS_OK, "wide sparse, %d threads: %s", t + 1, c.msg);
        CHECK(S[t].k > 0 && S[t].k <= 200 && S[t].metrics.rel < S[t].metrics.baseline,
              "wide sparse, %d threads: k %lld, rel %g, baseline %g", t + 1, (long long)S[t].k, S[t].metrics.rel,
              S[t].metrics.baseline);
        if (t > 0)
            CHECK(S[t].k == S[0].k && memcmp(S[t].index, S[0].index, 8 * (size_t)S[0].k) == 0 &&
                      memcmp(S[t].weight, S[0].weight, 8 * (size_t)S[0].k) == 0,
                  "wide sparse: %d threads give other columns or weights than 1 (k %lld vs %lld)", t + 1,
                  (long long)S[t].k, (long long)S[0].k);
    }
    for (t = 0; t < 3; t++) {
        as_common c;
        as_common_init(&c);
        as_result_free(&S[t], &c);
    }
    {
        as_common c;
        as_greedy_options o;
        as_result S0;
        as_common_init(&c);
        as_greedy_options_init(&o);
        o.k = 12;
        CHECK(as_greedy(&V.S32, &o, &S0, &c) == AS_OK && S0.k == 0 && S0.metrics.rel == S0.metrics.baseline,
              "wide sparse, budget 12: k %lld, rel %g, baseline %g (Y = 0 is better than the columns found)",
              (long long)S0.k, S0.metrics.rel, S0.metrics.baseline);
        as_result_free(&S0, &c);
    }
    check_views_free(&V);
    free(X);
}

/* Past c->tune.greedy_k_max kept columns the greedy method fits without K
   (refit_cd.c): with the limit at 8 the rounds and the prune past 8 columns
   take the K-free fit. Targets met with the exact rel as the certificate,
   the columns at most 1.5 times the K-based run's (plus 2), the same bits on
   1 and 3 threads, and in a sparse and a dense view. */
static void test_kfree(void)
{
    double *X = gauss(12, 3000, 0.05, 12, 0.15, 77);
    const double targets[2] = {0.02, 0.005};
    check_views V;
    int r, v;
    check_views_make(&V, 12, 3000, X);
    for (v = 0; v < 2; v++)
        for (r = 0; r < 2; r++) {
            const as_matrix *A = v == 0 ? &V.S32 : &V.D;
            as_result S[3];
            as_metrics M;
            int t;
            for (t = 0; t < 3; t++) {
                as_common c;
                as_greedy_options o;
                as_common_init(&c);
                c.tune.greedy_k_max = t == 0 ? 100000 : 8;
                c.nthreads = t == 2 ? 3 : 1;
                as_greedy_options_init(&o);
                o.rel = targets[r];
                CHECK(as_greedy(A, &o, &S[t], &c) == AS_OK, "K-free greedy, view %d, rel %g: %s", v, targets[r], c.msg);
            }
            M = measure(A, &S[1]);
            CHECK(S[1].metrics.rel <= targets[r] && close_rel(S[1].metrics.rel, M.rel, 1e-12) && well_formed(&S[1], 3000),
                  "K-free greedy, view %d, rel %g: rel %.17g (as_attention_error %.17g), k %lld", v, targets[r],
                  S[1].metrics.rel, M.rel, (long long)S[1].k);
            CHECK(S[1].k > 8, "K-free greedy, view %d, rel %g: %lld columns, none fitted without K", v, targets[r],
                  (long long)S[1].k);
            CHECK((double)S[1].k <= 1.5 * (double)S[0].k + 2,
                  "K-free greedy, view %d, rel %g: %lld columns, the K-based fit %lld", v, targets[r],
                  (long long)S[1].k, (long long)S[0].k);
            CHECK(S[2].k == S[1].k && memcmp(S[2].index, S[1].index, 8 * (size_t)S[1].k) == 0 &&
                      memcmp(S[2].weight, S[1].weight, 8 * (size_t)S[1].k) == 0,
                  "K-free greedy, view %d, rel %g: 3 threads give other columns or weights than 1", v, targets[r]);
            for (t = 0; t < 3; t++) {
                as_common c;
                as_common_init(&c);
                as_result_free(&S[t], &c);
            }
        }
    check_views_free(&V);
    free(X);
}

/* The sample path (option approach): the target met with the exact rel,
   the heavy columns kept at weight 1, the same bits on 1 and 2 threads and
   both index widths, fewer columns than the randomized target mode's; auto
   takes the rounds on an input this small; a budget is refused. */
static void test_sample_path(void)
{
    const int64_t n = 40, d = 20000;
    const double targets[2] = {0.05, 0.02};
    int64_t heavy, j, a;
    double *X = wide_input(d, &heavy);
    check_views V;
    int r, t;
    check_views_make(&V, n, d, X);
    for (r = 0; r < 2; r++) {
        as_result S[2], T;
        as_metrics M;
        as_common c;
        as_greedy_options o;
        as_rand_options ro;
        int64_t kept = 0, ok = 1;
        for (t = 0; t < 2; t++) {
            as_common_init(&c);
            c.nthreads = t + 1;
            as_greedy_options_init(&o);
            o.rel = targets[r];
            o.approach = AS_APPROACH_SAMPLE;
            o.seed = 7;
            CHECK(as_greedy(t == 0 ? &V.S32 : &V.S64, &o, &S[t], &c) == AS_OK, "sample path, rel %g: %s", targets[r], c.msg);
        }
        M = measure(&V.S32, &S[0]);
        CHECK(S[0].approach == AS_APPROACH_SAMPLE && S[0].metrics.rel <= targets[r] &&
                  close_rel(S[0].metrics.rel, M.rel, 1e-12) && well_formed(&S[0], d),
              "sample path, rel %g: rel %.17g (as_attention_error %.17g), k %lld", targets[r], S[0].metrics.rel,
              M.rel, (long long)S[0].k);
        CHECK(S[1].k == S[0].k && memcmp(S[1].index, S[0].index, 8 * (size_t)S[0].k) == 0 &&
                  memcmp(S[1].weight, S[0].weight, 8 * (size_t)S[0].k) == 0,
              "sample path, rel %g: 2 threads and 64-bit indices give other columns or weights", targets[r]);
        /* the columns of at least n / 4 entries the prune leaves are kept at weight 1 */
        for (j = 0, a = 0; j < d; j++) {
            int64_t m = 0, i;
            for (i = 0; i < n; i++) m += X[i + j * n] != 0;
            while (a < S[0].k && S[0].index[a] < j) a++;
            if (4 * m >= n && a < S[0].k && S[0].index[a] == j) {
                kept++;
                ok &= S[0].weight[a] == 1.0;
            }
        }
        CHECK(ok && kept > 0 && kept <= heavy, "sample path, rel %g: %lld of %lld heavy columns kept, not all at weight 1",
              targets[r], (long long)kept, (long long)heavy);
        as_common_init(&c);
        as_rand_options_init(&ro);
        ro.rel = targets[r];
        ro.seed = 7;
        CHECK(as_rand(&V.S32, &ro, &T, &c) == AS_OK && S[0].k < T.k,
              "sample path, rel %g: %lld columns, the target mode %lld", targets[r], (long long)S[0].k, (long long)T.k);
        as_result_free(&T, &c);
        for (t = 0; t < 2; t++) as_result_free(&S[t], &c);
    }
    {
        as_common c;
        as_greedy_options o;
        as_result S;
        as_common_init(&c);
        as_greedy_options_init(&o);
        o.rel = 0.05;
        CHECK(as_greedy(&V.S32, &o, &S, &c) == AS_OK && S.approach == AS_APPROACH_ROUNDS,
              "approach auto on a 40 x 20000 input: not the rounds (%s)", c.msg);
        as_result_free(&S, &c);
        as_greedy_options_init(&o);
        o.k = 50;
        o.approach = AS_APPROACH_SAMPLE;
        CHECK(as_greedy(&V.S32, &o, &S, &c) == AS_ERR_ARG && strstr(c.msg, "'approach'") != NULL,
              "approach sample with a budget k: status %d, '%s'", c.status, c.msg);
    }
    check_views_free(&V);
    free(X);
}

/* The sample path tried beside the rounds (approach auto, a sparse X, a
   target; here from 10 kept columns on): the target met with the exact rel,
   never more columns than the sample path alone with the same seed, its very
   result (bits) where it is kept, the same bits on 1 and 2 threads and both
   index widths; never tried (greedy_beside_k 0), or failing for want of
   'memory': the rounds' result to the bit. */
static void test_sample_beside(void)
{
    const int64_t n = 40, d = 2000;
    const double targets[2] = {0.05, 0.02};
    int64_t heavy;
    double *X = wide_input(d, &heavy);
    check_views V;
    int r, t;
    check_views_make(&V, n, d, X);
    for (r = 0; r < 2; r++) {
        as_result A[2], S, R, Z;
        as_metrics M;
        as_common c;
        as_greedy_options o;
        for (t = 0; t < 2; t++) {
            as_common_init(&c);
            c.nthreads = t + 1;
            c.tune.greedy_beside_k = 10;
            as_greedy_options_init(&o);
            o.rel = targets[r];
            o.seed = 7;
            CHECK(as_greedy(t == 0 ? &V.S32 : &V.S64, &o, &A[t], &c) == AS_OK, "beside, rel %g: %s", targets[r], c.msg);
        }
        as_common_init(&c);
        as_greedy_options_init(&o);
        o.rel = targets[r];
        o.seed = 7;
        o.approach = AS_APPROACH_SAMPLE;
        CHECK(as_greedy(&V.S32, &o, &S, &c) == AS_OK, "sample path, rel %g: %s", targets[r], c.msg);
        o.approach = AS_APPROACH_ROUNDS;
        CHECK(as_greedy(&V.S32, &o, &R, &c) == AS_OK, "rounds, rel %g: %s", targets[r], c.msg);
        c.tune.greedy_beside_k = 0;
        o.approach = AS_APPROACH_AUTO;
        CHECK(as_greedy(&V.S32, &o, &Z, &c) == AS_OK && Z.k == R.k && memcmp(Z.index, R.index, 8 * (size_t)R.k) == 0 &&
                  memcmp(Z.weight, R.weight, 8 * (size_t)R.k) == 0,
              "rel %g, greedy_beside_k 0: %lld columns, the rounds %lld", targets[r], (long long)Z.k, (long long)R.k);
        M = measure(&V.S32, &A[0]);
        CHECK(A[0].metrics.rel <= targets[r] && close_rel(A[0].metrics.rel, M.rel, 1e-12) && well_formed(&A[0], d),
              "beside, rel %g: rel %.17g (as_attention_error %.17g), k %lld", targets[r], A[0].metrics.rel, M.rel,
              (long long)A[0].k);
        CHECK(S.metrics.rel <= targets[r] && A[0].k <= S.k && A[0].k <= R.k,
              "beside, rel %g: %lld columns, the sample path alone %lld, the rounds alone %lld", targets[r],
              (long long)A[0].k, (long long)S.k, (long long)R.k);
        if (A[0].approach == AS_APPROACH_SAMPLE)
            CHECK(A[0].k == S.k && memcmp(A[0].index, S.index, 8 * (size_t)S.k) == 0 &&
                      memcmp(A[0].weight, S.weight, 8 * (size_t)S.k) == 0,
                  "beside, rel %g: the sample path's result kept, but not its columns and weights", targets[r]);
        CHECK(A[1].k == A[0].k && A[1].approach == A[0].approach &&
                  memcmp(A[1].index, A[0].index, 8 * (size_t)A[0].k) == 0 &&
                  memcmp(A[1].weight, A[0].weight, 8 * (size_t)A[0].k) == 0,
              "beside, rel %g: 2 threads and 64-bit indices give other columns or weights", targets[r]);
        for (t = 0; t < 2; t++) as_result_free(&A[t], &c);
        as_result_free(&S, &c);
        as_result_free(&R, &c);
        as_result_free(&Z, &c);
    }
    {
        /* a 'memory' that holds the rounds but not the sample path: the call goes on
           without it, the rounds' bits */
        as_result A, S, Z;
        as_common c;
        as_greedy_options o;
        int sa, sz, ss;
        as_common_init(&c);
        c.tune.greedy_beside_k = 10;
        as_greedy_options_init(&o);
        o.rel = 0.05;
        o.seed = 7;
        o.mem_mb = 16;
        sa = as_greedy(&V.S32, &o, &A, &c);
        c.tune.greedy_beside_k = 0;
        sz = as_greedy(&V.S32, &o, &Z, &c);
        o.approach = AS_APPROACH_SAMPLE;
        ss = as_greedy(&V.S32, &o, &S, &c);
        CHECK(ss == AS_ERR_TOOBIG && sz == AS_OK, "memory 16 MB: the sample path alone status %d, the rounds %d", ss, sz);
        CHECK(sa == AS_OK && A.k == Z.k && memcmp(A.index, Z.index, 8 * (size_t)Z.k) == 0 &&
                  memcmp(A.weight, Z.weight, 8 * (size_t)Z.k) == 0,
              "memory 16 MB, the sample path beside failing: status %d, %lld columns, the rounds alone %lld", sa,
              (long long)A.k, (long long)Z.k);
        as_result_free(&A, &c);
        as_result_free(&Z, &c);
        if (ss == AS_OK) as_result_free(&S, &c);
    }
    check_views_free(&V);
    free(X);
}

int main(void)
{
    test_kfree();
    test_targets();
    test_wide_sparse();
    test_sample_path();
    test_sample_beside();
    test_zero_and_tiny();
    test_budget();
    test_missed();
    test_bad();
    test_fields();
    test_refit();
    test_refit_empty();
    return check_report("test_greedy");
}
