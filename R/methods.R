# methods.R: print, summary and as.matrix for "attsparse" results.
# Both print methods stay a few lines long whatever the size of X or Y: they show scalars and
# dimensions, never Y, index or weight in full. Fields they do not know (added by newer options)
# are listed generically, scalars by value and the rest by their dimensions.

fmt_pct <- function(x) if (is.null(x) || !length(x) || is.na(x[1])) "NA" else sprintf("%.3g%%", 100 * x[1])
fmt_num <- function(x) if (is.null(x) || !length(x) || is.na(x[1])) "NA" else trimws(formatC(x[1], digits = 3, format = "g"))
# a field as one value, NA when the result does not have it
field <- function(x, name) if (is.null(x[[name]]) || !length(x[[name]])) NA else x[[name]][[1]]

# the fields print and summary show by name; anything else goes to the generic listing
known_fields <- c("Y", "index", "weight", "m", "k", "error", "rel_error", "r", "baseline",
                  "eps_spectral", "bound", "rank", "method", "dim", "sparse", "time",
                  "error_time", "seed", "eps", "probabilities", "sampling", "rel_estimate",
                  "inf_estimate", "estimate", "estimate_why", "rounds", "rel_target", "refit_rel")
# and those shown by name for a greedy result only (a det result lists its max_columns generically)
known_greedy <- c("max_columns", "approach")

# A greedy result's aim in words: the target and whether the exact rel meets it, or the column budget.
greedy_aim <- function(rel_target, max_columns, rel) {
  if (!is.na(rel_target))
    sprintf("target rel %s %s", fmt_pct(rel_target), if (!is.na(rel) && rel <= rel_target) "met" else "NOT met")
  else if (!is.na(max_columns)) sprintf("budget k <= %s columns", format(max_columns))
  else "no target"
}
greedy_certificate <- "exact: measured against X X', a certificate, not an estimate"

# what the estimate of a randomized result is, in words (the core names it in `estimate`)
estimate_words <- function(kind) switch(kind,
  gaussian = "gaussian 95% quantile",
  bootstrap = "bootstrap, 29th of 30 resamples: covers about 90%",
  exact = "every column with a chance kept for certain: Y Y' = X X'",
  kind)

# "  no error estimate: <why>" in lines of at most 80 characters
say_no_estimate <- function(why, more = "")
  cat(strwrap(sprintf("no error estimate: %s%s", why, more), width = 78, indent = 2, exdent = 4), sep = "\n")

# "name value" for a scalar, "name d1 x d2 class" otherwise
describe_field <- function(name, value) {
  if (is.atomic(value) && length(value) == 1L && is.null(dim(value))) {
    v <- if (is.numeric(value)) fmt_num(value) else format(value)
    return(paste(name, v))
  }
  shape <- if (!is.null(dim(value))) paste(dim(value), collapse = " x ") else sprintf("length %d", length(value))
  sprintf("%s [%s %s]", name, shape, class(value)[1])
}

# `items` joined by ", " into lines of at most `width` characters, never splitting an item
wrap_items <- function(items, indent = "    ", width = getOption("width", 80)) {
  lines <- character(0)
  line <- ""
  for (i in seq_along(items)) {
    piece <- if (i < length(items)) paste0(items[i], ",") else items[i]
    if (nzchar(line) && nchar(indent) + nchar(line) + 1 + nchar(piece) > width) {
      lines <- c(lines, line)
      line <- piece
    } else line <- if (nzchar(line)) paste(line, piece) else piece
  }
  if (nzchar(line)) lines <- c(lines, line)
  paste0(indent, lines)
}

