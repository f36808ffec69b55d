/* test_validation.c: malformed input views (column pointers, row indices, values, sizes) and out-of-range options, refused with messages naming them. */
#include "as_internal.h"
#include "check.h"
#include "rand.h"
#include <string.h>

static void test_validation(void)
{
    as_common c;
    as_matrix A;
    int32_t p[4] = {0, 2, 1, 3}, i[3] = {0, 1, 0}, pbad0[4] = {1, 2, 3, 3}, ibad[3] = {0, 5, 0}, iuns[3] = {1, 0, 0};
    int32_t pok[4] = {0, 2, 2, 3};
    double x[3] = {1, 2, 3}, xnan[3] = {1, NAN, 3}, dense[6] = {1, 2, 3, INFINITY, 5, 6};
    as_common_init(&c);
    as_view_csc32(&A, 2, 3, p, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "decrease"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pbad0, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "start at 0"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, ibad, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "column 1"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, iuns, x);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "strictly increasing"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, i, xnan);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "NaN"), "%s", c.msg);
    as_view_csc32(&A, 2, 3, pok, i, x);
    CHECK(as_matrix_check(&A, &c) == AS_OK, "valid CSC accepted: %s", c.msg);
    as_view_dense(&A, 2, 3, dense, 2);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "column 2"), "%s", c.msg);
    as_view_dense(&A, 0, 3, dense, 1);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "empty"), "%s", c.msg);
    as_view_dense(&A, 3, 2, dense, 2);
    CHECK(as_matrix_check(&A, &c) == AS_ERR_INPUT && strstr(c.msg, "leading dimension"), "%s", c.msg);
    {
        as_rand_options o;
        as_rand_options_init(&o);
        o.eps = 1; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'eps'"), "%s", c.msg);
        o.eps = 0.5; o.delta = 0; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'delta'"), "%s", c.msg);
        o.delta = 0.1; o.m = -3; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'m'"), "%s", c.msg);
        o.m = 0; o.seed = 1ULL << 60; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'seed'"), "%s", c.msg);
        o.seed = 0; o.jl = 7; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'jl'"), "%s", c.msg);
        o.jl = 0; o.sampling = 2; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'sampling'"), "%s", c.msg);
        o.sampling = 1; o.rel = 0; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel'"), "%s", c.msg);
        o.rel = 1; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel'"), "%s", c.msg);
        o.rel = 0.1; o.m = 5; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'rel' and 'm'"), "%s", c.msg);
        o.m = 0; CHECK(as_rand_options_check(&o, &c) == AS_OK, "%s", c.msg);
        /* target mode: Poisson only; eps given keeps the spectral guarantee,
           which norm and uniform probabilities do not carry */
        o.sampling = AS_SAMPLING_IID;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'sampling' = \"iid\""), "%s", c.msg);
        o.sampling = -1; o.probabilities = AS_PROB_NORM;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'eps' with 'rel'") && strstr(c.msg, "norm"),
              "%s", c.msg);
        o.probabilities = AS_PROB_UNIFORM;
        CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "uniform"), "%s", c.msg);
        o.eps = NAN; CHECK(as_rand_options_check(&o, &c) == AS_OK, "norm probabilities without eps: %s", c.msg);
        o.probabilities = AS_PROB_AUTO;
        CHECK(isnan(as_rand_eps(&o)) && as_rand_sampling(&o) == AS_SAMPLING_POISSON, "target mode's eps %g, sampling %d",
              as_rand_eps(&o), as_rand_sampling(&o));
        o.rel = NAN;
        CHECK(as_rand_eps(&o) == AS_EPS_DEFAULT && as_rand_sampling(&o) == AS_SAMPLING_IID, "default eps %g, sampling %d",
              as_rand_eps(&o), as_rand_sampling(&o));
        as_rand_options_init(&o);
        CHECK(isnan(o.eps) && o.sampling == -1, "init: eps %g, sampling %d", o.eps, o.sampling);
        o.probabilities = 5; CHECK(as_rand_options_check(&o, &c) == AS_ERR_ARG && strstr(c.msg, "'probabilities'"), "%s", c.msg);
    }
}

int main(void)
{
    test_validation();
    return check_report("test_validation");
}
