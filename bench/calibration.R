# calibration.R: the exact error of one Poisson draw with and without the calibration the target
# mode applies when it has X X' (all weights times tr(X X') / tr(Y Y'), the ratio estimator: Y given
# X's squared norm). Not part of the package: a measurement of why the calibration helps, drawn here
# in R, independent of the core.
#
# Per instance: Poisson sampling with norm probabilities, expected m = 20, 80, 320 draws, seeds 1-20;
# the median exact rel of the draw as drawn (weights 1 / q) and calibrated, and their ratio.
# Usage: Rscript bench/calibration.R [FAMILY:I ...]   (the I-th instance of a family of the full
#   corpus, bench/corpus.R; default: the first instance of five families and four spectra; RLIB: the library)
source("bench/setup.R")   # baseline.R: log_softmax_rows, rel_exact

args <- commandArgs(TRUE)
if (!length(args)) args <- c(paste0("spectra:", 1:4), "lowrank:1", "counts:1", "docterm:1", "expression:1", "clustered:1")
inst <- corpus_instances("full")

one_instance <- function(name, ms = c(20, 80, 320), seeds = 1:20) {
  f <- strsplit(name, ":")[[1]]
  row <- inst[inst$family == f[1], ][as.integer(f[2]), ]
  X <- as.matrix(corpus_build(row)); d <- ncol(X)
  lA <- log_softmax_rows(tcrossprod(X))
  nr <- colSums(X^2); p <- nr / sum(nr)
  for (m in ms) {
    v <- vapply(seeds, function(s) {
      set.seed(s)
      q <- pmin(1, m * p); keep <- which(runif(d) < q)
      H <- tcrossprod(X[, keep, drop = FALSE] * rep(sqrt(1 / q[keep]), each = nrow(X)))
      c(length(keep), rel_exact(H, lA), rel_exact(H * sum(nr) / sum(diag(H)), lA))
    }, numeric(3))
    cat(sprintf("| %s | %d | %.0f | %.3g%% | %.3g%% | %.2f |\n", substr(row$id, 1, 70), m, median(v[1, ]),
                100 * median(v[2, ]), 100 * median(v[3, ]), median(v[2, ]) / median(v[3, ])))
  }
}
cat("| instance | m | k median | rel as drawn | rel calibrated | ratio |\n|---|---|---|---|---|---|\n")
for (a in args) one_instance(a)
