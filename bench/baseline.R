# baseline.R: an independent baseline for the greedy method, in plain R (nothing of the package is
# called): forward greedy selection by residual correlation x_j' (G - H) x_j with G = X X' and
# H = X_S diag(w) X_S', batches of 5% of the kept columns (at least 1), the weights w >= 0 refitted
# after each batch by nonnegative least squares, min ||G - X_S diag(w) X_S'||_F (normal equations
# K_ab = (x_a' x_b)^2, b_a = x_a' G x_a; columns whose weight falls to 0 dropped), until the exact
# rel = max |Att(Y) / Att(X) - 1| (computed in the log domain) meets every target or `cap` columns are
# kept. Y = X_S diag(sqrt(w)).
# baseline_greedy(X, targets) returns, per target, the first k (and its rel) meeting it, NA when
# none did within the cap.

# log of the row-softmax of a Gram matrix
log_softmax_rows <- function(G) {
  m <- apply(G, 1, max)
  G - (m + log(rowSums(exp(G - m))))
}

# exact rel of H = Y Y' against the log-attention lA of X
rel_exact <- function(H, lA) max(abs(expm1(log_softmax_rows(H) - lA)))

# min ||K w - b|| over w >= 0 for a symmetric positive semidefinite K (the normal equations):
# Lawson and Hanson's active set, every variable with a positive gradient freed at once (the
# objective falls strictly from one passive set to the next, so none repeats), started from w0.
nnls_normal <- function(K, b, w0 = numeric(length(b))) {
  tol <- 1e-10 * max(abs(b), abs(diag(K)))
  w <- pmax(w0, 0)
  P <- w > 0
  solve_on <- function(P) {
    z <- numeric(length(b))
    Kp <- K[P, P, drop = FALSE]
    s <- tryCatch(solve(Kp, b[P]), error = function(e) qr.coef(qr(Kp, tol = 1e-12), b[P]))
    s[is.na(s)] <- 0
    z[P] <- s
    z
  }
  single <- FALSE                                # free only the steepest variable (Lawson-Hanson)
  for (iter in seq_len(10 * length(b) + 10)) {
    g <- b - drop(K %*% w)                       # minus the gradient
    free <- !P & g > tol
    if (!any(free)) break
    if (single) free <- seq_along(b) == which.max(ifelse(P, -Inf, g))
    P <- P | free
    repeat {
      z <- solve_on(P)
      if (all(z[P] > 0)) { w <- z; break }
      ratio <- ifelse(P & z <= 0, w / (w - z), Inf); ratio[is.nan(ratio)] <- 0
      j <- which.min(ratio)
      w <- w + ratio[j] * (z - w)
      w[j] <- 0
      P <- P & w > 0
      w[!P] <- 0
      if (!any(P)) break
    }
    single <- !any(P & free)                     # none of the freed kept: one at a time next
  }
  w
}

baseline_greedy <- function(X, targets = c(0.05, 0.02, 0.01), cap = 1500, batch = 0.05) {
  G <- as.matrix(tcrossprod(X))
  lA <- log_softmax_rows(G)
  X <- if (inherits(X, "sparseMatrix")) as(X, "CsparseMatrix") else as.matrix(X)
  score0 <- colSums(X * as.matrix(G %*% X))        # x_j' G x_j
  S <- integer(0); w <- numeric(0); H <- 0 * G
  k <- rep(NA_real_, length(targets)); rel <- rep(NA_real_, length(targets))
  t0 <- proc.time()[["elapsed"]]
  r <- rel_exact(H, lA)                             # no column at all: the uniform attention
  k[r <= targets] <- 0; rel[r <= targets] <- r
  while (anyNA(k)) {
    score <- if (length(S)) colSums(X * as.matrix((G - H) %*% X)) else score0
    score[S] <- -Inf
    add <- head(order(score, decreasing = TRUE), max(1, floor(batch * length(S))))
    add <- add[score[add] > 1e-12 * max(score0)]
    if (!length(add)) break
    S <- c(S, add); w <- c(w, numeric(length(add)))
    XS <- as.matrix(X[, S, drop = FALSE])
    w <- nnls_normal(crossprod(XS)^2, score0[S], w)
    keep <- w > 0
    S <- S[keep]; w <- w[keep]; XS <- XS[, keep, drop = FALSE]
    if (!any(add %in% S)) break                     # the refit dropped the whole batch: no progress
    H <- tcrossprod(XS %*% diag(w, length(w)), XS)
    r <- rel_exact(H, lA)
    hit <- is.na(k) & r <= targets
    k[hit] <- length(S); rel[hit] <- r
    if (length(S) >= cap) break
  }
  list(k = k, rel = rel, targets = targets, last_k = length(S), last_rel = r,
       index = S, weight = sqrt(w), time = proc.time()[["elapsed"]] - t0)
}

# The summary of a run against the baseline (bench/outside.R, bench/realforms.R): out has columns k,
# rel, target, time and base_k (NA: the baseline missed) per case, rand_rel and rand_est per `by`
# (once per instance, repeated); prints the counts, the cases missed or above the baseline (and those
# slower than `slow` seconds), and the estimate over the exact error per `by` at the first target.
report_against_baseline <- function(out, by, slow = Inf, per_instance = FALSE) {
  met <- out$rel <= out$target
  bmet <- !is.na(out$base_k)
  cat(sprintf("cases %d: greedy met %d, the baseline %d; greedy missed where the baseline met %d; k > baseline %d, > 1.25x %d\n",
              nrow(out), sum(met), sum(bmet), sum(!met & bmet), sum(met & bmet & out$k > out$base_k),
              sum(met & bmet & out$k > 1.25 * out$base_k)))
  print(out[!met | (bmet & out$k > out$base_k) | out$time > slow, ], row.names = FALSE)
  e <- out[out$target == out$target[1] & is.finite(out$rand_est), ]
  e$estimate_over_exact <- e$rand_est / e$rand_rel
  if (per_instance) print(e[, c(by, "r", "n", "d", "rand_k", "rand_rel", "rand_est", "estimate_over_exact")],
                          row.names = FALSE, digits = 3)
  else print(aggregate(stats::as.formula(paste("cbind(estimate_over_exact, covered = rand_est >= rand_rel) ~", by)), e, median))
}
