# ooc-child.R: the larger-than-memory runs of the tests and bench/ooc.R, each in its own R process so
# that its peak resident memory (VmHWM) is its own.
#   Rscript ooc-child.R write FILE N D      an N x D dense HDF5 dataset "X", written a block at a time
#   Rscript ooc-child.R run FILE WORKERS [BLOCK_COLUMNS]   attsparse_rand on HDF5Array(FILE, "X")
#   Rscript ooc-child.R read FILE WORKERS [BLOCK_COLUMNS]  one read: blockApply of colSums
#   Rscript ooc-child.R target FILE WORKERS [BLOCK_COLUMNS] [RDS]   attsparse_rand(rel = 0.05) on the HDF5Array
#   Rscript ooc-child.R target-mem FILE WORKERS [BLOCK_COLUMNS] [RDS] the same on X read into memory whole
# (target and target-mem save index, weight and the estimate to RDS, for the caller to compare)
# run and read print one line "ooc: key=value ..." (time_s, vmhwm_mb, base_mb: VmRSS before the
# work, x_mb: the dense size of X).
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages({
  library(attsparse)
  library(HDF5Array)
  library(BiocParallel)
})
status_mb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) / 1024
}
mode <- args[[1L]]
f <- args[[2L]]
if (mode == "write") {
  n <- as.integer(args[[3L]])
  d <- as.integer(args[[4L]])
  sink <- HDF5RealizationSink(c(n, d), type = "double", filepath = f, name = "X",
                              chunkdim = c(n, min(d, 4096L)), level = 0L)
  grid <- RegularArrayGrid(c(n, d), c(n, min(d, 16384L)))
  for (b in seq_along(grid)) {
    vp <- grid[[b]]
    set.seed(b)
    w <- width(vp)[2L]
    blk <- matrix(rnorm(n * w, sd = 0.02), n, w)
    # every 5000th column heavy: Poisson keeps it (q = 1)
    heavy <- which((start(vp)[2L] + seq_len(w) - 1L) %% 5000L == 0L)
    blk[, heavy] <- blk[, heavy] * 20
    write_block(sink, vp, blk)
  }
  close(sink)
  cat(sprintf("ooc: wrote %d x %d (%.0f MB) to %s\n", n, d, 8 * n * d / 2^20, f))
  quit(status = 0)
}
workers <- as.integer(args[[3L]])
block_columns <- if (length(args) >= 4L) as.numeric(args[[4L]]) else 16384
rds <- if (length(args) >= 5L) args[[5L]] else ""
BP <- if (workers > 1) MulticoreParam(workers) else SerialParam()
X <- HDF5Array(f, "X")
x_mb <- 8 * prod(dim(X)) / 2^20
base <- status_mb("VmRSS")
t0 <- proc.time()[["elapsed"]]
if (mode == "run") {
  r <- attsparse_rand(X, m = 4 * nrow(X), seed = 1, sampling = "poisson", error = FALSE,
                      BPPARAM = BP, block_columns = block_columns)
  extra <- sprintf("k=%d blocks=%d reads=%d rel_estimate=%.4g", r$k, r$blocks, r$reads, r$rel_estimate)
} else if (mode %in% c("target", "target-mem")) {
  if (mode == "target-mem") X <- as.matrix(X)
  r <- if (mode == "target") attsparse_rand(X, rel = 0.05, seed = 1, error = FALSE, BPPARAM = BP,
                                            block_columns = block_columns) else
    attsparse_rand(X, rel = 0.05, seed = 1, error = FALSE)
  if (nzchar(rds)) saveRDS(list(index = r$index, weight = r$weight, rel_estimate = r$rel_estimate), rds)
  extra <- sprintf("k=%d blocks=%d reads=%d rounds=%d m=%.0f rel_estimate=%.4g", r$k,
                   if (is.null(r$blocks)) 0L else r$blocks, if (is.null(r$reads)) 0L else r$reads, r$rounds, r$m,
                   r$rel_estimate)
} else {
  setAutoBlockSize(8 * nrow(X) * block_columns)
  s <- blockApply(X, colSums, grid = colAutoGrid(X), BPPARAM = BP)
  extra <- sprintf("k=0 blocks=%d", length(s))
}
time <- proc.time()[["elapsed"]] - t0
cat(sprintf("ooc: mode=%s time_s=%.2f vmhwm_mb=%.0f base_mb=%.0f x_mb=%.0f workers=%d %s\n", mode, time,
            status_mb("VmHWM"), base, x_mb, workers, extra))
