## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_greedy.m: the fewest columns for an attention error (greedy selection with nonnegative weights, an exact certificate) for Octave.

## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_greedy (@var{X})
## @deftypefnx {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_greedy (@var{X}, @qcode{"rel"}, @var{r}, @dots{})
## @deftypefnx {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_greedy (@var{X}, @qcode{"k"}, @var{k}, @dots{})
## The fewest columns of @var{X} whose attention meets an exact error target.
##
## Like @code{attsparse_rand} and @code{attsparse_det}, @var{Y}
## (@var{n}-by-@var{k}) is made of rescaled columns of @var{X},
## @code{@var{Y} == @var{X}(:, @var{info}.index) .* @var{info}.weight'}, sparse
## when @var{X} is; here the columns and weights are chosen for the attention
## error itself.  The method computes @code{G = @var{X} * @var{X}'} and adds
## columns a batch at a time, those that lower a weighted least-squares proxy
## of the relative attention error most (the row-centred error of
## @code{@var{Y} * @var{Y}'} against @code{G}, weighted toward the rows and
## entries where the error peaks), and refits the weights of all kept columns
## after each batch (nonnegative).  Every @var{Y} it tries is measured against
## @code{G}: @var{info}.rel_error, the largest
## @code{abs (Att(@var{Y}) ./ Att(@var{X}) - 1)}, is exact, a certificate and not
## an estimate.  At the end the columns whose weight matters least are pruned
## while the target still holds; with up to 90 rows, the weights are then
## fitted to the largest error itself (Lawson's reweighting of every entry of
## the @var{n}-by-@var{n} error) and the prune runs again.  No randomness unless @var{X} is a very
## wide sparse matrix (option @qcode{"approach"} below): then the columns are
## drawn, and the certificate stays exact.
##
## With @qcode{"rel"} (default 0.01) it returns the fewest columns it finds
## whose exact relative error is at most @var{r}; if no column lowers the
## error further first, it returns the best it found and warns
## (@qcode{"attsparse:targetMissed"}).  With @qcode{"k"} it returns the
## smallest error it finds with at most @var{k} columns.
##
## Which method: @code{attsparse_greedy} when the fewest columns for a given
## error matter most and @var{X} fits in memory (it needs the @var{n}-by-@var{n}
## @code{X * X'} and scores every column each round; on the demo's real data
## sets (acq, crude, golub, lung) at @code{"rel", 0.02} it keeps more than ten
## times fewer columns than @code{attsparse_rand} with the same
## @qcode{"rel"}); @code{attsparse_rand} for speed on very large or
## block-read @var{X}, or for an estimate without @code{X * X'};
## @code{attsparse_det} for a spectral guarantee
## @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}, which the greedy method does
## not give.
##
## @var{err} is the infinity-norm error
## @code{max (abs (Att(@var{Y}) - Att(@var{X}))(:))}, always computed.
##
## Options may also be one struct (with or without pairs); @qcode{"prepare"}
## takes @code{attsparse_prepare}'s transform, kept for @code{attsparse_apply}.
##
## Options, as name/value pairs (names are matched exactly, in lower case, as
## in R; an option given twice is an error):
##
## @table @asis
## @item @qcode{"rel"}
## Target relative attention error in (0, 1); 0.01 unless @qcode{"k"} is
## given (not both).
## @item @qcode{"k"}
## Column budget, a whole number of at least 1: the smallest error found with
## at most @var{k} columns; no column at all when the columns found are no
## better than @var{Y} = 0, the uniform attention.
## @item @qcode{"error"}
## False: no @var{info}.eps_spectral unless @qcode{"spectral"} asks for it.
## The error, relative error and @code{r} are computed either way (the method
## measures them).
## @item @qcode{"spectral"}
## Compute @var{info}.eps_spectral and @var{info}.bound (default: the value of
## @qcode{"error"}).
## @item @qcode{"approach"}
## @qcode{"rounds"}: the rounds over every candidate column; @qcode{"sample"}:
## the sample path for very wide sparse @var{X}, which keeps the heavy columns
## (at least @var{n}/4 nonzeros) at weight 1, draws the others by squared norm
## with @qcode{"seed"}, refits their weights without the @var{k}-by-@var{k}
## normal equations, draws more while the exact error is above @qcode{"rel"},
## and prunes (it takes @qcode{"rel"}, not @qcode{"k"}); @qcode{"auto"}
## (default): the sample path for a sparse @var{X} whose @code{X * X'} costs
## more than 2e9 multiply-adds, at most a quarter of its columns heavy (there
## the rounds, each about as costly, would take hours), else the rounds, with the
## sample path also tried on any other sparse @var{X} once the rounds keep 500
## columns, the result with fewer columns returned (@qcode{"rounds"} never
## tries it).
## @var{info}.approach says which was returned.
## @item @qcode{"candidates"}
## The columns the rounds draw from: every column by default; given, a
## Poisson sample by squared norm of about this many (the heaviest always in).
## @item @qcode{"minimax"}
## The most rows of @var{X} for which the kept columns' weights are also
## fitted to the largest error itself, in the refit and the prune (default
## 90; 0: never).  More rows keep fewer columns in steeply more time: the
## built-in example's 100 x 20000 at 1%: 191 columns in 1.2 s by default,
## 130 in 3.9 s with 128; ALL's 128 rows at 2%: 664 in 9 s, 572 in 39 s;
## 200 rows: 33 times the time.
## @item @qcode{"seed"}
## The seed of the candidates' sample or of the sample path's draws (default:
## drawn from Octave's @code{rand} when a sample is made).
## @item @qcode{"memory"}
## Cap in MiB on the working arrays, refused before allocating; 0 (default):
## 3/4 of the memory the process may use.
## @item @qcode{"threads"}
## OpenMP threads; 0 (default): @env{OMP_NUM_THREADS} if set, else all
## cores.  Results do not depend on it.
## @item @qcode{"verbose"}
## Print a progress line per round (false).
## Without it, a call that runs longer than 2 s prints a progress line
## every 2 s on stderr.  When the first round alone takes 2 s, it says the
## run will be long and that @code{attsparse_rand} with @qcode{"rel"} is faster.
## @end table
##
## @var{info} has the fields @code{index}, @code{weight}, @code{m} and
## @code{rounds} (the rounds of selection and refit; the sample path's
## draws), @code{k} (columns
## kept), @code{error}, @code{rel_error} (exact), @code{r}, @code{baseline}
## (the relative error of @code{@var{Y} = 0}), @code{eps_spectral},
## @code{bound}, @code{method} (@qcode{"greedy"}), @code{time},
## @code{error_time}, @code{rel_target} (NaN with @qcode{"k"}),
## @code{max_columns} (the budget @var{k}, NaN without it) and
## @code{approach} (@qcode{"rounds"} or @qcode{"sample"}); with
## @qcode{"candidates"} or on the sample path also @code{candidates} (the
## columns drawn) and @code{seed}.
##
## @var{X} must be in memory: a function handle (block reader) is refused.
## A long run stops on Ctrl-C with the error @qcode{"attsparse:interrupted"}.
## @seealso{attsparse_rand, attsparse_det, attention_error}
## @end deftypefn

