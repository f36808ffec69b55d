# target_time.R: the time of target mode against one default run on the benchmark's large sparse input
# (make bench-target): attsparse_rand(X, error = FALSE) and attsparse_rand(X, rel = target, error = FALSE),
# run back to back REPS times in one R session; the call's wall time (what the user waits for, Y built)
# and the core's own `time` (sampling and estimate, without building Y), their medians and ratios.
# Run: Rscript bench/target_time.R FILE REPS TARGET...
source("bench/rand_common.R")
suppressPackageStartupMessages(library(attsparse))
args <- commandArgs(trailingOnly = TRUE)
X <- read_asbin(args[1])
reps <- as.integer(args[2])
targets <- as.numeric(args[-(1:2)])
cat(sprintf("target mode against the default run: %s, %d x %d, %d nonzeros, %d cores; %d runs each, back to back\n",
            basename(args[1]), nrow(X), ncol(X), length(X@x), parallel::detectCores(), reps))
wall <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  fit <- expr
  list(fit = fit, wall = proc.time()[["elapsed"]] - t0)
}
rows <- list()
for (r in seq_len(reps)) {
  d <- wall(attsparse_rand(X, seed = 1, error = FALSE))
  rows[[length(rows) + 1]] <- data.frame(run = "default", rep = r, wall = d$wall, time = d$fit$time,
                                         k = length(d$fit$index), est = NA_real_, rounds = 1L)
  for (tg in targets) {
    f <- wall(attsparse_rand(X, rel = tg, seed = 1, error = FALSE))
    rows[[length(rows) + 1]] <- data.frame(run = sprintf("rel = %g", tg), rep = r, wall = f$wall, time = f$fit$time,
                                           k = length(f$fit$index), est = f$fit$rel_estimate, rounds = f$fit$rounds)
  }
}
tab <- do.call(rbind, rows)
for (i in seq_len(nrow(tab)))
  cat(sprintf("  %-10s run %d: wall %6.2f s, time %6.2f s, k = %6d%s\n", tab$run[i], tab$rep[i], tab$wall[i],
              tab$time[i], tab$k[i], if (is.na(tab$est[i])) "" else
              sprintf(", rel_estimate %.3g%% after %d rounds", 100 * tab$est[i], tab$rounds[i])))
def <- tab[tab$run == "default", ]
cat("medians (ratio to the default run's):\n")
for (run in unique(tab$run)) {
  s <- tab[tab$run == run, ]
  cat(sprintf("  %-10s wall %6.2f s (%.2fx), time %6.2f s (%.2fx), k = %d\n", run, median(s$wall),
              median(s$wall) / median(def$wall), median(s$time), median(s$time) / median(def$time), median(s$k)))
}
