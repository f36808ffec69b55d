# helper-corpus.R: the development corpus and the independent greedy baseline of bench/ (bench/corpus.R,
# bench/baseline.R), read from the source tree; corpus_available is FALSE where bench/ is absent (an
# R CMD check of the tarball, which leaves bench/ out), and the corpus tests are skipped there.
corpus_dir <- file.path("..", "..", "bench")
corpus_available <- file.exists(file.path(corpus_dir, "corpus.R")) && file.exists(file.path(corpus_dir, "baseline.R"))
if (corpus_available) {
  # evaluated under the global environment, where they find the Matrix package's generics
  corpus_env <- new.env(parent = globalenv())
  for (f in c("corpus.R", "baseline.R")) sys.source(file.path(corpus_dir, f), envir = corpus_env)
  list2env(as.list(corpus_env), environment())
}
skip_if_no_corpus <- function() skip_if_not(corpus_available, "bench/corpus.R not found (not a source tree)")
