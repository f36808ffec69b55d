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
## @seealso{attsparse_rand}
## @end deftypefn

function [tau, rank] = leverage_scores (X, method, varargin)
  if (nargin < 1)
    print_usage ();
  elseif (nargin < 2)
    method = "approx";
  endif
  opts = with_seed (varargin);
  [tau, rank] = __attsparse__ ("leverage", double_input (X), "method", method, opts{:});
endfunction

%!test
%! X = attsparse_example (4, 30, 1, 5);
%! Q = orth (X');
%! [tau, r] = leverage_scores (X, "exact");
%! assert (tau, sum (Q.^2, 2), 1e-10);
%! assert (r, 4);

%!test
%! X = [1 0 2 0; 0 1 0 0];
%! assert (leverage_scores (sparse (X), "EXACT"), [0.2; 1; 0.8; 0], 1e-12);

%!error <Invalid call> leverage_scores ()
%!error <'method' must be one of approx\|exact> leverage_scores (1, "fast")
%!error <'method' must be one of> leverage_scores (1, 2)
%!error id=attsparse:badInput leverage_scores (cell (2))
