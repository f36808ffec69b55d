/* test_status.c: the progress lines of long calls without 'verbose' (as_status, and the long steps' phases reported at the interrupt polls): which calls say what, a short call saying nothing, no line without a print hook, and the phase cleared after every call. The 2 s thresholds are set to 0 through c->tune so that every line is seen. */
#include "as_internal.h"
#include "check.h"
#include "det.h"
#include "greedy.h"
#include "rand.h"
#include "rng.h"
#include <string.h>

#define MAXLINES 4096
static char lines[MAXLINES][256];
static int nlines;

static void collect(void *ctx, const char *line)
{
    (void)ctx;
    if (nlines < MAXLINES) {
        strncpy(lines[nlines], line, sizeof(lines[0]) - 1);
        lines[nlines][sizeof(lines[0]) - 1] = '\0';
    }
    nlines++;
}

/* the lines that begin with prefix */
static int count(const char *prefix)
{
    int t, k = 0;
    for (t = 0; t < nlines && t < MAXLINES; t++) k += strncmp(lines[t], prefix, strlen(prefix)) == 0;
    return k;
}

/* n x d Gaussian entries over sqrt(d): rows of squared norm about 1 */
static double *gauss(int64_t n, int64_t d, uint64_t seed)
{
    double *X = malloc(sizeof(double) * (size_t)(n * d));
    int64_t t;
    for (t = 0; t < n * d; t++) X[t] = as_rng_normal(seed, 1, (uint64_t)t) / sqrt((double)d);
    return X;
}

/* c: the hook, and every line at once (fast = 0: the default thresholds) */
static void ctx(as_common *c, int fast)
{
    as_common_init(c);
    c->print_fn = collect;
    if (fast) c->tune.status_after = c->tune.status_every = 0;
    nlines = 0;
}

static void test_rand(void)
{
    int64_t n = 30, d = 3000;
    double *x = gauss(n, d, 3);
    as_matrix X;
    as_common c;
    as_rand_options o;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    as_rand_options_init(&o);
    o.seed = 1;
    o.rel = 0.05;
    ctx(&c, 1);
    CHECK(as_rand(&X, &o, &S, &c) == AS_OK, "rand: %s", c.msg);
    CHECK(count("rand: target round ") >= 1 && count("rand: leverage scores of 3000 columns") == 1 &&
              count("rand: ") + count("metrics: ") + count("leverage: ") == nlines && c.phase == NULL,
          "target mode: %d lines, %d target rounds, %d metrics lines: '%s'", nlines, count("rand: target round "),
          count("metrics: "), nlines ? lines[0] : "");
    /* target mode with the exact error: X X' first (its check of the sample), the metrics reuse it */
    CHECK(count("rand: X X' for the exact check of target mode") >= 1 &&
              count("metrics: the error of Y against the exact X X'") >= 1,
          "the phases reported at their polls: %d metrics lines", count("metrics: "));
    as_result_free(&S, &c);
    /* the same call with the default thresholds: a fraction of a second, no line (a line only
       where the call itself took past status_after: under valgrind on a loaded machine) */
    ctx(&c, 0);
    {
        double t0 = as_wtime();
        int ok = as_rand(&X, &o, &S, &c) == AS_OK, slow = as_wtime() - t0 >= c.tune.status_after;
        CHECK(ok && (nlines == 0 || slow) && c.phase == NULL, "short call: %d lines ('%s')", nlines,
              nlines ? lines[0] : "");
    }
    as_result_free(&S, &c);
    /* no hook: nothing printed, nothing broken */
    ctx(&c, 1);
    c.print_fn = NULL;
    CHECK(as_rand(&X, &o, &S, &c) == AS_OK && nlines == 0, "no print hook: %d lines", nlines);
    as_result_free(&S, &c);
    free(x);
}

static void test_det(void)
{
    int64_t n = 12, d = 400;
    double *x = gauss(n, d, 4);
    as_matrix X;
    as_common c;
    as_det_options o;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    as_det_options_init(&o);
    o.eps = 0.5;
    ctx(&c, 1);
    CHECK(as_det(&X, &o, &S, &c) == AS_OK && count("det: iteration ") >= 1 && c.phase == NULL,
          "det: %s; %d lines, %d iterations reported", c.msg, nlines, count("det: iteration "));
    as_result_free(&S, &c);
    free(x);
}

static void test_greedy(void)
{
    int64_t n = 20, d = 2000;
    double *x = gauss(n, d, 5);
    as_matrix X;
    as_common c;
    as_greedy_options o;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    as_greedy_options_init(&o);
    o.rel = 0.05;
    ctx(&c, 1);
    CHECK(as_greedy(&X, &o, &S, &c) == AS_OK && count("greedy: the first round took ") == 1 &&
              count("greedy: round 1: ") == 1 && count("greedy") == nlines - count("metrics: ") && c.phase == NULL,
          "greedy: %s; %d lines, %d notes of a long run, first '%s'", c.msg, nlines,
          count("greedy: the first round took "), nlines ? lines[0] : "");
    as_result_free(&S, &c);
    free(x);
}

/* an error inside a reported phase leaves no phase behind */
static int stop_now(void *ctx)
{
    (void)ctx;
    return 1;
}

static void test_interrupted(void)
{
    int64_t n = 30, d = 3000;
    double *x = gauss(n, d, 6);
    as_matrix X;
    as_common c;
    as_rand_options o;
    as_result S;
    as_view_dense(&X, n, d, x, n);
    as_rand_options_init(&o);
    o.seed = 1;
    ctx(&c, 1);
    c.interrupt_fn = stop_now;
    CHECK(as_rand(&X, &o, &S, &c) == AS_ERR_INTERRUPT && c.phase == NULL, "interrupted: status %d, phase %s",
          c.status, c.phase ? c.phase : "NULL");
    as_result_free(&S, &c);
    free(x);
}

int main(void)
{
    test_rand();
    test_det();
    test_greedy();
    test_interrupted();
    return check_report("test_status");
}
