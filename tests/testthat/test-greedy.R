# test-greedy.R: attsparse_greedy (the fewest columns for an exact rel) and option refit of attsparse_rand and
# attsparse_det, checked against R's own softmax of tcrossprod (att_direct, helper-attsparse.R).

# rel and inf of Y against X from R alone
rel_direct <- function(X, Y) {
  A <- att_direct(X)
  B <- if (ncol(Y) == 0) matrix(1 / nrow(X), nrow(X), nrow(X)) else att_direct(Y)
  c(rel = max(abs(B / A - 1)), inf = max(abs(B - A)))
}

# A greedy result: Y as its columns and weights say, and its rel_error the exact one R computes.
greedy_ok <- function(X, res, label) {
  expect_s3_class(res, "attsparse")
  expect_identical(res$method, "greedy", label = label)
  expect_true(all(diff(res$index) > 0) && all(res$weight > 0), label = paste(label, "index, weight"))
  expect_equal(res$k, length(res$index), label = paste(label, "k"))
  ref <- X[, res$index, drop = FALSE] %*% Diagonal(x = res$weight)
  expect_identical(max(abs(as.matrix(res$Y) - as.matrix(ref)), 0), 0, label = paste(label, "Y"))
  d <- rel_direct(X, as.matrix(res$Y))
  # to 1e-9 relative, or 1e-12 where the error is at rounding level (every column kept)
  expect_lte(abs(res$rel_error - d[["rel"]]), 1e-9 * d[["rel"]] + 1e-12, label = paste(label, "rel_error vs R"))
  expect_lte(abs(res$error - d[["inf"]]), 1e-9 * d[["inf"]] + 1e-14, label = paste(label, "error vs R"))
  invisible(res)
}

greedy_inputs <- function() {
  set.seed(41)
  list(dense = attsparse_example(12, 1500, r = 0.5, seed = 6),
       sparse = rsparsematrix(10, 3000, density = 0.02) / 2,
       rank_deficient = (matrix(rnorm(6 * 800), 6)[c(1:6, 1:3), ]) / 20,
       zero_columns = cbind(matrix(rnorm(8 * 300), 8) / 15, matrix(0, 8, 300)),
       d_below_n = matrix(rnorm(25 * 10), 25) / 5)
}

test_that("greedy: exact rel <= target, equal to R's own softmax of tcrossprod, on five kinds of input", {
  inputs <- greedy_inputs()
  for (nm in names(inputs)) for (target in c(0.05, 0.01)) {
    X <- inputs[[nm]]
    res <- greedy_ok(X, attsparse_greedy(X, rel = target), sprintf("%s rel %g", nm, target))
    expect_lte(res$rel_error, target, label = sprintf("%s rel %g: rel_error", nm, target))
    expect_equal(res$rel_target, target)
    expect_true(is.na(res$max_columns))
    if (nm == "zero_columns") expect_true(all(res$index <= 300))
    if (nm == "sparse") expect_s4_class(res$Y, "dgCMatrix")
    # the baseline is the rel of Y = 0, computed here too
    expect_equal(res$baseline, rel_direct(X, X[, 0, drop = FALSE])[["rel"]], tolerance = 1e-9)
  }
})

test_that("greedy: the default target is 1%; a tiny X meets it with no column", {
  X <- greedy_inputs()$dense
  res <- attsparse_greedy(X)
  expect_equal(res$rel_target, 0.01)
  expect_lte(res$rel_error, 0.01)
  tiny <- attsparse_greedy(X * 1e-6, rel = 0.01)
  expect_equal(tiny$k, 0)
  expect_equal(dim(tiny$Y), c(12L, 0L))
  expect_lte(tiny$baseline, 0.01)
  expect_identical(tiny$rel_error, tiny$baseline)
})

test_that("greedy with a budget k: at most k columns; a budget twice as large gives a smaller rel", {
  for (X in greedy_inputs()[c("dense", "sparse", "rank_deficient")]) {
    rel <- numeric()
    for (k in c(4, 8, 16, 32)) {
      res <- greedy_ok(X, attsparse_greedy(X, k = k), sprintf("k = %d", k))
      expect_lte(res$k, k)
      expect_equal(res$max_columns, k)
      expect_true(is.na(res$rel_target))
      rel <- c(rel, res$rel_error)
    }
    expect_true(all(diff(rel) < 0), label = paste(format(rel), collapse = " "))
    expect_lt(rel[1], attsparse_greedy(X, k = 4)$baseline)
  }
})

