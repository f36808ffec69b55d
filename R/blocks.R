# blocks.R: attsparse_rand and attention_error on a DelayedMatrix (HDF5Array, ...), read a block of columns at a time over BiocParallel workers.
#
# The core's block passes (core/blocks.c): 1. sketch leaves, one per canonical chunk of columns,
# summed in chunk order; 2. factor (once, here); 3. per-column scores; 4. sampling from the scores of
# all columns (here: 8 or 16 bytes per column of X); 5. gather the chosen columns, finish. Blocks are
# whole chunks, so any block size and any worker count give as_rand's index and weight, bit for bit.
# X is never realised: each worker reads its block with DelayedArray::read_block on a column grid.

is_block_input <- function(X) isS4(X) && methods::is(X, "DelayedMatrix")

need_block_packages <- function(what) {
  for (p in c("DelayedArray", "BiocParallel"))
    if (!requireNamespace(p, quietly = TRUE))
      stop(sprintf("%s on a DelayedMatrix needs the Bioconductor package '%s'", what, p), call. = FALSE)
}

# Block `i` of the column grid `ends` (block i holds columns ends[i-1]+1 .. ends[i]) as a base
# double matrix or a dgCMatrix; runs on a worker.
read_column_block <- function(X, ends, i, sparse) {
  j0 <- if (i == 1L) 0L else ends[[i - 1L]]
  grid <- DelayedArray::ArbitraryArrayGrid(list(nrow(X), ends))
  blk <- DelayedArray::read_block(X, grid[[i]], as.sparse = sparse)
  as_block_matrix(blk, sparse)
}

as_block_matrix <- function(blk, sparse) {
  if (sparse) return(methods::as(blk, "dgCMatrix"))
  blk <- as.matrix(blk)
  if (storage.mode(blk) != "double") storage.mode(blk) <- "double"
  blk
}

# One task on a worker. BiocParallel's socket workers do not keep a function's environment: the
# task finds the package's namespace itself (loading it on the worker).
block_task <- function(i, ...) asNamespace("attsparse")$block_task_run(i, ...)

