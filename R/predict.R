# predict.R: a result applied to new rows: their kept columns, with X's preparation, weighted.

# The kept columns of newdata, in the order of object$index: by feature name when both carry names,
# else by position (newdata must then have X's number of columns).
kept_columns <- function(object, newdata) {
  idx <- as.integer(object$index)
  d <- object$dim[[2L]]
  feats <- names(object$index)
  cn <- colnames(newdata)
  if (!is.null(feats) && !is.null(cn)) {
    at <- match(feats, cn)
    if (anyNA(at)) {
      miss <- feats[is.na(at)]
      stop(sprintf("'newdata' lacks %d of the %d features the result kept: %s%s", length(miss), length(feats),
                   paste(utils::head(miss, 5L), collapse = ", "),
                   if (length(miss) > 5L) sprintf(" (and %d more)", length(miss) - 5L) else ""), call. = FALSE)
    }
    return(at)
  }
  if (ncol(newdata) != d)
    stop(sprintf("'newdata' has %d columns, X had %d%s", ncol(newdata), d,
                 if (is.null(feats)) "" else "; give newdata column names to match the kept features by name"),
         call. = FALSE)
  idx
}

predict.attsparse <- function(object, newdata, ..., assay.type = NULL) {
  if (missing(newdata) || is.null(newdata)) return(object$Y)
  if (length(list(...))) stop("predict: unknown arguments: ", paste(names(list(...)), collapse = ", "), call. = FALSE)
  if (is_container(newdata)) newdata <- se_matrix(newdata, assay.type)
  if (inherits(newdata, "simple_triplet_matrix")) newdata <- as_input(newdata, "newdata")
  if (is.null(dim(newdata)) && is.numeric(newdata)) {
    # one new row given as a vector
    newdata <- matrix(newdata, nrow = 1L, dimnames = list(NULL, names(newdata)))
  }
  if (length(dim(newdata)) != 2L) stop("'newdata' must be a matrix (rows x features)", call. = FALSE)
  at <- kept_columns(object, newdata)
  Z <- newdata[, at, drop = FALSE]
  # a DelayedMatrix: only the kept columns are read
  if (is_block_input(Z)) Z <- if (DelayedArray::is_sparse(Z)) methods::as(Z, "CsparseMatrix") else as.matrix(Z)
  Z <- as_input(Z, "newdata")
  prep <- object$prepare
  w <- as.numeric(object$weight)
  if (!is.null(prep$center)) Z <- sweep(as.matrix(Z), 2L, prep$center[object$index])
  # in the order attsparse_prepare and the core use: (Z - centre) / divisor, then * weight
  if (!is.null(prep$divisor) && prep$divisor != 1) Z <- Z / prep$divisor
  Y <- if (inherits(Z, "sparseMatrix")) Z %*% Matrix::Diagonal(x = w) else sweep(Z, 2L, w, `*`)
  if (inherits(Y, "sparseMatrix")) Y <- as_input(Y)
  dimnames(Y) <- list(rownames(newdata), names(object$index))
  Y
}
