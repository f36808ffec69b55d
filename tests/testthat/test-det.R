# expect_bss_barriers() (helper-attsparse.R): the BSS barrier argument recomputed from Y.

det_ok <- function(X, eps, label, ...) {
  res <- attsparse_det(X, eps = eps, ...)
  what <- function(s) sprintf("%s eps %.1f: %s", label, eps, s)
  expect_bss_barriers(X, res, eps, what)
  # the budget field: b's barriers end at 2 sqrt(b) / (b + 1) = eps
  expect_equal(2 * sqrt(res$b) / (res$b + 1), eps, tolerance = 1e-12, label = what("b"))
  expect_true(all(diff(res$index) > 0))
  ref <- X[, res$index, drop = FALSE] %*% Diagonal(x = res$weight)
  expect_identical(max(abs(as.matrix(res$Y) - as.matrix(ref))), 0)
  expect_equal(res$eps_spectral, spectral_eps(X, res$Y), tolerance = 1e-8)
  res
}

test_that("deterministic: spectral eps <= eps and the BSS barriers hold for eps 0.3, 0.5, 0.8", {
  set.seed(40)
  inputs <- list(dense = attsparse_example(20, 5000, r = 1, seed = 4),
                 sparse = rsparsematrix(16, 8000, density = 0.01),
                 rank_deficient = matrix(rnorm(8 * 3000), 8)[c(1:8, 1:4), ],
                 zero_columns = cbind(matrix(rnorm(10 * 500), 10), matrix(0, 10, 500)),
                 d_below_n = matrix(rnorm(30 * 12), 30))
  for (nm in names(inputs)) for (eps in c(0.3, 0.5, 0.8)) {
    res <- det_ok(inputs[[nm]], eps, nm)
    if (nm == "zero_columns") expect_true(all(res$index <= 500))
    if (nm == "rank_deficient") expect_equal(res$rank, 8)
  }
})

test_that("deterministic on real data: ALL (eps 0.5, 0.8) and crude (0.3, 0.5, 0.8)", {
  A <- real_data("ALL")
  skip_if_no_data(A, "r-bioc-all")
  for (eps in c(0.5, 0.8)) {
    res <- det_ok(A, eps, "ALL")
    expect_lt(res$rel_error, res$baseline)
  }
  C <- real_data("crude")
  skip_if_no_data(C, "r-cran-tm")
  for (eps in c(0.3, 0.5, 0.8)) det_ok(C, eps, "crude")
})

test_that("deterministic means deterministic: repeated runs, threads, tree vs scan", {
  X <- attsparse_example(15, 6000, seed = 8)
  a <- attsparse_det(X, error = FALSE)
  b <- attsparse_det(X, error = FALSE, threads = 1)
  expect_identical(a$index, b$index)
  expect_equal(a$weight, b$weight, tolerance = 1e-12)
  s <- det_ok(X, 0.5, "scan", search = "scan")
  t <- det_ok(X, 0.5, "small leaves", leaf = 16)
  expect_s3_class(s, "attsparse")
  S <- rsparsematrix(12, 5000, density = 0.02)
  expect_s4_class(attsparse_det(S)$Y, "dgCMatrix")
})

test_that("deterministic: bad options are named", {
  X <- attsparse_example(5, 100)
  expect_error(attsparse_det(X, eps = 0), "'eps'")
  expect_error(attsparse_det(X, eps = c(0.1, 0.2)), "'eps'")
  expect_error(attsparse_det(X, search = "bfs"), "'search'")
  expect_error(attsparse_det(X, leaf = -1), "'leaf'")
  expect_error(attsparse_det(X, memory = "a"), "'memory'")
  expect_error(attsparse_det(X, m = 10), "unknown option 'm'")
})

test_that("Ctrl-C stops a long deterministic run within about a second and the session goes on", {
  skip_on_os("windows")
  expect_interrupted("X <- attsparse_example(200, 40000, seed = 1)",
                     "attsparse_det(X, eps = 0.1, error = FALSE, threads = 1)", delay = 3, within = 3)
})

test_that("Ctrl-C stops the deterministic algorithm on 1500 rows (X X', its eigendecomposition, the steps) within a second", {
  skip_on_os("windows")
  skip_if_fast()
  expect_interrupted("set.seed(1); X <- matrix(rnorm(1500 * 3000) * 0.01, 1500)",
                     "attsparse_det(X, error = FALSE, threads = 1)", delay = 1.5, within = 1.5)
})