test_that("greedy is deterministic: the same bits twice, on 1 and 2 threads, R's generator untouched", {
  X <- greedy_inputs()$sparse
  set.seed(5)
  before <- .Random.seed
  a <- attsparse_greedy(X, rel = 0.02, threads = 1)
  expect_identical(.Random.seed, before)
  b <- attsparse_greedy(X, rel = 0.02, threads = 2)
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_identical(a$rel_error, b$rel_error)
})

test_that("greedy: a target no subset reaches gives the best found, with a warning in the core's words", {
  set.seed(3)
  X <- matrix(rnorm(3 * 5), 3)
  # every column at weight 1 (Y = X) meets any target: the rounds end there when they keep every column
  expect_silent(all <- attsparse_greedy(X, rel = 1e-15))
  expect_lte(all$rel_error, 1e-15)
  expect_equal(attention_error(X, all$Y)$rel, all$rel_error, tolerance = 1e-12)
  # about two candidate columns (a Poisson draw) cannot
  expect_warning(res <- attsparse_greedy(X, rel = 1e-15, candidates = 2, seed = 1), "the target rel = 1e-13% was not met",
                 fixed = TRUE)
  expect_lt(length(res$index), ncol(X))
  expect_gt(res$rel_error, res$rel_target)
  expect_output(print(res), "target rel 1e-13% NOT met", fixed = TRUE)
  expect_silent(attsparse_greedy(X, rel = 0.5))
})

test_that("greedy: print and summary say greedy, the target, whether it was met, k, and that rel is exact", {
  X <- greedy_inputs()$dense
  res <- attsparse_greedy(X, rel = 0.02)
  p <- capture.output(print(res))
  expect_match(p[1], "<attsparse: greedy, target rel 2% met>", fixed = TRUE)
  expect_match(p[2], sprintf("Y: 12 x %d (rounds = %d)", res$k, res$rounds), fixed = TRUE)
  expect_true(any(grepl("a certificate, not an estimate", p, fixed = TRUE)))
  expect_lte(length(p), 6)
  s <- capture.output(summary(res))
  expect_match(s[1], "attsparse greedy sketch of a 12 x 1500 dense matrix", fixed = TRUE)
  expect_match(s[2], sprintf("columns kept k = %d of 1500", res$k), fixed = TRUE)
  expect_match(s[2], "target rel 2% met", fixed = TRUE)
  expect_false(any(grepl("other fields", s)))
  b <- capture.output(print(attsparse_greedy(X, k = 5)))
  expect_match(b[1], "<attsparse: greedy, budget k <= 5 columns>", fixed = TRUE)
})

test_that("greedy meets 5%, 2% and 1% on crude with few columns", {
  C <- real_data("crude")
  skip_if_no_data(C, "r-cran-tm")
  k <- integer()
  for (target in c(0.05, 0.02, 0.01)) {
    res <- attsparse_greedy(C, rel = target)
    expect_lte(res$rel_error, target)
    expect_lte(res$time, 30)
    k <- c(k, res$k)
  }
  # a smaller target needs more columns; all far fewer than crude's 1266
  expect_true(all(diff(k) > 0))
  expect_lt(k[3], 1266 / 10)
})

test_that("greedy meets 5%, 2% and 1% on acq, golub and lung (rel exact, equal to R's)", {
  skip_if_fast()
  for (nm in c("acq", "golub", "lung")) {
    D <- real_data(nm)
    skip_if_no_data(D, nm)
    for (target in c(0.05, 0.02, 0.01)) {
      res <- attsparse_greedy(D, rel = target)
      expect_lte(res$rel_error, target, label = sprintf("%s at %g", nm, target))
      expect_lt(res$k, ncol(D) / 10, label = sprintf("%s at %g: k", nm, target))
    }
    greedy_ok(D, res, nm)
  }
})

