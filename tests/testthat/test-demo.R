# The demo: tables that hold the guarantees, PNG files, the fixed-format table R and Octave share.

test_that("attsparse_demo tables hold the guarantees and the plots are PNG files", {
  out <- file.path(tempdir(), "demo-test")
  unlink(out, recursive = TRUE)
  X <- attsparse_example(n = 30, d = 3000, r = 0.5, seed = 4)
  # a data directory with the spec's file input ALL (here the small matrix) and without acq
  data <- file.path(tempdir(), "demo-test-data")
  dir.create(data, showWarnings = FALSE)
  writeLines(c(sprintf("%d %d %d 0", nrow(X), ncol(X), length(X)),
               sprintf("%d %d %.17g", row(X), col(X), X)), file.path(data, "ALL.X.txt"))
  unlink(file.path(data, "acq.X.txt"))
  printed <- capture.output(res <- attsparse_demo(out, inputs = list(small = X), quick = TRUE, data = data))
  tab <- res$table
  expect_equal(tab$input, rep(c("example", "ALL", "small"), each = 4))
  expect_equal(tab$method, rep(c("rand-leverage", "rand-uniform", "rand-norm", "det"), 3))
  # the file holds the same matrix: the same rows but the time
  cols <- setdiff(names(tab), c("input", "time"))
  expect_identical(tab[tab$input == "ALL", cols], `rownames<-`(tab[tab$input == "small", cols], 5:8))
  expect_true(any(printed == sprintf("demo: no %s (its R data package is not installed)",
                                     file.path(data, "acq.X.txt"))))
  # the same m for the three sampling schemes, the default m for leverage sampling
  for (inp in c("example", "small")) {
    t1 <- tab[tab$input == inp, ]
    expect_equal(t1$m[1:3], rep(t1$m[1], 3))
  }
  expect_equal(tab$m[tab$input == "small"][1], attsparse_rand(X, seed = 1, error = FALSE)$m)
  # rel <= exp(2 eps max G_ii) - 1 is a theorem once eps is the measured spectral eps
  expect_true(all(tab$rel <= tab$bound * (1 + 1e-9)))
  expect_true(all(tab$k <= tab$m))
  det <- tab[tab$method == "det", ]
  # the det row is the spec's call, attsparse_det(X, eps = 0.5) (its guarantees: test-det.R)
  ref <- attsparse_det(X, eps = 0.5)
  expect_equal(unlist(det[3, c("m", "k", "rel", "eps_spectral")]),
               c(m = ref$m, k = ref$k, rel = ref$rel_error, eps_spectral = ref$eps_spectral))
  expect_true(all(det$eps_spectral <= 0.5))
  # the baseline is the rel error of Y = 0, whatever the method
  expect_equal(tab$baseline[tab$input == "small"],
               rep(attention_error(X, X[, 0, drop = FALSE])$rel, 4))
  # the fixed-format table: header then one line per method with the same numbers
  hdr <- grep("^method +m +k +inf +rel +baseline +spec_eps +bound +time_s$", printed)
  expect_length(hdr, 3)
  line <- printed[hdr[3] + 4]
  expect_equal(line, sprintf("%-14s %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f", "det", det$m[3],
                             det$k[3], det$inf[3], 100 * det$rel[3], 100 * det$baseline[3],
                             det$eps_spectral[3], 100 * det$bound[3], det$time[3]))
  expect_match(printed[hdr[3] - 1], "^small: 30 x 3000 dense, nnz 90000, r = max\\|XX'\\| = 0.5$")
  expect_equal(names(res$files), c("error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n"))
  for (f in res$files) {
    expect_true(file.exists(f))
    expect_equal(readBin(f, "raw", 8), as.raw(c(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)))
    expect_gt(file.size(f), 5000)
  }
})

test_that("the demo's definition: four methods, the table's columns and formats, the four plots", {
  spec <- attsparse:::demo_spec()
  expect_equal(names(spec$methods), c("rand-leverage", "rand-uniform", "rand-norm", "det"))
  expect_equal(names(spec$columns), c("method", "m", "k", "inf", "rel", "baseline", "eps_spectral", "bound",
                                      "time"))
  expect_equal(names(spec$plots), c("error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n"))
  expect_equal(names(spec$inputs), c("example", "ALL", "acq"))
  expect_equal(attsparse:::spec_options("seed=1 probabilities=uniform spectral=false"),
               list(seed = 1, probabilities = "uniform", spectral = FALSE))
  expect_equal(attsparse:::spec_numbers(spec$plots$k_vs_n, "N", quick = TRUE), c(10, 40))
  # the sparse input of the time plot: about 50 nonzeros per column, each block's rows of squared norm
  # at most 1 (r = 1 before the small entries are dropped)
  X <- attsparse:::demo_sparse_input(200, 7000, 5000, 0.8)
  expect_s4_class(X, "dgCMatrix")
  expect_equal(dim(X), c(200, 7000))
  expect_gt(length(X@x) / ncol(X), 40)
  expect_lt(length(X@x) / ncol(X), 60)
  expect_lte(max(Matrix::rowSums(X[, 1:5000]^2)), 1 + 1e-12)
})

test_that("attsparse_demo names the bad argument", {
  expect_error(attsparse_demo(inputs = list(matrix(1, 2, 3))), "'inputs' must be a named list")
  expect_error(attsparse_demo(inputs = list(a = "x"), plots = FALSE, verbose = FALSE), "X")
  expect_error(attsparse_demo(quick = NA), "quick")
  expect_error(attsparse_demo(data = tempfile()), "'data' must be the name of a directory")
})

for (nm in c("ALL", "acq")) {
  test_that(sprintf("demo_data scales the real data set %s to max G_ii = 1", nm), {
    X <- attsparse:::demo_data(nm)
    if (is.null(X)) skip(sprintf("data set %s is not installed (Debian: r-bioc-all, r-cran-tm)", nm))
    expect_equal(max(Matrix::rowSums(X^2)), 1)
    expect_gt(ncol(X), 10 * nrow(X))
  })
}
