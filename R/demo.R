# demo.R: attsparse_demo(), the tables and plots that reproduce the paper's bounds
# (the same experiments, table characters and PNG files as Octave's attsparse_demo; docs/demo.md).

# Real data sets with d >> n from Debian's R packages, rows scaled so max_i G_ii = 1;
# NULL when the data package is not installed.
demo_data <- function(name = c("ALL", "acq", "crude", "golub")) {
  name <- match.arg(name)
  have <- function(...) all(vapply(c(...), requireNamespace, NA, quietly = TRUE))
  load_data <- function(what, package) {
    e <- new.env()
    utils::data(list = what, package = package, envir = e)
    e[[what]]
  }
  X <- switch(name,
    ALL = if (have("ALL", "Biobase")) {
      X <- t(Biobase::exprs(load_data("ALL", "ALL")))
      sweep(X, 2, colMeans(X))           # genes centred: similarity of expression profiles
    },
    crude = , acq = if (have("tm")) {
      dtm <- tm::DocumentTermMatrix(load_data(name, "tm"))
      Matrix::sparseMatrix(i = dtm$i, j = dtm$j, x = as.numeric(dtm$v), dims = dim(dtm),
                           dimnames = dimnames(dtm))
    },
    golub = if (have("multtest")) t(load_data("golub", "multtest")))
  if (is.null(X)) return(NULL)
  X / sqrt(max(Matrix::rowSums(X^2)))
}

demo_row <- function(method, res) {
  data.frame(method = method, m = res$m, k = length(res$index), inf = res$error,
             rel = res$rel_error, baseline = res$baseline, eps_spectral = res$eps_spectral,
             bound = res$bound, time = res$time)
}

# The table for one input: leverage, uniform and norm-squared sampling at the same m, then BSS.
demo_table <- function(name, X, verbose) {
  invisible(gc(FALSE))   # garbage of earlier work (loading the data sets) collected outside the timings
  lev <- attsparse_rand(X, seed = 1)
  rows <- rbind(demo_row("rand-leverage", lev),
                demo_row("rand-uniform", attsparse_rand(X, m = lev$m, seed = 1, probabilities = "uniform")),
                demo_row("rand-norm", attsparse_rand(X, m = lev$m, seed = 1, probabilities = "norm")),
                demo_row("det", attsparse_det(X, eps = 0.5)))
  if (verbose) {
    cat(sprintf("\n%s: %d x %d %s, nnz %.0f, r = max|XX'| = %.3g\n", name, nrow(X), ncol(X),
                if (inherits(X, "sparseMatrix")) "sparse" else "dense",
                if (inherits(X, "sparseMatrix")) length(X@x) else sum(X != 0), lev$r))
    cat(sprintf("%-14s %7s %6s %10s %9s %9s %9s %9s %8s\n",
                "method", "m", "k", "inf", "rel", "baseline", "spec_eps", "bound", "time_s"))
    cat(sprintf("%-14s %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f\n",
                rows$method, as.integer(rows$m), as.integer(rows$k), rows$inf, 100 * rows$rel,
                100 * rows$baseline, rows$eps_spectral, 100 * rows$bound, rows$time), sep = "")
  }
  cbind(input = name, rows)
}

demo_legend <- function() {
  cat("\nm: draws (rand) or iterations (det); k: distinct columns of X in Y\n",
      "inf: max|Att(Y) - Att(X)| (the paper's metric); rel: max|Att(Y)/Att(X) - 1|\n",
      "baseline: rel of Y = 0 (uniform attention 1/n), the bar to beat\n",
      "spec_eps: smallest eps with (1-eps)XX' <= YY' <= (1+eps)XX'; bound: exp(2 spec_eps max G_ii) - 1 >= rel\n",
      sep = "")
}

demo_png <- function(outdir, file, width = 900, height = 450) {
  path <- file.path(outdir, file)
  grDevices::png(path, width = width, height = height,
                 type = if (capabilities("cairo")) "cairo" else getOption("bitmapType"))
  path
}

