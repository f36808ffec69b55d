## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_demo.m: the demo defined by demo-spec.dcf (shared with R): its three tables (methods, columns per target, Q != K) and this front-end's four PNG plots (docs/demo.md).

## -*- texinfo -*-
## @deftypefn  {} {} attsparse_demo ()
## @deftypefnx {} {} attsparse_demo (@var{outdir})
## @deftypefnx {} {} attsparse_demo (@var{outdir}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{tab}, @var{png}] =} attsparse_demo (@dots{})
## Reproduce the paper's bounds: run both algorithms, print their metrics in
## three tables and write four plots.
##
## What runs and how the tables print (inputs, methods and their options,
## columns and their formats, the plots' sweeps and seeds) is defined once,
## in @file{demo-spec.dcf} beside this function (@file{inst/extdata/demo-spec.dcf}
## in the repository), which R's @code{attsparse_demo} reads too: both print
## the same tables.
##
## The inputs are @code{attsparse_example ()} (@var{n} = 100,
## @var{d} = 20000, @code{r = max (abs (X*X')(:)) = 0.05}, seed 1), the real
## data sets found in @qcode{"data"}, then each extra input.
##
## @strong{The methods table.}  For each input, a header line (name, size,
## dense or sparse, @code{nnz}, @var{r}) and a table with one row per method:
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
## @strong{The targets table.}  For each input, the fewest columns that reach
## @code{rel <= 5%}, 2% and 1%, one line per target and method:
##
## @table @asis
## @item @qcode{"leverage-iid"}, @qcode{"norm-poisson"}, @qcode{"mixed-poisson"}
## The paper's sampling (i.i.d. draws from leverage scores) and Poisson
## sampling with norm-squared or mixed probabilities, each with @var{m} swept
## over @code{ceil (c n)}, @var{c} = 1/4, 3/8, 1/2, @dots{}, 8192 (steps of
## about 1.4), at seed 1: the first @var{m} whose exact @code{rel} meets the
## target (the @var{m} before it did not).
## @item @qcode{"target"}
## @code{attsparse_rand (X, "rel", target, "seed", 1)}: its @var{k}, exact
## @code{rel} and estimate @code{rel_estimate} (from @var{Y} alone).
## @item @qcode{"det"}
## @code{attsparse_det} with eps swept from 0.9 down to 0.09 (an eps whose
## iterations @code{ceil (b n)} times @code{n^2} exceed 3e7 is not run).
## @item @qcode{"gaussian"}
## For reference, @code{X G / sqrt (k)} with @var{G} Gaussian (Octave's
## @code{randn}): @var{k} dense columns, not columns of @var{X}; @var{k}
## swept up to 16 @var{n}.
## @item @qcode{"exact"}
## The exact Gram and its Cholesky factor, @var{k} = @var{n}.
## @end table
##
## Columns: target, method, k, rel, estimate, detail (the @var{m}, eps or
## width used; for the target mode the probabilities it picked and its
## rounds), time_s.  A "-" marks a target not met within the sweep (the
## detail gives the best @code{rel} reached); a target at or above the
## @code{rel} of @code{Y = 0} is met with no column at all, which the header
## says.
##
## @strong{The qkv table.}  On the inputs the spec names (the example, ALL,
## acq): the odd rows as queries @var{Q}, the even rows as keys @var{K},
## values @var{V} (ALL: the one-hot B or T lineage of each sample; otherwise
## @code{attsparse_example (rows (K), 3, 1, 1)}), and for a few @var{m} with
## leverage and norm probabilities
## @code{attsparse_rand (Q, "K", K, "V", V, "m", m, "seed", 1)}: @var{k}, the
## spectral eps of @code{[Q; K]}, @code{rel} of @code{Att(Q, K)}, the bound
## @code{exp (2 eps max||q_i|| max||k_j||) - 1}, the uniform baseline and
## @code{out_rel}, the error of @code{Att V} relative to
## @code{sum_j Att_ij |V_jl|}.
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
## @code{X*X'} against @code{nnz (X)} for sparse @var{X} with 200 rows
## (blocks of @code{attsparse_example} with their small entries dropped: the
## same matrices as in R).
## @item k_vs_n.png
## Distinct columns @var{k} and iterations of @code{attsparse_det} against
## @var{n}, with the column budget @code{info.max_columns} = @code{ceil (b rank)}
## and @code{info.b} of the det result.
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
## Fewer seeds and points in the plots, coarser sweeps in the targets and
## qkv tables (false).
## @item @qcode{"inputs"}
## A struct whose fields are further inputs, each a real matrix (full or
## sparse) or the name of a file in the shared text format (first line
## @code{n d nnz issparse}, then lines @code{i j x}).  The field names name
## the tables.  They are used as given.
## @item @qcode{"data"}
## A directory holding the spec's data files (@file{ALL.X.txt}, @file{acq.X.txt},
## @file{crude.X.txt}, @file{golub.X.txt}, @file{lung.X.txt}, @file{ALL.V.txt},
## rows scaled so that @code{max (diag (X*X')) == 1}, written by the R package's
## @file{inst/scripts/export-data.R}; @code{make demo} passes
## @file{build/demo/data}): those found there are run after the example,
## before @qcode{"inputs"}.  Default: none.
## @item @qcode{"tables"}
## Which tables to compute and print: a name or a cell array of names among
## @qcode{"methods"}, @qcode{"targets"}, @qcode{"qkv"} (all).
## @item @qcode{"plots"}
## Write the plots (true).
## @item @qcode{"verbose"}
## Print the tables (true).
## @end table
##
## @var{tab} is a struct with a field per table run, each a struct array with
## one element per table row: @code{tab.methods} with fields @code{input},
## @code{method}, @code{m}, @code{k}, @code{inf}, @code{rel},
## @code{baseline}, @code{eps_spectral} (spec_eps), @code{bound}, @code{time}
## (time_s); @code{tab.targets} with @code{input}, @code{target},
## @code{method}, @code{k}, @code{rel}, @code{estimate}, @code{detail},
## @code{time} (NaN where a target is not met); @code{tab.qkv} with
## @code{input}, @code{method}, @code{m}, @code{k}, @code{eps_spectral},
## @code{rel}, @code{bound}, @code{baseline}, @code{out_rel}, @code{time}; as
## in R; fractions, not percent.
## @var{png} is a cell array of the four file names (empty with
## @code{"plots", false}).
##
## @example
## @group
## [tab, png] = attsparse_demo (tempname (), "quick", true, "tables", "methods");
## [tab.methods.rel] ./ [tab.methods.baseline]
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

  spec = demo_spec (fullfile (fileparts (mfilename ("fullpath")), "demo-spec.dcf"));
  bad = ! ismember (opt.tables, fieldnames (spec.table));
  if (any (bad))
    error ("attsparse:badArgument", "attsparse_demo: 'tables': no table '%s'; the tables: %s", ...
           opt.tables{find (bad, 1)}, strjoin (fieldnames (spec.table)', ", "));
  endif
  [inputs, values] = spec_inputs (spec, opt.data, opt.verbose);
  inputs = [inputs; opt.inputs];
  tab = struct ();
  if (ismember ("methods", opt.tables))
    tab.methods = [];
    for k = 1:rows (inputs)
      tab.methods = [tab.methods; input_table(inputs{k, :}, spec, opt.verbose)];
    endfor
    legend_lines (opt.verbose, spec, "methods");
  endif
  if (ismember ("targets", opt.tables))
    tab.targets = [];
    for k = 1:rows (inputs)
      tab.targets = [tab.targets; targets_table(inputs{k, :}, spec, opt.verbose, opt.quick)];
    endfor
    legend_lines (opt.verbose, spec, "targets");
  endif
  if (ismember ("qkv", opt.tables))
    tab.qkv = [];
    for name = strsplit (strtrim (spec.table.qkv.On_inputs))
      k = find (strcmp (inputs(:, 1), name{1}), 1);
      if (! isempty (k))
        v = find (strcmp (values(:, 1), name{1}), 1);
        V = [];
        if (! isempty (v))
          V = values{v, 2};
        endif
        tab.qkv = [tab.qkv; qkv_table(inputs{k, :}, V, spec, opt.verbose, opt.quick)];
      endif
    endfor
    legend_lines (opt.verbose, spec, "qkv");
  endif

  png = {};
  if (opt.plots)
    png = fullfile (outdir, {"error_vs_m.png", "error_vs_r.png", "time_vs_nnz.png", "k_vs_n.png"});
    pl = spec.plots;
    on = strcmp (inputs(:, 1), pl.error_vs_m.On_input);
    if (isfield (tab, "methods"))
      m0 = tab.methods(find (strcmp ({tab.methods.input}, pl.error_vs_m.On_input), 1)).m;
    else
      [~, ~, info] = attsparse_rand (inputs{on, 2}, "seed", 1, "error", false, "estimate", false);
      m0 = info.m;
    endif
    progress (opt.verbose, 1, "error against m");
    plot_error_vs_m (png{1}, tk, pl.error_vs_m, inputs{on, 2}, m0, opt.quick);
    progress (opt.verbose, 2, "error against r");
    plot_error_vs_r (png{2}, tk, pl.error_vs_r, opt.quick);
    progress (opt.verbose, 3, "time against nnz(X)");
    plot_time_vs_nnz (png{3}, tk, pl.time_vs_nnz, opt.quick);
    progress (opt.verbose, 4, "columns against n");
    plot_k_vs_n (png{4}, tk, pl.k_vs_n, opt.quick);
    if (opt.verbose)
      printf ("plots: %s\n", strjoin (png, " "));
    endif
  endif
endfunction

function legend_lines (verbose, spec, table)
  if (verbose)
    printf ("\n%s\n", spec.table.(table).Legend);
  endif
endfunction

function opt = demo_options (args)
  opt = struct ("quick", false, "plots", true, "verbose", true, "inputs", {cell(0, 2)}, "data", "", ...
                 "tables", {{"methods", "targets", "qkv"}});
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
      case "data"
        if (! (ischar (value) && isrow (value) && isfolder (value)))
          error ("attsparse:badArgument", "attsparse_demo: 'data' must be the name of a directory");
        endif
        opt.data = value;
      case "tables"
        if (ischar (value))
          value = {value};
        endif
        if (! iscellstr (value))
          error ("attsparse:badArgument", "attsparse_demo: 'tables' must be a table name or a cell array of them");
        endif
        opt.tables = value;
      otherwise
        error ("attsparse:badArgument", "attsparse_demo: unknown option '%s'", name);
    endswitch
  endfor
endfunction

## The spec's inputs: the generated ones, then those whose file is in the
## directory DATA ("" for none); rows {name, X}.  VALUES: rows {name, V} of
## the matrices in their Values-file (the qkv table's V).
function [inputs, values] = spec_inputs (spec, data, verbose)
  inputs = values = cell (0, 2);
  for k = 1:numel (spec.inputs)
    rec = spec.inputs{k};
    if (isfield (rec, "Example"))
      inputs(end+1, :) = {rec.Input, spec_example(spec_options (rec.Example))};
    elseif (! isempty (data))
      file = fullfile (data, rec.File);
      if (exist (file, "file"))
        inputs(end+1, :) = {rec.Input, read_x_txt(file)};
        if (isfield (rec, "Values_file") && exist (fullfile (data, rec.Values_file), "file"))
          values(end+1, :) = {rec.Input, full(read_x_txt (fullfile (data, rec.Values_file)))};
        endif
      elseif (verbose)
        printf ("demo: no %s (its R data package is not installed)\n", file);
      endif
    endif
  endfor
endfunction

## attsparse_example with named arguments (the spec's n, d, r, seed).
function X = spec_example (opts)
  names = {"n", "d", "r", "seed"};
  args = cell (1, 4);
  for k = 1:2:numel (opts)
    args{strcmp (names, opts{k})} = opts{k+1};
  endfor
  X = attsparse_example (args{:});
endfunction

## A spec field of numbers separated by spaces; its Quick_ field when quick.
function v = spec_numbers (rec, field, quick = false)
  if (quick && isfield (rec, ["Quick_" field]))
    field = ["Quick_" field];
  endif
  v = str2double (strsplit (strtrim (rec.(field))));
endfunction

function v = spec_field (rec, field)
  v = "";
  if (isfield (rec, field))
    v = rec.(field);
  endif
endfunction

## The table for one input: the spec's methods in order, each a row of the
## spec's columns; prints its header and table, returns the rows.
function out = input_table (name, X, spec, verbose)
  nm = numel (spec.methods);
  infos = cell (1, nm);
  methods = cellfun (@(me) me.Method, spec.methods, "uniformoutput", false);
  for k = 1:nm
    me = spec.methods{k};
    opts = spec_options (spec_field (me, "Options"));
    same = spec_field (me, "Same_m_as");
    if (! isempty (same))
      opts(end+1:end+2) = {"m", infos{strcmp (methods, same)}.m};
    endif
    switch (me.Call)
      case "rand"
        [~, ~, infos{k}] = attsparse_rand (X, opts{:});
      case "det"
        [~, ~, infos{k}] = attsparse_det (X, opts{:});
      otherwise
        error ("attsparse:badInput", "attsparse_demo: method %s: unknown call '%s'", me.Method, me.Call);
    endswitch
    infos{k}.method = methods{k};
  endfor
  if (verbose)
    kind = {"dense", "sparse"}{1 + issparse(X)};
    printf (["\n" spec.table.methods.Input_line "\n"], name, rows (X), columns (X), kind, nnz (X), infos{1}.r);
  endif
  out = table_rows (name, spec.columns.methods, infos, verbose);
endfunction

## Prints the heading and a line per row (structs whose fields the columns'
## Result name) when verbose; returns the rows as a struct array with a field
## per column, unscaled (fractions, not percent), NaN where a row has none.
function out = table_rows (name, cols, rows, verbose)
  if (verbose)
    printf ("%s\n", strjoin (cellfun (@(c) sprintf (c.Heading_format, c.Heading), cols, ...
                                       "uniformoutput", false), " "));
    for k = 1:numel (rows)
      printf ("%s\n", strjoin (cellfun (@(c) table_cell (c, rows{k}), cols, "uniformoutput", false), " "));
    endfor
  endif
  out = struct ("input", {});
  for k = numel (rows):-1:1
    out(k, 1).input = name;
    for c = 1:numel (cols)
      v = NaN;
      if (isfield (rows{k}, cols{c}.Result))
        v = rows{k}.(cols{c}.Result);
      endif
      out(k, 1).(cols{c}.Column) = v;
    endfor
  endfor
endfunction

## One cell of a table line: the row's value of the column's Result field,
## times its Scale, in its Format; a missing value as "-" in the Heading_format.
function s = table_cell (col, row)
  v = [];
  if (isfield (row, col.Result))
    v = row.(col.Result);
  endif
  if (isempty (v) || (isnumeric (v) && isnan (v)))
    s = sprintf (col.Heading_format, "-");
    return;
  endif
  if (isfield (col, "Scale"))
    v *= str2double (col.Scale);
  endif
  s = sprintf (col.Format, v);
endfunction

## A search's sweep: run (value) for each value in order until every target is
## met (or run returns []: the sweep stops there); hit{i}: the first run with
## rel <= targets(i), else []; best: the run of least rel.
function [hit, best] = sweep_targets (values, run, targets)
  hit = cell (size (targets));
  best = [];
  for v = values
    r = run (v);
    if (isempty (r))
      break;
    endif
    [hit, best, done] = record_run (hit, best, r, targets);
    if (done)
      break;
    endif
  endfor
endfunction

## One run of a sweep: the targets it meets first, the best run; done once
## every target is met.
function [hit, best, done] = record_run (hit, best, r, targets)
  if (isempty (best) || r.rel < best.rel)
    best = r;
  endif
  for i = 1:numel (targets)
    if (isempty (hit{i}) && r.rel <= targets(i))
      hit{i} = r;
    endif
  endfor
  done = ! any (cellfun (@isempty, hit));
endfunction

## A run's row: the attsparse info with rel and estimate.
function r = run_row (info)
  r = info;
  r.rel = info.rel_error;
  r.estimate = NaN;
  if (isfield (info, "rel_estimate"))
    r.estimate = info.rel_estimate;
  endif
endfunction

function r = run_rand (X, opts)
  [~, ~, info] = attsparse_rand (X, opts{:});
  r = run_row (info);
endfunction

## The deterministic algorithm at eps = V, or [] when ceil (b n) n^2 is above
## the search's Max_work.
function r = run_det (X, opts, v, se)
  n = rows (X);
  b = ((1 + sqrt (1 - v^2)) / v)^2;
  r = [];
  if (isfield (se, "Max_work") && ceil (b * n) * n^2 > str2double (se.Max_work))
    return;
  endif
  [~, ~, info] = attsparse_det (X, opts{:}, "eps", v);
  r = run_row (info);
endfunction

## The Gaussian projection Y = X G(:, 1:k) / sqrt (k) for the widths K in
## increasing order: the columns of G not drawn yet (Octave's randn, G in
## blocks of rows), time of X G(:, 1:k) from the first column.  Returns the
## rows, one per width up to the first that meets every target.
function [hit, best] = gaussian_sweep (X, ks, seed, targets)
  old = randn ("state");
  randn ("state", seed);
  unwind_protect
    XG = zeros (rows (X), 0);
    elapsed = 0;
    hit = cell (size (targets));
    best = [];
    for k = ks
      t0 = tic ();
      w = k - columns (XG);
      if (w > 0)
        B = zeros (rows (X), w);
        for r0 = 1:8192:columns (X)
          cols = r0:min (columns (X), r0 + 8191);
          B += full (X(:, cols) * randn (numel (cols), w));
        endfor
        XG = [XG, B];
      endif
      elapsed += toc (t0);
      e = attention_error (X, XG(:, 1:k) / sqrt (k));
      [hit, best, done] = record_run (hit, best, struct ("k", k, "rel", e.rel, "estimate", NaN, "time", elapsed),
                                      targets);
      if (done)
        break;
      endif
    endfor
  unwind_protect_cleanup
    randn ("state", old);
  end_unwind_protect
endfunction

## The exact reference: the Gram X X' (gram) and its Cholesky factor, k = n
## (a ridge of 1e-12 max G_ii keeps a rank-deficient Gram positive definite).
function r = gram_chol (X)
  t0 = tic ();
  G = gram (X);
  L = chol (G + 1e-12 * max (diag (G)) * eye (rows (G)))';
  time = toc (t0);
  e = attention_error (X, L);
  r = struct ("k", rows (X), "rel", e.rel, "estimate", NaN, "time", time);
endfunction

## The rows of one search SE of the targets table on X, one per target (Once:
## one row).
function out = search_rows (X, se, targets, not_reached, quick)
  n = rows (X);
  opts = spec_options (spec_field (se, "Options"));
  sweep = spec_field (se, "Sweep");
  if (isfield (se, "Times_n"))
    values = ceil (n * spec_numbers (se, "Times_n", quick));
  elseif (isfield (se, "Values"))
    values = spec_numbers (se, "Values", quick);
  endif
  row = @(t, r) struct ("target", t, "method", se.Search, "detail", detail (se, r), "k", r.k, ...
                        "rel", r.rel, "estimate", r.estimate, "time", r.time);
  switch (se.Call)
    case "gram-chol"
      out = {row(NaN, gram_chol (X))};
      return;
    case "rand"
      if (strcmp (sweep, "rel"))
        out = arrayfun (@(t) row (t, run_rand (X, [opts, {"rel", t}])), targets, "uniformoutput", false);
        return;
      endif
      [hit, best] = sweep_targets (values, @(v) run_rand (X, [opts, {sweep, v}]), targets);
    case "det"
      [hit, best] = sweep_targets (values, @(v) run_det (X, opts, v, se), targets);
    case "gaussian"
      [hit, best] = gaussian_sweep (X, values, spec_numbers (se, "Seed"), targets);
    otherwise
      error ("attsparse:badInput", "demo-spec.dcf: search %s: unknown call '%s'", se.Search, se.Call);
  endswitch
  out = cell (size (targets));
  for i = 1:numel (targets)
    if (! isempty (hit{i}))
      out{i} = row (targets(i), hit{i});
    else
      out{i} = row (targets(i), best);
      out{i}.detail = sprintf (not_reached, 100 * best.rel, out{i}.detail);
      [out{i}.k, out{i}.rel, out{i}.estimate] = deal (NaN);
    endif
  endfor
endfunction

## The detail column of a search's run: its Detail format on the run's fields
## named by Detail_fields.
function s = detail (se, r)
  fields = {};
  if (isfield (se, "Detail_fields"))
    fields = strsplit (strtrim (se.Detail_fields));
  endif
  s = sprintf (se.Detail, cellfun (@(f) r.(f), fields, "uniformoutput", false){:});
endfunction

## The targets table for one input: for each target, a row per search (the
## Once searches last).
function out = targets_table (name, X, spec, verbose, quick)
  tab = spec.table.targets;
  targets = spec_numbers (tab, "Targets");
  empty = attention_error (X, zeros (rows (X), 0));
  if (verbose)
    printf (["\n" tab.Input_line "\n"], name, rows (X), columns (X), 100 * empty.rel);
    for t = targets(targets >= empty.rel)
      printf ([tab.Above_baseline_line "\n"], 100 * t, 100 * empty.rel);
    endfor
  endif
  once = cellfun (@(se) strcmp (spec_field (se, "Once"), "true"), spec.searches);
  found = cellfun (@(se) search_rows (X, se, targets, tab.Not_reached, quick), spec.searches, ...
                   "uniformoutput", false);
  trows = {};
  for i = 1:numel (targets)
    trows = [trows, cellfun(@(f) f{i}, found(! once), "uniformoutput", false)];
  endfor
  trows = [trows, found(once){:}];
  out = table_rows (name, spec.columns.targets, trows, verbose);
endfunction

## The qkv table for one input: Q its odd rows, K its even rows, V the even
## rows of VALUES (or the spec's generated values when empty); a row per m and
## probabilities.
function out = qkv_table (name, X, values, spec, verbose, quick)
  tab = spec.table.qkv;
  Q = X(1:2:end, :);
  K = X(2:2:end, :);
  if (isempty (values))
    ex = spec_field (tab, "Values_example");
    V = spec_example ([{"n", rows(K)}, spec_options(ex)]);
    what = sprintf ("attsparse_example(n = %d, %s)", rows (K), ex);
  else
    V = values(2:2:end, :);
    rec = spec.inputs{cellfun (@(r) strcmp (r.Input, name), spec.inputs)};
    what = rec.Values;
  endif
  if (verbose)
    printf (["\n" tab.Input_line "\n"], name, rows (Q), columns (Q), rows (K), what);
  endif
  opts = spec_options (spec_field (tab, "Options"));
  trows = {};
  for m = spec_numbers (tab, "M", quick)
    for p = strsplit (strtrim (tab.Probabilities))
      [~, ~, info] = attsparse_rand (Q, "K", K, "V", V, "m", m, "probabilities", p{1}, opts{:});
      info.method = ["qk-" p{1}];
      trows{end+1} = info;
    endfor
  endfor
  out = table_rows (name, spec.columns.qkv, trows, verbose);
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
function plot_error_vs_m (file, tk, rec, X, m0, quick)
  ms = spec_numbers (rec, "M", quick);
  seeds = spec_numbers (rec, "Seeds", quick);
  schemes = strsplit (strtrim (rec.Probabilities));
  opts = spec_options (spec_field (rec, "Options"));
  [rel, inf_err] = deal (zeros (numel (ms), numel (schemes), numel (seeds)));
  for i = 1:numel (ms)
    for j = 1:numel (schemes)
      for s = 1:numel (seeds)
        [~, e, info] = attsparse_rand (X, "m", ms(i), "seed", seeds(s), "probabilities", schemes{j}, ...
                                       opts{:});
        rel(i, j, s) = info.rel_error;
        inf_err(i, j, s) = e;
      endfor
    endfor
  endfor
  empty = attention_error (X, zeros (rows (X), 0));
  f = new_figure (tk);
  panels = {median(rel, 3), empty.rel, "rel", "rel error max|Att(Y)/Att(X)-1|"; ...
            median(inf_err, 3), empty.inf, "inf", "inf error max|Att(Y)-Att(X)| (the paper's)"};
  xl = [ms(1) / 1.5, max(ms(end), m0) * 1.5];
  for p = 1:2
    subplot (1, 2, p);
    yl = log_limits ([panels{p, 1}(:); panels{p, 2}], 1);
    h = loglog (ms, panels{p, 1}, "-o", "linewidth", 1.5);
    hold ("on");
    hb = loglog (xl, panels{p, 2} * [1, 1], "k--");
    hm = loglog (m0 * [1, 1], yl, "k:");
    axis ([xl, yl]);
    decorate (sprintf ("%s error vs m: n=%d d=%d r=%.2g, %d seeds", panels{p, 3}, ...
                       rows (X), columns (X), empty.r, numel (seeds)), ...
              "m (draws)", panels{p, 4}, ms, [h; hb; hm], ...
              [strcat("rand-", schemes), {"baseline (Y = 0, uniform attention)", ...
               sprintf("default m = %d", m0)}], "eastoutside", "%d");
  endfor
  save_figure (f, file);
endfunction

## 2. rel and inf error against r for both algorithms, with baseline and bound.
function plot_error_vs_r (file, tk, rec, quick)
  rs = spec_numbers (rec, "R", quick);
  ex = spec_options (rec.Example);
  exs = struct (ex{:});
  [rel, inf_err] = deal (zeros (numel (rs), 3));
  bound = zeros (numel (rs), 1);
  for i = 1:numel (rs)
    X = spec_example ([ex, {"r", rs(i)}]);
    rand_opts = spec_options (rec.Rand);
    det_opts = spec_options (rec.Det);
    [~, e_rand, rand_info] = attsparse_rand (X, rand_opts{:});
    [~, e_det, det_info] = attsparse_det (X, det_opts{:});
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
    decorate (sprintf ("%s error vs r: n=%d d=%d", panels{p, 2}, exs.n, exs.d), ...
              "r = max|XX'|", panels{p, 3}, rs, [h; hr], ...
              [names(1:columns (Z)), {"r = 0.1: the paper's regime is left of it"}], "eastoutside");
  endfor
  save_figure (f, file);
endfunction

## The sparse input of the time plot: blocks attsparse_example (n, block, 1, b),
## b = 1, 2, ..., side by side, entries at most threshold / sqrt (block) in
## magnitude dropped (the same matrix as in R).
function X = sparse_input (n, d, block, threshold)
  cut = threshold / sqrt (block);
  nb = ceil (d / block);
  B = cell (1, nb);
  for b = 1:nb
    Xb = attsparse_example (n, block, 1, b);
    Xb(abs (Xb) <= cut) = 0;
    B{b} = sparse (Xb);
  endfor
  X = [B{:}];
  X = X(:, 1:d);
endfunction

## 3. Time of the randomized algorithm and of the exact Gram against nnz (X).
function plot_time_vs_nnz (file, tk, rec, quick)
  n = spec_numbers (rec, "N");
  ds = spec_numbers (rec, "D", quick);
  reps = spec_numbers (rec, "Repeats");
  opts = spec_options (rec.Rand);
  [t_rand, t_gram, nz] = deal (zeros (size (ds)));
  for i = 1:numel (ds)
    X = sparse_input (n, ds(i), spec_numbers (rec, "Block"), spec_numbers (rec, "Threshold"));
    nz(i) = nnz (X);
    [t_rand(i), t_gram(i)] = deal (Inf);
    for rep = 1:reps
      t0 = tic ();
      attsparse_rand (X, opts{:});
      t_rand(i) = min (t_rand(i), toc (t0));
      t0 = tic ();
      G = X * X';
      t_gram(i) = min (t_gram(i), toc (t0));
    endfor
  endfor
  f = new_figure (tk);
  h = loglog (nz, t_rand, "-o", nz, t_gram, "-s", "linewidth", 1.5);
  axis ([nz(1) / 1.5, nz(end) * 1.5, log_limits([t_rand, t_gram], 0)]);
  decorate (sprintf ("time against nnz(X): sparse X, n=%d, d=%d..%d, %.0f nonzeros per column", ...
                     n, ds(1), ds(end), nz(end) / ds(end)), ...
            "nnz(X)", sprintf ("seconds (best of %d)", reps), nz, h, ...
            {"attsparse_rand (error = false)", "exact Gram X*X'"}, "eastoutside");
  save_figure (f, file);
endfunction

## 4. Columns and iterations of the deterministic algorithm against n, with
## the column budget max_columns = ceil (b rank) and b of the det result
## (info.b, info.max_columns: fields of the core's result; computed here from
## the paper's formula only while the gateway does not return them yet).
function plot_k_vs_n (file, tk, rec, quick)
  ns = spec_numbers (rec, "N", quick);
  ex = spec_options (rec.Example);
  exs = struct (ex{:});
  opts = spec_options (rec.Det);
  epsilon = struct (opts{:}).eps;
  [k, m, budget] = deal (zeros (size (ns)));
  for i = 1:numel (ns)
    [~, ~, info] = attsparse_det (spec_example ([{"n", ns(i)}, ex]), opts{:});
    k(i) = info.k;
    m(i) = info.m;
    budget(i) = info.max_columns;
  endfor
  f = new_figure (tk);
  h = loglog (ns, budget, "k--", ns, m, "s", ns, k, "-o", "linewidth", 1.5);
  axis ([ns(1) / 1.5, ns(end) * 1.5, log_limits([k, m], 1)]);
  decorate (sprintf ("attsparse_det (eps %.1f): columns against n, d=%d, r=%.2g", epsilon, exs.d, exs.r), ...
            "n (rows of X)", "columns / iterations", ns, h, ...
            {sprintf("budget ceil(b rank), b = %.2f", info.b), "m (iterations)", ...
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
%! ## a data directory with the spec's file input acq (here Xs) and without ALL
%! data = tempname ();
%! mkdir (data);
%! copyfile (file, fullfile (data, "acq.X.txt"));
%! unwind_protect
%!   out = evalc ('[tab, png] = attsparse_demo (dir, "quick", true, "data", data, "tables", "methods", "inputs", struct ("tiny", Xs, "tiny_file", file));');
%!   assert (fieldnames (tab), {"methods"});
%!   tab = tab.methods;
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
%!   assert (sum (strcmp (lines, hdr)), 4);
%!   assert (any (strcmp (lines, sprintf ("demo: no %s (its R data package is not installed)", ...
%!                                        fullfile (data, "ALL.X.txt")))));
%!   r = tab(4);
%!   assert (any (strcmp (lines, sprintf ("det            %7d %6d %10.3g %8.3g%% %8.3g%% %9.3g %8.3g%% %8.3f", ...
%!                        r.m, r.k, r.inf, 100*r.rel, 100*r.baseline, r.eps_spectral, 100*r.bound, r.time))));
%!   ## the rows
%!   assert ({tab.input}, [repmat({"example"}, 1, 4), repmat({"acq"}, 1, 4), repmat({"tiny"}, 1, 4), ...
%!                         repmat({"tiny_file"}, 1, 4)]);
%!   assert ({tab.method}, repmat ({"rand-leverage", "rand-uniform", "rand-norm", "det"}, 1, 4));
%!   assert ([tab.rel] <= [tab.bound] * (1 + 1e-10) + 1e-14);
%!   ## the det row is the spec's call attsparse_det (X, "eps", 0.5) (its guarantees: tests/octave/test_det.m)
%!   [~, e, info] = attsparse_det (Xs, "eps", 0.5);
%!   assert ([tab(12).m, tab(12).k, tab(12).inf, tab(12).rel], [info.m, info.k, e, info.rel_error]);
%!   assert ([tab([4, 12]).eps_spectral] <= 0.5 + 1e-10);
%!   assert ([tab([1:3, 5:7]).k] <= [tab([1:3, 5:7]).m]);
%!   assert ([tab(2:3).m], [tab(1).m, tab(1).m]);
%!   assert ([tab(1:4).baseline], repmat (tab(1).baseline, 1, 4));
%!   ## on the default input the sketch beats Y = 0 by far; inf alone does not show it
%!   assert (tab(1).rel < tab(1).baseline / 10);
%!   ## leverage scores beat uniform sampling at the same m (measured 0.14% and 0.60%)
%!   assert (tab(2).rel > 2 * tab(1).rel);
%!   assert (tab(1).baseline > 0.04 && tab(1).baseline < exp (0.1) - 1);
%!   ## the files hold the same matrix as the struct field
%!   t1 = rmfield (tab(9:12), {"input", "time"});
%!   assert (isequal (t1, rmfield (tab(13:16), {"input", "time"}), rmfield (tab(5:8), {"input", "time"})));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   if (exist (dir, "dir"))
%!     rmdir (dir, "s");
%!   endif
%!   delete (file);
%!   if (exist (data, "dir"))
%!     rmdir (data, "s");
%!   endif
%! end_unwind_protect

%!error <OUTDIR must be a directory name> attsparse_demo (1)
%!error <'quick' must be true or false> attsparse_demo (tempname (), "quick", "yes")
%!error <'plots' must be true or false> attsparse_demo (tempname (), "Plots", [1 0])
%!error <unknown option 'foo'> attsparse_demo (tempname (), "foo", 1)
%!error <name/value pairs> attsparse_demo (tempname (), "quick")
%!error <'inputs' must be a scalar struct> attsparse_demo (tempname (), "inputs", {1})
%!error <inputs.bad must be a real matrix or a file name> attsparse_demo (tempname (), "inputs", struct ("bad", {{1}}))
%!error id=attsparse:badInput attsparse_demo (tempname (), "inputs", struct ("none", tempname ()))
%!error <'data' must be the name of a directory> attsparse_demo (tempname (), "data", tempname ())

## the demo's definition as this front-end reads it (R reads the same file)
%!test
%! priv = fullfile (fileparts (which ("attsparse_demo")), "private");
%! addpath (priv);
%! unwind_protect
%!   spec = demo_spec (fullfile (fileparts (which ("attsparse_demo")), "demo-spec.dcf"));
%! unwind_protect_cleanup
%!   rmpath (priv);
%! end_unwind_protect
%! assert (cellfun (@(r) r.Method, spec.methods, "uniformoutput", false), ...
%!         {"rand-leverage", "rand-uniform", "rand-norm", "det"});
%! assert (fieldnames (spec.table)', {"methods", "targets", "qkv"});
%! cols = @(t) cellfun (@(r) r.Column, spec.columns.(t), "uniformoutput", false);
%! assert (cols ("methods"), {"method", "m", "k", "inf", "rel", "baseline", "eps_spectral", "bound", "time"});
%! assert (cols ("targets"), {"target", "method", "k", "rel", "estimate", "detail", "time"});
%! assert (cols ("qkv"), {"method", "m", "k", "eps_spectral", "rel", "bound", "baseline", "out_rel", "time"});
%! assert (cellfun (@(r) r.Search, spec.searches, "uniformoutput", false), ...
%!         {"leverage-iid", "norm-poisson", "mixed-poisson", "target", "det", "gaussian", "exact"});
%! assert (fieldnames (spec.plots)', {"error_vs_m", "error_vs_r", "time_vs_nnz", "k_vs_n"});
%! assert (cellfun (@(r) r.Input, spec.inputs, "uniformoutput", false), ...
%!         {"example", "ALL", "acq", "crude", "golub", "lung"});
%! assert (numel (strsplit (spec.table.methods.Legend, "\n")), 4);

## the targets table on the default input: each row's run meets its target,
## the run before it in the sweep did not (the same sweeps as R's)
%!test
%! X = attsparse_example ();
%! n = rows (X);
%! out = evalc ('tab = attsparse_demo ("", "quick", true, "plots", false, "tables", {"targets"});');
%! t = tab.targets;
%! priv = fullfile (fileparts (which ("attsparse_demo")), "private");
%! addpath (priv);
%! unwind_protect
%!   spec = demo_spec (fullfile (fileparts (which ("attsparse_demo")), "demo-spec.dcf"));
%!   fixed_opts = cellfun (@(se) spec_options (se.Options), spec.searches(1:3), "uniformoutput", false);
%! unwind_protect_cleanup
%!   rmpath (priv);
%! end_unwind_protect
%! targets = str2double (strsplit (spec.table.targets.Targets));
%! methods = {"leverage-iid", "norm-poisson", "mixed-poisson", "target", "det", "gaussian"};
%! assert ({t.method}, [repmat(methods, 1, 3), {"exact"}]);
%! assert ([t.target], [kron(targets, ones(1, 6)), NaN]);
%! met = ! isnan ([t.k]);
%! fixed = met & ! ismember ({t.method}, {"target", "exact"});
%! assert (all ([t(fixed).rel] <= [t(fixed).target]));
%! assert (all (strncmp ({t(! met).detail}, "not met; best ", 14)));
%! base = attention_error (X, zeros (n, 0)).rel;
%! assert (numel (strfind (out, "is not below the rel of Y = 0")), sum (targets >= base));
%! ## each fixed scheme: the m printed meets the target, the m before it does not
%! grid = ceil (n * str2double (strsplit (spec.searches{1}.Quick_Times_n)));
%! for i = find (fixed & ismember ({t.method}, methods(1:3)))
%!   opts = fixed_opts{strcmp (methods(1:3), t(i).method)};
%!   m = sscanf (t(i).detail, "m=%d");
%!   [~, ~, at] = attsparse_rand (X, "m", m, opts{:});
%!   assert ([at.k, at.rel_error], [t(i).k, t(i).rel]);
%!   j = find (grid == m);
%!   assert (numel (j), 1);
%!   if (j > 1)
%!     [~, ~, before] = attsparse_rand (X, "m", grid(j - 1), opts{:});
%!     assert (before.rel_error > t(i).target);
%!   endif
%! endfor
%! ## the target mode: where its estimate says the target is met, so does the exact rel
%! tm = t(strcmp ({t.method}, "target"));
%! said = [tm.estimate] <= [tm.target];
%! assert (any (said));
%! assert (all ([tm(said).rel] <= [tm(said).target]));
%! ## det: its k is that of the eps printed, the eps before it did not meet the target
%! eps = str2double (strsplit (spec.searches{5}.Quick_Values));
%! for i = find (met & strcmp ({t.method}, "det"))
%!   e = sscanf (t(i).detail, "eps=%g");
%!   [~, ~, d] = attsparse_det (X, "eps", e, "spectral", false);
%!   assert ([d.k, d.rel_error], [t(i).k, t(i).rel]);
%!   j = find (eps == e);
%!   if (j > 1)
%!     [~, ~, d0] = attsparse_det (X, "eps", eps(j - 1), "spectral", false);
%!     assert (d0.rel_error > t(i).target);
%!   endif
%! endfor
%! assert ([t(end).k, t(end).rel < 1e-9], [n, true]);

## the qkv table: Q the odd rows, K the even rows, rel and out_rel within the bound
%!test
%! out = evalc ('tab = attsparse_demo ("", "quick", true, "plots", false, "tables", "qkv");');
%! q = tab.qkv;
%! assert (unique ({q.input}), {"example"});
%! assert (all ([q.rel] <= [q.bound] * (1 + 1e-9)));
%! assert (all ([q.out_rel] <= [q.bound] * (1 + 1e-9)));
%! assert (! isempty (strfind (out, "example, queries != keys: Q = odd rows (50 x 20000), K = even rows (50)")));
%! X = attsparse_example ();
%! V = attsparse_example (50, 3, 1, 1);
%! [Y, ~, info] = attsparse_rand (X(1:2:end, :), "K", X(2:2:end, :), "V", V, "m", q(4).m, ...
%!                                "probabilities", "norm", "seed", 1);
%! assert (q(4).method, "qk-norm");
%! assert ([q(4).k, q(4).rel, q(4).out_rel, q(4).eps_spectral], ...
%!         [info.k, info.rel_error, info.out_rel_error, info.eps_spectral]);
%! A = attention (X(1:2:end, :), X(2:2:end, :));
%! At = attention (Y, info.YK);
%! assert (q(4).out_rel, max ((abs (At * V - A * V) ./ (A * abs (V)))(:)), 1e-8 * q(4).out_rel);

%!error <'tables': no table 'foo'> attsparse_demo ("", "tables", "foo", "plots", false)
%!error <'tables' must be a table name> attsparse_demo ("", "tables", 1)
