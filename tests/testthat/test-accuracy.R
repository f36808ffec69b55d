# test-accuracy.R: Poisson sampling, mixed probabilities and the bootstrap error estimate.

norm_q <- function(X, m) {
  p <- Matrix::colSums(X^2)
  pmin(1, m * p / sum(p))
}

test_that("Poisson sampling is unbiased: the mean of Y Y' over seeds is X X' within a CLT tolerance", {
  skip_if_fast()
  set.seed(40)
  X <- matrix(rnorm(5 * 200), 5) * rep(exp(rnorm(200)), each = 5)
  G <- tcrossprod(X)
  for (prob in c("norm", "mixed")) {
    S <- 400
    Hs <- vapply(seq_len(S), function(s) {
      r <- attsparse_rand(X, m = 40, seed = s, sampling = "poisson", probabilities = prob,
                          error = FALSE, estimate = FALSE)
      as.vector(tcrossprod(r$Y))
    }, numeric(25))
    mu <- rowMeans(Hs)
    se <- apply(Hs, 1, sd) / sqrt(S)
    # 25 entries (15 distinct): 4.5 standard errors leave a false alarm below 1e-4
    z <- abs(mu - as.vector(G)) / pmax(se, 1e-15)
    expect_lt(max(z), 4.5, label = sprintf("%s: max |z| = %.2f", prob, max(z)))
    expect_true(all(se > 0))
  }
})

test_that("Poisson sampling: certain columns enter with weight 1, k averages sum q_j, no duplicates", {
  skip_if_fast()
  set.seed(41)
  X <- matrix(rnorm(6 * 500), 6)
  X[, c(3, 77, 400)] <- X[, c(3, 77, 400)] * 40   # heavy columns: q_j = 1
  m <- 60
  q <- norm_q(X, m)
  expect_true(all(q[c(3, 77, 400)] == 1))
  ks <- vapply(1:300, function(s) {
    r <- attsparse_rand(X, m = m, seed = s, sampling = "poisson", probabilities = "norm",
                        error = FALSE, estimate = FALSE)
    expect_true(all(c(3, 77, 400) %in% r$index))
    expect_identical(r$weight[match(c(3, 77, 400), r$index)], c(1, 1, 1))
    expect_equal(r$weight, 1 / sqrt(q[r$index]), tolerance = 1e-14)
    expect_true(all(diff(r$index) > 0))
    length(r$index)
  }, numeric(1))
  tol <- 4.5 * sqrt(sum(q * (1 - q)) / length(ks))
  expect_lt(abs(mean(ks) - sum(q)), tol)
})

test_that("a larger m in Poisson sampling keeps a superset of the columns", {
  X <- attsparse_example(20, 4000, seed = 4)
  a <- attsparse_rand(X, m = 100, seed = 9, sampling = "poisson", error = FALSE, estimate = FALSE)
  b <- attsparse_rand(X, m = 400, seed = 9, sampling = "poisson", error = FALSE, estimate = FALSE)
  expect_true(all(a$index %in% b$index))
  expect_gt(length(b$index), length(a$index))
})

test_that("mixed probabilities average the normalized leverage and norm probabilities", {
  X <- attsparse_example(8, 400, seed = 5)
  lev <- leverage_scores(X, seed = 3)
  nrm <- colSums(X^2)
  p <- (lev / sum(lev) + nrm / sum(nrm)) / 2
  m <- 50
  r <- attsparse_rand(X, m = m, seed = 3, sampling = "poisson", probabilities = "mixed",
                      error = FALSE, estimate = FALSE)
  q <- pmin(1, m * p)
  expect_equal(r$weight, 1 / sqrt(q[r$index]), tolerance = 1e-12)
  expect_identical(r$probabilities, "mixed")
  expect_identical(r$sampling, "poisson")
})

test_that("bad sampling, probabilities and estimate values are refused by name", {
  X <- attsparse_example(5, 100, seed = 1)
  expect_error(attsparse_rand(X, sampling = "bernoulli"), "'sampling'")
  expect_error(attsparse_rand(X, sampling = 1), "'sampling'")
  expect_error(attsparse_rand(X, sampling = c("iid", "poisson")), "'sampling'")
  expect_error(attsparse_rand(X, probabilities = "mix"), "'probabilities'")
  expect_error(attsparse_rand(X, estimate = "yes"), "'estimate'")
  expect_error(attsparse_rand(X, estimate = NA), "'estimate'")
})

