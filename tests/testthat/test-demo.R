# The demo: tables that hold the guarantees, PNG files, the fixed-format table R and Octave share.

test_that("attsparse_demo tables hold the guarantees and the plots are PNG files", {
  skip_if_fast()
  out <- file.path(tempdir(), "demo-test")
  unlink(out, recursive = TRUE)
  X <- attsparse_example(n = 30, d = 3000, r = 0.5, seed = 4)
  # a data directory with the spec's file input ALL (here the small matrix) and without acq
  data <- file.path(tempdir(), "demo-test-data")
  dir.create(data, showWarnings = FALSE)
  writeLines(c(sprintf("%d %d %d 0", nrow(X), ncol(X), length(X)),
               sprintf("%d %d %.17g", row(X), col(X), X)), file.path(data, "ALL.X.txt"))
  unlink(file.path(data, "acq.X.txt"))
  printed <- capture.output(res <- attsparse_demo(out, inputs = list(small = X), quick = TRUE, data = data,
                                                  tables = "methods"))
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

test_that("the demo's definition: three tables, their columns and formats, the searches, the four plots", {
  spec <- attsparse:::demo_spec()
  expect_equal(names(spec$table), c("methods", "targets", "qkv"))
  expect_equal(names(spec$methods), c("rand-leverage", "rand-uniform", "rand-norm", "det"))
  expect_equal(names(spec$columns$methods), c("method", "m", "k", "inf", "rel", "baseline", "eps_spectral",
                                              "bound", "time"))
  expect_equal(names(spec$columns$targets), c("target", "method", "k", "rel", "estimate", "detail", "time"))
  expect_equal(names(spec$columns$qkv), c("method", "m", "k", "eps_spectral", "rel", "bound", "baseline",
                                          "out_rel", "time"))
  expect_equal(names(spec$searches), c("leverage-iid", "norm-poisson", "mixed-poisson", "target", "det",
                                       "gaussian", "exact"))
  expect_equal(attsparse:::spec_numbers(spec$table$targets, "Targets"), c(0.05, 0.02, 0.01))
  # the m sweep: increasing, c n for c = 1/4 .. 8192, steps of at most 1.5
  c_n <- attsparse:::spec_numbers(spec$searches$`leverage-iid`, "Times-n")
  expect_equal(range(c_n), c(0.25, 8192))
  expect_true(all(diff(c_n) > 0) && all(c_n[-1] / c_n[-length(c_n)] <= 1.5))
  expect_equal(names(spec$plots), c("error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n"))
  expect_equal(names(spec$inputs), c("example", "ALL", "acq", "crude", "golub", "lung"))
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
  # before any table runs
  expect_error(attsparse_demo(inputs = list(a = "x"), plots = FALSE, verbose = FALSE),
               "'inputs$a' must be a numeric matrix", fixed = TRUE)
  expect_error(attsparse_demo(quick = NA), "quick")
  expect_error(attsparse_demo(data = tempfile()), "'data' must be the name of a directory")
})

for (rec in attsparse:::demo_spec()$inputs[-1]) {
  test_that(sprintf("demo_data scales the real data set %s to max G_ii = 1", rec[["Input"]]), {
    X <- attsparse:::demo_data(rec[["Data"]])
    if (is.null(X)) skip(sprintf("data set %s is not installed (Debian: %s)", rec[["Input"]], rec[["Package"]]))
    expect_equal(max(Matrix::rowSums(X^2)), 1)
    expect_gt(ncol(X), 10 * nrow(X))
    if (rec[["Input"]] %in% c("acq", "crude", "lung")) {
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

test_that("the targets table: each row's run meets its target, the sweep's run before it did not", {
  skip_if_fast()
  spec <- attsparse:::demo_spec()
  X <- attsparse_example()
  n <- nrow(X)
  printed <- capture.output(res <- attsparse_demo(plots = FALSE, quick = TRUE, tables = "targets"))
  tab <- res$targets
  targets <- attsparse:::spec_numbers(spec$table$targets, "Targets")
  base <- attention_error(X, X[, 0, drop = FALSE])$rel
  searches <- names(spec$searches)
  expect_equal(tab$method, c(rep(setdiff(searches, "exact"), 3), "exact"))
  expect_equal(tab$target, c(rep(targets, each = 6), NA))
  met <- !is.na(tab$k)
  # where a target is met, the exact rel is within it; where not, the detail says the best rel of the sweep
  fixed <- met & !tab$method %in% c("target", "exact")
  expect_true(all(tab$rel[fixed] <= tab$target[fixed]))
  expect_true(all(grepl("^not met; best ", tab$detail[!met])))
  # the header, and a line for each target the uniform attention (Y = 0) already meets
  expect_true(any(printed == sprintf("example: fewest columns for rel <= target, %d x %d; Y = 0 (the uniform attention) has rel %.3g%%",
                                     n, ncol(X), 100 * base)))
  expect_equal(sum(grepl("is not below the rel of Y = 0", printed)), sum(targets >= base))
  # each fixed scheme: the printed m meets the target at seed 1, the sweep's m before it does not
  grid <- ceiling(n * attsparse:::spec_numbers(spec$searches$`leverage-iid`, "Times-n", quick = TRUE))
  for (se in spec$searches[c("leverage-iid", "norm-poisson", "mixed-poisson")]) {
    opts <- attsparse:::spec_options(se[["Options"]])
    rows <- tab[tab$method == se[["Search"]] & met, ]
    expect_gt(nrow(rows), 0)
    for (i in seq_len(nrow(rows))) {
      m <- as.numeric(sub("^m=([0-9]+).*", "\\1", rows$detail[i]))
      at <- do.call(attsparse_rand, c(list(X, m = m), opts))
      expect_equal(c(at$k, at$rel_error), c(rows$k[i], rows$rel[i]))
      expect_lte(at$rel_error, rows$target[i])
      j <- match(m, grid)
      expect_false(is.na(j))
      if (j > 1) expect_gt(do.call(attsparse_rand, c(list(X, m = grid[j - 1]), opts))$rel_error, rows$target[i])
    }
  }
  # the target mode: where its estimate says the target is met, the exact rel meets it too
  tm <- tab[tab$method == "target", ]
  expect_true(all(tm$estimate > 0))
  said <- tm$estimate <= tm$target
  expect_true(any(said))
  expect_true(all(tm$rel[said] <= tm$target[said]))
  one <- attsparse_rand(X, rel = tm$target[3], seed = 1, spectral = FALSE)
  expect_equal(c(one$k, one$rel_error, one$rel_estimate), c(tm$k[3], tm$rel[3], tm$estimate[3]))
  # det: the largest eps of its sweep meeting the target (the eps before it does not)
  eps <- attsparse:::spec_numbers(spec$searches$det, "Values", quick = TRUE)
  for (i in which(tab$method == "det" & met)) {
    e <- as.numeric(sub("^eps=([0-9.]+),.*", "\\1", tab$detail[i]))
    d <- attsparse_det(X, eps = e, spectral = FALSE)
    expect_equal(c(d$k, d$rel_error), c(tab$k[i], tab$rel[i]))
    j <- match(e, eps)
    if (j > 1) expect_gt(attsparse_det(X, eps = eps[j - 1], spectral = FALSE)$rel_error, tab$target[i])
  }
  # the Gaussian projection: a width of its sweep; the exact Gram: k = n and rel at rounding level
  gk <- ceiling(n * attsparse:::spec_numbers(spec$searches$gaussian, "Times-n", quick = TRUE))
  expect_true(all(tab$k[tab$method == "gaussian" & met] %in% gk))
  ex <- tab[tab$method == "exact", ]
  expect_equal(ex$k, n)
  expect_lt(ex$rel, 1e-9)
  expect_true(all(tab$time >= 0))
})

test_that("the qkv table: two halves of the rows as Q and K, values V, rel and out_rel within the bound", {
  spec <- attsparse:::demo_spec()
  X <- attsparse_example(n = 31, d = 3000, r = 1, seed = 2)
  printed <- capture.output(res <- attsparse_demo(plots = FALSE, quick = TRUE, tables = "qkv"))
  # the caller's inputs are not in the qkv table (its inputs are the spec's On-inputs)
  expect_equal(unique(res$qkv$input), "example")
  ms <- attsparse:::spec_numbers(spec$table$qkv, "M", quick = TRUE)
  probs <- strsplit(spec$table$qkv[["Probabilities"]], " +")[[1]]
  tab <- attsparse:::demo_qkv("small", X, NULL, spec, verbose = FALSE, quick = TRUE)
  expect_equal(tab$m, rep(ms, each = length(probs)))
  expect_equal(tab$method, rep(paste0("qk-", probs), length(ms)))
  expect_true(all(tab$rel <= tab$bound * (1 + 1e-9)))
  expect_true(all(tab$out_rel <= tab$bound * (1 + 1e-9)))
  # the rows are the spec's calls on the odd rows (Q) and the even rows (K), V generated for K's rows
  Q <- X[seq(1, 31, 2), ]
  K <- X[seq(2, 31, 2), ]
  V <- attsparse_example(n = 15, d = 3, r = 1, seed = 1)
  one <- attsparse_rand(Q, K = K, V = V, m = ms[2], probabilities = probs[2], seed = 1)
  expect_equal(unlist(tab[4, c("k", "eps_spectral", "rel", "out_rel")]),
               c(k = one$k, eps_spectral = one$eps_spectral, rel = one$rel_error, out_rel = one$out_rel_error))
  # out_rel: the error of Att V against sum_j Att_ij |V_jl|, from the exact attention
  A <- attention(Q, K)
  At <- attention(one$Y, one$YK)
  expect_equal(tab$out_rel[4], max(abs(At %*% V - A %*% V) / (A %*% abs(V))), tolerance = 1e-8)
  expect_equal(tab$baseline[1], max(abs((1 / 15) / A - 1)), tolerance = 1e-10)
  # with values given: their even rows are V
  Vall <- cbind(rep(c(1, 0), length.out = 31), rep(c(0, 1), length.out = 31))
  spec$inputs$small <- c(Input = "small", Values = "alternating labels")
  out <- capture.output(tv <- attsparse:::demo_qkv("small", X, Vall, spec, verbose = TRUE, quick = TRUE))
  expect_match(out[2], "^small, queries != keys: .*, V = alternating labels$")
  two <- attsparse_rand(Q, K = K, V = Vall[seq(2, 31, 2), ], m = ms[1], probabilities = probs[1], seed = 1)
  expect_equal(tv$out_rel[1], two$out_rel_error)
  expect_true(any(grepl("^example, queries != keys: Q = odd rows \\(50 x 20000\\), K = even rows \\(50\\)",
                        printed)))
})

test_that("attsparse_demo: 'tables' names some of the spec's tables", {
  expect_error(attsparse_demo(tables = "foo", plots = FALSE), "'tables' must name some of the tables")
})
