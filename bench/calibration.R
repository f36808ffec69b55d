# calibration.R: the exact error of one Poisson draw with and without the calibrations the target
# mode tries when it has X X': to X's squared norm (all weights times tr(X X') / tr(Y Y'), the ratio
# estimator) and to the rows' squared norms (raking: weight_j^2 times exp(sum_i lambda_i x_ij^2), the
# diagonal of Y Y' that of X X'; only where the draw keeps at least a column per row). Not part of
# the package: a measurement of why the calibration helps, drawn here in R (raking by Newton's
# method in R), independent of the core.
#
# Per instance: Poisson sampling with norm probabilities, expected m = 20, 80, 320 draws, seeds 1-20;
# the median exact rel of the draw as drawn (weights 1 / q), calibrated to the squared norm, and
# raked (over the seeds where raking reaches the rows' totals: how many in brackets).
# Usage: Rscript bench/calibration.R [FAMILY:I ...]   (the I-th instance of a family of the full
#   corpus, bench/corpus.R; default: the first instance of five families and four spectra; RLIB: the library)
source("bench/setup.R")   # baseline.R: log_softmax_rows, rel_exact

args <- commandArgs(TRUE)
if (!length(args)) args <- c(paste0("spectra:", 1:4), "lowrank:1", "counts:1", "docterm:1", "expression:1", "clustered:1")
inst <- corpus_instances("full")

# Raking weights b (the draw's, on the terms of Y Y') to the rows' totals rs: b_j exp(z_j' lambda),
# z_j the squared entries of column j; Newton's method on the dual; NULL when it does not get there.
rake <- function(Z, b, rs) {
  lam <- rep(0, nrow(Z))
  for (it in 1:50) {
    a <- b * exp(drop(crossprod(Z, lam))); g <- drop(Z %*% a) - rs
    if (!all(is.finite(g))) return(NULL)
    if (max(abs(g) / rs) < 1e-7) return(a)
    step <- tryCatch(solve(Z %*% (a * t(Z)), g), error = function(e) NULL)
    if (is.null(step)) return(NULL)
    lam <- lam - step
  }
  NULL
}

one_instance <- function(name, ms = c(20, 80, 320), seeds = 1:20) {
  f <- strsplit(name, ":")[[1]]
  row <- inst[inst$family == f[1], ][as.integer(f[2]), ]
  X <- as.matrix(corpus_build(row)); d <- ncol(X)
  lA <- log_softmax_rows(tcrossprod(X)); rs <- rowSums(X^2)
  nr <- colSums(X^2); p <- nr / sum(nr)
  for (m in ms) {
    v <- vapply(seeds, function(s) {
      set.seed(s)
      q <- pmin(1, m * p); keep <- which(runif(d) < q)
      Xs <- X[, keep, drop = FALSE]
      H <- tcrossprod(Xs * rep(sqrt(1 / q[keep]), each = nrow(X)))
      a <- if (length(keep) >= nrow(X) && all(rs > 0)) rake(Xs^2, 1 / q[keep], rs) else NULL
      c(length(keep), rel_exact(H, lA), rel_exact(H * sum(nr) / sum(diag(H)), lA),
        if (is.null(a)) NA else rel_exact(tcrossprod(Xs * rep(sqrt(a), each = nrow(X))), lA))
    }, numeric(4))
    raked <- sum(!is.na(v[4, ]))
    cat(sprintf("| %s | %d | %.0f | %.3g%% | %.3g%% | %s |\n", substr(row$id, 1, 70), m, median(v[1, ]),
                100 * median(v[2, ]), 100 * median(v[3, ]),
                if (raked) sprintf("%.3g%% (%d)", 100 * median(v[4, ], na.rm = TRUE), raked) else "-"))
  }
}
cat("| instance | m | k median | rel as drawn | to the squared norm | raked (seeds) |\n|---|---|---|---|---|---|\n")
for (a in args) one_instance(a)
