# accuracy.R: columns kept for a requested attention error, by sampling scheme, and how well
# the target mode and its error estimate do (make bench-accuracy).
#
# For each data set (the built-in example, ALL, the raw word counts of acq and crude, golub, lung):
#   1. a sweep of the fixed schemes (Poisson sampling with leverage, norm-squared and mixed
#      probabilities; the paper's i.i.d. leverage sampling) over m, SEEDS seeds each: the
#      smallest median k whose exact rel is <= the target in >= 90% of seeds;
#   2. the paper's default (i.i.d. leverage, default m): k and exact rel;
#   3. the target mode attsparse_rand(X, rel = target) over TSEEDS seeds: the share of seeds
#      with exact rel <= target, median k, median time (estimate included, exact error not)
#      against one default-mode run (error = FALSE); then the same with the exact error (the
#      default: the sample checked against X X', grown or shrunk; its time includes X X');
#   4. references: a Gaussian projection (k swept up to 16 n over 3 seeds; its Y = X G / sqrt(k) is not
#      made of columns) and the exact Gram with its Cholesky factor (k = n, time of tcrossprod).
#   5. calibration of the estimate: over CSEEDS seeds of the default mode and of the target mode at
#      rel = 2%, the share with rel_estimate >= exact rel and the median ratio; the estimate's cost in
#      multiply-adds (Grams of Y, counted as the core counts them) and in time beside a default run
#      (the calibration table at the end);
#   6. the target mode at the default's own error (its median rel over those CSEEDS seeds), over
#      TSEEDS seeds: median k against the default's median k, share of seeds meeting it;
#   7. the greedy method attsparse_greedy(X, rel = target): k, its exact rel (checked against the
#      attention of X computed here), its time, and k against the best fixed scheme and the target
#      mode's median (the summary table at the end).
# Usage: Rscript bench/accuracy.R [--quick]   (RLIB: the library holding attsparse)
args <- commandArgs(TRUE)
quick <- "--quick" %in% args
lib <- Sys.getenv("RLIB", "build/Rlib")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({library(attsparse); library(Matrix)})

TARGETS <- c(0.05, 0.02, 0.01)
SEEDS <- if (quick) 5 else 10
TSEEDS <- if (quick) 10 else 20
CSEEDS <- if (quick) 10 else 40
GRID <- function(rank, d) unique(round(exp(seq(log(rank / 4), log(max(64 * rank, d)), length.out = if (quick) 10 else 16))))

datasets <- list(example = function() attsparse_example())
for (nm in c("ALL", "acq", "crude", "golub", "lung"))
  local({ nm <- nm; datasets[[nm]] <<- function() attsparse:::demo_data(nm) })

# row-softmax of a Gram, row maximum subtracted
softmax_rows <- function(G) { G <- G - apply(G, 1, max); E <- exp(G); E / rowSums(E) }
# rel of Y against the exact attention AX of X (computed once per data set), Grams by gram()
rel_of <- function(Y, AX) max(abs(softmax_rows(gram(Y)) / AX - 1))

# the target mode rel = target over TSEEDS seeds: the runs, their exact rel, their median k; the estimate
# alone choosing the sample (error = FALSE), or with the exact error (exact = TRUE, the default of
# attsparse_rand: the sample checked against X X', grown or shrunk)
target_runs <- function(X, AX, target, exact = FALSE) {
  runs <- lapply(seq_len(TSEEDS), function(s) attsparse_rand(X, rel = target, seed = s, error = exact))
  list(runs = runs, rel = vapply(runs, function(r) rel_of(r$Y, AX), 0),
       k = median(vapply(runs, function(r) length(r$index), 0)))
}

elapsed <- function(expr) { t0 <- proc.time()[["elapsed"]]; force(expr); proc.time()[["elapsed"]] - t0 }

# rel of a Gaussian projection with k columns (the same metric, Y not made of columns of X)
gauss_rel <- function(X, k, seed, AX) {
  set.seed(seed)
  G <- matrix(rnorm(ncol(X) * k), ncol(X), k) / sqrt(k)
  rel_of(as.matrix(X %*% G), AX)
}

