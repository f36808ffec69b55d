# corpus.R: a development corpus of wide matrices of the kinds users hold, for make bench-robust
# (bench/robust.R) and the corpus tests (tests/testthat/helper-corpus.R reads this file).
#
# Every generator is seeded and returns an n x d matrix (a dgCMatrix when the data are sparse) with
# rows scaled so that r = max (X X')_ii = max |X X'| entrywise is 1 (or the r asked for).
# corpus_instances(size) lists the instances (family, params, seed); corpus_build(inst) builds one.
# The real data sets are the package's own (the built-in example and the demo's data sets), scaled
# as the demo scales them; they are skipped when their data package is not installed.
suppressPackageStartupMessages(library(Matrix))

# rows scaled so that max (X X')_ii = r
corpus_scale <- function(X, r = 1) X * sqrt(r / max(Matrix::rowSums(X^2)))

# Microbiome-like counts: heavy-tailed abundances, sequencing depths that vary between samples,
# sample-specific dominance; columns that are zero in every sample dropped.
gen_counts <- function(n, d, seed, alpha = 1.2, sd_depth = 2, sd_sample = 2) {
  set.seed(seed)
  base <- 1 / seq_len(d)^alpha; base <- base[sample.int(d)]           # heavy-tailed abundances
  lam <- outer(exp(rnorm(n, 0, sd_depth)), base) *                       # depths vary between samples
         exp(matrix(rnorm(n * d, 0, sd_sample), n))                      # sample-specific dominance
  lam <- lam / max(rowSums(lam)) * 1e5
  X <- Matrix(matrix(rpois(n * d, lam), n), sparse = TRUE); X <- X[, colSums(X) > 0]
  X * sqrt(1 / max(rowSums(X^2)))                                        # max (X X')_ii = 1
}

# Zipf-like document-term counts: `topics` word distributions, each half the shared Zipf law
# (exponent zipf) and half a Zipf law over its own order of the words; each document a Dirichlet(0.3)
# mixture of them, of a log-normal length around `len` words; raw counts.
gen_docterm <- function(n, d, seed, zipf = 1.1, topics = 5, len = 300, sd_len = 0.8) {
  set.seed(seed)
  base <- 1 / seq_len(d)^zipf
  P <- sapply(seq_len(topics), function(t) { p <- base + base[sample.int(d)]; p / sum(p) })
  theta <- matrix(rgamma(n * topics, 0.3), n); theta <- theta / rowSums(theta)
  words <- round(exp(rnorm(n, log(len), sd_len))) + 10
  X <- Matrix(matrix(rpois(n * d, words * tcrossprod(theta, P)), n), sparse = TRUE)
  corpus_scale(X[, colSums(X) > 0])
}

# Expression-like dense data: log-expression of mean ~ N(4, 1.5^2) a gene, genes correlated through
# `factors` latent factors, `dominant` genes far above the rest, noise sd 0.5; `scale` "linear" (the
# log-normal values exp(E)), "log" (E itself) or "centred" (E with each gene's mean removed, as the
# demo prepares ALL).
gen_expression <- function(n, d, seed, factors = 5, dominant = 5, scale = c("linear", "log", "centred")) {
  scale <- match.arg(scale)
  set.seed(seed)
  mu <- rnorm(d, 4, 1.5)
  mu[sample.int(d, dominant)] <- max(mu) + runif(dominant, 1, 3)
  E <- tcrossprod(matrix(rnorm(n * factors), n), matrix(rnorm(d * factors, 0, 0.5), d)) +
       matrix(rnorm(n * d, 0, 0.5), n)
  E <- sweep(E, 2, mu, "+")
  X <- switch(scale, linear = exp(E), log = E, centred = sweep(E, 2, colMeans(E)))
  corpus_scale(X)
}

# Low rank plus noise: singular values 2^-(0..rank-1), Gaussian factors, Gaussian noise of relative
# size `noise`.
gen_lowrank <- function(n, d, seed, rank = 5, noise = 0.1) {
  set.seed(seed)
  U <- matrix(rnorm(n * rank), n) %*% diag(2^-(seq_len(rank) - 1), rank)
  X <- tcrossprod(U, matrix(rnorm(d * rank), d)) + noise * matrix(rnorm(n * d), n)
  corpus_scale(X)
}

