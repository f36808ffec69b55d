## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_demo.m: both algorithms on the default input (and any others): the metrics table and four PNG plots (docs/demo.md).

## -*- texinfo -*-
## @deftypefn  {} {} attsparse_demo ()
## @deftypefnx {} {} attsparse_demo (@var{outdir})
## @deftypefnx {} {} attsparse_demo (@var{outdir}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{tab}, @var{png}] =} attsparse_demo (@dots{})
## Reproduce the paper's bounds: run both algorithms, print their metrics and
## write four plots.
##
## The inputs are @code{attsparse_example ()} (@var{n} = 100,
## @var{d} = 20000, @code{r = max (abs (X*X')(:)) = 0.05}, seed 1), then
## each extra input.  For each, a header line (name, size, dense or sparse,
## @code{nnz}, @var{r}) and a table with one row per method:
##
## @table @asis
## @item @qcode{"rand-leverage"}
## @code{attsparse_rand (X, "seed", 1)}: approximate leverage scores, the
## default @var{m} (eps 0.5, delta 0.01).
## @item @qcode{"rand-uniform"}, @qcode{"rand-norm"}
## The same number of draws and seed with uniform and squared-norm
## probabilities: what leverage scores buy.
## @item @qcode{"det"}
## @code{attsparse_det (X, "eps", 0.5)}.
## @end table
##
## The columns:
##
## @table @asis
## @item m
## Draws (rand) or iterations (det).
## @item k
## Distinct columns of @var{X} in @var{Y}.
## @item inf
## @code{max (abs (Att(Y) - Att(X))(:))}, the paper's metric.
## @item rel
## @code{max (abs (Att(Y) ./ Att(X) - 1)(:))}, in percent.
## @item baseline
## @code{rel} of @code{Y = 0} (the uniform attention 1/@var{n}), in percent:
## the bar any sketch must clear by a wide margin (not to be confused with
## @qcode{"rand-uniform"}, uniform column sampling).
## @item spec_eps
## The smallest eps with @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}.
## @item bound
## @code{exp (2 spec_eps max (diag (X X'))) - 1}, in percent: an upper bound
## on @code{rel} implied by @code{spec_eps}.
## @item time_s
## Seconds of the algorithm alone (the metrics are computed apart).
## @end table
##
## Read @code{rel} against @code{baseline}, not @code{inf} alone: when
## @code{max (abs (X*X')(:)) <= r}, every entry of @code{Att(X)} lies in
## @code{[exp(-2r)/n, exp(2r)/n]}, so the empty sketch @code{Y = 0} already
## has @code{inf <= (exp(2r) - 1)/n}, far below the paper's @code{O(r)}
## bound (5.1e-4 on the default input).  @code{rel} is scale-free and is the
## figure to read.
##
## The plots, PNG files of 900 by 450 pixels in @var{outdir} (default:
## @code{fullfile (tempdir (), "attsparse-demo")}), all log-log:
##
## @table @file
## @item error_vs_m.png
## rel and inf error against @var{m} for leverage, uniform and norm
## probabilities on the default input (median over seeds), with the
## @code{Y = 0} baseline (dashed) and the default @var{m} (dotted).
## @item error_vs_r.png
## rel and inf error of both algorithms against @var{r}
## (@code{attsparse_example (50, 5000, r)}), with the baseline and the bound;
## the paper's regime @code{r < 0.1} marked off by a dotted line.
## @item time_vs_nnz.png
## Time of @code{attsparse_rand} (no metrics) and of the exact Gram
## @code{X*X'} against @code{nnz (X)} for sparse @var{X} with 200 rows.
## @item k_vs_n.png
## Distinct columns @var{k} and iterations of @code{attsparse_det} against
## @var{n}, with @code{ceil (b n)}, @code{b = ((1 + sqrt (1 - eps^2)) / eps)^2}.
## @end table
##
## Without a display (@command{octave-cli}, @option{--no-window-system}) the
## plots are drawn by gnuplot, which must be installed (Debian:
## @code{gnuplot-nox}).
##
## Options, as name/value pairs:
##
## @table @asis
## @item @qcode{"quick"}
## Fewer seeds and points (false): about fifteen seconds instead of about
## two minutes.
## @item @qcode{"inputs"}
## A struct whose fields are further inputs, each a real matrix (full or
## sparse) or the name of a file in the shared text format (first line
## @code{n d nnz issparse}, then lines @code{i j x}).  The field names name
## the tables.  They are used as given (@code{make demo-octave} passes ALL
## and acq with rows scaled so that @code{max (diag (X*X')) == 1}).
## @item @qcode{"plots"}
## Write the plots (true).
## @item @qcode{"verbose"}
## Print the tables (true).
## @end table
##
## @var{tab} is a struct array, one element per table row, with fields
## @code{input}, @code{method}, @code{m}, @code{k}, @code{inf}, @code{rel},
## @code{baseline}, @code{eps_spectral} (spec_eps),
## @code{bound}, @code{time} (time_s), as in R; fractions, not percent.
## @var{png} is a cell array of the four file names (empty with
## @code{"plots", false}).
##
## @example
## @group
## [tab, png] = attsparse_demo (tempname (), "quick", true);
## [tab.rel] ./ [tab.baseline]
## @end group
## @end example
## @seealso{attsparse_rand, attsparse_det, attention_error, attsparse_example}
## @end deftypefn

