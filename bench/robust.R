# robust.R: the greedy method, the target mode and the error estimate on the development corpus
# (bench/corpus.R: generated families and the package's real data sets), against the independent
# baseline of bench/baseline.R (make bench-robust).
#
# Per instance (seed s, s = 1 for the real data sets) and target t in 5%, 2%, 1%:
#   greedy   attsparse_greedy(X, rel = t): met (exact rel <= t, recomputed here), k, time;
#   baseline baseline_greedy(X): the first k meeting t (column cap 1500);
#   target   attsparse_rand(X, rel = t, seed = s) with the default estimate and with "bootstrap":
#            k, exact rel, rel_estimate;
#   default  attsparse_rand(X, seed = s) with both estimates: rel_estimate against the exact rel;
#   fixed    on the first FIXED instances of each family: the smallest median k over a grid of m (3
#            seeds, every seed meeting t) of each sampling/probabilities pair, the best pair's k.
# Usage: Rscript bench/robust.R [--slice | --heldout | --rows] [--resume | --report | --redo-target] [--out DIR] [--doc FILE]
#   (RLIB: the library with attsparse)
#   --slice  the small corpus of the tests; --heldout: instances of other seeds and parameter
#   combinations than the full corpus's and real data sets of its own, to check a change on data it was not tuned on
#   (use another --out); --rows: instances of 400 to 1000 rows (the others stop at 300); --doc FILE: the tables
#   replace FILE's region between the lines "<!-- robust tables begin -->" and "<!-- robust tables end -->"
#   ("robust heldout tables" for --heldout, "robust rows tables" for --rows); --resume: the instances
#   whose figures OUT/instances already holds are read back, not run again; --report: only those,
#   nothing run (the tables of a run cut short); --redo-target: the stored instances' target-mode
#   and default-mode figures run again (both estimates, every target), the greedy method's and the
#   baseline's read back: after a change to attsparse_rand alone (its target mode, its estimate), a
#   few minutes instead of the whole run.
args <- commandArgs(TRUE)
arg_value <- function(name, default) { i <- match(name, args); if (is.na(i)) default else args[i + 1] }
source("bench/setup.R")
library(parallel)

SIZE <- if ("--slice" %in% args) "slice" else if ("--heldout" %in% args) "heldout" else if ("--rows" %in% args) "rows" else "full"
OUT <- arg_value("--out", "build/bench/robust")
DOC <- arg_value("--doc", "")
TARGETS <- c(0.05, 0.02, 0.01)
CORES <- as.integer(Sys.getenv("ROBUST_CORES", "2"))
FIXED <- as.integer(Sys.getenv("ROBUST_FIXED", switch(SIZE, slice = "1", heldout = "0", rows = "0", "2")))
CAP <- 1500
dir.create(OUT, recursive = TRUE, showWarnings = FALSE)

elapsed <- function(expr) { t0 <- proc.time()[["elapsed"]]; v <- force(expr); list(v, proc.time()[["elapsed"]] - t0) }
# the call's value, its warnings muffled (the greedy method warns when it misses the target)
quiet <- function(expr) withCallingHandlers(expr, warning = function(w) invokeRestart("muffleWarning"))
k_of <- function(res) length(res$index)
rel_of_Y <- function(Y, lA) rel_exact(as.matrix(tcrossprod(Y)), lA)

# the smallest median k over a grid of m whose exact rel meets each target in every one of 3 seeds,
# best over the sampling/probabilities pairs; NA where none met it below m = 64 d
fixed_best <- function(X) {
  pairs <- list(c("iid", "leverage"), c("iid", "norm"), c("poisson", "leverage"), c("poisson", "norm"),
                c("poisson", "mixed"))
  best <- rep(NA_real_, length(TARGETS)); which_pair <- rep(NA_character_, length(TARGETS))
  for (p in pairs) {
    found <- rep(NA_real_, length(TARGETS))
    m <- 4
    while (anyNA(found) && m <= 64 * ncol(X)) {
      runs <- lapply(1:3, function(s) quiet(attsparse_rand(X, m = m, seed = s, sampling = p[1],
                     probabilities = p[2], estimate = "none", threads = 1)))
      rel <- vapply(runs, `[[`, 0, "rel_error"); k <- median(vapply(runs, k_of, 0))
      hit <- is.na(found) & vapply(TARGETS, function(t) all(rel <= t), NA)
      found[hit] <- k
      m <- ceiling(m * 1.5)
    }
    better <- !is.na(found) & (is.na(best) | found < best)
    best[better] <- found[better]; which_pair[better] <- paste(p, collapse = "/")
  }
  list(k = best, pair = which_pair)
}

