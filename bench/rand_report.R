# rand_report.R: the tables of the randomized-algorithm benchmark from build/bench/rand-runs.tsv and rand-procs.tsv.
options(width = 250)
# Run: Rscript bench/rand_report.R build/bench
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[[1]] else "build/bench"
runs <- read.delim(file.path(dir, "rand-runs.tsv"), stringsAsFactors = FALSE)
procs <- read.delim(file.path(dir, "rand-procs.tsv"), stringsAsFactors = FALSE,
                    colClasses = c(sizes = "character"))
runs$ok <- runs$status == "ok"

label <- function(method, param) {
  ifelse(method == "rand", ifelse(param == 0, "attsparse_rand (default m)", sprintf("attsparse_rand m=%g", param)),
  ifelse(method == "det", sprintf("attsparse_det eps=%g", param),
  ifelse(method == "gram", "exact Gram + chol (k = n)",
  ifelse(method == "gauss", sprintf("Gaussian projection k=%g", param),
         sprintf("sklearn SparseRandomProjection k=%g", param)))))
}
fmt_t <- function(t) ifelse(t < 10, sprintf("%.3f", t), sprintf("%.1f", t))
fmt_time <- function(t, status) ifelse(status == "ok", fmt_t(t),
  ifelse(grepl("^skipped", status), sub("^skipped: ", "not run: ", status),
  ifelse(grepl("^stopped", status), sprintf(">%.0f (stopped)", t),
         sprintf("%s (%s)", fmt_t(t), sub(":.*", "", status)))))
fmt_rel <- function(r) ifelse(is.na(r), "-", ifelse(r < 1e-3, sprintf("%.1e", r), sprintf("%.2f%%", 100 * r)))

describe <- function(r) {
  kind <- if (r$nnz[1] %in% c(NA) || r$nnz[1] < as.numeric(r$n[1]) * as.numeric(r$d[1])) "sparse" else "dense"
  sprintf("%s: %s x %s %s%s", r$input[1], r$n[1], r$d[1], kind,
          if (kind == "sparse") sprintf(", %.3g nonzeros", as.numeric(r$nnz[1])) else "")
}

cat("attsparse benchmark: wall time of the method alone (input loaded; error = FALSE),\n",
    "rel = max |Att(Y)/Att(X) - 1| against the exact Gram, memory: 'extra' = peak resident during the\n",
    "run minus resident before it (VmHWM reset before the run; includes the result Y, 'Y' its size),\n",
    "'process' = /usr/bin/time -v maximum resident set of the whole process (interpreter + loading X +\n",
    "run); size(X) as stored by the front-end.\n\n", sep = "")

