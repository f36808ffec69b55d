# test-corpus.R: a small slice of the development corpus (bench/corpus.R; the whole of it is make
# bench-robust): the greedy method meets every target the independent baseline of bench/baseline.R
# meets, with at most 1.25 times its columns, and the error estimate covers the exact error.

targets <- c(0.05, 0.02, 0.01)

# the slice: two small instances of eleven families, two inputs on which the greedy method stalled, and
# a low-rank one with more rows than the corpus's on which it kept 32 columns at 1% where the
# baseline keeps 23 (its plain path, behind for its first six rounds, was stopped before it overtook)
slice <- if (corpus_available) {
  inst <- corpus_instances("slice", families = c("counts", "docterm", "expression", "dupcols", "rownorms", "r",
                                                  "logits", "binary", "heavy", "onehot", "spectra"))
  extra <- data.frame(id = c("counts(n=26, d=19000, seed=2)", "counts(n=40, d=20000, seed=3)",
                             "lowrank(n=300, d=3000, seed=103)"),
                      family = c("counts", "counts", "lowrank"), seed = c(2, 3, 103))
  extra$params <- list(list(n = 26, d = 19000, seed = 2), list(n = 40, d = 20000, seed = 3),
                       list(n = 300, d = 3000, seed = 103))
  rbind(inst, extra)
}

# the greedy method and the baseline on each instance and target
greedy_runs <- if (corpus_available) lapply(seq_len(nrow(slice)), function(i) {
  X <- corpus_build(slice[i, ])
  lA <- log_softmax_rows(as.matrix(Matrix::tcrossprod(X)))
  b <- baseline_greedy(X, targets)
  g <- lapply(targets, function(t) suppressWarnings(attsparse_greedy(X, rel = t)))
  list(id = slice$id[i], X = X, seed = slice$seed[i], base = b, greedy_k = vapply(g, function(r) length(r$index), 0),
       greedy_rel = vapply(g, function(r) rel_exact(as.matrix(Matrix::tcrossprod(r$Y)), lA), 0))
})

test_that("the baseline meets the targets on the slice (the comparisons below rest on it)", {
  skip_if_no_corpus()
  for (r in greedy_runs) expect_false(anyNA(r$base$k), info = r$id)
  # its rel is the package's attention_error of its own Y
  r <- greedy_runs[[1]]
  Y <- r$X[, r$base$index, drop = FALSE] %*% Diagonal(x = r$base$weight)
  expect_equal(attention_error(r$X, Y)$rel, r$base$last_rel, tolerance = 1e-8)
})

test_that("the greedy method meets every target the baseline meets", {
  skip_if_no_corpus()
  for (r in greedy_runs) for (i in seq_along(targets)) if (!is.na(r$base$k[i]))
    expect_lte(r$greedy_rel[i], targets[i], label = sprintf("%s at %g: greedy rel", r$id, targets[i]))
})

test_that("where it meets the target, the greedy method keeps at most 1.25 times the baseline's columns", {
  skip_if_no_corpus()
  for (r in greedy_runs) for (i in seq_along(targets)) if (!is.na(r$base$k[i]) && r$greedy_rel[i] <= targets[i])
    expect_lte(r$greedy_k[i], 1.25 * r$base$k[i], label = sprintf("%s at %g: greedy k", r$id, targets[i]))
})

test_that("the error estimate covers the exact error in default and target mode", {
  skip_if_no_corpus()
  est <- do.call(rbind, lapply(greedy_runs, function(r) {
    s <- if (is.na(r$seed)) 1 else r$seed
    d <- attsparse_rand(r$X, seed = s)
    # target mode with the estimate alone choosing the sample (with the exact error the sample is
    # checked against X X' and the estimate no longer decides)
    t <- attsparse_rand(r$X, rel = 0.02, seed = s, error = FALSE)
    data.frame(id = r$id, mode = c("default", "target"), est = c(d$rel_estimate, t$rel_estimate),
               exact = c(d$rel_error, attention_error(r$X, t$Y)$rel))
  }))
  for (m in c("default", "target")) {
    e <- est[est$mode == m, ]
    expect_gte(mean(e$est >= e$exact), 0.9, label = paste(m, "mode: share of runs whose estimate covers the exact rel"))
    expect_true(all(e$est > 0 & is.finite(e$est)), label = paste(m, "mode: positive finite estimates"))
  }
  # over the slice as a whole (per family, two instances each are too few for a median: on columns
  # repeated at other scales one of the two is 12 times loose in default mode; docs/robustness.md
  # has the per-family medians of the whole corpus)
  for (m in c("default", "target")) {
    e <- est[est$mode == m, ]
    expect_lte(median(e$est / e$exact), 2.5, label = paste(m, "mode: median estimate / exact over the slice"))
  }
})

