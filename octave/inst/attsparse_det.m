## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_det.m: the deterministic algorithm (BSS spectral sparsification) for Octave.

## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_det (@var{X})
## @deftypefnx {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_det (@var{X}, @var{name}, @var{value}, @dots{})
## Sparsify the symmetric softmax attention of @var{X} deterministically.
##
## Like @code{attsparse_rand}, but the columns of @var{Y} are picked by the
## Batson-Spielman-Srivastava barrier method on the whitened columns of
## @var{X}: at most @code{ceil (b @var{n})} distinct columns with
## @code{b = ((1 + sqrt (1 - eps^2)) / eps)^2}, and
## @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'} always (no failure
## probability).  @var{Y} is sparse when @var{X} is;
## @code{@var{Y} == @var{X}(:, @var{info}.index) .* @var{info}.weight'}.
##
## @var{err} is the infinity-norm error
## @code{max (abs (Att(@var{Y}) - Att(@var{X}))(:))}, or NaN with
## @code{"error", false}.
##
## Options, as name/value pairs (names are case-insensitive):
##
## @table @asis
## @item @qcode{"eps"}
## Target spectral error in (0, 1) (0.5).
## @item @qcode{"error"}
## Compute @var{err} and the metrics in @var{info} (true).
## @item @qcode{"spectral"}
## Compute @var{info}.eps_spectral and @var{info}.bound (default: the value of
## @qcode{"error"}).
## @item @qcode{"search"}
## How each step finds a column: @qcode{"tree"} (default; a binary tree over
## blocks of columns, per-step cost independent of @var{d}) or @qcode{"scan"}
## (all columns every step).
## @item @qcode{"leaf"}
## Columns per leaf of the search tree (default: chosen under the memory cap).
## @item @qcode{"memory"}
## Cap on the search tree's memory in MiB (default: automatic).
## @item @qcode{"threads"}
## OpenMP threads; 0 (default): @env{OMP_NUM_THREADS} if set, else all
## cores.  Results do not depend on it.
## @item @qcode{"verbose"}
## Print progress lines (false).
## @end table
##
## @var{info} has the fields of @code{attsparse_rand} (@code{index},
## @code{weight}, @code{m} (iterations), @code{k}, @code{rank}, @code{eps},
## @code{time}, @code{error}, @code{rel_error}, @code{r}, @code{baseline},
## @code{eps_spectral}, @code{bound}, @code{error_time}) and @code{eps_bound},
## the spectral error @code{(u-l)/(u+l)} the barriers guarantee.
##
## A long run stops on Ctrl-C with the error @qcode{"attsparse:interrupted"}.
## @seealso{attsparse_rand, attention_error, attsparse_example}
## @end deftypefn

function [Y, err, info] = attsparse_det (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  if (is_function_handle (X))
    error ("attsparse:badInput", ["attsparse_det: X must be a matrix in memory (BSS revisits every ", ...
                                  "column at every step); for a block reader use attsparse_rand"]);
  endif
  [Y, err, info] = __attsparse__ ("det", double_input (X), varargin{:});
endfunction

%!shared X
%! X = attsparse_example (5, 120, 0.5, 2);

%!error <must be a matrix in memory> attsparse_det (@(a, b) ones (3, b - a + 1))

%!test
%! [Y, err, info] = attsparse_det (X, "eps", 0.5);
%! assert (Y, X(:, info.index) .* info.weight');
%! assert (all (diff (info.index) > 0));
%! assert (err, info.error);
%! assert (info.eps_spectral <= info.eps_bound + 1e-10);
%! assert (info.eps_bound <= 0.5 + 1e-12);
%! b = ((1 + sqrt (1 - 0.25)) / 0.5)^2;
%! assert (info.k <= ceil (b * 5));

%!test
%! [Y, ~, info] = attsparse_det (sparse (X .* (X > 0)), "error", false);
%! assert (issparse (Y));
%! assert (isnan (info.error) && isnan (info.eps_spectral));

%!error <Invalid call> attsparse_det ()
%!error id=attsparse:badInput attsparse_det (struct ())
%!error <'eps' must be> attsparse_det (X, "eps", 0)
%!error <'search' must be one of tree\|scan> attsparse_det (X, "search", "bfs")
%!error <unknown option 'seed'> attsparse_det (X, "seed", 1)
