# export-data.R: write the demo's real data sets (the Input records of inst/extdata/demo-spec.dcf with a File:
# ALL, acq, crude, golub, lung; rows scaled so max G_ii = 1) for both front-ends' attsparse_demo, in the
# tests/fixtures X format: a line "n d nnz issparse", then "i j x" lines (1-based, 17 significant digits, which
# read back to the same doubles); and the Values-file of those that have one (ALL: the one-hot B or T lineage
# of its samples, the qkv table's V). Sets whose R data package is missing are skipped.
# Run: R_LIBS=build/Rlib Rscript inst/scripts/export-data.R build/demo/data
suppressPackageStartupMessages(library(Matrix))
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args)) args[[1]] else "build/demo/data"
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)
write_x <- function(X, path) {
  T <- summary(as(X, "CsparseMatrix"))
  con <- file(path, "w")
  on.exit(close(con))
  writeLines(sprintf("%d %d %d %d", nrow(X), ncol(X), nrow(T), as.integer(is(X, "sparseMatrix"))), con)
  writeLines(sprintf("%d %d %.17g", T$i, T$j, T$x), con)
  nrow(T)
}
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
  nz <- write_x(X, path)
  message(sprintf("export-data: %s: %d x %d, %d nonzeros -> %s", rec[["Input"]], nrow(X), ncol(X), nz, path))
  if ("Values-file" %in% names(rec)) {
    V <- attsparse:::demo_values(rec[["Input"]])
    write_x(V, file.path(outdir, rec[["Values-file"]]))
    message(sprintf("export-data: %s: values %d x %d -> %s", rec[["Input"]], nrow(V), ncol(V),
                    file.path(outdir, rec[["Values-file"]])))
  }
}