# the target mode's figures of one instance and target, default estimate (tg) and bootstrap (tb): k, exact
# rel and estimate with the exact error (the default: the sample checked, grown or shrunk against X X'), and
# without it (error = FALSE: the estimate alone chooses the sample; tgf, tbf), its exact rel computed here
target_row <- function(X, t, s, lA) {
  tg <- quiet(attsparse_rand(X, rel = t, seed = s, threads = 1))
  tb <- quiet(attsparse_rand(X, rel = t, seed = s, estimate = "bootstrap", threads = 1))
  tgf <- quiet(attsparse_rand(X, rel = t, seed = s, error = FALSE, threads = 1))
  tbf <- quiet(attsparse_rand(X, rel = t, seed = s, estimate = "bootstrap", error = FALSE, threads = 1))
  data.frame(tg_k = k_of(tg), tg_rel = tg$rel_error, tg_est = tg$rel_estimate,
             tb_k = k_of(tb), tb_rel = tb$rel_error, tb_est = tb$rel_estimate,
             tgf_k = k_of(tgf), tgf_rel = rel_of_Y(tgf$Y, lA), tgf_est = tgf$rel_estimate,
             tbf_k = k_of(tbf), tbf_rel = rel_of_Y(tbf$Y, lA), tbf_est = tbf$rel_estimate)
}

# the default mode's figures: k, exact rel and estimate (default estimate), exact rel and estimate (bootstrap)
default_row <- function(X, s) {
  dg <- quiet(attsparse_rand(X, seed = s, threads = 1))
  db <- quiet(attsparse_rand(X, seed = s, estimate = "bootstrap", threads = 1))
  data.frame(dg_k = k_of(dg), dg_rel = dg$rel_error, dg_est = dg$rel_estimate,
             db_rel = db$rel_error, db_est = db$rel_estimate)
}

# --redo-target: the stored figures r of instance inst with their target-mode and default-mode columns
# (every attsparse_rand run) run again
redo_target <- function(inst, r) {
  X <- corpus_build(inst)
  s <- if (is.na(inst$seed)) 1 else inst$seed
  lA <- log_softmax_rows(as.matrix(tcrossprod(X)))
  for (i in seq_len(nrow(r))) {
    new <- target_row(X, r$target[i], s, lA)
    r[i, names(new)] <- new
  }
  new <- default_row(X, s)
  r[, names(new)] <- new[rep(1, nrow(r)), ]
  r
}

run_instance <- function(inst, fixed) {
  X <- corpus_build(inst)
  if (is.null(X)) return(NULL)
  s <- if (is.na(inst$seed)) 1 else inst$seed
  lA <- log_softmax_rows(as.matrix(tcrossprod(X)))
  b <- elapsed(baseline_greedy(X, TARGETS, cap = CAP))
  per_target <- lapply(seq_along(TARGETS), function(i) {
    t <- TARGETS[i]
    g <- elapsed(quiet(attsparse_greedy(X, rel = t, threads = 1)))
    cbind(data.frame(target = t, greedy_k = k_of(g[[1]]), greedy_rel = rel_of_Y(g[[1]]$Y, lA), greedy_time = g[[2]],
                     base_k = b[[1]]$k[i], base_rel = b[[1]]$rel[i]), target_row(X, t, s, lA))
  })
  fx <- if (fixed) fixed_best(X) else list(k = rep(NA, length(TARGETS)), pair = rep(NA, length(TARGETS)))
  res <- do.call(rbind, per_target)
  res$fixed_k <- fx$k; res$fixed_pair <- fx$pair
  cbind(data.frame(id = inst$id, family = inst$family, n = nrow(X), d = ncol(X), base_time = b[[2]],
                   base_last_k = b[[1]]$last_k, base_last_rel = b[[1]]$last_rel, default_row(X, s)), res)
}

inst <- corpus_instances(SIZE)
inst$fixed <- ave(seq_len(nrow(inst)), inst$family, FUN = seq_along) <= FIXED & inst$family != "real"
inst$fixed[inst$id %in% c("crude", "golub")] <- TRUE
inst <- inst[order(ave(seq_len(nrow(inst)), inst$family, FUN = seq_along)), ]   # every family's first instance first
t0 <- proc.time()[["elapsed"]]
# each instance's figures kept in OUT/instances, read back with --resume instead of run again
dir.create(file.path(OUT, "instances"), showWarnings = FALSE)
rows <- mclapply(seq_len(nrow(inst)), function(i) {
  file <- file.path(OUT, "instances", paste0(gsub("[^A-Za-z0-9=.,_-]+", "_", inst$id[i]), ".rds"))
  if ("--redo-target" %in% args && file.exists(file)) {
    r <- readRDS(file)
    if (!is.null(r)) {
      r <- redo_target(inst[i, ], r)
      saveRDS(r, file)
    }
    return(r)
  }
  if (("--resume" %in% args || "--report" %in% args) && file.exists(file)) return(readRDS(file))
  if ("--report" %in% args) return(NULL)
  r <- tryCatch(run_instance(inst[i, ], inst$fixed[i]), error = function(e) {
    message(inst$id[i], ": ", conditionMessage(e)); NULL })
  saveRDS(r, file)
  message(sprintf("%3d/%d %s (%.0f s)", i, nrow(inst), inst$id[i], proc.time()[["elapsed"]] - t0))
  r
}, mc.cores = CORES, mc.preschedule = FALSE)
R <- do.call(rbind, rows)
wall <- proc.time()[["elapsed"]] - t0
saveRDS(R, file.path(OUT, "results.rds"))
write.csv(R, file.path(OUT, "results.csv"), row.names = FALSE)

