## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## leverage_scores.m: exact or approximate leverage scores of the columns of X.

## -*- texinfo -*-
## @deftypefn  {} {[@var{tau}, @var{rank}] =} leverage_scores (@var{X})
## @deftypefnx {} {[@var{tau}, @var{rank}] =} leverage_scores (@var{X}, @var{method})
## @deftypefnx {} {[@var{tau}, @var{rank}] =} leverage_scores (@var{X}, @var{method}, @var{name}, @var{value}, @dots{})
## Leverage scores of the columns of @var{X}: @code{tau(j) = x_j' pinv (X X') x_j}.
##
## @var{tau} is a @var{d}-by-1 column; its sum is the numerical rank of
## @var{X}, returned as @var{rank}.  @var{method} is @qcode{"approx"} (default:
## a sparse embedding, a triangular factor of the sketch and a Johnson-Lindenstrauss step; with
## probability @code{1 - delta / 2} every score is at least @code{tau(j) / (b / a)}, the tail
## factors of the two sketches (see @qcode{"m"} in @code{attsparse_rand}), and their sum is
## about @code{s1 / (s1 - rank - 1)} times the rank, 4/3 at the default @var{s1}; exact scores are computed
## instead when the embedding would not be smaller than @var{X}') or
## @qcode{"exact"} (a QR of a dense copy of @var{X}').
##
## Options: @qcode{"seed"} (default from @code{rand}, as in
## @code{attsparse_rand}), @qcode{"delta"}, @qcode{"jl"}, @qcode{"s1"},
## @qcode{"s"}, @qcode{"s2"}, @qcode{"threads"}, @qcode{"verbose"}; see
## @code{attsparse_rand}.
##
## @var{X} may also be a block reader, as for @code{attsparse_rand}: a
## function handle @code{@@(j0, j1)} returning columns @var{j0} to @var{j1}
## (full or sparse), with @qcode{"ncol"}, @var{d} (and optionally
## @qcode{"nrow"} and @qcode{"block"}).  The approximate scores are then
## computed by the sketch and score passes of @code{attsparse_rand}, reading
## @var{X} twice, and equal those of @var{X} in memory bit for bit; an
## @var{X} no wider than the sketch is read whole (@qcode{"exact"} too, which
## otherwise needs @var{X} in memory).
##
## @example
## @group
## rd = @@(j0, j1) X(:, j0:j1);
## tau = leverage_scores (rd, "approx", "ncol", columns (X), "seed", 1);
## @end group
## @end example
## @seealso{attsparse_rand}
## @end deftypefn

function [tau, rank] = leverage_scores (X, method, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  ## without a method the core's default ("approx")
  opts = varargin;
  if (nargin >= 2)
    opts = [{"method", method}, opts];
  endif
  if (is_function_handle (X))
    [rd, ncol, nrow, block, rest] = reader_args (X, opts, "leverage_scores");
    [tau, rank] = __attsparse__ ("leverage_blocks", rd, ncol, nrow, block, rest{:});
    return;
  endif
  [tau, rank] = __attsparse__ ("leverage", double_input (X), opts{:});
endfunction

%!test
%! ## a block reader: the in-memory scores bit for bit, for any block, dense and sparse
%! X = attsparse_example (6, 40000, 0.5, 3);
%! Xs = sparse (X .* (mod (reshape (1:240000, 6, 40000), 7) == 0));
%! for M = {X, Xs}
%!   A = M{1};
%!   [t0, r0] = leverage_scores (A, "approx", "seed", 5);
%!   for block = [40000, 7000]
%!     [t1, r1] = leverage_scores (@(a, b) A(:, a:b), "approx", "ncol", 40000, "block", block, "seed", 5);
%!     assert (isequal (t1, t0) && r1 == r0);
%!   endfor
%! endfor

%!test
%! ## no wider than the sketch: read whole, "exact" too
%! X = attsparse_example (5, 20, 1, 2);
%! assert (isequal (leverage_scores (@(a, b) X(:, a:b), "exact", "ncol", 20), leverage_scores (X, "exact")));

%!error <needs "ncol"> leverage_scores (@(a, b) ones (3, b - a + 1))
%!error <use "approx"> leverage_scores (@(a, b) ones (3, b - a + 1), "exact", "ncol", 40000, "nrow", 3)

%!test
%! X = attsparse_example (4, 30, 1, 5);
%! Q = orth (X');
%! [tau, r] = leverage_scores (X, "exact");
%! assert (tau, sum (Q.^2, 2), 1e-10);
%! assert (r, 4);

%!test
%! X = [1 0 2 0; 0 1 0 0];
%! assert (leverage_scores (sparse (X), "exact"), [0.2; 1; 0.8; 0], 1e-12);

%!error <Invalid call> leverage_scores ()
%!error <'method' must be one of approx\|exact> leverage_scores (1, "fast")
%!error <'method' must be one of> leverage_scores (1, 2)
%!error id=attsparse:badInput leverage_scores (cell (2))