function [tab, png] = attsparse_demo (outdir, varargin)
  if (nargin < 1 || isempty (outdir))
    outdir = fullfile (tempdir (), "attsparse-demo");
  endif
  if (! ischar (outdir) || ! isrow (outdir))
    error ("attsparse:badArgument", "attsparse_demo: OUTDIR must be a directory name");
  endif
  opt = demo_options (varargin);
  if (opt.plots)
    tk = plot_toolkit ();
    warning ("off", "Octave:gnuplot-graphics", "local");
    [ok, msg] = mkdir (outdir);
    if (! ok)
      error ("attsparse:badArgument", "attsparse_demo: cannot create %s: %s", outdir, msg);
    endif
  endif

  X = attsparse_example ();
  tab = input_table ("example", X, opt.verbose);
  for k = 1:rows (opt.inputs)
    tab = [tab; input_table(opt.inputs{k, :}, opt.verbose)];
  endfor
  if (opt.verbose)
    printf ("\n");
    printf ("%s\n", legend_lines (){:});
  endif

  png = {};
  if (opt.plots)
    png = fullfile (outdir, {"error_vs_m.png", "error_vs_r.png", "time_vs_nnz.png", "k_vs_n.png"});
    progress (opt.verbose, 1, "error against m");
    plot_error_vs_m (png{1}, tk, X, tab(1), opt.quick);
    progress (opt.verbose, 2, "error against r");
    plot_error_vs_r (png{2}, tk, opt.quick);
    progress (opt.verbose, 3, "time against nnz(X)");
    plot_time_vs_nnz (png{3}, tk, opt.quick);
    progress (opt.verbose, 4, "columns against n");
    plot_k_vs_n (png{4}, tk, opt.quick);
    if (opt.verbose)
      printf ("plots: %s\n", strjoin (png, " "));
    endif
  endif
endfunction

function opt = demo_options (args)
  opt = struct ("quick", false, "plots", true, "verbose", true, "inputs", {cell(0, 2)});
  if (mod (numel (args), 2) != 0)
    error ("attsparse:badArgument", "attsparse_demo: options must be name/value pairs");
  endif
  for k = 1:2:numel (args)
    name = args{k};
    value = args{k+1};
    if (! ischar (name))
      error ("attsparse:badArgument", "attsparse_demo: option names must be strings");
    endif
    switch (lower (name))
      case {"quick", "plots", "verbose"}
        if (! isscalar (value) || ! (islogical (value) || isnumeric (value)) || isnan (value))
          error ("attsparse:badArgument", "attsparse_demo: '%s' must be true or false", lower (name));
        endif
        opt.(lower (name)) = logical (value);
      case "inputs"
        if (! isstruct (value) || ! isscalar (value))
          error ("attsparse:badArgument", "attsparse_demo: 'inputs' must be a scalar struct of matrices");
        endif
        inputs = [fieldnames(value), struct2cell(value)];
        for j = 1:rows (inputs)
          Xj = inputs{j, 2};
          if (ischar (Xj) && isrow (Xj))
            inputs{j, 2} = read_x_txt (Xj);
          elseif (! ((isnumeric (Xj) || islogical (Xj)) && isreal (Xj) && ismatrix (Xj)))
            error ("attsparse:badArgument", ...
                   "attsparse_demo: inputs.%s must be a real matrix or a file name", inputs{j, 1});
          endif
        endfor
        opt.inputs = inputs;
      otherwise
        error ("attsparse:badArgument", "attsparse_demo: unknown option '%s'", name);
    endswitch
  endfor
