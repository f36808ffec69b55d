# test-workflow.R: attsparse_prepare, predict on new rows, the usual R methods and Bioconductor containers.

wide <- function(n = 12, d = 400, seed = 3) {
  X <- attsparse_example(n, d, 0.5, seed)
  dimnames(X) <- list(paste0("s", seq_len(n)), paste0("f", seq_len(d)))
  X
}

test_that("attsparse_prepare centres features and scales max (X X')_ii to r, and records it", {
  X <- wide() * 7 + 3
  P <- attsparse_prepare(X, center = TRUE, r = 2)
  expect_equal(max(rowSums(P^2)), 2, tolerance = 1e-12)
  expect_equal(unname(colMeans(P)), rep(0, ncol(X)), tolerance = 1e-12)
  prep <- attr(P, "attsparse_prepare")
  expect_equal(prep$center, colMeans(X))
  expect_equal(unname(P[2, 5]), unname((X[2, 5] - mean(X[, 5])) * prep$scale), tolerance = 1e-14)
  # no centring keeps a sparse X sparse; a given scale is used as is
  W <- wide()
  S <- Matrix::Matrix(W * (abs(W) > 0.05), sparse = TRUE)
  Ps <- attsparse_prepare(S)
  expect_s4_class(Ps, "dgCMatrix")
  expect_equal(max(Matrix::rowSums(Ps^2)), 1, tolerance = 1e-12)
  expect_equal(attsparse_prepare(X, scale = 0.5)[3, 7], X[3, 7] * 0.5)
  expect_identical(unname(attsparse_prepare(X, scale = FALSE)[1:2, 1:3]), unname(X[1:2, 1:3]))
  expect_error(attsparse_prepare(X, r = -1), "'r' must be a positive number")
  expect_error(attsparse_prepare(X, scale = "yes"), "'scale' must be TRUE, FALSE or a single positive number")
  expect_error(attsparse_prepare(X, center = NA), "'center' must be TRUE or FALSE")
})

test_that("a result carries the preparation and names its index and weight by X's column names", {
  X <- wide()
  res <- attsparse_greedy(attsparse_prepare(X, center = TRUE), rel = 0.05)
  expect_equal(names(res$index), colnames(X)[res$index])
  expect_equal(names(res$weight), colnames(X)[res$index])
  expect_equal(res$prepare$center, colMeans(X))
  res0 <- attsparse_greedy(unname(X), rel = 0.05)
  expect_null(names(res0$index))
  expect_null(res0$prepare)
})

test_that("predict applies the kept columns, the preparation and the weights, matched by name", {
  X <- wide()
  res <- attsparse_greedy(attsparse_prepare(X, center = TRUE), rel = 0.05)
  # X itself: Y, bit for bit
  expect_identical(unname(predict(res, X)), unname(as.matrix(res$Y)))
  # new rows with the columns shuffled, against an independent computation
  set.seed(5)
  Z <- matrix(rnorm(3 * ncol(X)), 3, dimnames = list(paste0("new", 1:3), colnames(X)))
  Zs <- Z[, sample(ncol(Z))]
  p <- res$prepare
  want <- (sweep(Z[, res$index, drop = FALSE], 2, colMeans(X)[res$index]) * p$scale) %*% diag(as.numeric(res$weight))
  got <- predict(res, Zs)
  expect_equal(unname(got), unname(want), tolerance = 1e-13)
  expect_equal(dimnames(got), list(rownames(Z), colnames(X)[res$index]))
  # one new row as a named vector
  expect_equal(predict(res, Zs[2, ]), got[2, , drop = FALSE], ignore_attr = TRUE)
  # missing features are named
  drop <- colnames(X)[res$index[1:2]]
  expect_error(predict(res, Z[, setdiff(colnames(Z), drop)]),
               sprintf("'newdata' lacks 2 of the %d features the result kept: %s, %s", length(res$index), drop[1], drop[2]))
  # without names, by position: the column count must match
  expect_error(predict(res, unname(Z)[, -1]), sprintf("'newdata' has %d columns, X had %d", ncol(X) - 1, ncol(X)))
})

