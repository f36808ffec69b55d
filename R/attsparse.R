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

# The options of a call, by name, for the core (NULL: the core's default). Every option of the
# functions comes through `...`: an option that were an argument of its own would be matched by R,
# which refuses it given twice in its own words and takes abbreviations of it; here `s = 8` is the
# option s, never `seed`, and an option given twice is refused by name, as in Octave. Names, kinds
# and ranges are the core's to check.
core_options <- function(dots) {
  if (length(dots) && (is.null(names(dots)) || any(names(dots) == "")))
    stop("further options must be named, e.g. threads = 2", call. = FALSE)
  twice <- anyDuplicated(names(dots))
  if (twice) stop(sprintf("option '%s' is given twice", names(dots)[[twice]]), call. = FALSE)
  dots
}

attsparse_rand <- function(X, ...) {
  if (is_container(X)) return(se_call(attsparse_rand, match.call(), parent.frame()))   # R/bioc.R
  opts <- core_options(list(...))
  # a DelayedMatrix (HDF5Array, ...) is read by blocks of columns (R/blocks.R)
  blocks <- block_options(X, opts)
  if (!is.null(blocks)) {
    if (!is.null(opts[["K"]]) || !is.null(opts[["V"]]))
      stop("'K' and 'V' need X in memory, not a DelayedMatrix", call. = FALSE)
    precheck_shape(X)          # R/precheck.R: its shape's trap, before any pass
    return(rand_blocks(X, blocks))
  }
  X <- as_input(X)
  precheck(X, opts[["rel"]])   # R/precheck.R: the traps, before any work
  qk <- qk_inputs(X, opts[["K"]], opts[["V"]])   # Q != K (attention.R): the sample is of [X; K]
  new_attsparse(X, .Call(C_method, "rand", X, qk$K, qk$V, qk_drop(opts)), qk)
}

attsparse_det <- function(X, ...) {
  if (is_container(X)) return(se_call(attsparse_det, match.call(), parent.frame()))   # R/bioc.R
  if (is_block_input(X)) .Call(C_blocks_refuse, "det")
  opts <- core_options(list(...))
  X <- as_input(X)
  precheck(X)                  # R/precheck.R: the traps, before any work
  qk <- qk_inputs(X, opts[["K"]], opts[["V"]])   # Q != K (attention.R): the sample is of [X; K]
  new_attsparse(X, .Call(C_method, "det", X, qk$K, qk$V, qk_drop(opts)), qk)
}

attsparse_greedy <- function(X, ...) {
  if (is_container(X)) return(se_call(attsparse_greedy, match.call(), parent.frame()))   # R/bioc.R
  if (is_block_input(X)) .Call(C_blocks_refuse, "greedy")
  opts <- core_options(list(...))
  X <- as_input(X)
  precheck(X, if (is.null(opts[["k"]])) (if (is.null(opts[["rel"]])) 0.01 else opts[["rel"]]))   # R/precheck.R
  # no keys or values: 'K' or 'V' among the options is refused by the core as an unknown option
  new_attsparse(X, .Call(C_method, "greedy", X, NULL, NULL, opts))
}

attention_error <- function(X, Y, ...) {
  opts <- core_options(list(...))
  if (is_block_input(X)) return(attention_error_blocks(X, Y, opts))
  X <- as_input(X)
  if (inherits(Y, "attsparse")) Y <- Y$Y
  Y <- as_input(Y, "Y")
  # Y of another kind than X is fine: each Gram is computed from its own storage
  # a figure that overflowed to Inf comes with the core's warning (src/rglue.c)
  .Call(C_error_xy, X, Y, opts)
}

sym_attention <- function(X, ...) {
  opts <- core_options(list(...))
  X <- as_input(X)
  A <- .Call(C_softmax, X, opts)
  if (!is.null(rownames(X))) dimnames(A) <- list(rownames(X), rownames(X))
  A
}

leverage_scores <- function(X, ...) {
  # the method may come first without its name, as in Octave: leverage_scores(X, "exact")
  dots <- list(...)
  if (length(dots)) {
    nm <- if (is.null(names(dots))) character(length(dots)) else names(dots)
    if (!nzchar(nm[[1L]])) names(dots) <- replace(nm, 1L, "method")
  }
  opts <- core_options(dots)
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
