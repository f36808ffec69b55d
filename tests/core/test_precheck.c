/* test_precheck.c: the traps said before any work (core/precheck.c): X transposed at the boundary of its rule, the same words from the shape alone (an X read by blocks) as from the matrix, logits that overflow and Y = 0 within the target with the scale that fixes them, an empty X. */
#include "as_internal.h"
#include "check.h"
#include "precheck.h"
#include "rng.h"
#include <string.h>

static void test_shape(void)
{
    as_precheck_out a, b;
    int64_t rows[] = {999, 1000, 1200, 5000}, cols[] = {30, 30, 1200, 6000};
    int t;
    for (t = 0; t < 4; t++) {
        int64_t n = rows[t], d = cols[t];
        int want = n > d && n >= AS_PRECHECK_ROWS;
        double *x = calloc((size_t)(n * d), sizeof(double));
        as_matrix X;
        as_common c;
        as_common_init(&c);
        x[0] = 0.5;   /* max (X X')_ii = 0.25: no scale trap */
        as_view_dense(&X, n, d, x, n);
        as_precheck_shape(n, d, &a);
        CHECK(as_precheck(&X, NAN, &b, &c) == AS_OK, "%lld x %lld: %s", (long long)n, (long long)d, c.msg);
        CHECK(!!(a.flags & AS_PRECHECK_TRANSPOSED) == want && a.flags == b.flags && strcmp(a.transposed, b.transposed) == 0,
              "%lld x %lld: flags %d (shape) and %d (matrix), want transposed %d: '%s'", (long long)n, (long long)d,
              a.flags, b.flags, want, a.transposed);
        CHECK(!want || (strstr(a.transposed, "give t(X) in R, X' in Octave") && strstr(a.transposed, "more rows")),
              "%lld x %lld: '%s'", (long long)n, (long long)d, a.transposed);
        free(x);
    }
}

static void test_scale(void)
{
    int64_t n = 4, d = 50, t;
    double x[200], y[200];
    as_matrix X, Y;
    as_common c;
    as_precheck_out o;
    as_common_init(&c);
    for (t = 0; t < n * d; t++) x[t] = 4 * as_rng_normal(3, 1, (uint64_t)t);   /* (X X')_ii about 800 */
    as_view_dense(&X, n, d, x, n);
    CHECK(as_precheck(&X, NAN, &o, &c) == AS_OK && (o.flags & AS_PRECHECK_OVERFLOW) && o.gmax > 355 &&
              fabs(o.scale - 1 / sqrt(o.gmax)) < 1e-15 * o.scale && strstr(o.scale_note, "overflows"),
          "overflow: flags %d, gmax %g: '%s'", o.flags, o.gmax, o.scale_note);
    /* scaled by the factor it names: no trap left */
    for (t = 0; t < n * d; t++) y[t] = x[t] * o.scale;
    as_view_dense(&Y, n, d, y, n);
    CHECK(as_precheck(&Y, 0.05, &o, &c) == AS_OK && o.flags == 0 && fabs(o.gmax - 1) < 1e-12, "scaled: flags %d, gmax %.17g",
          o.flags, o.gmax);
    /* logits within [-g, g] with exp(2 g) - 1 <= rel: Y = 0 meets it */
    for (t = 0; t < n * d; t++) y[t] *= 0.1;
    CHECK(as_precheck(&Y, 0.05, &o, &c) == AS_OK && o.flags == AS_PRECHECK_TRIVIAL && strstr(o.scale_note, "Y = 0"),
          "trivial: flags %d: '%s'", o.flags, o.scale_note);
    CHECK(as_precheck(&Y, 0.01, &o, &c) == AS_OK && o.flags == 0, "0.01 is below exp(0.02) - 1: flags %d", o.flags);
    CHECK(as_precheck(&Y, NAN, &o, &c) == AS_OK && o.flags == 0, "no target: flags %d", o.flags);
    /* an empty X: nothing to say */
    as_view_dense(&Y, 0, d, y, 1);
    CHECK(as_precheck(&Y, 0.05, &o, &c) == AS_OK && o.flags == 0, "empty: flags %d", o.flags);
}

int main(void)
{
    test_shape();
    test_scale();
    return check_report("test_precheck");
}