# Log-log lines for the columns of Y against x, with a legend.
# shade: an x range drawn in grey under the lines.
demo_lines <- function(x, Y, main, xlab, ylab, legend_pos = "topright", lty = 1, pch = seq_len(ncol(Y)),
                       col = seq_len(ncol(Y)), lwd = 1, ylim = range(Y[Y > 0], na.rm = TRUE),
                       shade = NULL) {
  graphics::matplot(x, Y, log = "xy", type = "n", ylim = ylim, main = main, xlab = xlab, ylab = ylab)
  if (!is.null(shade)) {
    graphics::rect(shade[1], 1e-300, shade[2], 1e300, col = "grey92", border = NA)
    graphics::box()
  }
  graphics::matlines(x, Y, type = "b", lty = lty, pch = pch, col = col, lwd = lwd)
  graphics::legend(legend_pos, legend = colnames(Y), lty = lty, pch = pch, col = col, lwd = lwd,
                   bty = "n", cex = 0.85)
}

# 1. rel and inf error against m for the three sampling schemes, median over seeds;
# X is the example, m0 its default m (from its table).
demo_plot_m <- function(outdir, quick, X, m0) {
  ms <- if (quick) c(1000, 4000, 16000) else 500 * 2^(0:6)
  seeds <- if (quick) 1:2 else 1:5
  probs <- c("leverage", "uniform", "norm")
  err <- array(NA_real_, c(length(ms), length(probs), 2, length(seeds)),
               list(NULL, probs, c("rel", "inf"), NULL))
  for (a in seq_along(ms)) for (p in probs) for (s in seq_along(seeds)) {
    res <- attsparse_rand(X, m = ms[a], seed = seeds[s], probabilities = p, spectral = FALSE)
    err[a, p, , s] <- c(res$rel_error, res$error)
  }
  med <- apply(err, 1:3, stats::median)
  base <- attention_error(X, X[, 0, drop = FALSE])
  path <- demo_png(outdir, "error_vs_m.png")
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(1, 2))
  for (what in c("rel", "inf")) {
    Y <- med[, , what]
    b <- if (what == "rel") base$rel else base$inf
    demo_lines(ms, Y, main = sprintf("%s error vs m (median of %d seeds)", what, length(seeds)),
               xlab = "m (columns drawn)", ylab = paste(what, "error"), legend_pos = "bottomleft",
               ylim = range(c(Y, b)))
    graphics::abline(h = b, lty = 2, col = "grey40")
    graphics::abline(v = m0, lty = 3, col = "grey40")
    graphics::text(min(ms), b, "baseline (Y = 0, uniform attention)", adj = c(0, -0.4), cex = 0.8)
  }
  path
}

# 2. error against r = max|XX'| for both algorithms, with the uniform baseline and the bound.
demo_plot_r <- function(outdir, quick) {
  rs <- if (quick) c(0.01, 0.1, 1) else c(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)
  cols <- c("rand rel", "det rel", "baseline rel", "bound (rand)", "rand inf", "det inf", "baseline inf")
  E <- matrix(NA_real_, length(rs), length(cols), dimnames = list(NULL, cols))
  for (a in seq_along(rs)) {
    X <- attsparse_example(n = 50, d = 5000, r = rs[a])
    ra <- attsparse_rand(X, seed = 1)
    de <- attsparse_det(X, eps = 0.5)
    base <- attention_error(X, X[, 0, drop = FALSE])
    E[a, ] <- c(ra$rel_error, de$rel_error, base$rel, ra$bound, ra$error, de$error, base$inf)
  }
  path <- demo_png(outdir, "error_vs_r.png")
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(1, 2))
  for (what in list(1:4, 5:7)) {
    Y <- E[, what, drop = FALSE]
    demo_lines(rs, Y, main = paste(if (what[1] == 1) "rel" else "inf", "error vs r = max|XX'|"),
               xlab = "r (n = 50, d = 5000)", ylab = "error", legend_pos = "topleft",
               lty = c(1, 1, 2, 3)[seq_along(what)], shade = c(1e-9, 0.1))
    graphics::text(0.1, min(Y), "paper's regime\nr < 0.1", adj = c(1.1, 0), cex = 0.75)
  }
  path
}

