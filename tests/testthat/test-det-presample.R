# Two stages (presample = ): attsparse_rand draws columns Y1, BSS runs on them. Checked here with R's
# eigen(): the first stage is exactly attsparse_rand with the same draws and seed, its measured eps e1
# is that of Y1 against X, and the final Y meets the composed bound
# (1 - e1)(1 - e2) X X' <= Y Y' <= (1 + e1)(1 + e2) X X' with e2 the certified BSS bound.

presample_ok <- function(X, eps, draws, seed, label) {
  what <- function(s) sprintf("%s eps %.1f draws %s seed %d: %s", label, eps, format(draws), seed, s)
  res <- attsparse_det(X, eps = eps, presample = draws, seed = seed)
  m1 <- if (isTRUE(draws)) max(ceiling(8 * nrow(X) * log(nrow(X))), 2 * nrow(X)) else draws
  first <- attsparse_rand(X, m = m1, seed = seed, error = FALSE)
  # the first stage is attsparse_rand's sample, and Y is made of its columns, rescaled
  expect_equal(res$presample_k, length(first$index), label = what("presample_k"))
  expect_true(all(res$index %in% first$index), label = what("Y's columns come from the first stage"))
  expect_equal(res$seed, seed)
  # e1 as eigen() measures it, the certified e2, and the composed bound on Y against X
  e1 <- max(abs(gram_ratio_eigen(X, first$Y) - 1))
  expect_equal(res$presample_eps, e1, tolerance = 1e-8, label = what("presample_eps"))
  e2 <- res$eps_bound
  expect_lte(e2, eps * (1 + 1e-12), label = what("eps_bound"))
  expect_equal(res$eps_composed, (1 + e1) * (1 + e2) - 1, tolerance = 1e-8, label = what("eps_composed"))
  mu <- gram_ratio_eigen(X, res$Y)
  expect_gte(min(mu), (1 - e1) * (1 - e2) - 1e-9, label = what("lower composed bound"))
  expect_lte(max(mu), (1 + e1) * (1 + e2) + 1e-9, label = what("upper composed bound"))
  # BSS's own guarantee against Y1, and its column budget
  mu2 <- gram_ratio_eigen(first$Y, res$Y)
  expect_lte(max(abs(mu2 - 1)), e2 + 1e-9, label = what("BSS against the first stage"))
  expect_lte(res$k, res$max_columns, label = what("k <= max_columns"))
  expect_equal(res$eps_spectral, max(abs(mu - 1)), tolerance = 1e-8, label = what("eps_spectral"))
  res
}

test_that("two stages: the composed bound holds over seeds on random dense and sparse input", {
  set.seed(3)
  X <- attsparse_example(24, 6000, r = 1, seed = 5)
  S <- rsparsematrix(18, 9000, density = 0.02)
  for (seed in 1:4) {
    presample_ok(X, 0.5, TRUE, seed, "dense")
    presample_ok(S, 0.5, 700, seed, "sparse")
  }
  presample_ok(X, 0.3, 2000, 9, "dense, eps 0.3")
})

test_that("two stages on real data: crude and ALL", {
  C <- real_data("crude")
  skip_if_no_data(C, "r-cran-tm")
  for (seed in 1:3) presample_ok(C, 0.5, TRUE, seed, "crude")
  A <- real_data("ALL")
  skip_if_no_data(A, "r-bioc-all")
  for (seed in 1:2) presample_ok(A, 0.5, TRUE, seed, "ALL")
})

test_that("two stages: the seed comes from R's RNG, NA metrics without error, bad values named", {
  X <- attsparse_example(10, 2000, r = 1, seed = 6)
  set.seed(11); a <- attsparse_det(X, presample = TRUE)
  set.seed(11); b <- attsparse_det(X, presample = TRUE)
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  c0 <- attsparse_det(X, presample = 400, seed = 2, error = FALSE)
  expect_true(is.na(c0$presample_eps) && is.na(c0$eps_composed) && c0$presample_k > 0)
  # presample = FALSE or 0 is the one-stage algorithm, and reports no first stage
  expect_identical(attsparse_det(X, presample = FALSE)$index, attsparse_det(X)$index)
  expect_null(attsparse_det(X, presample = 0)$presample_k)
  expect_error(attsparse_det(X, presample = -1), "'presample' must be a whole number in [0, 2147483647], got -1",
               fixed = TRUE)
  expect_error(attsparse_det(X, presample = 2.5), "'presample' must be a whole number", fixed = TRUE)
  expect_error(attsparse_det(X, presample = "yes"), "'presample' must be a whole number in [0, 2147483647], got \"yes\"", fixed = TRUE)
  expect_error(attsparse_det(X, batch = -1), "'batch' must be a whole number in [0, 1e6], got -1", fixed = TRUE)
})

test_that("one column per step (batch = 1) and the default meet the same barriers", {
  X <- attsparse_example(16, 4000, r = 1, seed = 7)
  for (batch in c(1, 0)) {
    res <- attsparse_det(X, eps = 0.3, batch = batch)
    mu <- gram_ratio_eigen(X, res$Y)
    expect_lte(max(abs(mu - 1)), res$eps_bound + 1e-9)
    expect_lte(res$k, res$max_columns)
    expect_gte(res$steps, 1)
  }
})
