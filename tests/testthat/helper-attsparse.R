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
  mu <- gram_ratio_eigen(X, Y)
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

# The BSS barrier argument (Batson, Spielman, Srivastava, "Twice-Ramanujan sparsifiers", SIAM J. Comput.
# 2012, section 3), recomputed here from the returned Y with R's eigen() and the
# paper's constants; of the core's output only Y and the iteration count m are used. With r = rank(X X'),
# sb = sqrt(b), dU = (sb+1)/(sb-1), dL = 1, eU = (sb-1)/(b+sb), eL = 1/sb, the barriers after q steps are
# u_q = r/eU + q dU and l_q = -r/eL + q dL. The run ends with Y Y' = gamma A, gamma = 2/(u_m + l_m), where
# in whitened coordinates every eigenvalue of A lies strictly between l_m and u_m and the potentials are
# no higher than at the start (A = 0): tr (u_m I - A)^-1 <= eU, tr (A - l_m I)^-1 <= eL.
bss_barrier <- function(eps, r, q) {
  b <- ((1 + sqrt(1 - eps^2)) / eps)^2
  sb <- sqrt(b)
  eU <- (sb - 1) / (b + sb)
  eL <- 1 / sb
  u <- r / eU + q * (sb + 1) / (sb - 1)
  l <- -r / eL + q
  list(u = u, l = l, eU = eU, eL = eL, eps = (u - l) / (u + l))
}

# Generalized eigenvalues of (Y Y', X X') on the range of X X', by eigen().
gram_ratio_eigen <- function(X, Y) {
  G <- as.matrix(Matrix::tcrossprod(X)); H <- as.matrix(Matrix::tcrossprod(Y))
  e <- eigen(G, symmetric = TRUE)
  keep <- e$values > nrow(G) * 16 * .Machine$double.eps * max(e$values)
  W <- e$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(e$values[keep]), sum(keep))
  eigen(crossprod(W, H %*% W), symmetric = TRUE, only.values = TRUE)$values
}

# The guarantee and the barrier argument for a result of attsparse_det(X, eps = eps), from its Y and
# iteration count m alone; `what` labels the expectations.
expect_bss_barriers <- function(X, res, eps, what = identity) {
  # the guarantee: (1-eps) X X' <= Y Y' <= (1+eps) X X'
  mu <- gram_ratio_eigen(X, res$Y)
  r <- length(mu)
  expect_equal(res$rank, r, label = what("rank"))
  expect_lte(max(abs(mu - 1)), eps, label = what("spectral eps"))
  # the barriers: m iterations are the fewest whose barrier bound (u - l)/(u + l) reaches eps
  bar <- bss_barrier(eps, r, res$m)
  expect_lte(bar$eps, eps * (1 + 1e-12), label = what("(u_m - l_m)/(u_m + l_m)"))
  expect_gt(bss_barrier(eps, r, res$m - 1)$eps, eps * (1 - 1e-9), label = what("one iteration fewer"))
  expect_equal(res$eps_bound, bar$eps, tolerance = 1e-12, label = what("eps_bound"))
  # A = Y Y' / gamma in whitened coordinates: inside the barriers, potentials not above their start
  lambda <- mu * (bar$u + bar$l) / 2
  expect_true(all(lambda > bar$l & lambda < bar$u), label = what("eigenvalues of A within (l_m, u_m)"))
  expect_lte(sum(1 / (bar$u - lambda)), bar$eU * (1 + 1e-8), label = what("upper potential"))
  expect_lte(sum(1 / (lambda - bar$l)), bar$eL * (1 + 1e-8), label = what("lower potential"))
  # l_m > 0: Y spans the range of X, so it has at least rank(X) columns, and each step adds at most one
  expect_gte(length(res$index), r, label = what("k >= rank"))
  expect_lte(length(res$index), res$m, label = what("k <= m"))
}

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

# Ctrl-C for a long call, as a user sends it: `lines` (R statements, run with this session's libraries)
# in a child Rscript that prints 'ready' before the call and 'usable' once the session goes on; `delay`
# seconds after 'ready', SIGINT to the child (or, with `group`, to its own process group, as a terminal
# sends it to a foreground job and its workers). Returns the child's output lines, the seconds from the
# signal to 'usable', and its pid (the group's id with `group`).
interrupt_child <- function(lines, delay, group = FALSE) {
  rscript <- file.path(R.home("bin"), "Rscript")
  libs <- paste(.libPaths(), collapse = .Platform$path.sep)
  script <- tempfile(fileext = ".R")
  out <- tempfile()
  pid_file <- tempfile()
  writeLines(lines, script)
  seen <- function(pattern) file.exists(out) && any(grepl(pattern, readLines(out, warn = FALSE)))
  system(sprintf("R_LIBS='%s' %s%s --vanilla %s > %s 2>&1 & echo $! > %s", libs, if (group) "setsid " else "",
                 rscript, script, out, pid_file))
  pid <- as.integer(readLines(pid_file))
  for (i in 1:1200) { if (seen("ready")) break; Sys.sleep(0.1) }
  ready <- seen("ready")
  Sys.sleep(delay)
  t0 <- Sys.time()
  # tools::pskill refuses a process group: kill(1) takes it
  if (group) system(sprintf("kill -INT -%d", pid)) else tools::pskill(pid, tools::SIGINT)
  for (i in 1:200) { if (seen("usable")) break; Sys.sleep(0.1) }
  list(lines = readLines(out, warn = FALSE), ready = ready, pid = pid,
       waited = as.numeric(difftime(Sys.time(), t0, units = "secs")))
}

# Ctrl-C for `call` (an R expression as text) after `setup` in a child R process, `delay` seconds after
# the call starts: it must stop with "interrupted by the user" and the session must go on; `within`
# bounds the seconds from the signal until the child's next statement has printed.
expect_interrupted <- function(setup, call, delay, within) {
  run <- interrupt_child(c(
    "library(attsparse)", setup,
    "cat('ready\\n'); flush(stdout())",
    "t0 <- proc.time()[[3]]",
    sprintf("r <- tryCatch(%s, error = function(e) conditionMessage(e))", call),
    "cat(sprintf('stopped after %.2f s: %s\\n', proc.time()[[3]] - t0, if (is.character(r)) r else 'finished'))",
    "cat('usable', sum(attsparse_example(3, 10)^2) > 0, '\\n')"), delay = delay)
  expect_true(any(grepl("stopped after .*interrupted", run$lines)), label = paste(run$lines, collapse = " | "))
  expect_true(any(grepl("usable TRUE", run$lines)))
  expect_lt(run$waited, within)
}

# A long test (seeds over real data, child processes, the demo's tables): make check runs it,
# make check-fast (ATTSPARSE_FAST=1) leaves it out.
skip_if_fast <- function() {
  skip_if(nzchar(Sys.getenv("ATTSPARSE_FAST")), "a long test, left to make check (ATTSPARSE_FAST is set)")
}