# ---------------------------------------------------------------- tables
pct <- function(x) sprintf("%.0f%%", 100 * x)
f2 <- function(x) ifelse(is.finite(x), sprintf("%.2f", x), "-")
# a ratio of column counts: 1 when both are 0 (Y = 0 meets the target: the target mode's draw can be
# empty, as the greedy method's answer can), the other counted as 1 column when one is 0
kr <- function(a, b) ifelse(a == b, 1, a / pmax(b, 1))
md_table <- function(df) {
  c(paste("|", paste(names(df), collapse = " | "), "|"), paste0("|", strrep("---|", ncol(df))),
    apply(df, 1, function(r) paste("|", paste(r, collapse = " | "), "|")))
}
fams <- unique(R$family)
R$greedy_met <- R$greedy_rel <= R$target
R$base_met <- !is.na(R$base_k)
R$ratio <- ifelse(R$greedy_met & R$base_met, R$greedy_k / R$base_k, NA)

greedy_tab <- do.call(rbind, lapply(fams, function(f) do.call(rbind, lapply(TARGETS, function(t) {
  x <- R[R$family == f & R$target == t, ]
  both <- x[!is.na(x$ratio), ]
  data.frame(family = f, target = pct(t), instances = nrow(x),
             `baseline met` = sum(x$base_met), `greedy met` = sum(x$greedy_met),
             `greedy met where baseline met` = sprintf("%d/%d", sum(x$greedy_met & x$base_met), sum(x$base_met)),
             `k / baseline median` = f2(median(both$ratio)), `k <= baseline` = if (nrow(both)) pct(mean(both$ratio <= 1)) else "-",
             `k / baseline max` = f2(suppressWarnings(max(both$ratio))),
             `k / target mode median` = f2(median(kr(x$greedy_k, x$tg_k))),
             `greedy s median` = sprintf("%.2f", median(x$greedy_time)), `greedy s max` = sprintf("%.2f", max(x$greedy_time)),
             check.names = FALSE)
}))))

cov_row <- function(est, rel) c(pct(mean(est >= rel, na.rm = TRUE)), f2(median(est / rel, na.rm = TRUE)))
D <- R[R$target == TARGETS[1], ]                 # one row an instance for the default mode
est_tab <- do.call(rbind, lapply(fams, function(f) {
  d <- D[D$family == f, ]; x <- R[R$family == f, ]
  v <- c(cov_row(d$dg_est, d$dg_rel), cov_row(d$db_est, d$db_rel), cov_row(x$tgf_est, x$tgf_rel),
         cov_row(x$tbf_est, x$tbf_rel))
  data.frame(family = f, runs = sprintf("%d + %d", nrow(d), nrow(x)),
             `default: gauss cover` = v[1], `gauss est/exact` = v[2], `boot cover` = v[3], `boot est/exact` = v[4],
             `target: gauss cover` = v[5], `gauss est/exact` = v[6], `boot cover` = v[7], `boot est/exact` = v[8],
             `target met gauss` = pct(mean(x$tg_rel <= x$target)), `target met boot` = pct(mean(x$tb_rel <= x$target)),
             `k gauss / boot median` = f2(median(kr(x$tg_k, x$tb_k))), `k gauss / boot max` = f2(max(kr(x$tg_k, x$tb_k))),
             `k exact / estimate only median` = f2(median(kr(x$tg_k, x$tgf_k))),
             `estimate only met gauss` = pct(mean(x$tgf_rel <= x$target)), `estimate only met boot` = pct(mean(x$tbf_rel <= x$target)),
             check.names = FALSE)
}))

F <- R[R$id %in% unique(R$id[!is.na(R$fixed_pair) | !is.na(R$fixed_k)]), ]
fixed_tab <- if (nrow(F)) data.frame(instance = F$id, target = pct(F$target),
  `best fixed k` = ifelse(is.na(F$fixed_k), "-", F$fixed_k), `best pair` = ifelse(is.na(F$fixed_pair), "-", F$fixed_pair),
  `target mode k (gauss)` = F$tg_k, `(boot)` = F$tb_k, `gauss / fixed` = f2(kr(F$tg_k, F$fixed_k)),
  `greedy k` = paste0(F$greedy_k, ifelse(F$greedy_met, "", "!")), check.names = FALSE)

