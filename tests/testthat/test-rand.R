check_result <- function(X, res) {
  expect_s3_class(res, "attsparse")
  expect_true(is.integer(res$index))
  expect_true(all(diff(res$index) > 0))
  expect_true(all(res$index >= 1 & res$index <= ncol(X)))
  expect_equal(length(res$weight), length(res$index))
  expect_equal(ncol(res$Y), length(res$index))
  ref <- X[, res$index, drop = FALSE] %*% Diagonal(x = res$weight)
  expect_identical(max(abs(as.matrix(res$Y) - as.matrix(ref))), 0)
  if (inherits(X, "sparseMatrix")) expect_s4_class(res$Y, "dgCMatrix") else expect_true(is.matrix(res$Y))
}

test_that("Y is X[, index] * weight and the errors equal a direct computation", {
  set.seed(10)
  for (X in list(attsparse_example(30, 3000, r = 0.5, seed = 2),
                 rsparsematrix(25, 4000, density = 0.02))) {
    res <- attsparse_rand(X, m = 2000, seed = 7)
    check_result(X, res)
    AX <- att_direct(X); AY <- att_direct(res$Y)
    expect_equal(res$error, max(abs(AY - AX)), tolerance = 1e-12)
    expect_equal(res$rel_error, max(abs(AY / AX - 1)), tolerance = 1e-12)
    expect_equal(res$r, max(abs(as.matrix(Matrix::tcrossprod(X)))), tolerance = 1e-14)
    expect_equal(res$baseline, max(abs((1 / nrow(X)) / AX - 1)), tolerance = 1e-12)
    expect_equal(res$eps_spectral, spectral_eps(X, res$Y), tolerance = 1e-8)
    ae <- attention_error(X, res$Y)
    expect_equal(ae$inf, res$error, tolerance = 1e-12)
    expect_equal(ae$rel, res$rel_error, tolerance = 1e-12)
    expect_equal(sym_attention(X), AX, tolerance = 1e-12)
  }
})

test_that("a repeated run and set.seed() reproduce the result; thread count does not matter", {
  X <- attsparse_example(20, 5000, seed = 3)
  a <- attsparse_rand(X, seed = 11, error = FALSE)
  b <- attsparse_rand(X, seed = 11, error = FALSE, threads = 1)
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_true(is.na(a$error) && is.na(a$rel_error) && is.na(a$r))
  set.seed(99); c1 <- attsparse_rand(X, error = FALSE)
  set.seed(99); c2 <- attsparse_rand(X, error = FALSE)
  expect_identical(c1$seed, c2$seed)
  expect_identical(c1$weight, c2$weight)
  S <- rsparsematrix(30, 20000, density = 0.01)
  s1 <- attsparse_rand(S, seed = 4, error = FALSE, threads = 1)
  s2 <- attsparse_rand(S, seed = 4, error = FALSE, threads = 2)
  expect_identical(s1$index, s2$index)
  expect_identical(s1$weight, s2$weight)
})

test_that("the default m is the stated matrix Chernoff formula at the sketches' beta", {
  X <- attsparse_example(40, 8000, seed = 5)
  res <- attsparse_rand(X, eps = 0.4, delta = 0.05, seed = 1, error = FALSE)
  h <- 1.4 * log(1.4) - 0.4
  sigma <- leverage_scores(X, seed = 1)
  beta <- sketch_beta_direct(res$s1, res$s2, ncol(X), 0.05, sum(sigma), 40)
  expect_equal(res$beta, beta, tolerance = 1e-10)
  # approximate scores: the sketches' tails take delta / 2, the sampling the rest
  expect_equal(res$m, ceiling(beta * 40 * log(2 * 40 / 0.025) / h))
  expect_equal(default_m(40, 0.4, 0.025, res$beta), res$m)
  # exact scores: beta = 1 and all of delta; mixed probabilities: beta doubled
  ex <- attsparse_rand(X, eps = 0.4, delta = 0.05, seed = 1, error = FALSE, leverage = "exact")
  expect_identical(ex$beta, 1)
  expect_equal(ex$m, default_m(40, 0.4, 0.05, 1))
  mx <- attsparse_rand(X, eps = 0.4, delta = 0.05, seed = 1, error = FALSE, probabilities = "mixed")
  expect_equal(mx$beta, 2 * beta, tolerance = 1e-10)
  # a beta given by the user: the paper's formula with it and all of delta
  ub <- attsparse_rand(X, eps = 0.4, delta = 0.05, seed = 1, error = FALSE, beta = 2)
  expect_equal(ub$m, ceiling(2 * 40 * log(2 * 40 / 0.05) / h))
})

spectral_ok_rate <- function(X, eps, seeds = 1:40) {
  ok <- vapply(seeds, function(s) {
    res <- attsparse_rand(X, eps = eps, seed = s, error = FALSE, estimate = FALSE)
    spectral_eps(X, res$Y) <= eps
  }, NA)
  mean(ok)
}

