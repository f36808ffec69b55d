## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_example.m: the built-in default input, the same as in the R package.

## -*- texinfo -*-
## @deftypefn  {} {@var{X} =} attsparse_example ()
## @deftypefnx {} {@var{X} =} attsparse_example (@var{n}, @var{d}, @var{r}, @var{seed})
## A seeded dense @var{n}-by-@var{d} test matrix (defaults: @var{n} = 100,
## @var{d} = 20000, @var{r} = 0.05, @var{seed} = 1).
##
## Gaussian entries, one column in about fifty eight times heavier (so the
## leverage scores are uneven), each row scaled to squared norm @var{r}: then
## @code{max (abs (X * X')(:)) == r}.  The same arguments give the same matrix
## in R.  Pass @code{[]} for any argument to keep its default.
## @seealso{attsparse_rand, attsparse_det}
## @end deftypefn

function X = attsparse_example (varargin)
  if (nargin > 4)
    print_usage ();
  endif
  ## [] or a missing argument takes the core's default (100 x 20000, r = 0.05, seed 1)
  args = {[], [], [], []};
  args(1:nargin) = varargin;
  try
    X = __attsparse__ ("example", args{:});
  catch err
    ## Octave's own allocation failure has no identifier and names the gateway
    if (isempty (err.identifier))
      error ("attsparse:noMemory", "attsparse_example: out of memory for a %s x %s matrix",
             num2str (args{1}), num2str (args{2}));
    endif
    rethrow (err);
  end_try_catch
endfunction

%!test
%! X = attsparse_example ();
%! assert (size (X), [100, 20000]);
%! assert (max (abs (X * X')(:)), 0.05, 1e-12);
%! assert (isequal (X, attsparse_example (100, [], [], 1)));

%!test
%! X = attsparse_example (3, 7, 2, 9);
%! assert (diag (X * X'), [2; 2; 2], 1e-12);
%! assert (! isequal (X, attsparse_example (3, 7, 2, 10)));

%!error <'n' must be a whole number> attsparse_example (0)
%!error <'d' must be a whole number> attsparse_example (2, 2.5)
%!error <'r' must be a positive finite number, got -1> attsparse_example (2, 3, -1)
%!error <'seed' must be a single number, got NaN> attsparse_example (2, 3, 1, NaN)
