# test-methods.R: print and summary of an "attsparse" result stay a few lines long for any size
# and list the fields they do not know by value or dimension, never a vector in full.

test_that("print and summary are short for a result with thousands of columns", {
  X <- matrix(rnorm(20 * 6000), 20) / 40
  res <- attsparse_rand(X, m = 5000, seed = 3)
  expect_gt(length(res$index), 1000)
  p <- capture.output(print(res))
  s <- capture.output(summary(res))
  expect_lte(length(p), 5)
  expect_lte(length(s), 20)
  expect_true(all(nchar(c(p, s)) <= 100))
  expect_match(p[2], sprintf("Y: 20 x %d", length(res$index)), fixed = TRUE)
  expect_match(s[2], sprintf("k = %d of 6000", length(res$index)), fixed = TRUE)
  expect_identical(print(res), res)           # invisibly returns its argument
})

test_that("summary lists unknown fields generically and tolerates missing ones", {
  X <- matrix(rnorm(10 * 500), 10) / 20
  res <- attsparse_rand(X, seed = 1)
  res$extra_matrix <- matrix(0, 10, 7)
  res$extra_scalar <- 0.25
  res$probabilities <- NULL
  s <- capture.output(summary(res))
  other <- paste(s[grep("other fields", s):length(s)], collapse = " ")
  expect_match(other, "extra_matrix [10 x 7 matrix]", fixed = TRUE)
  expect_match(other, "extra_scalar 0.25", fixed = TRUE)
  expect_lte(length(s), 22)
  p <- capture.output(print(res))
  expect_match(p[1], "randomized, NA probabilities, iid sampling", fixed = TRUE)
  det <- attsparse_det(X, error = FALSE)
  p <- capture.output(print(det))
  expect_match(p[3], "error not computed", fixed = TRUE)
})
