# test-refit-budget.R: refit = TRUE without the metrics still gives the exact rel of its weights; a greedy
# budget k above what X lets a run keep is the budget of what it can keep.

test_that("refit = TRUE, error = FALSE: rel_error is the exact rel of the refitted weights, the other metrics NA", {
  set.seed(1)
  X <- matrix(rnorm(20 * 200), 20) * 0.3
  runs <- list(rand = function(...) attsparse_rand(X, m = 40, seed = 2, refit = TRUE, ...),
               det = function(...) attsparse_det(X, eps = 0.9, refit = TRUE, ...))
  for (method in names(runs)) {
    off <- runs[[method]](error = FALSE)
    on <- runs[[method]]()
    expect_identical(off$index, on$index, label = method)
    expect_identical(off$weight, on$weight, label = method)
    expect_identical(off$rel_error, on$rel_error, label = method)
    expect_equal(off$rel_error, attention_error(X, off$Y)$rel, tolerance = 1e-10, label = method)
    expect_true(is.finite(off$refit_rel) && off$rel_error <= off$refit_rel, label = method)
    expect_true(is.na(off$error) && is.na(off$r) && is.na(off$eps_spectral), label = method)
  }
  # without refit the metrics stay off
  expect_true(is.na(attsparse_rand(X, m = 40, seed = 2, error = FALSE)$rel_error))
})

test_that("greedy: a budget above ncol(X) or n (n + 1) / 2 runs as the budget of what can be kept", {
  set.seed(1)
  X <- matrix(rnorm(20 * 100), 20) * 0.3
  big <- attsparse_greedy(X, k = 1e5)
  all <- attsparse_greedy(X, k = 100)
  expect_identical(big$max_columns, 100)
  expect_identical(big$index, all$index)
  expect_identical(big$weight, all$weight)
  # 3 rows: Y Y' lives in the 6-dimensional symmetric 3 x 3 matrices
  top <- attsparse_greedy(X[1:3, ], k = .Machine$integer.max)
  six <- attsparse_greedy(X[1:3, ], k = 6)
  expect_identical(top$max_columns, 6)
  expect_lte(top$k, 6)
  expect_identical(top$index, six$index)
  expect_identical(top$weight, six$weight)
  # a budget under the cap is kept as given
  expect_identical(attsparse_greedy(X, k = 7)$max_columns, 7)
})

test_that("refit = TRUE on a sample of thousands of columns: no k x k system, rel lowered, Ctrl-C within a second", {
  skip_if_fast()
  skip_on_os("windows")
  # 12611 columns kept: the k x k normal equations would take 6 GB; the refit without them takes under
  # 200 MB and 3 s, its rel at most the sample's own (measured 3.3% against 9.6%)
  set.seed(1)
  X <- matrix(rnorm(200 * 20000), 200) * 0.012
  plain <- attsparse_rand(X, m = 20000, seed = 1, threads = 1)
  fit <- attsparse_rand(X, m = 20000, seed = 1, threads = 1, refit = TRUE, memory = 500)
  expect_identical(fit$refit_rel, plain$rel_error)
  expect_lt(fit$rel_error, 0.5 * plain$rel_error)
  expect_true(all(fit$index %in% plain$index))
  expect_gt(fit$k, 10000)
  # Ctrl-C 1.5 s into the refit of twice as many columns (the sample takes 0.3 s, the refit about 3.5 s;
  # the call above, 1.4 s in all, can end before the signal)
  expect_interrupted("set.seed(1); X <- matrix(rnorm(200 * 40000), 200) * 0.012",
                     "attsparse_rand(X, m = 40000, seed = 1, refit = TRUE, threads = 1)", delay = 1.5, within = 1.5)
})

test_that("greedy: 'memory' is checked against the most a run allocates, and a cap that binds midway names 'memory'", {
  set.seed(1)
  X <- matrix(rnorm(60 * 3000), 60) * 0.05
  msg <- tryCatch(attsparse_greedy(X, k = 300, memory = 0.01), error = conditionMessage)
  expect_match(msg, "up to 300 columns kept\\): [0-9.]+ MiB of working arrays, above 'memory'")
  need <- as.numeric(sub(".*kept\\): ([0-9.]+) MiB.*", "\\1", msg))
  # the figure checked holds the whole run: the arrays never grow past the budget
  r <- attsparse_greedy(X, k = 300, memory = need + 0.01)
  expect_lte(r$k, 300)
  expect_gt(r$k, 100)
  # a target that needs more columns than the cap holds: the best found with a warning, or a refusal,
  # naming 'memory' either way (never "no column lowered the error further")
  res <- tryCatch(attsparse_greedy(X, rel = 0.01, memory = need + 0.01),
                  warning = conditionMessage, error = conditionMessage)
  expect_match(res, "'memory'")
})
