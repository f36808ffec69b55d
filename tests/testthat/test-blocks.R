# test-blocks.R: a DelayedMatrix (in memory or HDF5) read by blocks gives the in-memory index and weight, bit for bit.

skip_if_no_blocks <- function() {
  skip_if_not_installed("DelayedArray")
  skip_if_not_installed("BiocParallel")
}

# 12 x 40000 (3 canonical chunks of 16384 columns), two heavy columns (Poisson q = 1)
block_x <- function(sparse = FALSE) {
  set.seed(3)
  X <- matrix(rnorm(12 * 40000, sd = 0.05), 12, 40000)
  X[, c(17, 23001)] <- X[, c(17, 23001)] * 30
  if (sparse) X <- Matrix::Matrix(X * (abs(X) > 0.06), sparse = TRUE)
  X
}

expect_same_sample <- function(a, b) {
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_identical(a$rel_estimate, b$rel_estimate)
  expect_identical(a$beta, b$beta)   # the default m's factor, from the same sketch sizes
  expect_equal(unname(as.matrix(a$Y)), unname(as.matrix(b$Y)), tolerance = 0)
}

test_that("a DelayedMatrix gives the in-memory index and weight for any block size", {
  skip_if_no_blocks()
  for (sparse in c(FALSE, TRUE)) {
    X <- block_x(sparse)
    DX <- DelayedArray::DelayedArray(X)
    expect_identical(DelayedArray::is_sparse(DX), sparse)
    for (sampling in c("poisson", "iid")) {
      ref <- attsparse_rand(X, m = 300, seed = 5, sampling = sampling, error = FALSE)
      expect_gt(ref$k, 20)
      for (bc in c(16384, 32768, 1e6)) {
        r <- attsparse_rand(DX, m = 300, seed = 5, sampling = sampling, error = FALSE, block_columns = bc)
        expect_equal(r$blocks, c(3, 2, 1)[match(bc, c(16384, 32768, 1e6))])
        expect_equal(r$reads, 3)   # sketch, scores (and X X'), the chosen columns
        expect_same_sample(ref, r)
        expect_identical(class(r$Y)[1], if (sparse) "dgCMatrix" else "matrix")
      }
    }
  }
  # target mode (rel =) by blocks: the in-memory call's index, weight, rounds and estimate, in at
  # most 4 reads (sketch, scores with the rows' squared norms, the pilots' columns, a round's)
  for (sparse in c(FALSE, TRUE)) {
    X <- block_x(sparse) / 10
    ref <- attsparse_rand(X, rel = 0.05, seed = 4, error = FALSE)
    for (bc in c(16384, 1e6)) {
      r <- attsparse_rand(DelayedArray::DelayedArray(X), rel = 0.05, seed = 4, error = FALSE, block_columns = bc)
      expect_same_sample(ref, r)
      expect_identical(r$rounds, ref$rounds)
      expect_identical(r$probabilities, ref$probabilities)
      expect_lte(r$reads, 4)
      expect_lte(r$rel_estimate, 0.05)
    }
  }
  # norm and mixed probabilities need the squared norms of the score pass
  X <- block_x()
  for (p in c("norm", "mixed")) {
    ref <- attsparse_rand(X, m = 200, seed = 8, probabilities = p, sampling = "poisson", error = FALSE)
    expect_same_sample(ref, attsparse_rand(DelayedArray::DelayedArray(X), m = 200, seed = 8, probabilities = p,
                                           sampling = "poisson", error = FALSE, block_columns = 16384))
  }
})

