## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## sym_attention.m: the symmetric softmax attention D^-1 exp(X X') of X.

## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} sym_attention (@var{X})
## @deftypefnx {} {@var{A} =} sym_attention (@var{X}, "threads", @var{t})
## The @var{n}-by-@var{n} attention matrix @code{D^-1 exp (X X')} of the real
## @var{n}-by-@var{d} matrix @var{X} (full or sparse): the row-wise softmax of
## the Gram matrix, evaluated with each row's maximum subtracted, so that
## large entries of @code{X X'} do not overflow.  Rows of @var{A} sum to 1.
## Option @qcode{"memory"}: the cap in MiB on @var{A} (default 0: 3/4 of the
## memory the process may use); a larger @var{A} is refused before it is
## allocated, with error @code{attsparse:tooBig} naming its size.
## @seealso{attention_error, attsparse_rand}
## @end deftypefn

function A = sym_attention (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  A = __attsparse__ ("attention", double_input (X), varargin{:});
endfunction

%!test
%! X = [1 2 0; 0 1 -1; 3 0 1];
%! G = X * X';
%! E = exp (G);
%! assert (sym_attention (X), E ./ sum (E, 2), 1e-15);
%! assert (sym_attention (sparse (X)), sym_attention (X), 1e-15);

%!test
%! A = sym_attention ([100; 101]);
%! assert (all (isfinite (A(:))));
%! assert (sum (A, 2), [1; 1], 1e-15);

%!error <Invalid call> sym_attention ()
%!error <X must be a real matrix> sym_attention ({})
%!error <X: column 1 holds a NaN> sym_attention ([NaN; 1])
