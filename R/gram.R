# gram.R: the exact Gram matrix X X' through the core (no numerical work here).

gram <- function(X, threads = 0) {
  X <- as_input(X)
  check_number(threads, "threads", lower = 0, upper = 1024, whole = TRUE)
  G <- .Call(C_gram, X, as.numeric(threads))
  if (!is.null(rownames(X))) dimnames(G) <- list(rownames(X), rownames(X))
  G
}