test_that("SerialParam, MulticoreParam(2) and SnowParam(2) give the same bits; errors and metrics", {
  skip_if_fast()
  skip_if_no_blocks()
  skip_on_os("windows")
  X <- block_x()
  DX <- DelayedArray::DelayedArray(X)
  ref <- attsparse_rand(X, m = 300, seed = 5, sampling = "poisson")
  # socket workers start a fresh R: give it this session's libraries (absolute paths; the tests
  # run in tests/testthat, where a relative R_LIBS would not resolve)
  old_libs <- Sys.getenv("R_LIBS")
  Sys.setenv(R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep))
  on.exit(Sys.setenv(R_LIBS = old_libs))
  for (bp in list(BiocParallel::SerialParam(), BiocParallel::MulticoreParam(2),
                  BiocParallel::SnowParam(2))) {
    r <- attsparse_rand(DX, m = 300, seed = 5, sampling = "poisson", BPPARAM = bp, block_columns = 16384)
    expect_same_sample(ref, r)
    # the metrics sum the block Grams in another order: equal to 1e-12
    expect_equal(r$rel_error, ref$rel_error, tolerance = 1e-12)
    expect_equal(r$error, ref$error, tolerance = 1e-12)
  }
  e <- attention_error(DX, ref$Y)
  expect_equal(e$rel, ref$rel_error, tolerance = 1e-12)
  # a block's error on a worker is the core's, naming X's own column, not wrapped by BiocParallel
  Xbad <- X
  Xbad[3, 35000] <- NaN
  for (bp in list(BiocParallel::MulticoreParam(2), BiocParallel::SnowParam(2)))
    expect_error(attsparse_rand(DelayedArray::DelayedArray(Xbad), m = 300, seed = 5, sampling = "poisson",
                                BPPARAM = bp, block_columns = 16384),
                 "^X: column 35000 holds a NaN or infinite value$")
  expect_error(attsparse_det(DX), paste("X must be in memory: BSS revisits every column at every step;",
                                        "read by blocks, use attsparse_rand (or X as a matrix, when it fits in memory)"),
               fixed = TRUE)
  expect_error(attsparse_greedy(DX), "X must be in memory: the greedy method computes X X' and scores", fixed = TRUE)
  expect_error(attsparse_rand(DX, m = 300, refit = TRUE), "'refit' needs X in memory")
  expect_error(attsparse_rand(DX, leverage = "exact"), "exact")
  expect_error(attsparse_rand(DX, BPPARAM = 2), "BiocParallelParam")
})

# A DelayedArray seed whose values change from one read to the next (or whose reads fail): the
# block run must refuse it, not sample from a mixture of passes.
flaky_class <- function() {
  e <- new.env()
  methods::setClass("FlakySeed", slots = c(X = "matrix", env = "environment", fail = "logical"), where = e)
  methods::setMethod("dim", "FlakySeed", function(x) dim(x@X), where = e)
  methods::setMethod(DelayedArray::extract_array, "FlakySeed", function(x, index) {
    if (x@fail) stop("disk on fire")
    x@env$reads <- x@env$reads + 1
    Y <- x@X
    Y[2, 30000] <- Y[2, 30000] + x@env$reads * 1e-9
    idx <- lapply(seq_along(index), function(k) if (is.null(index[[k]])) seq_len(dim(Y)[k]) else index[[k]])
    Y[idx[[1]], idx[[2]], drop = FALSE]
  }, where = e)
  e
}

test_that("a reader that returns other values in another pass, or fails, stops the run with its reason", {
  skip_if_no_blocks()
  e <- flaky_class()
  X <- block_x()
  count <- new.env()
  count$reads <- 0
  DX <- DelayedArray::DelayedArray(methods::new("FlakySeed", X = X, env = count, fail = FALSE))
  expect_error(attsparse_rand(DX, m = 300, seed = 5, error = FALSE, block_columns = 16384),
               "^X: column 30000 read differently in two passes: a reader must return the same X every time$")
  expect_error(leverage_scores(DX, seed = 5, block_columns = 16384), "column 30000 read differently")
  bad <- DelayedArray::DelayedArray(methods::new("FlakySeed", X = X, env = count, fail = TRUE))
  expect_error(attsparse_rand(bad, m = 300, seed = 5, error = FALSE, block_columns = 16384),
               "^the reader failed on columns 1..16384: disk on fire$")
})

