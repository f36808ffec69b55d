# ooc.R: larger-than-memory benchmark: attsparse_rand on an HDF5-backed n x d matrix against one read
# of it (blockApply of colSums), time and peak resident memory, each run in its own R process.
# Usage: Rscript bench/ooc.R N D FILE [WORKERS...]   (the file is written once, kept when it exists)
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[[1L]])
d <- as.integer(args[[2L]])
f <- args[[3L]]
workers <- if (length(args) > 3L) as.integer(args[-(1:3)]) else c(1L, 2L)
child <- "inst/scripts/ooc-child.R"
rscript <- file.path(R.home("bin"), "Rscript")
run_child <- function(...) {
  out <- system2(rscript, c(child, ...), stdout = TRUE, stderr = TRUE)
  line <- grep("^ooc:", out, value = TRUE)
  if (length(line) != 1L) stop(paste(c("child failed:", out), collapse = "\n"))
  kv <- strsplit(sub("^ooc: ", "", line), " ")[[1]]
  stats::setNames(sub(".*=", "", kv), sub("=.*", "", kv))
}
if (!file.exists(f)) {
  t0 <- proc.time()[["elapsed"]]
  out <- system2(rscript, c(child, "write", f, n, d), stdout = TRUE, stderr = TRUE)
  cat(out, sep = "\n")
  cat(sprintf("written in %.1f s\n", proc.time()[["elapsed"]] - t0))
}
rows <- list()
for (w in workers) for (mode in c("read", "run")) {
  r <- run_child(mode, f, w)
  rows[[length(rows) + 1L]] <- r
}
tab <- do.call(rbind, lapply(rows, function(r) data.frame(
  mode = r[["mode"]], workers = as.integer(r[["workers"]]), time_s = as.numeric(r[["time_s"]]),
  peak_mb = as.numeric(r[["vmhwm_mb"]]), start_mb = as.numeric(r[["base_mb"]]),
  x_mb = as.numeric(r[["x_mb"]]), k = as.integer(r[["k"]]), blocks = as.integer(r[["blocks"]]))))
tab$vs_read <- NA_real_
for (w in unique(tab$workers)) {
  i <- tab$workers == w
  tab$vs_read[i] <- round(tab$time_s[i] / tab$time_s[i & tab$mode == "read"], 2)
}
cat(sprintf("attsparse_rand (Poisson, m = 4n, error = FALSE) on an HDF5Array %d x %d (%.0f MB dense), ",
            n, d, 8 * n * d / 2^20), "blocks of 16384 columns, MulticoreParam(workers) or SerialParam:\n", sep = "")
print(tab, row.names = FALSE)
cat("peak_mb: VmHWM of the R process (workers are forked: each has its own); start_mb: VmRSS before the work\n")
