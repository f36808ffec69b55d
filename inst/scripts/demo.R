# demo.R: `make demo-r`: both algorithms on the built-in default input and, when their Debian
# packages are installed, on ALL (gene expression) and acq (documents); tables and PNG plots.
# Run: Rscript inst/scripts/demo.R [outdir]   (make demo writes to build/demo/r)
suppressPackageStartupMessages(library(attsparse))
args <- commandArgs(trailingOnly = TRUE)
outdir <- if (length(args)) args[[1]] else file.path(tempdir(), "attsparse-demo")
inputs <- Filter(Negate(is.null), list(ALL = attsparse:::demo_data("ALL"), acq = attsparse:::demo_data("acq")))
cat("attsparse demo: Y = rescaled columns of X with row-softmax(YY') ~ row-softmax(XX')\n")
invisible(attsparse_demo(outdir, inputs = inputs))
