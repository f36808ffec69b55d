# The demo: each table row is the call it names, the rows hold the guarantees, the plots are PNG files.

test_that("attsparse_demo: the methods table is the four calls, within their bounds; five PNG plots", {
  skip_if_fast()
  out <- file.path(tempdir(), "demo-test")
  unlink(out, recursive = TRUE)
  X <- attsparse_example(n = 30, d = 3000, r = 0.5, seed = 4)
  # a data directory with the data set ALL (here the small matrix) and without acq
  data <- file.path(tempdir(), "demo-test-data")
  dir.create(data, showWarnings = FALSE)
  writeLines(c(sprintf("%d %d %d 0", nrow(X), ncol(X), length(X)),
               sprintf("%d %d %.17g", row(X), col(X), X)), file.path(data, "ALL.X.txt"))
  unlink(file.path(data, "acq.X.txt"))
  printed <- capture.output(res <- attsparse_demo(out, data = data, inputs = list(small = X), quick = TRUE,
                                                  tables = c("methods", "targets")))
  tab <- res$methods
  expect_equal(tab$input, rep(c("example", "ALL", "small"), each = 4))
  expect_equal(tab$method, rep(c("rand-leverage", "rand-uniform", "rand-norm", "det"), 3))
  # the file holds the same matrix: the same rows but the time
  cols <- setdiff(names(tab), c("input", "time"))
  expect_identical(tab[tab$input == "ALL", cols], `rownames<-`(tab[tab$input == "small", cols], 5:8))
  expect_true(any(printed == sprintf("demo: no %s (its R data package is not installed; Debian: r-cran-tm)",
                                     file.path(data, "acq.X.txt"))))
  # each row is its call
  small <- tab[tab$input == "small", ]
  lev <- attsparse_rand(X, seed = 1)
  calls <- list(lev, attsparse_rand(X, m = lev$m, seed = 1, probabilities = "uniform"),
                attsparse_rand(X, m = lev$m, seed = 1, probabilities = "norm"), attsparse_det(X, eps = 0.5))
  for (i in 1:4)
    expect_equal(unlist(small[i, c("m", "k", "inf", "rel", "eps_spectral", "bound")]),
                 c(m = calls[[i]]$m, k = calls[[i]]$k, inf = calls[[i]]$error, rel = calls[[i]]$rel_error,
                   eps_spectral = calls[[i]]$eps_spectral, bound = calls[[i]]$bound))
  # rel <= exp(2 eps max G_ii) - 1 is a theorem once eps is the measured spectral eps
  expect_true(all(tab$rel <= tab$bound * (1 + 1e-9)))
  expect_equal(small$baseline, rep(attention_error(X, X[, 0, drop = FALSE])$rel, 4))
  # the printed line of a row: its numbers in their formats
  hdr <- grep("^method +m +k +inf +rel +baseline +spec_eps +bound +time_s$", printed)
  expect_length(hdr, 3)
  expect_match(printed[hdr[3] - 1], "^small: 30 x 3000 dense, nnz 90000, r = max\\|XX'\\| = 0.5$")
  expect_equal(printed[hdr[3] + 4], sprintf("%-14s %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f", "det",
                                            small$m[4], small$k[4], small$inf[4], 100 * small$rel[4],
                                            100 * small$baseline[4], small$eps_spectral[4], 100 * small$bound[4],
                                            small$time[4]))
  expect_equal(names(res$files), c("error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n", "k_vs_target"))
  for (f in res$files) {
    expect_equal(readBin(f, "raw", 8), as.raw(c(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)))
    expect_gt(file.size(f), 5000)
  }
})

