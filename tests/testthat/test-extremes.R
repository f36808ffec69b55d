# test-extremes.R: numerical extremes through R: entries near 1e+-150 (scale invariance), duplicate and zero columns, exact rank deficiency, n = 1, d < n.

X0 <- attsparse_example(10, 2000, seed = 2)

test_that("columns and weights do not depend on the scale of X (1e-150 to 1e150), dense and sparse", {
  S0 <- Matrix::Matrix(X0 * (abs(X0) > 0.01), sparse = TRUE)
  for (A in list(X0, S0)) {
    for (probabilities in c("leverage", "norm")) {
      # at 1e150 the logits overflow the estimate's ratios: said by a warning, the sample unchanged
      said <- character()
      w <- lapply(c(1e-150, 1, 1e150), function(s)
        withCallingHandlers(attsparse_rand(A * s, seed = 3, error = FALSE, probabilities = probabilities),
                            warning = function(cond) {
                              said <<- c(said, conditionMessage(cond))
                              invokeRestart("muffleWarning")
                            }))
      expect_true(length(said) == 1 && startsWith(said, "the estimated relative attention error overflows to Inf"))
      expect_true(is.infinite(w[[3]]$rel_estimate))
      expect_identical(w[[1]]$index, w[[2]]$index)
      expect_identical(w[[3]]$index, w[[2]]$index)
      expect_equal(w[[1]]$weight, w[[2]]$weight, tolerance = 1e-10)
      expect_equal(w[[3]]$weight, w[[2]]$weight, tolerance = 1e-10)
    }
    d <- lapply(c(1e-150, 1, 1e150), function(s) attsparse_det(A * s, error = FALSE))
    expect_identical(d[[1]]$index, d[[2]]$index)
    expect_identical(d[[3]]$index, d[[2]]$index)
    expect_equal(d[[1]]$weight, d[[2]]$weight, tolerance = 1e-8)
    expect_equal(d[[3]]$weight, d[[2]]$weight, tolerance = 1e-8)
  }
  # the metrics are scale-free too where X X' is representable
  e1 <- attsparse_rand(X0 * 1e-150, seed = 3, spectral = TRUE)
  e2 <- attsparse_rand(X0, seed = 3, spectral = TRUE)
  expect_equal(e1$eps_spectral, e2$eps_spectral, tolerance = 1e-8)
})

test_that("duplicate and zero columns: zero columns are never kept, duplicates share a score", {
  X <- cbind(X0[, rep(1:200, each = 2)], matrix(0, 10, 50))   # pairs, then 50 zero columns
  lev <- c(leverage_scores(X, method = "exact"))
  expect_equal(lev[seq(1, 400, 2)], lev[seq(2, 400, 2)], tolerance = 1e-10)
  expect_true(all(lev[401:450] == 0))
  r <- attsparse_rand(X, seed = 1, spectral = TRUE)
  d <- attsparse_det(X)
  expect_false(any(401:450 %in% r$index))
  expect_false(any(401:450 %in% d$index))
  expect_lte(d$eps_spectral, d$eps_bound + 1e-9)
  expect_equal(d$eps_spectral, spectral_eps(X, d$Y), tolerance = 1e-8)
})

test_that("exactly rank-deficient X: the rank is found and the guarantee holds on the range", {
  X <- X0[c(1:5, 1:5), 1:600]
  X[6:10, ] <- 2 * X[6:10, ]
  r <- attsparse_rand(X, seed = 4, leverage = "exact", spectral = TRUE)
  expect_equal(r$rank, 5)
  expect_equal(sum(leverage_scores(X, method = "exact")), 5, tolerance = 1e-8)
  d <- attsparse_det(X, eps = 0.5)
  expect_equal(d$rank, 5)
  # the column budget from the BSS barriers recomputed from Y on the 5-dimensional range (eigen()):
  # m steps are the fewest that reach eps, A stays inside (l_m, u_m), rank(X) <= k <= m
  expect_bss_barriers(X, d, 0.5)
  expect_lte(spectral_eps(X, d$Y), d$eps_bound + 1e-8)
})

test_that("n = 1 and d < n", {
  x1 <- X0[1, , drop = FALSE]
  r <- attsparse_rand(x1, seed = 1)
  expect_equal(dim(r$Y)[1], 1)
  expect_equal(r$rank, 1)
  expect_lt(r$rel_error, r$baseline + 1e-12)
  d <- attsparse_det(x1)
  expect_equal(d$rank, 1)
  expect_lte(spectral_eps(x1, d$Y), d$eps_bound + 1e-9)
  Xn <- X0[, 1:4]    # 10 x 4
  expect_equal(c(leverage_scores(Xn, method = "exact")), rep(1, 4), tolerance = 1e-10)
  d <- attsparse_det(Xn)
  expect_equal(d$rank, 4)
  expect_lte(spectral_eps(Xn, d$Y), d$eps_bound + 1e-9)
  r <- attsparse_rand(Xn, seed = 2, spectral = TRUE)
  expect_equal(r$rank, 4)
})

test_that("entries past the representable squares are refused, not answered with NaN", {
  expect_error(attsparse_det(X0 * 1e160), "X X' overflows")
  expect_error(attsparse_det(X0 * 1e-160), "X X' underflows")
  # entries of X X' finite (5e307), its largest eigenvalue (5e309) not
  expect_error(attsparse_det(matrix(1e153, 100, 50)), "largest eigenvalue of X X' overflows")
  expect_equal(attsparse_det(matrix(1e3, 100, 50), error = FALSE)$rank, 1)
  expect_error(attention_error(X0 * 1e160, X0), "X X' overflows")
  expect_error(attention_error(X0, X0 * 1e160), "Y Y' overflows")
  expect_error(sym_attention(X0 * 1e160), "X X' overflows")
  r <- attsparse_rand(X0 * 1e160, seed = 1, error = FALSE)   # scores never square X
  expect_identical(r$index, attsparse_rand(X0, seed = 1, error = FALSE)$index)
})

test_that("forked children (mclapply) run after a parallel call in the parent, and give the parent's results", {
  skip_on_os("windows")
  rscript <- file.path(R.home("bin"), "Rscript")
  script <- tempfile(fileext = ".R")
  out <- tempfile()
  writeLines(c(
    sprintf(".libPaths(c(%s))", paste(deparse(.libPaths()), collapse = "")),
    "library(attsparse)",
    "X <- attsparse_example(20, 5000, 1, 3)",
    "k1 <- attsparse_rand(X, seed = 1, threads = 2)$k",
    "ks <- unlist(parallel::mclapply(1:4, function(i) attsparse_rand(X, seed = i, threads = 2)$k, mc.cores = 2))",
    "ref <- vapply(1:4, function(i) attsparse_rand(X, seed = i, threads = 2)$k, 0)",
    "cat('children', identical(as.numeric(ks), ref), ks[1] == k1, '\\n')"), script)
  status <- system2("timeout", c("60", rscript, "--vanilla", script), stdout = out, stderr = out)
  lines <- readLines(out, warn = FALSE)
  expect_equal(status, 0, label = paste(c("exit status (124: hung)", lines), collapse = " | "))
  expect_true(any(grepl("children TRUE TRUE", lines)), label = paste(lines, collapse = " | "))
})
