# greedy_scale.R: the greedy method at scale, side by side with the target mode and the exact Gram in one
# R process (make bench-greedy-scale): per input and target, gram(X)'s time (median of 3 runs), then
# attsparse_greedy(X, rel = t) and attsparse_rand(X, rel = t, seed = 1): columns kept, exact rel (the
# greedy method's is its certificate; the target mode's is computed here against gram(X)), wall time, the
# time over gram(X)'s, and the peak resident memory the call added (VmHWM, reset before each call, less
# the resident memory before it). On the 1000 x 200000 and 2000 x 500000 (--big) inputs the greedy method
# takes its sample path by itself; a second table has that path forced (approach = "sample", seed 1) on the
# 200-row Zipf-like inputs, beside the rounds. One more row: option refit = TRUE on a sample of m = 20000 columns.
# Usage: Rscript bench/greedy_scale.R DIR [--big FILE] [--doc FILE]
#   DIR holds the sparse inputs (written by core_tool gen-sparse, see bench/greedy_scale.mk); --doc FILE:
#   the table replaces FILE's region between "<!-- scale table begin -->" and "<!-- scale table end -->".
args <- commandArgs(TRUE)
dir <- args[1]
doc <- if ("--doc" %in% args) args[match("--doc", args) + 1] else NA
big <- if ("--big" %in% args) args[match("--big", args) + 1] else NA
lib <- Sys.getenv("RLIB", "build/Rlib")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({library(attsparse); library(Matrix)})
source("bench/rand_common.R")

# The inputs: name, how to get X, targets
inputs <- list(
  list(name = "Zipf-like 200 x 10000, 1e5 nonzeros", x = function() read_asbin(file.path(dir, "zipf10k.bin")),
       targets = 0.05, sparse = TRUE),
  list(name = "Zipf-like 200 x 20000, 2e5 nonzeros", x = function() read_asbin(file.path(dir, "zipf20k.bin")),
       targets = 0.05, sparse = TRUE),
  list(name = "Zipf-like 200 x 50000, 5e5 nonzeros", x = function() read_asbin(file.path(dir, "zipf50k.bin")),
       targets = 0.05, sparse = TRUE),
  list(name = "ALL 128 x 12625 (dense)", x = function() attsparse:::demo_data("ALL"), targets = c(0.02, 0.01)),
  list(name = "example 500 x 20000 (dense)", x = function() attsparse_example(500, 20000, seed = 1),
       targets = 0.02),
  list(name = "example 1000 x 50000 (dense)", x = function() attsparse_example(1000, 50000, seed = 1),
       targets = 0.02),
  list(name = "example 2000 x 10000 (dense)", x = function() attsparse_example(2000, 10000, seed = 1),
       targets = 0.02),
  list(name = "Zipf-like 1000 x 200000, 2e7 nonzeros", x = function() read_asbin(file.path(dir, "zipf1k200k.bin")),
       targets = c(0.05, 0.02))
)
if (!is.na(big))
  inputs[[length(inputs) + 1]] <- list(name = "Zipf-like 2000 x 500000, 5e7 nonzeros", x = function() read_asbin(big),
                                       targets = 0.05)

timed <- function(expr) {
  before <- mem_now()[["rss"]]
  mem_reset()
  t0 <- proc.time()[["elapsed"]]
  v <- expr
  list(v = v, s = proc.time()[["elapsed"]] - t0, mb = max(0, mem_now()[["hwm"]] - before))
}