endfunction

## Both algorithms on one input: prints its header and table, returns the rows.
function out = input_table (name, X, verbose)
  [~, ~, lev] = attsparse_rand (X, "seed", 1);
  [~, ~, uni] = attsparse_rand (X, "m", lev.m, "seed", 1, "probabilities", "uniform");
  [~, ~, nrm] = attsparse_rand (X, "m", lev.m, "seed", 1, "probabilities", "norm");
  [~, ~, det] = attsparse_det (X, "eps", 0.5);
  methods = {"rand-leverage", "rand-uniform", "rand-norm", "det"};
  infos = {lev, uni, nrm, det};
  for k = 4:-1:1
    i = infos{k};
    out(k, 1) = struct ("input", name, "method", methods{k}, "m", i.m, "k", i.k, ...
                         "inf", i.error, "rel", i.rel_error, "baseline", i.baseline, ...
                         "eps_spectral", i.eps_spectral, "bound", i.bound, "time", i.time);
  endfor
  if (! verbose)
    return;
  endif
  kind = {"dense", "sparse"}{1 + issparse(X)};
  printf ("\n%s: %d x %d %s, nnz %.0f, r = max|XX'| = %.3g\n", name, rows (X), columns (X), ...
          kind, nnz (X), lev.r);
  printf ("%-14s %7s %6s %10s %9s %9s %9s %9s %8s\n", ...
          "method", "m", "k", "inf", "rel", "baseline", "spec_eps", "bound", "time_s");
  for k = 1:4
    r = out(k);
    printf ("%-14s %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f\n", r.method, r.m, r.k, ...
            r.inf, 100 * r.rel, 100 * r.baseline, r.eps_spectral, 100 * r.bound, r.time);
  endfor
endfunction

## The same lines as R's attsparse_demo () prints.
function txt = legend_lines ()
  txt = {"m: draws (rand) or iterations (det); k: distinct columns of X in Y", ...
         "inf: max|Att(Y) - Att(X)| (the paper's metric); rel: max|Att(Y)/Att(X) - 1|", ...
         "baseline: rel of Y = 0 (uniform attention 1/n), the bar to beat", ...
         "spec_eps: smallest eps with (1-eps)XX' <= YY' <= (1+eps)XX'; bound: exp(2 spec_eps max G_ii) - 1 >= rel"};
endfunction

## gnuplot when there is no display (octave-cli, --no-window-system): the
## other toolkits need one, even for invisible figures.
function tk = plot_toolkit ()
  tk = graphics_toolkit ();
  if (! have_window_system ())
    if (isempty (file_in_path (getenv ("PATH"), gnuplot_binary ())))
      error ("attsparse:noGraphics", ["attsparse_demo: no display and no gnuplot to draw ", ...
             "the plots; install gnuplot (Debian: gnuplot-nox)"]);
    endif
    tk = "gnuplot";
  endif
endfunction

function f = new_figure (tk)
  f = figure ("visible", "off", "paperunits", "inches", "paperposition", [0 0 9 4.5], ...
              "defaultaxesfontsize", 9, "defaulttextfontsize", 9);
  if (! strcmp (get (f, "__graphics_toolkit__"), tk))
    graphics_toolkit (f, tk);
  endif
endfunction

function save_figure (f, file)
  unwind_protect
    print (f, file, "-dpng", "-r100");
  unwind_protect_cleanup
    close (f);
  end_unwind_protect
endfunction

## "plot i of 4: ..." before each plot (each takes seconds to a minute).
function progress (verbose, i, what)
  if (verbose)
    printf ("plot %d of 4: %s ...\n", i, what);
  endif
endfunction

## Title, labels, legend; ticks at the x values (log axes over less than two
## decades get one labelled tick at most otherwise).
function decorate (ttl, xlab, ylab, xs, h, labels, where, fmt = "%.3g")
  title (ttl, "interpreter", "none");
  xlabel (xlab, "interpreter", "none");
  ylabel (ylab, "interpreter", "none");
  set (gca (), "xtick", xs, "xticklabel", arrayfun (@(x) sprintf (fmt, x), xs, "uniformoutput", false));
  legend (h, labels, "location", where, "interpreter", "none");
  legend ("boxoff");
