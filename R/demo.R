# demo.R: attsparse_demo(), the tables and plots that reproduce the paper's bounds. What runs and how the
# table prints is defined once, in inst/extdata/demo-spec.dcf, which Octave's attsparse_demo reads too; this
# file reads it and draws R's plots (docs/demo.md).

# Real data sets with d >> n from Debian's R packages, rows scaled so max_i G_ii = 1;
# NULL when the data package is not installed.
demo_data <- function(name = c("ALL", "acq", "crude", "golub", "lung")) {
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
    golub = if (have("multtest")) t(load_data("golub", "multtest")),
    # 16S rRNA counts of 78 lung samples: raw counts, a few features hold most of the squared norm
    lung = if (have("metagenomeSeq", "Biobase")) {
      counts <- Biobase::assayDataElement(load_data("lungData", "metagenomeSeq"), "counts")
      Matrix::Matrix(t(counts), sparse = TRUE)
    })
  if (is.null(X)) return(NULL)
  X / sqrt(max(Matrix::rowSums(X^2)))
}

# Values that go with a real data set's rows (the qkv table's V), NULL when it has none: for ALL, the
# one-hot B or T cell lineage of each sample.
demo_values <- function(name) {
  if (name != "ALL" || !requireNamespace("ALL", quietly = TRUE) || !requireNamespace("Biobase", quietly = TRUE))
    return(NULL)
  e <- new.env()
  utils::data(list = "ALL", package = "ALL", envir = e)
  lineage <- substr(as.character(e$ALL$BT), 1, 1)
  V <- cbind(B = as.numeric(lineage == "B"), T = as.numeric(lineage == "T"))
  rownames(V) <- Biobase::sampleNames(e$ALL)
  V
}

# The demo's definition (inst/extdata/demo-spec.dcf): records, each a named character vector, grouped by
# kind (the first of its fields: Table, Column, Method, Search, Input or Plot) and named by that field; the
# columns grouped by their table (In-table, methods when not given).
demo_spec <- function(path = system.file("extdata", "demo-spec.dcf", package = "attsparse")) {
  lines <- readLines(path, warn = FALSE)
  recs <- read.dcf(textConnection(lines[!startsWith(lines, "#")]))
  recs <- lapply(seq_len(nrow(recs)), function(i) recs[i, !is.na(recs[i, ])])
  kinds <- c(table = "Table", columns = "Column", methods = "Method", searches = "Search", inputs = "Input",
             plots = "Plot")
  kind <- vapply(recs, function(r) names(kinds)[match(TRUE, kinds %in% names(r))], "")
  spec <- lapply(names(kinds), function(k) {
    rs <- recs[kind == k]
    stats::setNames(rs, vapply(rs, function(r) r[[kinds[[k]]]], ""))
  })
  spec <- stats::setNames(spec, names(kinds))
  table_of <- vapply(spec$columns, function(col) if ("In-table" %in% names(col)) col[["In-table"]] else "methods", "")
  spec$columns <- lapply(stats::setNames(nm = names(spec$table)), function(t) spec$columns[table_of == t])
  spec
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

# The spec's inputs: the generated ones, then those whose file is in the directory data; values: the
# matrices of their Values-file (the qkv table's V), by input name.
demo_inputs <- function(spec, data, verbose) {
  out <- list()
  values <- list()
  for (rec in spec$inputs) {
    name <- rec[["Input"]]
    if ("Example" %in% names(rec)) {
      out[[name]] <- do.call(attsparse_example, spec_options(rec[["Example"]]))
    } else if (!is.null(data)) {
      path <- file.path(data, rec[["File"]])
      if (file.exists(path)) {
        out[[name]] <- demo_read_x(path)
        vpath <- file.path(data, spec_field(rec, "Values-file"))
        if ("Values-file" %in% names(rec) && file.exists(vpath)) values[[name]] <- demo_read_x(vpath)
      } else if (verbose) cat(sprintf("demo: no %s (its R data package is not installed)\n", path))
    }
  }
  list(X = out, values = values)
}

# One cell of a table line: the value of the column's Result field in row, times its Scale, in its Format;
# a missing value as "-" in the Heading-format.
demo_cell <- function(col, row) {
  v <- row[[col[["Result"]]]]
  if (is.null(v) || length(v) != 1 || is.na(v)) return(sprintf(col[["Heading-format"]], "-"))
  if ("Scale" %in% names(col)) v <- v * as.numeric(col[["Scale"]])
  sprintf(col[["Format"]], if (endsWith(col[["Format"]], "d")) as.integer(v) else v)
}

demo_heading <- function(cols)
  paste(vapply(cols, function(col) sprintf(col[["Heading-format"]], col[["Heading"]]), ""), collapse = " ")

demo_line <- function(cols, row) paste(vapply(cols, demo_cell, "", row = row), collapse = " ")

# The rows (named lists) as a data frame with a column per spec column, values unscaled (fractions, not
# percent), NA where a row has none.
demo_frame <- function(name, cols, rows) {
  get <- function(col) {
    v <- lapply(rows, function(r) { x <- r[[col[["Result"]]]]; if (is.null(x) || length(x) != 1) NA else x })
    unlist(v)
  }
  cbind(input = rep(name, length(rows)),
        as.data.frame(lapply(cols, get), stringsAsFactors = FALSE, col.names = names(cols)),
        stringsAsFactors = FALSE)
}

demo_kind <- function(X) if (inherits(X, "sparseMatrix")) "sparse" else "dense"

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
  rows <- lapply(names(res), function(method) utils::modifyList(res[[method]], list(method = method)))
  cols <- spec$columns$methods
  if (verbose) {
    cat("\n", sprintf(spec$table$methods[["Input-line"]], name, nrow(X), ncol(X), demo_kind(X),
                      if (demo_kind(X) == "sparse") length(X@x) else sum(X != 0), res[[1]]$r), "\n", sep = "")
    cat(demo_heading(cols), "\n", sep = "")
    for (row in rows) cat(demo_line(cols, row), "\n", sep = "")
  }
  demo_frame(name, cols, rows)
}

