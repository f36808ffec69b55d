# rand_run.R: one method of the randomized-algorithm benchmark on one input, in R; appends result lines to a TSV.
# Run: R_LIBS=build/Rlib Rscript bench/rand_run.R DIR INPUT METHOD SIZES BUDGET OUT
#   METHOD rand (SIZES: draws m, 0 = default), det (eps), gram, gauss (k columns)
#   SIZES  comma-separated, run in order; a sweep stops once rel <= 1% or once the
#          next run would pass BUDGET seconds (a det run is stopped at BUDGET)
# Each run: time of the method alone (error = FALSE; inputs loaded before), resident
# memory before it, its peak (VmHWM reset before the run), and the rel error of its Y
# against the exact Gram (computed afterwards, not timed).
source("bench/rand_common.R")
suppressPackageStartupMessages(library(attsparse))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[[1]]; input <- args[[2]]; method <- args[[3]]
sizes <- as.numeric(strsplit(args[[4]], ",")[[1]])
budget <- as.numeric(args[[5]]); out <- args[[6]]

X <- read_asbin(file.path(dir, paste0(input, ".bin")))
n <- nrow(X); d <- ncol(X)
G <- read_gram(file.path(dir, paste0(input, ".G")), n)
size_x <- object_mb(X)
elapsed <- function() proc.time()[["elapsed"]]

# Gaussian projection Y = X Omega / sqrt(k), Omega d x k drawn block by block
# (never all of it in memory); the draws are part of the method's time.
gauss_project <- function(X, k) {
  block <- max(1, min(8192, floor(2^24 / k)))   # Omega blocks of at most 128 MiB
  Y <- matrix(0, nrow(X), k)
  for (b in split(seq_len(ncol(X)), ceiling(seq_len(ncol(X)) / block))) {
    Om <- matrix(rnorm(length(b) * k), length(b), k)
    Y <- Y + as.matrix(X[, b, drop = FALSE] %*% Om)
  }
  Y / sqrt(k)
}

run_one <- function(size) {
  set.seed(1)
  invisible(gc())
  mem_reset()
  before <- mem_now()[["rss"]]
  status <- "ok"
  t0 <- elapsed()
  # BSS and the projection stop at the budget (R checks it between calls and at the core's
  # interrupt checks); the others always run to the end
  if (method %in% c("det", "gauss")) setTimeLimit(elapsed = budget, transient = TRUE)
  Y <- tryCatch(switch(method,
    rand = attsparse_rand(X, m = if (size > 0) size else NULL, seed = 1, error = FALSE)$Y,
    det = attsparse_det(X, eps = size, error = FALSE)$Y,
    gram = {
      GX <- if (inherits(X, "sparseMatrix")) Matrix::tcrossprod(X) else tcrossprod(X)
      R <- suppressWarnings(chol(as.matrix(GX), pivot = TRUE))   # pivoted: rank-deficient X too
      t(R[, order(attr(R, "pivot")), drop = FALSE])              # Y Y' = X X', k = n
    },
    gauss = gauss_project(X, size)),
    error = function(e) { status <<- paste("stopped:", conditionMessage(e)); NULL })
  time <- elapsed() - t0
  setTimeLimit(elapsed = Inf)
  peak <- mem_now()[["hwm"]]
  rel <- if (is.null(Y)) NA else rel_error(G, gram_blocked(Y))
  k <- if (is.null(Y)) NA else ncol(Y)
  line <- data.frame(frontend = "R", input = input, n = n, d = d,
                     nnz = if (inherits(X, "sparseMatrix")) length(X@x) else n * d,
                     method = method, param = size, k = k, time = round(time, 3), rel = signif(rel, 4),
                     size_x_mb = round(size_x, 1), rss_before_mb = round(before, 1), peak_mb = round(peak, 1),
                     extra_mb = round(peak - before, 1),
                     y_mb = if (is.null(Y)) NA else round(object_mb(Y), 1), status = gsub("[\t\n]", " ", status))
  write.table(line, out, sep = "\t", quote = FALSE, row.names = FALSE, col.names = !file.exists(out),
              append = file.exists(out))
  message(sprintf("R %s %s %g: k %s, %.2f s, rel %.3g, +%.0f MiB over %.0f MiB resident (X: %.0f MiB) %s",
                  input, method, size, k, time, rel, peak - before, before, size_x, status))
  list(time = time, rel = rel)
}

for (i in seq_along(sizes)) {
  r <- run_one(sizes[[i]])
  if (is.na(r$rel) || r$rel <= 0.01) break
  if (i < length(sizes) && r$time * sizes[[i + 1]] / max(sizes[[i]], 1e-9) > budget && method != "det") break
}
