# test-gram.R: gram() against tcrossprod on dense, sparse, rank-deficient and zero-column inputs; the same bits on any thread count; attention_error on subsets.

rel_err <- function(G, R) max(abs(G - R)) / max(abs(R), .Machine$double.xmin)

test_that("gram equals tcrossprod on dense and sparse input", {
  set.seed(1)
  X <- matrix(rnorm(40 * 700), 40)
  expect_lt(rel_err(gram(X), tcrossprod(X)), 1e-12)
  # light and heavy (near dense) columns mixed
  S <- Matrix::rsparsematrix(300, 3000, density = 0.02)
  S[, 1:50] <- matrix(rnorm(300 * 50), 300)
  S <- as(S, "CsparseMatrix")
  R <- as.matrix(Matrix::tcrossprod(S))
  expect_lt(rel_err(gram(S), R), 1e-12)
  expect_lt(rel_err(gram(as.matrix(S)), R), 1e-12)
  expect_true(isSymmetric(gram(S), tol = 0))
  rownames(X) <- paste0("r", 1:40)
  expect_identical(dimnames(gram(X)), list(rownames(X), rownames(X)))
})

test_that("gram is exact on rank-deficient input and zero columns", {
  set.seed(2)
  B <- matrix(rnorm(5 * 400), 5)
  X <- rbind(B, B[1:3, ] * 2, 0)          # rank 5 of 9 rows, one zero row
  X[, 1:10] <- 0                          # zero columns
  expect_lt(rel_err(gram(X), tcrossprod(X)), 1e-12)
  S <- as(X, "CsparseMatrix")
  expect_lt(rel_err(gram(S), tcrossprod(X)), 1e-12)
  Z <- Matrix::Matrix(0, 4, 50, sparse = TRUE)
  expect_identical(gram(Z), matrix(0, 4, 4))
})

test_that("gram gives the same bits on any thread count", {
  set.seed(3)
  S <- Matrix::rsparsematrix(600, 4000, density = 0.03)
  S[, 1:30] <- matrix(rnorm(600 * 30), 600)
  S <- as(S, "CsparseMatrix")
  expect_identical(gram(S, threads = 1), gram(S, threads = 2))
  expect_identical(gram(S, threads = 1), gram(S, threads = 3))
  D <- as.matrix(S[, 1:500])
  expect_identical(gram(D, threads = 1), gram(D, threads = 2))
})

test_that("attention_error on a weighted subset matches a direct computation", {
  set.seed(4)
  S <- Matrix::rsparsematrix(50, 2000, density = 0.05)
  S[, 1:20] <- matrix(rnorm(50 * 20), 50)
  S <- as(S, "CsparseMatrix") * 0.2
  fit <- attsparse_rand(S, m = 400, seed = 7, error = FALSE)
  Y <- S[, fit$index] %*% Matrix::Diagonal(x = fit$weight)
  e <- attention_error(S, fit)
  expect_equal(e$rel, max(abs(att_direct(Y) / att_direct(S) - 1)), tolerance = 1e-9)
  expect_equal(e$r, max(abs(as.matrix(Matrix::tcrossprod(S)))), tolerance = 1e-12)
})

test_that("gram rejects bad input by name", {
  expect_error(gram("a"), "'X' must be a numeric matrix")
  expect_error(gram(matrix(c(1, NA), 1)), "NaN")
  expect_error(gram(matrix(1, 2, 2), threads = -1), "'threads'")
})

test_that("eps_spectral and its bound are Inf when Y Y' has weight outside the range of X X'", {
  e <- attention_error(matrix(0, 3, 2), diag(3), spectral = TRUE)
  expect_identical(c(e$eps_spectral, e$bound), c(Inf, Inf))
  expect_true(is.finite(e$rel) && e$rel <= e$bound)
  set.seed(42)
  X <- matrix(rnorm(2000), 20) / 10
  Xz <- X
  Xz[3, ] <- 0
  e <- attention_error(Xz, X[, 1:40], spectral = TRUE)
  expect_identical(c(e$eps_spectral, e$bound), c(Inf, Inf))
  # Y in X's range (row 3 zero in both, 1.44 X X'), and a subset of X's own columns: finite
  expect_equal(attention_error(Xz, 1.2 * Xz, spectral = TRUE)$eps_spectral, 0.44, tolerance = 1e-12)
  e <- attention_error(Xz, Xz[, 1:40], spectral = TRUE)
  expect_true(is.finite(e$eps_spectral) && e$rel <= e$bound)
  expect_identical(attention_error(matrix(0, 3, 2), matrix(0, 3, 1), spectral = TRUE)$eps_spectral, 0)
})
