# demo.R: attsparse_demo(), the paper's bounds on the built-in example and real data: three tables (the paper's
# algorithms; the fewest columns for rel <= target, by method; queries != keys) and five plots. Each table row
# is one call, as a user would make it; Octave's attsparse_demo makes the same calls, and `make demo` checks
# that they give the same numbers (tests/cross/demo-tables.R writes R's, demo_tables.m checks Octave's).

attsparse_demo <- function(outdir = file.path(tempdir(), "attsparse-demo"), data = NULL, inputs = list(),
                           quick = FALSE, plots = TRUE, tables = c("methods", "targets", "qkv")) {
  check_flag(quick, "quick")
  check_flag(plots, "plots")
  if (!is.null(data) && !(is.character(data) && length(data) == 1 && dir.exists(data)))
    stop("'data' must be the name of a directory", call. = FALSE)
  if (!is.list(inputs) || (length(inputs) && (is.null(names(inputs)) || any(names(inputs) == ""))))
    stop("'inputs' must be a named list of matrices", call. = FALSE)
  if (!is.character(tables) || !length(tables) || !all(tables %in% c("methods", "targets", "qkv")))
    stop("'tables' must name some of the tables \"methods\", \"targets\", \"qkv\"", call. = FALSE)
  inputs[] <- lapply(names(inputs), function(nm) as_input(inputs[[nm]], sprintf("inputs$%s", nm)))
  # the inputs: the built-in example, the real data sets found in data (their values V too), the caller's
  X <- list(example = attsparse_example())
  V <- list()
  sets <- if (is.null(data)) demo_sets()[0, ] else demo_sets()
  for (i in seq_len(nrow(sets))) {
    file <- file.path(data, paste0(sets$name[i], c(".X.txt", ".V.txt")))
    if (!file.exists(file[1])) {
      cat(sprintf("demo: no %s (its R data package is not installed; Debian: %s)\n", file[1], sets$package[i]))
      next
    }
    X[[sets$name[i]]] <- demo_read_x(file[1])
    if (file.exists(file[2])) V[[sets$name[i]]] <- demo_read_x(file[2])
  }
  X <- c(X, inputs)
  out <- list()
  each <- function(names, table) do.call(rbind, lapply(names, function(nm) { gc(FALSE); table(nm) }))
  if ("methods" %in% tables) {
    out$methods <- each(names(X), function(nm) demo_methods(nm, X[[nm]]))
    cat("\nm: draws (rand) or iterations (det); k: distinct columns of X in Y",
        "inf: max|Att(Y) - Att(X)| (the paper's metric); rel: max|Att(Y)/Att(X) - 1|",
        "baseline: rel of Y = 0 (uniform attention 1/n), the bar to beat",
        "spec_eps: smallest eps with (1-eps)XX' <= YY' <= (1+eps)XX'; bound: exp(2 spec_eps max G_ii) - 1 >= rel",
        "", sep = "\n")
  }
  if ("targets" %in% tables) {
    out$targets <- each(names(X), function(nm) demo_targets(nm, X[[nm]], quick))
    cat("\ntarget: the rel = max|Att(Y)/Att(X) - 1| asked for; k: columns of X in Y; rel: the exact rel of that Y",
        "leverage-iid: the paper's sampling (i.i.d. draws, leverage scores); norm-poisson, mixed-poisson: Poisson",
        "sampling, norm-squared or mixed probabilities; each at seed 1 with m = c n swept (c = 1/4 .. 8192, steps of",
        "about 1.4): the first m meeting the target (the one before it did not)",
        "target: attsparse_rand(X, rel = target, seed = 1): its sample checked against X X', shrunk while a smaller draw",
        "meets the target and calibrated to X's squared norm and its rows' when that lowers its error; with that sample's",
        "estimate of rel (rel_estimate, from Y alone)",
        "greedy: attsparse_greedy(X, rel = target): chosen with X X' known, its rel exact (a certificate)",
        "det: attsparse_det with eps swept from 0.9 down: the first eps meeting the target (m: its iterations)",
        "gaussian: Y = X G / sqrt(k), G Gaussian, k swept up to 16 n: k dense columns, not columns of X",
        "exact: the exact Gram and its Cholesky factor, k = n; \"-\": not met within the sweep",
        "time_s: seconds of the run shown (target: all its rounds and the estimate; gaussian: drawing G and X G)",
        "", sep = "\n")
  }
  if ("qkv" %in% tables) {
    out$qkv <- each(intersect(c("example", "ALL", "acq"), names(X)), function(nm)
      demo_qkv(nm, X[[nm]], V[[nm]], sets$values[sets$name == nm], quick))
    cat("\nrel: max|Att~/Att - 1| over Att = D^-1 exp(QK'); baseline: rel of the uniform attention",
        "spec_eps: spectral eps of the stacked [Q; K]; bound: exp(2 spec_eps max||q_i|| max||k_j||) - 1 >= rel",
        "out_rel: max over (i, l) of |(Att~ V - Att V)_il| / sum_j Att_ij |V_jl| (at most the bound)", "",
        sep = "\n")
  }
  out$files <- if (plots) demo_plots(outdir, X$example, out, quick) else character()
  invisible(out)
}