# Clustered rows: `clusters` Gaussian centroids, each row its centroid plus Gaussian noise of relative
# size `spread`.
gen_clustered <- function(n, d, seed, clusters = 4, spread = 0.3) {
  set.seed(seed)
  C <- matrix(rnorm(clusters * d), clusters)
  X <- C[sample.int(clusters, n, replace = TRUE), , drop = FALSE] + spread * matrix(rnorm(n * d), n)
  corpus_scale(X)
}

# Near-duplicate columns and columns differing only in scale: `d0` distinct count columns
# (gen_counts, n x d0), then copies of `copies` columns each: half multiplied by 10^U(-2, 2) (the
# same column at another scale), half with relative noise `noise` added; columns shuffled.
gen_dupcols <- function(n, d, seed, copies = 0.5, noise = 1e-3) {
  B <- gen_counts(n, d, seed, alpha = 1, sd_depth = 1, sd_sample = 1)
  set.seed(seed + 1e6)
  d0 <- ncol(B)
  idx <- sample.int(d0, round(copies * d0), replace = TRUE)
  half <- seq_len(length(idx) %/% 2)
  scaled <- B[, idx[half], drop = FALSE] %*% Diagonal(x = 10^runif(length(half), -2, 2))
  near <- B[, idx[-half], drop = FALSE]
  near@x <- near@x * (1 + noise * rnorm(length(near@x)))
  X <- cbind(B, scaled, near)
  corpus_scale(X[, sample.int(ncol(X))])
}

# Rows of very different norms: Gaussian dense (base "dense") or microbiome-like counts (base
# "counts") rows multiplied by 10^U(-spread, 0).
gen_rownorms <- function(n, d, seed, spread = 2, base = c("dense", "counts")) {
  base <- match.arg(base)
  Z <- if (base == "dense") { set.seed(seed); matrix(rnorm(n * d), n) } else
    gen_counts(n, d, seed, alpha = 1.2, sd_depth = 0.5, sd_sample = 1)
  set.seed(seed + 1e6)
  s <- 10^runif(n, -spread, 0)
  corpus_scale(if (is.matrix(Z)) s * Z else Diagonal(x = s) %*% Z)
}

# log1p of raw counts (microbiome-like counts, base "counts", or document-term counts, base "docterm").
gen_log1p <- function(n, d, seed, base = c("counts", "docterm")) {
  base <- match.arg(base)
  X <- if (base == "counts") gen_counts(n, d, seed) else gen_docterm(n, d, seed)
  X <- as(X, "CsparseMatrix")
  X@x <- log1p(round(X@x / min(X@x)))          # back to the raw counts (the smallest count is 1)
  corpus_scale(X)
}

# r = max (X X')_ii from 0.05 to 1: counts, document-term counts or centred expression scaled to r.
gen_r <- function(n, d, seed, r = 0.5, base = c("counts", "docterm", "expression")) {
  base <- match.arg(base)
  X <- switch(base, counts = gen_counts(n, d, seed), docterm = gen_docterm(n, d, seed),
              expression = gen_expression(n, d, seed, scale = "centred"))
  corpus_scale(X, r)
}

# Large logits, r = max (X X')_ii from 2 to 5: counts, document-term counts or centred expression scaled
# to r (attention then sits on few entries a row, and an error in a logit of x moves a ratio by e^x).
gen_logits <- function(n, d, seed, r = 3, base = c("counts", "docterm", "expression")) gen_r(n, d, seed, r, base)

# Presence/absence data (0/1, sparse): each column present with its own probability, Beta(a, b)
# over the columns (a few common features, many rare ones); all-zero columns dropped.
gen_binary <- function(n, d, seed, a = 0.3, b = 3) {
  set.seed(seed)
  p <- rbeta(d, a, b)
  X <- Matrix((matrix(runif(n * d), n) < rep(p, each = n)) * 1, sparse = TRUE)
  corpus_scale(X[, colSums(X) > 0])
}

# Heavy-tailed dense entries: Student t with `df` degrees of freedom, so that a few entries of a few
# columns dominate the rows' norms.
gen_heavy <- function(n, d, seed, df = 2) {
  set.seed(seed)
  corpus_scale(matrix(rt(n * d, df), n))
}