# 3. time of the randomized algorithm and of the exact Gram against nnz(X).
demo_plot_time <- function(outdir, quick) {
  ds <- if (quick) c(5000, 20000) else 5000 * 2^(0:5)
  best <- function(f) min(vapply(1:3, function(i) system.time(f())[["elapsed"]], 0))
  tm <- matrix(NA_real_, length(ds), 2, dimnames = list(NULL, c("attsparse_rand", "exact Gram tcrossprod(X)")))
  nnz <- numeric(length(ds))
  for (a in seq_along(ds)) {
    set.seed(1)
    X <- Matrix::rsparsematrix(200, ds[a], nnz = 50 * ds[a])
    X <- X / sqrt(max(Matrix::rowSums(X^2)))
    nnz[a] <- length(X@x)
    tm[a, ] <- c(best(function() attsparse_rand(X, seed = 1, error = FALSE)),
                 best(function() Matrix::tcrossprod(X)))
  }
  tm[tm <= 0] <- 1e-3   # below the timer's resolution
  path <- demo_png(outdir, "time_vs_nnz.png", width = 600)
  on.exit(grDevices::dev.off())
  demo_lines(nnz, tm, main = "time vs nnz(X), n = 200 (best of 3)", xlab = "nnz(X)",
             ylab = "seconds", legend_pos = "topleft")
  path
}

# 4. columns kept by the deterministic algorithm against n, with its budget ceil(b n).
demo_plot_k <- function(outdir, quick) {
  ns <- if (quick) c(10, 40) else c(10, 20, 40, 80, 160)
  eps <- 0.5
  b <- ((1 + sqrt(1 - eps^2)) / eps)^2
  K <- matrix(NA_real_, length(ns), 3, dimnames = list(NULL, c("ceil(b n)", "k (distinct columns)",
                                                              "m (iterations)")))
  for (a in seq_along(ns)) {
    res <- attsparse_det(attsparse_example(n = ns[a], d = 4000), eps = eps, error = FALSE)
    K[a, ] <- c(ceiling(b * ns[a]), length(res$index), res$m)
  }
  path <- demo_png(outdir, "k_vs_n.png", width = 600)
  on.exit(grDevices::dev.off())
  demo_lines(ns, K, main = sprintf("deterministic: columns vs n (eps = %g, b = %.3g)", eps, b),
             xlab = "n (d = 4000)", ylab = "columns", legend_pos = "topleft", lty = c(1, 1, 1),
             pch = c(NA, 1, 2), col = c("grey75", "black", "red"), lwd = c(6, 1, 1))
  path
}

attsparse_demo <- function(outdir = file.path(tempdir(), "attsparse-demo"), inputs = list(),
                           quick = FALSE, plots = TRUE, verbose = TRUE) {
  check_flag(quick, "quick")
  check_flag(plots, "plots")
  check_flag(verbose, "verbose")
  if (!is.list(inputs) || (length(inputs) && (is.null(names(inputs)) || any(names(inputs) == ""))))
    stop("'inputs' must be a named list of matrices", call. = FALSE)
  inputs <- c(list(example = attsparse_example()), inputs)
  tables <- lapply(names(inputs), function(nm) demo_table(nm, inputs[[nm]], verbose))
  if (verbose) demo_legend()
  files <- character()
  if (plots) {
    if (!dir.exists(outdir) && !dir.create(outdir, recursive = TRUE))
      stop(sprintf("'outdir': cannot create directory '%s'", outdir), call. = FALSE)
    progress <- function(i, what) if (verbose) cat(sprintf("plot %d of 4: %s ...\n", i, what))
    progress(1, "error against m")
    files <- c(error_vs_m = demo_plot_m(outdir, quick, inputs$example, tables[[1]]$m[1]))
    progress(2, "error against r")
    files <- c(files, error_vs_r = demo_plot_r(outdir, quick))
    progress(3, "time against nnz(X)")
    files <- c(files, time_vs_nnz = demo_plot_time(outdir, quick))
    progress(4, "columns against n")
    files <- c(files, k_vs_n = demo_plot_k(outdir, quick))
    if (verbose) cat("\nplots:", files, sep = "\n  ")
  }
  invisible(list(table = do.call(rbind, tables), files = files))
}
