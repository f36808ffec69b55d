# test-qkv.R: Q != K and values V: attention() against plain R, the sample of [Q; K] and its metrics, the bound over seeds on random and real inputs, K = Q, bad inputs, the shared fixture.

# Row-softmax of Q K' (and times V) in plain R.
att_qk <- function(Q, K, V = NULL) {
  L <- as.matrix(Matrix::tcrossprod(Q, K))
  E <- exp(L - apply(L, 1, max))
  A <- E / rowSums(E)
  if (is.null(V)) A else A %*% V
}

# the metrics of a result, recomputed in plain R
check_metrics <- function(res, Q, K, V = NULL, tol = 1e-9) {
  A <- att_qk(Q, K)
  Ah <- att_qk(res$Y, res$YK)
  expect_equal(res$rel_error, max(abs(Ah / A - 1)), tolerance = tol)
  expect_equal(res$error, max(abs(Ah - A)), tolerance = tol)
  expect_equal(res$baseline, max(abs((1 / nrow(K)) / A - 1)), tolerance = tol)
  expect_equal(res$r, max(abs(as.matrix(Matrix::tcrossprod(Q, K)))), tolerance = tol)
  expect_equal(res$eps_spectral, spectral_eps(rbind(as.matrix(Q), as.matrix(K)),
                                              rbind(as.matrix(res$Y), as.matrix(res$YK))), tolerance = 1e-6)
  nq <- sqrt(max(Matrix::rowSums(Q^2))); nk <- sqrt(max(Matrix::rowSums(K^2)))
  expect_equal(res$bound, expm1(2 * res$eps_spectral * nq * nk), tolerance = 1e-6)
  if (!is.null(V)) {
    D <- abs(Ah %*% V - A %*% V)
    expect_equal(res$out_error, max(D), tolerance = tol)
    expect_equal(res$out_rel_error, max(D / (A %*% abs(V))), tolerance = tol)
  }
}

test_that("attention() is the row-softmax of Q K' (times V), dense, sparse and mixed", {
  set.seed(1)
  Q <- matrix(rnorm(7 * 40), 7) / 4; K <- matrix(rnorm(9 * 40), 9) / 4; V <- matrix(rnorm(9 * 3), 9)
  Ks <- Matrix::Matrix(K * (abs(K) > 0.1), sparse = TRUE)
  expect_equal(attention(Q, K), att_qk(Q, K), tolerance = 1e-13)
  expect_equal(attention(Q, K, V), att_qk(Q, K) %*% V, tolerance = 1e-13)
  expect_equal(attention(Matrix::Matrix(Q, sparse = TRUE), Ks, V), att_qk(Q, as.matrix(Ks)) %*% V,
               tolerance = 1e-13)
  expect_equal(attention(Q), sym_attention(Q), tolerance = 1e-14)
  expect_equal(attention(Q, K, V[, 1]), att_qk(Q, K) %*% V[, 1], tolerance = 1e-13)
  expect_equal(rowSums(attention(Q, K)), rep(1, 7), tolerance = 1e-14)
  # large logits: the row maximum is subtracted
  expect_true(all(is.finite(attention(Q * 40, K * 40, V))))
})

test_that("a sample of [Q; K]: Y, YK and the metrics against plain R", {
  set.seed(2)
  Q <- matrix(rnorm(12 * 600), 12) * 0.04
  K <- Matrix::rsparsematrix(15, 600, 0.3) * 0.06
  V <- matrix(rnorm(15 * 4), 15)
  r <- attsparse_rand(Q, m = 300, seed = 3, K = K, V = V)
  expect_equal(unname(r$Y), unname(Q[, r$index] %*% diag(r$weight)), tolerance = 1e-15)
  expect_s4_class(r$YK, "dgCMatrix")
  expect_equal(unname(as.matrix(r$YK)), unname(as.matrix(K[, r$index] %*% Matrix::Diagonal(x = r$weight))),
               tolerance = 1e-15)
  check_metrics(r, Q, K, V)
  d <- attsparse_det(Q, eps = 0.6, K = K, V = V)
  check_metrics(d, Q, K, V)
  expect_lte(d$eps_spectral, d$eps_bound + 1e-9)
  expect_lte(d$rel_error, d$bound)
  expect_lte(d$out_rel_error, d$bound)
  # every option of the symmetric case works on [Q; K]
  p <- attsparse_rand(Q, m = 300, seed = 3, K = K, sampling = "poisson", probabilities = "mixed")
  check_metrics(p, Q, K)
  expect_true(is.na(p$out_error))
  t <- attsparse_rand(Q, seed = 3, K = K, rel = 0.05)
  expect_lte(t$rel_estimate, 0.05)
  expect_true(is.na(t$eps))
  # with eps, the floor of the stacked [Q; K]: the default m for eps at the picked scheme's beta
  f <- attsparse_rand(Q, seed = 3, K = K, rel = 0.05, eps = 0.5)
  expect_true(f$probabilities %in% c("leverage", "mixed"))
  expect_gte(f$m, default_m(f$rank, 0.5, 0.01 / 2, f$beta))
  expect_gt(f$m, t$m)
  expect_lte(f$eps_spectral, 0.5)
})

