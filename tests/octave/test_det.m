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
