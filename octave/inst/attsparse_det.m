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
## Options may also be one struct (with or without pairs); @qcode{"prepare"}
## takes @code{attsparse_prepare}'s transform, kept for @code{attsparse_apply}.
##
## Options, as name/value pairs (names and choices are matched exactly, in lower case, as in R; an option given twice is an error):
##
## @table @asis
## @item @qcode{"eps"}
## Target spectral error in (0, 1) (0.5).
## @item @qcode{"error"}
## Compute @var{err} and the metrics in @var{info} (true).
## @item @qcode{"spectral"}
## Compute @var{info}.eps_spectral and @var{info}.bound (default: the value of
## @qcode{"error"}).
## @item @qcode{"presample"}
## A randomized first stage (below): 0 (default) none; @code{true} or 1:
## @code{ceil (8 n log (n))} draws (at least @code{2 n}); a larger whole number:
## that many draws.
## @item @qcode{"seed"}
## The first stage's seed (default: drawn from Octave's @code{rand}, so
## @code{rand ("seed", @dots{})} reproduces a run).
## @item @qcode{"search"}
## How a step finds new columns when none of those kept from the last search
## qualifies: @qcode{"tree"} (default; a binary tree over blocks of columns,
## cost independent of @var{d}) or @qcode{"scan"} (all columns).
## @item @qcode{"leaf"}
## Columns per leaf of the search tree; 0 (default): at least twice the rows
## of @var{X}, more when the memory cap needs it.
## @item @qcode{"memory"}
## Cap in MiB on all working arrays, estimated before any is allocated; 0
## (default): a search tree of up to 512 MiB, the whole under 3/4 of the
## memory the process may use.
## @item @qcode{"batch"}
## Most barrier shifts per step; 0 (default): up to 64, 1: one column per step
## as in the paper.
## @item @qcode{"refit"}
## True: the kept columns reweighted against @code{X * X'} as with
## @code{attsparse_rand}'s @qcode{"refit"} (zero weights dropped,
## @var{info}.refit_rel the exact relative error before); without @qcode{"K"}
## or @qcode{"V"} (false).
## @item @qcode{"threads"}
## OpenMP threads; 0 (default): @env{OMP_NUM_THREADS} if set, else all
## cores.  Results do not depend on it.
## @item @qcode{"verbose"}
## Print progress lines (false).
## Without it, a call that runs longer than 2 s prints a progress line
## every 2 s on stderr.
## @item @qcode{"K"}, @qcode{"V"}
## Keys (@var{n2}-by-@var{d}) and values (@var{n2}-by-@var{dv}) for attention with
## Q != K, as in @code{attsparse_rand}: BSS runs on the stacked @code{[@var{X}; @var{K}]}
## (no copy made), @var{info}.YK holds the keys' columns and the metrics are those of
## @code{Att(@var{X}, @var{K})} and, with @var{V}, of @code{Att V} (@code{out_error},
## @code{out_rel_error}).
## @end table
##
## The barrier quantities come from an eigendecomposition of the sum of the
## picks, refreshed every few dozen steps, and Woodbury's identity for the
## columns added since: a step costs a few products of the rank by the number
## of those columns, not a factorization of rank size.  Each step is
## certified: @code{u'} above the refreshed eigenvalues and a small Cholesky
## factorization prove @code{A} strictly below the upper barrier, @code{l'}
## below them proves it above the lower one, and the potentials are checked
## against their bounds; a breakdown is an error, never a silent result.  A
## step scores the few columns kept from the last search first; only when
## none of them can take the step does it search again.  Any column the
## barrier test accepts keeps the guarantee.  When the barrier potentials
## have fallen far enough that a qualifying column is sure to exist for
## several shifts at once, one step serves them all.
##
## Two stages (@qcode{"presample"}), for very wide @var{X}:
## @code{attsparse_rand} first draws columns @var{Y1} (leverage scores,
## i.i.d.), then BSS runs on them.  With
## @code{(1-e1) X X' <= Y1 Y1' <= (1+e1) X X'} and BSS's certified
## @code{(1-e2) Y1 Y1' <= Y Y' <= (1+e2) Y1 Y1'},
## @code{(1-e1)(1-e2) X X' <= Y Y' <= (1+e1)(1+e2) X X'}.  @code{e2} is
## @var{info}.eps_bound; @code{e1} is random, measured against @var{X} when
## @qcode{"error"} is true (@var{info}.presample_eps, with
## @var{info}.eps_composed @code{= (1+e1)(1+e2) - 1}; NaN otherwise).  The
## default draws give @code{e1} of about 0.3 to 0.5: pass more for a tighter
## first stage.
##
## @var{info} has the fields of @code{attsparse_rand} (@code{index},
## @code{weight}, @code{m} (iterations: barrier shifts), @code{k}, @code{rank},
## @code{eps}, @code{time}, @code{error}, @code{rel_error}, @code{r},
## @code{baseline}, @code{eps_spectral}, @code{bound}, @code{error_time},
## @code{method} (@qcode{"deterministic"})),
## @code{eps_bound}, the spectral error @code{(u-l)/(u+l)} the barriers
## guarantee, @code{b}, the sparsity factor above, @code{max_columns}, the
## column budget @code{ceil (b rank)} (the number of barrier shifts),
## @code{steps}, the steps made (several shifts each when they can share
## one), and with @qcode{"presample"}
## @code{presample_k} (the first stage's distinct columns),
## @code{presample_eps}, @code{eps_composed} and @code{seed}; with
## @qcode{"refit"}, @code{refit_rel}.  A refit keeps the columns but not the
## spectral guarantee: @code{eps_bound} is that of the weights before it,
## @code{eps_spectral} that of the result.
##
## A long run stops on Ctrl-C with the error @qcode{"attsparse:interrupted"}.
## @seealso{attsparse_rand, attention_error, attsparse_example}
## @end deftypefn

