# demo-data.R: the demo's real data sets (inst/extdata/demo-data.txt names them): loaded from their R data
# packages, and read back from the files inst/scripts/export-data.R writes for both front-ends' demos.

# The data sets of inst/extdata/demo-data.txt: a data frame with columns name, package (Debian) and values (what
# the data set's V is, "-" for none).
demo_sets <- function() {
  lines <- readLines(system.file("extdata", "demo-data.txt", package = "attsparse", mustWork = TRUE))
  lines <- lines[nzchar(lines) & !startsWith(lines, "#")]
  f <- regmatches(lines, regexec("^(\\S+)\\s+(\\S+)\\s+(.*)$", lines))
  data.frame(name = vapply(f, `[`, "", 2), package = vapply(f, `[`, "", 3), values = vapply(f, `[`, "", 4))
}

# Real data sets with d >> n from Debian's R packages, prepared by attsparse_prepare (rows scaled so max_i G_ii = 1);
# NULL when the data package is not installed.
demo_data <- function(name) {
  name <- match.arg(name, demo_sets()$name)
  have <- function(...) all(vapply(c(...), requireNamespace, NA, quietly = TRUE))
  load_data <- function(what, package) {
    e <- new.env()
    utils::data(list = what, package = package, envir = e)
    e[[what]]
  }
  X <- switch(name,
    ALL = if (have("ALL", "Biobase")) load_data("ALL", "ALL"),   # an ExpressionSet: prepared as one
    crude = , acq = if (have("tm")) {
      dtm <- tm::DocumentTermMatrix(load_data(name, "tm"))
      Matrix::sparseMatrix(i = dtm$i, j = dtm$j, x = as.numeric(dtm$v), dims = dim(dtm),
                           dimnames = dimnames(dtm))
    },
    golub = if (have("multtest")) t(load_data("golub", "multtest")),
    # 16S rRNA counts of 78 lung samples: raw counts, a few features hold most of the squared norm
    lung = if (have("metagenomeSeq", "Biobase")) {
      counts <- Biobase::assayDataElement(load_data("lungData", "metagenomeSeq"), "counts")
      Matrix::Matrix(t(counts), sparse = TRUE)
    })
  if (is.null(X)) return(NULL)
  # ALL's genes centred (similarity of expression profiles); rows scaled so that max_i G_ii = 1
  attsparse_prepare(X, center = name == "ALL")
}

# Values that go with a real data set's rows (the qkv table's V), NULL when it has none: for ALL, the
# one-hot B or T cell lineage of each sample.
demo_values <- function(name) {
  if (name != "ALL" || !requireNamespace("ALL", quietly = TRUE) || !requireNamespace("Biobase", quietly = TRUE))
    return(NULL)
  e <- new.env()
  utils::data(list = "ALL", package = "ALL", envir = e)
  lineage <- substr(as.character(e$ALL$BT), 1, 1)
  V <- cbind(B = as.numeric(lineage == "B"), T = as.numeric(lineage == "T"))
  rownames(V) <- Biobase::sampleNames(e$ALL)
  V
}

# The X format of inst/scripts/export-data.R and tests/fixtures: "n d nnz issparse", then "i j x" lines.
demo_read_x <- function(path) {
  head <- scan(path, n = 4, quiet = TRUE)
  tr <- matrix(scan(path, skip = 1, quiet = TRUE), ncol = 3, byrow = TRUE)
  X <- Matrix::sparseMatrix(i = tr[, 1], j = tr[, 2], x = tr[, 3], dims = head[1:2])
  if (head[4] == 1) X else as.matrix(X)
}