test_that("the targets table: each row's run meets its target, the sweep's run before it did not", {
  skip_if_fast()
  X <- attsparse_example()
  n <- nrow(X)
  printed <- capture.output(tab <- attsparse:::demo_targets("example", X, quick = TRUE))
  targets <- c(0.05, 0.02, 0.01)
  methods <- c("leverage-iid", "norm-poisson", "mixed-poisson", "target", "greedy", "det", "gaussian")
  expect_equal(tab$method, c(rep(methods, 3), "exact"))
  expect_equal(tab$target, c(rep(targets, each = length(methods)), NA))
  # the greedy rows: met below the rel of Y = 0, with the fewest columns of the table's methods of X's columns
  gr <- tab[tab$method == "greedy" & !is.na(tab$k), ]
  expect_true(all(gr$rel <= gr$target))
  for (t in gr$target) {
    others <- tab[tab$target %in% t & tab$method %in% c("leverage-iid", "norm-poisson", "mixed-poisson", "target", "det") &
                  !is.na(tab$k), ]
    expect_true(all(gr$k[gr$target == t] <= others$k))
  }
  met <- !is.na(tab$k)
  sweeps <- met & !tab$method %in% c("target", "exact")
  expect_true(all(tab$rel[sweeps] <= tab$target[sweeps]))
  expect_true(all(grepl("^not met; best ", tab$detail[!met])))
  base <- attention_error(X, X[, 0, drop = FALSE])$rel
  expect_true(any(printed == sprintf("example: fewest columns for rel <= target, %d x %d; Y = 0 (the uniform attention) has rel %.3g%%",
                                     n, ncol(X), 100 * base)))
  expect_equal(sum(grepl("is not below the rel of Y = 0", printed)), sum(targets >= base))
  # each sampling scheme: the m printed meets the target at seed 1, the sweep's m before it does not
  grid <- ceiling(n * c(0.5, 2, 8, 32, 128))
  schemes <- list("leverage-iid" = c("leverage", "iid"), "norm-poisson" = c("norm", "poisson"),
                  "mixed-poisson" = c("mixed", "poisson"))
  for (me in names(schemes)) {
    run <- function(m) attsparse_rand(X, m = m, seed = 1, probabilities = schemes[[me]][1],
                                      sampling = schemes[[me]][2], estimate = FALSE, spectral = FALSE)
    rows <- tab[tab$method == me & met, ]
    expect_gt(nrow(rows), 0)
    for (i in seq_len(nrow(rows))) {
      m <- as.numeric(sub("^m=([0-9]+)$", "\\1", rows$detail[i]))
      at <- run(m)
      expect_equal(c(at$k, at$rel_error), c(rows$k[i], rows$rel[i]))
      j <- match(m, grid)
      expect_false(is.na(j))
      if (j > 1) expect_gt(run(grid[j - 1])$rel_error, rows$target[i])
    }
  }
  # the target mode: its row is the call; with the exact error (the default) its exact rel meets the
  # target on every row (its estimate is of the sample shrunk against X X', and may be above it)
  tm <- tab[tab$method == "target", ]
  one <- attsparse_rand(X, rel = 0.01, seed = 1, spectral = FALSE)
  expect_equal(unlist(tm[3, c("k", "rel", "estimate")]), c(k = one$k, rel = one$rel_error, estimate = one$rel_estimate))
  expect_true(all(tm$rel <= tm$target))
  expect_true(all(tm$k <= vapply(tm$target, function(t) attsparse_rand(X, rel = t, seed = 1, error = FALSE)$k, 0)))
  # det: the eps printed meets the target, the eps before it in the sweep does not
  eps <- c(0.9, 0.5)
  for (i in which(tab$method == "det" & met)) {
    e <- as.numeric(sub("^eps=([0-9.]+),.*", "\\1", tab$detail[i]))
    expect_equal(attsparse_det(X, eps = e, spectral = FALSE)$rel_error, tab$rel[i])
    if (match(e, eps) > 1) expect_gt(attsparse_det(X, eps = 0.9, spectral = FALSE)$rel_error, tab$target[i])
  }
  expect_true(all(tab$k[tab$method == "gaussian" & met] %in% grid[1:3]))
  expect_equal(tab$k[tab$method == "exact"], n)
  expect_lt(tab$rel[tab$method == "exact"], 1e-9)
})

test_that("demo_fewest: the first run meeting each target; the sweep stops when all are met or enough says so", {
  rels <- c(0.2, 0.08, 0.03, 0.04, 0.005, 0.001)
  ran <- integer()
  run <- function(v) { ran <<- c(ran, v); list(rel_error = rels[v], k = 10 * v) }
  found <- attsparse:::demo_fewest(1:6, c(0.05, 0.01), run)
  expect_equal(vapply(found, `[[`, 0, "k"), c(30, 50))
  expect_equal(ran, 1:5)
  ran <- integer()
  found <- attsparse:::demo_fewest(1:6, c(0.05, 0.01), run, enough = function(res) res$k >= 40)
  expect_equal(ran, 1:4)
  expect_null(found[[1]]$met)
  expect_false(found[[2]]$met)       # not met: the best run, 0.03 at k = 30
  expect_equal(found[[2]]$k, 30)
})