demo_legend <- function(spec, table) cat("\n", spec$table[[table]][["Legend"]], "\n", sep = "")

# A search's sweep: run(value) for each value in order until every target is met (or run returns NULL: the
# sweep stops there); for each target the first run with rel <= target, else NULL; best: the run of least rel.
demo_sweep <- function(values, run, targets) {
  hit <- vector("list", length(targets))
  best <- NULL
  for (v in values) {
    r <- run(v)
    if (is.null(r)) break
    if (is.null(best) || r$rel < best$rel) best <- r
    for (i in seq_along(targets)) if (is.null(hit[[i]]) && r$rel <= targets[i]) hit[[i]] <- r
    if (!any(vapply(hit, is.null, NA))) break
  }
  list(hit = hit, best = best)
}

# The widths k of a Gaussian projection Y = X G[, 1:k] / sqrt(k), in increasing order: run(k) draws the
# columns of G not drawn yet (R's normal generator from seed; G in blocks of rows), and times X G[, 1:k]
# from the first column. The generator's state is the caller's again on exit of the enclosing search.
demo_gaussian_run <- function(X, seed) {
  set.seed(seed)
  XG <- matrix(0, nrow(X), 0)
  elapsed <- 0
  function(k) {
    t0 <- proc.time()[["elapsed"]]
    w <- k - ncol(XG)
    if (w > 0) {
      B <- matrix(0, nrow(X), w)
      for (r0 in seq(1, ncol(X), by = 8192)) {
        rows <- r0:min(ncol(X), r0 + 8191)
        B <- B + as.matrix(X[, rows, drop = FALSE] %*% matrix(stats::rnorm(length(rows) * w), length(rows), w))
      }
      XG <<- cbind(XG, B)
    }
    elapsed <<- elapsed + proc.time()[["elapsed"]] - t0
    Y <- XG[, seq_len(k), drop = FALSE] / sqrt(k)
    list(k = k, rel = attention_error(X, Y)$rel, estimate = NA_real_, time = elapsed)
  }
}

# The exact reference: the Gram XX' (gram()) and its Cholesky factor, k = n (a ridge of 1e-12 max G_ii keeps
# a rank-deficient Gram positive definite).
demo_gram_chol <- function(X) {
  t0 <- proc.time()[["elapsed"]]
  G <- gram(X)
  L <- t(chol(G + diag(1e-12 * max(diag(G)), nrow(G))))
  time <- proc.time()[["elapsed"]] - t0
  list(k = nrow(X), rel = attention_error(X, L)$rel, estimate = NA_real_, time = time)
}

# A run's row: k, rel, estimate, time of an attsparse result, and the fields named by Detail-fields.
demo_run_row <- function(res) {
  res$rel <- res$rel_error
  res$estimate <- if (is.null(res$rel_estimate)) NA_real_ else res$rel_estimate
  res
}

