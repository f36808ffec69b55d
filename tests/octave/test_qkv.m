## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_qkv.m: Q != K and values V from Octave: the sample of [Q; K] and its metrics against plain Octave, the bound over seeds (random and real inputs), K = Q, bad inputs, the shared fixture written by R.

%!function A = att_qk (Q, K)
%!  L = full (Q * K');
%!  E = exp (L - max (L, [], 2));
%!  A = E ./ sum (E, 2);
%!endfunction

%!function check_metrics (info, Y, Q, K, V)
%!  A = att_qk (Q, K);
%!  Ah = att_qk (Y, info.YK);
%!  assert (info.rel_error, max (abs (Ah ./ A - 1)(:)), 1e-9 * info.rel_error);
%!  assert (info.error, max (abs (Ah - A)(:)), 1e-9 * info.error);
%!  assert (info.baseline, max (abs ((1 / rows (K)) ./ A - 1)(:)), 1e-9 * info.baseline);
%!  assert (info.eps_spectral, direct_spectral_eps ([Q; K], [Y; info.YK]), 1e-6);
%!  nq = sqrt (max (sum (Q .^ 2, 2)));  nk = sqrt (max (sum (K .^ 2, 2)));
%!  assert (info.bound, expm1 (2 * info.eps_spectral * nq * nk), 1e-6 * info.bound);
%!  if (nargin > 4)
%!    D = abs (Ah * V - A * V);
%!    assert (info.out_error, max (D(:)), 1e-9 * info.out_error);
%!    assert (info.out_rel_error, max ((D ./ (A * abs (V)))(:)), 1e-9 * info.out_rel_error);
%!  endif
%!endfunction

%!function check_bound (Q, K, V, m, seeds)
%!  for s = seeds
%!    [~, ~, info] = attsparse_rand (Q, "K", K, "V", V, "m", m, "seed", s);
%!    assert (info.eps_spectral > 0);
%!    assert (info.rel_error <= info.bound);
%!    assert (info.out_rel_error <= info.bound);
%!  endfor
%!endfunction

%!test
%! randn ("state", 2);
%! Q = randn (12, 600) * 0.04;
%! K = sprandn (15, 600, 0.3) * 0.06;
%! V = randn (15, 4);
%! [Y, err, info] = attsparse_rand (Q, "m", 300, "seed", 3, "K", K, "V", V);
%! assert (Y, Q(:, info.index) .* info.weight', 1e-15);
%! assert (issparse (info.YK));
%! assert (full (info.YK), full (K(:, info.index)) .* info.weight', 1e-15);
%! assert (err, info.error);
%! check_metrics (info, Y, Q, K, V);
%! [Y, ~, info] = attsparse_det (Q, "eps", 0.6, "K", K, "V", V);
%! check_metrics (info, Y, Q, K, V);
%! assert (info.eps_spectral <= info.eps_bound + 1e-9);
%! assert (info.rel_error <= info.bound && info.out_rel_error <= info.bound);
%! [Y, ~, info] = attsparse_rand (Q, "m", 300, "seed", 3, "K", K, "sampling", "poisson", "probabilities", "mixed");
%! check_metrics (info, Y, Q, K);
%! assert (isnan (info.out_error));

## mixed sparse/dense: the same sample as the other way round
%!test
%! randn ("state", 4);  rand ("state", 4);
%! Q = sprandn (10, 800, 0.2) * 0.1;
%! K = randn (8, 800) * 0.03;
%! [~, ~, a] = attsparse_rand (Q, "m", 200, "seed", 5, "K", K);
%! [~, ~, b] = attsparse_rand (full (Q), "m", 200, "seed", 5, "K", sparse (K));
%! assert (a.index, b.index);
%! assert (a.weight, b.weight);

## K = Q: norm products sample as squared norms; the metrics are the symmetric ones
%!test
%! X = attsparse_example (20, 1500, 0.5, 6);
%! for s = 1:3
%!   [~, ~, a] = attsparse_rand (X, "m", 200, "seed", s, "probabilities", "norm");
%!   [~, ~, b] = attsparse_rand (X, "m", 200, "seed", s, "probabilities", "norm", "K", X);
%!   assert (b.index, a.index);
%!   assert (b.weight, a.weight);
%!   assert (b.rel_error, a.rel_error, 1e-12 * a.rel_error);
%!   assert (b.eps_spectral, a.eps_spectral, 1e-8);
%! endfor

## V without K: the symmetric sample, out_error added
%!test
%! X = attsparse_example (15, 900, 0.5, 7);
%! V = randn (15, 2);
%! [~, ~, a] = attsparse_rand (X, "seed", 8);
%! [Y, ~, b] = attsparse_rand (X, "seed", 8, "V", V);
%! assert (b.index, a.index);
%! assert (b.weight, a.weight);
%! assert (b.rel_error, a.rel_error);
%! assert (! isfield (b, "YK"));
%! D = abs (sym_attention (Y) * V - sym_attention (X) * V);
%! assert (b.out_error, max (D(:)), 1e-9 * b.out_error);

%!test
%! randn ("state", 9);
%! Q = randn (20, 3000);  Q = Q / sqrt (max (sum (Q .^ 2, 2)));
%! K = randn (20, 3000);  K = K / sqrt (max (sum (K .^ 2, 2)));
%! check_bound (Q, K, randn (20, 2), 400, 1:5);

## dense Q and K large enough for BLAS: attention and the metrics against Q * K'
%!test
%! randn ("seed", 5);
%! Q = randn (60, 3000) / 60;  K = randn (50, 3000) / 60;  V = randn (50, 2);
%! L = Q * K';
%! E = exp (L - max (L, [], 2));
%! assert (attention (Q, K), E ./ sum (E, 2), 1e-13);
%! assert (attention (Q, K, V), (E ./ sum (E, 2)) * V, 1e-13);
%! [Y, ~, info] = attsparse_rand (Q, "K", K, "V", V, "seed", 2);
%! check_metrics (info, Y, Q, K, V);

## the stacked Grams of the error estimate and of the error metrics count against "memory"
%!test
%! randn ("seed", 6);
%! Q = randn (150, 400) / 20;  K = randn (150, 400) / 20;
%! mib = 24 * 300^2 / 2^20;
%! opts = {"K", K, "probabilities", "norm", "m", 200, "seed", 1};
%! try
%!   attsparse_rand (Q, opts{:}, "memory", mib / 2);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attsparse:tooBig");
%!   assert (! isempty (regexp (err.message, "the error estimate needs 3 n x n arrays .* above 'memory' = ", "once")), err.message);
%! end_try_catch
%! ## so do the Grams of the error metrics
%! try
%!   attsparse_rand (Q, opts{:}, "memory", mib / 2, "estimate", false);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attsparse:tooBig");
%!   assert (! isempty (regexp (err.message, "the error metrics of Att\\(X, K\\) need the Grams of \\[X; K\\] and of its sample .* above 'memory' = ", "once")), err.message);
%! end_try_catch
%! [~, ~, info] = attsparse_rand (Q, opts{:}, "memory", mib / 2, "estimate", false, "error", false);
%! assert (isnan (info.rel_estimate) && isnan (info.rel_error));
%! [~, ~, info] = attsparse_rand (Q, opts{:}, "memory", 1.2 * mib);
%! assert (info.rel_estimate > 0);

## real inputs (build/demo/data, written by make demo-data): two halves of the
## documents of acq, the samples of ALL
## (missing: the test is counted as skipped, with the reason printed)
%!testif ; data_present (fullfile ("build", "demo", "data", "acq.X.txt"), "make demo-data writes it")
%! f = fullfile ("build", "demo", "data", "acq.X.txt");
%! addpath (fullfile (fileparts (which ("attsparse_demo")), "private"));
%! X = read_x_txt (f);
%! X = X / sqrt (max (sum (X .^ 2, 2)));
%! h = 1:floor (rows (X) / 2);
%! check_bound (X(h, :), X(h(end)+1:end, :), randn (rows (X) - h(end), 3), 2000, 1:3);
%!testif ; data_present (fullfile ("build", "demo", "data", "ALL.X.txt"), "make demo-data writes it")
%! f = fullfile ("build", "demo", "data", "ALL.X.txt");
%! addpath (fullfile (fileparts (which ("attsparse_demo")), "private"));
%! X = read_x_txt (f);
%! X = X / sqrt (max (sum (X .^ 2, 2)));
%! h = 1:2:rows (X);  o = 2:2:rows (X);
%! check_bound (X(h, :), X(o, :), randn (numel (o), 2), 3000, 1:2);

## the shared case written by R (tests/cross/qkv_case.R): the same index and weights, bit for bit
%!testif ; data_present (fullfile (merge (isempty (getenv ("ATTSPARSE_FIXTURES")), fullfile ("tests", "fixtures"), getenv ("ATTSPARSE_FIXTURES")), "qkv_rand.out"), "tests/cross/make-qkv-fixture.R writes it")
%! d = getenv ("ATTSPARSE_FIXTURES");
%! if (isempty (d))
%!   d = fullfile ("tests", "fixtures");
%! endif
%! f = fullfile (d, "qkv_rand.out");
%! X = attsparse_example (25, 2000, 0.5, 3);
%! Q = X(1:10, :);
%! Q(abs (Q) < 0.01) = 0;
%! [~, ~, info] = attsparse_rand (sparse (Q), "m", 150, "seed", 11, "K", X(11:25, :),
%!                                "V", attsparse_example (15, 4, 1, 4));
%! txt = fileread (f);
%! T = reshape (sscanf (txt(1:regexp (txt, '\nerror', "once")), "%f"), 2, []);
%! assert (info.index, T(1, :)');
%! assert (info.weight, T(2, :)', -1e-13);   # the host's BLAS: last bits
%! val = @(key) str2double (regexp (txt, ['\n' key ' (\S+)'], "tokens", "once"){1});
%! assert (info.rel_error, val ("rel_error"), 1e-12 * info.rel_error);
%! assert (info.out_error, val ("out_error"), 1e-12 * info.out_error);
%! assert (info.out_rel_error, val ("out_rel_error"), 1e-12 * info.out_rel_error);
%! assert (info.eps_spectral, val ("eps_spectral"), 1e-10);

%!error <attsparse_rand: K must have as many columns as X> attsparse_rand (ones (3, 5), "K", ones (2, 4))
%!error <attsparse_det: K must have as many columns as X> attsparse_det (ones (3, 5), "K", ones (2, 4))
%!error <V must have as many rows as K \(n2 = 2\)> attsparse_rand (ones (3, 5), "K", ones (2, 5), "V", ones (3, 1))
%!error <V must have as many rows as X \(n2 = 3\)> attsparse_rand (ones (3, 5), "V", ones (2, 1))
%!error <V holds a NaN or infinite value \(row 2, column 1\)> attsparse_rand (ones (3, 5), "K", ones (2, 5), "V", [1; NaN])
%!error <V must be a real matrix \(full or sparse double\), got a 2x1 complex double> attsparse_rand (ones (3, 5), "K", ones (2, 5), "V", [1i; 1])

## V sparse or a row vector: its values as a full matrix (a row vector is one column, as R's plain
## vector), in attention and in the sketches; a row with one key stays a row
%!test
%! X = attsparse_example (6, 50, 1, 1);
%! V = [1 0 0; 0 2 0; 0 0 3; 4 0 0; 0 5 0; 0 0 6];
%! assert (isequal (attention (X, X, sparse (V)), attention (X, X, V)));
%! assert (isequal (attention (X, X, V(:, 2)'), attention (X, X, V(:, 2))));
%! assert (size (attention (X, X(1, :), [1 2 3])), [6 3]);
%! [~, ~, a] = attsparse_rand (X, "V", sparse (V), "m", 30, "seed", 2);
%! [~, ~, b] = attsparse_rand (X, "V", V, "m", 30, "seed", 2);
%! assert ([a.out_error a.out_rel_error], [b.out_error b.out_rel_error]);
%! [~, ~, a] = attsparse_det (X, "K", X(1:3, :), "V", [1 2 3]);
%! [~, ~, b] = attsparse_det (X, "K", X(1:3, :), "V", [1; 2; 3]);
%! assert ([a.out_error a.out_rel_error], [b.out_error b.out_rel_error]);

## a figure that overflows to Inf comes with the core's warning
%!warning <attsparse_rand: the error of Att V overflows to Inf: V has entries above half the largest double>
%! X = attsparse_example (4, 50, 1, 20);
%! attsparse_rand (X, "K", X(1:2, :), "V", [realmax; realmax], "seed", 1);
%!warning <attsparse_rand: the estimated relative attention error overflows to Inf>
%! attsparse_rand (100 * attsparse_example (4, 50, 1, 20), "seed", 1, "m", 200, "error", false);
%!error <K: column 2 holds a NaN> attsparse_rand (ones (3, 5), "K", [1 NaN 1 1 1; 1 1 1 1 1])
%!error <K must be a real matrix> attsparse_rand (ones (3, 5), "K", {1})
%!error <option 'K' is given twice> attsparse_rand (ones (3, 5), "K", ones (2, 5), "K", ones (2, 5))
