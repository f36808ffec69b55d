## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_det.m: attsparse_det checked against plain Octave computations, and stopped by Ctrl-C.

## check_bss_barriers.m (tests/octave): the BSS barrier argument recomputed from Y.

%!function check_det (X, epsilon, varargin)
%!  ## the BSS guarantee, Y made of rescaled columns, metrics as computed here
%!  [Y, err, info] = attsparse_det (X, "eps", epsilon, varargin{:});
%!  check_sample (X, Y, info);
%!  e = direct_spectral_eps (X, Y);
%!  assert (e <= info.eps_bound + 1e-9, "spectral eps %g above the bound %g", e, info.eps_bound);
%!  assert (info.eps_bound <= epsilon + 1e-12);
%!  assert (info.eps_spectral, e, 1e-8);
%!  ## the budget field: b's barriers end at 2 sqrt(b) / (b + 1) = eps
%!  assert (2 * sqrt (info.b) / (info.b + 1), epsilon, 1e-12);
%!  assert (info.rank, rank (full (X)));
%!  check_bss_barriers (X, Y, info, epsilon);
%!  Ax = direct_attention (X);
%!  Ay = direct_attention (Y);
%!  assert (err, max (abs (Ay(:) - Ax(:))), -1e-12);
%!  assert (info.rel_error, max (abs (Ay(:) ./ Ax(:) - 1)), -1e-12);
%!  assert (info.rel_error <= info.bound);
%!endfunction

## dense, sparse, rank-deficient, d < n, several eps
%!test
%! X = attsparse_example (8, 600, 1, 1);
%! for epsilon = [0.3, 0.5, 0.8]
%!   check_det (X, epsilon);
%! endfor

%!test
%! X = attsparse_example (10, 900, 2, 2);
%! X(abs (X) < quantile (abs (X(:)), 0.85)) = 0;
%! check_det (sparse (X), 0.5);
%! check_det (sparse (X), 0.5, "search", "scan");
%! check_det (sparse (X), 0.5, "leaf", 7);
%! check_det (sparse (X), 0.5, "memory", 1);

%!test
%! B = attsparse_example (4, 500, 1, 3);
%! check_det ([B; B(1, :) - B(4, :); 3 * B(2, :)], 0.5);    # rank 4 of 6
%! check_det (attsparse_example (20, 8, 1, 4), 0.5);         # d < n
%! X = attsparse_example (6, 300, 1, 5);
%! X(:, 2:3:end) = 0;                                        # zero columns
%! [~, ~, info] = attsparse_det (X);
%! assert (all (mod (info.index, 3) != 2));

## deterministic: the same result every time, whatever the thread count
%!test
%! X = sparse (attsparse_example (8, 700, 1, 6) .* (mod (1:700, 3) == 0));
%! [Y1, e1, i1] = attsparse_det (X, "threads", 1);
%! [Y2, e2, i2] = attsparse_det (X, "threads", 2);
%! [Y3, e3, i3] = attsparse_det (X);
%! assert (isequal (Y1, Y2, Y3) && isequal (i1.index, i2.index, i3.index));
%! assert (isequal (i1.weight, i2.weight, i3.weight) && isequal (e1, e2, e3));

## all-zero X: the empty Y is exact
%!test
%! [Y, err, info] = attsparse_det (sparse (5, 40));
%! assert (issparse (Y) && isequal (size (Y), [5, 0]));
%! assert ([err, info.k, info.rank], [0, 0, 0]);

## verbose progress, and no output without it
%!test
%! X = attsparse_example (5, 300, 1, 7);
%! out = evalc ('attsparse_det (X, "verbose", true, "error", false);');
%! assert (! isempty (strfind (out, "det:")));
%! assert (isempty (evalc ('attsparse_det (X, "error", false);')));

