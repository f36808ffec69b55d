# prepare.R: the documented preparation of X (centre the features, scale the rows' Gram) and the
# annotations a result takes from its X: the preparation, to be reused by predict(), and the names
# of the kept features.

# The preparation a matrix carries (from attsparse_prepare), NULL when none.
prep_of <- function(X) attr(X, "attsparse_prepare", exact = TRUE)

attsparse_prepare <- function(X, center = FALSE, scale = TRUE, r = 1, assay.type = NULL) {
  if (is_container(X)) X <- se_matrix(X, assay.type)
  if (is_block_input(X)) X <- if (DelayedArray::is_sparse(X)) methods::as(X, "CsparseMatrix") else as.matrix(X)
  X <- as_input(X)
  check_flag(center, "center")
  if (!(isTRUE(scale) || isFALSE(scale) || (is.numeric(scale) && length(scale) == 1L && is.finite(scale) && scale > 0)))
    stop("'scale' must be TRUE, FALSE or a single positive number", call. = FALSE)
  check_number(r, "r")
  if (!(is.finite(r) && r > 0)) stop(sprintf("'r' must be a positive number, got %s", format(r)), call. = FALSE)
  mu <- NULL
  if (center) {
    mu <- Matrix::colMeans(X)
    names(mu) <- colnames(X)
    # centring fills every entry: a sparse X becomes dense
    X <- sweep(as.matrix(X), 2L, mu)
  }
  # X is divided by `divisor` (so that attsparse_prepare(X) of the demo's data keeps its bits); `scale`,
  # the multiplier, is its inverse
  divisor <- 1
  if (isTRUE(scale)) {
    # the largest diagonal of X X' becomes r: X / sqrt(max_i sum_j X_ij^2 / r)
    g <- max(Matrix::rowSums(X^2))
    if (g > 0) divisor <- sqrt(g / r)
  } else if (is.numeric(scale)) divisor <- 1 / scale
  if (divisor != 1) X <- X / divisor
  attr(X, "attsparse_prepare") <- list(center = mu, scale = 1 / divisor, divisor = divisor,
                                       r = if (isTRUE(scale)) r else NA_real_)
  X
}

# What a result records of its X besides the core's fields: the preparation X carries, and the names of
# the kept columns on index and weight (when X has column names).
annotate_result <- function(res, X) {
  prep <- prep_of(X)
  if (!is.null(prep)) res$prepare <- prep
  cn <- colnames(X)
  if (!is.null(cn) && length(res$index)) {
    names(res$index) <- cn[res$index]
    names(res$weight) <- cn[res$index]
  }
  res
}