test_that("block input: the memory cap, options given twice, d <= s1 with rel, error = FALSE with spectral", {
  skip_if_no_blocks()
  X <- block_x()
  DX <- DelayedArray::DelayedArray(X)
  # refused before any column is read
  expect_error(attsparse_rand(DX, memory = 1e-9), "above 'memory' = 1e-09 MiB")
  expect_error(attsparse_rand(DelayedArray::DelayedArray(matrix(0.01, 1, 1e6)), m = 50, memory = 1),
               "X read by blocks .* above 'memory' = 1 MiB")
  # reader options are options: each once
  expect_error(attsparse_rand(DX, BPPARAM = BiocParallel::SerialParam(), BPPARAM = "junk"),
               "option 'BPPARAM' is given twice")
  expect_error(attsparse_rand(DX, block_columns = 16384, block_columns = 2), "option 'block_columns' is given twice")
  expect_error(leverage_scores(DX, BPPARAM = BiocParallel::SerialParam(), BPPARAM = BiocParallel::SerialParam()),
               "option 'BPPARAM' is given twice")
  # no wider than the sketch: read whole, then exactly the in-memory call, target mode too
  small <- X[, 1:50]
  for (args in list(list(rel = 0.2), list(m = 40, error = FALSE, spectral = TRUE)))
    expect_same_sample(do.call(attsparse_rand, c(list(small, seed = 2), args)),
                       do.call(attsparse_rand, c(list(DelayedArray::DelayedArray(small), seed = 2), args)))
  # error = FALSE, spectral = TRUE: eps_spectral as in memory (X X' summed by chunks: to 1e-10)
  ref <- attsparse_rand(X, m = 300, seed = 5, error = FALSE, spectral = TRUE)
  got <- attsparse_rand(DX, m = 300, seed = 5, error = FALSE, spectral = TRUE)
  expect_same_sample(ref, got)
  expect_true(is.na(got$rel_error) && is.na(got$error))
  expect_equal(got$eps_spectral, ref$eps_spectral, tolerance = 1e-10)
  expect_equal(got$bound, ref$bound, tolerance = 1e-10)
})

test_that("a logical sparse DelayedMatrix is read as numbers without Matrix's deprecated coercion", {
  skip_if_no_blocks()
  L <- Matrix::Matrix(abs(block_x()) > 0.08, sparse = TRUE)
  expect_s4_class(L, "lgCMatrix")
  # Matrix's deprecated as(<lgCMatrix>, "dgCMatrix") an error, not a notice printed once a session
  old <- options(Matrix.warnDeprecatedCoerce = 3)
  on.exit(options(old))
  got <- attsparse_rand(DelayedArray::DelayedArray(L), m = 300, seed = 5, error = FALSE, estimate = FALSE,
                        block_columns = 16384, BPPARAM = BiocParallel::SerialParam())
  expect_same_sample(attsparse_rand(L, m = 300, seed = 5, error = FALSE, estimate = FALSE), got)
})

test_that("block input whose squared column norms all underflow is refused with norm probabilities", {
  skip_if_no_blocks()
  X <- block_x() * 1e-310
  expect_error(attsparse_rand(DelayedArray::DelayedArray(X), probabilities = "norm", m = 300, seed = 5,
                              error = FALSE, block_columns = 16384),
               "^X: the sum of squared column norms underflows: rescale X$")
  # one such column among ordinary ones: the in-memory sample, bit for bit
  Y <- block_x()
  Y[, 40] <- 1e-170
  expect_same_sample(attsparse_rand(Y, probabilities = "norm", m = 300, seed = 5, error = FALSE),
                     attsparse_rand(DelayedArray::DelayedArray(Y), probabilities = "norm", m = 300, seed = 5,
                                    error = FALSE, block_columns = 16384))
})

