# test-options.R: options by name through the core's table; the metrics, b and the column budget from the one call; the three R/Octave drifts.

X <- attsparse_example(6, 400, 0.5, seed = 3)

test_that("error = FALSE, spectral = TRUE gives eps_spectral (as documented and as in Octave), not NA", {
  r <- attsparse_rand(X, seed = 2, error = FALSE, spectral = TRUE)
  expect_true(is.na(r$error) && is.na(r$rel_error) && is.na(r$r))
  expect_equal(r$eps_spectral, spectral_eps(X, r$Y), tolerance = 1e-8)
  d <- attsparse_det(X, error = FALSE, spectral = TRUE)
  expect_equal(d$eps_spectral, spectral_eps(X, d$Y), tolerance = 1e-8)
  expect_lte(d$eps_spectral, d$eps_bound + 1e-10)
  expect_true(is.na(attsparse_rand(X, seed = 2, error = FALSE)$eps_spectral))
})

test_that("s = 0 is refused (the documented default is 4, not 0), as in Octave; s = 4 is the default", {
  expect_error(attsparse_rand(X, s = 0), "'s' must be a whole number in [1, 64], got 0", fixed = TRUE)
  expect_error(leverage_scores(X, s = 0), "'s' must be a whole number in [1, 64], got 0", fixed = TRUE)
  a <- attsparse_rand(X, seed = 5, error = FALSE, leverage = "approx", s1 = 30)
  b <- attsparse_rand(X, seed = 5, error = FALSE, leverage = "approx", s1 = 30, s = 4)
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_equal(a$s, 4)
})

test_that("det returns b and max_columns (as Octave does); the budget meets the BSS barriers", {
  for (eps in c(0.3, 0.5, 0.8)) {
    d <- attsparse_det(X, eps = eps, error = FALSE)
    # b is the factor whose barriers end at (u-l)/(u+l) = 2 sqrt(b) / (b + 1) = eps
    expect_equal(2 * sqrt(d$b) / (d$b + 1), eps, tolerance = 1e-12)
    expect_gt(d$b, 1)
    # max_columns BSS steps were run (one column each), and the barriers were reached
    expect_equal(d$max_columns, d$m)
    expect_lte(d$k, d$max_columns)
    expect_lte(d$eps_bound, eps + 1e-12)
    expect_lte(spectral_eps(X, d$Y), d$eps_bound + 1e-8)
  }
})

test_that("the metrics come with the result and agree with attention_error and a direct computation", {
  for (res in list(attsparse_rand(X, seed = 4), attsparse_det(X, eps = 0.5),
                   attsparse_rand(as(X * (abs(X) > 0.01), "CsparseMatrix"), seed = 4))) {
    Xi <- if (res$sparse) as(X * (abs(X) > 0.01), "CsparseMatrix") else X
    e <- attention_error(Xi, res$Y, spectral = TRUE)
    expect_equal(res$error, e$inf, tolerance = 1e-10)
    expect_equal(res$rel_error, e$rel, tolerance = 1e-10)
    expect_equal(res$eps_spectral, e$eps_spectral, tolerance = 1e-8)
    expect_equal(res$error, max(abs(att_direct(res$Y) - att_direct(Xi))), tolerance = 1e-8)
    expect_true(res$error_time >= 0 && res$time >= 0)
  }
})

test_that("the result's Y is a valid dgCMatrix built by the glue, with the column names kept", {
  S <- as(X * (abs(X) > 0.01), "CsparseMatrix")
  dimnames(S) <- list(paste0("r", 1:6), paste0("c", 1:400))
  res <- attsparse_rand(S, seed = 1, error = FALSE)
  expect_s4_class(res$Y, "dgCMatrix")
  expect_true(validObject(res$Y))
  expect_identical(colnames(res$Y), colnames(S)[res$index])
  expect_identical(rownames(res$Y), rownames(S))
  expect_equal(as.matrix(res$Y), as.matrix(S[, res$index] %*% Diagonal(x = res$weight)),
               ignore_attr = TRUE)
})

test_that("unknown options are listed from the core's table, per function", {
  expect_error(attsparse_det(X, m = 1),
               "valid options: eps, seed, error, spectral, memory, leaf, search, batch, presample, refit, threads, verbose",
               fixed = TRUE)
  expect_error(leverage_scores(X, m = 3), "unknown option 'm'; valid options: delta, seed, method", fixed = TRUE)
  expect_error(sym_attention(X, threads = 0.5), "'threads' must be a whole number in [0, 1024], got 0.5", fixed = TRUE)
  expect_error(attsparse_rand(X, sampling = 1), "'sampling' must be one of iid|poisson, got 1", fixed = TRUE)
})