test_that("predict keeps sparse newdata sparse and reads a DelayedMatrix", {
  X <- wide()
  S <- Matrix::Matrix(X * (abs(X) > 0.05), sparse = TRUE)
  res <- attsparse_rand(S, rel = 0.05, seed = 2)
  Z <- S[c(4, 1, 7), ]
  got <- predict(res, Z)
  expect_s4_class(got, "dgCMatrix")
  expect_equal(as.matrix(got), as.matrix(res$Y)[c(4, 1, 7), ], ignore_attr = TRUE)
  skip_if_not_installed("DelayedArray")
  D <- DelayedArray::DelayedArray(as.matrix(Z))
  expect_equal(as.matrix(predict(res, D)), as.matrix(got), ignore_attr = TRUE)
})

test_that("new rows in the span of X's rows keep det's spectral guarantee", {
  X <- wide(10, 600, 4)
  res <- attsparse_det(X, eps = 0.5)
  set.seed(7)
  Z <- matrix(rnorm(5 * nrow(X)), 5) %*% X          # rows in the span of X's rows
  colnames(Z) <- colnames(X)
  XZ <- rbind(X, Z)
  YZ <- rbind(as.matrix(res$Y), predict(res, Z))
  eps <- spectral_eps(XZ, YZ)
  expect_lte(eps, 0.5)
  expect_lte(eps, spectral_eps(X, res$Y) + 1e-8)
  # and the attention of the stacked rows within the spectral bound
  G <- tcrossprod(XZ)
  rel <- max(abs(att_direct(YZ) / att_direct(XZ) - 1))
  expect_lte(rel, exp(2 * eps * max(diag(G))) - 1)
})

test_that("as.data.frame, coef, dim, nobs, format, plot, tidy and glance", {
  X <- wide()
  res <- attsparse_greedy(X, rel = 0.05)
  df <- as.data.frame(res)
  expect_named(df, c("feature", "index", "weight"))
  expect_equal(df$index, as.integer(res$index))
  expect_equal(df$feature, colnames(X)[res$index])
  expect_equal(coef(res), stats::setNames(as.numeric(res$weight), colnames(X)[res$index]))
  expect_equal(dim(res), c(nrow(X), length(res$index)))
  expect_equal(dim(res), dim(res$Y))
  expect_equal(nobs(res), nrow(X))
  f <- format(res)
  expect_length(f, 1L)
  expect_lt(nchar(f), 100)
  expect_match(f, sprintf("%d columns", length(res$index)))
  expect_equal(names(coef(attsparse_greedy(unname(X), rel = 0.05))), as.character(res$index))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(res))
  expect_invisible(plot(attsparse_rand(X, seed = 1)))
  skip_if_not_installed("generics")
  expect_equal(generics::tidy(res), df)
  g <- generics::glance(res)
  expect_equal(nrow(g), 1L)
  expect_equal(g$k, length(res$index))
  expect_equal(g$rel_error, res$rel_error)
})

test_that("a SingleCellExperiment: features as rows, results written back, new cells predicted", {
  skip_if_not_installed("SingleCellExperiment")
  set.seed(1)
  counts <- matrix(rpois(200 * 30, 2), 200, 30, dimnames = list(paste0("g", 1:200), paste0("c", 1:30)))
  sce <- SingleCellExperiment::SingleCellExperiment(list(counts = counts, logcounts = log1p(counts)))
  X <- attsparse_prepare(sce, center = TRUE)
  expect_equal(dim(X), c(30L, 200L))
  expect_equal(dimnames(X), rev(dimnames(counts)))
  res <- attsparse_greedy(X, rel = 0.05)
  expect_lte(res$rel_error, 0.05)
  # the container itself, assay chosen by name: the same as its transposed assay
  r1 <- attsparse_rand(sce, assay.type = "counts", rel = 0.3, seed = 1)
  r2 <- attsparse_rand(t(counts), rel = 0.3, seed = 1)
  expect_identical(r1$index, r2$index)
  expect_error(attsparse_rand(sce, assay.type = "normcounts"), "'X' has no assay 'normcounts'; its assays: counts, logcounts")
  out <- attsparse_store(sce, res)
  rd <- SummarizedExperiment::rowData(out)
  expect_equal(which(rd$attsparse_kept), as.integer(res$index))
  expect_equal(rd$attsparse_weight[res$index], as.numeric(res$weight))
  expect_equal(SingleCellExperiment::reducedDim(out, "attsparse"), as.matrix(res$Y), ignore_attr = TRUE)
  # new cells: the same genes in another order
  new <- sce[sample(nrow(sce)), 1:4]
  expect_equal(predict(res, new), as.matrix(res$Y)[1:4, ], ignore_attr = TRUE, tolerance = 1e-13)
})