`%||%` <- function(a, b) if (is.null(a)) b else a
rows <- list()
sample_rows <- list()
for (inp in inputs) {
  X <- inp$x()
  gt <- lapply(1:3, function(r) timed(gram(X)))
  G <- gt[[1]]$v
  tg <- median(sapply(gt, `[[`, "s"))
  cat(sprintf("%s: gram() %.3f s\n", inp$name, tg))
  for (t in inp$targets) {
    g <- timed(attsparse_greedy(X, rel = t, seed = 1))   # the seed: the sample path's draws (the rounds use none)
    if (inp$sparse %||% FALSE) for (ts in c(t, 0.02)) {
      sp <- timed(attsparse_greedy(X, rel = ts, approach = "sample", seed = 1))
      sample_rows[[length(sample_rows) + 1]] <- sprintf("| %s | %g%% | %d | %s | %.2f | %.0f | %.0f |", inp$name,
        100 * ts, ncol(sp$v$Y), sprintf("%.3g%%", 100 * sp$v$rel_error), sp$s, sp$s / tg, sp$mb)
      cat(sample_rows[[length(sample_rows)]], "\n")
    }
    r <- timed(attsparse_rand(X, rel = t, seed = 1, error = FALSE))
    ry <- r$v$Y   # sparse for a sparse X: its Gram by gram(), no dense copy
    rows[[length(rows) + 1]] <- data.frame(
      input = inp$name, target = sprintf("%g%%", 100 * t), gram_s = tg,
      greedy_k = ncol(g$v$Y), greedy_rel = g$v$rel_error, greedy_s = g$s, greedy_x = g$s / tg, greedy_mb = g$mb,
      target_k = ncol(ry), target_rel = rel_error(G, gram(ry)), target_s = r$s, target_x = r$s / tg,
      target_mb = r$mb)
    cat(sprintf("  %g%%: greedy k %d rel %.3g%% %.1f s (%.0fx gram, +%.0f MB); target mode k %d rel %.3g%% %.2f s\n",
                100 * t, ncol(g$v$Y), 100 * g$v$rel_error, g$s, g$s / tg, g$mb, ncol(ry),
                100 * rows[[length(rows)]]$target_rel, r$s))
  }
}
# refit = TRUE on a large sample: the K-free refit's memory
X <- read_asbin(file.path(dir, "zipf20k.bin"))
s0 <- timed(attsparse_rand(X, m = 20000, seed = 1))
f <- timed(attsparse_rand(X, m = 20000, seed = 1, refit = TRUE))
refit_row <- sprintf("| `attsparse_rand(X, m = 20000, seed = 1, refit = TRUE)` on the Zipf-like 200 x 20000 | %d columns, rel %.3g%% (the sample: %d, %.3g%%) | %.1f s | +%.0f MB |",
                     length(f$v$index), 100 * f$v$rel_error, length(s0$v$index), 100 * s0$v$rel_error, f$s, f$mb)
cat(refit_row, "\n")

tab <- do.call(rbind, rows)
pct <- function(x) sprintf("%.3g%%", 100 * x)
lines <- c(
  sprintf("Measured by `make bench-greedy-scale` (%s, %d cores, one R process; times in seconds, `x gram` the",
          format(Sys.Date()), parallel::detectCores()),
  "time over `gram(X)`'s, memory the peak resident memory the call added):",
  "",
  "| input | target | `gram()` s | greedy k | greedy rel | greedy s | x gram | MB | target mode k | its rel | s | x gram | MB |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  sprintf("| %s | %s | %.3f | %d | %s | %.1f | %.0f | %.0f | %d | %s | %.2f | %.0f | %.0f |", tab$input, tab$target,
          tab$gram_s, tab$greedy_k, pct(tab$greedy_rel), tab$greedy_s, tab$greedy_x, tab$greedy_mb, tab$target_k,
          pct(tab$target_rel), tab$target_s, tab$target_x, tab$target_mb),
  "",
  "The sample path forced (`approach = \"sample\"`, seed 1) on the same inputs:",
  "",
  "| input | target | k | rel | s | x gram | MB |",
  "|---|---|---|---|---|---|---|",
  unlist(sample_rows),
  "",
  "| call | result | time | memory |",
  "|---|---|---|---|",
  refit_row)
writeLines(lines, file.path(dir, "scale-table.md"))
cat(lines, sep = "\n")
if (!is.na(doc)) {
  d <- readLines(doc)
  a <- grep("<!-- scale table begin -->", d, fixed = TRUE)
  b <- grep("<!-- scale table end -->", d, fixed = TRUE)
  stopifnot(length(a) == 1, length(b) == 1, a < b)
  writeLines(c(d[1:a], lines, d[b:length(d)]), doc)
}
