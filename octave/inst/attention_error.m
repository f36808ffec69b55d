## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attention_error.m: how far the attention of Y is from that of X.

## -*- texinfo -*-
## @deftypefn  {} {@var{e} =} attention_error (@var{X}, @var{Y})
## @deftypefnx {} {@var{e} =} attention_error (@var{X}, @var{Y}, "spectral", true)
## Compare the symmetric softmax attention of @var{Y} with that of @var{X}.
##
## @var{X} and @var{Y} are real matrices, full or sparse, with the same number
## of rows; @var{Y} may have any number of columns (none: the uniform
## attention).  @var{e} is a struct with fields
##
## @table @code
## @item inf
## @code{max (abs (Att(Y) - Att(X))(:))}, the infinity-norm error.
## @item rel
## @code{max (abs (Att(Y) ./ Att(X) - 1)(:))}, scale-free.
## @item baseline
## @code{rel} of the uniform attention 1/@var{n}: a useful @var{Y} beats it
## by a wide margin.
## @item r
## @code{max (abs (X * X')(:))}.
## @item eps_spectral, bound
## The smallest eps with @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}, and the
## bound @code{exp (2 eps max (diag (X X'))) - 1} on @code{rel} it implies;
## Inf when @code{Y Y'} has weight outside the range of @code{X X'} (a row
## where @var{X} has none: no eps will do); NaN unless @code{"spectral", true}.
## @end table
##
## Option @qcode{"threads"} as in @code{attsparse_rand}; @qcode{"memory"}, the cap
## in MiB on the two @var{n}-by-@var{n} Gram matrices (default 0: 3/4 of the
## memory the process may use), above which the call is refused before they
## are allocated.
##
## @var{X} may be a block reader, as for @code{attsparse_rand}: a function
## handle @code{@@(j0, j1)} returning columns @var{j0} to @var{j1}, with
## @qcode{"ncol"}, @var{d} (and optionally @qcode{"nrow"} and
## @qcode{"block"}); @code{X * X'} is then summed over its columns, read once.
## @seealso{sym_attention, attsparse_rand, attsparse_det}
## @end deftypefn

function e = attention_error (X, Y, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  if (is_function_handle (X))
    [rd, ncol, nrow, block, rest] = reader_args (X, varargin, "attention_error");
    e = __attsparse__ ("error_blocks", rd, ncol, nrow, block, double_input (Y), rest{:});
    return;
  endif
  e = __attsparse__ ("error", double_input (X), double_input (Y), varargin{:});
endfunction

%!test
%! X = [1 0 1; 0 1 1];
%! e = attention_error (X, X);
%! assert ([e.inf, e.rel], [0, 0]);
%! assert (e.r, 2);
%! e = attention_error (X, zeros (2, 0));
%! A = sym_attention (X);
%! assert (e.inf, max (abs (A(:) - 0.5)), 1e-15);
%! assert (e.rel, e.baseline);

%!test
%! X = [1 0 1; 0 1 1];
%! e = attention_error (sparse (X), X(:, [1 3]), "spectral", true);
%! G = X * X';
%! mu = eig (G \ (X(:, [1 3]) * X(:, [1 3])'));
%! assert (e.eps_spectral, max (abs (mu - 1)), 1e-12);

%!test
%! ## Y Y' outside the range of X X': no finite eps, and the bound still holds rel
%! e = attention_error (zeros (3, 2), eye (3), "spectral", true);
%! assert ([e.eps_spectral, e.bound], [Inf, Inf]);
%! assert (e.rel <= e.bound && isfinite (e.rel));
%! randn ("seed", 42);
%! X = randn (20, 100) / 10;
%! Xz = X;
%! Xz(3, :) = 0;
%! e = attention_error (Xz, X(:, 1:40), "spectral", true);
%! assert ([e.eps_spectral, e.bound], [Inf, Inf]);
%! e = attention_error (Xz, 1.2 * Xz, "spectral", true);
%! assert (e.eps_spectral, 0.44, 1e-12);

%!error <Invalid call> attention_error (1)
%!error <Y must have as many rows as X> attention_error (ones (2, 3), ones (3, 3))
%!error <Y: column 1 holds a NaN> attention_error (ones (2, 3), [NaN; 1])
%!error <Y must be a real matrix> attention_error (ones (2, 3), {1})