test_that("an ExpressionSet: features as rows, exprs by default, results written to fData", {
  skip_if_not_installed("Biobase")
  set.seed(2)
  e <- matrix(rnorm(300 * 20, 8, 2), 300, 20, dimnames = list(paste0("p", 1:300), paste0("s", 1:20)))
  se <- matrix(abs(rnorm(300 * 20, 0, 0.1)), 300, 20, dimnames = dimnames(e))
  e <- e / sqrt(max(colSums(e^2)))     # logits in [-1, 1] for the calls on the container itself
  se <- se / sqrt(max(colSums(se^2)))
  eset <- Biobase::ExpressionSet(assayData = Biobase::assayDataNew(exprs = e, se.exprs = se))
  X <- attsparse_prepare(eset, center = TRUE)
  expect_equal(dim(X), c(20L, 300L))
  expect_equal(dimnames(X), rev(dimnames(e)))
  expect_equal(unclass(X), sweep(t(e), 2, colMeans(t(e))) / sqrt(max(rowSums(sweep(t(e), 2, colMeans(t(e)))^2))),
               ignore_attr = TRUE, tolerance = 1e-14)
  # the container itself: exprs by default, another element by name or number, the same as its matrix
  Xe <- attsparse_prepare(t(e))
  r1 <- attsparse_greedy(attsparse_prepare(eset), rel = 0.02)
  r2 <- attsparse_greedy(Xe, rel = 0.02)
  expect_identical(r1$index, r2$index)
  expect_identical(attsparse_rand(eset, seed = 3, m = 50)$index, attsparse_rand(t(e), seed = 3, m = 50)$index)
  expect_identical(attsparse_rand(eset, assay.type = "se.exprs", seed = 3, m = 50)$index,
                   attsparse_rand(t(se), seed = 3, m = 50)$index)
  expect_identical(attsparse_det(eset, assay.type = 1, eps = 0.9)$index, attsparse_det(t(e), eps = 0.9)$index)
  expect_error(attsparse_rand(eset, assay.type = "counts"), "'X' has no assay 'counts'; its assays: ")
  expect_error(attsparse_rand(eset, assay.type = 3), "'X' has 2 assays, no assay 3")
  # written back to the features' annotations
  out <- attsparse_store(eset, r1)
  fd <- Biobase::fData(out)
  expect_equal(which(fd$attsparse_kept), as.integer(r1$index))
  expect_equal(fd$attsparse_weight[r1$index], as.numeric(r1$weight))
  expect_true(methods::validObject(out))
  # new samples, the probe sets in another order
  new <- eset[sample(nrow(eset)), 1:3]
  expect_equal(predict(r1, new), as.matrix(r1$Y)[1:3, ], ignore_attr = TRUE, tolerance = 1e-13)
  expect_error(attsparse_store(e, r1), "'x' must be a SummarizedExperiment, SingleCellExperiment or ExpressionSet")
  # real ones: ALL (exprs) and metagenomeSeq's lung census (an MRexperiment, an eSet with "counts")
  if (requireNamespace("ALL", quietly = TRUE)) {
    all <- attsparse:::demo_data("ALL")
    env <- new.env()
    utils::data("ALL", package = "ALL", envir = env)
    expect_identical(attsparse_prepare(env$ALL, center = TRUE), attsparse_prepare(t(Biobase::exprs(env$ALL)), center = TRUE))
    expect_identical(dim(all), c(128L, 12625L))
  }
  if (requireNamespace("metagenomeSeq", quietly = TRUE)) {
    env <- new.env()
    utils::data("lungData", package = "metagenomeSeq", envir = env)
    counts <- Biobase::assayDataElement(env$lungData, "counts")
    expect_identical(attsparse_prepare(env$lungData, assay.type = "counts"), attsparse_prepare(t(counts)))
  }
})

test_that("a container with a DelayedArray assay is read by blocks, with BPPARAM as elsewhere", {
  skip_if_not_installed("SummarizedExperiment")
  skip_if_not_installed("DelayedArray")
  skip_if_not_installed("BiocParallel")
  set.seed(2)
  counts <- matrix(rpois(300 * 20, 3), 300, 20, dimnames = list(paste0("g", 1:300), paste0("s", 1:20)))
  logc <- log1p(counts) / 8
  se <- SummarizedExperiment::SummarizedExperiment(list(logcounts = DelayedArray::DelayedArray(logc)))
  r0 <- attsparse_rand(t(logc), m = 200, seed = 4, sampling = "poisson")
  r1 <- attsparse_rand(se, m = 200, seed = 4, sampling = "poisson", BPPARAM = BiocParallel::SerialParam(),
                       block_columns = 64)
  expect_identical(r1$index, r0$index)
  expect_identical(r1$weight, r0$weight)
  expect_equal(r1$rel_error, r0$rel_error, tolerance = 1e-12)
  expect_error(attsparse_rand(se, BPPARAM = 2), "BiocParallelParam")
})