# Categorical data as a model matrix: `factors` factors of `levels` levels each (the levels' frequencies
# uneven, Dirichlet(1)), one indicator column per level that occurs; sparse, one 1 per row and factor.
gen_onehot <- function(n, d, seed, levels = 10) {
  set.seed(seed)
  factors <- max(1, d %/% levels)
  cols <- unlist(lapply(seq_len(factors) - 1, function(f) {
    w <- rgamma(levels, 1)
    f * levels + sample.int(levels, n, replace = TRUE, prob = w)
  }))
  X <- sparseMatrix(rep(seq_len(n), factors), cols, x = 1, dims = c(n, factors * levels))
  corpus_scale(X[, colSums(X) > 0])
}

# Signed +-1 data (votes, genotypes coded -1/+1, binarized signals): every column is one pattern of signs
# over the rows, each sign flipped with probability 1 - p (p drawn in [0.5, 0.9]); dense, every column
# of the same norm, all of them correlated through the pattern. Scaled to max (X X')_ii = r.
gen_signs <- function(n, d, seed, r = 1) {
  set.seed(seed)
  p <- runif(1, 0.5, 0.9)
  B <- sample(c(-1, 1), n, TRUE)
  corpus_scale(matrix(ifelse(runif(n * d) < p, B, -B), n), r)
}

# Spectra (near-infrared and the like): each row a mixture of `bands` Gaussian absorption bands over `d`
# wavelengths (centres uniform, widths `width` times the range) on a smooth baseline (a quadratic in
# the wavelength), shared by the rows up to their own log-normal factors of sd `spread` (concentrations,
# path lengths: gasoline's 60 spectra have 99.8% of their squared norm in one direction), with
# Gaussian noise of relative size `noise`; dense, neighbouring columns almost equal; `centred`: each
# wavelength centred over the rows, as chemometrics compares spectra.
gen_spectra <- function(n, d, seed, bands = 8, width = 0.05, spread = 0.2, noise = 1e-3, centred = FALSE) {
  set.seed(seed)
  t <- seq(0, 1, length.out = d)
  B <- vapply(seq_len(bands), function(b) exp(-(t - runif(1))^2 / (2 * (width * runif(1, 0.5, 2))^2)), numeric(d))
  base <- 1 + runif(1, -0.5, 0.5) * t + runif(1, -0.5, 0.5) * t^2
  X <- exp(matrix(rnorm(n * bands, 0, spread), n)) %*% (runif(bands, 0.2, 1) * t(B)) +
    outer(exp(rnorm(n, 0, spread)), base)
  X <- X + noise * sd(as.vector(X)) * matrix(rnorm(n * d), n)
  if (centred) X <- sweep(X, 2, colMeans(X))
  corpus_scale(X)
}

# The package's own data: the built-in example and the demo's data sets (NULL when not installed),
# and the chapters of Jane Austen's six novels by the words in them (gen_austen).
gen_real <- function(name) {
  if (name == "example") attsparse::attsparse_example()
  else if (name == "austen") gen_austen()
  else if (name %in% c("bladder", "bladder_centred")) gen_bladder(name == "bladder_centred")
  else if (name %in% c("twins", "twins_log1p")) gen_twins(name == "twins_log1p")
  else if (name == "gasoline") gen_gasoline()
  else attsparse:::demo_data(name)
}

# Object `object` of data set `what` of an R package (utils::data into an environment of its own), NULL
# when the package is not installed.
load_pkg_data <- function(what, package, object = what) {
  if (!requireNamespace(package, quietly = TRUE)) return(NULL)
  e <- new.env()
  utils::data(list = what, package = package, envir = e)
  e[[object]]
}

# Held-out real data (the held-out corpus only: nothing in the package was tuned on them), and the raw
# matrices they are made of (bench/realforms.R makes other forms of them).
# bladderbatch's bladder cancer arrays (Debian: r-bioc-bladderbatch): 57 samples x 22283 probe sets,
# log2 expression (RMA), dense; NULL when not installed.
load_bladder <- function() {
  if (!requireNamespace("Biobase", quietly = TRUE)) return(NULL)
  eset <- load_pkg_data("bladderdata", "bladderbatch", "bladderEset")
  if (is.null(eset)) NULL else t(Biobase::exprs(eset))
}
# `centred`: each probe set centred over the samples, as expression analyses compare samples; rows
# scaled so that the largest (X X')_ii is 1.
gen_bladder <- function(centred = FALSE) {
  X <- load_bladder()
  if (is.null(X)) return(NULL)
  if (centred) X <- sweep(X, 2, colMeans(X))
  corpus_scale(X)
}

