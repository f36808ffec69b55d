## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_fixtures.m: the shared fixture outputs that R wrote (tests/fixtures/make-fixtures.R) reproduced by Octave; R checks the ones Octave wrote.

## The fixture directory is tests/fixtures under the current directory (make
## runs from the top of the repository) or $ATTSPARSE_FIXTURES; its
## fixtures.m reads, runs and compares them.

%!function d = fixture_dir ()
%!  d = getenv ("ATTSPARSE_FIXTURES");
%!  if (isempty (d))
%!    d = fullfile ("tests", "fixtures");
%!  endif
%!endfunction

%!testif ; exist (fullfile (fixture_dir (), "cases.txt"), "file")
%! dir = fixture_dir ();
%! addpath (dir);
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
%!   rmpath (dir);
%! end_unwind_protect
