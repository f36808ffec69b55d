# rand_common.R: helpers of the randomized-algorithm benchmark (R side): ASBIN001 input files, exact Gram, rel error, memory.
suppressPackageStartupMessages(library(Matrix))

# ASBIN001 (see bench/core_tool.c): "ASBIN001", int64 n, d, nnz, kind, then the
# dense column-major values, or int32 p[d+1], int32 i[nnz], double x[nnz].
read_asbin <- function(path) {
  con <- file(path, "rb")
  on.exit(close(con))
  stopifnot(identical(readChar(con, 8, useBytes = TRUE), "ASBIN001"))
  h <- readBin(con, "integer", 8, size = 4)[c(1, 3, 5, 7)]   # low words of 4 int64
  n <- h[1]; d <- h[2]; nnz <- h[3]
  if (h[4] == 0) {
    X <- readBin(con, "double", n * d)
    dim(X) <- c(n, d)
    return(X)
  }
  p <- readBin(con, "integer", d + 1)
  i <- readBin(con, "integer", nnz)
  x <- readBin(con, "double", nnz)
  new("dgCMatrix", i = i, p = p, x = x, Dim = c(n, d))
}

write_asbin <- function(X, path) {
  con <- file(path, "wb")
  on.exit(close(con))
  writeChar("ASBIN001", con, eos = NULL, useBytes = TRUE)
  sparse <- inherits(X, "sparseMatrix")
  if (sparse) X <- as(as(X, "CsparseMatrix"), "generalMatrix")
  nnz <- if (sparse) length(X@x) else length(X)
  writeBin(as.integer(c(nrow(X), 0, ncol(X), 0, nnz, 0, as.integer(sparse), 0)), con, size = 4)
  if (sparse) {
    writeBin(as.integer(X@p), con, size = 4)
    writeBin(as.integer(X@i), con, size = 4)
    writeBin(as.double(X@x), con)
  } else writeBin(as.double(X), con)
}

read_gram <- function(path, n) matrix(readBin(path, "double", n * n), n, n)

# Y Y' of a wide matrix in blocks of columns: columns with more than n/16
# stored entries go through dense BLAS (dsyrk), the others through Matrix's
# sparse product. Used only to score results, never timed.
gram_blocked <- function(Y) {
  n <- nrow(Y)
  if (!inherits(Y, "sparseMatrix")) {
    G <- matrix(0, n, n)
    for (b in split(seq_len(ncol(Y)), ceiling(seq_len(ncol(Y)) / 8192)))
      G <- G + tcrossprod(Y[, b, drop = FALSE])
    return(G)
  }
  cnt <- diff(Y@p)
  heavy <- which(cnt > n / 16)
  G <- as.matrix(tcrossprod(Y[, cnt <= n / 16, drop = FALSE]))
  for (b in split(heavy, ceiling(seq_along(heavy) / 2048)))
    G <- G + tcrossprod(as.matrix(Y[, b, drop = FALSE]))
  G
}

row_softmax <- function(G) {
  A <- exp(G - apply(G, 1, max))
  A / rowSums(A)
}

# max_ij |Att(Y)_ij / Att(X)_ij - 1|, Att(X) from the exact Gram G
rel_error <- function(G, H) max(abs(row_softmax(H) / row_softmax(G) - 1))

# Resident memory in MiB: peak since the last reset, and now (Linux /proc).
mem_reset <- function() try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
mem_now <- function() {
  s <- readLines("/proc/self/status")
  kb <- function(key) as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep(paste0("^", key, ":"), s, value = TRUE)))
  c(hwm = kb("VmHWM") / 1024, rss = kb("VmRSS") / 1024)
}

object_mb <- function(X) as.numeric(object.size(X)) / 2^20
