# greedy_prepare.R: the inputs of make bench-greedy as binary files (bench/core_tool.c's format): the
# built-in example and the real data sets that are installed, scaled as the demo scales them.
# Run: Rscript bench/greedy_prepare.R DIR
source("bench/rand_common.R")
suppressPackageStartupMessages(library(attsparse))
dir <- commandArgs(trailingOnly = TRUE)[1]
write_asbin(attsparse_example(), file.path(dir, "example.bin"))
for (nm in c("ALL", "acq", "crude", "golub", "lung")) {
  X <- attsparse:::demo_data(nm)
  if (!is.null(X)) write_asbin(X, file.path(dir, paste0(nm, ".bin")))
}
cat("greedy_prepare:", paste(sub("\\.bin$", "", list.files(dir, "\\.bin$")), collapse = ", "), "in", dir, "\n")
