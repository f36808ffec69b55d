## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_rand.m: the randomized algorithm (column sampling, i.i.d. or Poisson, with an error estimate) for Octave.

## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_rand (@var{X})
## @deftypefnx {} {[@var{Y}, @var{err}, @var{info}] =} attsparse_rand (@var{X}, @var{name}, @var{value}, @dots{})
## Sparsify the symmetric softmax attention of @var{X} by sampling its columns.
##
## @var{X} is an @var{n}-by-@var{d} real matrix, full or sparse, usually with
## @var{d} much larger than @var{n}.  The result @var{Y} (@var{n}-by-@var{k}) is
## made of rescaled columns of @var{X},
## @code{@var{Y} == @var{X}(:, @var{info}.index) .* @var{info}.weight'},
## chosen so that @code{@var{Y}*@var{Y}'} approximates @code{@var{X}*@var{X}'}
## spectrally and hence the attention @code{D^-1 exp (@var{X}*@var{X}')} of
## @var{X} (see @code{sym_attention}).  @var{Y} is sparse when @var{X} is.
##
## Columns are drawn i.i.d.@: with probabilities proportional to approximate
## leverage scores (a sparse embedding, a triangular factor of the sketch and a Johnson-Lindenstrauss
## step, in time linear in @code{nnz (@var{X})}); a column drawn @var{c} times
## becomes one column with weight @code{sqrt (@var{c} / (@var{m} @var{p}))}.
##
## @var{err} is the infinity-norm error
## @code{max (abs (Att(@var{Y}) - Att(@var{X}))(:))}, or NaN with
## @code{"error", false}.  Read it next to @var{info}.baseline: for small
## @code{r = max (abs (@var{X}*@var{X}')(:))} even the empty sketch has a small
## @var{err}.
##
## Options may also be one struct (with or without pairs); @qcode{"prepare"}
## takes @code{attsparse_prepare}'s transform, kept for @code{attsparse_apply}.
##
## Options, as name/value pairs (names and choices are matched exactly, in lower case, as in R; an option given twice is an error):
##
## @table @asis
## @item @qcode{"m"}
## Number of draws.  Default: from the matrix Chernoff bound (Tropp 2012,
## Theorem 1.1), @code{ceil (beta * rank * log (2 * rank / delta_s) / ((1+eps) log (1+eps) - eps))},
## where every probability is at least @code{tau_j / (beta * rank)} (@var{tau_j}
## the exact leverage scores) with probability @code{1 - delta / 2}.  With
## exact scores @code{beta = 1} and @code{delta_s = delta}.  With approximate
## scores @var{sigma_j}, @code{delta_s = delta / 2} and
## @code{beta = (b / a) * sum (sigma) / rank}: the measured sum corrects the
## inflation of sketched scores (about 4/3 of the rank), and @var{b} (above 1)
## and @var{a} (below 1) solve @code{(k/2) (t - 1 - log (t)) = log (4 d / delta)},
## the chi-square Chernoff bound (Dasgupta and Gupta 2003; Laurent and Massart
## 2000) at @code{k = s1} for the upper tail of the embedding and @code{k = s2}
## for the lower tail of the JL step, each over the @var{d} columns.  The
## embedding enters only through @code{norm (S1 * w_j)^2} for the fixed vectors
## @code{w_j = X' * pinv (X*X') * x_j} (by Cauchy-Schwarz,
## @code{sigma_j >= tau_j / b} before the JL step), so no subspace embedding is
## needed; @var{b} is the value of a Gaussian embedding, which the OSNAP
## embedding (Nelson and Nguyen 2013) matches in its second moment.  Mixed
## probabilities double @var{beta}; norm and uniform ones carry no such bound
## and use @code{beta = 2} with all of @var{delta}.  @var{info}.beta reports
## it.
## @item @qcode{"eps"}
## Target spectral error in (0, 1), used for the default @var{m} (0.5).
## With @qcode{"rel"}, none unless given: given, it keeps the spectral
## guarantee as a floor (see @qcode{"rel"}).
## @item @qcode{"delta"}
## Failure probability in (0, 1) (0.01).
## @item @qcode{"seed"}
## Whole number in [0, 2^53).  Default: @code{floor (rand () * 2^31)}, so that
## @code{rand ("state", @dots{})} or @code{rand ("seed", @dots{})} reproduces a
## run.  The same @var{X}, options and seed give the same result in R.
## @item @qcode{"error"}
## Compute @var{err} and the metrics in @var{info} (true).  This costs as much
## as the exact Gram matrix.
## @item @qcode{"spectral"}
## Compute @var{info}.eps_spectral and @var{info}.bound (default: the value of
## @qcode{"error"}).
## @item @qcode{"probabilities"}
## @qcode{"auto"} (default: @qcode{"leverage"}, or with @qcode{"rel"} the
## scheme picked by the pilot samples), @qcode{"leverage"}, @qcode{"uniform"}, @qcode{"norm"} (squared
## column norms) or @qcode{"mixed"} (the mean of the leverage and the norm
## probabilities, each normalized to sum 1: each keeps its guarantee up to a
## factor 2).  Norm probabilities often do better on heavy-tailed counts,
## leverage scores on data whose columns are alike in norm.
## @item @qcode{"sampling"}
## @qcode{"iid"} (default): @var{m} draws with replacement, as above.
## @qcode{"poisson"}: column @var{j} is kept with probability
## @code{q = min (1, @var{m} p(@var{j}))} and weight @code{1 / sqrt (q)},
## independently of the others; columns with @code{q = 1} enter with weight 1,
## none is repeated, and a larger @var{m} keeps a superset of the columns.
## The matrix Chernoff bound behind the default @var{m} holds for Poisson
## sampling with the same @var{m}.  With @qcode{"rel"}, Poisson (and
## @qcode{"iid"} is an error).
## @item @qcode{"rel"}
## A target for @var{info}.rel_estimate in (0, 1); not together with
## @qcode{"m"}, nor with @qcode{"estimate", "none"}.  Poisson pilot samples
## (@code{m = 4 rank}) estimate the error of the leverage, norm and mixed
## probabilities (only the given one when @qcode{"probabilities"} is set);
## each estimate predicts the @var{m} of the target (below), and the
## probabilities that would keep the fewest columns at their predicted
## @var{m} are used (with the exact error asked for, a pilot whose exact
## error meets the target counts its own columns, and when it is picked the
## rounds end there).  Their estimate predicts the @var{m} of the target: the sampling variance of
## its columns at a larger @var{m} (the columns that become certain leave
## it, else the error falls like @code{m^(-1/2)}), with 1.5 times the
## @var{m} to spare; each round keeps a superset of the previous round's
## columns (at least 1.25 times its @var{m} when it missed, at most 4
## times when its estimate rests on fewer than 30 columns left to chance,
## at most 12 rounds) until the estimate meets the target or every column
## is kept.  A sample that meets the target with room to spare tries the
## smaller predicted @var{m} (a subset, kept when its estimate meets the
## target, @var{m} at least the rank); when that misses, the geometric
## mean of the two @var{m}, while it saves a fifth.  With @qcode{"eps"} given, only
## leverage and mixed probabilities are candidates and @var{m} is at least
## the default @var{m} for that @var{eps} (the spectral guarantee, with
## probability 1 - @var{delta}).  @var{info}.rounds counts the samples,
## @var{info}.eps is NaN without @qcode{"eps"}.  With @qcode{"error"}
## false, @code{X * X'} is never computed.  With the exact error asked for
## (@qcode{"error"} true, the default), @code{X * X'} is computed first and
## the sample the estimate chose is checked against it: when its exact
## @var{info}.rel_error is above the target (an estimate from the kept
## columns alone can fall short, as on raw counts with large logits), a
## larger sample (a superset; its @var{m} the last one's times the squared
## ratio of the exact error to the target, 1.25 to 4 times) is drawn until
## the exact error meets the target or every column is kept.  Each sample
## judged by its exact error is also tried calibrated (survey calibration, to
## totals of @var{X} known without X X'), each calibration kept when it
## lowers the exact error: all its weights times the one factor that gives
## @var{Y} the squared norm of @var{X} (tr(Y Y') = tr(X X'), the ratio
## estimator); and, on the sample the shrink below ends with, when it keeps
## at least a column per row, raking: each weight's square times
## exp(sum_i lambda_i x_ij^2) so that every row of @var{Y} has the squared
## norm of that row of @var{X}, the shrink then going on from it.  Poisson
## sampling leaves the scale of Y Y' and of its rows to chance, and where most
## of the squared norm of @var{X} lies in a few directions (spectra, low-rank
## data) that is most of the error: on generated spectra the target mode keeps
## 15% of the columns it keeps uncalibrated, on low-rank data 45%, over the
## development corpus 74%.  The weights of a calibrated result are those of
## the fixed-@var{m} draw with the same @var{m}, probabilities and seed times
## those factors; its @var{info}.rel_estimate is the estimate of that draw.
## With @var{eps} given no sample is calibrated: the spectral guarantee is of
## the draw's own weights.  A sample
## whose exact error meets the target is shrunk: the same draw at a smaller
## @var{m} (a subset) is tried, judged by its exact error, from @var{m}
## times the squared ratio of the exact error to the target (1/4 to 0.8
## times) down, then halfway (geometrically) between the smallest @var{m}
## that met the target and the largest that missed it, until they are
## within 10%; the smallest sample that met it is returned, with its own
## @var{info}.rel_estimate (which may then be above the target: the
## estimate covers the error over seeds, the exact error is this draw's).
## The estimate often keeps 2 to 10 times the columns this draw needs (on
## low-rank or dense expression data); the exact error keeps what it needs,
## at the cost of a Gram of @var{Y} for each sample tried.  With a block reader the same rounds read only the columns
## they add: a growing round reads those of 4 times its @var{m}, so that
## the rounds after it read nothing, and the result is the in-memory one,
## bit for bit.
## @item @qcode{"estimate"}
## Which estimate of the error @var{info}.rel_estimate and
## @var{info}.inf_estimate carry, computed from @var{Y} alone, without the
## Gram matrix of @var{X}: @qcode{"gaussian"} (default): the sampling
## variance of the error of @code{Y * Y'}, estimated without bias from the
## kept columns (a column left to chance counts with @code{1 - q}, Poisson,
## or the multinomial variance of its draw count, i.i.d.), carried through
## the row-centred softmax to each entry of @code{log (Att(Y) ./ Att(X))}
## (each row's centre computed as it is for a dense @var{X}, bounded through
## the mean row of @code{Att(Y)} for a sparse one; the diagonal's error known
## from the rows' squared norms, carried through the softmax without
## linearizing), and the 95% quantile of the largest entry error from a
## Gaussian tail per entry (their union: conservative where the entries move
## together); it costs two Gram matrices of @var{Y} (@code{Y * Y'} and one of
## the columns left to chance; a dense @var{X}: and two products of that
## size).  Measured over 20
## seeds on real and generated data (dense expression, counts, very sparse,
## heavy-tailed), default and target mode: it covered the exact rel_error in
## 85-100% of the seeds (at least 95% on all but two of 33 family and mode
## pairs), 1.0-2.8 times it in the median.  @qcode{"bootstrap"}: 30
## resamples of the sampled terms, their 95% quantile (the 29th of 30; 30
## Gram matrices of @var{Y} more); on the same data it covered the exact
## rel_error in 76-100% of the seeds (1.4-3.1 times it in the median): a 90%
## rather than a 95% quantile in practice.
## @qcode{"none"} (or false): no estimate; true: the default.
## @item @qcode{"leverage"}
## @qcode{"approx"} (default) or @qcode{"exact"} leverage scores.  When the
## embedding would not be smaller than @var{X}', exact scores are used.
## @item @qcode{"jl"}
## Johnson-Lindenstrauss matrix: @qcode{"gaussian"} (default) or @qcode{"ams"}.
## @item @qcode{"s1"}, @qcode{"s"}, @qcode{"s2"}
## Sketch sizes: embedding rows (@code{4 @var{n} + 16}), nonzeros per embedding
## column (4), JL columns (@code{ceil (4.63 log (4 @var{d} / delta))}: every
## approximate score keeps at least a third of its value before
## the JL step, @code{a = 1/3} above; the default width is used only when it
## is at most half the rank, where it at least halves the score pass: otherwise
## the scores are the sketch's exact projections, @code{a = 1}, and the default
## @var{m} is smaller; a given @qcode{"s2"} is used when below the rank).
## @item @qcode{"beta"}
## Score approximation factor in [1, 1e6) for the default @var{m}, which is
## then @code{ceil (beta * rank * log (2 * rank / delta) / ((1+eps) log (1+eps) - eps))}
## for every choice of probabilities (default: from the sketches, as above).
## @item @qcode{"memory"}
## Cap in MiB on the working arrays, refused before allocating; 0 (default):
## 3/4 of the memory the process may use (the physical memory, or a lower
## limit such as @code{ulimit -v}).
## @item @qcode{"refit"}
## True: the kept columns' weights fitted again against @code{X * X'} by the
## nonnegative refit of @code{attsparse_greedy}, the weights with the smallest
## exact @var{info}.rel_error kept (the sample's own among them, so the refit
## never raises it), zero weights dropped; @var{info}.refit_rel is the exact
## relative error before the refit, and the result carries no estimate
## (@var{info}.rel_error is exact).  @var{X} in memory, without @qcode{"K"} or
## @qcode{"V"} (false).
## @item @qcode{"threads"}
## OpenMP threads; 0 (default): @env{OMP_NUM_THREADS} if set, else all
## cores; at most 4 times the online CPUs.  Results do not depend on it.
## @item @qcode{"verbose"}
## Print progress lines (false).
## Without it, a call that runs longer than 2 s prints a progress line
## every 2 s on stderr.
## @item @qcode{"K"}
## Keys for attention with queries @var{X} and keys @var{K} (Q != K): an
## @var{n2}-by-@var{d} matrix, full or sparse (mixed with @var{X} is fine).
## One set of columns and weights is chosen for the stacked @code{[@var{X}; @var{K}]}
## (no copy of it is made); @var{info}.YK is @code{@var{K}(:, index) .* weight'}, and the
## metrics are those of @code{Att(@var{X}, @var{K}) = D^-1 exp (@var{X}*@var{K}')}:
## @code{rel_error}, @code{error}, @code{baseline} (uniform 1/@var{n2}),
## @code{r = max (abs (@var{X}*@var{K}')(:))}, @code{eps_spectral} of the stacked matrix
## and @code{bound = exp (2 eps_spectral max_i norm (q_i) max_j norm (k_j)) - 1}.
## With @qcode{"probabilities", "norm"} column @var{j} has weight
## @code{norm (@var{X}(:, j)) * norm (@var{K}(:, j))}.  See @code{attention}.
## @item @qcode{"V"}
## Values, an @var{n2}-by-@var{dv} matrix, full or sparse (@var{n2} rows of @var{K}, or
## of @var{X} without @var{K}; a row vector of @var{n2} values is one column): @var{info}.out_error is @code{max (abs (Att~ V - Att V)(:))} and
## @var{info}.out_rel_error that error relative to @code{Att * abs (V)} entry by entry
## (at most @var{info}.bound).  Without @var{K} the sample is the symmetric one.
## @end table
##
## @strong{Larger than memory.}  @var{X} may be a function handle
## @code{@var{X} (@var{j0}, @var{j1})} that returns columns @var{j0}..@var{j1}
## (full or sparse, the same kind every time), with the option
## @qcode{"ncol"}, @var{d} (and optionally @qcode{"nrow"}; else one column is
## read to find it).  Columns are read on demand, at most @qcode{"block"}
## columns a call (default and at most: the canonical chunk, 16384 columns or
## more, @var{info}.chunk): a pass for the sketch, a pass for the scores (which
## also sums @code{X * X'} when the metrics are asked for), and a read of the
## chosen columns (@var{info}.reads).  Memory: a block, two @code{s1 x n}
## sketches, and 12 or 20 bytes per column.  The result is the one
## @code{attsparse_rand} gives on the matrix in memory, bit for bit, whatever
## @qcode{"block"} (the metrics to 1e-12), and the one R gives on a
## @code{DelayedMatrix}.  The reader must return the same columns every time
## (each pass hashes what it reads; a column that reads differently stops the
## run), and its own error is reported with the columns it was reading; the
## @qcode{"memory"} cap is checked before any column is read.  An @var{X} no
## wider than the sketch (@code{@var{d} <= s1}) is read once, whole, and run
## in memory.  @code{attsparse_file_reader} reads a binary file with
## @code{fread}:
##
## @example
## @group
## rd = attsparse_file_reader ("X.bin", n);   # n x d doubles, column-major
## [Y, err, info] = attsparse_rand (rd, "ncol", d, "sampling", "poisson");
## @end group
## @end example
##
## Not with a handle when @code{@var{d} > s1}: @qcode{"rel"} (its rounds
## resample the columns) and @qcode{"leverage"}, @qcode{"exact"}.
##
## @var{info} is a struct with fields @code{index} (1-based, increasing,
## distinct; a column vector), @code{weight}, @code{m} (draws), @code{k}
## (columns of @var{Y}), @code{rank}, @code{eps}, @code{time} (seconds of the
## algorithm), @code{error}, @code{rel_error}
## (@code{max (abs (Att(@var{Y}) ./ Att(@var{X}) - 1)(:))}), @code{r},
## @code{baseline} (@code{rel_error} of the uniform attention 1/@var{n}, the
## empty sketch), @code{eps_spectral} (smallest eps with
## @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}), @code{bound}
## (@code{exp (2 eps_spectral max (diag (X X'))) - 1}, a bound on
## @code{rel_error}), @code{error_time}, @code{seed}, and @code{s1}, @code{s},
## @code{s2} (sketch sizes used; 0 when not used), @code{sampling} and
## @code{probabilities} (the schemes used), @code{rel_estimate} and
## @code{inf_estimate} (estimates of @code{rel_error} and @code{error} from
## @var{Y} alone; NaN with @code{"estimate", "none"}), @code{estimate}
## (which estimate they are: @qcode{"gaussian"}, @qcode{"bootstrap"},
## @qcode{"exact"} (0: every column with a chance kept for certain,
## @code{Y * Y' = X * X'}) or @qcode{"none"}) and @code{estimate_why}
## (why there is none, e.g. an empty sample, or a sample whose kept columns
## were all certain while others were left out; empty when there is one),
## @code{rounds} and
## @code{beta} (the factor of the default @var{m}, see @qcode{"m"}; NaN with
## @qcode{"rel"}), @code{method} (@qcode{"randomized"}), @code{delta} and
## @code{rel_target} (the options the run was given; NaN outside target mode),
## and with @qcode{"refit"} @code{refit_rel}.
## Metrics not computed are NaN.  The fields and their order are those of the
## R result (one table in the C core makes both).
##
## Errors have identifiers @qcode{"attsparse:badInput"} (@var{X}),
## @qcode{"attsparse:badArgument"} (options), @qcode{"attsparse:interrupted"}
## (Ctrl-C), @qcode{"attsparse:noMemory"}, @qcode{"attsparse:tooBig"}.
##
## @example
## @group
## X = attsparse_example ();
## [Y, err, info] = attsparse_rand (X, "eps", 0.5, "seed", 1);
## [info.rel_error, info.baseline]
## @end group
## @end example
## @seealso{attsparse_det, leverage_scores, attention_error, sym_attention, attsparse_example}
## @end deftypefn

