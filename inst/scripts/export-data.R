# export-data.R: write the demo's real data sets (the Input records of inst/extdata/demo-spec.dcf with a File:
# ALL, acq; rows scaled so max G_ii = 1) for both front-ends' attsparse_demo, in the tests/fixtures X format: a
# line "n d nnz issparse", then "i j x" lines (1-based, 17 significant digits, which read back to the same
# doubles). Sets whose R data package is missing are skipped.
# Run: R_LIBS=build/Rlib Rscript inst/scripts/export-data.R build/demo/data
suppressPackageStartupMessages(library(Matrix))
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args)) args[[1]] else "build/demo/data"
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)
for (rec in attsparse:::demo_spec()$inputs) {
  if (!"File" %in% names(rec)) next
  X <- attsparse:::demo_data(rec[["Data"]])
  path <- file.path(outdir, rec[["File"]])
  if (is.null(X)) {
    unlink(path)
    message(sprintf("export-data: %s: data package not installed (Debian: %s), skipped", rec[["Input"]],
                    rec[["Package"]]))
    next
  }
  T <- summary(as(X, "CsparseMatrix"))
  con <- file(path, "w")
  writeLines(sprintf("%d %d %d %d", nrow(X), ncol(X), nrow(T), as.integer(is(X, "sparseMatrix"))), con)
  writeLines(sprintf("%d %d %.17g", T$i, T$j, T$x), con)
  close(con)
  message(sprintf("export-data: %s: %d x %d, %d nonzeros -> %s", rec[["Input"]], nrow(X), ncol(X), nrow(T), path))
}
