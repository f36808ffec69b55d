## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_workflow.m: options as one struct, the preparation carried by a result, attsparse_apply on new rows (det's guarantee on rows in the span of X's).

%!shared X
%! X = attsparse_example (10, 600, 0.5, 4);

%!test
%! ## a struct of options is the same call as its name/value pairs, alone or with pairs
%! [Y1, e1, i1] = attsparse_rand (X, "rel", 0.05, "seed", 3);
%! [Y2, e2, i2] = attsparse_rand (X, struct ("rel", 0.05, "seed", 3));
%! [Y3, e3, i3] = attsparse_rand (X, struct ("rel", 0.05), "seed", 3);
%! assert (isequal (Y1, Y2, Y3) && isequal (i1.index, i2.index, i3.index));
%! [~, ~, g1] = attsparse_greedy (X, "k", 5);
%! [~, ~, g2] = attsparse_greedy (X, struct ("k", 5));
%! assert (isequal (g1.index, g2.index) && isequal (g1.weight, g2.weight));
%! [~, ~, d1] = attsparse_det (X, "eps", 0.6);
%! [~, ~, d2] = attsparse_det (X, struct ("eps", 0.6));
%! assert (isequal (d1.index, d2.index));

%!error <option 'seed' is given twice> attsparse_rand (X, struct ("seed", 1), "seed", 2)
%!error <unknown option 'foo'> attsparse_det (X, struct ("foo", 1))
%!error <'prepare' must be the second output of attsparse_prepare> attsparse_greedy (X, "prepare", 3)

%!test
%! ## new rows in the span of X's rows: det's spectral eps holds for X and them stacked
%! [Y, ~, info] = attsparse_det (X, "eps", 0.5);
%! randn ("seed", 7);
%! Z = randn (5, rows (X)) * X;
%! XZ = [X; Z];
%! YZ = [Y; attsparse_apply(info, Z)];
%! e = attention_error (XZ, YZ, "spectral", true);
%! e0 = attention_error (X, Y, "spectral", true);
%! assert (e.eps_spectral <= 0.5);
%! assert (e.eps_spectral <= e0.eps_spectral + 1e-8);
%! assert (e.rel <= exp (2 * e.eps_spectral * max (sum (XZ .^ 2, 2))) - 1);
%! ## and the attention of the stacked rows from a plain softmax agrees with attention_error
%! rel = max (abs (direct_attention (YZ) ./ direct_attention (XZ) - 1)(:));
%! assert (e.rel, rel, 1e-9);

%!test
%! ## the greedy method: the kept columns and weights applied, with the stored preparation
%! W = 3 * X + 0.5;
%! [P, prep] = attsparse_prepare (W, "center", true);
%! [Y, ~, info] = attsparse_greedy (P, struct ("rel", 0.05, "prepare", prep));
%! randn ("seed", 2);
%! Z = randn (4, columns (W));
%! want = ((Z(:, info.index) - mean (W(:, info.index), 1)) / prep.divisor) * diag (info.weight);
%! assert (attsparse_apply (info, Z), want, 1e-13);
%! assert (attsparse_apply (info, W), Y, 1e-14);
%! assert (! isempty (strfind (attsparse_print (info), "prepared: centred")));

## the traps before any work: X transposed is a warning naming X'
%!warning <give t\(X\) in R, X' in Octave> attsparse_rand (randn (1200, 30) / 10, "m", 5, "error", false, "seed", 1);
## a block reader: said from its shape, before any pass
%!warning <X has more rows \(1200\) than columns \(30\)> 
%! B = randn (1200, 30) / 10;
%! attsparse_rand (@(a, b) B(:, a:b), "ncol", 30, "nrow", 1200, "m", 5, "error", false, "seed", 1);

%!test
%! ## logits that overflow, and Y = 0 within the target: the same rule as R's, from the core
%! [warn, note] = __attsparse__ ("precheck", 40 * X, NaN);
%! g = max (sum ((40 * X) .^ 2, 2));
%! assert (isempty (warn));
%! assert (! isempty (strfind (note, sprintf ("scale X by %.4g", 1 / sqrt (g)))));
%! [~, note] = __attsparse__ ("precheck", 0.001 * X, 0.05);
%! assert (! isempty (strfind (note, "Y = 0 (no column) already has rel error")));
%! [~, note] = __attsparse__ ("precheck", 0.001 * X, NaN);
%! assert (isempty (note));
%! [~, note] = __attsparse__ ("precheck", attsparse_prepare (X), 0.05);
%! assert (isempty (note));
