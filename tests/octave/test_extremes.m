## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_extremes.m: numerical extremes through Octave: entries near 1e+-150, duplicate and zero columns, exact rank deficiency, n = 1, d < n, single and logical input.

## columns and weights do not depend on the scale of X, dense and sparse
%!test
%! X0 = attsparse_example (8, 1500, 1, 2);
%! S0 = sparse (X0 .* (abs (X0) > 0.01));
%! for A = {X0, S0}
%!   for p = {"leverage", "norm"}
%!     [~, ~, i1] = attsparse_rand (A{1}, "seed", 3, "error", false, "probabilities", p{1});
%!     for s = [1e-150, 1e150]
%!       [Y, ~, is] = attsparse_rand (A{1} * s, "seed", 3, "error", false, "probabilities", p{1});
%!       assert (is.index, i1.index);
%!       assert (is.weight, i1.weight, -1e-10);
%!       assert (issparse (Y), issparse (A{1}));
%!     endfor
%!   endfor
%!   [~, ~, d1] = attsparse_det (A{1}, "error", false);
%!   for s = [1e-150, 1e150]
%!     [Y, ~, ds] = attsparse_det (A{1} * s, "spectral", true);
%!     assert (ds.index, d1.index);
%!     assert (ds.weight, d1.weight, -1e-8);
%!     assert (ds.eps_spectral <= ds.eps_bound + 1e-9);
%!   endfor
%! endfor

## past the representable squares: a refusal that says why
%!error <X X' overflows> attsparse_det (attsparse_example (4, 50, 1, 1) * 1e160)
%!error <X X' underflows> attsparse_det (attsparse_example (4, 50, 1, 1) * 1e-160)
## entries of X X' finite (5e307), its largest eigenvalue (5e309) not
%!error <largest eigenvalue of X X' overflows> attsparse_det (1e153 * ones (100, 50))
%!error <Y Y' overflows> attention_error (attsparse_example (4, 50, 1, 1), attsparse_example (4, 50, 1, 1) * 1e160)
%!error <X X' overflows> sym_attention (attsparse_example (4, 50, 1, 1) * 1e160)

## duplicate and zero columns: zero columns are never kept, duplicates share a score
%!test
%! X0 = attsparse_example (6, 200, 1, 4);
%! X = [X0(:, kron (1:200, [1 1])), zeros(6, 40)];
%! lev = leverage_scores (X, "exact");
%! assert (lev(1:2:400), lev(2:2:400), 1e-12);
%! assert (all (lev(401:440) == 0));
%! [~, ~, r] = attsparse_rand (X, "seed", 1);
%! [Y, ~, d] = attsparse_det (X, "spectral", true);
%! assert (! any (r.index > 400) && ! any (d.index > 400));
%! assert (d.eps_spectral, direct_spectral_eps (X, Y), 1e-8);
%! assert (d.eps_spectral <= d.eps_bound + 1e-9);

## exactly rank-deficient X (rows 5..8 are twice rows 1..4)
%!test
%! X0 = attsparse_example (4, 600, 1, 5);
%! X = [X0; 2 * X0];
%! [~, ~, r] = attsparse_rand (X, "seed", 2, "leverage", "exact");
%! assert (r.rank, 4);
%! assert (sum (leverage_scores (X, "exact")), 4, 1e-8);
%! [Y, ~, d] = attsparse_det (X);
%! assert (d.rank, 4);
%! ## the column budget from the BSS barriers recomputed from Y on the 4-dimensional range (eig)
%! check_bss_barriers (X, Y, d, 0.5);
%! assert (direct_spectral_eps (X, Y) <= d.eps_bound + 1e-8);

## n = 1 and d < n
%!test
%! x = attsparse_example (1, 300, 1, 6);
%! [Y, ~, r] = attsparse_rand (x, "seed", 1);
%! assert (rows (Y), 1);
%! assert (r.rank, 1);
%! [Y, ~, d] = attsparse_det (x);
%! assert (d.rank, 1);
%! assert (direct_spectral_eps (x, Y) <= d.eps_bound + 1e-9);
%! X = attsparse_example (9, 4, 1, 6);
%! assert (leverage_scores (X, "exact"), ones (4, 1), 1e-10);
%! [Y, ~, d] = attsparse_det (X);
%! assert (d.rank, 4);
%! assert (direct_spectral_eps (X, Y) <= d.eps_bound + 1e-9);

