# precheck.R: the traps of X said before any work (the core's rule, core/precheck.c): X transposed (a
# warning naming t(X)), logits that overflow or so small that Y = 0 meets the target (a message with the
# scale to use).
precheck <- function(X, rel = NULL) {
  rel <- if (is.numeric(rel) && length(rel) == 1L) as.numeric(rel) else NA_real_
  # a bad X: the call itself says what is wrong
  p <- tryCatch(.Call(C_precheck, X, rel), error = function(e) NULL)
  if (is.null(p)) return(invisible(NULL))
  if (nzchar(p$warning)) warning(p$warning, call. = FALSE, immediate. = TRUE)
  if (nzchar(p$message)) message(p$message)
  invisible(p)
}

# An X read by blocks (a DelayedMatrix): the trap of its shape alone, before any pass.
precheck_shape <- function(X) {
  w <- .Call(C_precheck_shape, as.numeric(nrow(X)), as.numeric(ncol(X)))
  if (nzchar(w)) warning(w, call. = FALSE, immediate. = TRUE)
  invisible(w)
}
