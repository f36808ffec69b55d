# rand_prepare.R: the real data sets as ASBIN001 files, and the exact Gram of every benchmark input (for rel errors).
# Run: R_LIBS=build/Rlib Rscript bench/rand_prepare.R build/bench dense sparse ALL golub crude acq
source("bench/rand_common.R")
args <- commandArgs(trailingOnly = TRUE)
dir <- args[[1]]
for (name in args[-1]) {
  bin <- file.path(dir, paste0(name, ".bin"))
  gfile <- file.path(dir, paste0(name, ".G"))
  if (!file.exists(bin)) {
    X <- attsparse:::demo_data(name)      # rows scaled so max G_ii = 1
    if (is.null(X)) { message("rand_prepare: ", name, ": data package missing, skipped"); next }
    write_asbin(X, bin)
  }
  if (file.exists(gfile) && file.mtime(gfile) >= file.mtime(bin)) next
  X <- read_asbin(bin)
  t0 <- proc.time()[["elapsed"]]
  G <- gram_blocked(X)
  writeBin(as.double(G), gfile)
  message(sprintf("rand_prepare: %s: %d x %d, %s, exact Gram (for scoring) in %.1f s",
                  name, nrow(X), ncol(X),
                  if (inherits(X, "sparseMatrix")) sprintf("%d nonzeros", length(X@x)) else "dense",
                  proc.time()[["elapsed"]] - t0))
}
