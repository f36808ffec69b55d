# estimate-field.R: how far the default estimate's union bound over the n^2 entries sits above the
# 95% quantile of the exact error, and what two other ways of taking the maximum of the same Gaussian
# model would give, in plain R (nothing of the package is called). A study for the estimate, not a
# benchmark of the package: the model here is the dense path's linearized field without its
# diagonal and centre terms (core/estimate_gauss.c adds those, and its bound is larger).
#
#   Rscript bench/estimate-field.R       (about a minute; inputs whose data package is missing are skipped)
#
# Per input (rows scaled to max (X X')_ii = 1): the columns drawn i.i.d. m times by exact leverage
# scores and reweighted; the exact rel = max |Att(Y) / Att(X) - 1| over 100 draws gives its 95%
# quantile (the truth). From single draws (5 of them): the linearized log-ratio of entry (i, l),
# F_il = sum_j e_j y_ij (y_lj - w_ij) (w = Att(Y) Y, e_j of variance 1 / c_j, c_j the column's count),
# its sd per entry, and
#   union:   x with sum_il P(|F_il| > x) = 5% (the estimate's bound, entries taken one by one);
#   count:   the same with n^2 replaced by the count of independent entries whose largest |F| has the
#            mean of the field's largest standardized entry over 20 Gaussian draws;
#   draws:   the field's largest |expm1(F)| over 20 Gaussian draws, its 95% quantile from a Gumbel fit
#            (mean + 1.866 sd) plus 1.645 of its standard error.
# Each as a multiple of the truth (median and smallest over the 5 single draws).
suppressPackageStartupMessages(library(Matrix))
source("bench/corpus.R")

log_att <- function(G) G - apply(G, 1, function(g) max(g) + log(sum(exp(g - max(g)))))
draw_columns <- function(X, p, m) {
  cnt <- tabulate(sample.int(ncol(X), m, TRUE, p), ncol(X))
  j <- which(cnt > 0)
  list(c = cnt[j], Y = X[, j, drop = FALSE] %*% diag(sqrt(cnt[j] / (m * p[j])), length(j)))
}
exact_rel <- function(Y, LX) max(abs(expm1(log_att(tcrossprod(Y)) - LX)))
# the linearized field of one draw: its terms T_j (n x n), their variances 1 / c_j, each entry's sd
field <- function(Y, cnt) {
  n <- nrow(Y)
  W <- exp(log_att(tcrossprod(Y))) %*% Y
  terms <- lapply(seq_len(ncol(Y)), function(j) Y[, j] * (matrix(Y[, j], n, n, byrow = TRUE) - W[, j]))
  v <- Reduce(`+`, Map(function(T, cj) T^2 / cj, terms, cnt))
  list(terms = terms, var = 1 / cnt, sd = sqrt(v))
}
field_draw <- function(f) Reduce(`+`, Map(`*`, f$terms, rnorm(length(f$var)) * sqrt(f$var)))
union_x <- function(sd, count = length(sd)) {
  uniroot(function(x) count / length(sd) * sum(2 * pnorm(-x / sd)) - 0.05, c(1e-12, 40 * max(sd)))$root
}
mean_max_iid <- function(N) integrate(function(x) 1 - (2 * pnorm(x) - 1)^N, 0, Inf)$value
count_for <- function(mean_max, N) {
  if (mean_max_iid(N) <= mean_max) return(N)
  exp(uniroot(function(q) mean_max_iid(exp(q)) - mean_max, c(0, log(N)))$root)
}

study <- function(name, X, m, draws = 20, truth_draws = 100, singles = 5) {
  set.seed(2)
  X <- as.matrix(corpus_scale(X, 1))
  q <- qr(t(X))
  p <- rowSums(qr.Q(q)[, seq_len(q$rank), drop = FALSE]^2)
  p <- p / sum(p)
  LX <- log_att(tcrossprod(X))
  truth <- quantile(replicate(truth_draws, exact_rel(draw_columns(X, p, m)$Y, LX)), 0.95)
  r <- t(replicate(singles, {
    d <- draw_columns(X, p, m)
    f <- field(d$Y, d$c)
    std <- replicate(draws, max(abs(field_draw(f)) / f$sd, na.rm = TRUE))
    big <- replicate(draws, max(abs(expm1(field_draw(f)))))
    gumbel <- mean(big) + 1.866 * sd(big)
    c(union = union_x(f$sd), count = union_x(f$sd, count_for(mean(std), length(f$sd))),
      draws = gumbel + 1.645 * sd(big) * sqrt(1 / draws + 1.866^2 / (2 * (draws - 1))))
  })) / truth
  cat(sprintf("%-10s %3d x %5d | union %.2f (%.2f) | count %.2f (%.2f) | draws %.2f (%.2f)\n", name, nrow(X), ncol(X),
              median(r[, "union"]), min(r[, "union"]), median(r[, "count"]), min(r[, "count"]),
              median(r[, "draws"]), min(r[, "draws"])))
}

pkg_data <- function(what, package) {
  if (!requireNamespace(package, quietly = TRUE)) return(NULL)
  e <- new.env()
  utils::data(list = what, package = package, envir = e)
  e[[what]]
}
cat("input        n x d   | each way's 95% point over the truth's: median (smallest) of 5 single draws\n")
gas <- pkg_data("gasoline", "pls")
if (!is.null(gas)) study("gasoline", unclass(gas$NIR), 10937)
golub <- pkg_data("golub", "multtest")
if (!is.null(golub)) study("golub", t(golub), 3000)
bci <- pkg_data("BCI", "vegan")
if (!is.null(bci)) study("BCI log1p", log1p(as.matrix(bci)), 2000)
study("lowrank", gen_lowrank(60, 1500, 2, rank = 5, noise = 0.01), 3000)
study("counts", gen_counts(26, 3000, 2), 2000)
study("heavy", gen_heavy(30, 1500, 3), 2000)
