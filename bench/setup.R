# setup.R: the preamble of the corpus benchmarks (robust.R, estimate_mc.R, outside.R, realforms.R), run
# from the repository's top: the library with attsparse first on the library path (RLIB; default
# build/Rlib, "" for none), attsparse and Matrix attached, the corpus's generators (corpus.R) and the
# independent baseline (baseline.R) sourced.
lib <- Sys.getenv("RLIB", "build/Rlib")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({library(attsparse); library(Matrix)})
source("bench/corpus.R")
source("bench/baseline.R")