test_that("an HDF5Array gives the in-memory answer; d <= s1 is read whole", {
  skip_if_no_blocks()
  skip_if_not_installed("HDF5Array")
  X <- block_x()
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  H <- HDF5Array::writeHDF5Array(X, f, "X", chunkdim = c(12L, 4096L))
  ref <- attsparse_rand(X, m = 300, seed = 5, sampling = "poisson", error = FALSE)
  expect_same_sample(ref, attsparse_rand(H, m = 300, seed = 5, sampling = "poisson", error = FALSE,
                                         block_columns = 16384))
  # target mode: the same sample from the file, at most 4 reads of it
  ref <- attsparse_rand(X / 10, rel = 0.05, seed = 5, error = FALSE)
  H10 <- HDF5Array::writeHDF5Array(X / 10, f10 <- tempfile(fileext = ".h5"), "X", chunkdim = c(12L, 4096L))
  on.exit(unlink(f10), add = TRUE)
  got <- attsparse_rand(H10, rel = 0.05, seed = 5, error = FALSE, block_columns = 16384)
  expect_same_sample(ref, got)
  expect_lte(got$reads, 4)
  small <- X[, 1:50]
  expect_same_sample(attsparse_rand(small, m = 40, seed = 2, error = FALSE),
                     attsparse_rand(DelayedArray::DelayedArray(small), m = 40, seed = 2, error = FALSE))
  # a NaN at column 30000 is reported as column 30000 (not by its place in a block)
  X[5, 30000] <- NaN
  f2 <- tempfile(fileext = ".h5")
  on.exit(unlink(f2), add = TRUE)
  H2 <- HDF5Array::writeHDF5Array(X, f2, "X", chunkdim = c(12L, 4096L))
  expect_error(attsparse_rand(H2, seed = 5, block_columns = 16384), "^X: column 30000 holds a NaN or infinite value$")
  expect_error(leverage_scores(H2, seed = 5), "^X: column 30000 holds a NaN or infinite value$")
  expect_error(attention_error(H2, X[, 1:20]), "^X: column 30000 holds a NaN or infinite value$")
})

# ATTSPARSE_TEST_HEAVY=1: a 200 MB HDF5 file; the run's peak resident memory (VmHWM of a child R
# process) stays well below the size of X.
test_that("an HDF5 file of 200 MB is sampled without realising it", {
  skip_if_no_blocks()
  skip_if_not_installed("HDF5Array")
  skip_if(Sys.getenv("ATTSPARSE_TEST_HEAVY") == "", "set ATTSPARSE_TEST_HEAVY=1 for the 200 MB HDF5 test")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  script <- system.file("scripts", "ooc-child.R", package = "attsparse")
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- system2(rscript, c(script, "write", f, 200, 131072), stdout = TRUE, stderr = TRUE)
  expect_true(file.exists(f), info = paste(out, collapse = "\n"))
  out <- system2(rscript, c(script, "run", f, "1"), stdout = TRUE, stderr = TRUE)
  line <- grep("^ooc:", out, value = TRUE)
  expect_length(line, 1L)
  kv <- strsplit(sub("^ooc: ", "", line), " ")[[1]]
  fields <- suppressWarnings(as.numeric(sub(".*=", "", kv)))
  names(fields) <- sub("=.*", "", kv)
  expect_gt(fields[["k"]], 100)
  # X is 200 MB; the run holds a block (26 MB), the sketch and the scores: its peak above the
  # resident size it started from (R and its packages) is a fraction of X
  expect_lt(fields[["vmhwm_mb"]] - fields[["base_mb"]], 0.5 * fields[["x_mb"]])
})

