# demo-output.R: the output of the demo (attsparse_demo(), R/demo.R): its tables' printer and its plots, drawn with
# base graphics into PNG files.

# Prints rows under a heading, a line each: the columns but input in the C formats fmt (named by heading), those
# with "%%" in percent, a missing value as "-". Returns rows, invisibly.
demo_print <- function(rows, fmt) {
  cols <- rows[names(rows) != "input"]
  width <- vapply(fmt, function(f) nchar(sprintf(f, if (endsWith(f, "s")) "" else 1)), 0)
  pad <- function(s, i) formatC(s, width = width[i], flag = if (startsWith(fmt[i], "%-")) "-" else "")
  cat(paste(vapply(seq_along(fmt), function(i) pad(names(fmt)[i], i), ""), collapse = " "), "\n", sep = "")
  for (r in seq_len(nrow(rows))) cat(paste(vapply(seq_along(fmt), function(i) {
    v <- cols[[i]][r]
    if (is.na(v)) pad("-", i) else sprintf(fmt[i], if (grepl("%%", fmt[i], fixed = TRUE)) 100 * v else v)
  }, ""), collapse = " "), "\n", sep = "")
  invisible(rows)
}

# The plots (PNG files in outdir): error against m and against r = max|XX'|, time against nnz(X), the det
# algorithm's columns against n, and (with the targets table) the columns kept for each target, by method.
demo_plots <- function(outdir, X, out, quick) {
  if (!dir.exists(outdir) && !dir.create(outdir, recursive = TRUE))
    stop(sprintf("'outdir': cannot create directory '%s'", outdir), call. = FALSE)
  files <- character()
  png <- function(file, cols = 2, rows = 1) {
    files[[sub(".png", "", file, fixed = TRUE)]] <<- path <- file.path(outdir, file)
    grDevices::png(path, 450 * cols, 450 * rows, type = if (capabilities("cairo")) "cairo" else getOption("bitmapType"))
    graphics::par(mfrow = c(rows, cols))
  }
  loglog <- function(x, Y, main, xlab, ylab, where = "topright", ylim = range(Y[Y > 0], na.rm = TRUE), ...) {
    graphics::matplot(x, Y, log = "xy", type = "b", lty = 1, pch = seq_len(ncol(Y)), col = seq_len(ncol(Y)),
                      main = main, xlab = xlab, ylab = ylab, ylim = ylim, ...)
    graphics::legend(where, colnames(Y), lty = 1, pch = seq_len(ncol(Y)), col = seq_len(ncol(Y)), bty = "n", cex = 0.85)
  }
  cat("plot 1 of 5: error against m ...\n")
  ms <- if (quick) c(1000, 4000, 16000) else 1000 * 2^(-1:5)
  seeds <- if (quick) 1:2 else 1:5
  probs <- c("leverage", "uniform", "norm")
  E <- array(NA_real_, c(length(ms), 3, 2, length(seeds)), list(NULL, probs, c("rel", "inf"), NULL))
  for (a in seq_along(ms)) for (p in probs) for (s in seq_along(seeds)) {
    res <- attsparse_rand(X, m = ms[a], seed = seeds[s], probabilities = p, spectral = FALSE, estimate = FALSE)
    E[a, p, , s] <- c(res$rel_error, res$error)
  }
  E <- apply(E, 1:3, stats::median)
  base <- attention_error(X, X[, 0, drop = FALSE])
  png("error_vs_m.png")
  for (w in c("rel", "inf")) {
    loglog(ms, E[, , w], sprintf("%s error vs m (median of %d seeds)", w, length(seeds)), "m (draws)",
          paste(w, "error"), "bottomleft", ylim = range(E[, , w], base[[w]]))
    graphics::abline(h = base[[w]], lty = 2, col = "grey40")
    graphics::text(min(ms), base[[w]], "baseline (Y = 0, uniform attention)", adj = c(0, -0.4), cex = 0.8)
    if (!is.null(out$methods)) graphics::abline(v = out$methods$m[1], lty = 3, col = "grey40")   # the default m
  }
  grDevices::dev.off()
  cat("plot 2 of 5: error against r ...\n")
  rs <- if (quick) c(0.01, 0.1, 1) else c(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)
  E <- t(vapply(rs, function(r) {
    Xr <- attsparse_example(50, 5000, r = r, seed = 1)
    ra <- attsparse_rand(Xr, seed = 1, estimate = FALSE)
    de <- attsparse_det(Xr, eps = 0.5)
    c("rand rel" = ra$rel_error, "det rel" = de$rel_error, "baseline rel" = ra$baseline, "bound (rand)" = ra$bound,
      "rand inf" = ra$error, "det inf" = de$error, "baseline inf" = attention_error(Xr, Xr[, 0, drop = FALSE])$inf)
  }, numeric(7)))
  png("error_vs_r.png")
  for (w in list(1:4, 5:7)) {
    loglog(rs, E[, w], paste(if (w[1] == 1) "rel" else "inf", "error vs r = max|XX'| (n = 50, d = 5000)"),
          "r = max|XX'|", "error", "topleft")
    graphics::abline(v = 0.1, lty = 3)
    graphics::text(0.1, min(E[, w]), "paper's regime\nr < 0.1", adj = c(1.1, 0), cex = 0.75)
  }
  grDevices::dev.off()
  cat("plot 3 of 5: time against nnz(X) ...\n")
  ds <- if (quick) c(5000, 20000) else 5000 * 2^(0:5)
  tm <- t(vapply(ds, function(d) {
    # sparse, 200 rows: blocks attsparse_example(200, 5000, r = 1, seed = b) with their entries below 0.8 / sqrt(5000)
    # in magnitude dropped (about 50 nonzeros a column; the same matrix in Octave)
    Xs <- do.call(cbind, lapply(seq_len(d / 5000), function(b) {
      B <- attsparse_example(200, 5000, r = 1, seed = b)
      Matrix::Matrix(B * (abs(B) > 0.8 / sqrt(5000)), sparse = TRUE)
    }))
    best <- function(f) max(1e-3, min(replicate(3, system.time(f())[["elapsed"]])))
    c(nnz = length(Xs@x),
      "attsparse_rand (error = FALSE)" = best(function() attsparse_rand(Xs, seed = 1, error = FALSE)),
      "exact Gram tcrossprod(X)" = best(function() Matrix::tcrossprod(Xs)))
  }, numeric(3)))
  png("time_vs_nnz.png", 1)
  loglog(tm[, 1], tm[, -1], "time vs nnz(X), n = 200 (best of 3)", "nnz(X)", "seconds", "topleft")
  grDevices::dev.off()
  cat("plot 4 of 5: columns against n ...\n")
  ns <- if (quick) c(10, 40) else 10 * 2^(0:4)
  K <- t(vapply(ns, function(n) {
    res <- attsparse_det(attsparse_example(n, 4000, r = 0.05, seed = 1), eps = 0.5, error = FALSE)
    c("budget max_columns = ceil(b rank)" = res$max_columns, "k (distinct columns)" = res$k, "m (iterations)" = res$m,
      b = res$b)
  }, numeric(4)))
  png("k_vs_n.png", 1)
  loglog(ns, K[, 1:3], sprintf("attsparse_det(eps = 0.5): columns vs n (b = %.3g)", K[1, 4]), "n (d = 4000)",
        "columns", "topleft")
  grDevices::dev.off()
  if (!is.null(out$targets)) {
    cat("plot 5 of 5: columns against the target ...\n")
    inputs <- unique(out$targets$input)
    png("k_vs_target.png", min(3, length(inputs)), ceiling(length(inputs) / 3))
    for (nm in inputs) {
      t <- out$targets[out$targets$input == nm, ]
      exact <- t$k[t$method == "exact"]   # the exact Gram's Cholesky factor: k = n
      t <- t[!is.na(t$target), ]
      # no point for k = 0 (a target at or above the rel of Y = 0, met with no column) on the log scale
      k <- tapply(ifelse(t$k > 0, t$k, NA), list(t$target, factor(t$method, unique(t$method))), identity)
      loglog(as.numeric(rownames(k)), k, paste(nm, "- fewest columns for rel <= target"), "target rel", "k",
             "bottomleft", ylim = range(k, exact, na.rm = TRUE), xlim = c(0.008, 0.06))
      graphics::abline(h = exact, lty = 2)
    }
    grDevices::dev.off()
  }
  if (length(files)) cat("\nplots:", files, sep = "\n  ")
  files
}
