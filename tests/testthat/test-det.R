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

det_ok <- function(X, eps, label, ...) {
  res <- attsparse_det(X, eps = eps, ...)
  what <- function(s) sprintf("%s eps %.1f: %s", label, eps, s)
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
  # the budget field: b's barriers end at 2 sqrt(b) / (b + 1) = eps
  expect_equal(2 * sqrt(res$b) / (res$b + 1), eps, tolerance = 1e-12, label = what("b"))
  expect_true(all(diff(res$index) > 0))
  ref <- X[, res$index, drop = FALSE] %*% Diagonal(x = res$weight)
  expect_identical(max(abs(as.matrix(res$Y) - as.matrix(ref))), 0)
  expect_equal(res$eps_spectral, spectral_eps(X, res$Y), tolerance = 1e-8)
  res
}

test_that("deterministic: spectral eps <= eps and the BSS barriers hold for eps 0.3, 0.5, 0.8", {
  set.seed(40)
  inputs <- list(dense = attsparse_example(20, 5000, r = 1, seed = 4),
                 sparse = rsparsematrix(16, 8000, density = 0.01),
                 rank_deficient = matrix(rnorm(8 * 3000), 8)[c(1:8, 1:4), ],
                 zero_columns = cbind(matrix(rnorm(10 * 500), 10), matrix(0, 10, 500)),
                 d_below_n = matrix(rnorm(30 * 12), 30))
  for (nm in names(inputs)) for (eps in c(0.3, 0.5, 0.8)) {
    res <- det_ok(inputs[[nm]], eps, nm)
    if (nm == "zero_columns") expect_true(all(res$index <= 500))
    if (nm == "rank_deficient") expect_equal(res$rank, 8)
  }
})

test_that("deterministic on real data: ALL (eps 0.5, 0.8) and crude (0.3, 0.5, 0.8)", {
  A <- real_data("ALL")
  skip_if_no_data(A, "r-bioc-all")
  for (eps in c(0.5, 0.8)) {
    res <- det_ok(A, eps, "ALL")
    expect_lt(res$rel_error, res$baseline)
  }
  C <- real_data("crude")
  skip_if_no_data(C, "r-cran-tm")
  for (eps in c(0.3, 0.5, 0.8)) det_ok(C, eps, "crude")
})

test_that("deterministic means deterministic: repeated runs, threads, tree vs scan", {
  X <- attsparse_example(15, 6000, seed = 8)
  a <- attsparse_det(X, error = FALSE)
  b <- attsparse_det(X, error = FALSE, threads = 1)
  expect_identical(a$index, b$index)
  expect_equal(a$weight, b$weight, tolerance = 1e-12)
  s <- det_ok(X, 0.5, "scan", search = "scan")
  t <- det_ok(X, 0.5, "small leaves", leaf = 16)
  expect_s3_class(s, "attsparse")
  S <- rsparsematrix(12, 5000, density = 0.02)
  expect_s4_class(attsparse_det(S)$Y, "dgCMatrix")
})

test_that("deterministic: bad options are named", {
  X <- attsparse_example(5, 100)
  expect_error(attsparse_det(X, eps = 0), "'eps'")
  expect_error(attsparse_det(X, eps = c(0.1, 0.2)), "'eps'")
  expect_error(attsparse_det(X, search = "bfs"), "'search'")
  expect_error(attsparse_det(X, leaf = -1), "'leaf'")
  expect_error(attsparse_det(X, memory = "a"), "'memory'")
  expect_error(attsparse_det(X, m = 10), "unknown option 'm'")
})

test_that("Ctrl-C stops a long deterministic run within about a second and the session goes on", {
  skip_on_os("windows")
  rscript <- file.path(R.home("bin"), "Rscript")
  script <- tempfile(fileext = ".R")
  out <- tempfile()
  writeLines(c(
    sprintf(".libPaths(c(%s))", paste(deparse(.libPaths()), collapse = "")),
    "library(attsparse)",
    "X <- attsparse_example(200, 40000, seed = 1)",
    "cat('ready\\n'); flush(stdout())",
    "t0 <- proc.time()[[3]]",
    "r <- tryCatch(attsparse_det(X, eps = 0.1, error = FALSE, threads = 1), error = function(e) conditionMessage(e))",
    "cat(sprintf('stopped after %.2f s: %s\\n', proc.time()[[3]] - t0, r))",
    "cat('usable', sum(attsparse_example(3, 10)^2) > 0, '\\n')"), script)
  seen <- function(pattern) file.exists(out) && any(grepl(pattern, readLines(out, warn = FALSE)))
  pid_file <- tempfile()
  system(sprintf("%s --vanilla %s > %s 2>&1 & echo $! > %s", rscript, script, out, pid_file))
  pid <- as.integer(readLines(pid_file))
  for (i in 1:300) { if (seen("ready")) break; Sys.sleep(0.1) }
  Sys.sleep(3)
  t0 <- Sys.time()
  tools::pskill(pid, tools::SIGINT)
  for (i in 1:100) { if (seen("usable")) break; Sys.sleep(0.1) }
  lines <- readLines(out, warn = FALSE)
  expect_true(any(grepl("stopped after .*interrupted", lines)), label = paste(lines, collapse = " | "))
  expect_true(any(grepl("usable TRUE", lines)))
  expect_lt(as.numeric(difftime(Sys.time(), t0, units = "secs")), 3)
})