print.attsparse <- function(x, ...) {
  method <- field(x, "method")
  rand <- identical(method, "randomized")
  greedy <- identical(method, "greedy")
  what <- if (rand) sprintf("randomized, %s probabilities, %s sampling", format(field(x, "probabilities")),
                            if (is.na(field(x, "sampling"))) "iid" else format(field(x, "sampling")))
          else if (identical(method, "deterministic")) "deterministic (BSS)"
          else if (greedy) sprintf("greedy, %s", greedy_aim(field(x, "rel_target"), field(x, "max_columns"),
                                                            field(x, "rel_error")))
          else format(method)
  dims <- if (length(x$dim) == 2L) x$dim else c(NA, NA)
  cat(sprintf("<attsparse: %s>\n", what))
  cat(sprintf("  X: %s x %s %s -> Y: %s x %d (%s = %s)\n", format(dims[1]), format(dims[2]),
              if (isTRUE(x$sparse)) "sparse" else "dense", format(dims[1]), length(x$index),
              if (rand) "draws m" else if (greedy && identical(field(x, "approach"), "sample")) "sample path, draws"
              else if (greedy) "rounds" else "iterations", format(field(x, "m"))))
  if (is.na(field(x, "error"))) {
    cat("  error not computed (error = FALSE)\n")
  } else {
    cat(sprintf("  rel error %s (uniform baseline %s), inf error %s, spectral eps %s\n",
                fmt_pct(x$rel_error), fmt_pct(x$baseline), fmt_num(x$error), fmt_num(x$eps_spectral)))
  }
  if (greedy) cat(sprintf("  rel error %s\n", greedy_certificate))
  refit_rel <- field(x, "refit_rel")
  if (!is.na(refit_rel))
    cat(sprintf("  refit: rel error %s with the sample's own weights, %s after (zero weights dropped)\n",
                fmt_pct(refit_rel), fmt_pct(x$rel_error)))
  rel_estimate <- field(x, "rel_estimate")
  kind <- field(x, "estimate")
  rounds <- field(x, "rounds")
  many <- !is.na(rounds) && rounds > 1   # the target mode's samples
  if (!is.na(rel_estimate)) {
    cat(sprintf("  estimated rel error %s (%s, without X X')%s\n", fmt_pct(rel_estimate),
                estimate_words(if (is.na(kind)) "gaussian" else kind),
                if (many) sprintf(", %d rounds", rounds) else ""))
  } else if (rand && !is.na(kind))
    say_no_estimate(field(x, "estimate_why"), if (many) sprintf("; %d samples drawn", rounds) else "")
  error_time <- field(x, "error_time")
  cat(sprintf("  time %s s%s\n", fmt_num(x$time),
              if (is.na(error_time)) "" else sprintf(" (error evaluation %s s)", fmt_num(error_time))))
  invisible(x)
}

summary.attsparse <- function(object, ...) {
  f <- function(name) field(object, name)
  other <- setdiff(names(object), c(known_fields, if (identical(f("method"), "greedy")) known_greedy))
  s <- list(method = f("method"), dim = object$dim, sparse = isTRUE(object$sparse),
            k = length(object$index), m = f("m"), rank = f("rank"), eps = f("eps"),
            metrics = c(inf = f("error"), rel = f("rel_error"), baseline = f("baseline"),
                        r = f("r"), eps_spectral = f("eps_spectral"), bound = f("bound")),
            weight = summary(as.numeric(object$weight)), time = f("time"),
            error_time = f("error_time"), seed = object$seed,
            sampling = f("sampling"), probabilities = f("probabilities"),
            rel_estimate = f("rel_estimate"), inf_estimate = f("inf_estimate"),
            estimate = f("estimate"), estimate_why = f("estimate_why"),
            rel_target = f("rel_target"), rounds = f("rounds"), max_columns = f("max_columns"),
            refit_rel = f("refit_rel"), approach = f("approach"),
            other = vapply(other, function(n) describe_field(n, object[[n]]), ""))
  class(s) <- "summary.attsparse"
  s
}

print.summary.attsparse <- function(x, ...) {
  rand <- identical(x$method, "randomized")
  greedy <- identical(x$method, "greedy")
  dims <- if (length(x$dim) == 2L) x$dim else c(NA, NA)
  cat(sprintf("attsparse %s sketch of a %s x %s %s matrix\n", format(x$method), format(dims[1]),
              format(dims[2]), if (x$sparse) "sparse" else "dense"))
  if (greedy) {
    cat(sprintf("  columns kept k = %d of %s (%s%%), %s %s, %s\n", x$k, format(dims[2]),
                fmt_num(100 * x$k / dims[2]), format(x$rounds),
                if (identical(x$approach, "sample")) "draws of the sample path" else "rounds",
                greedy_aim(x$rel_target, x$max_columns, x$metrics[["rel"]])))
    cat(sprintf("  metrics (%s):\n", greedy_certificate))
  } else {
    # target mode: the rel asked for, and eps when given (a floor on m)
    target <- if (is.na(x$rel_target)) sprintf("target eps %s", format(x$eps)) else
      sprintf("target rel %s%s, %d rounds", fmt_pct(x$rel_target),
              if (is.na(x$eps)) "" else sprintf(" with eps %s", format(x$eps)), x$rounds)
    cat(sprintf("  columns kept k = %d of %s (%s%%), %s = %s, rank %s, %s%s\n",
                x$k, format(dims[2]), fmt_num(100 * x$k / dims[2]),
                if (rand) "draws" else "iterations", format(x$m),
                format(x$rank), target, if (is.null(x$seed)) "" else sprintf(", seed %s", format(x$seed[1]))))
    cat("  metrics:\n")
  }
  m <- x$metrics
  cat(sprintf("    inf error  max|Att(Y) - Att(X)|     %s\n", fmt_num(m[["inf"]])))
  cat(sprintf("    rel error  max|Att(Y)/Att(X) - 1|   %s\n", fmt_pct(m[["rel"]])))
  cat(sprintf("    baseline   rel error of Y = 0       %s\n", fmt_pct(m[["baseline"]])))
  cat(sprintf("    r          max|X X'|                %s\n", fmt_num(m[["r"]])))
  cat(sprintf("    spectral   eps of Y Y' vs X X'      %s\n", fmt_num(m[["eps_spectral"]])))
  cat(sprintf("    bound      exp(2 eps max G_ii) - 1  %s\n", fmt_num(m[["bound"]])))
  if (!is.na(x$rel_estimate)) {
    cat(sprintf("  estimates from Y alone (%s; %s probabilities, %s sampling):\n",
                estimate_words(if (is.na(x$estimate)) "gaussian" else x$estimate), x$probabilities, x$sampling))
    cat(sprintf("    rel error  %s\n", fmt_pct(x$rel_estimate)))
    cat(sprintf("    inf error  %s\n", fmt_num(x$inf_estimate)))
  } else if (rand && !is.na(x$estimate)) say_no_estimate(x$estimate_why)
  if (!is.na(x$refit_rel))
    cat(sprintf("  refit: rel error %s with the sample's own weights (exact after the refit)\n",
                fmt_pct(x$refit_rel)))
  if (x$k == 0) cat("  weights: none (no column kept)\n") else {
    cat("  weights:\n")
    print(x$weight)
  }
  cat(sprintf("  time %s s, error evaluation %s s\n", fmt_num(x$time), fmt_num(x$error_time)))
  if (length(x$other)) {
    cat("  other fields:\n")
    cat(wrap_items(x$other), sep = "\n")
  }
  invisible(x)
}

