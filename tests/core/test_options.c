/* test_options.c: the option table and setter by name; metrics, b and the column budget from the one call. */
#include "check.h"
#include "det.h"
#include "estimate.h"
#include "metrics.h"
#include "options.h"
#include "rand.h"

static double *example(int n, int d, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)n * (size_t)d);
    as_common c;
    as_common_init(&c);
    as_example(n, d, 0.5, seed, X, &c);
    return X;
}

/* The table is consistent: every row has a name, a known kind, calls, and a
   default that is a value of the row or its "chosen by the core" mark; the
   init functions store those defaults. */
static void test_table(void)
{
    int t;
    as_rand_options r;
    as_det_options d;
    as_common c;
    char buf[1024];
    as_common_init(&c);
    CHECK(as_option_count() >= 20, "%d rows", as_option_count());
    CHECK(as_option_at(-1) == NULL && as_option_at(as_option_count()) == NULL, "bounds");
    for (t = 0; t < as_option_count(); t++) {
        const as_option *op = as_option_at(t);
        CHECK(op->name && *op->name && op->calls && op->help && *op->help, "row %d", t);
        CHECK(op->kind >= AS_OPT_REAL && op->kind <= AS_OPT_CHOICE, "%s kind", op->name);
        CHECK((op->kind == AS_OPT_CHOICE) == (op->choices != NULL), "%s choices", op->name);
        CHECK(as_option_find(op->name, op->calls) != NULL, "%s found", op->name);
    }
    as_rand_options_init(&r);
    as_det_options_init(&d);
    /* eps and sampling chosen by the core (as_rand_eps, as_rand_sampling) */
    CHECK(isnan(r.eps) && r.delta == 0.01 && r.beta == 0 && r.m == 0 && r.error == 1 &&
          r.spectral == -1 && r.estimate == AS_ESTIMATE_GAUSSIAN && isnan(r.rel) && r.probabilities == AS_PROB_AUTO &&
          r.sampling == -1 && r.s == 0 && as_rand_eps(&r) == 0.5 && as_rand_sampling(&r) == AS_SAMPLING_IID,
          "rand defaults");
    CHECK(d.eps == 0.5 && d.error == 1 && d.spectral == -1 && d.leaf == 0 && d.search == 0, "det defaults");
    CHECK(as_rand_options_check(&r, &c) == AS_OK && as_det_options_check(&d, &c) == AS_OK, "%s", c.msg);
    /* names per call: det has no probabilities (its seed is the presample's), leverage has method but no m */
    as_option_names(AS_FOR_DET, buf, sizeof buf);
    CHECK(strstr(buf, "leaf") && strstr(buf, "memory") && !strstr(buf, "probabilities"), "det: %s", buf);
    CHECK(strstr(strstr(buf, "memory") + 1, "memory") == NULL, "memory listed once: %s", buf);
    as_option_names(AS_FOR_LEVERAGE, buf, sizeof buf);
    CHECK(strstr(buf, "method") && !strstr(buf, "m,") && !strstr(buf, "leaf"), "leverage: %s", buf);
    CHECK(as_option_find("m", AS_FOR_LEVERAGE) == NULL && as_option_find("M", AS_FOR_RAND) == NULL,
          "m is rand's; names are exact");
    CHECK(strcmp(as_option_expect(as_option_find("s", AS_FOR_RAND), buf, sizeof buf),
                 "a whole number in [1, 64]") == 0, "%s", buf);
    CHECK(strcmp(as_option_expect(as_option_find("eps", AS_FOR_DET), buf, sizeof buf),
                 "a number in (0, 1)") == 0, "%s", buf);
    CHECK(strcmp(as_option_expect(as_option_find("sampling", AS_FOR_RAND), buf, sizeof buf),
                 "one of iid|poisson") == 0, "%s", buf);
}