# Table 1, per input: the paper's algorithm (leverage scores, its default m), uniform and norm-squared sampling
# at the same m, and the deterministic algorithm at eps = 0.5.
demo_methods <- function(name, X) {
  lev <- attsparse_rand(X, seed = 1)
  res <- list("rand-leverage" = lev,
              "rand-uniform" = attsparse_rand(X, m = lev$m, seed = 1, probabilities = "uniform"),
              "rand-norm" = attsparse_rand(X, m = lev$m, seed = 1, probabilities = "norm"),
              det = attsparse_det(X, eps = 0.5))
  sparse <- inherits(X, "sparseMatrix")
  cat(sprintf("\n%s: %d x %d %s, nnz %.0f, r = max|XX'| = %.3g\n", name, nrow(X), ncol(X),
              if (sparse) "sparse" else "dense", if (sparse) length(X@x) else sum(X != 0), lev$r))
  rows <- data.frame(input = name, method = names(res), m = demo_field(res, "m"), k = demo_field(res, "k"),
                     inf = demo_field(res, "error"), rel = demo_field(res, "rel_error"),
                     baseline = demo_field(res, "baseline"), eps_spectral = demo_field(res, "eps_spectral"),
                     bound = demo_field(res, "bound"), time = demo_field(res, "time"))
  demo_print(rows, c(method = "%-14s", m = "%7d", k = "%6d", inf = "%10.3g", rel = "%8.3g%%", baseline = "%8.3g%%",
                     spec_eps = "%9.3g", bound = "%8.3g%%", time_s = "%8.3f"))
}

# Table 2, per input: the fewest columns for rel <= target, by method. A method with a size to choose (m, eps,
# a width) is swept until every target is met; one that takes the target itself runs once per target.
demo_targets <- function(name, X, quick = FALSE) {
  n <- nrow(X)
  targets <- c(0.05, 0.02, 0.01)
  cn <- if (quick) c(0.5, 2, 8, 32, 128) else sort(c(2^(-2:13), 3 * 2^(-3:11)))   # m = c n, c = 1/4 .. 8192
  eps <- if (quick) c(0.9, 0.5) else c(0.9, 0.7, 0.5, 0.35, 0.25, 0.18, 0.125, 0.09)
  sampled <- function(p, s) demo_fewest(ceiling(cn * n), targets, function(m)
    attsparse_rand(X, m = m, seed = 1, probabilities = p, sampling = s, estimate = FALSE, spectral = FALSE))
  seed <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv())
  on.exit(if (is.null(seed)) rm(".Random.seed", envir = globalenv()) else assign(".Random.seed", seed, globalenv()))
  set.seed(1)
  found <- list(
    "leverage-iid" = sampled("leverage", "iid"),
    "norm-poisson" = sampled("norm", "poisson"),
    "mixed-poisson" = sampled("mixed", "poisson"),
    target = lapply(targets, function(t) attsparse_rand(X, rel = t, seed = 1, spectral = FALSE)),
    greedy = lapply(targets, function(t) attsparse_greedy(X, rel = t, spectral = FALSE)),
    # each eps of the sweep about doubles det's iterations m: none after one with m n^2 > 1.5e7 (tens of seconds)
    det = demo_fewest(eps, targets, function(e) attsparse_det(X, eps = e, spectral = FALSE),
                      enough = function(res) res$m * n^2 > 1.5e7),
    gaussian = demo_fewest(ceiling(n * cn[cn <= 16]), targets, demo_gaussian(X)))
  base <- attention_error(X, X[, 0, drop = FALSE])$rel
  cat(sprintf("\n%s: fewest columns for rel <= target, %d x %d; Y = 0 (the uniform attention) has rel %.3g%%\n",
              name, n, ncol(X), 100 * base))
  for (t in targets[targets >= base])
    cat(sprintf("target %.3g%% is not below the rel of Y = 0 (%.3g%%): no column is needed for it\n", 100 * t,
                100 * base))
  rows <- lapply(seq_along(targets), function(i) lapply(names(found), function(me)
    demo_target_row(name, targets[i], me, found[[me]][[i]])))
  rows <- do.call(rbind, c(unlist(rows, recursive = FALSE), list(demo_target_row(name, NA, "exact", demo_exact(X)))))
  demo_print(rows, c(target = "%5.3g%%", method = "%-14s", k = "%6d", rel = "%8.3g%%", estimate = "%8.3g%%",
                     detail = "%-40s", time_s = "%8.3f"))
}

# A sweep: run(v) for each v in order until every target is met, or enough(result) says the next run would cost
# too much; per target, the first result with rel_error <= target, else the best one marked met = FALSE.
demo_fewest <- function(values, targets, run, enough = function(res) FALSE) {
  runs <- list()
  for (v in values) {
    runs[[length(runs) + 1]] <- res <- run(v)
    rel <- vapply(runs, function(r) r$rel_error, 0)
    if (min(rel) <= min(targets) || enough(res)) break
  }
  lapply(targets, function(t) if (any(rel <= t)) runs[[which(rel <= t)[1]]] else c(runs[[which.min(rel)]], met = FALSE))
}