as.matrix.attsparse <- function(x, ...) as.matrix(x$Y)

# ---- R's usual methods on a result

# the kept features: name (NA without column names), column index in X, weight
as.data.frame.attsparse <- function(x, row.names = NULL, optional = FALSE, ...) {
  idx <- as.integer(x$index)
  nm <- names(x$index)
  data.frame(feature = if (is.null(nm)) rep(NA_character_, length(idx)) else nm, index = idx,
             weight = as.numeric(x$weight), row.names = row.names, stringsAsFactors = FALSE)
}

coef.attsparse <- function(object, ...) {
  w <- as.numeric(object$weight)
  names(w) <- if (is.null(names(object$index))) as.character(object$index) else names(object$index)
  w
}

# the dimensions of Y: rows of X by columns kept
dim.attsparse <- function(x) c(as.integer(x$dim[[1L]]), length(x$index))
nobs.attsparse <- function(object, ...) as.integer(object$dim[[1L]])

format.attsparse <- function(x, ...) {
  rel <- field(x, "rel_error")
  sprintf("<attsparse %s: %s x %s -> %d columns, rel %s>", format(field(x, "method")), format(x$dim[[1L]]),
          format(x$dim[[2L]]), length(x$index), fmt_pct(rel))
}

# Left: the relative attention error with no column (Y = 0, the uniform baseline) and with the k
# columns kept, against the target when there is one; right: the weights of the kept columns.
plot.attsparse <- function(x, y, ...) {
  old <- graphics::par(mfrow = c(1L, 2L))
  on.exit(graphics::par(old))
  k <- length(x$index)
  rel <- c(field(x, "baseline"), field(x, "rel_error"))
  target <- field(x, "rel_target")
  ok <- is.finite(rel) & rel > 0
  yl <- range(c(rel[ok], if (is.finite(target)) target), na.rm = TRUE)
  if (!all(is.finite(yl))) yl <- c(1e-3, 1)
  graphics::plot(c(0, k)[ok], 100 * rel[ok], type = "b", log = "y", ylim = 100 * yl, pch = 19,
                 xlab = "columns kept", ylab = "rel attention error (%)",
                 main = sprintf("%s: %d of %s columns", format(field(x, "method")), k, format(x$dim[[2L]])), ...)
  graphics::abline(h = 100 * rel[1L], lty = 3)
  if (is.finite(target)) graphics::abline(h = 100 * target, lty = 2, col = "red")
  graphics::legend("topright", bty = "n", lty = c(3, if (is.finite(target)) 2), col = c("black", if (is.finite(target)) "red"),
                   legend = c("baseline (Y = 0)", if (is.finite(target)) "target"))
  w <- as.numeric(x$weight)
  if (k) graphics::plot(seq_len(k), w, type = "h", xlab = "kept column (in X's order)", ylab = "weight",
                        main = "weights") else graphics::plot.new()
  invisible(x)
}

# tidy and glance (the generics package's, registered when it is installed)
tidy.attsparse <- function(x, ...) as.data.frame(x)
glance.attsparse <- function(x, ...)
  data.frame(method = format(field(x, "method")), nobs = as.integer(x$dim[[1L]]), features = as.integer(x$dim[[2L]]),
             k = length(x$index), rel_error = as.numeric(field(x, "rel_error")),
             baseline = as.numeric(field(x, "baseline")), rel_target = as.numeric(field(x, "rel_target")),
             time = as.numeric(field(x, "time")), stringsAsFactors = FALSE)
