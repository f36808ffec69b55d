## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_prepare.m: the documented preparation of X (centre the features, scale max (X X')_ii to r), the same as R's.

## -*- texinfo -*-
## @deftypefn  {} {[@var{Xp}, @var{prep}] =} attsparse_prepare (@var{X})
## @deftypefnx {} {[@var{Xp}, @var{prep}] =} attsparse_prepare (@var{X}, @qcode{"center"}, @var{c}, @qcode{"scale"}, @var{s}, @qcode{"r"}, @var{r})
## Prepare a wide matrix for attention sparsification: centre the features,
## scale the logits.
##
## The attention of @var{X} is the row-softmax of @code{@var{X} * @var{X}'},
## so the scale of @var{X} decides the answer: with raw counts the logits
## overflow and every row attends to itself alone; scaled too small, the
## uniform attention (@code{Y = 0}) already meets a target.  This is the
## preparation the package's demo uses on real data: optionally subtract each
## column's mean (@qcode{"center"}, default false; a sparse @var{X} becomes
## full), then divide @var{X} so that the largest diagonal entry of
## @code{@var{X} * @var{X}'} is @var{r} (@qcode{"scale"} true, the default,
## and @qcode{"r"}, default 1); @qcode{"scale"} may also be a positive number
## to multiply by, or false.
##
## @var{prep} records the transform: @code{center} (the column means
## subtracted, a row vector, or @code{[]}), @code{scale} (the multiplier),
## @code{divisor} (its inverse, by which @var{X} was divided) and @code{r}
## (NaN unless @qcode{"scale"} is true).  Give it to the sparsification as
## the option @qcode{"prepare"} so the result carries it
## (@var{info}.prepare), and @code{attsparse_apply} applies it to new rows:
##
## @example
## [Xp, prep] = attsparse_prepare (X, "center", true);
## [Y, err, info] = attsparse_greedy (Xp, "rel", 0.02, "prepare", prep);
## Ynew = attsparse_apply (info, Xnew);
## @end example
##
## R's @code{attsparse_prepare} is the same step.
## @seealso{attsparse_apply, attsparse_rand, attsparse_det, attsparse_greedy}
## @end deftypefn

function [X, prep] = attsparse_prepare (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  if (! ((isnumeric (X) || islogical (X)) && ismatrix (X) && isreal (X)))
    error ("attsparse:badInput", "attsparse_prepare: X must be a real numeric matrix");
  endif
  center = false;
  scale = true;
  r = 1;
  if (mod (numel (varargin), 2) != 0)
    error ("attsparse:badArgument", "attsparse_prepare: options must be name/value pairs");
  endif
  for i = 1:2:numel (varargin)
    name = varargin{i};
    v = varargin{i+1};
    if (! ischar (name))
      error ("attsparse:badArgument", "attsparse_prepare: option names must be strings");
    endif
    switch (name)
      case "center"
        if (! (isscalar (v) && (islogical (v) || isnumeric (v)) && any (v == [0 1])))
          error ("attsparse:badArgument", "attsparse_prepare: 'center' must be true or false");
        endif
        center = logical (v);
      case "scale"
        if (! (isscalar (v) && ((islogical (v)) || (isnumeric (v) && isfinite (v) && v > 0))))
          error ("attsparse:badArgument", ...
                 "attsparse_prepare: 'scale' must be true, false or a single positive number");
        endif
        scale = v;
      case "r"
        if (! (isscalar (v) && isnumeric (v) && isfinite (v) && v > 0))
          error ("attsparse:badArgument", "attsparse_prepare: 'r' must be a positive number");
        endif
        r = double (v);
      otherwise
        error ("attsparse:badArgument", ...
               "attsparse_prepare: unknown option '%s' (center, scale, r)", name);
    endswitch
  endfor
  X = double (X);
  mu = [];
  if (center)
    mu = full (mean (X, 1));
    X = full (X) - mu;
  endif
  divisor = 1;
  if (islogical (scale))
    if (scale)
      ## the largest diagonal of X X' becomes r
      g = full (max (sum (X .^ 2, 2)));
      if (g > 0)
        divisor = sqrt (g / r);
      endif
    endif
  else
    divisor = 1 / double (scale);
  endif
  if (divisor != 1)
    X = X / divisor;
  endif
  rr = NaN;
  if (islogical (scale) && scale)
    rr = r;
  endif
  prep = struct ("center", mu, "scale", 1 / divisor, "divisor", divisor, "r", rr);
endfunction

%!test
%! X = 7 * attsparse_example (10, 300, 0.5, 3) + 3;
%! [P, prep] = attsparse_prepare (X, "center", true, "r", 2);
%! assert (max (sum (P .^ 2, 2)), 2, 1e-12);
%! assert (mean (P, 1), zeros (1, 300), 1e-12);
%! assert (prep.center, mean (X, 1));
%! assert (P(2, 5), (X(2, 5) - mean (X(:, 5))) * prep.scale, 1e-14);
%! S = sparse (X .* (X > 3.2));
%! Ps = attsparse_prepare (S);
%! assert (issparse (Ps));
%! assert (max (sum (Ps .^ 2, 2)), 1, 1e-12);
%! assert (attsparse_prepare (X, "scale", 0.5), X / 2);
%! assert (attsparse_prepare (X, "scale", false), X);

%!error <'r' must be a positive number> attsparse_prepare (ones (2, 5), "r", -1)
%!error <'scale' must be true, false or a single positive number> attsparse_prepare (ones (2, 5), "scale", "yes")
%!error <unknown option 'centre'> attsparse_prepare (ones (2, 5), "centre", true)
%!error id=attsparse:badInput attsparse_prepare ({1})
