# ooc.R: larger-than-memory benchmark: attsparse_rand (a fixed m, and target mode rel = 0.05) on an HDF5-backed n x d matrix against one read
# of it (blockApply of colSums), time and peak resident memory, each run in its own R process.
# Usage: Rscript bench/ooc.R N D FILE [WORKERS...]   (the file is written once, kept when it exists)
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[[1L]])
d <- as.integer(args[[2L]])
f <- args[[3L]]
workers <- if (length(args) > 3L) as.integer(args[-(1:3)]) else c(1L, 2L)
child <- "inst/scripts/ooc-child.R"
rscript <- file.path(R.home("bin"), "Rscript")
get <- function(r, key) if (key %in% names(r)) r[[key]] else "-"
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
for (w in workers) for (mode in c("read", "run", "target")) {
  r <- run_child(mode, f, w, 16384, file.path(tempdir(), sprintf("%s-%d.rds", mode, w)))
  rows[[length(rows) + 1L]] <- r
}
# target mode on X read into memory whole: the same index, weight and estimate, bit for bit
mem <- run_child("target-mem", f, 1, 16384, file.path(tempdir(), "target-mem.rds"))
tab <- do.call(rbind, lapply(rows, function(r) data.frame(
  mode = r[["mode"]], workers = as.integer(r[["workers"]]), time_s = as.numeric(r[["time_s"]]),
  peak_mb = as.numeric(r[["vmhwm_mb"]]), start_mb = as.numeric(r[["base_mb"]]),
  x_mb = as.numeric(r[["x_mb"]]), k = as.integer(r[["k"]]), blocks = as.integer(r[["blocks"]]))))
tab$vs_read <- NA_real_
for (w in unique(tab$workers)) {
  i <- tab$workers == w
  tab$vs_read[i] <- round(tab$time_s[i] / tab$time_s[i & tab$mode == "read"], 2)
}
cat(sprintf("attsparse_rand on an HDF5Array %d x %d (%.0f MB dense): run: Poisson, m = 4n; target: rel = 0.05; error = FALSE; ",
            n, d, 8 * n * d / 2^20), "blocks of 16384 columns, MulticoreParam(workers) or SerialParam:\n", sep = "")
print(tab, row.names = FALSE)
cat("peak_mb: VmHWM of the R process (workers are forked: each has its own); start_mb: VmRSS before the work\n")
for (r in rows[tab$mode == "target"])
  cat(sprintf("target (rel = 0.05, error = FALSE), %s worker(s): %s s, %s reads of X, %s rounds, k = %s, m = %s, rel_estimate %s\n",
              get(r, "workers"), get(r, "time_s"), get(r, "reads"), get(r, "rounds"), get(r, "k"), get(r, "m"),
              get(r, "rel_estimate")))
ref <- readRDS(file.path(tempdir(), "target-mem.rds"))
same <- vapply(workers, function(w) identical(readRDS(file.path(tempdir(), sprintf("target-%d.rds", w))), ref), NA)
cat(sprintf("target in memory (X read whole, %.0f MB): %.2f s, k = %s, rounds %s; by blocks bit-identical to it (index, weight, rel_estimate): %s\n",
            as.numeric(mem[["x_mb"]]), as.numeric(mem[["time_s"]]), mem[["k"]], mem[["rounds"]],
            paste(sprintf("%d worker(s) %s", workers, ifelse(same, "yes", "NO")), collapse = ", ")))