test_that("target mode's automatic probabilities keep about as few columns as the best single choice", {
  skip_if_no_corpus()
  # the pilots are judged by the columns each would keep at the target (not by their draws): on
  # heavy-tailed data norm probabilities make the heavy columns certain and keep far fewer. The
  # estimate alone choosing (error = FALSE); with the exact error, the next test
  for (r in greedy_runs) for (t in targets[1:2]) {
    s <- if (is.na(r$seed)) 1 else r$seed
    auto <- attsparse_rand(r$X, rel = t, seed = s, error = FALSE)$k
    best <- min(vapply(c("leverage", "norm", "mixed"), function(p)
      attsparse_rand(r$X, rel = t, seed = s, probabilities = p, error = FALSE)$k, 0))
    expect_lte(auto, 1.25 * best, label = sprintf("%s at %g: k with probabilities = 'auto' (best single: %d)", r$id, t, best))
  }
})

# With the exact error each choice's sample shrinks by its own draw's luck; the pilots not picked that
# meet the target are shrunk too and the fewest columns kept. Without that, 'auto' kept 3 times the
# best single choice's columns on an expression instance (57 against 19 at 5%); with it, more than
# 1.25 times in 2 of the slice's 52 cases (at most 1.40 times).
test_that("with the exact error, target mode's automatic probabilities keep about as few columns as the best single choice", {
  skip_if_no_corpus()
  ratio <- unlist(lapply(greedy_runs, function(r) vapply(targets[1:2], function(t) {
    s <- if (is.na(r$seed)) 1 else r$seed
    auto <- attsparse_rand(r$X, rel = t, seed = s)
    expect_lte(auto$rel_error, t)
    best <- min(vapply(c("leverage", "norm", "mixed"), function(p) attsparse_rand(r$X, rel = t, seed = s, probabilities = p)$k, 0))
    expect_lte(auto$k, 1.5 * max(best, 1), label = sprintf("%s at %g: k with probabilities = 'auto' (best single: %d)", r$id, t, best))
    auto$k / max(best, 1)
  }, 0)))
  expect_gte(mean(ratio <= 1.25), 0.9)
})

test_that("the held-out instances are other instances than the development corpus's, of every family", {
  skip_if_no_corpus()
  gen <- corpus_instances("full", real = FALSE)
  held <- corpus_instances("heldout", real = FALSE)
  expect_length(intersect(held$id, gen$id), 0)
  # its real data sets are others than the full corpus's
  real <- corpus_instances("heldout")
  real <- real$id[real$family == "real"]
  expect_gt(length(real), 0)
  expect_length(intersect(real, corpus_instances("full")$id), 0)
  # as many instances of every generated family, in the same order
  expect_equal(held$family, gen$family)
  expect_true(all(held$seed > 1000))
  # not only the seeds differ: most instances have other parameters than the full corpus's of the same index
  strip <- function(id) sub(", seed=[0-9]+\\)$", ")", id)
  expect_gt(mean(strip(held$id) != strip(gen$id)), 0.5)
  # an instance builds as its label says
  X <- corpus_build(held[held$family == "onehot", ][1, ])
  p <- held$params[held$family == "onehot"][[1]]
  expect_equal(nrow(X), p$n)
})