test_that("mixed sparse/dense: the same sample as all dense (leverage) ", {
  set.seed(4)
  Q <- Matrix::rsparsematrix(10, 800, 0.2) * 0.1
  K <- matrix(rnorm(8 * 800), 8) * 0.03
  a <- attsparse_rand(Q, m = 200, seed = 5, K = K)
  b <- attsparse_rand(as.matrix(Q), m = 200, seed = 5, K = Matrix::Matrix(K, sparse = TRUE))
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_equal(a$rel_error, b$rel_error, tolerance = 1e-12)
})

test_that("K = Q: norm products sample as squared norms; the metrics are the symmetric ones", {
  X <- attsparse_example(20, 1500, r = 0.5, seed = 6)
  for (s in 1:3) {
    a <- attsparse_rand(X, m = 200, seed = s, probabilities = "norm")
    b <- attsparse_rand(X, m = 200, seed = s, probabilities = "norm", K = X)
    expect_identical(a$index, b$index)
    expect_identical(a$weight, b$weight)
    expect_equal(b$rel_error, a$rel_error, tolerance = 1e-12)
    expect_equal(b$error, a$error, tolerance = 1e-12)
    expect_equal(b$eps_spectral, a$eps_spectral, tolerance = 1e-8)
    expect_equal(b$bound, a$bound, tolerance = 1e-8)
  }
})

test_that("K = NULL: V adds out_error without changing the sample", {
  X <- attsparse_example(15, 900, r = 0.5, seed = 7)
  V <- matrix(rnorm(15 * 2), 15)
  a <- attsparse_rand(X, seed = 8)
  b <- attsparse_rand(X, seed = 8, V = V)
  expect_identical(a$index, b$index)
  expect_identical(a$weight, b$weight)
  expect_identical(a$rel_error, b$rel_error)
  expect_null(b$YK)
  D <- abs(sym_attention(b$Y) %*% V - sym_attention(X) %*% V)
  expect_equal(b$out_error, max(D), tolerance = 1e-9)
  expect_lte(b$out_rel_error, b$bound)
})

# the bound exp(2 eps max||q|| max||k||) - 1 over seeds
check_bound <- function(Q, K, V, m, seeds) {
  for (s in seeds) {
    r <- attsparse_rand(Q, m = m, seed = s, K = K, V = V)
    expect_gt(r$eps_spectral, 0)
    expect_lte(r$rel_error, r$bound)
    expect_lte(r$out_rel_error, r$bound)
    expect_lte(r$out_rel_error, r$rel_error * (1 + 1e-9))
  }
}

test_that("the bound holds over seeds on random inputs", {
  set.seed(9)
  Q <- matrix(rnorm(20 * 3000), 20); Q <- Q / sqrt(max(rowSums(Q^2)))
  K <- matrix(rnorm(20 * 3000), 20); K <- K / sqrt(max(rowSums(K^2)))
  check_bound(Q, K, matrix(rnorm(40), 20), 400, 1:5)
})

test_that("the bound holds over seeds on a document-term matrix split into two halves of documents", {
  X <- real_data("acq")
  skip_if(is.null(X), "tm not installed")
  h <- seq_len(nrow(X) %/% 2)
  Q <- X[h, ]; K <- X[-h, ]
  V <- matrix(rnorm(nrow(K) * 3), nrow(K))
  check_bound(Q, K, V, 2000, 1:4)
})

test_that("the bound holds over seeds on the ALL expression data split by samples", {
  X <- real_data("ALL")
  skip_if(is.null(X), "ALL not installed")
  h <- seq(1, nrow(X), by = 2)
  Q <- X[h, ]; K <- X[-h, ]
  V <- matrix(rnorm(nrow(K) * 2), nrow(K))
  check_bound(Q, K, V, 3000, 1:3)
})

test_that("dense Q and K large enough for BLAS: attention and the metrics against Q %*% t(K)", {
  set.seed(5)
  Q <- matrix(rnorm(60 * 3000), 60) / 60; K <- matrix(rnorm(50 * 3000), 50) / 60; V <- matrix(rnorm(50 * 2), 50)
  L <- Q %*% t(K)
  E <- exp(L - apply(L, 1, max))
  expect_equal(attention(Q, K), E / rowSums(E), tolerance = 1e-13)
  expect_equal(attention(Q, K, V), (E / rowSums(E)) %*% V, tolerance = 1e-13)
  check_metrics(attsparse_rand(Q, K = K, V = V, seed = 2), Q, K, V)
})