test_that("the estimate is on every randomized result, NA with estimate = FALSE, 0 for X = 0", {
  X <- attsparse_example(10, 1000, seed = 1)
  r <- attsparse_rand(X, seed = 1)
  expect_true(is.finite(r$rel_estimate) && r$rel_estimate > 0)
  expect_true(is.finite(r$inf_estimate) && r$inf_estimate > 0)
  expect_output(print(r), "estimated rel error")
  expect_output(print(summary(r)), "estimates from Y alone")
  expect_true(is.na(attsparse_rand(X, seed = 1, estimate = FALSE)$rel_estimate))
  r2 <- attsparse_rand(X, seed = 1, estimate = FALSE)
  expect_identical(r2$index, r$index)
  expect_identical(r2$weight, r$weight)
  O <- Matrix(0, 4, 50, sparse = TRUE)
  expect_equal(attsparse_rand(O, seed = 1)$rel_estimate, 0)
  expect_identical(attsparse_rand(O, seed = 1)$estimate, "exact")
  expect_identical(r$estimate, "gaussian")
  expect_identical(r$estimate_why, "")
  # the bootstrap on request; estimate = TRUE is the default's
  b <- attsparse_rand(X, seed = 1, estimate = "bootstrap")
  expect_identical(b$estimate, "bootstrap")
  expect_identical(b$index, r$index)
  expect_true(is.finite(b$rel_estimate) && b$rel_estimate != r$rel_estimate)
  expect_identical(attsparse_rand(X, seed = 1, estimate = TRUE)$rel_estimate, r$rel_estimate)
  expect_identical(attsparse_rand(X, seed = 1, estimate = "none")$estimate, "none")
  expect_error(attsparse_rand(X, estimate = "jackknife"), "'estimate' must be one of none\\|gaussian\\|bootstrap")
  expect_identical(r2$estimate, "none")
  expect_output(print(r2), "no error estimate: not asked for")
})

test_that("a sample with no column left to chance has no estimate unless it is exact, and says why", {
  set.seed(42)
  X <- matrix(rnorm(2000), 20)
  S <- as(X, "CsparseMatrix")
  # empty: the estimate was 0 where the exact rel is 8e58
  r <- attsparse_rand(S, m = 1, seed = 1, sampling = "poisson", error = FALSE)
  expect_identical(ncol(r$Y), 0L)
  expect_true(is.na(r$rel_estimate) && is.na(r$inf_estimate))
  expect_identical(r$estimate, "none")
  expect_match(r$estimate_why, "the sample is empty")
  expect_output(print(r), "no error estimate: the sample is empty")
  # only a column kept for certain: the estimate was 0 where the exact rel is 243%
  Xh <- X / 10
  Xh[, 5] <- Xh[, 5] * 40
  r <- attsparse_rand(Xh, m = 2, seed = 3, sampling = "poisson", probabilities = "norm")
  expect_identical(r$index, 5L)
  expect_gt(r$rel_error, 1)
  expect_true(is.na(r$rel_estimate))
  expect_match(r$estimate_why, "every kept column was kept for certain")
  expect_output(print(summary(r)), "no error estimate: every kept column")
  # every column kept for certain: exact, its estimate 0
  r <- attsparse_rand(Xh, m = 1e6, seed = 3, sampling = "poisson", probabilities = "norm")
  expect_identical(r$k, 100)
  expect_identical(c(r$rel_estimate, r$inf_estimate), c(0, 0))
  expect_identical(r$estimate, "exact")
  expect_lt(r$rel_error, 1e-10)
})

# Fraction of runs whose estimate covers the exact rel, and the median ratio. The estimate alone
# chooses the sample (error = FALSE: in target mode the exact error would check and shrink it), the
# exact rel computed afterwards.
calibration <- function(X, seeds, ...) {
  v <- vapply(seeds, function(s) {
    r <- attsparse_rand(X, seed = s, spectral = FALSE, error = FALSE, ...)
    c(r$rel_estimate, attention_error(X, r$Y)$rel)
  }, numeric(2))
  c(cover = mean(v[1, ] >= v[2, ]), ratio = median(v[1, ] / v[2, ]))
}

test_that("the estimate covers the exact rel in >= 90% of seeds and is within 2.5x in the median", {
  skip_if_fast()
  X <- attsparse_example(40, 8000, r = 0.5, seed = 7)
  for (sm in c("iid", "poisson")) for (pr in c("leverage", "norm")) {
    cal <- calibration(X, 1:40, m = 400, sampling = sm, probabilities = pr)
    expect_gte(cal[["cover"]], 0.9, label = sprintf("example %s/%s cover", sm, pr))
    expect_lte(cal[["ratio"]], 2.5, label = sprintf("example %s/%s ratio", sm, pr))
  }
})

