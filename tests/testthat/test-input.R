X <- matrix(rnorm(20 * 100), 20)
S <- Matrix::rsparsematrix(10, 200, density = 0.1)

test_that("bad X raises a clear error naming X", {
  expect_error(attsparse_rand(replace(X, 5, NA)), "X: column 1 holds a NaN or infinite value")
  expect_error(attsparse_rand(replace(X, 45, Inf)), "X: column 3 holds a NaN")
  expect_error(attsparse_rand(matrix(0, 0, 5)), "X is empty")
  expect_error(attsparse_rand(matrix(0, 3, 0)), "X is empty")
  expect_error(attsparse_rand(matrix(1i, 2, 2)), "'X' must be real")
  expect_error(attsparse_rand(matrix("a", 2, 2)), "'X' must be a numeric matrix")
  expect_error(attsparse_rand(list(1, 2)), "'X' must be a numeric matrix")
  expect_error(attsparse_rand(1:10), "not a vector")
  expect_error(attsparse_rand(data.frame(a = "x", b = 1)), "non-numeric columns")
  expect_error(attsparse_det(replace(X, 5, NaN)), "NaN")
})

test_that("malformed dgCMatrix slots are caught before any access", {
  B <- S; B@i[3] <- 999L
  expect_error(attsparse_rand(B), "row indices of column .* out of range")
  B <- S; B@i[1:2] <- B@i[2:1]
  B2 <- S; B2@p[5] <- B2@p[5] + 100L
  expect_error(attsparse_rand(B2), "column pointers")
  B <- S; B@p <- B@p[-1]
  expect_error(attsparse_rand(B), "slot 'p'")
  B <- S; B@x <- B@x[-1]
  expect_error(attsparse_rand(B), "slots 'i' and 'x'")
  B <- S; B@p[1] <- 1L
  expect_error(attsparse_rand(B), "must start at 0")
  B <- S; B@i[1] <- -1L
  expect_error(attsparse_rand(B), "out of range")
})

test_that("bad options raise errors naming the option", {
  expect_error(attsparse_rand(X, eps = 0), "'eps' must be in \\(0, 1\\)")
  expect_error(attsparse_rand(X, eps = 1.5), "'eps'")
  expect_error(attsparse_rand(X, eps = "a"), "'eps' must be a single number")
  expect_error(attsparse_rand(X, delta = 1), "'delta'")
  expect_error(attsparse_rand(X, delta = NA), "'delta'")
  expect_error(attsparse_rand(X, m = 0), "'m'")
  expect_error(attsparse_rand(X, m = 2.5), "'m' must be a whole number")
  expect_error(attsparse_rand(X, m = 1e12), "'m'")
  expect_error(attsparse_rand(X, m = c(1, 2)), "'m'")
  expect_error(attsparse_rand(X, seed = -1), "'seed'")
  expect_error(attsparse_rand(X, seed = 1.5), "'seed'")
  expect_error(attsparse_rand(X, seed = "x"), "'seed'")
  expect_error(attsparse_rand(X, error = NA), "'error'")
  expect_error(attsparse_rand(X, foo = 1), "unknown option 'foo'")
  expect_error(attsparse_rand(X, 1, 2, 3, 4, 5, 6), "must be named")
  expect_error(attsparse_rand(X, probabilities = "bogus"), "'probabilities'")
  expect_error(attsparse_rand(X, jl = 3), "'jl' must be a single string")
  expect_error(attsparse_rand(X, s1 = 5), "'s1' must be at least nrow")
  expect_error(attsparse_rand(X, beta = 0.5), "'beta'")
  expect_error(attsparse_rand(X, eps = 1e-4, delta = 1e-10), "pass a smaller 'm'")
  expect_error(attsparse_det(X, eps = 1), "'eps'")
  expect_error(attention_error(X, matrix(0, 3, 3)), "'Y' must have as many rows")
  expect_error(attention_error(X, replace(X, 3, NaN)), "^Y: column 1 holds a NaN")
  expect_error(leverage_scores(X, "bogus"), "'arg' should be one of")
})

test_that("coercible inputs work: integer, logical, other Matrix classes, data frames", {
  Xi <- matrix(sample(0:3, 10 * 300, TRUE), 10)
  expect_s3_class(attsparse_rand(Xi, seed = 1), "attsparse")
  expect_s3_class(attsparse_rand(Xi > 1, seed = 1), "attsparse")
  expect_s4_class(attsparse_rand(as(S, "TsparseMatrix"), seed = 1)$Y, "dgCMatrix")
  expect_true(is.matrix(attsparse_rand(Matrix::Matrix(X, sparse = FALSE), seed = 1)$Y))
  expect_s3_class(attsparse_rand(as.data.frame(X), seed = 1), "attsparse")
})

test_that("extreme scales: spectral eps is scale-invariant", {
  X0 <- attsparse_example(10, 2000, seed = 2)
  e <- sapply(c(1e-150, 1, 1e150), function(s) attsparse_rand(X0 * s, seed = 3, error = FALSE)$weight)
  expect_equal(e[, 1], e[, 2], tolerance = 1e-10)
  expect_equal(e[, 3], e[, 2], tolerance = 1e-10)
})