for (input in unique(runs$input)) {
  r <- runs[runs$input == input & !is.na(runs$n), ]
  if (!nrow(r)) next
  r1 <- r[!is.na(r$nnz), ]
  cat("==", describe(if (nrow(r1)) r1 else r), "\n")
  sx <- tapply(r$size_x_mb, r$frontend, function(v) v[!is.na(v)][1])
  cat("   size(X):", paste(sprintf("%s %.0f MiB", names(sx), sx), collapse = ", "), "\n")
  # the main table: the one-size processes (default m, equal k, exact Gram, det eps 0.5 or its first run)
  one <- procs[procs$input == input & !grepl(",", procs$sizes), ]
  main <- merge(r, one[, c("frontend", "method", "sizes", "maxrss_mb")], all.x = TRUE,
                by.x = c("frontend", "method", "param"), by.y = c("frontend", "method", "sizes"))
  main <- main[!is.na(main$maxrss_mb) | grepl("^skipped", main$status), ]
  # BSS swept over eps: its run closest to eps = 0.5, per front-end not already in the table
  for (fe in unique(r$frontend[r$method == "det"])) {
    if (any(main$method == "det" & main$frontend == fe)) next
    sweep_det <- r[r$method == "det" & r$frontend == fe, ]
    dd <- sweep_det[which.min(abs(sweep_det$param - 0.5)), ]
    pr <- procs[procs$input == input & procs$frontend == fe & procs$method == "det", ]
    dd$maxrss_mb <- if (nrow(pr)) pr$maxrss_mb[1] else NA
    main <- rbind(main, dd[, names(main)])
  }
  if (is.null(main$y_mb)) main$y_mb <- NA
  order_m <- c(rand = 1, det = 2, gram = 3, gauss = 4, srp = 5)
  main <- main[order(order_m[main$method], main$frontend), ]
  tab <- data.frame(method = label(main$method, main$param), front_end = main$frontend,
                    k = ifelse(is.na(main$k), "-", format(main$k, big.mark = "")),
                    time_s = fmt_time(main$time, main$status), rel = fmt_rel(main$rel),
                    extra_MiB = ifelse(is.na(main$extra_mb), "-", sprintf("%.0f", main$extra_mb)),
                    Y_MiB = ifelse(is.na(main$y_mb), "-", sprintf("%.0f", main$y_mb)),
                    process_MiB = ifelse(is.na(main$maxrss_mb), "-", sprintf("%.0f", main$maxrss_mb)),
                    stringsAsFactors = FALSE)
  print(tab, row.names = FALSE, right = FALSE)
  n <- as.numeric(r$n[1]); s1 <- 4 * n + 16
  cat(sprintf("   attsparse_rand working arrays: sketch n x s1 = %.0f MiB, Gram/Cholesky n x n = %.0f MiB (s1 = 4n + 16)\n",
              8 * n * s1 / 2^20, 8 * n * n / 2^20))
  g <- main[main$method == "gram" & main$ok, ]
  rd <- main[main$method == "rand" & main$ok, ]
  for (fe in intersect(g$frontend, rd$frontend)) {
    tg <- g$time[g$frontend == fe][1]
    cat(sprintf("   %s: time of attsparse_rand / time of exact Gram + chol = %s\n", fe,
                if (tg >= 0.01) sprintf("%.3f", rd$time[rd$frontend == fe][1] / tg) else "- (Gram under 0.01 s)"))
  }
  # time to accuracy: least time among all runs (main and sweeps) reaching each target
  cat("   time to accuracy (s; least time among the runs with rel <= target; in parentheses the size used):\n")
  meth <- unique(r[r$frontend != "Octave", c("frontend", "method")])   # Octave: main points only
  meth <- meth[order(order_m[meth$method], meth$frontend), ]
  tta <- NULL
  for (i in seq_len(nrow(meth))) {
    s <- r[r$frontend == meth$frontend[i] & r$method == meth$method[i], ]
    cell <- function(target) {
      hit <- s[s$ok & !is.na(s$rel) & s$rel <= target, ]
      if (nrow(hit)) {
        h <- hit[which.min(hit$time), ]
        return(sprintf("%s (%s)", fmt_t(h$time), switch(h$method, rand = if (h$param == 0) "default m" else sprintf("m=%g", h$param),
                                                  det = sprintf("eps=%g", h$param), gram = "k=n",
                                                  sprintf("k=%g", h$param))))
      }
      best <- s[s$ok & !is.na(s$rel), ]
      if (nrow(best)) sprintf("not reached (best %s in %.0f s)", fmt_rel(min(best$rel)), max(best$time))
      else if (all(is.na(s$time))) "not run"
      else sprintf("not reached (stopped at %.0f s)", max(s$time, na.rm = TRUE))
    }
    tta <- rbind(tta, data.frame(method = sub(" k=.*| m=.*| eps=.*| \\(default m\\)", "", label(meth$method[i], 0)),
                                 front_end = meth$frontend[i], `rel<=5%` = cell(0.05), `rel<=2%` = cell(0.02),
                                 `rel<=1%` = cell(0.01), check.names = FALSE, stringsAsFactors = FALSE))
  }
  print(tta, row.names = FALSE, right = FALSE)
  cat("\n")
}
