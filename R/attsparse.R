# attsparse.R: the user-facing functions; every numerical step is a .Call into the C core.

RAND_OPTIONS <- c("probabilities", "leverage", "jl", "s1", "s", "s2", "beta", "memory", "threads",
                  "verbose", "spectral", "sampling", "estimate", "rel")

# The randomized options checked here rather than by collect_options: a
# choice, a flag and a number (their ranges and defaults are the core's).
rand_accuracy_options <- function(dots) {
  out <- list()
  if (!is.null(v <- dots[["sampling", exact = TRUE]])) {
    if (!is.character(v) || length(v) != 1L || is.na(v))
      stop("'sampling' must be a single string: \"iid\" or \"poisson\"", call. = FALSE)
    out$sampling <- v
  }
  if (!is.null(v <- dots[["estimate", exact = TRUE]])) {
    check_flag(v, "estimate")
    out$estimate <- as.numeric(v)
  }
  if (!is.null(v <- dots[["rel", exact = TRUE]])) {
    check_number(v, "rel")
    out$rel <- as.numeric(v)
  }
  if (is.null(names(dots))) return(list(core = out, dots = dots))
  list(core = out, dots = dots[!(names(dots) %in% c("sampling", "estimate", "rel"))])
}
DET_OPTIONS <- c("leaf", "memory", "search", "threads", "verbose", "spectral")

elapsed <- function() proc.time()[["elapsed"]]

# Turn the core's result into an "attsparse" object, with the metrics when asked.
new_attsparse <- function(X, res, method, error, spectral, threads, time, extra) {
  n <- nrow(X)
  Y <- res$Y
  if (inherits(X, "dgCMatrix")) {
    Y <- new("dgCMatrix", Dim = c(n, length(res$index)), p = Y$p, i = Y$i, x = Y$x,
             Dimnames = list(rownames(X), colnames(X)[res$index]))
  } else if (!is.null(dimnames(X))) {
    dimnames(Y) <- list(rownames(X), colnames(X)[res$index])
  }
  metrics <- c(inf = NA_real_, rel = NA_real_, baseline = NA_real_, r = NA_real_,
               eps_spectral = NA_real_, bound = NA_real_)
  error_time <- NA_real_
  if (error) {
    t0 <- elapsed()
    metrics <- .Call(C_error, X, res$index, res$weight, spectral, threads)
    error_time <- elapsed() - t0
    warn_overflow(metrics)
  }
  out <- c(list(Y = Y, index = res$index, weight = res$weight, m = res$m, k = res$k,
                error = metrics[["inf"]], rel_error = metrics[["rel"]], r = metrics[["r"]],
                baseline = metrics[["baseline"]], eps_spectral = metrics[["eps_spectral"]],
                bound = metrics[["bound"]], rank = res$rank, method = method,
                dim = dim(X), sparse = inherits(X, "dgCMatrix"),
                time = time, error_time = error_time),
           extra)
  structure(out, class = "attsparse")
}

# The relative metrics are ratios of attention entries near exp(-2 r): past
# r of about 350 they overflow to Inf, which is said, not left silent.
warn_overflow <- function(metrics) {
  if (!is.finite(metrics[["rel"]]) || !is.finite(metrics[["baseline"]]))
    warning(sprintf(paste0("the relative attention error overflows to Inf: max |X X'| = %g, so Att(X) ",
                           "has entries near exp(-%g); the spectral eps is unaffected"),
                    metrics[["r"]], 2 * metrics[["r"]]), call. = FALSE)
}

# The argument names as the caller typed them, the caller's own `...`
# expanded (a wrapper f <- function(...) attsparse_rand(...) passes names on).
typed_names <- function(call, env) {
  args <- as.list(call)[-1L]
  nms <- names(args)
  if (is.null(nms)) nms <- rep("", length(args))
  out <- character()
  for (a in seq_along(args)) {
    if (identical(args[[a]], quote(...))) {
      # the caller's `...` as tagged expressions, without evaluating them
      dots <- as.list(eval(quote(substitute(list(...))), env))[-1L]
      dn <- names(dots)
      if (is.null(dn)) dn <- rep("", length(dots))
      out <- c(out, dn)
    } else out <- c(out, nms[a])
  }
  out
}

