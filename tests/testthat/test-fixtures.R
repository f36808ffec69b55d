# test-fixtures.R: the shared fixture outputs that Octave wrote (tests/cross/make_fixtures.m) reproduced by R;
# tests/octave/test_fixtures.m checks the ones R wrote, and make check-cross compares fresh outputs of every case
# bit for bit on this machine.
# the data in tests/fixtures, the code that reads and runs it (fixtures.R) in tests/cross beside it
fixture_dir <- function() {
  for (d in c("../fixtures", "../../tests/fixtures"))
    if (file.exists(file.path(d, "cases.txt")) && file.exists(file.path(dirname(d), "cross", "fixtures.R"))) return(d)
  NULL
}
# a shared fixture input (tests/fixtures/NAME.X.txt), the test skipped where the fixtures are absent
fixture_x <- function(name) {
  dir <- fixture_dir()
  if (is.null(dir)) skip("fixtures not found")
  source(file.path(dirname(dir), "cross", "fixtures.R"), local = TRUE)
  fixture_read_X(file.path(dir, paste0(name, ".X.txt")))
}

test_that("shared fixtures written by Octave: same index and weight from R", {
  dir <- fixture_dir()
  if (is.null(dir)) skip("fixtures not found")
  source(file.path(dirname(dir), "cross", "fixtures.R"), local = TRUE)
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

test_that("attsparse_det's choice among tied columns does not depend on the input's last bits", {
  # the BLAS's kernel and thread count change the last bits: the one-entry columns of sparse1 in a row,
  # made equal by the presample's weights, each entry moved by up to 4 ulps
  X <- fixture_x("sparse1")
  r <- attsparse_rand(X, m = 300, seed = 11, error = FALSE)
  Xp <- X[, r$index] %*% Matrix::Diagonal(x = r$weight)
  a <- attsparse_det(Xp, eps = 0.5)
  set.seed(1)
  for (s in 1:5) {
    P <- as(Xp, "CsparseMatrix")
    P@x <- P@x * (1 + sample(-1:1, length(P@x), replace = TRUE) * 2^-50)
    b <- attsparse_det(P, eps = 0.5)
    expect_identical(b$index, a$index)
    expect_equal(b$weight, a$weight, tolerance = 1e-12)
  }
})

test_that("the greedy method's rounds stop when they only refine: rel falling by less than a part in 1000", {
  # stall.X.txt: 20 x 200 counts; at rel = 1e-8 the rounds kept the same 10 columns for 38000 rounds (to
  # the work cap, 4.5 s) while rel fell from 8.089e-7 to 8.068e-7; no subset of its columns met the
  # target within them
  X <- fixture_x("stall")
  expect_warning(r <- attsparse_greedy(X, rel = 1e-8), "was not met")
  expect_lt(r$rounds, 1000)
  expect_equal(attention_error(X, r$Y)$rel, r$rel_error, tolerance = 1e-6)
  # a reachable target is met as before
  r2 <- attsparse_greedy(X, rel = 1e-4)
  expect_lte(r2$rel_error, 1e-4)
})