test_that("the traps are said before any work: logits that overflow, Y = 0 within the target, X transposed", {
  X <- wide()
  g <- max(rowSums((40 * X)^2))
  expect_gt(2 * g, 709.78)
  p <- suppressMessages(attsparse:::precheck(40 * X))
  expect_equal(p$scale, 1 / sqrt(g), tolerance = 1e-12)
  expect_message(suppressWarnings(attsparse_greedy(40 * X, k = 2)),
                 sprintf("relative error overflows; scale X by %s", formatC(1 / sqrt(g), digits = 4, format = "g")))
  small <- 0.001 * X
  expect_lte(expm1(2 * max(rowSums(small^2))), 0.05)
  expect_message(attsparse_rand(small, rel = 0.05, seed = 1), "Y = 0 \\(no column\\) already has rel error")
  # no target (a budget k, or none asked of rand): nothing to say about Y = 0
  expect_message(attsparse_greedy(small, k = 2), NA)
  expect_message(attsparse_rand(attsparse_prepare(X), rel = 0.05, seed = 1), NA)
  # messages, so suppressMessages() hides them
  expect_silent(suppressMessages(attsparse:::precheck(small, 0.05)))
  # more rows than columns, many rows: a warning naming t(X) before the run
  B <- matrix(rnorm(1200 * 30), 1200) / 10
  expect_warning(attsparse_rand(B, m = 5, error = FALSE, seed = 1), "give t\\(X\\) in R")
  # read by blocks (a DelayedMatrix): said from its shape, before any pass
  if (requireNamespace("DelayedArray", quietly = TRUE))
    expect_warning(attsparse_rand(DelayedArray::DelayedArray(B), m = 5, error = FALSE, seed = 1),
                   "X has more rows \\(1200\\) than columns \\(30\\).*give t\\(X\\) in R")
  expect_warning(attsparse:::precheck(B[1:999, ]), NA)
})

test_that("verbose progress comes through message(), so suppressMessages() hides it", {
  X <- wide()
  expect_message(attsparse_rand(X, seed = 1, verbose = TRUE, error = FALSE), "leverage:")
  expect_message(attsparse_det(X, eps = 0.8, verbose = TRUE, error = FALSE), "det:")
  expect_silent(suppressMessages(attsparse_rand(X, seed = 1, verbose = TRUE, error = FALSE)))
  expect_identical(capture.output(r <- suppressMessages(attsparse_rand(X, seed = 1, verbose = TRUE, error = FALSE))),
                   character(0))
  # the same sample with and without progress
  expect_identical(r$index, attsparse_rand(X, seed = 1, error = FALSE)$index)
})

test_that("rows whose squared norms overflow get their own message, not a scale of 0", {
  expect_message(attsparse:::precheck(matrix(1e200, 2, 5)), "the squared norms of X's rows overflow")
})

test_that("a dgCMatrix subclass with slots of its own (as quanteda's dfm) runs as its dgCMatrix part", {
  e <- new.env()
  methods::setClass("dfmLike", contains = "dgCMatrix", slots = c(docvars = "data.frame"), where = e)
  X <- wide()
  S <- Matrix::Matrix(X * (abs(X) > 0.05), sparse = TRUE)
  dimnames(S) <- list(paste0("doc", seq_len(nrow(S))), paste0("term", seq_len(ncol(S))))
  D <- methods::new("dfmLike", S, docvars = data.frame(id = seq_len(nrow(S))))
  expect_s4_class(D, "dgCMatrix")
  P <- attsparse_prepare(D)
  expect_identical(as.matrix(P), as.matrix(attsparse_prepare(S)))
  g <- attsparse_greedy(P, rel = 0.05)
  expect_identical(coef(g), coef(attsparse_greedy(attsparse_prepare(S), rel = 0.05)))
  expect_true(all(startsWith(names(coef(g)), "term")))
  # new documents of the same class, their columns in another order
  expect_equal(predict(g, D[, rev(seq_len(ncol(D)))]), predict(g, S))
})
