## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse.m: the package's overview; `help attsparse` and `attsparse ()` print it.

## -*- texinfo -*-
## @deftypefn {} {} attsparse ()
## attsparse: attention sparsification of wide matrices by column selection.
##
## A wide matrix @var{X} (@var{n}-by-@var{d}, @var{d} much larger than @var{n},
## full or sparse) is made narrow: @var{Y} is made of rescaled columns of
## @var{X} such that the row-softmax of @code{Y * Y'} is close to that of
## @code{X * X'}.  Called as @code{attsparse ()} it prints this text.
##
## Sparsification of @var{X}:
## @table @code
## @item attsparse_rand
## leverage-score (or norm, mixed, uniform) column sampling, in input-sparsity time
## @item attsparse_det
## deterministic Batson-Spielman-Srivastava spectral sparsification
## @item attsparse_greedy
## the fewest columns for an exact attention error target (greedy selection, nonnegative weights)
## @item attsparse_file_reader
## a block reader over a binary file, for attsparse_rand on a matrix larger than memory
## @item default_m
## the number of draws of the matrix Chernoff bound behind attsparse_rand's default m
## @end table
##
## Workflows:
## @table @code
## @item attsparse_prepare
## centre the features and scale @var{X} so that max @code{(X * X')_ii} = r, the transform recorded
## @item attsparse_apply
## a result applied to new rows: their kept columns, prepared and weighted (R's @code{predict})
## @item attsparse_store
## a result per feature: weights, kept flags, the kept columns of @var{Y}.
## @item attsparse_print
## a result in a few lines
## @end table
##
## Attention and its error:
## @table @code
## @item sym_attention
## the @var{n}-by-@var{n} row-softmax of @code{X * X'}
## @item attention
## exact @code{D^-1 exp (Q * K') V} for queries, keys and values (Q != K; by blocks of rows);
## @code{attsparse_rand} and @code{attsparse_det} take @qcode{"K"} and @qcode{"V"} too
## @item attention_error
## the errors of the attention of @var{Y} against that of @var{X}
## @item leverage_scores
## exact or approximate leverage scores of the columns of @var{X}
## @item gram
## the exact Gram matrix @code{X * X'}, multithreaded, the same for any thread count
## @end table
##
## Example input and demo:
## @table @code
## @item attsparse_example
## the built-in default input (the same matrix as in R)
## @item attsparse_demo
## both algorithms on the default input: tables and plots; start here
## @end table
##
## Each function has its own help, e.g. @code{help attsparse_rand}.
## @seealso{attsparse_rand, attsparse_det, attsparse_greedy, attsparse_demo}
## @end deftypefn

function attsparse (varargin)
  if (nargin > 0)
    print_usage ();
  endif
  help ("attsparse");
endfunction

%!test
%! ## every function of the package is listed in the overview
%! txt = get_help_text ("attsparse");
%! files = dir (fullfile (fileparts (which ("attsparse")), "*.m"));
%! names = setdiff (regexprep ({files.name}, '\.m$', ''), {"attsparse"});
%! assert (numel (names) >= 7);
%! for i = 1:numel (names)
%!   assert (! isempty (strfind (txt, names{i})), "attsparse: help lacks %s", names{i});
%! endfor

%!test
%! out = evalc ("attsparse ()");
%! assert (! isempty (strfind (out, "attsparse_demo")));
%! assert (! isempty (strfind (out, "attsparse_rand")));

%!error <Invalid call> attsparse (1)