## two stages: the first is attsparse_rand with the same draws and seed; its eps e1 measured by
## eig, the certified e2, and the composed bound (1-e1)(1-e2) <= Y Y' / X X' <= (1+e1)(1+e2)
%!function check_presample (X, epsilon, draws, seed)
%!  [Y, err, info] = attsparse_det (X, "eps", epsilon, "presample", draws, "seed", seed);
%!  n = rows (X);
%!  if (islogical (draws))
%!    m1 = max (ceil (8 * n * log (n)), 2 * n);
%!  else
%!    m1 = draws;
%!  endif
%!  [Y1, ~, i1] = attsparse_rand (X, "m", m1, "seed", seed, "error", false);
%!  assert (info.presample_k, i1.k);
%!  assert (all (ismember (info.index, i1.index)));
%!  assert (info.seed, seed);
%!  e1 = direct_spectral_eps (X, Y1);
%!  assert (info.presample_eps, e1, 1e-8);
%!  e2 = info.eps_bound;
%!  assert (e2 <= epsilon * (1 + 1e-12));
%!  assert (info.eps_composed, (1 + e1) * (1 + e2) - 1, 1e-8);
%!  [~, mu] = direct_spectral_eps (X, Y);
%!  assert (min (mu) >= (1 - e1) * (1 - e2) - 1e-9 && max (mu) <= (1 + e1) * (1 + e2) + 1e-9);
%!  assert (direct_spectral_eps (Y1, Y) <= e2 + 1e-9);
%!  assert (info.k <= info.max_columns);
%!endfunction

%!test
%! X = attsparse_example (20, 5000, 1, 8);
%! S = sparse (X .* (abs (X) > 0.02));
%! for seed = 1:3
%!   check_presample (X, 0.5, true, seed);
%!   check_presample (S, 0.5, 600, seed);
%! endfor
%! check_presample (X, 0.3, 1500, 4);

## two stages: the seed from rand (), no first-stage eps without the error metrics
%!test
%! X = attsparse_example (10, 2000, 1, 6);
%! rand ("seed", 5); [~, ~, a] = attsparse_det (X, "presample", true);
%! rand ("seed", 5); [~, ~, b] = attsparse_det (X, "presample", true);
%! assert (isequal (a.index, b.index) && isequal (a.weight, b.weight) && a.seed == b.seed);
%! [~, err, c] = attsparse_det (X, "presample", 400, "seed", 2, "error", false);
%! assert (isnan (err) && isnan (c.presample_eps) && isnan (c.eps_composed) && c.presample_k > 0);
%! [~, ~, d] = attsparse_det (X, "presample", false);
%! [~, ~, e] = attsparse_det (X);
%! assert (isequal (d.index, e.index) && ! isfield (d, "presample_k"));

## bad input to attsparse_det: docs/bad-input.md, run by test_badinput.m

## Ctrl-C: a long run in a child octave-cli gets SIGINT once its main loop
## has started (its first progress line); it must stop within a second with
## attsparse:interrupted, and the session must go on (the next statements run).
%!testif ; ! system ("command -v octave-cli >/dev/null")
%! [out, latency] = interrupt_child ({
%!   "X = attsparse_example (150, 20000, 0.05, 1);", ...
%!   "try", " attsparse_det (X, 'error', false, 'verbose', true);", " disp ('finished');", ...
%!   "catch err", " printf ('%s at %.3f\\n', err.identifier, time ());", "end", ...
%!   "[~, ~, info] = attsparse_rand (X(:, 1:500), 'seed', 1);", ...
%!   "printf ('alive %d\\n', info.k > 0);"}, "det: iteration", 0);
%! assert (latency < 1, "stopped %.2f s after Ctrl-C: %s", latency, out);
%! printf ("attsparse_det stopped %.3f s after Ctrl-C\n", latency);
%! assert (! isempty (strfind (out, "alive 1")), "session not usable after the interrupt: %s", out);

## Ctrl-C on 1500 rows: X X', its eigendecomposition (dsyevd's steps, a poll
## between them) and the first steps; within a second.
%!testif ; ! system ("command -v octave-cli >/dev/null")
%! interrupt_call ("randn ('seed', 1); X = 0.01 * randn (1500, 3000);",
%!                 "attsparse_det (X, 'error', false, 'threads', 1)", 1.5, "attsparse_det on 1500 rows");