test_that("greedy: X must be in memory; keys and refit are not its options", {
  X <- greedy_inputs()$dense
  expect_error(attsparse_greedy(X, K = X), "unknown option 'K'", fixed = TRUE)
  expect_error(attsparse_greedy(X, V = X[, 1:2]), "unknown option 'V'", fixed = TRUE)
  expect_error(attsparse_greedy(X, refit = TRUE), "unknown option 'refit'", fixed = TRUE)
  skip_if_not_installed("DelayedArray")
  expect_error(attsparse_greedy(DelayedArray::DelayedArray(X)), "X must be in memory: the greedy method computes X X'",
               fixed = TRUE)
})

test_that("option_table lists greedy's options from the core's table", {
  tab <- attsparse:::option_table("greedy")
  expect_setequal(tab$name, c("seed", "spectral", "rel", "k", "error", "candidates", "approach", "minimax", "memory", "threads",
                                 "verbose"))
  expect_true(is.nan(tab$default[tab$name == "rel"]) || is.na(tab$default[tab$name == "rel"]))
})

# ---------------------------------------------------------------- refit
test_that("refit = TRUE lowers or keeps rel of a norm-Poisson sample, drops zero weights, reports rel before", {
  inputs <- c(greedy_inputs()[c("dense", "sparse")], list(crude = real_data("crude")))
  inputs <- inputs[!vapply(inputs, is.null, NA)]
  for (nm in names(inputs)) {
    X <- inputs[[nm]]
    args <- list(X, m = 4 * nrow(X), probabilities = "norm", sampling = "poisson", seed = 3)
    plain <- do.call(attsparse_rand, args)
    fit <- do.call(attsparse_rand, c(args, refit = TRUE))
    # refit_rel is the sample's own rel, which the refit never raises
    expect_equal(fit$refit_rel, plain$rel_error, tolerance = 1e-12, label = paste(nm, "refit_rel"))
    expect_lte(fit$rel_error, fit$refit_rel * (1 + 1e-12), label = paste(nm, "rel after"))
    # the sample's columns, fewer or as many, all with a positive weight
    expect_true(all(fit$index %in% plain$index), label = paste(nm, "subset"))
    expect_lte(fit$k, plain$k)
    expect_true(all(fit$weight > 0))
    expect_equal(fit$rel_error, rel_direct(X, as.matrix(fit$Y))[["rel"]], tolerance = 1e-9)
    # no estimate: rel_error is exact
    expect_identical(fit$estimate, "none")
    expect_true(is.na(fit$rel_estimate))
    expect_match(fit$estimate_why, "refitted against X X'", fixed = TRUE)
    expect_null(plain$refit_rel)
    expect_output(print(fit), "refit: rel error", fixed = TRUE)
  }
})

test_that("refit on golub's norm-Poisson sample: rel falls severalfold with fewer columns", {
  skip_if_fast()
  G <- real_data("golub")
  skip_if_no_data(G, "r-bioc-multtest")
  fit <- attsparse_rand(G, m = 915, probabilities = "norm", sampling = "poisson", seed = 1, refit = TRUE)
  expect_lt(fit$rel_error, fit$refit_rel / 2)
  expect_equal(fit$rel_error, rel_direct(G, as.matrix(fit$Y))[["rel"]], tolerance = 1e-9)
})

test_that("refit of det: the same columns reweighted, rel not raised, eps_bound that of BSS", {
  X <- greedy_inputs()$dense
  plain <- attsparse_det(X, eps = 0.5)
  fit <- attsparse_det(X, eps = 0.5, refit = TRUE)
  expect_equal(fit$refit_rel, plain$rel_error, tolerance = 1e-12)
  expect_lte(fit$rel_error, fit$refit_rel * (1 + 1e-12))
  expect_true(all(fit$index %in% plain$index))
  expect_identical(fit$eps_bound, plain$eps_bound)
  expect_equal(fit$eps_spectral, spectral_eps(X, fit$Y), tolerance = 1e-8)
})

test_that("refit needs the symmetric case in memory", {
  X <- greedy_inputs()$dense
  msg <- "'refit' fits the weights to X X' (the attention of X with itself): it cannot be used with 'K' or 'V'"
  expect_error(attsparse_rand(X, K = X[1:3, ], refit = TRUE, seed = 1), msg, fixed = TRUE)
  expect_error(attsparse_det(X, V = X[, 1:2], refit = TRUE), msg, fixed = TRUE)
  skip_if_not_installed("DelayedArray")
  skip_if_not_installed("BiocParallel")
  W <- DelayedArray::DelayedArray(attsparse_example(6, 3000, 0.5, 2))
  expect_error(attsparse_rand(W, refit = TRUE, seed = 1), "'refit' needs X in memory", fixed = TRUE)
})