# the smallest median k over the grid whose rel <= target in >= 90% of the seeds
sweep <- function(run, grid, seeds) {
  res <- lapply(grid, function(m) {
    r <- lapply(seq_len(seeds), function(s) run(m, s))
    c(m = m, k = median(vapply(r, `[[`, 0, "k")),
      ok = sapply(TARGETS, function(t) mean(vapply(r, `[[`, 0, "rel") <= t)))
  })
  tab <- do.call(rbind, res)
  sapply(seq_along(TARGETS), function(i) {
    hit <- which(tab[, 2 + i] >= 0.9)
    if (length(hit)) tab[min(hit), "k"] else NA
  })
}

fixed <- function(X, AX, probabilities, sampling) function(m, s) {
  r <- attsparse_rand(X, m = m, seed = s, probabilities = probabilities, sampling = sampling,
                      estimate = FALSE, error = FALSE)
  list(k = length(r$index), rel = if (length(r$index)) rel_of(r$Y, AX) else NA)
}

fmt_k <- function(k) ifelse(is.na(k), "-", sprintf("%.0f", k))
CAL_TARGET <- 0.02
caltab <- list()
# the multiply-adds of the Gaussian estimate in Grams of Y, as the core counts a Gram (a dense column n^2 / 2,
# a sparse one with z entries z (z + 1) / 2): Y Y' and one Gram of the columns left to chance (chance: i.i.d.
# every column, Poisson those with q < 1, a weight above 1)
gram_madds <- function(Y, chance) {
  z <- if (inherits(Y, "sparseMatrix")) diff(Y@p) else rep(nrow(Y), ncol(Y))
  g <- if (inherits(Y, "sparseMatrix")) z * (z + 1) / 2 else z^2 / 2
  (sum(g) + sum(g[chance])) / sum(g)
}
out <- character()
greedy_rows <- list()
say <- function(...) { line <- sprintf(...); cat(line, "\n", sep = ""); out <<- c(out, line) }

say("accuracy benchmark: targets %s; sweep %d seeds, target mode %d seeds, calibration %d seeds",
    paste(sprintf("%g%%", 100 * TARGETS), collapse = " "), SEEDS, TSEEDS, CSEEDS)
