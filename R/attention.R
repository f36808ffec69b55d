# attention.R: Q != K and values V: exact attention D^-1 exp(Q K') V and the fields a sketch of [Q; K] adds.

# K and V as the core takes them (their shapes and values are the core's to check); NULL when both are
# NULL (the symmetric case).
qk_inputs <- function(X, K, V) {
  if (is.null(K) && is.null(V)) return(NULL)
  if (!is.null(K)) K <- as_input(K, "K")
  list(K = K, V = qk_values(V))
}

# V as a base double matrix: the kinds X may be (as_input: dense, sparse, a data frame), and a
# plain vector is one column; its shape is checked by the glue, its values by the core.
qk_values <- function(V) {
  if (is.null(V)) return(NULL)
  if (is.null(dim(V)) && !is.object(V) && (is.numeric(V) || is.logical(V) || is.complex(V)))
    V <- matrix(V, ncol = 1L)
  V <- as_input(V, "V")
  if (!is.matrix(V)) V <- as.matrix(V)
  V
}

# The options without K and V: the core takes them as arguments of their own beside X (the glue stacks
# [X; K] without a copy; the core computes the metrics of Att(X, K) and Att V in the same call).
qk_drop <- function(opts) {
  opts[["K"]] <- NULL
  opts[["V"]] <- NULL
  opts
}

attention <- function(Q, K = Q, V = NULL, ...) {
  opts <- core_options(list(...))
  Q <- as_input(Q, "Q")
  K <- as_input(K, "K")
  V <- qk_values(V)
  out <- .Call(C_attention, Q, K, V, opts)
  dn <- list(rownames(Q), if (is.null(V)) rownames(K) else colnames(V))
  if (!all(vapply(dn, is.null, NA))) dimnames(out) <- dn
  out
}
