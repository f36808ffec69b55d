## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_gram.m: the Gram matrix behind the metrics: attention_error on a weighted subset of columns against a plain Octave computation.

%!test
%! randn ("seed", 4); rand ("seed", 4);
%! X = 0.2 * sprandn (50, 2000, 0.05);
%! X(:, 1:20) = 0.2 * randn (50, 20);
%! [Y, err, info] = attsparse_rand (X, "m", 400, "seed", 7);
%! assert (isequal (Y, X(:, info.index) * spdiags (info.weight(:), 0, numel (info.weight), numel (info.weight))));
%! rel = max (max (abs (direct_attention (Y) ./ direct_attention (X) - 1)));
%! e = attention_error (X, Y);
%! assert (e.rel, rel, 1e-9 * max (rel, 1));
%! assert (info.rel_error, rel, 1e-9 * max (rel, 1));
%! assert (e.r, max (abs (full (X * X')(:))), 1e-12 * e.r);