# The rows of one search of the targets table (a Search record se) on X, one per target (once: one row).
demo_search <- function(X, se, targets, not_reached, quick) {
  n <- nrow(X)
  opts <- spec_options(spec_field(se, "Options"))
  sweep <- spec_field(se, "Sweep")
  values <- if ("Times-n" %in% names(se)) ceiling(n * spec_numbers(se, "Times-n", quick))
            else if ("Values" %in% names(se)) spec_numbers(se, "Values", quick)
  detail <- function(r) {
    fields <- if ("Detail-fields" %in% names(se)) strsplit(se[["Detail-fields"]], " +")[[1]] else character()
    do.call(sprintf, c(list(se[["Detail"]]), unname(r[fields])))
  }
  row <- function(target, r) c(list(target = target, method = se[["Search"]], detail = detail(r)),
                               r[c("k", "rel", "estimate", "time")])
  with_opt <- function(v) { o <- opts; o[[sweep]] <- v; o }
  call <- se[["Call"]]
  if (call == "gram-chol") return(list(row(NA_real_, demo_gram_chol(X))))
  if (call == "rand" && sweep == "rel")   # the target mode: one run per target
    return(lapply(targets, function(t) row(t, demo_run_row(do.call(attsparse_rand, c(list(X), with_opt(t)))))))
  run <- switch(call,
    rand = function(v) demo_run_row(do.call(attsparse_rand, c(list(X), with_opt(v)))),
    det = function(v) {
      b <- ((1 + sqrt(1 - v^2)) / v)^2
      if ("Max-work" %in% names(se) && ceiling(b * n) * n^2 > as.numeric(se[["Max-work"]])) return(NULL)
      demo_run_row(do.call(attsparse_det, c(list(X), with_opt(v))))
    },
    gaussian = {
      if (exists(".Random.seed", globalenv())) {
        saved <- get(".Random.seed", globalenv())
        on.exit(assign(".Random.seed", saved, globalenv()))
      } else on.exit(suppressWarnings(rm(".Random.seed", envir = globalenv())))
      demo_gaussian_run(X, spec_numbers(se, "Seed"))
    },
    stop(sprintf("demo-spec.dcf: search %s: unknown call '%s'", se[["Search"]], call), call. = FALSE))
  sw <- demo_sweep(values, run, targets)
  lapply(seq_along(targets), function(i) {
    if (!is.null(sw$hit[[i]])) return(row(targets[i], sw$hit[[i]]))
    r <- row(targets[i], sw$best)
    r$detail <- sprintf(not_reached, 100 * sw$best$rel, r$detail)
    r[c("k", "rel", "estimate")] <- NA_real_
    r
  })
}

# The targets table for one input: for each target, one row per search (the Once searches last).
demo_targets <- function(name, X, spec, verbose, quick) {
  invisible(gc(FALSE))
  tab <- spec$table$targets
  targets <- spec_numbers(tab, "Targets")
  base <- attention_error(X, X[, 0, drop = FALSE])$rel
  if (verbose) {
    cat("\n", sprintf(tab[["Input-line"]], name, nrow(X), ncol(X), 100 * base), "\n", sep = "")
    for (t in targets[targets >= base])
      cat(sprintf(tab[["Above-baseline-line"]], 100 * t, 100 * base), "\n", sep = "")
  }
  once <- vapply(spec$searches, function(se) identical(spec_field(se, "Once"), "true"), NA)
  found <- lapply(spec$searches, function(se) demo_search(X, se, targets, tab[["Not-reached"]], quick))
  rows <- c(unlist(lapply(seq_along(targets), function(i) lapply(found[!once], `[[`, i)), recursive = FALSE),
            unlist(found[once], recursive = FALSE))
  cols <- spec$columns$targets
  if (verbose) {
    cat(demo_heading(cols), "\n", sep = "")
    for (row in rows) cat(demo_line(cols, row), "\n", sep = "")
  }
  demo_frame(name, cols, rows)
}