for (nm in names(datasets)) {
  X <- datasets[[nm]]()
  if (is.null(X)) { say("\n%s: not installed, skipped", nm); next }
  n <- nrow(X); d <- ncol(X)
  lev <- attsparse_rand(X, seed = 1, estimate = FALSE)
  rank <- lev$rank
  grid <- GRID(rank, d)
  AX <- softmax_rows(gram(X))
  say("\n%s: %d x %d %s, rank %d, max|XX'| %.3g, uniform baseline rel %.3g%%", nm, n, d,
      if (inherits(X, "sparseMatrix")) "sparse" else "dense", rank, lev$r, 100 * lev$baseline)
  # how heavy the head and the tail of the columns are: their squared norms' shares
  mass <- cumsum(sort(colSums(X^2), decreasing = TRUE)) / sum(X^2)
  k95 <- which(mass >= 0.95)[1]
  say("  the 10 heaviest columns hold %.1f%% of the squared norm; 95%% of it takes %d columns (%.2g%% of d)",
      100 * mass[min(10, d)], k95, 100 * k95 / d)
  say("  %-34s %9s %9s %9s   (columns kept for rel <= target in >= 90%% of seeds)", "method",
      "5%", "2%", "1%")
  best <- rep(Inf, length(TARGETS))
  for (sc in list(c("leverage", "iid"), c("leverage", "poisson"), c("norm", "poisson"),
                  c("mixed", "poisson"))) {
    k <- sweep(fixed(X, AX, sc[1], sc[2]), grid, SEEDS)
    if (sc[2] == "poisson") best <- pmin(best, ifelse(is.na(k), Inf, k))
    say("  %-34s %9s %9s %9s", sprintf("fixed: %s, %s", sc[1], sc[2]), fmt_k(k[1]), fmt_k(k[2]), fmt_k(k[3]))
  }
  kg <- sweep(function(k, s) list(k = k, rel = gauss_rel(X, k, s, AX)),
              unique(round(exp(seq(log(8), log(min(d, 16 * n)), length.out = 8)))), 3)
  say("  %-34s %9s %9s %9s", "Gaussian projection (not columns)", fmt_k(kg[1]), fmt_k(kg[2]), fmt_k(kg[3]))
  tg <- elapsed(G <- tcrossprod(X)); tc <- elapsed(try(chol(as.matrix(G) + diag(1e-12, n)), silent = TRUE))
  say("  %-34s %9d %9d %9d   (tcrossprod %.3f s + chol %.3f s)", "exact Gram + Cholesky", n, n, n, tg, tc)
  say("  paper's default (i.i.d. leverage, m = %d): k = %d, rel %.3g%%, time %.3f s",
      lev$m, length(lev$index), 100 * lev$rel_error, lev$time)
  # one default run's time: milliseconds here, so a median of 11 after a first, warm-up run
  t_def <- median(replicate(12, attsparse_rand(X, seed = 1, error = FALSE, estimate = FALSE)$time)[-1])
  say("  %-8s %8s %8s %10s %10s %12s %10s", "target", "met", "median k", "k/best", "k/default", "median time", "x default")
  # the estimate alone choosing (error = FALSE; tm_k), then with the exact error (the default: X X'
  # computed, the sample grown or shrunk against it; tx_k)
  tk <- list()
  for (exact in c(FALSE, TRUE)) {
    tk[[length(tk) + 1]] <- vapply(seq_along(TARGETS), function(i) {
      tr <- target_runs(X, AX, TARGETS[i], exact = exact); runs <- tr$runs; k <- tr$k
      tt <- median(vapply(runs, `[[`, 0, "time"))
      probs <- table(vapply(runs, `[[`, "", "probabilities"))
      say("  %-8s %7.0f%% %8.0f %10s %10.3g %10.3f s %10.2f   %s", sprintf("%g%%", 100 * TARGETS[i]),
          100 * mean(tr$rel <= TARGETS[i]), k, if (is.finite(best[i])) sprintf("%.2f", k / best[i]) else "-",
          k / length(lev$index), tt, tt / t_def,
          if (exact) "(with the exact error, the default)"
          else sprintf("(schemes: %s)", paste(sprintf("%s %d", names(probs), as.integer(probs)), collapse = ", ")))
      k
    }, 0)
  }
  tm_k <- tk[[1]]; tx_k <- tk[[2]]
  # the greedy method: deterministic, its rel exact (checked here against the attention of X)
  say("  %-8s %8s %8s %10s %10s %12s", "greedy", "rel", "k", "k/best", "target/k", "time")
  for (i in seq_along(TARGETS)) {
    g <- attsparse_greedy(X, rel = TARGETS[i], spectral = FALSE)
    # k = 0 where Y = 0 meets the target already (the example at 5%: its baseline is 4.86%)
    stopifnot(abs((if (g$k > 0) rel_of(g$Y, AX) else g$baseline) - g$rel_error) <= 1e-9 * max(1, g$rel_error))
    say("  %-8s %7.3g%% %8d %10s %10s %10.3f s", sprintf("%g%%", 100 * TARGETS[i]), 100 * g$rel_error, g$k,
        if (is.finite(best[i]) && g$k > 0) sprintf("%.3g", g$k / best[i]) else "-",
        if (g$k > 0) sprintf("%.3g", tm_k[i] / g$k) else "-", g$time)
    greedy_rows[[length(greedy_rows) + 1]] <- data.frame(data = nm, target = TARGETS[i], k = g$k, rel = g$rel_error,
                                                         target_k = tm_k[i], exact_k = tx_k[i], time = g$time)
  }
  cal <- vapply(seq_len(CSEEDS), function(s) {
    r <- attsparse_rand(X, seed = s, error = FALSE)
    c(r$rel_estimate, rel_of(r$Y, AX), length(r$index), gram_madds(r$Y, rep(TRUE, length(r$index))))
  }, c(0, 0, 0, 0))
  say("  estimate calibration (default mode, %d seeds): estimate >= exact in %.0f%%, median estimate/exact %.2f",
      CSEEDS, 100 * mean(cal[1, ] >= cal[2, ]), median(cal[1, ] / cal[2, ]))
  tcal <- vapply(seq_len(CSEEDS), function(s) {
    r <- attsparse_rand(X, rel = CAL_TARGET, seed = s, error = FALSE)
    c(r$rel_estimate, rel_of(r$Y, AX), r$rounds, gram_madds(r$Y, r$weight > 1))
  }, c(0, 0, 0, 0))
  say("  estimate calibration (target mode at %g%%, %d seeds): estimate >= exact in %.0f%%, median estimate/exact %.2f",
      100 * CAL_TARGET, CSEEDS, 100 * mean(tcal[1, ] >= tcal[2, ]), median(tcal[1, ] / tcal[2, ]))
  # the estimate's time: the default run with it against without it, back to back, medians of 5
  t_with <- median(replicate(5, attsparse_rand(X, seed = 1, error = FALSE)$time))
  t_none <- median(replicate(5, attsparse_rand(X, seed = 1, error = FALSE, estimate = "none")$time))
  caltab[[nm]] <- c(cover = mean(cal[1, ] >= cal[2, ]), ratio = median(cal[1, ] / cal[2, ]),
                    tcover = mean(tcal[1, ] >= tcal[2, ]), tratio = median(tcal[1, ] / tcal[2, ]),
                    rounds = median(tcal[3, ]), grams = median(cal[4, ]), tgrams = median(tcal[4, ]),
                    t_est = t_with - t_none, t_run = t_with)
  # the target mode asked for the default's own error: the columns it saves for the same rel
  rel_def <- median(cal[2, ]); k_def <- median(cal[3, ])
  tr <- target_runs(X, AX, rel_def)
  say("  target mode at the default's rel (medians over %d seeds: k = %.0f, rel %.3g%%): median k %.0f, default k / k = %.3g, met in %.0f%% of %d seeds",
      CSEEDS, k_def, 100 * rel_def, tr$k, k_def / tr$k, 100 * mean(tr$rel <= rel_def), TSEEDS)
}
say("\ncalibration of the error estimate (gaussian, the default), %d seeds each: the share of runs with rel_estimate >= exact rel",
    CSEEDS)