test_that("the stacked Grams of the error estimate and of the error metrics count against 'memory'", {
  set.seed(6)
  Q <- matrix(rnorm(150 * 400), 150) / 20; K <- matrix(rnorm(150 * 400), 150) / 20
  mib <- 24 * 300^2 / 2^20   # Y Y', Att(Y) and the variance's Gram of [Q; K], 300 x 300 each
  expect_error(attsparse_rand(Q, K = K, probabilities = "norm", m = 200, seed = 1, memory = mib / 2),
               "the error estimate needs 3 n x n arrays .* above 'memory' = ")
  expect_error(attsparse_rand(Q, K = K, probabilities = "norm", m = 200, seed = 1, memory = mib / 2,
                              estimate = FALSE),
               "the error metrics of Att(X, K) need the Grams of [X; K] and of its sample", fixed = TRUE)
  r <- attsparse_rand(Q, K = K, probabilities = "norm", m = 200, seed = 1, memory = mib / 2,
                      estimate = FALSE, error = FALSE)
  expect_true(is.na(r$rel_estimate) && is.na(r$rel_error))
  expect_silent(attsparse_rand(Q, K = K, probabilities = "norm", m = 200, seed = 1, memory = 1.2 * mib))
})

test_that("bad K and V get errors naming the argument", {
  X <- attsparse_example(6, 50, seed = 1)
  expect_error(attsparse_rand(X, K = X[, 1:40]), "K must have as many columns as X \\(d = 50")
  expect_error(attsparse_det(X, K = X[, 1:40]), "K must have as many columns as X")
  expect_error(attsparse_rand(X, K = X[1:4, ], V = matrix(1, 6, 2)), "V must have as many rows as K \\(n2 = 4")
  expect_error(attsparse_rand(X, V = matrix(1, 5, 2)), "V must have as many rows as X \\(n2 = 6")
  expect_error(attsparse_rand(X, K = X, V = matrix(NA, 6, 2)), "V holds a NaN or infinite value (row 1, column 1)", fixed = TRUE)
  expect_error(attsparse_rand(X, K = "a"), "'K' must be a numeric matrix")
  expect_error(attsparse_rand(X, K = X, V = "a"), "'V' must be a numeric matrix")
  Kn <- X; Kn[2, 3] <- NaN
  expect_error(attsparse_rand(X, K = Kn), "K: column 3 holds a NaN")
  expect_error(attention(X, X[, 1:3]), "K must have as many columns as Q")
  expect_error(attention(X, X, matrix(1, 2, 2)), "V must have as many rows as K")
})

test_that("V of every kind X may be (sparse, data frame, plain vector) is its dense values", {
  X <- attsparse_example(6, 50, seed = 1)
  V <- matrix(c(1, 0, 0, 2, 0, -1, 0, 0, 3, 0, 0, 4), 6)
  Vs <- Matrix::Matrix(V, sparse = TRUE)
  expect_s4_class(Vs, "dgCMatrix")
  ref <- attention(X, X, V)
  expect_identical(attention(X, X, Vs), ref)
  expect_identical(unname(attention(X, X, as.data.frame(V))), unname(ref))
  expect_identical(attention(X, X, V[, 1]), attention(X, X, V[, 1, drop = FALSE]))
  a <- attsparse_rand(X, V = Vs, m = 30, seed = 2)
  b <- attsparse_rand(X, V = V, m = 30, seed = 2)
  expect_identical(c(a$out_error, a$out_rel_error), c(b$out_error, b$out_rel_error))
  expect_error(attention(X, X, V * 1i), "^'V' must be real, not complex$")
  expect_error(attsparse_det(X, V = data.frame(a = letters[1:6])), "^'V' is a data frame with non-numeric columns")
})

# the tests directory: the case in cross/qkv_case.R, R's sample in fixtures/qkv_rand.out
qkv_dir <- function() {
  for (d in c("..", "../../tests"))
    if (file.exists(file.path(d, "cross", "qkv_case.R")) && file.exists(file.path(d, "fixtures", "qkv_rand.out"))) return(d)
  NULL
}

test_that("the shared Q != K fixture (R and Octave; weights to 1e-13)", {
  dir <- qkv_dir()
  skip_if(is.null(dir), "fixtures not found")
  source(file.path(dir, "cross", "qkv_case.R"), local = TRUE)
  r <- qkv_fixture_run(qkv_fixture_case())
  lines <- readLines(file.path(dir, "fixtures", "qkv_rand.out"))
  body <- strsplit(lines[grepl("^[0-9]+ ", lines)], " ")
  expect_identical(r$index, as.integer(vapply(body, `[`, "", 1)))
  # to 1e-13: the leverage scores behind the weights go through the host's BLAS and LAPACK
  expect_equal(r$weight, as.numeric(vapply(body, `[`, "", 2)), tolerance = 1e-13)
  val <- function(key) as.numeric(sub(paste0("^", key, " "), "", lines[startsWith(lines, paste0(key, " "))]))
  for (key in c("error", "rel_error", "out_error", "out_rel_error"))
    expect_equal(r[[key]], val(key), tolerance = 1e-12, info = key)
  expect_equal(r$eps_spectral, val("eps_spectral"), tolerance = 1e-10)
})
