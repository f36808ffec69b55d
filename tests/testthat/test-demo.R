# The demo: tables that hold the guarantees, PNG files, the fixed-format table R and Octave share.

test_that("attsparse_demo tables hold the guarantees and the plots are PNG files", {
  out <- file.path(tempdir(), "demo-test")
  unlink(out, recursive = TRUE)
  X <- attsparse_example(n = 30, d = 3000, r = 0.5, seed = 4)
  printed <- capture.output(res <- attsparse_demo(out, inputs = list(small = X), quick = TRUE))
  tab <- res$table
  expect_equal(tab$input, rep(c("example", "small"), each = 4))
  expect_equal(tab$method, rep(c("rand-leverage", "rand-uniform", "rand-norm", "det"), 2))
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
  b <- ((1 + sqrt(0.75)) / 0.5)^2
  expect_true(all(det$m <= ceiling(b * c(100, 30))))
  expect_true(all(det$eps_spectral <= 0.5))
  # the baseline is the rel error of Y = 0, whatever the method
  expect_equal(tab$baseline[tab$input == "small"],
               rep(attention_error(X, X[, 0, drop = FALSE])$rel, 4))
  # the fixed-format table: header then one line per method with the same numbers
  hdr <- grep("^method +m +k +inf +rel +baseline +spec_eps +bound +time_s$", printed)
  expect_length(hdr, 2)
  line <- printed[hdr[2] + 4]
  expect_match(line, sprintf("^det +%d +%d ", det$m[2], det$k[2]))
  expect_match(printed[hdr[2] - 1], "^small: 30 x 3000 dense, nnz 90000, r = max\\|XX'\\| = 0.5$")
  expect_equal(names(res$files), c("error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n"))
  for (f in res$files) {
    expect_true(file.exists(f))
    expect_equal(readBin(f, "raw", 8), as.raw(c(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)))
    expect_gt(file.size(f), 5000)
  }
})

test_that("attsparse_demo names the bad argument", {
  expect_error(attsparse_demo(inputs = list(matrix(1, 2, 3))), "'inputs' must be a named list")
  expect_error(attsparse_demo(inputs = list(a = "x"), plots = FALSE, verbose = FALSE), "X")
  expect_error(attsparse_demo(quick = NA), "quick")
})

for (nm in c("ALL", "acq")) {
  test_that(sprintf("demo_data scales the real data set %s to max G_ii = 1", nm), {
    X <- attsparse:::demo_data(nm)
    if (is.null(X)) skip(sprintf("data set %s is not installed (Debian: r-bioc-all, r-cran-tm)", nm))
    expect_equal(max(Matrix::rowSums(X^2)), 1)
    expect_gt(ncol(X), 10 * nrow(X))
  })
}
