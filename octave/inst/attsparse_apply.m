## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_apply.m: a result applied to new rows (their kept columns, prepared and weighted), R's predict().

## -*- texinfo -*-
## @deftypefn  {} {@var{Ynew} =} attsparse_apply (@var{info}, @var{Xnew})
## The sketch of new rows: their kept columns, with the preparation of
## @var{X}, times the weights.
##
## @var{info} is the third output of @code{attsparse_rand},
## @code{attsparse_det} or @code{attsparse_greedy} on @var{X}; @var{Xnew}
## (@var{m}-by-@var{d}, full or sparse) has the columns of @var{X} in the same
## order.  @var{Ynew} (@var{m}-by-@var{k}) is
## @code{(@var{Xnew}(:, @var{info}.index) - c) / divisor .* @var{info}.weight'}
## with the centre @code{c} and the divisor of @var{info}.prepare (from
## @code{attsparse_prepare}, given to the sparsification as option
## @qcode{"prepare"}; none without it).  For @code{@var{Xnew} = @var{X}}
## (before the preparation) it is the @var{Y} of the call.  @var{Ynew} is
## sparse when @var{Xnew} is and there is no centring.  Octave matrices carry
## no feature names: the columns are matched by position (R's
## @code{predict} matches them by name).
##
## What is guaranteed for new rows: the spectral guarantee of
## @code{attsparse_det} (always) and @code{attsparse_rand} (with
## probability @code{1 - delta}),
## @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}, is about every vector in the
## row space of @var{X}; it holds for the rows of @var{X} stacked with new
## rows in the span of @var{X}'s rows (after the preparation), with the same
## @code{eps} and attention bound @code{exp (2 eps max G_ii) - 1}.  For rows
## outside that span nothing is guaranteed.  The greedy method's certificate
## is measured on the rows of @var{X} only and says nothing of new rows;
## measure them with @code{attention_error}.
## @seealso{attsparse_prepare, attsparse_rand, attsparse_det, attsparse_greedy}
## @end deftypefn

function Y = attsparse_apply (info, Xnew)
  if (nargin != 2)
    print_usage ();
  endif
  check_info (info, "attsparse_apply");
  if (! ((isnumeric (Xnew) || islogical (Xnew)) && ismatrix (Xnew) && isreal (Xnew)))
    error ("attsparse:badInput", "attsparse_apply: XNEW must be a real numeric matrix");
  endif
  idx = info.index(:)';
  prep = [];
  if (isfield (info, "prepare"))
    prep = info.prepare;
  endif
  if (! isempty (prep) && ! isempty (prep.center) && columns (Xnew) != numel (prep.center))
    error ("attsparse:badInput", "attsparse_apply: XNEW has %d columns, X had %d", ...
           columns (Xnew), numel (prep.center));
  endif
  if (! isempty (idx) && columns (Xnew) < max (idx))
    error ("attsparse:badInput", ...
           "attsparse_apply: XNEW has %d columns, but the result kept column %d of X", ...
           columns (Xnew), max (idx));
  endif
  Z = double (Xnew(:, idx));
  if (! isempty (prep))
    ## in the order of attsparse_prepare: (Z - centre) / divisor
    if (! isempty (prep.center))
      Z = full (Z) - prep.center(idx);
    endif
    if (prep.divisor != 1)
      Z = Z / prep.divisor;
    endif
  endif
  w = info.weight(:);
  if (issparse (Z))
    Y = Z * spdiags (w, 0, numel (w), numel (w));   # sparse .* row does not broadcast
  else
    Y = Z .* w';
  endif
endfunction

%!test
%! X = attsparse_example (10, 400, 0.5, 3);
%! [Y, ~, info] = attsparse_greedy (X, "rel", 0.05);
%! assert (attsparse_apply (info, X), Y);
%! ## new rows, against an independent computation
%! randn ("seed", 1);
%! Z = randn (3, 400);
%! assert (attsparse_apply (info, Z), Z(:, info.index) * diag (info.weight), 1e-14);

%!test
%! ## the preparation stored in the result is applied to new rows of the raw scale
%! X = 5 * attsparse_example (10, 400, 0.5, 3) + 1;
%! [P, prep] = attsparse_prepare (X, "center", true);
%! [Y, ~, info] = attsparse_greedy (P, "rel", 0.05, "prepare", prep);
%! assert (info.prepare, prep);
%! assert (attsparse_apply (info, X), Y, 1e-14);
%! assert (attsparse_apply (info, X(4:5, :)), Y(4:5, :), 1e-14);

%!test
%! ## sparse rows stay sparse
%! X = attsparse_example (10, 400, 0.5, 3);
%! S = sparse (X .* (abs (X) > 0.05));
%! [Y, ~, info] = attsparse_rand (S, "rel", 0.05, "seed", 2);
%! Ynew = attsparse_apply (info, S([3 1], :));
%! assert (issparse (Ynew));
%! assert (Ynew, Y([3 1], :));

%!error <INFO must be the third output> attsparse_apply (struct ("a", 1), ones (2, 3))
%!error <XNEW has 3 columns, but the result kept column 5> attsparse_apply (struct ("index", [1 5], "weight", [1 1], "method", "greedy"), ones (2, 3))
