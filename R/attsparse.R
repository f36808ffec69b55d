# attsparse.R: the user-facing functions; every numerical step is a .Call into the C core.

# Every option (its name, kind, range and default) is the C core's (core/options.c):
# here the options are gathered by name and passed to one .Call.

# The core's result (a list with one element per row of its field table, core/result.c: Y, index,
# weight, the metrics, the options it ran with) as an "attsparse" object; R adds only what R knows:
# the dimensions and storage of X (and K).
new_attsparse <- function(X, res, qk = NULL) {
  res$dim <- dim(X)
  res$sparse <- inherits(X, "dgCMatrix")
  if (!is.null(qk$K)) res$dim_K <- dim(qk$K)
  res <- annotate_result(res, X)   # R/prepare.R: the preparation X carries, the kept columns' names
  structure(res, class = "attsparse")
}

# The options of a call, by name, for the core: the named arguments given (NULL: the core's default)
# and `...`. R matches the arguments after `...` by their full names only, so `s = 8` is the option
# s, never an abbreviation of `seed`; names, kinds, ranges and repeats are the core's to check.
core_options <- function(named, dots) {
  if (length(dots) && (is.null(names(dots)) || any(names(dots) == "")))
    stop("further options must be named, e.g. threads = 2", call. = FALSE)
  c(named[!vapply(named, is.null, NA)], dots)
}

attsparse_rand <- function(X, ..., m = NULL, eps = NULL, delta = NULL, seed = NULL, error = NULL,
                           K = NULL, V = NULL) {
  if (is_se(X)) return(se_call(attsparse_rand, match.call(), parent.frame()))   # R/bioc.R
  opts <- core_options(list(m = m, eps = eps, delta = delta, seed = seed, error = error), list(...))
  # a DelayedMatrix (HDF5Array, ...) is read by blocks of columns (R/blocks.R)
  blocks <- block_options(X, opts)
  if (!is.null(blocks)) {
    if (!is.null(K) || !is.null(V)) stop("'K' and 'V' need X in memory, not a DelayedMatrix", call. = FALSE)
    return(rand_blocks(X, blocks))
  }
  X <- as_input(X)
  precheck(X, opts$rel)      # R/precheck.R: the traps, before any work
  qk <- qk_inputs(X, K, V)   # Q != K (attention.R): the sample is of [X; K]
  new_attsparse(X, .Call(C_rand, X, qk_core_options(opts, qk)), qk)
}

attsparse_det <- function(X, ..., eps = NULL, error = NULL, K = NULL, V = NULL) {
  if (is_se(X)) return(se_call(attsparse_det, match.call(), parent.frame()))   # R/bioc.R
  if (is_block_input(X)) .Call(C_blocks_refuse, "det")
  opts <- core_options(list(eps = eps, error = error), list(...))
  X <- as_input(X)
  precheck(X)                # R/precheck.R: the traps, before any work
  qk <- qk_inputs(X, K, V)   # Q != K (attention.R): the sample is of [X; K]
  new_attsparse(X, .Call(C_det, X, qk_core_options(opts, qk)), qk)
}

attsparse_greedy <- function(X, ..., rel = NULL, k = NULL, error = NULL) {
  if (is_se(X)) return(se_call(attsparse_greedy, match.call(), parent.frame()))   # R/bioc.R
  if (is_block_input(X)) .Call(C_blocks_refuse, "greedy")
  opts <- core_options(list(rel = rel, k = k, error = error), list(...))
  X <- as_input(X)
  precheck(X, if (is.null(opts$k)) (if (is.null(opts$rel)) 0.01 else opts$rel))   # R/precheck.R
  new_attsparse(X, .Call(C_greedy, X, opts))
}

attention_error <- function(X, Y, ..., spectral = NULL, threads = NULL) {
  opts <- core_options(list(spectral = spectral, threads = threads), list(...))
  if (is_block_input(X)) return(attention_error_blocks(X, Y, opts))
  X <- as_input(X)
  if (inherits(Y, "attsparse")) Y <- Y$Y
  Y <- as_input(Y, "Y")
  # Y of another kind than X is fine: each Gram is computed from its own storage
  # a figure that overflowed to Inf comes with the core's warning (src/rglue.c)
  .Call(C_error_xy, X, Y, opts)
}

sym_attention <- function(X, ..., threads = NULL) {
  opts <- core_options(list(threads = threads), list(...))
  X <- as_input(X)
  A <- .Call(C_softmax, X, opts)
  if (!is.null(rownames(X))) dimnames(A) <- list(rownames(X), rownames(X))
  A
}

leverage_scores <- function(X, method = NULL, ..., seed = NULL) {
  # R takes any start of 'method' (m = 3) for it: such a name is an option of its own, which the
  # core refuses by name
  given <- as.character(names(sys.call()))
  short <- setdiff(given[nzchar(given) & startsWith("method", given)], "method")
  dots <- list(...)
  if (length(short)) {
    dots <- c(stats::setNames(list(method), short[[1L]]), dots)
    method <- NULL
  }
  opts <- core_options(list(method = method, seed = seed), dots)
  blocks <- block_options(X, opts, "leverage_scores")
  if (!is.null(blocks)) return(leverage_blocks(X, blocks))
  X <- as_input(X)
  scores <- .Call(C_leverage, X, opts)
  names(scores) <- colnames(X)
  scores
}

# A number argument as the core takes it: NA for NULL (the core's default).
number_arg <- function(v, name) {
  if (is.null(v)) return(NA_real_)
  if (!is.numeric(v) || length(v) != 1L || is.na(v)) stop(sprintf("'%s' must be a single number", name), call. = FALSE)
  as.numeric(v)
}

attsparse_example <- function(n = NULL, d = NULL, r = NULL, seed = NULL) {
  # the defaults (100 x 20000, r = 0.05, seed 1) and limits are the core's, checked before X is allocated
  .Call(C_example, number_arg(n, "n"), number_arg(d, "d"), number_arg(r, "r"), number_arg(seed, "seed"))
}

default_m <- function(rank, eps = NULL, delta = NULL, beta = NULL) {
  # NULL takes the core's default; the ranges are the option table's
  .Call(C_default_m, number_arg(rank, "rank"), number_arg(eps, "eps"), number_arg(delta, "delta"),
        number_arg(beta, "beta"))
}

# The rows of the core's option table (core/options.c) of one call: name, kind
# (real, whole, flag, choice), default (a choice's position, 0-based) and choices;
# for tests that sweep every option.
option_table <- function(call = c("rand", "det", "greedy")) {
  as.data.frame(.Call(C_option_table, match.arg(call)), stringsAsFactors = FALSE)
}
