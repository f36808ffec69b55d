# helper-attsparse.R: independent reference computations and the real data sets for the tests.
suppressPackageStartupMessages(library(Matrix))

# Row-softmax of X X' computed in plain R, for comparison with the core.
att_direct <- function(X) {
  G <- as.matrix(Matrix::tcrossprod(X))
  E <- exp(G - apply(G, 1, max))
  E / rowSums(E)
}

# Smallest eps with (1-eps) G <= H <= (1+eps) G on the range of G, by eigen().
spectral_eps <- function(X, Y) {
  G <- as.matrix(Matrix::tcrossprod(X)); H <- as.matrix(Matrix::tcrossprod(Y))
  e <- eigen(G, symmetric = TRUE)
  keep <- e$values > nrow(G) * 16 * .Machine$double.eps * max(e$values)
  W <- e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), sum(keep))
  mu <- eigen(crossprod(W, H %*% W), symmetric = TRUE, only.values = TRUE)$values
  max(max(mu) - 1, 1 - min(mu))
}

# Exact leverage scores of the columns from R's qr(): squared row norms of Q.
leverage_direct <- function(X) {
  q <- qr(t(as.matrix(X)), LAPACK = FALSE, tol = 1e-10)
  Q <- qr.Q(q)[, seq_len(q$rank), drop = FALSE]
  rowSums(Q^2)
}

# Real data with d >> n, scaled so that max_i (X X')_ii = 1; NULL when the
# Debian package is not installed.
real_data <- function(name) attsparse:::demo_data(name)

skip_if_no_data <- function(X, pkg) if (is.null(X)) skip(paste("data package", pkg, "not installed"))

# The beta of the default m of attsparse_rand, computed here from its definition (?attsparse_rand):
# t solving (k/2)(t - 1 - log t) = log(4 d / delta) above 1 (embedding, k = s1) and below 1 (JL,
# k = s2), times the sum of the approximate scores over the rank.
sketch_beta_direct <- function(s1, s2, d, delta, Sigma, rank) {
  x <- log(4 * d / delta)
  f <- function(t, k) k / 2 * (t - 1 - log(t)) - x
  b <- if (s1 > 0) uniroot(f, c(1, 1e3), k = s1, tol = 1e-14)$root else 1
  a <- if (s2 > 0) uniroot(f, c(1e-12, 1), k = s2, tol = 1e-15)$root else 1
  b / a * Sigma / rank
}
