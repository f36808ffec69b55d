# realforms.R: the greedy method and the default error estimate on real data in forms no corpus of
# bench/corpus.R holds, against the independent baseline of bench/baseline.R (capped at 1500
# columns, as in make bench-robust).
#
#   Rscript bench/realforms.R OUT.csv [NAME ...]     (RLIB: the library with attsparse; default build/Rlib)
#
# The corpus holds the package's real data sets as the demo prepares them (ALL centred, the others
# raw) and the held-out ones (bladder, twins). Users hold the same data in other forms, and data of
# other kinds: expression on the linear scale or standardized gene by gene, counts as relative
# abundances, tf-idf or log1p with rows of norm 1, near-infrared spectra (pls's gasoline and yarn:
# smooth, neighbouring columns almost equal), species counts of forest plots (vegan's BCI). Each
# form is scaled with r = max (X X')_ii of 1 and 3. Per target (5%, 2%, 1%): attsparse_greedy(X,
# rel = t)'s k, exact rel and time, the baseline's first k meeting t; once a form attsparse_rand(X,
# seed = 1)'s exact rel and rel_estimate. Forms whose data package is not installed are skipped
# (Debian: r-bioc-all, r-cran-tm, r-bioc-multtest, r-bioc-metagenomeseq, r-cran-pls, r-cran-vegan,
# r-bioc-bladderbatch, r-bioc-dirichletmultinomial).
source("bench/setup.R")

args <- commandArgs(TRUE)
if (length(args) < 1) stop("usage: Rscript bench/realforms.R OUT.csv [NAME ...]")
targets <- c(0.05, 0.02, 0.01)

# the raw matrices (load_pkg_data, load_nir, load_bladder and load_twins are bench/corpus.R's)
have <- function(...) all(vapply(c(...), requireNamespace, NA, quietly = TRUE))
all_exprs <- function() if (have("ALL", "Biobase")) t(Biobase::exprs(load_pkg_data("ALL", "ALL")))
tm_counts <- function(name) if (have("tm")) {
  d <- tm::DocumentTermMatrix(load_pkg_data(name, "tm"))
  sparseMatrix(i = d$i, j = d$j, x = as.numeric(d$v), dims = dim(d))
}
lung_counts <- function() if (have("metagenomeSeq", "Biobase"))
  Matrix(t(Biobase::assayDataElement(load_pkg_data("lungData", "metagenomeSeq"), "counts")), sparse = TRUE)
bci <- function() skip_null(load_pkg_data("BCI", "vegan"), as.matrix)
skip_null <- function(X, f) if (is.null(X)) NULL else f(X)
# each row to norm 1 (cosine similarity); tf-idf weights; log1p of the stored entries
unit_rows <- function(X) X / sqrt(rowSums(X^2) + 1e-300)
tf_idf <- function(X) {
  X <- X[, colSums(X) > 0]
  unit_rows(X %*% Diagonal(x = log(nrow(X) / colSums(X > 0)) + 1e-3))
}
log1p_x <- function(X) {
  X@x <- log1p(X@x)
  X
}
center_cols <- function(X) sweep(X, 2, colMeans(X))

forms <- list(
  ALL_uncentred = function() all_exprs(),                                   # log2 expression, genes not centred
  ALL_linear = function() skip_null(all_exprs(), function(X) 2^X),          # linear scale: heavy-tailed, dense
  ALL_zscore = function() skip_null(all_exprs(), function(X) {              # genes standardized (scale())
    X <- scale(X)
    X[, is.finite(colSums(X))]
  }),
  golub_centred = function() skip_null(load_pkg_data("golub", "multtest"), function(X) center_cols(t(X))),
  crude_tfidf = function() skip_null(tm_counts("crude"), tf_idf),
  acq_log1p_cosine = function() skip_null(tm_counts("acq"), function(X) unit_rows(log1p_x(X))),
  lung_log1p = function() skip_null(lung_counts(), log1p_x),
  lung_relative = function() skip_null(lung_counts(), function(X) {         # relative abundances
    X <- X[rowSums(X) > 0, ]
    X / rowSums(X)
  }),
  gasoline = function() load_nir("gasoline"),                               # 60 spectra x 401 wavelengths
  gasoline_centred = function() skip_null(load_nir("gasoline"), center_cols),
  yarn = function() load_nir("yarn"),                                       # 28 spectra x 268 wavelengths
  BCI = function() bci(),                                                   # 50 plots x 225 species, counts
  BCI_log1p = function() skip_null(bci(), log1p),
  bladder_linear = function() skip_null(load_bladder(), function(X) 2^X),
  twins_relative = function() skip_null(load_twins(), function(X) {
    X <- X[, colSums(X) > 0]
    Matrix(X / rowSums(X), sparse = TRUE)
  }))
if (length(args) > 1) forms <- forms[args[-1]]

res <- list()
for (name in names(forms)) {
  X0 <- forms[[name]]()
  if (is.null(X0)) {
    cat(sprintf("%s: skipped (its data package is not installed)\n", name))
    next
  }
  for (r in c(1, 3)) {
    X <- corpus_scale(X0, r)
    if (!inherits(X, "Matrix")) X <- as.matrix(X)
    b <- baseline_greedy(X, targets, cap = 1500)
    rd <- attsparse_rand(X, seed = 1)
    for (i in seq_along(targets)) {
      t0 <- proc.time()[["elapsed"]]
      g <- suppressWarnings(attsparse_greedy(X, rel = targets[i]))
      res[[length(res) + 1]] <- data.frame(form = name, n = nrow(X), d = ncol(X), r = r, target = targets[i],
        k = length(g$index), rel = g$rel_error, time = proc.time()[["elapsed"]] - t0, base_k = b$k[i],
        rand_k = ncol(rd$Y), rand_rel = rd$rel_error, rand_est = rd$rel_estimate)
    }
    cat(sprintf("%s %d x %d, r %g\n", name, nrow(X), ncol(X), r))
    write.csv(do.call(rbind, res), args[1], row.names = FALSE)
  }
}
report_against_baseline(do.call(rbind, res), "form", slow = 30, per_instance = TRUE)