test_that("with the default m, spectral eps <= eps in at least 95% of 40 seeds", {
  set.seed(20)
  expect_gte(spectral_ok_rate(attsparse_example(50, 10000, seed = 9), 0.5), 0.95)
  expect_gte(spectral_ok_rate(rsparsematrix(40, 30000, density = 0.005), 0.5), 0.95)
})

test_that("on real data (ALL, crude) spectral eps <= eps in 95% of seeds and rel error is well under the baseline", {
  skip_if_fast()
  for (nm in c("ALL", "crude")) {
    X <- real_data(nm)
    skip_if_no_data(X, nm)
    expect_gte(spectral_ok_rate(X, 0.5), 0.95)
    res <- attsparse_rand(X, seed = 1)
    expect_lt(res$rel_error, res$baseline / 4)
    expect_lte(res$rel_error, res$bound + 1e-12)
  }
})

test_that("zero columns, rank-deficient X, d < n and X = 0 work", {
  set.seed(30)
  Z <- cbind(matrix(rnorm(10 * 200), 10), matrix(0, 10, 300))
  res <- attsparse_rand(Z, seed = 1)
  check_result(Z, res)
  expect_true(all(res$index <= 200))
  R <- matrix(rnorm(5 * 500), 5)[c(1:5, 1:5), ]
  res <- attsparse_rand(R, seed = 2, eps = 0.3)
  check_result(R, res)
  expect_equal(res$rank, 5)
  expect_lte(res$eps_spectral, 0.3)
  D <- matrix(rnorm(30 * 8), 30)
  res <- attsparse_rand(D, seed = 3)
  check_result(D, res)
  expect_equal(res$rank, 8)
  expect_lte(res$eps_spectral, 0.5)
  O <- Matrix(0, 4, 50, sparse = TRUE)
  res <- attsparse_rand(O, seed = 1)
  expect_equal(length(res$index), 0)
  expect_equal(dim(res$Y), c(4, 0))
  expect_equal(res$rel_error, 0)
})

test_that("uniform and norm sampling are options, and leverage sampling beats them", {
  X <- attsparse_example(40, 20000, r = 1, seed = 6)
  errs <- sapply(c("leverage", "uniform", "norm"), function(p)
    median(sapply(1:5, function(s) attsparse_rand(X, m = 2000, seed = s, probabilities = p)$rel_error)))
  expect_true(all(is.finite(errs)))
  expect_lt(errs[["leverage"]], errs[["uniform"]])
})

test_that("print, summary and as.matrix work", {
  X <- attsparse_example(10, 1000, seed = 1)
  res <- attsparse_rand(X, seed = 1)
  expect_output(print(res), "rel error")
  expect_output(print(summary(res)), "spectral")
  expect_identical(as.matrix(res), res$Y)
  expect_output(print(attsparse_rand(X, seed = 1, error = FALSE)), "not computed")
})

test_that("the largest m with i.i.d. draws, and a presample of 1e9, are multinomial counts in O(d)", {
  set.seed(42)
  X <- matrix(rnorm(2000), 20)
  # one draw at a time these took 140 s and 95 s; the counts are drawn a column at a time
  setTimeLimit(elapsed = 30, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf))
  m <- .Machine$integer.max
  res <- attsparse_rand(X, m = m, seed = 1, probabilities = "uniform", error = FALSE, estimate = FALSE)
  counts <- round(res$weight^2 * m / ncol(X))   # weight = sqrt(count / (m p)), p = 1 / d
  expect_equal(sum(counts), m)
  expect_lt(sum((c(counts, rep(0, ncol(X) - length(counts))) - m / ncol(X))^2 / (m / ncol(X))),
            qchisq(1 - 1e-6, ncol(X) - 1))
  det <- attsparse_det(X[1:10, ], presample = 1e9, seed = 1, error = FALSE)
  expect_equal(det$presample_k, ncol(X))
})

test_that("tm's DocumentTermMatrix (slam's simple_triplet_matrix) is taken as the sparse matrix it holds", {
  skip_if_not_installed("tm")
  data("acq", package = "tm", envir = environment())
  dtm <- tm::DocumentTermMatrix(acq)
  S <- Matrix::sparseMatrix(i = dtm$i, j = dtm$j, x = as.double(dtm$v), dims = dim(dtm), dimnames = dimnames(dtm))
  got <- attsparse_rand(dtm, m = 500, seed = 3, error = FALSE, estimate = FALSE)
  ref <- attsparse_rand(S, m = 500, seed = 3, error = FALSE, estimate = FALSE)
  expect_identical(got$index, ref$index)
  expect_identical(got$weight, ref$weight)
  expect_s4_class(got$Y, "dgCMatrix")
  expect_identical(colnames(got$Y), colnames(dtm)[got$index])
  expect_identical(gram(dtm), gram(S))
  expect_identical(leverage_scores(dtm, seed = 1), leverage_scores(S, seed = 1))
  expect_error(attsparse_rand(structure(list(i = 1L, j = 5L, v = 1, nrow = 2L, ncol = 2L, dimnames = NULL),
                                        class = "simple_triplet_matrix")),
               "^'X': malformed simple_triplet_matrix: ")
})
