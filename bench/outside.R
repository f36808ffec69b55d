# outside.R: the greedy method and the default error estimate on random instances of families that
# no corpus of bench/corpus.R holds, against the independent baseline of bench/baseline.R (capped at
# 1500 columns, as in make bench-robust: its solve in R grows as k^3).
#
#   Rscript bench/outside.R FROM TO OUT.csv     (RLIB: the library with attsparse; default build/Rlib)
#
# Seed s picks a family, n in {30, 80, 150}, d in {1500, 4000, 8000} and r = max (X X')_ii in
# {0.3, 1, 1, 3}, all from set.seed(7919 s), then builds X with seed s. Per target (5%, 2%, 1%):
# attsparse_greedy(X, rel = t)'s k, exact rel and time, the baseline's first k meeting t; and once an
# instance attsparse_rand(X, seed = s)'s exact rel and rel_estimate. Prints the cases the greedy
# method missed, or where it kept more columns than the baseline, and the estimate per family.
source("bench/setup.R")

args <- commandArgs(TRUE)
if (length(args) != 3) stop("usage: Rscript bench/outside.R FROM TO OUT.csv")
seeds <- as.integer(args[1]):as.integer(args[2])
targets <- c(0.05, 0.02, 0.01)

# the families: kinds of wide data the corpus's generators do not make
outside <- list(
  # expression data standardized gene by gene (scale()): every column of the same norm, signed
  zscore = function(n, d, s) {
    set.seed(s)
    f <- sample(1:6, 1)
    X <- exp(matrix(rnorm(n * f), n) %*% matrix(rnorm(f * d, 0, 0.7), f) + matrix(rnorm(n * d, 0, 0.5), n))
    scale(X)
  },
  # document-term counts weighted by tf-idf, rows of norm 1
  tfidf = function(n, d, s) {
    X <- gen_docterm(n, d, s, zipf = runif(1, 0.9, 1.4), topics = sample(2:15, 1), len = sample(c(100, 500), 1))
    X <- X %*% Diagonal(x = log(nrow(X) / pmax(colSums(X > 0), 1)) + 1e-3)
    X / sqrt(rowSums(X^2) + 1e-12)
  },
  # random Fourier features of points in 2 to 10 dimensions
  rff = function(n, d, s) {
    set.seed(s)
    p <- sample(2:10, 1)
    Z <- matrix(rnorm(n * p), n) * runif(1, 0.3, 2)
    sqrt(2 / d) * cos(Z %*% matrix(rnorm(p * d), p) + matrix(runif(d, 0, 2 * pi), n, d, byrow = TRUE))
  },
  # Gaussian columns through a power-law spectrum over the rows
  powerlaw = function(n, d, s) {
    set.seed(s)
    U <- qr.Q(qr(matrix(rnorm(n * n), n)))
    (U %*% diag((1:n)^-runif(1, 0.5, 2))) %*% matrix(rnorm(n * d), n)
  },
  signs = function(n, d, s) gen_signs(n, d, s),
  # sparse, signed, log-normal magnitudes
  sparseneg = function(n, d, s) {
    set.seed(s)
    M <- rsparsematrix(n, d, runif(1, 0.005, 0.05))
    M@x <- M@x * exp(rnorm(length(M@x), 0, runif(1, 0.5, 2)))
    M
  },
  # fewer columns than rows
  narrow = function(n, d, s) {
    set.seed(s)
    matrix(rnorm(n * (n %/% sample(2:5, 1))), n)
  },
  # 2 to 8 rows of cubed exponential entries
  tiny = function(n, d, s) {
    set.seed(s)
    matrix(rexp(sample(2:8, 1) * d)^3, ncol = d)
  },
  # single-cell-like counts: depth-normalized to 1e4 a cell, log1p
  scrna = function(n, d, s) {
    X <- gen_counts(n, d, s, alpha = runif(1, 0.8, 1.4), sd_depth = runif(1, 0.3, 1), sd_sample = runif(1, 1, 3))
    X <- X / rowSums(X) * 1e4
    X@x <- log1p(X@x)
    X
  },
  # images of one Gaussian blob each, plus uniform noise, pixels as columns
  images = function(n, d, s) {
    set.seed(s)
    side <- floor(sqrt(d))
    g <- expand.grid(1:side, 1:side)
    t(sapply(seq_len(n), function(i) {
      c0 <- runif(2, 1, side)
      w <- runif(1, 2, side / 3)
      exp(-((g[, 1] - c0[1])^2 + (g[, 2] - c0[2])^2) / (2 * w^2)) + 0.05 * runif(nrow(g))
    }))
  })

res <- list()
for (s in seeds) {
  set.seed(s * 7919)
  fam <- sample(names(outside), 1)
  n <- sample(c(30, 80, 150), 1)
  d <- sample(c(1500, 4000, 8000), 1)
  r <- sample(c(0.3, 1, 1, 3), 1)
  X <- corpus_scale(outside[[fam]](n, d, s), r)
  b <- baseline_greedy(X, targets, cap = 1500)
  rd <- attsparse_rand(X, seed = s)
  for (i in seq_along(targets)) {
    t0 <- proc.time()[["elapsed"]]
    g <- suppressWarnings(attsparse_greedy(X, rel = targets[i]))
    res[[length(res) + 1]] <- data.frame(seed = s, family = fam, n = nrow(X), d = ncol(X), r = r, target = targets[i],
      k = length(g$index), rel = g$rel_error, time = proc.time()[["elapsed"]] - t0, base_k = b$k[i],
      rand_k = ncol(rd$Y), rand_rel = rd$rel_error, rand_est = rd$rel_estimate)
  }
  cat(sprintf("%d %s %d x %d, r %g\n", s, fam, nrow(X), ncol(X), r))
  write.csv(do.call(rbind, res), args[3], row.names = FALSE)   # after every instance: a long run can be stopped
}
report_against_baseline(do.call(rbind, res), "family")
