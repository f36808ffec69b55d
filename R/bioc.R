# bioc.R: Bioconductor containers. A SummarizedExperiment (SingleCellExperiment, ...) and Biobase's
# ExpressionSet (any eSet) store features as rows and samples (cells) as columns; attsparse takes
# samples as rows: the assay asked for is transposed (a DelayedArray assay stays delayed, read by
# blocks). Results are written back by attsparse_store.

is_se <- function(x) isS4(x) && methods::is(x, "SummarizedExperiment")
is_eset <- function(x) isS4(x) && methods::is(x, "eSet")
is_container <- function(x) is_se(x) || is_eset(x)

# The package a container's accessors come from, loaded or a clear error.
need_container_pkg <- function(x) {
  pkg <- if (is_eset(x)) "Biobase" else "SummarizedExperiment"
  if (!requireNamespace(pkg, quietly = TRUE))
    stop(sprintf("a %s input needs the Bioconductor package '%s'", class(x)[[1L]], pkg), call. = FALSE)
}

# The samples x features matrix of assay `assay.type` of x (NULL: "logcounts" of a
# SummarizedExperiment, "exprs" of an ExpressionSet).
se_matrix <- function(x, assay.type = NULL, what = "X") {
  need_container_pkg(x)
  eset <- is_eset(x)
  if (is.null(assay.type)) assay.type <- if (eset) "exprs" else "logcounts"
  if (!is.character(assay.type) && !is.numeric(assay.type) || length(assay.type) != 1L)
    stop("'assay.type' must be one assay name or number", call. = FALSE)
  have <- if (eset) Biobase::assayDataElementNames(x) else SummarizedExperiment::assayNames(x)
  if (is.character(assay.type) && !assay.type %in% have)
    stop(sprintf("'%s' has no assay '%s'; its assays: %s", what, assay.type,
                 if (length(have)) paste(have, collapse = ", ") else "none"), call. = FALSE)
  if (is.numeric(assay.type) && !(assay.type >= 1 && assay.type <= length(have)))
    stop(sprintf("'%s' has %d assays, no assay %s", what, length(have), format(assay.type)), call. = FALSE)
  A <- if (eset) Biobase::assayDataElement(x, if (is.numeric(assay.type)) have[[assay.type]] else assay.type)
       else SummarizedExperiment::assay(x, assay.type, withDimnames = TRUE)
  if (is_block_input(A)) return(t(A))          # delayed: no copy
  if (is(A, "sparseMatrix")) return(Matrix::t(as_input(A, what)))
  t(as_input(A, what))
}

# A call of attsparse_rand/det/greedy on a container: the same call on its transposed assay
# (argument assay.type, default as se_matrix's).
se_call <- function(fun, call, env) {
  args <- lapply(as.list(call)[-1L], eval, env)
  at <- args$assay.type
  args$assay.type <- NULL
  args$X <- se_matrix(args$X, at)
  do.call(fun, args)
}

attsparse_store <- function(x, res, name = "attsparse") {
  if (!is_container(x)) stop("'x' must be a SummarizedExperiment, SingleCellExperiment or ExpressionSet", call. = FALSE)
  need_container_pkg(x)
  if (!inherits(res, "attsparse")) stop("'res' must be a result of attsparse_rand, attsparse_det or attsparse_greedy",
                                       call. = FALSE)
  if (nrow(x) != res$dim[[2L]])
    stop(sprintf("'x' has %d features, the result's X had %d", nrow(x), res$dim[[2L]]), call. = FALSE)
  w <- numeric(nrow(x))
  w[as.integer(res$index)] <- as.numeric(res$weight)
  # the features' annotations: rowData of a SummarizedExperiment, fData of an ExpressionSet
  rd <- if (is_eset(x)) Biobase::fData(x) else SummarizedExperiment::rowData(x)
  rd[[paste0(name, "_weight")]] <- w
  rd[[paste0(name, "_kept")]] <- w != 0 | seq_len(nrow(x)) %in% as.integer(res$index)
  if (is_eset(x)) Biobase::fData(x) <- rd else SummarizedExperiment::rowData(x) <- rd
  if (methods::is(x, "SingleCellExperiment") && ncol(x) == res$dim[[1L]]) {
    Y <- res$Y
    if (!is.matrix(Y)) Y <- as.matrix(Y)
    dimnames(Y) <- list(colnames(x), names(res$index))
    SingleCellExperiment::reducedDim(x, name) <- Y
  }
  x
}