# DirichletMultinomial's twins gut microbiome census (Debian: r-bioc-dirichletmultinomial): 278
# samples x 130 genera, raw counts (a few genera hold most reads; d < n), dense; NULL when not installed.
load_twins <- function() {
  f <- system.file(package = "DirichletMultinomial", "extdata", "Twins.csv")
  if (!nzchar(f)) return(NULL)
  t(as.matrix(utils::read.csv(f, row.names = 1)))
}
# `log1p`: log1p of the counts; sparse, rows scaled so that the largest (X X')_ii is 1.
gen_twins <- function(log = FALSE) {
  X <- load_twins()
  if (is.null(X)) return(NULL)
  if (log) X <- log1p(X)
  corpus_scale(Matrix::Matrix(X, sparse = TRUE))
}

# pls's near-infrared spectra (Debian: r-cran-pls), samples x wavelengths: "gasoline" (60 x 401, 99.8%
# of the squared norm in one direction) or "yarn" (28 x 268); NULL when not installed.
load_nir <- function(name) {
  d <- load_pkg_data(name, "pls")
  if (is.null(d)) NULL else unclass(d$NIR)
}
# gasoline, rows scaled so that the largest (X X')_ii is 1 (bench/estimate_mc.R studies it; no corpus
# holds it).
gen_gasoline <- function() {
  X <- load_nir("gasoline")
  if (is.null(X)) NULL else corpus_scale(X)
}

# janeaustenr's text (Debian: r-cran-janeaustenr) as a chapters x words count matrix (269 x 14243;
# a chapter runs from a line "Chapter N" to the next, words are lower-case runs of letters and
# apostrophes), as text mining compares documents: log1p of the counts, each row scaled to norm 1
# (X X' the cosine similarity; attention spreads over many chapters alike); NULL when not installed.
gen_austen <- function() {
  if (!requireNamespace("janeaustenr", quietly = TRUE)) return(NULL)
  b <- janeaustenr::austen_books()
  chapter <- ave(grepl("^chapter [0-9ivxlc]+", b$text, ignore.case = TRUE), b$book, FUN = cumsum)
  keep <- chapter > 0
  words <- strsplit(tolower(b$text[keep]), "[^a-z']+")
  doc <- rep(paste(b$book, chapter)[keep], lengths(words))
  words <- unlist(words)
  ok <- nzchar(words)
  doc <- factor(doc[ok], levels = unique(doc[ok]))
  words <- factor(words[ok])
  X <- Matrix::sparseMatrix(i = as.integer(doc), j = as.integer(words), x = 1,
                            dims = c(nlevels(doc), nlevels(words)), dimnames = list(levels(doc), levels(words)))
  X@x <- log1p(X@x)
  Matrix::Diagonal(x = 1 / sqrt(Matrix::rowSums(X^2))) %*% X
}