function [Y, err, info] = attsparse_rand (X, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [varargin, prep] = struct_options (varargin, "attsparse_rand");   # options as one struct; "prepare"
  [K, V, opts] = qk_options (varargin, "attsparse_rand");
  if (is_function_handle (X))
    if (! (isempty (K) && isempty (V)))
      error ("attsparse:badArgument", "attsparse_rand: a block reader X does not take K or V");
    endif
    [rd, ncol, nrow, block, rest] = reader_args (X, opts, "attsparse_rand");
    precheck ([nrow, ncol], {}, "attsparse_rand", NaN, "shape");   # its shape's trap, before any pass
    [Y, err, info] = __attsparse__ ("rand_blocks", rd, ncol, nrow, block, rest{:});
    info = with_prepare (info, prep);
    return;
  endif
  X = double_input (X);
  precheck (X, opts, "attsparse_rand", NaN);   # the traps, before any work
  [Y, err, info] = __attsparse__ ("method", "rand", X, K, V, opts{:});
  info = with_prepare (info, prep);
endfunction

%!shared X, Xs
%! X = attsparse_example (6, 300, 0.5, 3);
%! Xs = sparse (X .* (mod (reshape (1:1800, 6, 300), 3) == 0));

%!test
%! [Y, err, info] = attsparse_rand (X, "seed", 7);
%! assert (size (Y), [6, info.k]);
%! assert (Y, X(:, info.index) .* info.weight');
%! assert (all (diff (info.index) > 0));
%! assert (info.index, round (info.index));
%! assert (size (info.index), [info.k, 1]);
%! assert (err, info.error);
%! assert (info.seed, 7);
%! assert (info.rank, 6);
%! assert (info.rel_error < info.baseline);

%!test
%! [Y, ~, info] = attsparse_rand (Xs, "seed", 7, "m", 200);
%! assert (issparse (Y));
%! assert (isequal (Y, Xs(:, info.index) * diag (info.weight)));
%! assert (info.m, 200);
%! assert (info.k <= 200);

%!test
%! ## option names and choices are matched exactly, as in R
%! [Y1, ~, i1] = attsparse_rand (X, "seed", 11, "error", false);
%! assert (isnan (i1.error) && isnan (i1.rel_error) && isnan (i1.eps_spectral));
%!error <unknown option 'SEED': option names are lower case, did you mean 'seed'\?> attsparse_rand (X, "SEED", 11)
%!error <'sampling' must be one of iid\|poisson, got "Poisson"> attsparse_rand (X, "sampling", "Poisson")

%!test
%! rand ("state", 42);
%! [~, ~, i1] = attsparse_rand (X, "error", false);
%! rand ("state", 42);
%! [~, ~, i2] = attsparse_rand (X, "error", false);
%! assert (i1.seed, i2.seed);
%! assert (isequal (i1.index, i2.index) && isequal (i1.weight, i2.weight));

%!test
%! [~, ~, info] = attsparse_rand (single (X), "seed", 1, "spectral", false);
%! assert (isnan (info.eps_spectral) && ! isnan (info.rel_error));
%! [~, ~, info] = attsparse_rand (X, "seed", 1, "error", false, "spectral", true);
%! assert (isnan (info.rel_error) && ! isnan (info.eps_spectral));

%!test
%! ## Poisson sampling: certain columns (q = 1) enter with weight exactly 1
%! Xh = X;
%! Xh(:, [5, 200]) *= 30;
%! [Y, ~, info] = attsparse_rand (Xh, "seed", 3, "m", 40, "sampling", "poisson", ...
%!                                "probabilities", "norm", "error", false);
%! p = sumsq (Xh, 1)' / sum (sumsq (Xh, 1));
%! q = min (1, 40 * p);
%! assert (q([5, 200]), [1; 1]);
%! assert (ismember ([5; 200], info.index));
%! assert (info.weight(ismember (info.index, [5; 200])), [1; 1]);
%! assert (info.weight, 1 ./ sqrt (q(info.index)), -1e-14);
%! assert (info.sampling, "poisson");
%! assert (info.probabilities, "norm");
%! assert (isequal (Y, Xh(:, info.index) .* info.weight'));

%!test
%! [~, ~, a] = attsparse_rand (X, "seed", 5, "m", 30, "sampling", "poisson", "error", false);
%! [~, ~, b] = attsparse_rand (X, "seed", 5, "m", 90, "sampling", "poisson", "error", false);
%! assert (all (ismember (a.index, b.index)));
%! assert (a.rel_estimate > 0 && isfinite (a.inf_estimate));
%! [~, ~, c] = attsparse_rand (X, "seed", 5, "m", 30, "sampling", "poisson", "error", false, ...
%!                             "estimate", false);
%! assert (isnan (c.rel_estimate) && isequal (c.index, a.index) && isequal (c.weight, a.weight));
%! [~, ~, d] = attsparse_rand (Xs, "seed", 5, "probabilities", "mixed", "error", false);
%! assert (d.probabilities, "mixed");
%! assert (d.sampling, "iid");

%!test
%! [Y, ~, info] = attsparse_rand (X, "rel", 0.05, "seed", 2, "spectral", false);
%! assert (info.rel_error <= 0.05);   # the exact error (the default) meets the target
%! assert (info.sampling, "poisson");
%! assert (any (strcmp (info.probabilities, {"leverage", "norm", "mixed"})));
%! assert (info.rounds >= 1 && info.m >= 1);
%! assert (isequal (Y, X(:, info.index) .* info.weight'));
%! [~, ~, lev] = attsparse_rand (X, "rel", 0.05, "seed", 2, "probabilities", "leverage", "error", false);
%! assert (lev.probabilities, "leverage");

%!test
%! ## error false, spectral true: eps_spectral is computed (as documented and as in R)
%! [Y, err, info] = attsparse_rand (X, "seed", 2, "error", false, "spectral", true);
%! e = attention_error (X, Y, "spectral", true);
%! assert (isnan (err) && isnan (info.rel_error));
%! assert (info.eps_spectral, e.eps_spectral, 1e-8);
%! [Y, err, info] = attsparse_rand (X, "seed", 2);
%! e = attention_error (X, Y, "spectral", true);
%! assert ([err, info.rel_error, info.eps_spectral], [e.inf, e.rel, e.eps_spectral], 1e-10);

%!test
%! ## s = 4 is the default; s = 0 is refused (as in R)
%! [~, ~, a] = attsparse_rand (X, "seed", 5, "error", false, "s1", 30);
%! [~, ~, b] = attsparse_rand (X, "seed", 5, "error", false, "s1", 30, "s", 4);
%! assert (isequal (a.index, b.index) && isequal (a.weight, b.weight) && a.s == 4);

%!error <'s' must be a whole number in \[1, 64\], got 0> attsparse_rand (X, "s", 0)
%!error <'rel' must be a number in \(0, 1\)> attsparse_rand (X, "rel", 0)
%!error <'rel' must be a number in \(0, 1\)> attsparse_rand (X, "rel", 1)
%!error <'rel' and 'm' cannot be given together> attsparse_rand (X, "rel", 0.1, "m", 40)
%!error <'sampling' = "iid" cannot be used with 'rel'> attsparse_rand (X, "rel", 0.1, "sampling", "iid")
%!error <'eps' with 'rel' keeps the spectral guarantee, which norm> attsparse_rand (X, "rel", 0.1, "eps", 0.5, "probabilities", "norm")
%!error <'sampling' must be one of iid\|poisson> attsparse_rand (X, "sampling", "bernoulli")
%!error <'estimate' must be one of none\|gaussian\|bootstrap, true or false> attsparse_rand (X, "estimate", 2)
%!error <'probabilities' must be one of leverage\|uniform\|norm\|mixed\|auto> attsparse_rand (X, "probabilities", "mix")
%!test
%! ## a block reader gives the in-memory index and weight, bit for bit, for any block size
%! Xb = randn (8, 40000) * 0.05;
%! Xb(:, [17, 23001]) *= 30;
%! for sampling = {"poisson", "iid"}
%!   [Y0, e0, i0] = attsparse_rand (Xb, "seed", 4, "m", 200, "sampling", sampling{1});
%!   for block = [16384, 5000, 40000]
%!     [Y1, e1, i1] = attsparse_rand (@(a, b) Xb(:, a:b), "ncol", 40000, "block", block, ...
%!                                    "seed", 4, "m", 200, "sampling", sampling{1});
%!     assert (isequal (i1.index, i0.index) && isequal (i1.weight, i0.weight));
%!     assert (isequal (Y1, Y0) && isequal (i1.rel_estimate, i0.rel_estimate));
%!     assert (i1.beta, i0.beta);   # the default m's factor, from the same sketch sizes
%!     assert (e1, e0, -1e-12);
%!   endfor
%! endfor
%! Xs = sparse (Xb .* (abs (Xb) > 0.06));
%! [Y0, ~, i0] = attsparse_rand (Xs, "seed", 4, "m", 200, "sampling", "poisson", "error", false);
%! [Y1, ~, i1] = attsparse_rand (@(a, b) Xs(:, a:b), "ncol", 40000, "nrow", 8, "block", 7000, ...
%!                               "seed", 4, "m", 200, "sampling", "poisson", "error", false);
%! assert (issparse (Y1) && isequal (Y1, Y0));
%! assert (isequal (i1.index, i0.index) && isequal (i1.weight, i0.weight));
%! ## the reader over a binary file (attsparse_file_reader)
%! f = tempname ();
%! fid = fopen (f, "w"); fwrite (fid, Xb, "double"); fclose (fid);
%! unwind_protect
%!   [~, ~, i2] = attsparse_rand (attsparse_file_reader (f, 8), "ncol", 40000, "seed", 4, "m", 200, ...
%!                                "sampling", "poisson", "error", false);
%!   [~, ~, i0] = attsparse_rand (Xb, "seed", 4, "m", 200, "sampling", "poisson", "error", false);
%!   assert (isequal (i2.index, i0.index) && isequal (i2.weight, i0.weight));
%! unwind_protect_cleanup
%!   unlink (f);
%! end_unwind_protect
%!error <needs "ncol"> attsparse_rand (@(a, b) ones (3, b - a + 1))
%!error <must be 3 x 16384> attsparse_rand (@(a, b) ones (3, 2), "ncol", 40000)
%!error <the reader failed on columns> attsparse_rand (@(a, b) error ("no disk"), "ncol", 40000, "nrow", 3)
%!error <Invalid call> attsparse_rand ()
%!error id=attsparse:badInput attsparse_rand ({1})
%!error <X must be a real matrix> attsparse_rand ("abc")
%!error <X must be a real matrix> attsparse_rand (complex (X))
%!error <X: column 2 holds a NaN> attsparse_rand ([1 NaN])
%!error <X is empty> attsparse_rand (zeros (3, 0))
%!error <'eps' must be a number in \(0, 1\)> attsparse_rand (X, "eps", 1)
%!error <'m' must be a whole number> attsparse_rand (X, "m", 0)
%!error <'seed' must be a whole number> attsparse_rand (X, "seed", -1)
%!error <unknown option 'foo'> attsparse_rand (X, "foo", 1)
%!error <name/value pairs> attsparse_rand (X, "m")

%!demo
%! ## the paper's sampling at its default m, then the target mode asked for rel <= 1%
%! X = attsparse_example (100, 20000, 0.05);
%! [Y, err, info] = attsparse_rand (X, "seed", 1);
%! printf ("default: %d columns (m = %d), rel %.3g%%, estimated %.3g%%\n", ...
%!         columns (Y), info.m, 100 * info.rel_error, 100 * info.rel_estimate);
%! [Y, err, info] = attsparse_rand (X, "rel", 0.01, "seed", 1);
%! printf ("rel = 1%%: %d columns, rel %.3g%%, estimated %.3g%%\n", ...
%!         columns (Y), 100 * info.rel_error, 100 * info.rel_estimate);