# the demo's real data sets that are small enough for 40 seeds of each mode here (make bench-accuracy
# has all of them); the default estimate is Gaussian (two Grams of Y)
test_that("on the demo's real data the estimate is calibrated, default and target mode, 40 seeds", {
  skip_if_fast()
  for (nm in c("acq", "crude", "golub", "lung")) {
    X <- attsparse:::demo_data(nm)
    if (is.null(X)) next
    for (args in list(list(), list(rel = 0.02))) {
      cal <- do.call(calibration, c(list(X, 1:40), args))
      what <- sprintf("%s %s", nm, if (length(args)) "rel = 0.02" else "default")
      expect_gte(cal[["cover"]], 0.9, label = paste(what, "cover"))
      expect_lte(cal[["ratio"]], 2.5, label = paste(what, "ratio"))
    }
  }
})

test_that("on real counts (tm's acq) the estimate is calibrated", {
  skip_if_not_installed("tm")
  env <- new.env()
  ok <- tryCatch({ utils::data("acq", package = "tm", envir = env); TRUE }, error = function(e) FALSE)
  if (!ok) skip("data set acq of package tm not available")
  dtm <- tm::DocumentTermMatrix(env$acq)
  X <- Matrix::sparseMatrix(i = dtm$i, j = dtm$j, x = as.numeric(dtm$v), dims = dim(dtm))
  X <- X / sqrt(max(Matrix::rowSums(X^2)))   # max_i (X X')_ii = 1
  for (sm in c("iid", "poisson")) {
    cal <- calibration(X, 1:40, m = 200, sampling = sm, probabilities = "norm")
    expect_gte(cal[["cover"]], 0.9, label = sprintf("acq %s cover", sm))
    expect_lte(cal[["ratio"]], 3, label = sprintf("acq %s ratio", sm))
  }
})

test_that("target mode: the estimate meets rel, the exact rel is near it, schemes and rounds reported", {
  X <- attsparse_example(30, 6000, r = 0.5, seed = 8)
  # the estimate alone chooses the sample (error = FALSE): its estimate meets the target, and the
  # exact rel of half of the seeds at least
  free <- lapply(1:5, function(s) attsparse_rand(X, rel = 0.02, seed = s, error = FALSE))
  for (r in free) expect_lte(r$rel_estimate, 0.02)
  expect_lte(median(vapply(free, function(r) attention_error(X, r$Y)$rel, 0)), 0.02)
  # with the exact error (the default) the exact rel meets it on every seed
  res <- lapply(1:5, function(s) attsparse_rand(X, rel = 0.02, seed = s, spectral = FALSE))
  for (r in res) {
    expect_lte(r$rel_error, 0.02)
    expect_identical(r$sampling, "poisson")
    expect_true(r$probabilities %in% c("leverage", "norm", "mixed"))
    expect_gte(r$rounds, 1)
    expect_equal(r$rel_target, 0.02)
    expect_identical(max(abs(r$Y - X[, r$index, drop = FALSE] %*% diag(r$weight, length(r$index)))), 0)
  }
  fixed <- attsparse_rand(X, rel = 0.05, seed = 1, probabilities = "leverage", error = FALSE)
  expect_identical(fixed$probabilities, "leverage")
  expect_lte(fixed$rel_estimate, 0.05)
  # a looser target keeps no more columns
  loose <- attsparse_rand(X, rel = 0.2, seed = 1, probabilities = "leverage", error = FALSE)
  expect_true(all(loose$index %in% fixed$index))
})

# target mode on X against its pilot (Poisson sampling with m = 4 rank, the same seed and
# probabilities), 10 seeds, the estimate alone choosing (error = FALSE; with the exact error the
# sample can shrink further, below the rank, test-estimate.R); returns, per seed, whether it kept
# fewer columns than the pilot
shrink_case <- function(X, rel, probabilities) {
  vapply(1:10, function(s) {
    fit <- attsparse_rand(X, rel = rel, seed = s, probabilities = probabilities, error = FALSE)
    fit$rel_error <- attention_error(X, fit$Y)$rel
    pilot <- attsparse_rand(X, m = 4 * fit$rank, seed = s, probabilities = probabilities,
                            sampling = "poisson", error = FALSE)
    expect_lte(pilot$rel_estimate, rel)
    expect_lte(fit$m, pilot$m)
    expect_gte(fit$m, fit$rank)   # not below the rank
    expect_true(all(fit$index %in% pilot$index))   # a smaller m keeps a subset of the columns
    expect_lte(fit$rel_estimate, rel)
    expect_lte(fit$rel_error, rel)
    fit$k < pilot$k
  }, logical(1))
}

