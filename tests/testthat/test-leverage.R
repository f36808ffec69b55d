test_that("exact leverage scores equal R's qr() to 1e-10", {
  set.seed(1)
  inputs <- list(
    dense = matrix(rnorm(20 * 500), 20),
    sparse = rsparsematrix(15, 800, density = 0.05),
    rank_deficient = rbind(matrix(rnorm(10 * 300), 10), 0)[c(1:10, 1:3), ],
    wide_ish = matrix(rnorm(30 * 40), 30),
    d_below_n = matrix(rnorm(25 * 10), 25),
    zero_columns = cbind(matrix(rnorm(8 * 100), 8), matrix(0, 8, 20))
  )
  for (nm in names(inputs)) {
    X <- inputs[[nm]]
    lev <- leverage_scores(X, method = "exact")
    ref <- leverage_direct(X)
    expect_equal(as.numeric(lev), ref, tolerance = 1e-10, label = nm)
    expect_equal(attr(lev, "rank"), qr(as.matrix(X))$rank, label = nm)
  }
})

test_that("approximate leverage scores are within a factor 3 of the exact ones, every column", {
  set.seed(2)
  heavy <- matrix(rnorm(40 * 6000), 40) %*% diag(rep(c(10, 1, 1, 1, 1, 1), 1000))
  inputs <- list(dense = matrix(rnorm(50 * 5000), 50), heavy = heavy,
                 sparse = rsparsematrix(60, 20000, density = 0.01),
                 rank_deficient = rbind(matrix(rnorm(20 * 3000), 20), matrix(rnorm(20 * 3000), 20))[c(1:20, 1:5), ])
  for (nm in names(inputs)) for (seed in 1:3) {
    X <- inputs[[nm]]
    ex <- leverage_scores(X, method = "exact")
    ap <- leverage_scores(X, method = "approx", seed = seed)
    ratio <- ap[ex > 1e-12] / ex[ex > 1e-12]
    expect_true(all(ratio > 1/3 & ratio < 3), label = sprintf("%s seed %d: ratio in [%.3f, %.3f]", nm, seed, min(ratio), max(ratio)))
    expect_true(all(ap[ex <= 1e-12] < 1e-10), label = paste(nm, "zero columns"))
  }
})

test_that("the JL step (Gaussian and AMS) keeps scores within a factor 3", {
  set.seed(3)
  X <- matrix(rnorm(200 * 3000), 200)
  ex <- leverage_scores(X, method = "exact")
  for (jl in c("gaussian", "ams")) {
    ap <- leverage_scores(X, method = "approx", seed = 5, jl = jl, s2 = 60)
    ratio <- ap / ex
    expect_true(all(ratio > 1/3 & ratio < 3), label = sprintf("%s: [%.3f, %.3f]", jl, min(ratio), max(ratio)))
    expect_true(abs(log(sum(ap) / sum(ex))) < log(1.5))
  }
})

test_that("Ctrl-C stops exact leverage scores of a 1500 x 12000 X (a pivoted QR of X') within a second", {
  skip_on_os("windows")
  skip_if_fast()
  # the QR alone runs for about 10 s on an idle core; its panels poll the interrupt
  expect_interrupted("set.seed(1); X <- matrix(rnorm(1500 * 12000) * 0.01, 1500)",
                     "leverage_scores(X, method = 'exact', threads = 1)", delay = 2, within = 1.5)
})