# R matches a name that starts a formal argument to it (`s = 8` to `seed`,
# `m = 3` to `method`). Such names are options, never abbreviations: returns
# the typed names that R matched partially, named by the formal they took.
partial_matches <- function(call, env, formal_names) {
  all_typed <- typed_names(call, env)
  free <- formal_names[!formal_names %in% all_typed]   # formals not given by full name
  typed <- all_typed[nzchar(all_typed) & !all_typed %in% formal_names]
  hit <- vapply(typed, function(t) {
    f <- free[startsWith(free, t)]
    if (length(f) == 1L) f else ""
  }, "")
  hit[nzchar(hit)]
}

# The options of a call: `dots`, plus every value R gave a formal argument
# (of `defaults`, besides X) through a partial name; that argument goes back
# to its default in `fenv`, the function's frame.
options_not_abbreviations <- function(call, env, fenv, dots, defaults) {
  pm <- partial_matches(call, env, c("X", names(defaults)))
  for (t in names(pm)) {
    dots[t] <- list(get(pm[[t]], envir = fenv))
    assign(pm[[t]], defaults[[pm[[t]]]], envir = fenv)
  }
  dots
}

attsparse_rand <- function(X, m = NULL, eps = 0.5, delta = 0.01, seed = NULL, error = TRUE, ...) {
  # an option typed `s = 8` (or `d = `, ...) is an option, not the start of `seed`
  dots <- options_not_abbreviations(sys.call(), parent.frame(), environment(), list(...),
                                    list(m = NULL, eps = 0.5, delta = 0.01, seed = NULL, error = TRUE))
  # a DelayedMatrix (HDF5Array, ...) is read by blocks of columns (R/blocks.R)
  blocks <- block_options(X, dots)
  if (!is.null(blocks)) dots <- blocks$dots
  acc <- rand_accuracy_options(dots)
  opts <- collect_options(acc$dots, RAND_OPTIONS)
  if (is.null(blocks)) X <- as_input(X)
  check_number(m, "m", lower = 1, upper = 2147483647, whole = TRUE, null_ok = TRUE)
  check_number(eps, "eps")
  check_number(delta, "delta")
  check_flag(error, "error")
  if (is.null(seed)) seed <- seed_from_rng()
  check_number(seed, "seed", lower = 0, upper = 2^53 - 1, whole = TRUE)
  spectral <- if (is.null(opts$spectral)) error else as.logical(opts$spectral)
  threads <- if (is.null(opts$threads)) 0 else opts$threads
  opts$spectral <- NULL
  core_opts <- c(list(m = if (is.null(m)) 0 else as.numeric(m), eps = eps, delta = delta,
                      seed = as.numeric(seed)), opts, acc$core)
  if (!is.null(blocks))
    return(rand_blocks(X, blocks, core_opts, list(m = m, eps = eps, delta = delta, seed = seed, error = error),
                       spectral, threads))
  t0 <- elapsed()
  res <- .Call(C_rand, X, core_opts)
  time <- elapsed() - t0
  new_attsparse(X, res, "randomized", error, spectral, threads, time,
                list(seed = as.numeric(seed), eps = eps, delta = delta,
                     probabilities = res$probabilities,
                     sampling = res$sampling,
                     rel_target = if (is.null(acc$core$rel)) NA_real_ else acc$core$rel,
                     rel_estimate = res$rel_estimate, inf_estimate = res$inf_estimate,
                     rounds = res$rounds, s1 = res$s1, s = res$s, s2 = res$s2))
}

