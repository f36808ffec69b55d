## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## default_m.m: the number of draws of the matrix Chernoff bound, the same function as in R.

## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} default_m (@var{rank})
## @deftypefnx {} {@var{m} =} default_m (@var{rank}, @var{eps}, @var{delta}, @var{beta})
## The number of i.i.d. draws of the matrix Chernoff bound for a given
## @var{beta}:
## @code{ceil (beta * rank * log (2 * rank / delta) / ((1 + eps) * log (1 + eps) - eps))}.
##
## @code{attsparse_rand}'s default @var{m} is
## @code{default_m (info.rank, eps, delta / 2, info.beta)} with approximate
## leverage scores and @code{default_m (info.rank, eps, delta, 1)} with exact
## ones.  @var{eps}, @var{delta} and @var{beta} are as in @code{attsparse_rand};
## missing or @code{[]}: 0.5, 0.01 and @var{beta} = 2 (the value of norm and
## uniform probabilities).  @var{rank} is a whole number in [0, 2^31 - 1].
## R's @code{default_m} gives the same number for the same arguments.
## @seealso{attsparse_rand}
## @end deftypefn

function m = default_m (rank, varargin)
  if (nargin < 1 || nargin > 4)
    print_usage ();
  endif
  ## [] or a missing argument takes the core's default; the ranges are the core's
  args = {[], [], []};
  args(1:numel (varargin)) = varargin;
  m = __attsparse__ ("default_m", rank, args{:});
endfunction

%!test
%! ## the default m of attsparse_rand with approximate scores
%! X = attsparse_example (40, 2000, 0.5, 3);
%! [~, ~, info] = attsparse_rand (X, "eps", 0.4, "delta", 0.05, "seed", 1, "error", false);
%! assert (default_m (info.rank, 0.4, 0.025, info.beta), info.m);

%!test
%! ## the formula, and the defaults eps = 0.5, delta = 0.01, beta = 2
%! r = 100; e = 0.3; d = 0.02; b = 1.5;
%! assert (default_m (r, e, d, b), ceil (b * r * log (2 * r / d) / ((1 + e) * log (1 + e) - e)));
%! assert (default_m (r), default_m (r, 0.5, 0.01, 2));
%! assert (default_m (r, [], [], []), default_m (r));

%!error <Invalid call> default_m ()
%!error <'rank' must be a whole number in \[0, 2147483647\], got 1e300> default_m (1e300)
%!error <'eps' must be a number in \(0, 1\), got 0> default_m (10, 0)
%!error <'beta' must be a number in \[1, 1e6\), got Inf> default_m (5, [], [], Inf)
%!error <'delta' must be a single number, got a 1x2 double> default_m (5, 0.5, [0.1, 0.2])