# The parameters of a family's i-th instance (seed i), cycling through the values below.
# "heldout": seeds 1001, 1002, ... and each list's values taken from its fourth on, other
# combinations than the full corpus's, for checking a change on instances it was not developed on.
corpus_params <- function(family, i, size) {
  if (size == "rows") return(corpus_rows_params(family, i))
  held <- size == "heldout"
  pick <- function(v) v[(i + if (held) 2 else -1) %% length(v) + 1]
  slice <- size == "slice"
  p <- switch(family,
    counts = {
      # the four of the report first (their seeds as given), then n from 10 to 300 and the other parameters varied
      fixed <- list(c(26, 19000, 2), c(40, 20000, 3), c(40, 20000, 4), c(40, 20000, 6))
      if (size == "full" && i <= 4) return(list(n = fixed[[i]][1], d = fixed[[i]][2], seed = fixed[[i]][3]))
      list(n = pick(if (slice) c(20, 26, 40) else c(10, 20, 26, 60, 100, 150, 300, 40, 60, 80, 120, 200)),
           d = pick(if (slice) 1500 else c(2000, 5000, 10000, 5000, 3000, 5000, 3000, 20000, 8000)),
           alpha = pick(c(1.2, 0.8, 1.6, 1.0)), sd_depth = pick(c(2, 0.5, 1, 2, 1.5)),
           sd_sample = pick(c(2, 1, 0.5, 2.5, 1.5, 2)), seed = i)
    },
    docterm = list(n = pick(if (slice) 30 else c(50, 100, 200, 300, 80, 150)),
                   d = pick(if (slice) 1000 else c(2000, 5000, 10000, 3000, 20000)),
                   zipf = pick(c(1.1, 0.9, 1.3)), topics = pick(c(5, 2, 10, 20)),
                   len = pick(c(300, 100, 1000)), seed = i),
    expression = list(n = pick(if (slice) 20 else c(20, 40, 60, 100, 30, 128)),
                      d = pick(if (slice) 1000 else c(5000, 10000, 20000, 3000, 12000)),
                      factors = pick(c(5, 2, 10)), dominant = pick(c(5, 1, 20, 0)),
                      scale = pick(c("linear", "log", "centred")), seed = i),
    lowrank = list(n = pick(if (slice) 30 else c(30, 60, 100, 200, 50)),
                   d = pick(if (slice) 800 else c(2000, 5000, 1000, 3000)),
                   rank = pick(c(2, 5, 10, 20)), noise = pick(c(0.1, 0.01, 0.5, 1)), seed = i),
    clustered = list(n = pick(if (slice) 30 else c(30, 60, 100, 200, 50)),
                     d = pick(if (slice) 800 else c(2000, 1000, 5000, 3000)),
                     clusters = pick(c(4, 2, 8, 16)), spread = pick(c(0.3, 0.1, 1)), seed = i),
    dupcols = list(n = pick(if (slice) 20 else c(20, 40, 60, 100, 30)),
                   d = pick(if (slice) 1000 else c(2000, 5000, 1000, 8000)),
                   copies = pick(c(0.5, 1, 0.2)), noise = pick(c(1e-3, 1e-6, 1e-2)), seed = i),
    rownorms = list(n = pick(if (slice) 30 else c(30, 60, 100, 40, 150)),
                    d = pick(if (slice) 800 else c(2000, 5000, 1000, 3000)),
                    spread = pick(c(2, 1, 4, 3)), base = pick(c("dense", "counts")), seed = i),
    log1p = list(n = pick(if (slice) 30 else c(20, 40, 60, 100, 150, 30)),
                 d = pick(if (slice) 1000 else c(2000, 5000, 10000, 3000)),
                 base = pick(c("counts", "docterm")), seed = i),
    r = list(n = pick(if (slice) 30 else c(30, 60, 100, 40)),
             d = pick(if (slice) 1000 else c(3000, 5000, 2000)),
             r = pick(if (slice) c(0.05, 0.3) else c(0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 0.05, 0.15, 0.4)),
             base = pick(c("counts", "docterm", "expression")), seed = i),
    logits = list(n = pick(if (slice) 30 else c(30, 60, 40, 100)),
                  d = pick(if (slice) 1000 else c(5000, 3000, 2000)),
                  r = pick(if (slice) c(3, 5) else c(2, 3, 5, 2.5, 4)),
                  base = pick(c("counts", "docterm", "expression")), seed = i),
    binary = list(n = pick(if (slice) 30 else c(20, 50, 30, 60, 40)),
                  d = pick(if (slice) 1000 else c(2000, 5000, 3000, 1000)),
                  a = pick(c(0.3, 0.1, 1)), b = pick(c(3, 10, 2, 20)), seed = i),
    heavy = list(n = pick(if (slice) 30 else c(20, 40, 60, 30, 50)),
                 d = pick(if (slice) 800 else c(1000, 3000, 2000)),
                 df = pick(c(2, 1.5, 3, 4, 1.2)), seed = i),
    onehot = list(n = pick(if (slice) 30 else c(30, 60, 40, 50, 20)),
                  d = pick(if (slice) 400 else c(1000, 2000, 500)),
                  levels = pick(c(10, 5, 20, 3)), seed = i),
    spectra = list(n = pick(if (slice) 30 else c(30, 60, 100, 40, 150)),
                   d = pick(if (slice) 400 else c(400, 1000, 2000, 5000)),
                   bands = pick(c(8, 3, 20)), width = pick(c(0.05, 0.02, 0.15, 0.08)),
                   spread = pick(c(0.05, 0.2, 0.5)), noise = pick(c(1e-3, 1e-2, 1e-4)),
                   centred = pick(c(FALSE, TRUE)), seed = i))
  if (held) p$seed <- 1000 + i
  p
}