## single and logical input: the same answer as their double conversion
%!test
%! X = attsparse_example (5, 400, 1, 7);
%! [Ys, es, is] = attsparse_rand (single (X), "seed", 4);
%! [Yd, ed, id] = attsparse_rand (double (single (X)), "seed", 4);
%! assert (isa (Ys, "double") && isequal (Ys, Yd) && isequal (is.index, id.index) && es == ed);
%! [Ys, ~, is] = attsparse_det (single (X));
%! [Yd, ~, id] = attsparse_det (double (single (X)));
%! assert (isequal (Ys, Yd) && isequal (is.weight, id.weight));
%! L = X > 0.05;
%! [Yl, ~, il] = attsparse_rand (L, "seed", 4);
%! [Yd, ~, id] = attsparse_rand (double (L), "seed", 4);
%! assert (isequal (Yl, Yd) && isequal (il.index, id.index));
%! [~, ~, il] = attsparse_det (sparse (L));
%! [~, ~, id] = attsparse_det (sparse (double (L)));
%! assert (isequal (il.index, id.index) && isequal (il.weight, id.weight));
%! ## single entries near its own underflow (1e-30 squared is below realmin ("single")) are ordinary doubles
%! Xt = single (X) * single (1e-30);
%! [Y, ~, it] = attsparse_rand (Xt, "seed", 4);
%! assert (Y, double (Xt(:, it.index)) .* it.weight', -1e-15);
%! assert (all (isfinite (it.weight)) && it.rank == 5 && direct_spectral_eps (double (Xt), Y) < 1);

## fork after a parallel call: the child (one thread there) runs and gets the parent's result
%!testif ; ! system ("command -v octave-cli >/dev/null && command -v timeout >/dev/null")
%! dir = fileparts (which ("attsparse_rand"));
%! base = tempname ();
%! fid = fopen ([base ".m"], "w");
%! fprintf (fid, "X = attsparse_example (20, 5000, 1, 3);\n");
%! fprintf (fid, "[~, ~, a] = attsparse_rand (X, 'seed', 1, 'threads', 2);\n");
%! fprintf (fid, "pid = fork ();\n");
%! fprintf (fid, "if (pid == 0)\n [~, ~, b] = attsparse_rand (X, 'seed', 1, 'threads', 2);\n");
%! fprintf (fid, " printf ('child %%d\\n', isequal (a.index, b.index) && isequal (a.weight, b.weight));\n fflush (stdout);\n exit (0);\nend\n");
%! fprintf (fid, "waitpid (pid);\nprintf ('parent done\\n');\n");
%! fclose (fid);
%! st = system (sprintf ("OCTAVE_HISTFILE=/dev/null timeout 60 octave-cli --norc --quiet --path '%s' '%s.m' > '%s.out' 2>&1", ...
%!                     dir, base, base));
%! out = fileread ([base ".out"]);
%! cellfun (@unlink, strcat (base, {".m", ".out"}));
%! assert (st == 0, "exit status %d (124: hung): %s", st, out);
%! assert (! isempty (strfind (out, "child 1")) && ! isempty (strfind (out, "parent done")), out);

## an example larger than the machine's memory: attsparse:noMemory naming the function, not the gateway
%!testif ; exist ("/proc/meminfo", "file")
%! tok = regexp (fileread ("/proc/meminfo"), 'MemTotal:\s*(\d+)', "tokens", "once");
%! if (str2double (tok{1}) > 25e6)   # kB: 32 GB might be allocated on this machine
%!   return;
%! endif
%! try
%!   attsparse_example (1e5, 4e4);
%!   error ("test:noError", "a 32 GB example was allocated");
%! catch err
%!   assert (err.identifier, "attsparse:noMemory");
%!   assert (strncmp (err.message, "attsparse_example: out of memory for a 100000 x 40000 matrix", 60), err.message);
%!   assert (isempty (strfind (err.message, "__attsparse__")), err.message);
%! end_try_catch
