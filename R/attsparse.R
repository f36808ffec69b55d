# attsparse.R: the user-facing functions; every numerical step is a .Call into the C core.

# Every option (its name, kind, range and default) is the C core's (core/options.c):
# here the options are gathered by name and passed to one .Call.

# Turn the core's result into an "attsparse" object (Y, dgCMatrix or base
# matrix, is built by the glue; the metrics come from the same call).
new_attsparse <- function(X, res, method, extra) {
  metrics <- res$metrics
  if (!is.na(metrics[["r"]])) warn_overflow(metrics)
  out <- c(list(Y = res$Y, index = res$index, weight = res$weight, m = res$m, k = res$k,
                error = metrics[["inf"]], rel_error = metrics[["rel"]], r = metrics[["r"]],
                baseline = metrics[["baseline"]], eps_spectral = metrics[["eps_spectral"]],
                bound = metrics[["bound"]], rank = res$rank, method = method,
                dim = dim(X), sparse = inherits(X, "dgCMatrix"),
                time = res$time, error_time = res$error_time),
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

attsparse_rand <- function(X, m = NULL, eps = 0.5, delta = 0.01, seed = NULL, error = TRUE, ...,
                           K = NULL, V = NULL) {
  # an option typed `s = 8` (or `d = `, ...) is an option, not the start of `seed`
  dots <- options_not_abbreviations(sys.call(), parent.frame(), environment(), list(...),
                                    list(m = NULL, eps = 0.5, delta = 0.01, seed = NULL, error = TRUE))
  # a DelayedMatrix (HDF5Array, ...) is read by blocks of columns (R/blocks.R)
  blocks <- block_options(X, dots)
  if (!is.null(blocks)) {
    dots <- blocks$dots
    check_named(dots)
    if (!is.null(K) || !is.null(V)) stop("'K' and 'V' need X in memory, not a DelayedMatrix", call. = FALSE)
    if (is.null(seed)) seed <- seed_from_rng()
    return(rand_blocks(X, blocks, c(list(m = m, eps = eps, delta = delta, seed = seed, error = error), dots),
                       list(m = m, eps = eps, delta = delta, seed = seed, error = error)))
  }
  check_named(dots)
  X <- as_input(X)
  qk <- qk_inputs(X, K, V)   # Q != K (attention.R): the sample is of [X; K]
  if (is.null(seed)) seed <- seed_from_rng()
  # eps not given: the core's default (in target mode, no spectral floor)
  res <- .Call(C_rand, X, qk_core_options(c(list(m = m, eps = if (!missing(eps)) eps, delta = delta,
                                                  seed = seed, error = error), dots), qk))
  out <- new_attsparse(X, res, "randomized",
                list(seed = as.numeric(seed), eps = res$eps_target, delta = delta,
                     probabilities = res$probabilities,
                     sampling = res$sampling,
                     rel_target = if (is.null(dots[["rel", exact = TRUE]])) NA_real_ else as.numeric(dots[["rel", exact = TRUE]]),
                     rel_estimate = res$rel_estimate, inf_estimate = res$inf_estimate,
                     rounds = res$rounds, s1 = res$s1, s = res$s, s2 = res$s2, beta = res$beta))
  if (is.null(qk)) out else qk_result(out, qk, res)
}

attsparse_det <- function(X, eps = 0.5, error = TRUE, ..., K = NULL, V = NULL) {
  if (is_block_input(X))
    stop(paste("attsparse_det needs X in memory (BSS revisits every column at every step);",
               "on a DelayedMatrix use attsparse_rand, or attsparse_det(as.matrix(X)) when X fits"),
         call. = FALSE)
  dots <- list(...)
  check_named(dots)
  X <- as_input(X)
  qk <- qk_inputs(X, K, V)   # Q != K (attention.R): the sample is of [X; K]
  # the randomized first stage takes its seed from R's RNG, as attsparse_rand does
  # presample = TRUE is the default number of draws (the core's 1), FALSE none
  if (is.logical(dots$presample) && length(dots$presample) == 1 && !is.na(dots$presample))
    dots$presample <- as.numeric(dots$presample)
  two_stage <- is.numeric(dots$presample) && length(dots$presample) == 1 && !is.na(dots$presample) &&
    dots$presample > 0
  if (two_stage && is.null(dots$seed)) dots$seed <- seed_from_rng()
  res <- .Call(C_det, X, qk_core_options(c(list(eps = eps, error = error), dots), qk))
  extra <- list(eps = eps, b = res$b, eps_bound = res$eps_bound, max_columns = res$max_columns,
                steps = res$steps)
  if (two_stage)
    extra <- c(extra, list(presample_k = res$presample_k, presample_eps = res$presample_eps,
                           eps_composed = res$eps_composed, seed = dots$seed))
  out <- new_attsparse(X, res, "deterministic", extra)
  if (is.null(qk)) out else qk_result(out, qk, res)
}

attention_error <- function(X, Y, spectral = FALSE, threads = 0) {
  if (is_block_input(X)) return(attention_error_blocks(X, Y, spectral, threads))
  X <- as_input(X)
  if (inherits(Y, "attsparse")) Y <- Y$Y
  Y <- as_input(Y, "Y")
  # Y of another kind than X is fine: each Gram is computed from its own storage
  out <- .Call(C_error_xy, X, Y, list(spectral = spectral, threads = threads))
  warn_overflow(out)
  res <- as.list(out[c("inf", "rel", "baseline", "r")])
  if (spectral) res <- c(res, as.list(out[c("eps_spectral", "bound")]))
  res
}

sym_attention <- function(X, threads = 0) {
  X <- as_input(X)
  A <- .Call(C_softmax, X, list(threads = threads))
  if (!is.null(rownames(X))) dimnames(A) <- list(rownames(X), rownames(X))
  A
}

leverage_scores <- function(X, method = c("approx", "exact"), seed = NULL, ...) {
  dots <- options_not_abbreviations(sys.call(), parent.frame(), environment(), list(...),
                                    list(method = c("approx", "exact"), seed = NULL))
  if (identical(method, c("approx", "exact"))) method <- "approx"
  check_named(dots)
  if (is.null(seed)) seed <- seed_from_rng()
  blocks <- block_options(X, dots, "leverage_scores")
  if (!is.null(blocks)) {
    if (identical(method, "exact"))
      stop("leverage_scores(method = \"exact\") needs X in memory; on a DelayedMatrix use method = \"approx\"",
           call. = FALSE)
    scores <- leverage_blocks(X, c(list(seed = seed), blocks$dots), blocks)
    names(scores) <- colnames(X)
    return(scores)
  }
  X <- as_input(X)
  scores <- .Call(C_leverage, X, c(list(method = method, seed = seed), dots))
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

# The rows of the core's option table (core/options.c) of one call: name, kind
# (real, whole, flag, choice), default (a choice's position, 0-based) and choices;
# for tests that sweep every option.
option_table <- function(call = c("rand", "det")) {
  as.data.frame(.Call(C_option_table, match.arg(call)), stringsAsFactors = FALSE)
}
