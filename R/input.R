# input.R: argument checking and coercion before the core is called (no numerical work here).

# X as the core takes it: a base double matrix or a dgCMatrix, never copied
# when it already is one.
as_input <- function(X, what = "X") {
  # slam's triplets (tm's DocumentTermMatrix, TermDocumentMatrix): a dgCMatrix with their dimnames
  if (inherits(X, "simple_triplet_matrix")) X <- from_triplets(X, what)
  if (inherits(X, "dgCMatrix")) {
    # a subclass (a package's own dgCMatrix with extra slots): its dgCMatrix part
    if (!identical(class(X)[[1L]], "dgCMatrix")) X <- methods::as(X, "dgCMatrix", strict = TRUE)
    return(X)
  }
  if (is(X, "sparseMatrix") || is(X, "sparseVector")) {
    if (is(X, "sparseVector")) stop(sprintf("'%s' must be a matrix, not a sparse vector", what), call. = FALSE)
    if (is(X, "zMatrix")) stop(sprintf("'%s' must be real, not complex", what), call. = FALSE)
    return(as(as(as(X, "CsparseMatrix"), "generalMatrix"), "dMatrix"))
  }
  if (is(X, "Matrix")) X <- as.matrix(X)
  if (is.data.frame(X)) {
    if (!all(vapply(X, function(col) is.numeric(col) || is.logical(col), NA)))
      stop(sprintf("'%s' is a data frame with non-numeric columns; convert it with data.matrix() first", what),
           call. = FALSE)
    X <- as.matrix(X)
  }
  if (is.complex(X)) stop(sprintf("'%s' must be real, not complex", what), call. = FALSE)
  if (!(is.numeric(X) || is.logical(X)))
    stop(sprintf("'%s' must be a numeric matrix or a sparse Matrix, not %s", what, class(X)[1L]), call. = FALSE)
  if (!is.matrix(X) && !is.null(dim(X)))
    stop(sprintf("'%s' must be a matrix (n x d), not an array with %d dimensions", what, length(dim(X))),
         call. = FALSE)
  if (!is.matrix(X))
    stop(sprintf("'%s' must be a matrix (n x d), not a vector; use matrix(x, nrow = 1) for one row", what),
         call. = FALSE)
  if (storage.mode(X) != "double") storage.mode(X) <- "double"
  X
}

from_triplets <- function(X, what) {
  v <- X$v
  if (is.complex(v)) stop(sprintf("'%s' must be real, not complex", what), call. = FALSE)
  if (!is.numeric(v) && !is.logical(v))
    stop(sprintf("'%s' must be a numeric matrix or a sparse Matrix, not a simple_triplet_matrix of %s values",
                 what, typeof(v)), call. = FALSE)
  bad <- function(why) stop(sprintf("'%s': malformed simple_triplet_matrix: %s", what, why), call. = FALSE)
  if (!is.numeric(X$i) || !is.numeric(X$j)) bad("'i' and 'j' must be numeric vectors of row and column indices")
  len <- c(length(X$i), length(X$j), length(v))
  if (any(len != len[[1L]]))
    bad(sprintf("'i', 'j' and 'v' must have the same length, got %d, %d and %d", len[[1L]], len[[2L]], len[[3L]]))
  # slam's constructor refuses a repeated (i, j); sparseMatrix would sum them
  o <- order(X$j, X$i)
  twice <- which(diff(X$j[o]) == 0 & diff(X$i[o]) == 0)
  if (length(twice))
    bad(sprintf("the entry (i, j) = (%s, %s) is given more than once", format(X$i[o][twice[[1L]]]),
                format(X$j[o][twice[[1L]]])))
  tryCatch(Matrix::sparseMatrix(i = X$i, j = X$j, x = as.double(v), dims = c(X$nrow, X$ncol),
                                dimnames = X$dimnames, repr = "C"),
           error = function(e) bad(conditionMessage(e)))
}

check_number <- function(x, name, lower = -Inf, upper = Inf, whole = FALSE, null_ok = FALSE) {
  if (is.null(x) && null_ok) return(invisible(x))
  if (!is.numeric(x) || length(x) != 1L || is.na(x))
    stop(sprintf("'%s' must be a single number%s", name, if (null_ok) " or NULL" else ""), call. = FALSE)
  if (whole && (x != round(x) || !is.finite(x)))
    stop(sprintf("'%s' must be a whole number, got %s", name, format(x)), call. = FALSE)
  if (x < lower || x > upper)
    stop(sprintf("'%s' must be in [%s, %s], got %s", name, format(lower), format(upper), format(x)),
         call. = FALSE)
  invisible(x)
}

check_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    stop(sprintf("'%s' must be TRUE or FALSE", name), call. = FALSE)
  invisible(x)
}

# A seed from R's generator by the core's rule (as_seed_resolve), so that set.seed() reproduces a
# run; for the block passes, which R drives in several calls and which must share one seed.
seed_from_rng <- function() .Call(C_draw_seed)