# "rows": more rows than the other corpora's (400 to 1000; theirs stop at 300), two instances of
# seven families, seeds of their own (2000 + i). The rounds' costs grow with n^2 and some rules
# (the plain path's stop) were first seen to fail here.
CORPUS_ROWS_FAMILIES <- c("counts", "docterm", "expression", "lowrank", "clustered", "log1p", "heavy")
corpus_rows_params <- function(family, i) {
  n <- c(400, 800)[i]
  p <- switch(family,
    counts = list(n = n, d = 10000, alpha = c(1.2, 0.8)[i], sd_depth = 2, sd_sample = c(2, 1)[i]),
    docterm = list(n = n, d = 20000, zipf = c(1.1, 0.9)[i], topics = c(5, 20)[i], len = 300),
    expression = list(n = c(600, 1000)[i], d = c(8000, 6000)[i], factors = 5, dominant = c(5, 0)[i],
                      scale = c("linear", "log")[i]),
    lowrank = list(n = n, d = c(3000, 6000)[i], rank = 5, noise = 0.1),
    clustered = list(n = c(400, 600)[i], d = 3000, clusters = c(4, 16)[i], spread = c(1, 0.3)[i]),
    log1p = list(n = n, d = 5000, base = c("counts", "docterm")[i]),
    heavy = list(n = n, d = 3000, df = c(2, 3)[i]))
  p$seed <- 2000 + i
  p
}

# The real data sets of the full and the held-out corpus (gen_real's names).
CORPUS_REAL <- list(full = c("example", "ALL", "acq", "crude", "golub", "lung", "austen"),
                    heldout = c("bladder", "bladder_centred", "twins", "twins_log1p"))

CORPUS_FAMILIES <- c("counts", "docterm", "expression", "lowrank", "clustered", "dupcols", "rownorms",
                     "log1p", "r", "logits", "binary", "heavy", "onehot", "spectra")

# The instances: a data frame with columns id, family, seed and params (a list column of the
# generator's arguments); "full": 16 counts instances and 10 of each other family, then the real data
# sets (family "real"); "slice": a few small ones for the tests; "heldout": as many as "full", of
# other seeds and parameter combinations, then real data sets of their own (bladder, twins).
corpus_instances <- function(size = c("full", "slice", "heldout", "rows"),
                             families = if (identical(size, "rows")) CORPUS_ROWS_FAMILIES else CORPUS_FAMILIES,
                             real = !size %in% c("slice", "rows")) {
  size <- match.arg(size)
  count <- function(f) if (size %in% c("slice", "rows")) 2 else if (f == "counts") 16 else 10
  rows <- unlist(lapply(families, function(f) lapply(seq_len(count(f)), function(i) {
    p <- corpus_params(f, i, size)
    list(family = f, seed = p$seed, params = p)
  })), recursive = FALSE)
  if (real) rows <- c(rows, lapply(CORPUS_REAL[[if (size == "heldout") "heldout" else "full"]],
                                   function(nm) list(family = "real", seed = NA, params = list(name = nm))))
  inst <- data.frame(family = vapply(rows, `[[`, "", "family"), seed = vapply(rows, `[[`, 0, "seed"))
  inst$params <- lapply(rows, `[[`, "params")
  inst$id <- vapply(seq_len(nrow(inst)), function(i) corpus_label(inst[i, ]), "")
  inst[, c("id", "family", "seed", "params")]
}

# "family(n=.., d=.., ..., seed=..)"
corpus_label <- function(inst) {
  p <- inst$params[[1]]
  if (inst$family == "real") return(p$name)
  paste0(inst$family, "(", paste(names(p), vapply(p, format, ""), sep = "=", collapse = ", "), ")")
}

# Builds one instance (a row of corpus_instances()): the matrix, or NULL for a real data set whose
# package is not installed.
corpus_build <- function(inst) {
  p <- inst$params[[1]]
  if (inst$family == "real") return(gen_real(p$name))
  do.call(paste0("gen_", inst$family), p)
}
