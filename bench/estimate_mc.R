# estimate_mc.R: how much of the default estimate's distance from the exact error is the union bound
# over entries, measured against a Gaussian multiplier bootstrap of the same linearization
# (Chernozhukov, Chetverikov and Kato 2013: the largest entry of a sum of independent terms, its
# quantile drawn with the terms' Gaussian multipliers). Not part of the package: a measurement.
#
# Per data set: the package's default mode attsparse_rand(X, seed = s) over 30 seeds (exact rel, its
# estimate); then i.i.d. leverage-score samples of the same m drawn here (exact leverage scores),
# each with its multiplier-bootstrap 95% quantile of max |exp(F) - 1| (F the row-centred error, the
# centre linearized with Att(Y)), 200 draws: its coverage and median over the exact error.
# Usage: Rscript bench/estimate_mc.R NAME ...   (a real data set's name as bench/corpus.R's gen_real
#   takes it, or FAMILY:I, the I-th instance of a family of the full corpus; RLIB: the library)
source("bench/setup.R")   # baseline.R: log_softmax_rows, rel_exact

load_set <- function(name) {
  if (!grepl(":", name)) return(list(id = name, X = as.matrix(gen_real(name))))
  f <- strsplit(name, ":")[[1]]
  inst <- corpus_instances("full"); inst <- inst[inst$family == f[1], ][as.integer(f[2]), ]
  list(id = inst$id, X = as.matrix(corpus_build(inst)))
}

one_set <- function(name, seeds = 1:30, draws = 200) {
  s <- load_set(name); X <- s$X; n <- nrow(X); d <- ncol(X)
  G <- tcrossprod(X); lA <- log_softmax_rows(G)
  pk <- t(vapply(seeds, function(k) { r <- attsparse_rand(X, seed = k); c(r$rel_error, r$rel_estimate, r$m) }, c(0, 0, 0)))
  m <- pk[1, 3]
  ev <- eigen(G, symmetric = TRUE); keep <- ev$values > 1e-10 * ev$values[1]
  p <- colSums((crossprod(ev$vectors[, keep, drop = FALSE], X) / sqrt(ev$values[keep]))^2)
  p <- p / sum(p)
  own <- t(vapply(seeds, function(k) {
    set.seed(1000 + k)
    cnt <- tabulate(sample.int(d, m, replace = TRUE, prob = p), d); j <- which(cnt > 0); cj <- cnt[j]
    H <- tcrossprod(X[, j] * rep(sqrt(cj / (m * p[j])), each = n)); AY <- exp(log_softmax_rows(H))
    Xt <- X[, j] * rep(1 / sqrt(p[j]), each = n)      # T_j = x_j x_j' / p_j, drawn c_j times
    mx <- vapply(seq_len(draws), function(b) {
      h <- sqrt(cj) * rnorm(length(j)) / sqrt(m * (m - 1))
      E <- tcrossprod(Xt * rep(h, each = n), Xt) - sum(h) * H   # sum_j h_j T_j - (sum h) H
      max(abs(expm1(E - rowSums(AY * E))))
    }, 0)
    c(rel_exact(H, lA), quantile(mx, 0.95))
  }, c(0, 0)))
  q95 <- function(v) unname(quantile(v, 0.95))
  cat(sprintf("%s (n %d, d %d, m %d, %d seeds)\n", s$id, n, d, m, length(seeds)))
  cat(sprintf("  package: exact median %.3g, its q95/median %.2f; estimate/exact median %.2f, coverage %.0f%%, median estimate/q95 %.2f\n",
              median(pk[, 1]), q95(pk[, 1]) / median(pk[, 1]), median(pk[, 2] / pk[, 1]),
              100 * mean(pk[, 2] >= pk[, 1]), median(pk[, 2]) / q95(pk[, 1])))
  cat(sprintf("  multiplier bootstrap: estimate/exact median %.2f, coverage %.0f%%, median estimate/q95 %.2f\n",
              median(own[, 2] / own[, 1]), 100 * mean(own[, 2] >= own[, 1]), median(own[, 2]) / q95(own[, 1])))
}

for (name in commandArgs(TRUE)) one_set(name)
