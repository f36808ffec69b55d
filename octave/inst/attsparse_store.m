## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_store.m: a result as per-feature columns (weight, kept) and the samples x kept-features matrix, R's attsparse_store().

## -*- texinfo -*-
## @deftypefn {} {@var{s} =} attsparse_store (@var{info}, @var{d})
## @deftypefnx {} {@var{s} =} attsparse_store (@var{info}, @var{d}, @var{Y})
## A result laid out per feature, for a table of features (genes, terms)
## kept beside the data, as R's @code{attsparse_store} writes it into a
## @code{SummarizedExperiment}'s @code{rowData} and @code{reducedDim}.
##
## @var{info} is the third output of @code{attsparse_rand},
## @code{attsparse_det} or @code{attsparse_greedy} on an @var{n}-by-@var{d}
## @var{X}.  @var{s} is a struct with @code{weight} (@var{d}-by-1: the
## weight of each kept feature, 0 elsewhere), @code{kept} (@var{d}-by-1
## logical) and, when @var{Y} (the first output) is given, @code{Y}, the
## samples x kept-features matrix, full.
##
## @example
## X = attsparse_example (20, 2000, 0.5, 1);
## [Y, ~, info] = attsparse_greedy (X, "rel", 0.05);
## s = attsparse_store (info, columns (X), Y);
## find (s.kept)'     # the kept features
## @end example
## @seealso{attsparse_apply, attsparse_prepare}
## @end deftypefn

function s = attsparse_store (info, d, Y)
  if (nargin < 2 || nargin > 3)
    print_usage ();
  endif
  if (! isstruct (info) || ! all (isfield (info, {"index", "weight"})))
    error ("attsparse:badArgument",
           "attsparse_store: 'info' must be the third output of attsparse_rand, attsparse_det or attsparse_greedy");
  endif
  idx = double (info.index(:));
  if (! (isscalar (d) && isreal (d) && d == fix (d) && d >= 0) || any (idx > d))
    error ("attsparse:badArgument",
           "attsparse_store: 'd' must be the number of columns of X (at least %d), got %s",
           max ([0; idx]), mat2str (d));
  endif
  s.weight = zeros (d, 1);
  s.weight(idx) = info.weight(:);
  s.kept = false (d, 1);
  s.kept(idx) = true;
  if (nargin == 3)
    if (columns (Y) != numel (idx))
      error ("attsparse:badArgument",
             "attsparse_store: 'Y' must have the %d columns of the result, got %d", numel (idx), columns (Y));
    endif
    s.Y = full (Y);
  endif
endfunction

%!test
%! X = attsparse_example (20, 2000, 0.5, 1);
%! [Y, ~, info] = attsparse_greedy (X, "rel", 0.05);
%! s = attsparse_store (info, columns (X), Y);
%! assert (find (s.kept), double (info.index(:)));
%! assert (s.weight(info.index), info.weight(:));
%! assert (nnz (s.weight), numel (info.index));
%! assert (s.Y, full (X(:, info.index) .* info.weight(:)'), 1e-14);
%!error <'d' must be the number of columns> attsparse_store (struct ("index", 5, "weight", 1), 3)
%!error <'info' must be> attsparse_store (1, 3)
