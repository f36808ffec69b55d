# demo.R: attsparse_demo(), the tables and plots that reproduce the paper's bounds. What runs and how the
# table prints is defined once, in inst/extdata/demo-spec.dcf, which Octave's attsparse_demo reads too; this
# file reads it and draws R's plots (docs/demo.md).

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

# The demo's definition (inst/extdata/demo-spec.dcf): records, each a named character vector, grouped by
# kind (the first of its fields: Table, Column, Method, Input or Plot).
demo_spec <- function(path = system.file("extdata", "demo-spec.dcf", package = "attsparse")) {
  lines <- readLines(path, warn = FALSE)
  recs <- read.dcf(textConnection(lines[!startsWith(lines, "#")]))
  recs <- lapply(seq_len(nrow(recs)), function(i) recs[i, !is.na(recs[i, ])])
  kinds <- c(table = "Table", columns = "Column", methods = "Method", inputs = "Input", plots = "Plot")
  kind <- vapply(recs, function(r) names(kinds)[match(TRUE, kinds %in% names(r))], "")
  spec <- lapply(names(kinds), function(k) {
    rs <- recs[kind == k]
    stats::setNames(rs, vapply(rs, function(r) r[[kinds[[k]]]], ""))
  })
  stats::setNames(spec, names(kinds))
}

# A field of a spec record: numbers separated by spaces; the "Quick-" field instead when quick.
spec_numbers <- function(rec, field, quick = FALSE) {
  q <- paste0("Quick-", field)
  as.numeric(strsplit(rec[[if (quick && q %in% names(rec)) q else field]], " +")[[1]])
}

# name=value words as a named list: numbers, true/false as logicals, else strings.
spec_options <- function(words) {
  if (is.null(words) || is.na(words) || !nzchar(words)) return(list())
  kv <- regmatches(words <- strsplit(words, " +")[[1]], regexpr("=", words), invert = TRUE)
  vals <- lapply(kv, function(p) {
    v <- p[[2]]
    if (v %in% c("true", "false")) v == "true"
    else if (!is.na(num <- suppressWarnings(as.numeric(v)))) num else v
  })
  stats::setNames(vals, vapply(kv, `[[`, "", 1))
}

spec_field <- function(rec, field) if (field %in% names(rec)) rec[[field]] else NA_character_

# The X format of inst/scripts/export-data.R and tests/fixtures: "n d nnz issparse", then "i j x" lines.
demo_read_x <- function(path) {
  head <- scan(path, n = 4, quiet = TRUE)
  tr <- matrix(scan(path, skip = 1, quiet = TRUE), ncol = 3, byrow = TRUE)
  X <- Matrix::sparseMatrix(i = tr[, 1], j = tr[, 2], x = tr[, 3], dims = head[1:2])
  if (head[4] == 1) X else as.matrix(X)
}

# The spec's inputs: the generated ones, then those whose file is in the directory data.
demo_inputs <- function(spec, data, verbose) {
  out <- list()
  for (rec in spec$inputs) {
    name <- rec[["Input"]]
    if ("Example" %in% names(rec)) {
      out[[name]] <- do.call(attsparse_example, spec_options(rec[["Example"]]))
    } else if (!is.null(data)) {
      path <- file.path(data, rec[["File"]])
      if (file.exists(path)) out[[name]] <- demo_read_x(path)
      else if (verbose) cat(sprintf("demo: no %s (its R data package is not installed)\n", path))
    }
  }
  out
}

