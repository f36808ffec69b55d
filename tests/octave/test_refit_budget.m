## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_refit_budget.m: refit = true without the metrics still gives the exact rel of its weights; a greedy budget k above what X lets a run keep is the budget of what it can keep.

%!test
%! rand ("seed", 1); randn ("seed", 1);
%! X = randn (20, 200) * 0.3;
%! runs = {@(varargin) nthargout(3, @attsparse_rand, X, "m", 40, "seed", 2, "refit", true, varargin{:}), ...
%!         @(varargin) nthargout(3, @attsparse_det, X, "eps", 0.9, "refit", true, varargin{:})};
%! for r = 1:numel (runs)
%!   off = runs{r}("error", false);
%!   on = runs{r}();
%!   assert (off.index, on.index);
%!   assert (off.weight, on.weight);
%!   assert (off.rel_error, on.rel_error);
%!   Y = X(:, off.index) .* off.weight';
%!   assert (off.rel_error, getfield (attention_error (X, Y), "rel"), 1e-10 * max (1, off.rel_error));
%!   assert (isfinite (off.refit_rel) && off.rel_error <= off.refit_rel);
%!   assert (isnan (off.error) && isnan (off.r) && isnan (off.eps_spectral));
%! endfor
%! [~, ~, plain] = attsparse_rand (X, "m", 40, "seed", 2, "error", false);
%! assert (isnan (plain.rel_error));

%!test
%! rand ("seed", 1); randn ("seed", 1);
%! X = randn (20, 100) * 0.3;
%! [~, ~, big] = attsparse_greedy (X, "k", 1e5);
%! [~, ~, all] = attsparse_greedy (X, "k", 100);
%! assert (big.max_columns, 100);
%! assert (big.index, all.index);
%! assert (big.weight, all.weight);
%! ## 3 rows: Y Y' lives in the 6-dimensional symmetric 3 x 3 matrices
%! [~, ~, top] = attsparse_greedy (X(1:3, :), "k", 2147483647);
%! [~, ~, six] = attsparse_greedy (X(1:3, :), "k", 6);
%! assert (top.max_columns, 6);
%! assert (top.k <= 6);
%! assert (top.index, six.index);
%! assert (top.weight, six.weight);
%! [~, ~, seven] = attsparse_greedy (X, "k", 7);
%! assert (seven.max_columns, 7);

## refit = true on a sample of thousands of columns (12611 kept: the k x k normal equations would take
## 6 GB): refitted without them, rel at most half the sample's own; Ctrl-C 1.5 s into the refit of
## m = 40000 (about 3.5 s) stops it within a second and the session goes on
%!test
%! randn ("seed", 1);
%! X = randn (200, 20000) * 0.012;
%! [~, ~, plain] = attsparse_rand (X, "m", 20000, "seed", 1, "threads", 1);
%! [~, ~, fit] = attsparse_rand (X, "m", 20000, "seed", 1, "threads", 1, "refit", true, "memory", 500);
%! assert (fit.refit_rel, plain.rel_error);
%! assert (fit.rel_error < 0.5 * plain.rel_error);
%! assert (fit.k > 10000 && all (ismember (fit.index, plain.index)));
%! ## Ctrl-C 1.5 s into the refit of twice as many columns (the call above can end before the signal)
%! interrupt_call ("randn ('seed', 1); X = randn (200, 40000) * 0.012;",
%!                 "attsparse_rand (X, 'm', 40000, 'seed', 1, 'refit', true, 'threads', 1)", 1.5,
%!                 "the refit of attsparse_rand, m = 40000");

## greedy: 'memory' is checked against the most a run allocates (the arrays never grow past the budget),
## and a cap that binds midway in target mode names 'memory' (the best found with a warning, or a refusal)
%!test
%! randn ("seed", 1);
%! X = randn (60, 3000) * 0.05;
%! try
%!   attsparse_greedy (X, "k", 300, "memory", 0.01);
%!   error ("not refused");
%! catch err
%!   tok = regexp (err.message, "up to 300 columns kept\\): ([0-9.]+) MiB of working arrays, above 'memory'", "tokens", "once");
%!   assert (! isempty (tok), err.message);
%! end_try_catch
%! need = str2double (tok{1});
%! [~, ~, r] = attsparse_greedy (X, "k", 300, "memory", need + 0.01);
%! assert (r.k <= 300 && r.k > 100);
%! lastwarn ("");
%! try
%!   attsparse_greedy (X, "rel", 0.01, "memory", need + 0.01);
%!   msg = lastwarn ();
%! catch err
%!   msg = err.message;
%! end_try_catch
%! assert (! isempty (strfind (msg, "'memory'")), msg);