block_task_run <- function(i, DX, ends, sparse, pass, n, d, core_opts, factor, need, threads) {
  blk <- read_column_block(DX, ends, i, sparse)
  j0 <- if (i == 1L) 0 else as.numeric(ends[[i - 1L]])
  if (pass == "sketch") .Call(C_block_sketch, blk, j0, n, d, core_opts)
  else if (pass == "scores") .Call(C_block_scores, blk, j0, factor, need, threads)
  else .Call(C_gram, blk, list(threads = threads))
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

# bplapply over blocks `ids`; a worker's error becomes one clear R error.
block_apply <- function(ids, BPPARAM, what, ...) {
  tryCatch(BiocParallel::bplapply(ids, block_task, ..., BPPARAM = BPPARAM),
           error = function(e) {
             msg <- conditionMessage(e)
             # Ctrl-C while a block was in the core: the core stops with "interrupted by the user", which
             # BiocParallel wraps as a block's error (in the session itself with SerialParam)
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

# The column grid: blocks of whole chunks, as many chunks as `block_columns` asks (default: as
# many as fit in DelayedArray's automatic block size, at least one).
column_grid <- function(n, d, chunk, block_columns, sparse) {
  if (is.null(block_columns)) {
    per_col <- 8 * max(n, 1) * (if (sparse) 0.25 else 1)
    bc <- max(1, floor(DelayedArray::getAutoBlockSize() / (per_col * chunk)))
  } else {
    check_number(block_columns, "block_columns", lower = 1, whole = TRUE)
    bc <- ceiling(block_columns / chunk)
  }
  width <- bc * chunk
  ends <- if (d > width) seq(width, d - 1, by = width) else numeric()
  as.integer(c(ends, d))
}

# NULL for an in-memory X; for a DelayedMatrix, BPPARAM and block_columns taken out of the options.
block_options <- function(X, dots, what = "attsparse_rand") {
  if (!is_block_input(X)) return(NULL)
  need_block_packages(what)
  BPPARAM <- dots[["BPPARAM", exact = TRUE]]
  if (is.null(BPPARAM)) BPPARAM <- DelayedArray::getAutoBPPARAM()
  if (is.null(BPPARAM)) BPPARAM <- BiocParallel::SerialParam()
  if (!methods::is(BPPARAM, "BiocParallelParam"))
    stop("'BPPARAM' must be a BiocParallelParam (SerialParam(), MulticoreParam(2), SnowParam(2), ...)",
         call. = FALSE)
  list(BPPARAM = BPPARAM, block_columns = dots[["block_columns", exact = TRUE]],
       dots = dots[setdiff(names(dots), c("BPPARAM", "block_columns"))])
}

# attsparse_rand's passes over a DelayedMatrix X; `args` holds the checked m, eps, delta, seed, error.
rand_blocks <- function(X, blocks, core_opts, args) {
  BPPARAM <- blocks$BPPARAM
  error <- !isFALSE(args$error)   # the option's default: true
  seed <- args$seed
  n <- nrow(X)
  d <- ncol(X)
  sparse <- DelayedArray::is_sparse(X)
  t0 <- elapsed()
  # the core checks every option (by its table) here, before any block is read
  plan <- .Call(C_block_plan, as.numeric(n), as.numeric(d), core_opts)
  spectral <- if (is.null(core_opts[["spectral", exact = TRUE]])) isTRUE(error) else isTRUE(core_opts$spectral)
  threads <- if (is.null(core_opts[["threads", exact = TRUE]])) 0 else core_opts$threads
  if (plan[["in_memory"]] == 1) {
    # d <= s1: X is no larger than the sketch the passes would hold; read it whole
    return(do.call(attsparse_rand, c(list(read_whole(X)), core_opts)))
  }
  # the same workers for every pass (socket workers load the package once)
  if (start_workers(BPPARAM)) on.exit(stop_workers(BPPARAM), add = TRUE)
  sc <- score_blocks(X, blocks, core_opts, plan, threads, "attsparse_rand")
  ends <- sc$ends
  nb <- length(ends)
  need <- sc$need
  factor <- sc$factor
  lev <- sc$lev
  nrm <- sc$nrm
  rm(sc)
  res <- .Call(C_block_sample, as.numeric(n), as.numeric(d), core_opts, factor[[2L]], lev, nrm)
  rm(lev, nrm)
  Xs <- gather_columns(X, res$index, sparse)
  est <- .Call(C_block_finish, Xs, as.numeric(d), core_opts, res)
  time <- elapsed() - t0
  # Y = Xs diag(weight): the products the core's as_select makes (w * x)
  if (sparse) {
    Y <- Xs
    Y@x <- Xs@x * rep(res$weight, diff(Xs@p))
  } else Y <- Xs * rep(res$weight, each = n)
  if (!is.null(dimnames(X))) dimnames(Y) <- list(rownames(X), colnames(X)[res$index])
  metrics <- c(inf = NA_real_, rel = NA_real_, baseline = NA_real_, r = NA_real_,
               eps_spectral = NA_real_, bound = NA_real_)
  error_time <- NA_real_
  if (error) {
    t1 <- elapsed()
    G <- gram_blocks(X, ends, sparse, BPPARAM, threads, "attsparse_rand")
    metrics[] <- NA_real_
    got <- unlist(.Call(C_error_gram, G, Y, list(spectral = spectral, threads = threads)))
    metrics[names(got)] <- got
    error_time <- elapsed() - t1
    warn_overflow(metrics)
  }
  prob_names <- c("leverage", "uniform", "norm", "mixed", "auto")
  structure(list(Y = Y, index = res$index, weight = res$weight, m = res$m, k = res$k,
                 error = metrics[["inf"]], rel_error = metrics[["rel"]], r = metrics[["r"]],
                 baseline = metrics[["baseline"]], eps_spectral = metrics[["eps_spectral"]],
                 bound = metrics[["bound"]], rank = res$rank, method = "randomized",
                 dim = c(n, d), sparse = sparse, time = time, error_time = error_time,
                 seed = as.numeric(seed), eps = res$eps, delta = res$delta,
                 probabilities = prob_names[[res$probabilities + 1L]],
                 sampling = c("iid", "poisson")[[res$sampling + 1L]],
                 rel_target = NA_real_, rel_estimate = est[["rel_estimate"]],
                 inf_estimate = est[["inf_estimate"]], rounds = 1,
                 s1 = if (need[[1L]]) plan[["s1"]] else 0, s = if (need[[1L]]) plan[["s"]] else 0,
                 s2 = factor[[5L]], beta = res$beta, blocks = nb, chunk = plan[["chunk"]]),
            class = "attsparse")
}

# The sketch, factor and score passes over a DelayedMatrix X: the approximate leverage scores
# (`lev`, when the probabilities need them) and squared column norms (`nrm`) of every column, with
# the grid and the factor.
score_blocks <- function(X, blocks, core_opts, plan, threads, what) {
  BPPARAM <- blocks$BPPARAM
  n <- nrow(X)
  d <- ncol(X)
  sparse <- DelayedArray::is_sparse(X)
  ends <- column_grid(n, d, plan[["chunk"]], blocks$block_columns, sparse)
  nb <- length(ends)
  nw <- max(1L, BiocParallel::bpnworkers(BPPARAM))
  # workers run the core on one thread each unless asked: the bits do not depend on it
  wthreads <- if (nw > 1 && threads == 0) 1 else threads
  wopts <- core_opts
  wopts$threads <- wthreads
  need <- c(plan[["need_lev"]] == 1, plan[["need_nrm"]] == 1)
  factor <- list(numeric(), 0, 0, 0, 0)
  if (need[[1L]]) {
    # pass 1 in waves of blocks, so that only a wave's leaves are held at once
    MT <- NULL
    for (w0 in seq(1L, nb, by = 2L * nw)) {
      ids <- w0:min(nb, w0 + 2L * nw - 1L)
      leaves <- block_apply(ids, BPPARAM, what, DX = X, ends = ends, sparse = sparse, pass = "sketch",
                            n = as.numeric(n), d = as.numeric(d), core_opts = wopts)
      MT <- .Call(C_block_fold, MT, unlist(leaves, recursive = FALSE))
      rm(leaves)
    }
    factor <- .Call(C_block_factor, MT, as.numeric(n), as.numeric(d), core_opts)
    rm(MT)
  }
  scores <- block_apply(seq_len(nb), BPPARAM, what, DX = X, ends = ends, sparse = sparse, pass = "scores",
                        n = as.numeric(n), d = as.numeric(d), core_opts = wopts, factor = factor,
                        need = need, threads = as.numeric(wthreads))
  list(ends = ends, need = need, factor = factor,
       lev = if (need[[1L]]) unlist(lapply(scores, `[[`, "lev")) else NULL,
       nrm = if (need[[2L]]) unlist(lapply(scores, `[[`, "nrm")) else NULL)
}

# leverage_scores(X, "approx") on a DelayedMatrix: the sketch and score passes of attsparse_rand.
leverage_blocks <- function(X, core_opts, blocks) {
  plan <- .Call(C_block_plan, as.numeric(nrow(X)), as.numeric(ncol(X)), core_opts)
  threads <- if (is.null(core_opts[["threads", exact = TRUE]])) 0 else core_opts$threads
  if (plan[["in_memory"]] == 1) {
    return(.Call(C_leverage, read_whole(X), core_opts))
  }
  if (start_workers(blocks$BPPARAM)) on.exit(stop_workers(blocks$BPPARAM), add = TRUE)
  sc <- score_blocks(X, blocks, core_opts, plan, threads, "leverage_scores")
  scores <- sc$lev
  attr(scores, "rank") <- sc$factor[[2L]]
  scores
}

# A DelayedMatrix no wider than the sketch (d <= s1), read whole: a base matrix or dgCMatrix.
read_whole <- function(X) {
  sparse <- DelayedArray::is_sparse(X)
  Xm <- as_block_matrix(if (sparse) methods::as(X, "dgCMatrix") else as.matrix(X), sparse)
  if (!is.null(dimnames(X))) dimnames(Xm) <- dimnames(X)
  Xm
}

# X(:, index) (unweighted): only the chosen columns are read, block by block of the index.
gather_columns <- function(X, index, sparse) {
  n <- nrow(X)
  if (length(index) == 0L)
    return(if (sparse) methods::new("dgCMatrix", Dim = c(n, 0L), p = 0L) else matrix(0, n, 0L))
  parts <- split(index, ceiling(seq_along(index) / max(1L, floor(5e7 / max(n, 1)))))
  cols <- lapply(parts, function(idx) {
    if (sparse) methods::as(DelayedArray::extract_sparse_array(X, list(NULL, idx)), "dgCMatrix")
    else as_block_matrix(DelayedArray::extract_array(X, list(NULL, idx)), FALSE)
  })
  out <- do.call(cbind, unname(cols))
  if (sparse) out@Dimnames <- list(NULL, NULL) else dimnames(out) <- NULL
  out
}

# G = X X' summed over the column blocks (the metrics need it; 1e-12 agreement, not bits).
gram_blocks <- function(X, ends, sparse, BPPARAM, threads, what) {
  Gs <- block_apply(seq_along(ends), BPPARAM, what, DX = X, ends = ends, sparse = sparse, pass = "gram",
                    n = as.numeric(nrow(X)), d = as.numeric(ncol(X)),
                    threads = as.numeric(if (BiocParallel::bpnworkers(BPPARAM) > 1 && threads == 0) 1 else threads))
  Reduce(`+`, Gs)
}

attention_error_blocks <- function(X, Y, opts) {
  need_block_packages("attention_error")
  if (inherits(Y, "attsparse")) Y <- Y$Y
  if (is_block_input(Y)) stop("'Y' must be in memory (it is the small sketch)", call. = FALSE)
  Y <- as_input(Y, "Y")
  if (nrow(Y) != nrow(X))
    stop(sprintf("Y must have as many rows as X (%d), got %d", nrow(X), nrow(Y)), call. = FALSE)   # the core's words, before the passes
  BPPARAM <- DelayedArray::getAutoBPPARAM()
  if (is.null(BPPARAM)) BPPARAM <- BiocParallel::SerialParam()
  sparse <- DelayedArray::is_sparse(X)
  ends <- column_grid(nrow(X), ncol(X), 16384, NULL, sparse)
  threads <- if (is.null(opts$threads)) 0 else opts$threads
  G <- gram_blocks(X, ends, sparse, BPPARAM, threads, "attention_error")
  out <- .Call(C_error_gram, G, Y, opts)
  warn_overflow(out)
  out
}
