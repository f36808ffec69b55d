# blocks.R: attsparse_rand, leverage_scores and attention_error on a DelayedMatrix (HDF5Array, ...): the
# core's block run (core/block_run.c) with DelayedArray as its reader and BiocParallel's workers.
#
# The core drives the passes: it hands out waves of blocks (a task, a raw vector), each worker reads
# its block with DelayedArray and has the core make the block's partial (a raw vector), and the core
# merges the partials in block order and does the master's steps (the factor, the sampling, the
# estimate, the metrics). X is never realised.

is_block_input <- function(X) isS4(X) && methods::is(X, "DelayedMatrix")

need_block_packages <- function(what) {
  for (p in c("DelayedArray", "BiocParallel"))
    if (!requireNamespace(p, quietly = TRUE))
      stop(sprintf("%s on a DelayedMatrix needs the Bioconductor package '%s'", what, p), call. = FALSE)
}

# The reader: columns at$j0 + 1 .. at$j1 of X (dims: dim(X), from the master) or the columns at$cols,
# as a base double matrix or a dgCMatrix; on a worker.
read_columns <- function(X, dims, at, sparse) {
  if (is.null(at$cols)) {
    ticks <- unique(c(if (at$j0 > 0) at$j0, at$j1, dims[[2L]]))
    grid <- DelayedArray::ArbitraryArrayGrid(list(dims[[1L]], as.integer(ticks)))
    blk <- DelayedArray::read_block(X, grid[[if (at$j0 > 0) 2L else 1L]], as.sparse = sparse)
  } else {
    idx <- list(NULL, as.integer(at$cols))
    blk <- if (sparse) DelayedArray::extract_sparse_array(X, idx) else DelayedArray::extract_array(X, idx)
  }
  # as_input's coercion of any sparse kind (an lgCMatrix too, without Matrix's deprecation notice)
  if (sparse) return(as_input(methods::as(blk, "CsparseMatrix")))
  blk <- as.matrix(blk)
  if (storage.mode(blk) != "double") storage.mode(blk) <- "double"
  blk
}

# One block on a worker: read it, and the core's partial of it; a read that fails gives its message
# (the core reports it with the block's columns). BiocParallel's socket workers do not keep a
# function's environment: the task finds the package's namespace itself (loading it on the worker).
block_task <- function(t, ...) asNamespace("attsparse")$block_work(t, ...)

block_work <- function(t, DX, dims, task, sparse) {
  at <- .Call(C_blocks_task_block, task, t)
  blk <- tryCatch(read_columns(DX, dims, at, sparse), error = function(e) conditionMessage(e))
  if (is.character(blk)) return(blk)
  .Call(C_blocks_work, task, t, blk)
}

# Start the workers unless they are up; TRUE when this call started them (and must stop them).
start_workers <- function(BPPARAM) {
  if (BiocParallel::bpisup(BPPARAM)) return(FALSE)
  BiocParallel::bpstart(BPPARAM)
  TRUE
}

# Stop the workers this call started. After Ctrl-C the workers (in the terminal's process group)
# are gone already, and telling them to stop fails on a closed connection: that failure must not
# replace the interrupt the user sees.
stop_workers <- function(BPPARAM) {
  tryCatch(BiocParallel::bpstop(BPPARAM), error = function(e) NULL, warning = function(w) NULL)
  invisible(NULL)
}

# bplapply over the blocks of a task. A block's own errors come back in its partial; what is left
# to catch here is a Ctrl-C and a worker that is gone.
block_apply <- function(count, BPPARAM, what, ...) {
  tryCatch(BiocParallel::bplapply(seq_len(count), block_task, ..., BPPARAM = BPPARAM),
           error = function(e) {
             msg <- conditionMessage(e)
             # Ctrl-C while a block was in the core: the worker stops with "interrupted by the user",
             # which BiocParallel wraps as a block's error (in the session itself with SerialParam)
             if (grepl("interrupted by the user", msg, fixed = TRUE))
               stop(sprintf("%s: interrupted by the user", what), call. = FALSE)
             # a worker that is gone (Ctrl-C reaches the workers too, or it was killed) shows up as
             # a broken connection, not as an error of the block it held
             if (grepl("(writing to|reading from) connection|unserialize", msg))
               stop(sprintf("%s: stopped: the workers ended before the blocks were done (Ctrl-C, or a worker was killed): %s",
                            what, msg), call. = FALSE)
             stop(sprintf("%s: a block of X failed on a worker: %s", what, msg), call. = FALSE)
           })
}