test_that("Ctrl-C stops a block run within a few seconds, on the workers too, and the session goes on", {
  skip_if_fast()
  skip_if_no_blocks()
  skip_on_os("windows")
  skip_if(Sys.which("setsid") == "", "no setsid to give the child its own process group")
  for (mode in c("serial", "multicore", "snow")) {
    # the run takes about 3 s alone on an idle 2-core machine (interrupted 0.3 s in); its own process group, as a terminal's
    # foreground job: Ctrl-C goes to the workers too
    run <- interrupt_child(c(
      "library(attsparse)",
      "set.seed(1)",
      # 25 blocks of 16384 columns a pass, three passes
      "DX <- DelayedArray::DelayedArray(matrix(rnorm(64 * 400000, sd = 0.02), 64))",
      sprintf("bp <- switch('%s', serial = BiocParallel::SerialParam(), multicore = BiocParallel::MulticoreParam(2), snow = BiocParallel::SnowParam(2))", mode),
      # workers up before the run (a Ctrl-C while socket workers are still starting is the
      # parallel package's to handle, not the run's)
      "BiocParallel::bpstart(bp)",
      "cat('ready\\n'); flush(stdout())",
      "t0 <- proc.time()[[3]]",
      "r <- tryCatch(attsparse_rand(DX, m = 2000, seed = 1, error = FALSE, BPPARAM = bp, block_columns = 16384),",
      "              error = function(e) conditionMessage(e), interrupt = function(e) 'interrupted')",
      "cat(sprintf('stopped after %.2f s: %s\\n', proc.time()[[3]] - t0, if (is.character(r)) r else 'finished'))",
      "cat('usable', sum(attsparse_example(3, 10)^2) > 0, '\\n')"), delay = 0.3, group = TRUE)
    expect_true(run$ready, label = paste(mode, "child started"))
    lines <- run$lines
    waited <- run$waited
    pid <- run$pid
    label <- paste(mode, paste(lines, collapse = " | "))
    expect_true(any(grepl("stopped after .*(interrupted|stopped: the workers ended)", lines)), label = label)
    expect_true(any(grepl("usable TRUE", lines)), label = label)
    expect_lt(waited, 5, label = label)
    # no worker left behind (socket workers notice their closed connection and quit: allow them time)
    for (i in 1:150) {
      left <- suppressWarnings(system(sprintf("pgrep -g %d", pid), intern = TRUE))
      if (length(left) == 0) break
      Sys.sleep(0.1)
    }
    expect_identical(length(left), 0L, label = paste(mode, "processes left:", paste(left, collapse = " ")))
  }
})

test_that("leverage_scores on a DelayedMatrix gives the in-memory approximate scores, bit for bit", {
  skip_if_fast()
  skip_if_no_blocks()
  for (sparse in c(FALSE, TRUE)) {
    X <- block_x(sparse)
    ref <- leverage_scores(X, seed = 4)
    for (bc in c(16384, 1e6)) {
      got <- leverage_scores(DelayedArray::DelayedArray(X), seed = 4, block_columns = bc)
      expect_identical(got, ref)
    }
    got <- leverage_scores(DelayedArray::DelayedArray(X), seed = 4, block_columns = 16384,
                           BPPARAM = BiocParallel::MulticoreParam(2))
    expect_identical(got, ref)
  }
  # the scores estimate the exact ones (sum = rank = 12)
  ex <- leverage_scores(block_x(), "exact")
  expect_equal(sum(got), attr(ex, "rank"), tolerance = 0.5)
  expect_gt(cor(got, ex), 0.9)
  # d <= s1: read whole, as in memory
  small <- block_x()[, 1:50]
  expect_identical(leverage_scores(DelayedArray::DelayedArray(small), seed = 1), leverage_scores(small, seed = 1))
  expect_error(leverage_scores(DelayedArray::DelayedArray(block_x()), "exact"), "method = \"exact\" needs .* in memory")
  expect_error(leverage_scores(DelayedArray::DelayedArray(block_x()), BPPARAM = 2), "BiocParallelParam")
})
