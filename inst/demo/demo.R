# demo.R: run both algorithms on the built-in default input (and on ALL when installed),
# print the metrics table. Run: Rscript inst/demo/demo.R  (or make demo)
suppressPackageStartupMessages({ library(attsparse); library(Matrix) })
options(width = 200)

row_of <- function(label, res) {
  data.frame(input = label, method = res$method, m = res$m, k = length(res$index),
             inf = signif(res$error, 3), rel = sprintf("%.3g%%", 100 * res$rel_error),
             baseline = sprintf("%.3g%%", 100 * res$baseline), eps_spectral = signif(res$eps_spectral, 3),
             bound = sprintf("%.3g%%", 100 * res$bound), time_s = signif(res$time, 3),
             check.names = FALSE)
}

run_input <- function(label, X) {
  cat(sprintf("\n%s: %d x %d %s, max|XX'| = %.3g\n", label, nrow(X), ncol(X),
              if (inherits(X, "sparseMatrix")) "sparse" else "dense", max(abs(as.matrix(tcrossprod(X))))))
  rows <- list(row_of(label, attsparse_rand(X, seed = 1)))
  rows[[2]] <- row_of(label, attsparse_det(X, eps = 0.5))
  print(do.call(rbind, rows), row.names = FALSE)
}

cat("attsparse demo: Y = rescaled columns of X with row-softmax(YY') ~ row-softmax(XX')\n")
cat("inf = max|Att(Y)-Att(X)| (the paper's metric), rel = max|Att(Y)/Att(X)-1|,\n")
cat("baseline = rel of uniform attention (Y = 0), bound = exp(2 eps max G_ii) - 1 >= rel\n")
run_input("example (n=100, d=20000, r=0.05)", attsparse_example())
if (requireNamespace("ALL", quietly = TRUE) && requireNamespace("Biobase", quietly = TRUE)) {
  e <- new.env(); utils::data("ALL", package = "ALL", envir = e)
  X <- t(Biobase::exprs(e$ALL)); X <- sweep(X, 2, colMeans(X))
  run_input("ALL (genes, centred, max G_ii = 1)", X / sqrt(max(rowSums(X^2))))
}
