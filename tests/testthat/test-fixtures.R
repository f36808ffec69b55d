fixture_dir <- function() {
  for (d in c("../fixtures", "../../tests/fixtures")) if (file.exists(file.path(d, "cases.txt"))) return(d)
  NULL
}

test_that("shared fixtures: same index and weight as recorded (the Octave tests check the same files)", {
  dir <- fixture_dir()
  if (is.null(dir)) skip("fixtures not found")
  source(file.path(dir, "fixtures.R"), local = TRUE)
  cases <- fixture_cases(dir)
  expect_gte(nrow(cases), 5)
  for (k in seq_len(nrow(cases))) {
    cs <- cases[k, ]
    X <- fixture_read_X(file.path(dir, paste0(cs$name, ".X.txt")))
    want <- fixture_read_out(file.path(dir, paste0(cs$case, ".out")))
    got <- fixture_run(X, cs)
    expect_identical(got$index, want$index, label = cs$case)
    # weights to 1e-13: the leverage scores behind them go through the host's
    # LAPACK and BLAS, whose last bits differ between libraries and CPUs
    expect_equal(got$weight, want$weight, tolerance = if (cs$algorithm == "rand") 1e-13 else 1e-12,
                 label = cs$case)
    expect_equal(got$error, want$error, tolerance = 1e-12, label = cs$case)
    expect_equal(got$rel_error, want$rel_error, tolerance = 1e-12, label = cs$case)
    if (cs$algorithm == "rand") expect_equal(got$rel_estimate, want$rel_estimate, tolerance = 1e-12,
                                             label = paste(cs$case, "rel_estimate"))
  }
})