test_that("the qkv table: Q the odd rows, K the even rows, V given or generated; each row its call", {
  X <- attsparse_example(n = 31, d = 3000, r = 1, seed = 2)
  Q <- X[seq(1, 31, 2), ]
  K <- X[seq(2, 31, 2), ]
  printed <- capture.output(tab <- attsparse:::demo_qkv("small", X, quick = TRUE))
  expect_equal(tab$m, c(250, 250, 4000, 4000))
  expect_equal(tab$method, rep(c("qk-leverage", "qk-norm"), 2))
  expect_true(all(tab$rel <= tab$bound * (1 + 1e-9)) && all(tab$out_rel <= tab$bound * (1 + 1e-9)))
  V <- attsparse_example(15, 3, r = 1, seed = 1)
  one <- attsparse_rand(Q, K = K, V = V, m = 4000, probabilities = "norm", seed = 1)
  expect_equal(unlist(tab[4, c("k", "eps_spectral", "rel", "out_rel")]),
               c(k = one$k, eps_spectral = one$eps_spectral, rel = one$rel_error, out_rel = one$out_rel_error))
  # out_rel: the error of Att V against sum_j Att_ij |V_jl|, from the exact attention
  A <- attention(Q, K)
  At <- attention(one$Y, one$YK)
  expect_equal(tab$out_rel[4], max(abs(At %*% V - A %*% V) / (A %*% abs(V))), tolerance = 1e-8)
  # values given: their even rows are V
  Vall <- cbind(rep(c(1, 0), length.out = 31), rep(c(0, 1), length.out = 31))
  out <- capture.output(tv <- attsparse:::demo_qkv("small", X, Vall, "alternating labels", quick = TRUE))
  expect_match(out[2], "^small, queries != keys: .*, V = alternating labels$")
  two <- attsparse_rand(Q, K = K, V = Vall[seq(2, 31, 2), ], m = 250, probabilities = "leverage", seed = 1)
  expect_equal(tv$out_rel[1], two$out_rel_error)
})

test_that("attsparse_demo names the bad argument", {
  expect_error(attsparse_demo(inputs = list(matrix(1, 2, 3))), "'inputs' must be a named list")
  expect_error(attsparse_demo(inputs = list(a = "x"), plots = FALSE), "'inputs$a' must be a numeric matrix",
               fixed = TRUE)
  expect_error(attsparse_demo(quick = NA), "quick")
  expect_error(attsparse_demo(data = tempfile()), "'data' must be the name of a directory")
  expect_error(attsparse_demo(tables = "foo", plots = FALSE), "'tables' must name some of the tables")
})

test_that("demo_sets: the data sets of inst/extdata/demo-data.txt", {
  sets <- attsparse:::demo_sets()
  expect_equal(sets$name, c("ALL", "acq", "crude", "golub", "lung"))
  expect_equal(sets$package[sets$name == "lung"], "r-bioc-metagenomeseq")
  expect_equal(sets$values[sets$name == "ALL"], "one-hot B or T cell lineage (2 columns)")
  expect_true(all(sets$values[-1] == "-"))
})

for (name in attsparse:::demo_sets()$name) {
  test_that(sprintf("demo_data scales the real data set %s to max G_ii = 1", name), {
    X <- attsparse:::demo_data(name)
    if (is.null(X)) skip(sprintf("data set %s is not installed", name))
    expect_equal(max(Matrix::rowSums(X^2)), 1)
    expect_gt(ncol(X), 10 * nrow(X))
    if (name %in% c("acq", "crude", "lung")) {
      # raw counts, scaled: every nonzero a whole multiple of the scale, a few columns hold much of the norm
      x <- X@x / min(X@x)
      expect_equal(x, round(x), tolerance = 1e-9)
      w <- sort(Matrix::colSums(X^2), decreasing = TRUE)
      expect_gt(sum(w[1:10]) / sum(w), 0.5)
    }
  })
}

test_that("demo_values: the one-hot B or T lineage of each ALL sample", {
  V <- attsparse:::demo_values("ALL")
  if (is.null(V)) skip("data set ALL is not installed (Debian: r-bioc-all)")
  expect_equal(dim(V), c(nrow(attsparse:::demo_data("ALL")), 2))
  expect_true(all(V %in% 0:1) && all(rowSums(V) == 1))
  expect_gt(min(colSums(V)), 10)
  expect_null(attsparse:::demo_values("acq"))
})
