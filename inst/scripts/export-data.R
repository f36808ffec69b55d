# export-data.R: write the demo's real data sets (inst/extdata/demo-data.txt: ALL, acq, crude, golub, lung; rows
# scaled so max G_ii = 1) for both front-ends' attsparse_demo, as <name>.X.txt in the
# tests/fixtures X format: a line "n d nnz issparse", then "i j x" lines (1-based, 17 significant digits, which
# read back to the same doubles); and <name>.V.txt for those with values (ALL: the one-hot B or T lineage of its
# samples, the qkv table's V). Sets whose R data package is missing are skipped.
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
sets <- attsparse:::demo_sets()
for (i in seq_len(nrow(sets))) {
  name <- sets$name[i]
  X <- attsparse:::demo_data(name)
  path <- file.path(outdir, paste0(name, ".X.txt"))
  if (is.null(X)) {
    unlink(path)
    message(sprintf("export-data: %s: data package not installed (Debian: %s), skipped", name, sets$package[i]))
    next
  }
  nz <- write_x(X, path)
  message(sprintf("export-data: %s: %d x %d, %d nonzeros -> %s", name, nrow(X), ncol(X), nz, path))
  V <- attsparse:::demo_values(name)
  if (!is.null(V)) {
    write_x(V, vpath <- file.path(outdir, paste0(name, ".V.txt")))
    message(sprintf("export-data: %s: values %d x %d -> %s", name, nrow(V), ncol(V), vpath))
  }
}