function [Y, err, info] = attsparse_greedy (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [varargin, prep] = struct_options (varargin, "attsparse_greedy");   # options as one struct; "prepare"
  if (is_function_handle (X))
    __attsparse__ ("blocks_refuse", "greedy");   # the core's message: why X must be in memory
  endif
  X = double_input (X);
  precheck (X, varargin, "attsparse_greedy", 0.01);   # the traps, before any work
  ## no keys or values: "K" or "V" among the options is refused by the core as an unknown option
  [Y, err, info] = __attsparse__ ("method", "greedy", X, {}, {}, varargin{:});
  info = with_prepare (info, prep);
endfunction

%!shared X
%! X = attsparse_example (6, 300, 0.5, 2);

%!test
%! [Y, err, info] = attsparse_greedy (X, "rel", 0.02);
%! assert (Y, X(:, info.index) .* info.weight');
%! assert (all (diff (info.index) > 0) && all (info.weight > 0));
%! assert (info.method, "greedy");
%! assert (info.rel_target, 0.02);
%! assert (isnan (info.max_columns));
%! ## the certificate: the exact error of Y, from a plain softmax of the two Grams
%! A = @(G) exp (G - max (G, [], 2)) ./ sum (exp (G - max (G, [], 2)), 2);
%! rel = max (abs (A (Y * Y') ./ A (X * X') - 1)(:));
%! assert (info.rel_error, rel, 1e-12);
%! assert (rel <= 0.02);
%! assert (err, max (abs (A (Y * Y') - A (X * X'))(:)), 1e-14);
%! assert (info.k, columns (Y));

%!test
%! ## a column budget: at most k columns, and a larger budget is never worse here
%! [Y3, ~, i3] = attsparse_greedy (X, "k", 3);
%! [Y6, ~, i6] = attsparse_greedy (X, "k", 6);
%! assert (columns (Y3) <= 3 && columns (Y6) <= 6);
%! assert (i3.max_columns, 3);
%! assert (isnan (i3.rel_target));
%! assert (i6.rel_error <= i3.rel_error);

%!test
%! ## sparse X gives sparse Y, the target met
%! S = sparse (X .* (abs (X) > 0.05));
%! [Ys, ~, is] = attsparse_greedy (S, "rel", 0.05);
%! assert (issparse (Ys));
%! assert (Ys, S(:, is.index) * diag (is.weight));
%! assert (is.rel_error <= 0.05);

%!warning <was not met> attsparse_greedy (X(1:3, 1:5), "rel", 1e-15, "candidates", 2, "seed", 1);

%!error <Invalid call> attsparse_greedy ()
%!error <X must be in memory> attsparse_greedy (@(a, b) ones (3, b - a + 1), "ncol", 10)
%!error id=attsparse:badInput attsparse_greedy (struct ())
%!error <'rel' must be a number in \(0, 1\), got 0> attsparse_greedy (X, "rel", 0)
%!error <'rel' must be a number in \(0, 1\), got 1> attsparse_greedy (X, "rel", 1)
%!error <'rel' and 'k' cannot be given together> attsparse_greedy (X, "rel", 0.1, "k", 5)
%!error <'k' must be a whole number in \[1, > attsparse_greedy (X, "k", 0)
%!error <unknown option 'eps'> attsparse_greedy (X, "eps", 0.5)

%!demo
%! ## the fewest columns for rel <= 2% on the built-in example, its rel
%! ## exact; then a budget of 20 columns, and the sampling method asked for the same rel
%! X = attsparse_example (50, 5000, 0.5, 1);
%! [Y, err, info] = attsparse_greedy (X, "rel", 0.02);
%! printf ("greedy: %d of %d columns, rel %.3g%% (exact), baseline %.3g%%\n", ...
%!         columns (Y), columns (X), 100 * info.rel_error, 100 * info.baseline);
%! [~, ~, b] = attsparse_greedy (X, "k", 20);
%! printf ("budget 20 columns: rel %.3g%%\n", 100 * b.rel_error);
%! [~, ~, s] = attsparse_rand (X, "rel", 0.02, "seed", 1);
%! printf ("attsparse_rand (rel = 2%%): %d columns, rel %.3g%%\n", s.k, 100 * s.rel_error);
