## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_package.m: the Octave package's metadata agrees with itself and with the R package.

## Run from the top of the repository.

%!function v = version_of (file)
%!  v = regexp (fileread (file), '(?m)^Version:\s*(\S+)', "tokens", "once"){1};
%!endfunction

## one version for both front-ends
%!test
%! assert (version_of (fullfile ("octave", "DESCRIPTION")), version_of ("DESCRIPTION"));

## INDEX lists exactly the user functions, and each has Texinfo help and tests
%!test
%! fns = regexprep ({dir(fullfile ("octave", "inst", "*.m")).name}, '\.m$', '');
%! listed = regexp (fileread (fullfile ("octave", "INDEX")), '(?m)^ (\S+)\s*$', "tokens");
%! assert (sort ([listed{:}]), sort (fns));
%! for f = fns
%!   [txt, fmt] = get_help_text (f{1});
%!   assert (fmt, "texinfo", f{1});
%!   assert (! isempty (strfind (txt, ["@deftypefn"])), f{1});
%!   code = fileread (fullfile ("octave", "inst", [f{1} ".m"]));
%!   assert (! isempty (strfind (code, "%!test")) && ! isempty (strfind (code, "%!error")), f{1});
%! endfor

## every %!demo block of the user functions runs (demo ("attsparse_greedy") and the like), printing
## what it says it prints
%!test
%! fns = {"attsparse_rand", "attsparse_det", "attsparse_greedy"};
%! for f = fns
%!   [code, idx] = test (f{1}, "grabdemo");
%!   assert (numel (idx) >= 2, "%s: no %%!demo block", f{1});
%!   for d = 1:numel (idx) - 1
%!     out = evalc (code(idx(d):idx(d+1)-1));
%!     assert (! isempty (strfind (out, "rel ")), "%s demo %d printed: %s", f{1}, d, out);
%!   endfor
%! endfor