static void test_setter(void)
{
    as_rand_options r;
    as_det_options d;
    as_metrics_options mo;
    as_common c;
    as_common_init(&c);
    as_rand_options_init(&r);
    as_det_options_init(&d);
    as_metrics_options_init(&mo);
    CHECK(as_rand_options_set(&r, "m", 40, NULL, &c) == AS_OK && r.m == 40, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "sampling", 0, "poisson", &c) == AS_OK &&
          r.sampling == AS_SAMPLING_POISSON, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "probabilities", 0, "norm", &c) == AS_OK &&
          r.probabilities == AS_PROB_NORM, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "seed", 9007199254740991.0, NULL, &c) == AS_OK &&
          r.seed == 9007199254740991ULL, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "threads", 3, NULL, &c) == AS_OK && c.nthreads == 3, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "verbose", 1, NULL, &c) == AS_OK && c.verbose == 1, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "memory", 0, NULL, &c) == AS_OK && r.mem_mb == 0, "%s", c.msg);
    CHECK(as_options_set(AS_FOR_LEVERAGE, &r, "method", 0, "exact", &c) == AS_OK &&
          r.leverage == AS_LEV_EXACT, "%s", c.msg);
    CHECK(as_det_options_set(&d, "search", 0, "scan", &c) == AS_OK && d.search == 1, "%s", c.msg);
    CHECK(as_det_options_set(&d, "leaf", 0, NULL, &c) == AS_OK && d.leaf == 0, "leaf 0: automatic");
    CHECK(as_options_set(AS_FOR_METRICS, &mo, "spectral", 1, NULL, &c) == AS_OK && mo.spectral == 1, "%s", c.msg);

    /* refusals name the option and say what it must be */
    CHECK(as_rand_options_set(&r, "s", 0, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'s' must be a whole number in [1, 64], got 0") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "s1", 0, NULL, &c) == AS_ERR_ARG && strstr(c.msg, "'s1'"), "%s", c.msg);
    CHECK(as_rand_options_set(&r, "m", 2.5, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'m' must be a whole number in [1, 2147483647], got 2.5") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "eps", NAN, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'eps' must be a number in (0, 1), got NaN") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "beta", 1e6, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'beta' must be a number in [1, 1e6), got 1e6") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "seed", 9007199254740992.0, NULL, &c) == AS_ERR_ARG &&
          strstr(c.msg, "[0, 9007199254740991]"), "%s", c.msg);
    CHECK(as_rand_options_set(&r, "error", 2, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'error' must be true or false, got 2") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "jl", 1, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'jl' must be one of gaussian|ams, got 1") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "jl", 0, "rademacher", &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'jl' must be one of gaussian|ams, got \"rademacher\"") == 0, "%s", c.msg);
    CHECK(as_rand_options_set(&r, "m", 0, "10", &c) == AS_ERR_ARG &&
          strstr(c.msg, "got the string \"10\""), "%s", c.msg);
    CHECK(as_rand_options_set(&r, "leaf", 1, NULL, &c) == AS_ERR_ARG &&
          strncmp(c.msg, "unknown option 'leaf'; valid options: m, eps, delta, seed, error, spectral", 72) == 0,
          "%s", c.msg);
    CHECK(as_det_options_set(&d, "memory", INFINITY, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'memory' must be a number in [0, 1e12], got Inf") == 0, "%s", c.msg);
    CHECK(as_options_set(AS_FOR_GRAM, &mo, "spectral", 1, NULL, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "unknown option 'spectral'; valid options: memory, threads") == 0, "%s", c.msg);
    /* a refused value leaves the struct as it was */
    CHECK(r.m == 40 && r.jl == AS_JL_GAUSSIAN && d.mem_mb == 0, "unchanged");
    /* fields filled directly by a C caller are checked against the same rows */
    r.s = 65;
    CHECK(as_rand_options_check(&r, &c) == AS_ERR_ARG &&
          strcmp(c.msg, "'s' must be a whole number in [1, 64], got 65") == 0, "%s", c.msg);
    r.s = 0;   /* 0 in the struct: the core's default */
    r.rel = 0.1;
    CHECK(as_rand_options_check(&r, &c) == AS_ERR_ARG && strstr(c.msg, "'rel' and 'm'"), "%s", c.msg);
}

static int same_metrics(const as_metrics *a, const as_metrics *b, double tol)
{
    return fabs(a->inf - b->inf) <= tol * fabs(b->inf) && fabs(a->rel - b->rel) <= tol * fabs(b->rel) &&
           a->r == b->r && a->baseline == b->baseline &&
           fabs(a->eps_spectral - b->eps_spectral) <= 1e-10 && fabs(a->bound - b->bound) <= 1e-10;
}

/* The one call: metrics equal those of as_attention_error on the same
   sample (det reuses its X X'); error = 0 leaves them NaN, spectral alone
   gives eps_spectral only; det reports b and the budget, and obeys it. */
static void test_one_call(void)
{
    int n = 6, d = 400;
    double *x = example(n, d, 5);
    as_matrix X;
    as_common c;
    as_rand_options r;
    as_det_options o;
    as_result S;
    as_metrics M;
    as_common_init(&c);
    as_view_dense(&X, n, d, x, n);

    as_rand_options_init(&r);
    r.seed = 4;
    CHECK(as_rand(&X, &r, &S, &c) == AS_OK, "%s", c.msg);
    CHECK(as_attention_error(&X, S.k, S.index, S.weight, 1, &M, &c) == AS_OK, "%s", c.msg);
    CHECK(same_metrics(&S.metrics, &M, 1e-12), "rand metrics %g %g", S.metrics.rel, M.rel);
    CHECK(S.time >= 0 && S.error_time >= 0 && isnan(S.b) && S.max_columns == 0, "rand times");
    as_result_free(&S, &c);

    r.error = 0;
    CHECK(as_rand(&X, &r, &S, &c) == AS_OK && isnan(S.metrics.rel) && isnan(S.metrics.eps_spectral) &&
          isnan(S.error_time), "error = 0: no metrics");
    as_result_free(&S, &c);
    r.spectral = 1;   /* the documented side: spectral alone is computed */
    CHECK(as_rand(&X, &r, &S, &c) == AS_OK && isnan(S.metrics.rel) && isnan(S.metrics.inf) &&
          isfinite(S.metrics.eps_spectral) && fabs(S.metrics.eps_spectral - M.eps_spectral) < 1e-10,
          "error = 0, spectral = 1: eps_spectral %g", S.metrics.eps_spectral);
    as_result_free(&S, &c);

    as_det_options_init(&o);
    o.eps = 0.4;
    CHECK(as_det(&X, &o, &S, &c) == AS_OK, "%s", c.msg);
    CHECK(S.b == as_bss_b(0.4) && S.b > 1, "b %g", S.b);
    /* the budget against the barriers: eps_bound = (u-l)/(u+l) after max_columns steps
       of the BSS potentials is at most 2 sqrt(b) / (b + 1) = eps */
    CHECK(S.max_columns == (int64_t)ceil(S.b * (double)S.rank) && S.m == S.max_columns &&
          S.k <= S.max_columns && S.eps_bound <= 2 * sqrt(S.b) / (S.b + 1) + 1e-12 &&
          fabs(2 * sqrt(S.b) / (S.b + 1) - 0.4) < 1e-12, "budget %lld, k %lld, eps_bound %g",
          (long long)S.max_columns, (long long)S.k, S.eps_bound);
    CHECK(as_attention_error(&X, S.k, S.index, S.weight, 1, &M, &c) == AS_OK &&
          same_metrics(&S.metrics, &M, 1e-10) && S.metrics.eps_spectral <= S.eps_bound + 1e-10,
          "det metrics from its own X X': %g %g", S.metrics.rel, M.rel);
    as_result_free(&S, &c);
    o.error = 0;
    CHECK(as_det(&X, &o, &S, &c) == AS_OK && isnan(S.metrics.inf) && isnan(S.metrics.eps_spectral),
          "det error = 0");
    as_result_free(&S, &c);
    free(x);
}

int main(void)
{
    test_table();
    test_setter();
    test_one_call();
    printf("test_options: %d passed, %d failed\n", check_passed, check_failed);
    return check_failed > 0;
}
