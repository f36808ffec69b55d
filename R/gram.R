# gram.R: the exact Gram matrix X X' through the core (no numerical work here).

gram <- function(X, ...) {
  opts <- core_options(list(...))
  X <- as_input(X)
  G <- .Call(C_gram, X, opts)
  if (!is.null(rownames(X))) dimnames(G) <- list(rownames(X), rownames(X))
  G
}