# The table for one input: the spec's methods in order, each a row of the spec's columns.
demo_table <- function(name, X, spec, verbose) {
  invisible(gc(FALSE))   # garbage of earlier work (loading the data sets) collected outside the timings
  res <- list()
  for (me in spec$methods) {
    opts <- spec_options(spec_field(me, "Options"))
    if (!is.na(same <- spec_field(me, "Same-m-as"))) opts$m <- res[[same]]$m
    call <- switch(me[["Call"]], rand = attsparse_rand, det = attsparse_det)
    res[[me[["Method"]]]] <- do.call(call, c(list(X), opts))
  }
  cols <- spec$columns
  value <- function(col, method, scaled = FALSE) {
    field <- col[["Result"]]
    if (field == "method") return(method)
    v <- res[[method]][[field]]
    if (is.null(v)) v <- NA_real_
    if (scaled && "Scale" %in% names(col)) v * as.numeric(col[["Scale"]]) else v
  }
  # the returned table holds the results unscaled (fractions, not percent)
  rows <- as.data.frame(lapply(cols, function(col) unname(unlist(lapply(names(res), value, col = col)))),
                        stringsAsFactors = FALSE, col.names = names(cols))
  if (verbose) {
    sparse <- inherits(X, "sparseMatrix")
    cat("\n", sprintf(spec$table[[1]][["Input-line"]], name, nrow(X), ncol(X),
                      if (sparse) "sparse" else "dense", if (sparse) length(X@x) else sum(X != 0),
                      res[[1]]$r), "\n", sep = "")
    cat(paste(vapply(cols, function(col) sprintf(col[["Heading-format"]], col[["Heading"]]), ""),
              collapse = " "), "\n", sep = "")
    for (method in names(res))
      cat(paste(vapply(cols, function(col) {
        v <- value(col, method, scaled = TRUE)
        sprintf(col[["Format"]], if (endsWith(col[["Format"]], "d")) as.integer(v) else v)
      }, ""), collapse = " "), "\n", sep = "")
  }
  cbind(input = name, rows, stringsAsFactors = FALSE)
}

demo_legend <- function(spec) cat("\n", spec$table[[1]][["Legend"]], "\n", sep = "")

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
# X is the spec's input for this plot, m0 its default m (from its table).
demo_plot_m <- function(outdir, rec, quick, X, m0) {
  ms <- spec_numbers(rec, "M", quick)
  seeds <- spec_numbers(rec, "Seeds", quick)
  probs <- strsplit(rec[["Probabilities"]], " +")[[1]]
  opts <- spec_options(spec_field(rec, "Options"))
  err <- array(NA_real_, c(length(ms), length(probs), 2, length(seeds)),
               list(NULL, probs, c("rel", "inf"), NULL))
  for (a in seq_along(ms)) for (p in probs) for (s in seq_along(seeds)) {
    res <- do.call(attsparse_rand, c(list(X, m = ms[a], seed = seeds[s], probabilities = p), opts))
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
demo_plot_r <- function(outdir, rec, quick) {
  rs <- spec_numbers(rec, "R", quick)
  ex <- spec_options(rec[["Example"]])
  cols <- c("rand rel", "det rel", "baseline rel", "bound (rand)", "rand inf", "det inf", "baseline inf")
  E <- matrix(NA_real_, length(rs), length(cols), dimnames = list(NULL, cols))
  for (a in seq_along(rs)) {
    X <- do.call(attsparse_example, c(ex, list(r = rs[a])))
    ra <- do.call(attsparse_rand, c(list(X), spec_options(rec[["Rand"]])))
    de <- do.call(attsparse_det, c(list(X), spec_options(rec[["Det"]])))
    base <- attention_error(X, X[, 0, drop = FALSE])
    E[a, ] <- c(ra$rel_error, de$rel_error, base$rel, ra$bound, ra$error, de$error, base$inf)
  }
  path <- demo_png(outdir, "error_vs_r.png")
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(1, 2))
  for (what in list(1:4, 5:7)) {
    Y <- E[, what, drop = FALSE]
    demo_lines(rs, Y, main = paste(if (what[1] == 1) "rel" else "inf", "error vs r = max|XX'|"),
               xlab = sprintf("r (n = %d, d = %d)", ex$n, ex$d), ylab = "error", legend_pos = "topleft",
               lty = c(1, 1, 2, 3)[seq_along(what)], shade = c(1e-9, 0.1))
    graphics::text(0.1, min(Y), "paper's regime\nr < 0.1", adj = c(1.1, 0), cex = 0.75)
  }
  path
}

# The sparse input of the time plot: blocks attsparse_example(n, block, r = 1, seed = b) side by side,
# entries at most threshold / sqrt(block) in magnitude dropped (the same matrix as in Octave).
demo_sparse_input <- function(n, d, block, threshold) {
  cut <- threshold / sqrt(block)
  blocks <- lapply(seq_len(ceiling(d / block)), function(b) {
    B <- attsparse_example(n = n, d = block, r = 1, seed = b)
    B[abs(B) <= cut] <- 0
    Matrix::Matrix(B, sparse = TRUE)
  })
  as(do.call(cbind, blocks)[, seq_len(d), drop = FALSE], "CsparseMatrix")
}

# 3. time of the randomized algorithm and of the exact Gram against nnz(X).
demo_plot_time <- function(outdir, rec, quick) {
  n <- spec_numbers(rec, "N")
  ds <- spec_numbers(rec, "D", quick)
  reps <- spec_numbers(rec, "Repeats")
  opts <- spec_options(rec[["Rand"]])
  best <- function(f) min(vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0))
  tm <- matrix(NA_real_, length(ds), 2, dimnames = list(NULL, c("attsparse_rand", "exact Gram tcrossprod(X)")))
  nnz <- numeric(length(ds))
  for (a in seq_along(ds)) {
    X <- demo_sparse_input(n, ds[a], spec_numbers(rec, "Block"), spec_numbers(rec, "Threshold"))
    nnz[a] <- length(X@x)
    tm[a, ] <- c(best(function() do.call(attsparse_rand, c(list(X), opts))),
                 best(function() Matrix::tcrossprod(X)))
  }
  tm[tm <= 0] <- 1e-3   # below the timer's resolution
  path <- demo_png(outdir, "time_vs_nnz.png", width = 600)
  on.exit(grDevices::dev.off())
  demo_lines(nnz, tm, main = sprintf("time vs nnz(X), n = %d (best of %d)", n, reps), xlab = "nnz(X)",
             ylab = "seconds", legend_pos = "topleft")
  path
}

