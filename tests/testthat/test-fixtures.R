# test-fixtures.R: the shared fixture outputs that Octave wrote (tests/fixtures/make_fixtures.m) reproduced by R;
# tests/octave/test_fixtures.m checks the ones R wrote, and make check-cross compares fresh outputs of every case
# bit for bit on this machine.
fixture_dir <- function() {
  for (d in c("../fixtures", "../../tests/fixtures")) if (file.exists(file.path(d, "cases.txt"))) return(d)
  NULL
}

test_that("shared fixtures written by Octave: same index and weight from R", {
  dir <- fixture_dir()
  if (is.null(dir)) skip("fixtures not found")
  source(file.path(dir, "fixtures.R"), local = TRUE)
  cases <- fixture_cases(dir)
  # every case is written by one side and checked by the other
  expect_setequal(unique(cases$writer), c("R", "octave"))
  cases <- cases[cases$writer == "octave", ]
  expect_gte(nrow(cases), 5)
  for (k in seq_len(nrow(cases))) {
    cs <- cases[k, ]
    X <- fixture_read_X(file.path(dir, paste0(cs$name, ".X.txt")))
    want <- fixture_read_out(file.path(dir, paste0(cs$case, ".out")))
    # weights to 1e-13 (rand) or 1e-12 (det): the leverage scores behind them go through the host's LAPACK
    # and BLAS, whose last bits differ between libraries and CPUs
    expect_equal(fixture_compare(fixture_run(X, cs), want, exact = FALSE, algorithm = cs$algorithm), "",
                 label = cs$case)
    if (cs$algorithm == "rand") expect_false(is.null(want$rel_estimate), label = paste(cs$case, "rel_estimate"))
  }
})