endfunction

## Log axis limits around the positive values of Z, with `below` decades of
## room under them for a legend.
function yl = log_limits (Z, below)
  Z = Z(Z > 0 & isfinite (Z));
  yl = 10 .^ [floor(log10 (min (Z))) - below, ceil(log10 (max (Z)))];
endfunction

## 1. rel and inf error against m, three probability schemes, median over seeds.
function plot_error_vs_m (file, tk, X, lev, quick)
  ms = [500, 1000, 2000, 4000, 8000, 16000, 32000];
  seeds = 1:5;
  if (quick)
    ms = [1000, 4000, 16000];
    seeds = 1:2;
  endif
  schemes = {"leverage", "uniform", "norm"};
  [rel, inf_err] = deal (zeros (numel (ms), numel (schemes), numel (seeds)));
  for i = 1:numel (ms)
    for j = 1:numel (schemes)
      for s = seeds
        [~, e, info] = attsparse_rand (X, "m", ms(i), "seed", s, "probabilities", schemes{j}, ...
                                       "spectral", false);
        rel(i, j, s) = info.rel_error;
        inf_err(i, j, s) = e;
      endfor
    endfor
  endfor
  empty = attention_error (X, zeros (rows (X), 0));
  f = new_figure (tk);
  panels = {median(rel, 3), empty.rel, "rel", "rel error max|Att(Y)/Att(X)-1|"; ...
            median(inf_err, 3), empty.inf, "inf", "inf error max|Att(Y)-Att(X)| (the paper's)"};
  xl = [ms(1) / 1.5, max(ms(end), lev.m) * 1.5];
  for p = 1:2
    subplot (1, 2, p);
    yl = log_limits ([panels{p, 1}(:); panels{p, 2}], 1);
    h = loglog (ms, panels{p, 1}, "-o", "linewidth", 1.5);
    hold ("on");
    hb = loglog (xl, panels{p, 2} * [1, 1], "k--");
    hm = loglog (lev.m * [1, 1], yl, "k:");
    axis ([xl, yl]);
    decorate (sprintf ("%s error vs m: n=%d d=%d r=%.2g, %d seeds", panels{p, 3}, ...
                       rows (X), columns (X), empty.r, numel (seeds)), ...
              "m (draws)", panels{p, 4}, ms, [h; hb; hm], ...
              [strcat("rand-", schemes), {"baseline (Y = 0, uniform attention)", ...
               sprintf("default m = %d", lev.m)}], "eastoutside", "%d");
  endfor
  save_figure (f, file);
endfunction

## 2. rel and inf error against r for both algorithms, with baseline and bound.
function plot_error_vs_r (file, tk, quick)
  rs = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];
  if (quick)
    rs = [0.01, 0.1, 1];
  endif
  [rel, inf_err] = deal (zeros (numel (rs), 3));
  bound = zeros (numel (rs), 1);
  for i = 1:numel (rs)
    X = attsparse_example (50, 5000, rs(i));
    [~, e_rand, rand_info] = attsparse_rand (X, "seed", 1);
    [~, e_det, det_info] = attsparse_det (X, "eps", 0.5);
    empty = attention_error (X, zeros (rows (X), 0));
    rel(i, :) = [rand_info.rel_error, det_info.rel_error, empty.rel];
    inf_err(i, :) = [e_rand, e_det, empty.inf];
    bound(i) = rand_info.bound;
  endfor
  f = new_figure (tk);
  names = {"rand (default m)", "det (eps 0.5)", "baseline (Y = 0, uniform attention)", ...
           "bound exp(2 eps r)-1 of rand"};
  panels = {[rel, bound], "rel", "rel error max|Att(Y)/Att(X)-1|"; ...
            inf_err, "inf", "inf error max|Att(Y)-Att(X)| (the paper's)"};
  styles = {"-o", "-s", "k--", "-."};
  widths = [1.5, 1.5, 1, 1];
  xl = [rs(1) / 1.5, rs(end) * 1.5];
  for p = 1:2
    subplot (1, 2, p);
    Z = panels{p, 1};
    yl = log_limits (Z, 3);
    h = zeros (columns (Z), 1);
    for c = 1:columns (Z)
      h(c) = loglog (rs, Z(:, c), styles{c}, "linewidth", widths(c));
      hold ("on");
    endfor
    ## a mark rather than a shade: gnuplot draws a patch over the legend
    hr = loglog ([0.1, 0.1], yl, "k:");
    axis ([xl, yl]);
    decorate (sprintf ("%s error vs r: n=50 d=5000", panels{p, 2}), ...
              "r = max|XX'|", panels{p, 3}, rs, [h; hr], ...
              [names(1:columns (Z)), {"r = 0.1: the paper's regime is left of it"}], "eastoutside");
  endfor
  save_figure (f, file);
