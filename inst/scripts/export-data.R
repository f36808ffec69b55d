# export-data.R: write the demo's real data sets (ALL, acq; rows scaled so max G_ii = 1) for
# Octave's attsparse_demo, in the tests/fixtures X format: a line "n d nnz issparse", then
# "i j x" lines (1-based, 17 significant digits). Sets whose R data package is missing are skipped.
# Run: R_LIBS=build/Rlib Rscript inst/scripts/export-data.R build/demo/data
suppressPackageStartupMessages(library(Matrix))
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args)) args[[1]] else "build/demo/data"
dir.create(outdir, recursive = TRUE, showWarnings = FALSE)
for (name in c("ALL", "acq")) {
  X <- attsparse:::demo_data(name)
  path <- file.path(outdir, paste0(name, ".X.txt"))
  if (is.null(X)) {
    unlink(path)
    message("export-data: ", name, ": data package not installed, skipped")
    next
  }
  T <- summary(as(X, "CsparseMatrix"))
  con <- file(path, "w")
  writeLines(sprintf("%d %d %d %d", nrow(X), ncol(X), nrow(T), as.integer(is(X, "sparseMatrix"))), con)
  writeLines(sprintf("%d %d %.17g", T$i, T$j, T$x), con)
  close(con)
  message(sprintf("export-data: %s: %d x %d, %d nonzeros -> %s", name, nrow(X), ncol(X), nrow(T), path))
}