# The qkv table for one input: Q its odd rows, K its even rows, V the even rows of values (or the spec's
# generated values when NULL); one row per m and probabilities.
demo_qkv <- function(name, X, values, spec, verbose, quick) {
  tab <- spec$table$qkv
  Q <- X[seq(1, nrow(X), by = 2), , drop = FALSE]
  K <- X[seq(2, nrow(X), by = 2), , drop = FALSE]
  if (is.null(values)) {
    ex <- spec_field(tab, "Values-example")
    V <- do.call(attsparse_example, c(list(n = nrow(K)), spec_options(ex)))
    what <- sprintf("attsparse_example(n = %d, %s)", nrow(K), ex)
  } else {
    V <- as.matrix(values)[seq(2, nrow(X), by = 2), , drop = FALSE]
    what <- spec_field(spec$inputs[[name]], "Values")
  }
  if (verbose) cat("\n", sprintf(tab[["Input-line"]], name, nrow(Q), ncol(Q), nrow(K), what), "\n", sep = "")
  opts <- spec_options(spec_field(tab, "Options"))
  rows <- list()
  for (m in spec_numbers(tab, "M", quick)) for (p in strsplit(tab[["Probabilities"]], " +")[[1]]) {
    res <- do.call(attsparse_rand, c(list(Q, K = K, V = V, m = m, probabilities = p), opts))
    res$method <- paste0("qk-", p)
    rows[[length(rows) + 1]] <- res
  }
  cols <- spec$columns$qkv
  if (verbose) {
    cat(demo_heading(cols), "\n", sep = "")
    for (row in rows) cat(demo_line(cols, row), "\n", sep = "")
  }
  demo_frame(name, cols, rows)
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
                           quick = FALSE, plots = TRUE, verbose = TRUE, data = NULL,
                           tables = c("methods", "targets", "qkv")) {
  check_flag(quick, "quick")
  check_flag(plots, "plots")
  check_flag(verbose, "verbose")
  if (!is.list(inputs) || (length(inputs) && (is.null(names(inputs)) || any(names(inputs) == ""))))
    stop("'inputs' must be a named list of matrices", call. = FALSE)
  if (!is.null(data) && !(is.character(data) && length(data) == 1 && dir.exists(data)))
    stop("'data' must be the name of a directory", call. = FALSE)
  spec <- demo_spec()
  if (!is.character(tables) || anyNA(tables) || !all(tables %in% names(spec$table)))
    stop(sprintf("'tables' must name some of the tables %s", paste(sprintf("\"%s\"", names(spec$table)),
                                                                   collapse = ", ")), call. = FALSE)
  # the caller's inputs checked before any table runs
  inputs[] <- lapply(names(inputs), function(nm) as_input(inputs[[nm]], sprintf("inputs$%s", nm)))
  found <- demo_inputs(spec, data, verbose)
  inputs <- c(found$X, inputs)
  out <- list()
  if ("methods" %in% tables) {
    out$table <- do.call(rbind, lapply(names(inputs), function(nm) demo_table(nm, inputs[[nm]], spec, verbose)))
    if (verbose) demo_legend(spec, "methods")
  }
  if ("targets" %in% tables) {
    out$targets <- do.call(rbind, lapply(names(inputs), function(nm)
      demo_targets(nm, inputs[[nm]], spec, verbose, quick)))
    if (verbose) demo_legend(spec, "targets")
  }
  if ("qkv" %in% tables) {
    on <- intersect(strsplit(spec$table$qkv[["On-inputs"]], " +")[[1]], names(inputs))
    out$qkv <- do.call(rbind, lapply(on, function(nm)
      demo_qkv(nm, inputs[[nm]], found$values[[nm]], spec, verbose, quick)))
    if (verbose) demo_legend(spec, "qkv")
  }
  files <- character()
  if (plots) {
    if (!dir.exists(outdir) && !dir.create(outdir, recursive = TRUE))
      stop(sprintf("'outdir': cannot create directory '%s'", outdir), call. = FALSE)
    progress <- function(i, what) if (verbose) cat(sprintf("plot %d of 4: %s ...\n", i, what))
    pl <- spec$plots
    on <- pl$error_vs_m[["On-input"]]
    m0 <- if (is.null(out$table)) attsparse_rand(inputs[[on]], seed = 1, error = FALSE, estimate = FALSE)$m
          else out$table$m[out$table$input == on][1]
    progress(1, "error against m")
    files <- c(error_vs_m = demo_plot_m(outdir, pl$error_vs_m, quick, inputs[[on]], m0))
    progress(2, "error against r")
    files <- c(files, error_vs_r = demo_plot_r(outdir, pl$error_vs_r, quick))
    progress(3, "time against nnz(X)")
    files <- c(files, time_vs_nnz = demo_plot_time(outdir, pl$time_vs_nnz, quick))
    progress(4, "columns against n")
    files <- c(files, k_vs_n = demo_plot_k(outdir, pl$k_vs_n, quick))
    if (verbose) cat("\nplots:", files, sep = "\n  ")
  }
  out$files <- files
  invisible(out)
}
