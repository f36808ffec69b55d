# test-rand-guarantee.R: the default m's argument on real data: every approximate probability is at
# least tau_j / (beta r) (exact tau_j from leverage_scores(X, method = "exact")), and the spectral guarantee
# holds at the default m.

guarantee_sets <- c(ALL = "r-bioc-all", acq = "r-cran-tm", crude = "r-cran-tm", golub = "r-bioc-multtest")
# seeds per data set: fewer on ALL (128 x 12625), whose runs are the slowest
guarantee_seeds <- c(ALL = 40, acq = 100, crude = 100, golub = 100)

for (nm in names(guarantee_sets)) {
  test_that(sprintf("%s: min_j p_j r / tau_j >= 1 / beta in >= 99%% of seeds", nm), {
    skip_if_fast()
    X <- real_data(nm)
    skip_if_no_data(X, guarantee_sets[[nm]])
    tau <- leverage_scores(X, method = "exact")
    pos <- tau > 1e-10
    seeds <- seq_len(guarantee_seeds[[nm]])
    ratio <- t(vapply(seeds, function(s) {
      sigma <- leverage_scores(X, "approx", seed = s)
      # m = 1: only the sketches and beta are wanted
      res <- attsparse_rand(X, m = 1, seed = s, error = FALSE, estimate = FALSE)
      expect_equal(res$beta, sketch_beta_direct(res$s1, res$s2, ncol(X), 0.01, sum(sigma), res$rank),
                   tolerance = 1e-10)
      p <- sigma / sum(sigma)
      c(min_ratio = min(p[pos] * res$rank / tau[pos]), inv_beta = 1 / res$beta)
    }, numeric(2)))
    ok <- ratio[, "min_ratio"] >= ratio[, "inv_beta"]
    expect_gte(mean(ok), 0.99)
    # the bound is not vacuous: 1/beta is a real fraction of what is measured
    expect_gt(min(ratio[, "inv_beta"] / ratio[, "min_ratio"]), 0.1)
  })
}

test_that("real data: spectral eps <= eps at the default m (eps = 0.5, and 0.3 on the small sets)", {
  skip_if_fast()
  runs <- list(list("ALL", 0.5, 1:10), list("golub", 0.5, 1:30), list("acq", 0.5, 1:30),
               list("crude", 0.3, 1:30), list("golub", 0.3, 1:20))
  ran <- 0
  for (run in runs) {
    X <- real_data(run[[1]])
    if (is.null(X)) next
    ran <- ran + 1
    eps <- run[[2]]
    got <- vapply(run[[3]], function(s) {
      res <- attsparse_rand(X, eps = eps, seed = s, error = FALSE, spectral = TRUE, estimate = FALSE)
      # the default m is the Chernoff formula at the reported beta, delta / 2 left to the sampling
      expect_equal(res$m, default_m(res$rank, eps, 0.01 / 2, res$beta))
      res$eps_spectral
    }, 0)
    expect_gte(mean(got <= eps), 0.95, label = sprintf("%s at eps = %g: share of seeds with eps_spectral <= eps", run[[1]], eps))
  }
  if (ran == 0) skip("none of r-bioc-all, r-cran-tm, r-bioc-multtest installed")
})

test_that("a DelayedMatrix read by blocks gets the in-memory default m and beta", {
  skip_if_not_installed("DelayedArray")
  skip_if_not_installed("BiocParallel")
  X <- attsparse_example(200, 40000, seed = 3)   # 2 s2 <= rank: the JL step is used; three chunks
  ref <- attsparse_rand(X, seed = 2, error = FALSE, estimate = FALSE)
  got <- attsparse_rand(DelayedArray::DelayedArray(X), seed = 2, error = FALSE, estimate = FALSE,
                        block_columns = 16384)
  expect_gt(ref$s2, 0)
  expect_identical(got$m, ref$m)
  expect_identical(got$index, ref$index)
  expect_identical(got$weight, ref$weight)
})
