# bioc.R: Bioconductor containers. A SummarizedExperiment (SingleCellExperiment, ...) stores features as
# rows and samples (cells) as columns; attsparse takes samples as rows: the assay asked for is transposed
# (a DelayedArray assay stays delayed, read by blocks). Results are written back by attsparse_store.

is_se <- function(x) isS4(x) && methods::is(x, "SummarizedExperiment")

need_se <- function() {
  if (!requireNamespace("SummarizedExperiment", quietly = TRUE))
    stop("a SummarizedExperiment input needs the Bioconductor package 'SummarizedExperiment'", call. = FALSE)
}

# The samples x features matrix of assay `assay.type` of x.
se_matrix <- function(x, assay.type = "logcounts", what = "X") {
  need_se()
  if (!is.character(assay.type) && !is.numeric(assay.type) || length(assay.type) != 1L)
    stop("'assay.type' must be one assay name or number", call. = FALSE)
  have <- SummarizedExperiment::assayNames(x)
  if (is.character(assay.type) && !assay.type %in% have)
    stop(sprintf("'%s' has no assay '%s'; its assays: %s", what, assay.type,
                 if (length(have)) paste(have, collapse = ", ") else "none"), call. = FALSE)
  A <- SummarizedExperiment::assay(x, assay.type, withDimnames = TRUE)
  if (is_block_input(A)) return(t(A))          # delayed: no copy
  if (is(A, "sparseMatrix")) return(Matrix::t(as_input(A, what)))
  t(as_input(A, what))
}

# A call of attsparse_rand/det/greedy on a SummarizedExperiment: the same call on its transposed assay
# (argument assay.type, default "logcounts").
se_call <- function(fun, call, env) {
  args <- lapply(as.list(call)[-1L], eval, env)
  at <- if (is.null(args$assay.type)) "logcounts" else args$assay.type
  args$assay.type <- NULL
  args$X <- se_matrix(args$X, at)
  do.call(fun, args)
}

attsparse_store <- function(x, res, name = "attsparse") {
  if (!is_se(x)) stop("'x' must be a SummarizedExperiment or SingleCellExperiment", call. = FALSE)
  if (!inherits(res, "attsparse")) stop("'res' must be a result of attsparse_rand, attsparse_det or attsparse_greedy",
                                       call. = FALSE)
  if (nrow(x) != res$dim[[2L]])
    stop(sprintf("'x' has %d features, the result's X had %d", nrow(x), res$dim[[2L]]), call. = FALSE)
  w <- numeric(nrow(x))
  w[as.integer(res$index)] <- as.numeric(res$weight)
  rd <- SummarizedExperiment::rowData(x)
  rd[[paste0(name, "_weight")]] <- w
  rd[[paste0(name, "_kept")]] <- w != 0 | seq_len(nrow(x)) %in% as.integer(res$index)
  SummarizedExperiment::rowData(x) <- rd
  if (methods::is(x, "SingleCellExperiment") && ncol(x) == res$dim[[1L]]) {
    Y <- res$Y
    if (!is.matrix(Y)) Y <- as.matrix(Y)
    dimnames(Y) <- list(colnames(x), names(res$index))
    SingleCellExperiment::reducedDim(x, name) <- Y
  }
  x
}
