## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## gram.m: the exact Gram matrix X X' of a wide matrix, through the attsparse core.

## -*- texinfo -*-
## @deftypefn  {} {@var{G} =} gram (@var{X})
## @deftypefnx {} {@var{G} =} gram (@var{X}, "threads", @var{t})
## The full @var{n}-by-@var{n} symmetric matrix @code{X * X'} of the real
## @var{n}-by-@var{d} matrix @var{X} (full or sparse), the matrix every exact
## figure of the package rests on.  Columns of a sparse @var{X} holding at
## least a quarter of the rows, and every column of a full @var{X}, are
## multiplied as dense panels; the other columns of a sparse @var{X} add their
## outer products tile by tile of @var{G}.  Every entry is summed in the same
## order whatever the thread count, so @var{G} has the same bits on any.
## Option @qcode{"memory"}: the cap in MiB on @var{G} (default 0: 3/4 of the
## memory the process may use); a larger @var{G} is refused before it is
## allocated, with error @code{attsparse:tooBig} naming its size.
## @seealso{sym_attention, attention_error}
## @end deftypefn

function G = gram (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  G = __attsparse__ ("gram", double_input (X), varargin{:});
endfunction

%!test
%! X = [1 2 0; 0 1 -1; 3 0 1];
%! assert (gram (X), X * X', 1e-15);
%! assert (gram (sparse (X)), X * X', 1e-15);

%!test
%! ## light and heavy (near full) columns, rank deficient, zero columns
%! randn ("seed", 1); rand ("seed", 1);
%! S = sprandn (300, 3000, 0.02);
%! S(:, 1:40) = randn (300, 40);
%! S(:, 41:50) = 0;
%! S = [S; 2 * S(1:20, :)];
%! R = full (S * S');
%! assert (norm (gram (S) - R, Inf) / norm (R, Inf) < 1e-12);
%! assert (norm (gram (full (S)) - R, Inf) / norm (R, Inf) < 1e-12);
%! assert (issymmetric (gram (S)));

%!test
%! ## the same bits on any thread count
%! randn ("seed", 2); rand ("seed", 2);
%! S = sprandn (500, 4000, 0.03);
%! S(:, 1:30) = randn (500, 30);
%! assert (isequal (gram (S, "threads", 1), gram (S, "threads", 2)));
%! D = full (S(:, 1:400));
%! assert (isequal (gram (D, "threads", 1), gram (D, "threads", 2)));

%!test
%! assert (gram (sparse (4, 50)), zeros (4));

%!error <Invalid call> gram ()
%!error <X: column 1 holds a NaN> gram ([NaN; 1])
