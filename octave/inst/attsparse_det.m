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
## Columns per leaf of the search tree; 0 (default): chosen under the memory cap.
## @item @qcode{"memory"}
## Cap on the search tree's memory in MiB (default: automatic).
## @item @qcode{"threads"}
## OpenMP threads; 0 (default): @env{OMP_NUM_THREADS} if set, else all
## cores.  Results do not depend on it.
## @item @qcode{"verbose"}
## Print progress lines (false).
## @item @qcode{"K"}, @qcode{"V"}
## Keys (@var{n2}-by-@var{d}) and values (@var{n2}-by-@var{dv}) for attention with
## Q != K, as in @code{attsparse_rand}: BSS runs on the stacked @code{[@var{X}; @var{K}]}
## (no copy made), @var{info}.YK holds the keys' columns and the metrics are those of
## @code{Att(@var{X}, @var{K})} and, with @var{V}, of @code{Att V} (@code{out_error},
## @code{out_rel_error}).
## @end table
##
## @var{info} has the fields of @code{attsparse_rand} (@code{index},
## @code{weight}, @code{m} (iterations), @code{k}, @code{rank}, @code{eps},
## @code{time}, @code{error}, @code{rel_error}, @code{r}, @code{baseline},
## @code{eps_spectral}, @code{bound}, @code{error_time}), @code{eps_bound},
## the spectral error @code{(u-l)/(u+l)} the barriers guarantee, @code{b}, the
## sparsity factor above, and @code{max_columns}, the column budget
## @code{ceil (b rank)} (the number of BSS steps).
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
  [K, V, opts] = qk_options (varargin, "attsparse_det");
  if (isempty (K) && isempty (V))
    [Y, err, info] = __attsparse__ ("det", double_input (X), opts{:});
  else
    [Y, err, info] = __attsparse__ ("qk", "det", K, V, double_input (X), opts{:});
  endif
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
%! assert (info.k <= info.max_columns && info.max_columns == info.m);

%!test
%! [Y, ~, info] = attsparse_det (sparse (X .* (X > 0)), "error", false);
%! assert (issparse (Y));
%! assert (isnan (info.error) && isnan (info.eps_spectral));

%!error <Invalid call> attsparse_det ()
%!error id=attsparse:badInput attsparse_det (struct ())
%!error <'eps' must be> attsparse_det (X, "eps", 0)
%!error <'search' must be one of tree\|scan> attsparse_det (X, "search", "bfs")
%!error <unknown option 'seed'> attsparse_det (X, "seed", 1)

%!test
%! ## b and max_columns are fields (as in R): the budget meets the BSS barriers
%! for eps = [0.3, 0.5, 0.8]
%!   [Y, ~, info] = attsparse_det (X, "eps", eps, "error", false);
%!   assert (2 * sqrt (info.b) / (info.b + 1), eps, 1e-12);
%!   assert (info.max_columns, info.m);
%!   assert (info.k <= info.max_columns && info.eps_bound <= eps + 1e-12);
%! endfor

%!test
%! ## the metrics come from the same call: as attention_error, and spectral alone when asked
%! [Y, err, info] = attsparse_det (X);
%! e = attention_error (X, Y, "spectral", true);
%! assert ([err, info.rel_error, info.eps_spectral], [e.inf, e.rel, e.eps_spectral], 1e-10);
%! [Y, err, info] = attsparse_det (X, "error", false, "spectral", true);
%! assert (isnan (err) && isnan (info.rel_error));
%! assert (info.eps_spectral, e.eps_spectral, 1e-8);
%!error <'leaf' must be a whole number in \[0, 1e18\], got -1> attsparse_det (X, "leaf", -1)