test_that("a budget is never worse than Y = 0 nor than a smaller budget", {
  # wide and sparse, Zipf-like column counts, rows of norm 2 (the same input in test_greedy.m):
  # with a few columns some rows are covered and others not, which can be worse than none
  n <- 40; d <- 4000
  i <- rep(seq_len(n), d); j <- rep(seq_len(d), each = n)
  h <- ((i * 7919 + j * 104729) %% 1009) / 1009
  keep <- h < 0.5 / (1 + (j - 1) / 100)
  X <- Matrix::sparseMatrix(i[keep], j[keep], x = 1 + h[keep], dims = c(n, d))
  X <- Matrix::Diagonal(x = 2 / sqrt(Matrix::rowSums(X^2))) %*% X
  rel <- numeric(0)
  for (k in c(1, 2, 5, 12, 50, 200)) {
    r <- attsparse_greedy(X, k = k)
    expect_lte(ncol(r$Y), k)
    expect_lte(r$rel_error, r$baseline)
    expect_equal(r$rel_error, attention_error(X, r$Y)$rel, tolerance = 1e-12)
    rel <- c(rel, r$rel_error)
  }
  expect_true(all(diff(rel) <= 0), info = paste(signif(rel, 4), collapse = " "))
  expect_lt(rel[6], 0.5 * r$baseline)
  # large logits (r in the tens): every budget no worse than a smaller one, and the smallest
  set.seed(1)
  X0 <- matrix(rnorm(20 * 200), 20) * 0.3
  rel <- vapply(1:4, function(k) attsparse_greedy(X0, k = k)$rel_error, 0)
  expect_true(all(diff(rel) <= 0), info = paste(signif(rel, 4), collapse = " "))
  expect_lt(rel[1], attention_error(X0, X0[, 0])$rel)
})

test_that("large logits and columns repeated at other scales: the target is met", {
  # the proxy the method fits is first order in the error; with logits in the tens it can
  # mislead, and the run must still reach the target (all 200 columns give rel 0)
  set.seed(1)
  X0 <- matrix(rnorm(20 * 200), 20) * 0.3
  for (X in list(X0 * 2, cbind(X0, 1e-3 * X0), cbind(X0, 2 * X0))) {
    r <- attsparse_greedy(X, rel = 0.02)
    expect_lte(r$rel_error, 0.02)
    expect_equal(r$rel_error, attention_error(X, r$Y)$rel, tolerance = 1e-9)
    expect_lte(ncol(r$Y), 210)   # Caratheodory: n (n + 1) / 2 columns reproduce X X'
  }
})

test_that("a long greedy run reports its progress through message(); suppressMessages() hides it", {
  skip_if_fast()
  # about 6 s on one thread of a 2-core machine: a line every 2 s once 2 s have passed
  X <- attsparse_example(150, 3000, 1, 3)
  msgs <- character(0)
  t0 <- proc.time()[["elapsed"]]
  r <- withCallingHandlers(attsparse_greedy(X, k = 1200, threads = 1), message = function(m) {
    msgs <<- c(msgs, conditionMessage(m))
    invokeRestart("muffleMessage")
  })
  el <- proc.time()[["elapsed"]] - t0
  expect_true(all(grepl("^greedy(, plain path)?: (round|prune) .* s\n?$", msgs)), info = paste(msgs, collapse = ""))
  if (el > 4) expect_gte(length(msgs), 1)
  expect_lte(length(msgs), el / 2 + 1)
  expect_silent(suppressMessages(attsparse_greedy(X, k = 1200, threads = 1)))
})

test_that("Ctrl-C stops a long greedy run within a second, and the session goes on", {
  skip_if_fast()
  skip_on_os("windows")
  # 150 x 3000 at 1%: about 2200 columns, 40 s on one thread (interrupted 3 s in, among the rounds)
  expect_interrupted("X <- attsparse_example(150, 3000, 1, 3)",
                     "attsparse_greedy(X, rel = 0.01, threads = 1)", delay = 3, within = 1.5)
})

