## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_fixtures.m: the shared R/Octave fixtures (tests/fixtures, written by R) reproduced from Octave.

## The fixture directory is tests/fixtures under the current directory (make
## runs from the top of the repository) or $ATTSPARSE_FIXTURES.

%!function d = fixture_dir ()
%!  d = getenv ("ATTSPARSE_FIXTURES");
%!  if (isempty (d))
%!    d = fullfile ("tests", "fixtures");
%!  endif
%!endfunction

%!function X = read_x (file)
%!  ## the reader attsparse_demo uses (octave/inst/private/read_x_txt.m)
%!  priv = fullfile (fileparts (which ("attsparse_demo")), "private");
%!  addpath (priv);
%!  unwind_protect
%!    X = read_x_txt (file);
%!  unwind_protect_cleanup
%!    rmpath (priv);
%!  end_unwind_protect
%!endfunction

%!function [index, weight, err, rel, est] = read_out (file)
%!  ## lines "index weight", then "error <e> rel_error <r>" (rand: "rel_estimate <q>" after)
%!  txt = fileread (file);
%!  last = regexp (txt, '\nerror\s+(\S+)\s+rel_error\s+(\S+)', "tokens", "once");
%!  assert (numel (last) == 2, "%s: no final error line", file);
%!  err = str2double (last{1});
%!  rel = str2double (last{2});
%!  est = regexp (txt, 'rel_estimate\s+(\S+)\s*$', "tokens", "once");
%!  est = ifelse_empty (est);
%!  body = txt(1:regexp (txt, 'error\s+\S+\s+rel_error', "once") - 1);
%!  T = reshape (sscanf (body, "%f"), 2, []);
%!  index = T(1, :)';
%!  weight = T(2, :)';
%!endfunction

%!function v = ifelse_empty (tok)
%!  if (isempty (tok))
%!    v = NaN;
%!  else
%!    v = str2double (tok{1});
%!  endif
%!endfunction

%!function cases = read_cases (file)
%!  ## "case name algorithm m eps delta seed probabilities sampling", one a line
%!  cases = {};
%!  for line = strsplit (fileread (file), "\n")
%!    f = strsplit (strtrim (line{1}));
%!    if (numel (f) >= 9 && f{1}(1) != "#")
%!      cases(end+1, :) = f(1:9);
%!    endif
%!  endfor
%!endfunction

%!function check_case (dir, c)
%!  [name, xname, alg, m, eps, delta, seed, prob, sampling] = c{:};
%!  X = read_x (fullfile (dir, [xname ".X.txt"]));
%!  [index, weight, err, rel, est] = read_out (fullfile (dir, [name ".out"]));
%!  if (strcmp (alg, "rand"))
%!    opts = {"eps", str2double(eps), "delta", str2double(delta), ...
%!            "seed", str2double(seed), "probabilities", prob, "sampling", sampling};
%!    if (str2double (m) > 0)
%!      opts(end+1:end+2) = {"m", str2double(m)};
%!    endif
%!    [Y, e, info] = attsparse_rand (X, opts{:});
%!    assert (isequal (info.index, index), "%s: index differs", name);
%!    ## to 1e-13: the leverage scores behind the weights go through the host's
%!    ## LAPACK and BLAS, whose last bits differ between libraries and CPUs
%!    assert (info.weight, weight, -1e-13);
%!    assert (! isnan (est), "%s: no rel_estimate recorded", name);
%!    assert (info.rel_estimate, est, -1e-12);
%!  else
%!    [Y, e, info] = attsparse_det (X, "eps", str2double (eps));
%!    assert (isequal (info.index, index), "%s: index differs", name);
%!    assert (info.weight, weight, -1e-12);
%!  endif
%!  assert (issparse (Y), issparse (X));
%!  assert (e, err, -1e-12);
%!  assert (info.rel_error, rel, -1e-12);
%!endfunction

%!testif ; exist (fullfile (fixture_dir (), "cases.txt"), "file")
%! dir = fixture_dir ();
%! cases = read_cases (fullfile (dir, "cases.txt"));
%! assert (rows (cases) > 0, "no case in %s", fullfile (dir, "cases.txt"));
%! for k = 1:rows (cases)
%!   check_case (dir, cases(k, :));
%! endfor
