# demo.R: `make demo-r`: both algorithms on the inputs of inst/extdata/demo-spec.dcf: the built-in example and,
# when inst/scripts/export-data.R has written them (their Debian packages installed), ALL (gene expression) and
# acq (documents), read from the same files as Octave's demo; tables and PNG plots.
# Run: Rscript inst/scripts/demo.R [outdir [datadir]]   (make demo: build/demo/r and build/demo/data)
suppressPackageStartupMessages(library(attsparse))
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args)) args[[1]] else file.path(tempdir(), "attsparse-demo")
data <- if (length(args) > 1) args[[2]] else NULL
cat("attsparse demo: Y = rescaled columns of X with row-softmax(YY') ~ row-softmax(XX')\n")
invisible(attsparse_demo(outdir, data = data))