# 4. columns kept by the deterministic algorithm against n, with its budget max_columns = ceil(b rank)
# and b as the det result gives them.
demo_plot_k <- function(outdir, rec, quick) {
  ns <- spec_numbers(rec, "N", quick)
  ex <- spec_options(rec[["Example"]])
  K <- matrix(NA_real_, length(ns), 3, dimnames = list(NULL, c("budget ceil(b rank)", "k (distinct columns)",
                                                              "m (iterations)")))
  for (a in seq_along(ns)) {
    res <- do.call(attsparse_det, c(list(do.call(attsparse_example, c(list(n = ns[a]), ex))),
                                    spec_options(rec[["Det"]])))
    K[a, ] <- c(res$max_columns, length(res$index), res$m)
  }
  path <- demo_png(outdir, "k_vs_n.png", width = 600)
  on.exit(grDevices::dev.off())
  demo_lines(ns, K, main = sprintf("deterministic: columns vs n (eps = %g, b = %.3g)", res$eps, res$b),
             xlab = sprintf("n (d = %d)", ex$d), ylab = "columns", legend_pos = "topleft", lty = c(1, 1, 1),
             pch = c(NA, 1, 2), col = c("grey75", "black", "red"), lwd = c(6, 1, 1))
  path
}

attsparse_demo <- function(outdir = file.path(tempdir(), "attsparse-demo"), inputs = list(),
                           quick = FALSE, plots = TRUE, verbose = TRUE, data = NULL) {
  check_flag(quick, "quick")
  check_flag(plots, "plots")
  check_flag(verbose, "verbose")
  if (!is.list(inputs) || (length(inputs) && (is.null(names(inputs)) || any(names(inputs) == ""))))
    stop("'inputs' must be a named list of matrices", call. = FALSE)
  if (!is.null(data) && !(is.character(data) && length(data) == 1 && dir.exists(data)))
    stop("'data' must be the name of a directory", call. = FALSE)
  spec <- demo_spec()
  inputs <- c(demo_inputs(spec, data, verbose), inputs)
  tables <- lapply(names(inputs), function(nm) demo_table(nm, inputs[[nm]], spec, verbose))
  names(tables) <- names(inputs)
  if (verbose) demo_legend(spec)
  files <- character()
  if (plots) {
    if (!dir.exists(outdir) && !dir.create(outdir, recursive = TRUE))
      stop(sprintf("'outdir': cannot create directory '%s'", outdir), call. = FALSE)
    progress <- function(i, what) if (verbose) cat(sprintf("plot %d of 4: %s ...\n", i, what))
    pl <- spec$plots
    on <- pl$error_vs_m[["On-input"]]
    progress(1, "error against m")
    files <- c(error_vs_m = demo_plot_m(outdir, pl$error_vs_m, quick, inputs[[on]], tables[[on]]$m[1]))
    progress(2, "error against r")
    files <- c(files, error_vs_r = demo_plot_r(outdir, pl$error_vs_r, quick))
    progress(3, "time against nnz(X)")
    files <- c(files, time_vs_nnz = demo_plot_time(outdir, pl$time_vs_nnz, quick))
    progress(4, "columns against n")
    files <- c(files, k_vs_n = demo_plot_k(outdir, pl$k_vs_n, quick))
    if (verbose) cat("\nplots:", files, sep = "\n  ")
  }
  invisible(list(table = do.call(rbind, unname(tables)), files = files))
}