test_that("on real data sets nothing was tuned on, the greedy method meets every target with at most the baseline's columns and the estimate covers", {
  skip_if_no_corpus()
  # bladder cancer arrays (57 x 22283, log2 expression, dense) and a twins gut microbiome census
  # (278 x 130 raw counts, sparse, d < n): the held-out corpus's real data sets
  sets <- Filter(Negate(is.null), sapply(c("bladder", "twins", "twins_log1p"), gen_real, simplify = FALSE))
  if (!length(sets)) skip("the held-out real data sets are not installed (tools/install-deps.sh data)")
  for (nm in names(sets)) {
    X <- sets[[nm]]
    lA <- log_softmax_rows(as.matrix(Matrix::tcrossprod(X)))
    b <- baseline_greedy(X, targets)
    for (i in seq_along(targets)) {
      g <- attsparse_greedy(X, rel = targets[i])
      expect_lte(rel_exact(as.matrix(Matrix::tcrossprod(g$Y)), lA), targets[i])
      expect_lte(length(g$index), b$k[i], label = sprintf("%s at %g: greedy k", nm, targets[i]))
    }
    # the default estimate over 20 seeds: it covers the exact error in at least 90% of them, at most
    # 3 times it in the median
    d <- vapply(1:20, function(s) {
      r <- attsparse_rand(X, seed = s)
      c(r$rel_estimate, r$rel_error)
    }, c(0, 0))
    expect_gte(mean(d[1, ] >= d[2, ]), 0.9, label = paste(nm, "coverage"))
    expect_lte(median(d[1, ] / d[2, ]), 3, label = paste(nm, "median estimate / exact"))
  }
})

test_that("rounds that end short of the target one batch from every column of X take them all (Y = X) and prune from there", {
  skip_if_no_corpus()
  skip_if_fast()
  # clustered rows with d not far above n: the first run's rounds stop with 2537 of the 3000 columns
  # (the next round's batch is 634) and the plain path's with 2996 at rel 1.15% for a target of 1%; the
  # fit of the weighted proxy need not find Y = X (on clustered(400, 3000, 2001, clusters = 4, spread = 1)
  # the rounds kept all 3000 columns at rel 1.17%)
  X <- gen_clustered(600, 3000, 2002, clusters = 16, spread = 0.3)
  r <- attsparse_greedy(X, rel = 0.01)
  expect_lte(r$rel_error, 0.01)
  expect_equal(attention_error(X, r$Y)$rel, r$rel_error, tolerance = 1e-10)
  expect_lt(length(r$index), ncol(X))   # the prune removes some
})

test_that("the plain path runs until it beats the first run or spends its work: no more columns than the plain greedy where it overtakes late", {
  skip_if_no_corpus()
  # heavy-tailed dense entries: the plain path trails the first run's rounds for many rounds, then meets
  # the target with fewer columns; stopped once six rounds behind, the method kept 28 and 36 columns at
  # 2% and 1% where the baseline keeps 23 and 33 (now 21 and 22)
  X <- gen_heavy(20, 3000, 1008, df = 2)
  b <- baseline_greedy(X, c(0.02, 0.01))
  for (i in 1:2) {
    t <- c(0.02, 0.01)[i]
    r <- attsparse_greedy(X, rel = t)
    expect_lte(r$rel_error, t)
    expect_lte(length(r$index), b$k[i], label = sprintf("greedy k at %g (baseline %d)", t, b$k[i]))
  }
})

test_that("the rounds do not end on a fit that stopped short: random signs, where both paths stalled above the target", {
  skip_if_no_corpus()
  skip_if_fast()
  # 150 x 4000 columns of one pattern of signs, each sign flipped at random: past 2048 kept columns the
  # nonnegative solve is coordinate descent alone, which on these correlated columns stopped short of
  # the fit's minimum, no candidate's score was positive, and both paths ended above 2% (2515 and 2748
  # columns, rel 2.6% and 2.4%) where the baseline meets it with 2308
  X <- gen_signs(150, 4000, 116)
  b <- baseline_greedy(X, 0.02, cap = 4000)
  r <- attsparse_greedy(X, rel = 0.02)
  expect_lte(r$rel_error, 0.02)
  expect_lte(length(r$index), b$k[1], label = sprintf("greedy k (baseline %d)", b$k[1]))
})