fail <- R[(R$base_met & !R$greedy_met) | (!is.na(R$ratio) & R$ratio > 1.25), ]
fail_lines <- if (nrow(fail)) sprintf("- `%s` at %s: greedy k %d, rel %.2f%%%s; baseline k %d, rel %.2f%%", fail$id,
  pct(fail$target), fail$greedy_k, 100 * fail$greedy_rel, ifelse(fail$greedy_met, sprintf(" (%.2fx)", fail$ratio), " (missed)"),
  fail$base_k, 100 * fail$base_rel) else "- none"
neither <- R[!R$base_met & !R$greedy_met, ]
neither_lines <- if (nrow(neither)) sprintf("- `%s` at %s: greedy k %d, rel %.2f%%; baseline (cap %d) k %d, rel %.2f%%",
  neither$id, pct(neither$target), neither$greedy_k, 100 * neither$greedy_rel, CAP, neither$base_last_k,
  100 * neither$base_last_rel) else "- none"

tot <- R[!duplicated(R$id), ]
summary_lines <- c(
  if ("--redo-target" %in% args)
    sprintf("%d instances (%s corpus), %d cores; attsparse_rand's figures (target and default mode) run again (%.0f s wall clock), the rest from the stored run; attsparse %s, %s.",
            nrow(tot), SIZE, CORES, wall, as.character(packageVersion("attsparse")), format(Sys.Date()))
  else sprintf("%d instances (%s corpus), %d cores, %.0f s wall clock; attsparse %s, %s.", nrow(tot), SIZE, CORES, wall,
               as.character(packageVersion("attsparse")), format(Sys.Date())),
  sprintf("Greedy met the target in %d of %d cases, the baseline in %d; greedy missed where the baseline met in %d; greedy k <= baseline k in %d of %d cases both met (%s), <= 1.25x in %d.",
          sum(R$greedy_met), nrow(R), sum(R$base_met), sum(R$base_met & !R$greedy_met), sum(R$ratio <= 1, na.rm = TRUE),
          sum(!is.na(R$ratio)), pct(mean(R$ratio <= 1, na.rm = TRUE)), sum(R$ratio <= 1.25, na.rm = TRUE)))
out <- c(
  "### Summary", "", summary_lines, "",
  "### Greedy against the baseline and the target mode", "",
  "`attsparse_greedy(X, rel = t, threads = 1)`; met: exact rel <= t; k ratios over the cases both met; target mode: `attsparse_rand(X, rel = t, seed = s)`.", "",
  md_table(greedy_tab), "",
  "### The error estimate", "",
  "Coverage: share of runs with `rel_estimate >= rel_error` (exact); est/exact: median ratio. Default mode `attsparse_rand(X, seed = s)`, one run an instance; target mode (coverage and est/exact) `attsparse_rand(X, rel = t, seed = s, error = FALSE)`, where the estimate alone chooses the sample, one run an instance and target; gauss: the default estimate, boot: `estimate = \"bootstrap\"`. target met: `attsparse_rand(X, rel = t, seed = s)` (the exact error asked for, the default: the sample checked against `X X'`, grown when it misses, shrunk while a smaller draw meets the target). k gauss / boot: its columns with the default estimate over those with the bootstrap; k exact / estimate only: its columns over those of the same call with `error = FALSE`; estimate only met: how often the sample of `error = FALSE` meets the target.", "",
  md_table(est_tab), "",
  if (!is.null(fixed_tab)) c("### The target mode against the best fixed scheme", "",
  "Best fixed: the smallest median k over m (factor 1.5 steps, 3 seeds, every seed meeting the target) of iid or Poisson sampling with leverage, norm or mixed probabilities. \"!\": greedy missed the target.", "",
  md_table(fixed_tab), ""),
  "### Failing instances", "",
  "Greedy missed the target where the baseline met it, or kept more than 1.25x the baseline's columns:", "",
  fail_lines, "",
  "Neither met the target:", "", neither_lines)
writeLines(out)
writeLines(out, file.path(OUT, "tables.md"))
if (nzchar(DOC) && file.exists(DOC)) {
  doc <- readLines(DOC)
  mark <- switch(SIZE, heldout = "robust heldout tables", rows = "robust rows tables", "robust tables")
  a <- grep(sprintf("<!-- %s begin -->", mark), doc, fixed = TRUE); z <- grep(sprintf("<!-- %s end -->", mark), doc, fixed = TRUE)
  if (length(a) == 1 && length(z) == 1 && a < z) {
    writeLines(c(doc[seq_len(a)], "", out, "", doc[z:length(doc)]), DOC)
    message("robust: tables written to ", DOC)
  }
}