# NULL for an in-memory X; for a DelayedMatrix, BPPARAM and block_columns taken out of the options
# (each at most once, as every option; the core sees the others).
block_options <- function(X, opts, what = "attsparse_rand") {
  if (!is_block_input(X)) {
    for (o in intersect(c("BPPARAM", "block_columns"), names(opts)))
      stop(sprintf("'%s' is for X read by blocks (a DelayedMatrix); X in memory (%s) runs on 'threads'",
                   o, class(X)[1L]), call. = FALSE)
    return(NULL)
  }
  need_block_packages(what)
  for (o in c("BPPARAM", "block_columns"))
    if (sum(names(opts) == o) > 1) stop(sprintf("option '%s' is given twice", o), call. = FALSE)
  BPPARAM <- opts[["BPPARAM", exact = TRUE]]
  if (is.null(BPPARAM)) BPPARAM <- DelayedArray::getAutoBPPARAM()
  if (is.null(BPPARAM)) BPPARAM <- BiocParallel::SerialParam()
  if (!methods::is(BPPARAM, "BiocParallelParam"))
    stop("'BPPARAM' must be a BiocParallelParam (SerialParam(), MulticoreParam(2), SnowParam(2), ...)",
         call. = FALSE)
  block_columns <- opts[["block_columns", exact = TRUE]]
  check_number(block_columns, "block_columns", lower = 1, whole = TRUE, null_ok = TRUE)
  list(BPPARAM = BPPARAM, block_columns = block_columns,
       dots = opts[!names(opts) %in% c("BPPARAM", "block_columns")])
}

# The core's run of `what` ("rand", "leverage", "error") on the DelayedMatrix X, options `opts` (by
# name, as for the in-memory call), Y for "error": the core's result for it.
blocks_run <- function(X, what, opts, blocks, Y = NULL, fname = "attsparse_rand") {
  BPPARAM <- blocks$BPPARAM
  sparse <- DelayedArray::is_sparse(X)
  # default block: as many columns as fit in DelayedArray's automatic block size (the core rounds
  # it up to whole chunks); blocks of any width give the same bits
  width <- if (is.null(blocks$block_columns))
    floor(DelayedArray::getAutoBlockSize() / (8 * max(nrow(X), 1) * (if (sparse) 0.25 else 1)))
  else blocks$block_columns
  workers <- max(1L, BiocParallel::bpnworkers(BPPARAM))
  run <- .Call(C_blocks_new, what, as.numeric(nrow(X)), as.numeric(ncol(X)), opts, Y, as.numeric(width),
               as.numeric(workers))
  on.exit(.Call(C_blocks_free, run), add = TRUE)
  started <- FALSE
  repeat {
    wave <- .Call(C_blocks_next, run)
    if (is.null(wave)) break
    # the same workers for every pass (socket workers load the package once)
    if (!started && start_workers(BPPARAM)) {
      started <- TRUE
      on.exit(stop_workers(BPPARAM), add = TRUE)
    }
    parts <- block_apply(wave$count, BPPARAM, fname, DX = X, dims = dim(X), task = wave$task, sparse = sparse)
    .Call(C_blocks_merge, run, parts)
  }
  .Call(C_blocks_result, run)
}

# attsparse_rand on a DelayedMatrix: the core's result (its chunk, blocks and reads of X among its
# fields), Y with X's dimnames and of X's storage kind.
rand_blocks <- function(X, blocks) {
  out <- new_attsparse(X, blocks_run(X, "rand", blocks$dots, blocks))
  out$sparse <- DelayedArray::is_sparse(X)
  if (out$sparse && !methods::is(out$Y, "dgCMatrix")) out$Y <- methods::as(out$Y, "CsparseMatrix")
  if (!is.null(dimnames(X))) dimnames(out$Y) <- list(rownames(X), colnames(X)[out$index])
  out
}

# leverage_scores(X) on a DelayedMatrix: the sketch and score passes of attsparse_rand.
leverage_blocks <- function(X, blocks) {
  scores <- blocks_run(X, "leverage", blocks$dots, blocks, fname = "leverage_scores")
  names(scores) <- colnames(X)
  scores
}

attention_error_blocks <- function(X, Y, opts) {
  need_block_packages("attention_error")
  if (inherits(Y, "attsparse")) Y <- Y$Y
  if (is_block_input(Y)) stop("'Y' must be in memory (it is the small sketch)", call. = FALSE)
  Y <- as_input(Y, "Y")
  BPPARAM <- DelayedArray::getAutoBPPARAM()
  if (is.null(BPPARAM)) BPPARAM <- BiocParallel::SerialParam()
  blocks_run(X, "error", opts, list(BPPARAM = BPPARAM), Y = Y, fname = "attention_error")
}