test_that("target mode shrinks m below its pilot when the pilot meets the target with room to spare", {
  X <- attsparse_example(30, 6000, r = 0.5, seed = 8)
  expect_gte(sum(shrink_case(X, 0.5, "leverage")), 5)
  # 40 columns scaled by 60 (most of the mass), X back to max |X X'| = 0.5: few columns left to chance
  X[, 1:40] <- X[, 1:40] * 60
  X <- X * sqrt(0.5 / max(abs(tcrossprod(X))))
  expect_gte(sum(shrink_case(X, 0.1, "norm")), 5)
})

test_that("bad rel values are refused by name", {
  X <- attsparse_example(5, 100, seed = 1)
  expect_error(attsparse_rand(X, rel = 0), "'rel' must be a number in \\(0, 1\\)")
  expect_error(attsparse_rand(X, rel = -0.1), "'rel' must be a number in \\(0, 1\\)")
  expect_error(attsparse_rand(X, rel = 1), "'rel' must be a number in \\(0, 1\\)")
  expect_error(attsparse_rand(X, rel = 0.1, m = 50), "'rel' and 'm'")
  expect_error(attsparse_rand(X, rel = "a"), "'rel'")
  expect_error(attsparse_rand(X, rel = 0.1, sampling = "iid"), "'sampling' = \"iid\" cannot be used with 'rel'")
  expect_error(attsparse_rand(X, rel = 0.1, eps = 0.5, probabilities = "norm"),
               "'eps' with 'rel' keeps the spectral guarantee, which norm probabilities")
  expect_error(attsparse_rand(X, rel = 0.1, eps = 0.5, probabilities = "uniform"), "uniform probabilities")
  # Poisson given by name is what target mode does anyway
  expect_identical(attsparse_rand(X, rel = 0.1, seed = 1, sampling = "poisson")$index,
                   attsparse_rand(X, rel = 0.1, seed = 1)$index)
})

test_that("target mode with eps: m at least the default m for eps, leverage or mixed probabilities", {
  X <- attsparse_example(30, 6000, r = 0.5, seed = 8)
  free <- attsparse_rand(X, rel = 0.2, seed = 1, error = FALSE)
  expect_true(is.na(free$eps))
  fit <- attsparse_rand(X, rel = 0.2, eps = 0.5, seed = 1, error = FALSE)
  expect_identical(fit$eps, 0.5)
  expect_true(fit$probabilities %in% c("leverage", "mixed"))
  floor_m <- default_m(fit$rank, 0.5, 0.01 / 2, fit$beta)
  expect_equal(fit$m, floor_m)   # the pilot's m (4 rank) and the target's are far below it
  expect_gt(floor_m, 4 * free$m)
  expect_lt(fit$k, ncol(X))      # not every column: the floor is a real sample
  expect_true(all(free$index[free$weight == 1] %in% fit$index))
  expect_output(print(summary(fit)), "target rel 20% with eps 0.5")
  expect_output(print(summary(free)), "target rel 20%, [0-9]+ rounds")
})

test_that("lung counts: target mode with eps keeps the spectral guarantee in >= 95% of 30 seeds", {
  X <- real_data("lung")
  skip_if_no_data(X, "r-bioc-metagenomeseq")
  got <- vapply(1:30, function(s) {
    with_eps <- attsparse_rand(X, rel = 0.02, eps = 0.5, seed = s, spectral = TRUE)
    expect_gte(with_eps$m, default_m(with_eps$rank, 0.5, 0.01 / 2, with_eps$beta))
    expect_lte(with_eps$rel_error, 0.02)
    without <- attsparse_rand(X, rel = 0.02, seed = s, spectral = TRUE)
    expect_lte(without$rel_error, 0.02)
    # the estimate alone: m not below the rank (seed 11's leverage pilot would shrink to m = 2: 2
    # columns, rel 62%)
    free <- attsparse_rand(X, rel = 0.02, seed = s, error = FALSE)
    expect_gte(free$m, free$rank)
    c(with_eps$eps_spectral, without$eps_spectral, attention_error(X, free$Y)$rel, free$rel_estimate)
  }, numeric(4))
  expect_gte(mean(got[1, ] <= 0.5), 0.95)
  # the rows' squared norms check the bootstrap: 30 of 30 meet the target here (27 without the
  # check: a leverage pilot that missed the heavy columns estimated 0.1-0.3% for an exact 5-17%)
  expect_gte(mean(got[3, ] <= 0.02), 0.95)
  expect_gte(mean(got[4, ] >= got[3, ]), 0.9)
  # the floor is what holds it: the fewest columns for rel alone are far from the guarantee
  expect_lte(mean(got[2, ] <= 0.5), 0.5)
})
