## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_fixtures.m: the shared fixture outputs that R wrote (tests/cross/make-fixtures.R) reproduced by Octave; R checks the ones Octave wrote.

## The fixture directory is tests/fixtures under the current directory (make
## runs from the top of the repository) or $ATTSPARSE_FIXTURES; fixtures.m
## in the cross directory beside it (tests/cross) reads, runs and compares them.

%!function d = fixture_dir ()
%!  d = getenv ("ATTSPARSE_FIXTURES");
%!  if (isempty (d))
%!    d = fullfile ("tests", "fixtures");
%!  endif
%!endfunction
%!function d = cross_dir ()
%!  d = fullfile (fileparts (fixture_dir ()), "cross");
%!endfunction
%!function X = fixture_x (name)
%!  addpath (cross_dir ());
%!  unwind_protect
%!    X = fixtures ("read_x", fullfile (fixture_dir (), [name ".X.txt"]));
%!  unwind_protect_cleanup
%!    rmpath (cross_dir ());
%!  end_unwind_protect
%!endfunction

%!testif ; exist (fullfile (fixture_dir (), "cases.txt"), "file")
%! dir = fixture_dir ();
%! addpath (cross_dir ());
%! unwind_protect
%!   cases = fixtures ("cases", dir);
%!   ## every case is written by one side and checked by the other
%!   assert (sort (unique (cases(:, 10)))', {"R", "octave"});
%!   cases = cases(strcmp (cases(:, 10), "R"), :);
%!   assert (rows (cases) >= 5, "%d cases written by R", rows (cases));
%!   for k = 1:rows (cases)
%!     c = cases(k, :);
%!     X = fixtures ("read_x", fullfile (dir, [c{2} ".X.txt"]));
%!     want = fixtures ("read_out", fullfile (dir, [c{1} ".out"]));
%!     if (strcmp (c{3}, "rand"))
%!       assert (! isnan (want.rel_estimate), "%s: no rel_estimate recorded", c{1});
%!     endif
%!     ## weights to 1e-13 (rand) or 1e-12 (det): the leverage scores behind
%!     ## them go through the host's LAPACK and BLAS, whose last bits differ
%!     ## between libraries and CPUs
%!     msg = fixtures ("compare", fixtures ("run", X, c), want, false, c{3});
%!     assert (isempty (msg), "%s: %s", c{1}, msg);
%!   endfor
%! unwind_protect_cleanup
%!   rmpath (cross_dir ());
%! end_unwind_protect

## attsparse_det's choice among columns that tie in exact arithmetic does not
## depend on the input's last bits, which the BLAS's kernel and thread count
## change: the one-entry columns of sparse1 in a row, made equal by the
## presample's weights, each entry moved by up to 4 ulps
%!testif ; exist (fullfile (fixture_dir (), "sparse1.X.txt"), "file")
%! X = fixture_x ("sparse1");
%! [~, ~, r] = attsparse_rand (X, "m", 300, "seed", 11, "error", false);
%! Xp = X(:, r.index) * spdiags (r.weight(:), 0, r.k, r.k);
%! [~, ~, a] = attsparse_det (Xp, "eps", 0.5);
%! [i, j, v] = find (Xp);
%! rand ("seed", 1);
%! for s = 1:5
%!   P = sparse (i, j, v .* (1 + (randi (3, size (v)) - 2) * 2^-50), rows (Xp), columns (Xp));
%!   [~, ~, b] = attsparse_det (P, "eps", 0.5);
%!   assert (b.index, a.index);
%!   assert (b.weight, a.weight, -1e-12);
%! endfor

## the greedy method's rounds stop when they only refine: on stall.X.txt (20 x
## 200 counts) at rel = 1e-8 they kept the same 10 columns for 38000 rounds
## (to the work cap) while rel fell by a few parts in 10^4
%!testif ; exist (fullfile (fixture_dir (), "stall.X.txt"), "file")
%! X = fixture_x ("stall");
%! warning ("off", "attsparse:targetMissed", "local");
%! [~, ~, r] = attsparse_greedy (X, "rel", 1e-8);
%! assert (r.rel_error > 1e-8);
%! assert (r.rounds < 1000, "%d rounds", r.rounds);
%! [~, ~, r2] = attsparse_greedy (X, "rel", 1e-4);
%! assert (r2.rel_error <= 1e-4);
