## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_demo.m: attsparse_demo: each table row is the call it names, the rows hold the guarantees, the plots are PNG files.

%!test
%! ## the quick demo on the example, a data directory holding acq (here a small
%! ## sparse matrix) and not ALL, and an extra input; its methods table and plots
%! dir = tempname ();
%! data = tempname ();
%! mkdir (data);
%! randn ("state", 3);
%! Xs = sprandn (8, 300, 0.2);
%! [i, j, x] = find (Xs);
%! fid = fopen (fullfile (data, "acq.X.txt"), "w");
%! fprintf (fid, "%d %d %d 1\n", size (Xs), nnz (Xs));
%! fprintf (fid, "%d %d %.17g\n", [i, j, x]');
%! fclose (fid);
%! unwind_protect
%!   out = evalc ('[tab, png] = attsparse_demo (dir, "quick", true, "data", data, "tables", {"methods", "targets"}, "inputs", struct ("tiny", Xs));');
%!   t = tab.methods;
%!   assert ({t.input}, [repmat({"example"}, 1, 4), repmat({"acq"}, 1, 4), repmat({"tiny"}, 1, 4)]);
%!   assert ({t.method}, repmat ({"rand-leverage", "rand-uniform", "rand-norm", "det"}, 1, 3));
%!   ## the file holds the same matrix as the input
%!   assert (isequal (rmfield (t(5:8), {"input", "time"}), rmfield (t(9:12), {"input", "time"})));
%!   lines = strsplit (out, "\n");
%!   assert (any (strcmp (lines, sprintf ("demo: no %s (its R data package is not installed; Debian: r-bioc-all)", ...
%!                                        fullfile (data, "ALL.X.txt")))));
%!   ## each row is its call
%!   [~, e, lev] = attsparse_rand (Xs, "seed", 1);
%!   [~, ~, uni] = attsparse_rand (Xs, "m", lev.m, "seed", 1, "probabilities", "uniform");
%!   [~, ~, nrm] = attsparse_rand (Xs, "m", lev.m, "seed", 1, "probabilities", "norm");
%!   [~, ~, det] = attsparse_det (Xs, "eps", 0.5);
%!   calls = {lev, uni, nrm, det};
%!   for c = 1:4
%!     assert ([t(8 + c).m, t(8 + c).k, t(8 + c).rel, t(8 + c).bound], ...
%!             [calls{c}.m, calls{c}.k, calls{c}.rel_error, calls{c}.bound]);
%!   endfor
%!   assert (t(9).inf, e);
%!   assert ([t.rel] <= [t.bound] * (1 + 1e-10) + 1e-14);
%!   ## on the example the sketch beats Y = 0 by far, and leverage scores beat uniform sampling at the same m
%!   assert (t(1).rel < t(1).baseline / 10);
%!   assert (t(2).rel > 2 * t(1).rel);
%!   ## the printed lines
%!   assert (any (strcmp (lines, "example: 100 x 20000 dense, nnz 2000000, r = max|XX'| = 0.05")));
%!   hdr = sprintf ("%-14s %7s %6s %10s %9s %9s %9s %9s %8s", ...
%!                  "method", "m", "k", "inf", "rel", "baseline", "spec_eps", "bound", "time_s");
%!   assert (sum (strcmp (lines, hdr)), 3);
%!   r = t(12);
%!   assert (any (strcmp (lines, sprintf ("det            %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f", ...
%!                        r.m, r.k, r.inf, 100*r.rel, 100*r.baseline, r.eps_spectral, 100*r.bound, r.time))));
%!   ## the plots: PNG files, 900 x 450 pixels but k_vs_target (450 a panel, 3 inputs)
%!   names = {"error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n", "k_vs_target"};
%!   assert (png, fullfile (dir, strcat (names, ".png")));
%!   sizes = [900 450; 900 450; 450 450; 450 450; 1350 450];
%!   for p = 1:5
%!     fid = fopen (png{p}, "r");
%!     head = fread (fid, 24, "uint8")';
%!     fclose (fid);
%!     assert (head(1:8), [137 80 78 71 13 10 26 10]);
%!     assert (reshape (head(17:24), 4, 2)' * 256 .^ (3:-1:0)', sizes(p, :)');  # IHDR width, height
%!   endfor
%!   ## the targets table: each row of a sweep meets its target, the run before it in the sweep did not
%!   t = tab.targets(strcmp ({tab.targets.input}, "example"));
%!   X = attsparse_example ();
%!   methods = {"leverage-iid", "norm-poisson", "mixed-poisson", "target", "greedy", "det", "gaussian"};
%!   assert ({t.method}, [repmat(methods, 1, 3), {"exact"}]);
%!   met = ! isnan ([t.k]);
%!   sweeps = met & ! ismember ({t.method}, {"target", "exact"});
%!   gr = met & strcmp ({t.method}, "greedy");
%!   assert (all ([t(gr).rel] <= [t(gr).target]));
%!   assert (all ([t(sweeps).rel] <= [t(sweeps).target]));
%!   assert (all (strncmp ({t(! met).detail}, "not met; best ", 14)));
%!   grid = ceil (100 * [0.5, 2, 8, 32, 128]);
%!   opts = {{"leverage", "iid"}, {"norm", "poisson"}, {"mixed", "poisson"}};
%!   for i = find (met & ismember ({t.method}, methods(1:3)))
%!     o = opts{strcmp (methods(1:3), t(i).method)};
%!     run = @(m) nthargout (3, @attsparse_rand, X, "m", m, "seed", 1, "probabilities", o{1}, "sampling", o{2}, ...
%!                           "estimate", false, "spectral", false);
%!     m = sscanf (t(i).detail, "m=%d");
%!     at = run (m);
%!     assert ([at.k, at.rel_error], [t(i).k, t(i).rel]);
%!     j = find (grid == m);
%!     if (j > 1)
%!       assert (run (grid(j - 1)).rel_error > t(i).target);
%!     endif
%!   endfor
%!   [~, ~, one] = attsparse_rand (X, "rel", 0.01, "seed", 1, "spectral", false);
%!   at = t(strcmp ({t.method}, "target") & [t.target] == 0.01);
%!   assert ([at.k, at.rel, at.estimate], [one.k, one.rel_error, one.rel_estimate]);
%!   assert ([t(end).k, t(end).rel < 1e-9], [100, true]);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%!   rmdir (data, "s");
%! end_unwind_protect
