# methods.R: print, summary and as.matrix for "attsparse" results.

fmt_pct <- function(x) if (is.na(x)) "NA" else sprintf("%.3g%%", 100 * x)
fmt_num <- function(x) if (is.na(x)) "NA" else formatC(x, digits = 3, format = "g")

print.attsparse <- function(x, ...) {
  what <- if (x$method == "randomized")
            sprintf("randomized, %s probabilities, %s sampling", x$probabilities,
                    if (is.null(x$sampling)) "iid" else x$sampling)
          else "deterministic (BSS)"
  cat(sprintf("<attsparse: %s>\n", what))
  cat(sprintf("  X: %d x %d %s -> Y: %d x %d (%s = %s)\n", x$dim[1], x$dim[2],
              if (x$sparse) "sparse" else "dense", x$dim[1], length(x$index),
              if (x$method == "randomized") "draws m" else "iterations", format(x$m)))
  if (is.na(x$error)) {
    cat("  error not computed (error = FALSE)\n")
  } else {
    cat(sprintf("  rel error %s (uniform baseline %s), inf error %s, spectral eps %s\n",
                fmt_pct(x$rel_error), fmt_pct(x$baseline), fmt_num(x$error), fmt_num(x$eps_spectral)))
  }
  if (!is.null(x$rel_estimate))
    cat(sprintf("  estimated rel error %s (bootstrap 95%% quantile, without X X')%s\n",
                fmt_pct(x$rel_estimate),
                if (!is.null(x$rounds) && x$rounds > 1) sprintf(", %d rounds", x$rounds) else ""))
  cat(sprintf("  time %.3g s%s\n", x$time,
              if (is.na(x$error_time)) "" else sprintf(" (error evaluation %.3g s)", x$error_time)))
  invisible(x)
}

summary.attsparse <- function(object, ...) {
  s <- list(method = object$method, dim = object$dim, sparse = object$sparse,
            k = length(object$index), m = object$m, rank = object$rank, eps = object$eps,
            metrics = c(inf = object$error, rel = object$rel_error, baseline = object$baseline,
                        r = object$r, eps_spectral = object$eps_spectral, bound = object$bound),
            weight = summary(object$weight), time = object$time, error_time = object$error_time,
            seed = object$seed, sampling = object$sampling, probabilities = object$probabilities,
            rel_estimate = object$rel_estimate, inf_estimate = object$inf_estimate)
  class(s) <- "summary.attsparse"
  s
}

print.summary.attsparse <- function(x, ...) {
  cat(sprintf("attsparse %s sketch of a %d x %d %s matrix\n", x$method, x$dim[1], x$dim[2],
              if (x$sparse) "sparse" else "dense"))
  cat(sprintf("  columns kept k = %d of %d (%.3g%%), %s = %s, rank %s, target eps %s%s\n",
              x$k, x$dim[2], 100 * x$k / x$dim[2],
              if (x$method == "randomized") "draws" else "iterations", format(x$m),
              format(x$rank), format(x$eps), if (is.null(x$seed)) "" else sprintf(", seed %s", format(x$seed))))
  cat("  metrics:\n")
  m <- x$metrics
  cat(sprintf("    inf error  max|Att(Y) - Att(X)|     %s\n", fmt_num(m[["inf"]])))
  cat(sprintf("    rel error  max|Att(Y)/Att(X) - 1|   %s\n", fmt_pct(m[["rel"]])))
  cat(sprintf("    baseline   rel error of Y = 0       %s\n", fmt_pct(m[["baseline"]])))
  cat(sprintf("    r          max|X X'|                %s\n", fmt_num(m[["r"]])))
  cat(sprintf("    spectral   eps of Y Y' vs X X'      %s\n", fmt_num(m[["eps_spectral"]])))
  cat(sprintf("    bound      exp(2 eps max G_ii) - 1  %s\n", fmt_num(m[["bound"]])))
  if (!is.null(x$rel_estimate)) {
    cat(sprintf("  estimates from Y alone (%s probabilities, %s sampling; bootstrap 95%% quantile):\n",
                x$probabilities, x$sampling))
    cat(sprintf("    rel error  %s\n", fmt_pct(x$rel_estimate)))
    cat(sprintf("    inf error  %s\n", fmt_num(x$inf_estimate)))
  }
  cat("  weights:\n")
  print(x$weight)
  cat(sprintf("  time %.3g s, error evaluation %s s\n", x$time, fmt_num(x$error_time)))
  invisible(x)
}

as.matrix.attsparse <- function(x, ...) as.matrix(x$Y)