endfunction

## 3. Time of the randomized algorithm and of the exact Gram against nnz (X).
function plot_time_vs_nnz (file, tk, quick)
  n = 200;
  ds = [5000, 10000, 20000, 40000, 80000, 160000];
  if (quick)
    ds = [5000, 20000];
  endif
  [t_rand, t_gram, nz] = deal (zeros (size (ds)));
  state = {rand("state"), randn("state")};
  unwind_protect
    randn ("seed", 1);
    rand ("seed", 1);
    for i = 1:numel (ds)
      X = sprandn (n, ds(i), 50 / n);
      X /= sqrt (max (sumsq (X, 2)));
      nz(i) = nnz (X);
      [t_rand(i), t_gram(i)] = deal (Inf);
      for rep = 1:3
        t0 = tic ();
        attsparse_rand (X, "error", false, "seed", 1);
        t_rand(i) = min (t_rand(i), toc (t0));
        t0 = tic ();
        G = X * X';
        t_gram(i) = min (t_gram(i), toc (t0));
      endfor
    endfor
  unwind_protect_cleanup
    rand ("state", state{1});
    randn ("state", state{2});
  end_unwind_protect
  f = new_figure (tk);
  h = loglog (nz, t_rand, "-o", nz, t_gram, "-s", "linewidth", 1.5);
  axis ([nz(1) / 1.5, nz(end) * 1.5, log_limits([t_rand, t_gram], 0)]);
  decorate (sprintf ("time against nnz(X): sparse X, n=%d, d=%d..%d, 50 nonzeros per column", ...
                     n, ds(1), ds(end)), ...
            "nnz(X)", "seconds (best of 3)", nz, h, ...
            {"attsparse_rand (error = false)", "exact Gram X*X'"}, "eastoutside");
  save_figure (f, file);
endfunction

## 4. Columns and iterations of the deterministic algorithm against n.
function plot_k_vs_n (file, tk, quick)
  ns = [10, 20, 40, 80, 160];
  if (quick)
    ns = [10, 40];
  endif
  eps = 0.5;
  b = ((1 + sqrt (1 - eps^2)) / eps)^2;
  [k, m] = deal (zeros (size (ns)));
  for i = 1:numel (ns)
    [~, ~, info] = attsparse_det (attsparse_example (ns(i), 4000, 0.05), "eps", eps, "error", false);
    k(i) = info.k;
    m(i) = info.m;
  endfor
  f = new_figure (tk);
  h = loglog (ns, ceil (b * ns), "k--", ns, m, "s", ns, k, "-o", "linewidth", 1.5);
  axis ([ns(1) / 1.5, ns(end) * 1.5, log_limits([k, m], 1)]);
  decorate (sprintf ("attsparse_det (eps %.1f): columns against n, d=4000, r=0.05", eps), ...
            "n (rows of X)", "columns / iterations", ns, h, ...
            {sprintf("ceil(b n), b = ((1+sqrt(1-eps^2))/eps)^2 = %.2f", b), "m (iterations)", ...
             "k (distinct columns)"}, "eastoutside");
  save_figure (f, file);
endfunction