test_that("refit of a sample that keeps no column: no column, rel that of Y = 0, as without the refit", {
  cases <- list(
    list(f = attsparse_rand, X = attsparse_example(20, 2000, r = 0.5, seed = 1),
         args = list(m = 1, seed = 1, sampling = "poisson")),
    list(f = attsparse_rand, X = matrix(0, 20, 100), args = list(m = 10, seed = 1)),
    list(f = attsparse_det, X = matrix(0, 20, 100), args = list()))
  for (cs in cases) {
    plain <- do.call(cs$f, c(list(cs$X), cs$args))
    fit <- do.call(cs$f, c(list(cs$X), cs$args, list(refit = TRUE)))
    expect_identical(ncol(plain$Y), 0L)
    expect_identical(dim(fit$Y), c(20L, 0L))
    expect_length(fit$index, 0)
    expect_identical(fit$refit_rel, plain$rel_error)
    expect_identical(fit$rel_error, plain$rel_error)
    expect_equal(fit$rel_error, attention_error(cs$X, fit$Y)$rel, tolerance = 1e-12)
  }
})

test_that("approach = \"sample\": exact rel met, heavy columns kept at weight 1, fewer columns than the target mode", {
  skip_if_no_corpus()
  # a wide document-term matrix (bench/corpus.R) and crude, the real one
  inputs <- list(docterm = corpus_scale(gen_docterm(60, 20000, 3)), crude = real_data("crude"))
  for (nm in names(inputs)) {
    X <- inputs[[nm]]
    if (is.null(X)) next
    X <- as(X, "CsparseMatrix")
    heavy <- which(diff(X@p) >= ceiling(nrow(X) / 4))
    for (target in c(0.05, 0.02)) {
      label <- sprintf("%s rel %g", nm, target)
      res <- greedy_ok(X, attsparse_greedy(X, rel = target, approach = "sample", seed = 4), label)
      expect_identical(res$approach, "sample", label = label)
      expect_lte(res$rel_error, target, label = label)
      # the heavy columns the prune leaves are exact: weight 1, never refitted
      kept <- intersect(heavy, res$index)
      expect_true(all(res$weight[match(kept, res$index)] == 1), label = paste(label, "heavy weights 1"))
      # the same bits on 2 threads; another seed draws other columns and meets the target too
      again <- attsparse_greedy(X, rel = target, approach = "sample", seed = 4, threads = 2)
      expect_identical(again$index, res$index, label = label)
      expect_identical(again$weight, res$weight, label = label)
      other <- attsparse_greedy(X, rel = target, approach = "sample", seed = 5)
      expect_lte(other$rel_error, target, label = paste(label, "seed 5"))
      if (nm == "docterm") {
        tm <- attsparse_rand(X, rel = target, seed = 4, error = FALSE)
        expect_lt(res$k, tm$k, label = paste(label, "k against the target mode's"))
      }
    }
  }
  # auto takes the rounds on an input this small
  expect_identical(attsparse_greedy(inputs$docterm, rel = 0.05)$approach, "rounds")
  expect_error(attsparse_greedy(inputs$docterm, k = 10, approach = "sample"), "'approach'.*not a budget")
  expect_error(attsparse_greedy(inputs$docterm, approach = "fast"), "'approach' must be one of auto\\|rounds\\|sample")
})

test_that("minimax sets the rows up to which the weights are fitted to the largest error itself", {
  # 100 rows: past the default of 90, so the default fits without it; 60 rows: within it
  X <- attsparse_example(100, 2000, seed = 1)
  plain <- attsparse_greedy(X, rel = 0.01)
  fitted <- attsparse_greedy(X, rel = 0.01, minimax = 100)
  expect_lte(max(plain$rel_error, fitted$rel_error), 0.01)
  expect_lt(fitted$k, plain$k)          # 47 against 64
  X60 <- attsparse_example(60, 2000, seed = 1)
  expect_identical(attsparse_greedy(X60, rel = 0.01)$index, attsparse_greedy(X60, rel = 0.01, minimax = 60)$index)
  never <- attsparse_greedy(X60, rel = 0.01, minimax = 0)
  expect_lte(never$rel_error, 0.01)
  expect_gt(never$k, attsparse_greedy(X60, rel = 0.01)$k)   # 41 against 38
  expect_error(attsparse_greedy(X60, rel = 0.01, minimax = -1), "minimax")
})