attsparse_det <- function(X, eps = 0.5, error = TRUE, ...) {
  if (is_block_input(X))
    stop(paste("attsparse_det needs X in memory (BSS revisits every column at every step);",
               "on a DelayedMatrix use attsparse_rand, or attsparse_det(as.matrix(X)) when X fits"),
         call. = FALSE)
  opts <- collect_options(list(...), DET_OPTIONS)
  X <- as_input(X)
  check_number(eps, "eps")
  check_flag(error, "error")
  spectral <- if (is.null(opts$spectral)) error else as.logical(opts$spectral)
  threads <- if (is.null(opts$threads)) 0 else opts$threads
  opts$spectral <- NULL
  t0 <- elapsed()
  res <- .Call(C_det, X, c(list(eps = eps), opts))
  time <- elapsed() - t0
  b <- ((1 + sqrt(1 - eps^2)) / eps)^2
  new_attsparse(X, res, "deterministic", error, spectral, threads, time,
                list(eps = eps, b = b, eps_bound = res$eps_bound,
                     max_columns = ceiling(b * res$rank)))
}

attention_error <- function(X, Y, spectral = FALSE, threads = 0) {
  if (is_block_input(X)) return(attention_error_blocks(X, Y, spectral, threads))
  X <- as_input(X)
  if (inherits(Y, "attsparse")) Y <- Y$Y
  Y <- as_input(Y, "Y")
  check_flag(spectral, "spectral")
  check_number(threads, "threads", lower = 0, upper = 1024, whole = TRUE)
  # Y of another kind than X is fine: each Gram is computed from its own storage
  out <- .Call(C_error_xy, X, Y, spectral, as.numeric(threads))
  warn_overflow(out)
  res <- as.list(out[c("inf", "rel", "baseline", "r")])
  if (spectral) res <- c(res, as.list(out[c("eps_spectral", "bound")]))
  res
}

sym_attention <- function(X, threads = 0) {
  X <- as_input(X)
  check_number(threads, "threads", lower = 0, upper = 1024, whole = TRUE)
  A <- .Call(C_softmax, X, as.numeric(threads))
  if (!is.null(rownames(X))) dimnames(A) <- list(rownames(X), rownames(X))
  A
}

leverage_scores <- function(X, method = c("approx", "exact"), seed = NULL, ...) {
  dots <- options_not_abbreviations(sys.call(), parent.frame(), environment(), list(...),
                                    list(method = c("approx", "exact"), seed = NULL))
  if (identical(method, c("approx", "exact"))) method <- "approx"
  if (!is.character(method) || length(method) != 1L || !method %in% c("approx", "exact"))
    stop(sprintf("'method' must be one of \"approx\" or \"exact\", got %s",
                 paste(deparse(method), collapse = " ")), call. = FALSE)
  opts <- collect_options(dots, c("jl", "s1", "s", "s2", "threads", "verbose"))
  X <- as_input(X)
  if (is.null(seed)) seed <- seed_from_rng()
  check_number(seed, "seed", lower = 0, upper = 2^53 - 1, whole = TRUE)
  scores <- .Call(C_leverage, X, c(list(leverage = method, seed = as.numeric(seed)), opts))
  names(scores) <- colnames(X)
  scores
}

attsparse_example <- function(n = 100, d = 20000, r = 0.05, seed = 1) {
  check_number(n, "n", lower = 1, whole = TRUE)
  check_number(d, "d", lower = 1, whole = TRUE)
  check_number(r, "r", lower = 0)
  check_number(seed, "seed", lower = 0, upper = 2^53 - 1, whole = TRUE)
  .Call(C_example, as.numeric(n), as.numeric(d), as.numeric(r), as.numeric(seed))
}

default_m <- function(rank, eps = 0.5, delta = 0.01, beta = 2) {
  check_number(rank, "rank", lower = 0, upper = 2147483647, whole = TRUE)
  check_open_unit(eps, "eps")
  check_open_unit(delta, "delta")
  check_number(beta, "beta", lower = 1)
  .Call(C_default_m, as.numeric(rank), eps, delta, beta)
}
