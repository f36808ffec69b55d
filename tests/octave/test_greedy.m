## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_greedy.m: attsparse_greedy and the "refit" option of attsparse_rand and attsparse_det, checked against plain Octave computations.

%!function check_greedy (X, Y, err, info, label)
%!  ## Y as index and weight say, and the exact metrics as computed here
%!  assert (info.method, "greedy");
%!  assert (all (diff (info.index) > 0) && all (info.weight > 0), "%s: index, weight", label);
%!  assert (issparse (Y), issparse (X));
%!  assert (full (Y), full (X(:, info.index)) .* info.weight');
%!  assert (info.k, columns (Y));
%!  Ax = direct_attention (X);
%!  if (columns (Y) == 0)
%!    Ay = ones (rows (X)) / rows (X);
%!  else
%!    Ay = direct_attention (Y);
%!  endif
%!  ## to 1e-9 relative, or 1e-12 where the error is at rounding level (every column kept)
%!  rel = max (abs (Ay(:) ./ Ax(:) - 1));
%!  assert (abs (info.rel_error - rel) <= 1e-9 * rel + 1e-12, "%s: rel_error %g, here %g", label, info.rel_error, rel);
%!  assert (abs (err - max (abs (Ay(:) - Ax(:)))) <= 1e-9 * err + 1e-14, "%s: err", label);
%!  assert (err, info.error);
%!endfunction

%!function X = greedy_input (kind)
%!  switch (kind)
%!    case "dense"
%!      X = attsparse_example (12, 1500, 0.5, 6);
%!    case "sparse"
%!      X = attsparse_example (10, 3000, 1, 7);
%!      X(abs (X) < quantile (abs (X(:)), 0.97)) = 0;
%!      X = sparse (X);
%!    case "rank_deficient"
%!      B = attsparse_example (6, 800, 0.5, 8);
%!      X = [B; B(1:3, :)];
%!    case "zero_columns"
%!      X = [attsparse_example(8, 300, 0.5, 9), zeros(8, 300)];
%!    case "d_below_n"
%!      X = attsparse_example (25, 10, 0.5, 10);
%!  endswitch
%!endfunction

## the target met, rel exact, on five kinds of input
%!test
%! for kind = {"dense", "sparse", "rank_deficient", "zero_columns", "d_below_n"}
%!   X = greedy_input (kind{1});
%!   for target = [0.05, 0.01]
%!     [Y, err, info] = attsparse_greedy (X, "rel", target);
%!     label = sprintf ("%s rel %g", kind{1}, target);
%!     check_greedy (X, Y, err, info, label);
%!     assert (info.rel_error <= target, "%s: rel_error %g", label, info.rel_error);
%!     assert (info.rel_target, target);
%!     assert (isnan (info.max_columns));
%!     if (strcmp (kind{1}, "zero_columns"))
%!       assert (all (info.index <= 300));
%!     endif
%!   endfor
%! endfor

## a budget: at most k columns; a budget twice as large gives a smaller rel on these inputs
%!test
%! for kind = {"dense", "sparse", "rank_deficient"}
%!   X = greedy_input (kind{1});
%!   rel = [];
%!   for k = [4, 8, 16, 32]
%!     [Y, err, info] = attsparse_greedy (X, "k", k);
%!     check_greedy (X, Y, err, info, sprintf ("%s k = %d", kind{1}, k));
%!     assert (info.k <= k && info.max_columns == k && isnan (info.rel_target));
%!     rel(end+1) = info.rel_error;
%!   endfor
%!   assert (all (diff (rel) < 0), "%s: %s", kind{1}, num2str (rel));
%! endfor

## a tiny X: Y = 0 meets the target
%!test
%! [Y, err, info] = attsparse_greedy (greedy_input ("dense") * 1e-6);
%! assert (size (Y), [12, 0]);
%! assert (info.rel_target, 0.01);
%! assert (info.rel_error, info.baseline);
%! assert (info.rel_error <= 0.01);

## a budget is never worse than Y = 0 nor than a smaller budget
## (wide and sparse, Zipf-like column counts, rows of norm 2: the same input in test-greedy.R)
%!test
%! n = 40; d = 4000;
%! [i, j] = ndgrid (1:n, 1:d);
%! h = mod (i * 7919 + j * 104729, 1009) / 1009;
%! keep = h < 0.5 ./ (1 + (j - 1) / 100);
%! X = sparse (i(keep), j(keep), 1 + h(keep), n, d);
%! X = spdiags (2 ./ sqrt (sum (X .^ 2, 2)), 0, n, n) * X;
%! ks = [1, 2, 5, 12, 50, 200];
%! rel = zeros (size (ks));
%! for t = 1:numel (ks)
%!   [Y, ~, info] = attsparse_greedy (X, "k", ks(t));
%!   assert (columns (Y) <= ks(t));
%!   assert (info.rel_error <= info.baseline);
%!   rel(t) = info.rel_error;
%! endfor
%! assert (all (diff (rel) <= 0), num2str (rel));
%! assert (rel(end) < 0.5 * info.baseline);

## large logits and columns repeated at other scales: the target is met (all 200 columns give rel 0);
## the same inputs in test-greedy.R
%!test
%! X0 = reshape (mod ((1:4000) * 7919, 1009) / 1009 - 0.5, 20, 200) * 1.04;
%! for X = {X0 * 2, [X0, 1e-3 * X0], [X0, 2 * X0]}
%!   [Y, ~, info] = attsparse_greedy (X{1}, "rel", 0.02);
%!   assert (info.rel_error <= 0.02);
%!   assert (columns (Y) <= 210);
%! endfor

## deterministic: the same bits on 1 and 2 threads, Octave's generator untouched
%!test
%! X = greedy_input ("sparse");
%! rand ("seed", 3);
%! s = rand ("seed");
%! [~, ~, a] = attsparse_greedy (X, "rel", 0.02, "threads", 1);
%! assert (rand ("seed"), s);
%! [~, ~, b] = attsparse_greedy (X, "rel", 0.02, "threads", 2);
%! assert (a.index, b.index);
%! assert (a.weight, b.weight);

## real inputs (build/demo/data, written by make demo-data, scaled as the demo scales them): 5%, 2%, 1%
%!testif ; data_present (fullfile ("build", "demo", "data", "crude.X.txt"), "make demo-data writes it")
%! addpath (fullfile (fileparts (which ("attsparse_demo")), "private"));
%! X = read_x_txt (fullfile ("build", "demo", "data", "crude.X.txt"));
%! X = X / sqrt (max (sum (X .^ 2, 2)));
%! k = [];
%! for target = [0.05, 0.02, 0.01]
%!   [Y, err, info] = attsparse_greedy (X, "rel", target);
%!   assert (info.rel_error <= target);
%!   k(end+1) = info.k;
%! endfor
%! check_greedy (X, Y, err, info, "crude");
%! assert (all (diff (k) > 0) && k(end) < columns (X) / 10, "k: %s", num2str (k));

%!testif ; data_present (fullfile ("build", "demo", "data", "lung.X.txt"), "make demo-data writes it")
%! addpath (fullfile (fileparts (which ("attsparse_demo")), "private"));
%! for name = {"acq", "golub", "lung"}
%!   X = read_x_txt (fullfile ("build", "demo", "data", [name{1} ".X.txt"]));
%!   X = X / sqrt (max (sum (X .^ 2, 2)));
%!   for target = [0.05, 0.02, 0.01]
%!     [Y, err, info] = attsparse_greedy (X, "rel", target);
%!     assert (info.rel_error <= target, "%s at %g: rel %g", name{1}, target, info.rel_error);
%!     assert (info.k < columns (X) / 10, "%s at %g: k = %d", name{1}, target, info.k);
%!   endfor
%! endfor

## refit: a norm-Poisson sample's rel lowered or kept, its columns reweighted, zero weights dropped
%!test
%! for kind = {"dense", "sparse"}
%!   X = greedy_input (kind{1});
%!   opts = {"m", 4 * rows(X), "probabilities", "norm", "sampling", "poisson", "seed", 3};
%!   [~, ~, plain] = attsparse_rand (X, opts{:});
%!   [Y, err, fit] = attsparse_rand (X, opts{:}, "refit", true);
%!   assert (fit.refit_rel, plain.rel_error, -1e-12);
%!   assert (fit.rel_error <= fit.refit_rel * (1 + 1e-12));
%!   assert (all (ismember (fit.index, plain.index)) && fit.k <= plain.k);
%!   assert (all (fit.weight > 0));
%!   assert (full (Y), full (X(:, fit.index)) .* fit.weight');
%!   Ax = direct_attention (X);
%!   assert (fit.rel_error, max (abs (direct_attention (Y)(:) ./ Ax(:) - 1)), -1e-9);
%!   assert (fit.estimate, "none");
%!   assert (isnan (fit.rel_estimate));
%!   assert (! isfield (plain, "refit_rel"));
%! endfor
%! X = greedy_input ("dense");
%! [~, ~, plain] = attsparse_det (X);
%! [~, ~, fit] = attsparse_det (X, "refit", true);
%! assert (fit.refit_rel, plain.rel_error, -1e-12);
%! assert (fit.rel_error <= fit.refit_rel * (1 + 1e-12));
%! assert (fit.eps_bound, plain.eps_bound);

%!error <'refit' fits the weights to X X'> attsparse_rand (attsparse_example (4, 50, 1, 1), "K", ones (2, 50), "refit", true)
%!error <'refit' needs X in memory> attsparse_rand (@(a, b) ones (4, b - a + 1) / 10, "ncol", 5000, "refit", true)
%!error <unknown option 'refit'> attsparse_greedy (attsparse_example (4, 50, 1, 1), "refit", true)

## Ctrl-C (SIGINT) in a child octave-cli 3 s into a long run (150 x 3000, 1%: about 2200 columns, 40 s on
## one thread): attsparse:interrupted within a second, and the session goes on
%!test
%! interrupt_call ("X = attsparse_example (150, 3000, 1, 3);",
%!                 "attsparse_greedy (X, 'rel', 0.01, 'threads', 1)", 3, "attsparse_greedy on 150 x 3000");

## refit of a sample that keeps no column: no column, rel that of Y = 0, as without the refit
%!test
%! cases = {{@attsparse_rand, sparse(20, 100), {"m", 10, "seed", 1}}, ...
%!          {@attsparse_rand, zeros(20, 100), {"m", 10, "seed", 1}}, ...
%!          {@attsparse_det, zeros(20, 100), {}}, ...
%!          {@attsparse_rand, attsparse_example(20, 2000, 0.5, 1), {"m", 1, "seed", 1, "sampling", "poisson"}}};
%! for t = 1:numel (cases)
%!   [f, X, opts] = cases{t}{:};
%!   [Y0, ~, plain] = f (X, opts{:});
%!   [Y, ~, fit] = f (X, opts{:}, "refit", true);
%!   assert (columns (Y0), 0);
%!   assert (size (Y), [20, 0]);
%!   assert (isempty (fit.index));
%!   assert (fit.refit_rel, plain.rel_error);
%!   assert (fit.rel_error, plain.rel_error);
%! endfor

## The weights of the kept columns are fitted to the largest error itself: on the columns the method
## keeps, its rel is within 20% of the exact rel of the weights that minimize the largest row-centred
## error (a linear program solved by Octave's glpk, independent of the package), over 6 seeds and two
## budgets (the least-squares fit alone: up to 41% above it)
%!function [w, rel] = minimax_lp (X, S)
%!  n = rows (X);
%!  k = numel (S);
%!  G = X * X';
%!  A = direct_attention (X);
%!  XS = full (X(:, S));
%!  AL = A * XS;
%!  P = zeros (n * n, k);
%!  for a = 1:k
%!    P(:, a) = reshape (XS(:, a) .* (XS(:, a)' - AL(:, a)), [], 1);   # the row-centred x_a x_a'
%!  endfor
%!  b = reshape (G - sum (A .* G, 2), [], 1);
%!  ## min t over w >= 0: |b - P w| <= t entrywise
%!  x = glpk ([zeros(k, 1); 1], [-P, -ones(n * n, 1); P, -ones(n * n, 1)], [-b; b], zeros (k + 1, 1), ...
%!            Inf (k + 1, 1), repmat ("U", 1, 2 * n * n), repmat ("C", 1, k + 1), 1, struct ("msglev", 0));
%!  w = x(1:k);
%!  Ay = direct_attention (XS .* sqrt (w'));
%!  rel = max (abs (Ay(:) ./ A(:) - 1));
%!endfunction
%!test
%! for seed = 1:6
%!   X = attsparse_example (16, 400, 1, seed);
%!   for budget = [10 25]
%!     [Y, err, info] = attsparse_greedy (X, "k", budget);
%!     check_greedy (X, Y, err, info, sprintf ("seed %d, k %d", seed, budget));
%!     [~, lp] = minimax_lp (X, info.index);
%!     assert (info.rel_error <= 1.2 * lp, "seed %d, k %d: rel %.4g, the minimax LP's weights %.4g", ...
%!             seed, budget, info.rel_error, lp);
%!   endfor
%! endfor

%!test
%! ## approach "sample": the heavy columns exact, the rest drawn and refitted; the exact rel met, the heavy
%! ## columns kept at weight 1, the same on 1 thread, fewer columns than the randomized target mode
%! n = 30; d = 8000;
%! rand ("seed", 3);
%! p = 0.5 ./ (1 + (0:d-1) / 300);
%! X = sparse ((rand (n, d) < p) .* (1 + rand (n, d)));
%! X = 2 * X / sqrt (max (sum (X .^ 2, 2)));
%! heavy = find (full (sum (X != 0, 1)) >= ceil (n / 4));
%! for target = [0.05 0.02]
%!   label = sprintf ("sample path %g", target);
%!   [Y, err, info] = attsparse_greedy (X, "rel", target, "approach", "sample", "seed", 4);
%!   check_greedy (X, Y, err, info, label);
%!   assert (info.approach, "sample");
%!   assert (info.rel_error <= target, "%s: rel %g", label, info.rel_error);
%!   [tf, at] = ismember (heavy, info.index);
%!   assert (any (tf) && all (info.weight(at(tf)) == 1), "%s: heavy columns", label);
%!   [~, ~, one] = attsparse_greedy (X, "rel", target, "approach", "sample", "seed", 4, "threads", 1);
%!   assert (one.index, info.index);
%!   assert (one.weight, info.weight);
%!   [~, ~, r] = attsparse_rand (X, "rel", target, "seed", 4, "error", false);
%!   assert (info.k < r.k, "%s: %d columns, the target mode %d", label, info.k, r.k);
%! endfor
%! [~, ~, auto] = attsparse_greedy (X, "rel", 0.05);
%! assert (auto.approach, "rounds");
%!error <not a budget> attsparse_greedy (sparse (ones (3, 10)), "k", 2, "approach", "sample")

## "minimax": the rows up to which the weights are fitted to the largest error
## itself (default 90); 100 rows fit without it by default
%!test
%! X = attsparse_example (100, 2000, 0.05, 1);
%! [~, ~, plain] = attsparse_greedy (X, "rel", 0.01);
%! [~, ~, fitted] = attsparse_greedy (X, "rel", 0.01, "minimax", 100);
%! assert (max (plain.rel_error, fitted.rel_error) <= 0.01);
%! assert (fitted.k < plain.k, "minimax 100: %d columns, default %d", fitted.k, plain.k);
%! X60 = attsparse_example (60, 2000, 0.05, 1);
%! [~, ~, dflt] = attsparse_greedy (X60, "rel", 0.01);
%! [~, ~, never] = attsparse_greedy (X60, "rel", 0.01, "minimax", 0);
%! assert (never.rel_error <= 0.01 && never.k > dflt.k);
%!error <minimax> attsparse_greedy (attsparse_example (20, 200, 0.05, 1), "minimax", -1)

%!test
%! ## every column at weight 1 (Y = X) meets any target: the rounds end there when they keep every
%! ## column; about two candidate columns (a Poisson draw) cannot, and the warning says so
%! X = attsparse_example (3, 5, 1, 3);
%! lastwarn ("");
%! [Y, err, info] = attsparse_greedy (X, "rel", 1e-15);
%! assert (info.rel_error <= 1e-15);
%! assert (isempty (lastwarn ()));
%! check_greedy (X, Y, err, info, "every column");
%! [Y, err, info] = attsparse_greedy (X, "rel", 1e-15, "candidates", 2, "seed", 1);
%! assert (info.rel_error > 1e-15 && info.k < columns (X));
%! assert (! isempty (strfind (lastwarn (), "was not met")));