%!test
%! ## the quick demo on the default input and a small sparse input, given as a
%! ## matrix and as a file
%! dir = tempname ();
%! randn ("state", 3);
%! Xs = sprandn (8, 300, 0.2);
%! file = [tempname() ".X.txt"];
%! [i, j, x] = find (Xs);
%! fid = fopen (file, "w");
%! fprintf (fid, "%d %d %d 1\n", size (Xs), nnz (Xs));
%! fprintf (fid, "%d %d %.17g\n", [i, j, x]');
%! fclose (fid);
%! unwind_protect
%!   out = evalc ('[tab, png] = attsparse_demo (dir, "quick", true, "inputs", struct ("tiny", Xs, "tiny_file", file));');
%!   ## the plots: PNG files of 900 x 450 pixels
%!   assert (png, fullfile (dir, {"error_vs_m.png", "error_vs_r.png", "time_vs_nnz.png", "k_vs_n.png"}));
%!   for p = png
%!     fid = fopen (p{1}, "r");
%!     head = fread (fid, 24, "uint8")';
%!     fclose (fid);
%!     assert (head(1:8), [137 80 78 71 13 10 26 10]);
%!     assert (reshape (head(17:24), 4, 2)' * 256 .^ (3:-1:0)', [900; 450]);  # IHDR width, height
%!   endfor
%!   ## the printed table, character for character in its fixed parts
%!   lines = strsplit (out, "\n");
%!   assert (any (strcmp (lines, "example: 100 x 20000 dense, nnz 2000000, r = max|XX'| = 0.05")));
%!   assert (any (strcmp (lines, sprintf ("tiny: 8 x 300 sparse, nnz %d, r = max|XX'| = %.3g", ...
%!                                        nnz (Xs), max (abs (Xs * Xs')(:))))));
%!   hdr = sprintf ("%-14s %7s %6s %10s %9s %9s %9s %9s %8s", ...
%!                  "method", "m", "k", "inf", "rel", "baseline", "spec_eps", "bound", "time_s");
%!   assert (sum (strcmp (lines, hdr)), 3);
%!   r = tab(4);
%!   assert (any (strcmp (lines, sprintf ("det            %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f", ...
%!                        r.m, r.k, r.inf, 100*r.rel, 100*r.baseline, r.eps_spectral, 100*r.bound, r.time))));
%!   ## the rows
%!   assert ({tab.input}, [repmat({"example"}, 1, 4), repmat({"tiny"}, 1, 4), repmat({"tiny_file"}, 1, 4)]);
%!   assert ({tab.method}, repmat ({"rand-leverage", "rand-uniform", "rand-norm", "det"}, 1, 3));
%!   assert ([tab.rel] <= [tab.bound] * (1 + 1e-10) + 1e-14);
%!   b = ((1 + sqrt (0.75)) / 0.5)^2;
%!   assert (tab(4).m, ceil (b * 100));
%!   assert (tab(4).k <= ceil (b * 100) && tab(8).k <= ceil (b * rank (full (Xs))));
%!   assert ([tab([4, 8]).eps_spectral] <= 0.5 + 1e-10);
%!   assert ([tab([1:3, 5:7]).k] <= [tab([1:3, 5:7]).m]);
%!   assert ([tab(2:3).m], [tab(1).m, tab(1).m]);
%!   assert ([tab(1:4).baseline], repmat (tab(1).baseline, 1, 4));
%!   ## on the default input the sketch beats Y = 0 by far; inf alone does not show it
%!   assert (tab(1).rel < tab(1).baseline / 10);
%!   ## leverage scores beat uniform sampling at the same m (measured 0.14% and 0.60%)
%!   assert (tab(2).rel > 2 * tab(1).rel);
%!   assert (tab(1).baseline > 0.04 && tab(1).baseline < exp (0.1) - 1);
%!   ## the file holds the same matrix as the struct field
%!   t1 = rmfield (tab(5:8), {"input", "time"});
%!   t2 = rmfield (tab(9:12), {"input", "time"});
%!   assert (isequal (t1, t2));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   if (exist (dir, "dir"))
%!     rmdir (dir, "s");
%!   endif
%!   delete (file);
%! end_unwind_protect

%!error <OUTDIR must be a directory name> attsparse_demo (1)
%!error <'quick' must be true or false> attsparse_demo (tempname (), "quick", "yes")
%!error <'plots' must be true or false> attsparse_demo (tempname (), "Plots", [1 0])
%!error <unknown option 'foo'> attsparse_demo (tempname (), "foo", 1)
%!error <name/value pairs> attsparse_demo (tempname (), "quick")
%!error <'inputs' must be a scalar struct> attsparse_demo (tempname (), "inputs", {1})
%!error <inputs.bad must be a real matrix or a file name> attsparse_demo (tempname (), "inputs", struct ("bad", {{1}}))
%!error id=attsparse:badInput attsparse_demo (tempname (), "inputs", struct ("none", tempname ()))