say("and the median rel_estimate / exact rel, default mode and target mode at rel = %g%%; its cost: multiply-adds in Grams of Y",
    100 * CAL_TARGET)
say("(median), and time (estimate = \"gaussian\" minus \"none\", medians of 5 default runs) beside a default run's")
say("  %-8s %8s %8s %10s %10s %7s %12s %12s %14s", "data", "covered", "ratio", "tgt cover", "tgt ratio", "rounds",
    "Grams (def)", "Grams (tgt)", "time est/run")
for (nm in names(caltab)) {
  v <- caltab[[nm]]
  say("  %-8s %7.0f%% %8.2f %9.0f%% %10.2f %7.0f %12.2f %12.2f %7.3f/%.3f s", nm, 100 * v[["cover"]], v[["ratio"]],
      100 * v[["tcover"]], v[["tratio"]], v[["rounds"]], v[["grams"]], v[["tgrams"]], v[["t_est"]], v[["t_run"]])
}
gr <- do.call(rbind, greedy_rows)
say("\nthe greedy method against the target mode: columns kept for exact rel <= target (greedy: one deterministic run;")
say("target mode: median of %d seeds, with error = FALSE and with the exact error), their ratios, and the greedy", TSEEDS)
say("run's seconds")
say("  %-8s %7s %9s %9s %9s %9s %9s %9s", "data", "target", "greedy k", "target k", "ratio", "exact k", "ratio", "time")
for (i in seq_len(nrow(gr)))
  say("  %-8s %6g%% %9d %9.0f %9s %9.0f %9s %8.2f s", gr$data[i], 100 * gr$target[i], gr$k[i], gr$target_k[i],
      if (gr$k[i] > 0) sprintf("%.3g", gr$target_k[i] / gr$k[i]) else "-", gr$exact_k[i],
      if (gr$k[i] > 0) sprintf("%.3g", gr$exact_k[i] / gr$k[i]) else "-", gr$time[i])
dir.create("build/bench", showWarnings = FALSE, recursive = TRUE)
writeLines(out, "build/bench/accuracy-tables.txt")
cat("\ntables in build/bench/accuracy-tables.txt\n")