# A row of the targets table: the run's k, exact rel, estimate (NA when it has none), what was run, its time.
demo_target_row <- function(input, target, method, res) {
  detail <- if (!is.null(res[["detail"]])) res[["detail"]]
            else if (identical(res$method, "deterministic")) sprintf("eps=%g, m=%d", res$eps, res$m)
            else if (identical(res$method, "greedy")) sprintf("rounds %d", res$rounds)
            else if (identical(res$method, "randomized") && isTRUE(res$rel_target > 0))   # the target mode
              sprintf("m=%d, picked %s %s, rounds %d", res$m, res$probabilities, res$sampling, res$rounds)
            else sprintf("m=%d", res$m)
  met <- is.null(res[["met"]])
  data.frame(input = input, target = target, method = method, k = if (met) res$k else NA,
             rel = if (met) res$rel_error else NA, estimate = if (met) demo_field(list(res), "rel_estimate") else NA,
             detail = if (met) detail else sprintf("not met; best %.3g%% at %s", 100 * res$rel_error, detail),
             time = res$time)
}

# Y = X G / sqrt(k), G a d x k matrix of normal numbers (R's generator), for growing k: the columns of X G not
# made yet (G drawn by blocks of 8192 rows); time: drawing G and X G up to k.
demo_gaussian <- function(X) {
  XG <- matrix(0, nrow(X), 0)
  time <- 0
  function(k) {
    t0 <- proc.time()[["elapsed"]]
    w <- k - ncol(XG)
    B <- matrix(0, nrow(X), w)
    for (j in seq(1, ncol(X), by = 8192)) {
      cols <- j:min(ncol(X), j + 8191)
      B <- B + as.matrix(X[, cols, drop = FALSE] %*% matrix(stats::rnorm(length(cols) * w), ncol = w))
    }
    XG <<- cbind(XG, B)
    time <<- time + proc.time()[["elapsed"]] - t0
    list(k = k, rel_error = attention_error(X, XG / sqrt(k))$rel, time = time, detail = sprintf("k=%d (dense)", k))
  }
}

# The exact reference: the Gram XX' and its Cholesky factor, k = n (a ridge of 1e-12 max G_ii keeps a
# rank-deficient Gram positive definite).
demo_exact <- function(X) {
  t0 <- proc.time()[["elapsed"]]
  G <- gram(X)
  L <- t(chol(G + diag(1e-12 * max(diag(G)), nrow(G))))
  time <- proc.time()[["elapsed"]] - t0
  list(k = nrow(X), rel_error = attention_error(X, L)$rel, time = time,
       detail = "exact Gram XX' and its Cholesky factor")
}

# Table 3: queries != keys, Q the odd rows of X, K its even rows, V the even rows of its values (generated when
# it has none); a row per m and probabilities.
demo_qkv <- function(name, X, V = NULL, what = "-", quick = FALSE) {
  Q <- X[seq(1, nrow(X), 2), , drop = FALSE]
  K <- X[seq(2, nrow(X), 2), , drop = FALSE]
  if (is.null(V)) {
    V <- attsparse_example(nrow(K), 3, r = 1, seed = 1)
    what <- sprintf("attsparse_example(%d, 3, r = 1, seed = 1)", nrow(K))
  } else V <- as.matrix(V)[seq(2, nrow(X), 2), , drop = FALSE]
  cat(sprintf("\n%s, queries != keys: Q = odd rows (%d x %d), K = even rows (%d), V = %s\n", name, nrow(Q), ncol(Q),
              nrow(K), what))
  grid <- expand.grid(p = c("leverage", "norm"), m = if (quick) c(250, 4000) else c(250, 1000, 4000, 16000),
                      stringsAsFactors = FALSE)
  res <- Map(function(m, p) attsparse_rand(Q, K = K, V = V, m = m, probabilities = p, seed = 1), grid$m, grid$p)
  rows <- data.frame(input = name, method = paste0("qk-", grid$p), m = grid$m, k = demo_field(res, "k"),
                     eps_spectral = demo_field(res, "eps_spectral"), rel = demo_field(res, "rel_error"),
                     bound = demo_field(res, "bound"), baseline = demo_field(res, "baseline"),
                     out_rel = demo_field(res, "out_rel_error"), time = demo_field(res, "time"))
  demo_print(rows, c(method = "%-12s", m = "%6d", k = "%6d", spec_eps = "%9.3g", rel = "%8.3g%%", bound = "%9.3g%%",
                     baseline = "%8.3g%%", out_rel = "%8.3g%%", time_s = "%8.3f"))
}

demo_field <- function(res, f) unname(vapply(res, function(r) if (is.null(r[[f]])) NA_real_ else as.numeric(r[[f]]), 0))
