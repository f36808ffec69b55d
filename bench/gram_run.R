# gram_run.R: one exact-Gram run of make bench-gram in R: attsparse::gram or Matrix::tcrossprod (each then chol),
# or attsparse_rand with error = TRUE / FALSE. Run: Rscript bench/gram_run.R FILE gram|tcrossprod|rand-error|rand-noerror
source("bench/rand_common.R")
suppressPackageStartupMessages(library(attsparse))
args <- commandArgs(trailingOnly = TRUE)
X <- read_asbin(args[1])
what <- args[2]
ridge <- function(G) G + diag(1e-10 * sum(diag(G)) / nrow(G), nrow(G))
if (what %in% c("gram", "tcrossprod")) {
  t0 <- proc.time()[["elapsed"]]
  G <- if (what == "gram") gram(X) else as.matrix(Matrix::tcrossprod(X))
  tg <- proc.time()[["elapsed"]] - t0
  t0 <- proc.time()[["elapsed"]]
  L <- chol(ridge(G))
  tc <- proc.time()[["elapsed"]] - t0
  cat(sprintf("gram_run: %s %s: gram %.3f s, chol %.3f s\n", basename(args[1]), what, tg, tc))
} else {
  err <- what == "rand-error"
  t0 <- proc.time()[["elapsed"]]
  fit <- attsparse_rand(X, seed = 1, error = err)
  t1 <- proc.time()[["elapsed"]] - t0
  cat(sprintf("gram_run: %s attsparse_rand error=%s: %.3f s, k = %d, rel_error %s\n", basename(args[1]),
              err, t1, length(fit$index), format(fit$rel_error, digits = 3)))
  # the README's rule: the passes' work (sketch and scores, (s + s2) nnz; the sketch's factor), set
  # against the exact Gram's that gram_bench prints (bench/gram_rule.awk)
  n <- nrow(X)
  s2 <- if (is.na(fit$s2)) 0 else fit$s2
  nnz <- if (inherits(X, "sparseMatrix")) length(X@x) else length(X)
  w_rand <- (fit$s + s2) * nnz + (4 * n + 16) * n^2 / 2 + n^3 / 3
  cat(sprintf("gram_run: %s work: sampling %.3g multiply-adds\n", basename(args[1]), w_rand))
}
