# test-badinput.R: every R row of docs/bad-input.md: the call fails with the message shown, or succeeds and passes its check.
# docs/bad-input.md is the one source of the table; the source tarball (make r-tarball) installs a copy as
# inst/extdata/bad-input.md so that the test also runs under R CMD check, where docs/ is not shipped.

# The R rows of the table: id, input, call, gets ("error" or "value"), message or check.
bad_input_rows <- function(doc) {
  lines <- grep("^\\| R[0-9]+ \\|", readLines(doc, warn = FALSE), value = TRUE)
  cells <- lapply(strsplit(lines, "(?<!\\\\)\\|", perl = TRUE), function(f) {
    f <- gsub("\\\\\\|", "|", trimws(f[-1]))
    sub("^`(.*)`$", "\\1", f)
  })
  rows <- do.call(rbind, lapply(cells, function(f) data.frame(id = f[1], input = f[3], call = f[4],
                                                              gets = f[5], expect = f[6])))
  # the interrupt rows point at their own tests (a child process gets SIGINT)
  rows[!startsWith(rows$call, "see "), ]
}

# the repository's table when the tests run from the tree (make check-r), else the installed copy
bad_input_doc <- function() {
  tree <- file.path("..", "..", "docs", "bad-input.md")
  if (file.exists(tree)) tree else system.file("extdata", "bad-input.md", package = "attsparse")
}

test_that("every R row of docs/bad-input.md gets what the table says", {
  doc <- bad_input_doc()
  # under R CMD check the installed copy must be there: a skip there would hide the whole table
  if (!nzchar(doc) && nzchar(Sys.getenv("_R_CHECK_PACKAGE_NAME_")))
    fail("R CMD check: extdata/bad-input.md is not installed (the tarball is made by make r-tarball)")
  skip_if_not(nzchar(doc), "neither docs/bad-input.md nor the installed extdata/bad-input.md is there")
  rows <- bad_input_rows(doc)
  expect_gte(nrow(rows), 30)
  set.seed(42)
  X <- matrix(rnorm(2000), 20)
  S <- as(Matrix::Matrix(X * (abs(X) > 0.8), sparse = TRUE), "CsparseMatrix")
  for (r in seq_len(nrow(rows))) {
    row <- rows[r, ]
    env <- new.env(parent = globalenv())
    env$X <- X
    env$S <- S
    out <- tryCatch(list(value = eval(parse(text = row$call), env)), error = function(e) list(error = e))
    label <- sprintf("%s (%s): %s", row$id, row$input, row$call)
    if (row$gets == "error") {
      expect_true(!is.null(out$error), label = paste(label, "raised no error"))
      if (!is.null(out$error))
        expect_true(grepl(row$expect, conditionMessage(out$error), fixed = TRUE),
                    label = sprintf("%s: message '%s' holds '%s'", label, conditionMessage(out$error), row$expect))
    } else {
      expect_equal(row$gets, "value", label = label)
      expect_true(is.null(out$error), label = paste(label, "failed:", format(out$error)))
      env$res <- out$value
      expect_true(isTRUE(eval(parse(text = row$expect), env)), label = sprintf("%s: %s", label, row$expect))
    }
  }
  # after all those errors the session still computes the right thing
  res <- attsparse_rand(X, seed = 1)
  expect_equal(unname(res$Y), unname(X[, res$index] %*% diag(res$weight, length(res$index))))
})

test_that("an option named s is not taken for seed by partial matching", {
  set.seed(1)
  X <- matrix(rnorm(20 * 300), 20)
  set.seed(7)
  a <- attsparse_rand(X, s = 8, error = FALSE)
  set.seed(7)
  expect_equal(a$seed, attsparse:::seed_from_rng())
  expect_equal(a$s, 8)
  set.seed(7)
  l1 <- leverage_scores(X, s = 2)
  set.seed(7)
  l2 <- leverage_scores(X, s = 2, seed = attsparse:::seed_from_rng())
  expect_identical(l1, l2)
})