function [Y, err, info] = attsparse_det (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [varargin, prep] = struct_options (varargin, "attsparse_det");   # options as one struct; "prepare"
  if (is_function_handle (X))
    __attsparse__ ("blocks_refuse", "det");   # the core's message: why X must be in memory
  endif
  [K, V, opts] = qk_options (varargin, "attsparse_det");
  ## a first stage ("presample") takes its seed from rand () when none is given, as attsparse_rand does
  X = double_input (X);
  precheck (X, opts, "attsparse_det", NaN);   # the traps, before any work
  [Y, err, info] = __attsparse__ ("method", "det", X, K, V, opts{:});
  info = with_prepare (info, prep);
endfunction

%!shared X
%! X = attsparse_example (5, 120, 0.5, 2);

%!error <X must be in memory> attsparse_det (@(a, b) ones (3, b - a + 1))

%!test
%! [Y, err, info] = attsparse_det (X, "eps", 0.5);
%! assert (Y, X(:, info.index) .* info.weight');
%! assert (all (diff (info.index) > 0));
%! assert (err, info.error);
%! assert (info.eps_spectral <= info.eps_bound + 1e-10);
%! assert (info.eps_bound <= 0.5 + 1e-12);
%! ## the barrier argument from Y and eig: m shifts are the fewest reaching eps, and
%! ## Y Y' / gamma lies strictly between the final barriers with the potentials at most
%! ## where they started; k >= rank (Y spans X's range) and k <= m
%! G = X * X';  [Vg, Lg] = eig ((G + G') / 2);  W = Vg ./ sqrt (diag (Lg))';
%! C = W' * (Y * Y') * W;  mu = eig ((C + C') / 2);  r = numel (mu);
%! b = ((1 + sqrt (1 - 0.5^2)) / 0.5)^2;  sb = sqrt (b);
%! eU = (sb - 1) / (b + sb);  eL = 1 / sb;
%! bar = @(q) [r / eU + q * (sb + 1) / (sb - 1), -r / eL + q];
%! ul = bar (info.m);  ul1 = bar (info.m - 1);
%! assert (diff (ul([2 1])) / sum (ul) <= 0.5 * (1 + 1e-12));
%! assert (diff (ul1([2 1])) / sum (ul1) > 0.5 * (1 - 1e-9));
%! lam = mu * sum (ul) / 2;
%! assert (all (lam > ul(2) & lam < ul(1)));
%! assert (sum (1 ./ (ul(1) - lam)) <= eU * (1 + 1e-8) && sum (1 ./ (lam - ul(2))) <= eL * (1 + 1e-8));
%! assert (info.k >= r && info.k <= info.m);

%!test
%! [Y, ~, info] = attsparse_det (sparse (X .* (X > 0)), "error", false);
%! assert (issparse (Y));
%! assert (isnan (info.error) && isnan (info.eps_spectral));

%!error <Invalid call> attsparse_det ()
%!error id=attsparse:badInput attsparse_det (struct ())
%!error <'eps' must be> attsparse_det (X, "eps", 0)
%!error <'search' must be one of tree\|scan> attsparse_det (X, "search", "bfs")
%!error <unknown option 'm'> attsparse_det (X, "m", 10)
%!error <'presample' must be a whole number> attsparse_det (X, "presample", -1)
%!error <'batch' must be a whole number> attsparse_det (X, "batch", 0.5)

%!test
%! ## b and max_columns are fields (as in R): the budget meets the BSS barriers
%! for eps = [0.3, 0.5, 0.8]
%!   [Y, ~, info] = attsparse_det (X, "eps", eps, "error", false);
%!   assert (2 * sqrt (info.b) / (info.b + 1), eps, 1e-12);
%!   ## the spectral eps from eig, below the certified bound and the request
%!   e = max (abs (eig (sqrtm (X * X') \ (Y * Y') / sqrtm (X * X')) - 1));
%!   assert (e <= info.eps_bound + 1e-9 && info.eps_bound <= eps + 1e-12);
%!   assert (info.steps >= 1);
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

%!demo
%! ## BSS at eps = 0.5: at most ceil (b n) columns, its spectral guarantee always met
%! X = attsparse_example (50, 5000, 0.5, 1);
%! [Y, err, info] = attsparse_det (X, "eps", 0.5);
%! printf ("det: %d columns (budget %d), spectral eps %.3g <= 0.5, rel %.3g%%\n", ...
%!         columns (Y), info.max_columns, info.eps_spectral, 100 * info.rel_error);
