## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_demo.m: the paper's bounds on the built-in example and real data: three tables and five plots, each table row one call of attsparse_rand or attsparse_det.

## -*- texinfo -*-
## @deftypefn  {} {} attsparse_demo ()
## @deftypefnx {} {} attsparse_demo (@var{outdir})
## @deftypefnx {} {} attsparse_demo (@var{outdir}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{tab}, @var{png}] =} attsparse_demo (@dots{})
## Reproduce the paper's bounds: run both algorithms on
## @code{attsparse_example ()} (@var{n} = 100, @var{d} = 20000,
## @code{max (abs (X*X')(:)) = 0.05}), on the real data sets found in
## @qcode{"data"} and on the extra @qcode{"inputs"}, print three tables per
## input and write five plots.  Each table row is one call, as you would make
## it; the code of this function is meant to be read.  R's
## @code{attsparse_demo} makes the same calls and gets the same numbers.
##
## @strong{The methods table}: @code{attsparse_rand (X, "seed", 1)} (leverage
## scores, the default @var{m}), the same @var{m} with uniform and
## norm-squared probabilities, and @code{attsparse_det (X, "eps", 0.5)}.
## Columns: @var{m} (draws or iterations), @var{k} (distinct columns of
## @var{X} in @var{Y}), inf (@code{max |Att(Y) - Att(X)|}, the paper's
## metric), rel (@code{max |Att(Y) ./ Att(X) - 1|}), baseline (rel of
## @code{Y = 0}, the uniform attention: the bar to beat), spec_eps (the
## smallest eps with @code{(1-eps) X X' <= Y Y' <= (1+eps) X X'}), bound
## (@code{exp (2 spec_eps max (diag (X*X'))) - 1 >= rel}) and time_s.  Read rel
## against baseline: @code{Y = 0} already meets the paper's @code{O(r)} bound
## on inf.
##
## @strong{The targets table}: the fewest columns reaching
## @code{rel <= 5%}, 2% and 1%, by method: i.i.d. leverage sampling (the
## paper's), Poisson sampling with norm-squared or mixed probabilities (each
## with @var{m} swept over @code{ceil (c n)}, @var{c} = 1/4, 3/8, @dots{}, 8192,
## at seed 1: the first @var{m} meeting the target), the target mode
## @code{attsparse_rand (X, "rel", target, "seed", 1)} with its estimate,
## @code{attsparse_det} with eps swept from 0.9 down, a Gaussian projection
## @code{X G / sqrt (k)} (dense columns, for reference; Octave's @code{randn})
## and the exact Gram's Cholesky factor (@var{k} = @var{n}).  A "-" marks a
## target not met within the sweep.
##
## @strong{The qkv table}, on the example, ALL and acq: the odd rows as
## queries @var{Q}, the even rows as keys @var{K}, values @var{V} (ALL: its
## B or T lineage; else @code{attsparse_example (rows (K), 3, 1, 1)}), and
## @code{attsparse_rand (Q, "K", K, "V", V, "m", m, "seed", 1)} for a few
## @var{m} with leverage and norm probabilities: @var{k}, the spectral eps of
## @code{[Q; K]}, rel, bound, baseline and out_rel (the error of @code{Att V}).
##
## The plots, PNG files in @var{outdir} (default
## @code{fullfile (tempdir (), "attsparse-demo")}): @file{error_vs_m.png},
## @file{error_vs_r.png}, @file{time_vs_nnz.png}, @file{k_vs_n.png} and, with
## the targets table, @file{k_vs_target.png} (columns kept against the target,
## by method, per input).  Without a display they are drawn by gnuplot
## (Debian: @code{gnuplot-nox}).
##
## Options, as name/value pairs: @qcode{"data"}, a directory holding the data
## sets of @file{demo-data.txt} (beside this function) as written by the R
## package's @file{inst/scripts/export-data.R} (@code{make demo} passes
## @file{build/demo/data}); @qcode{"inputs"}, a struct whose fields are further
## inputs (real matrices, full or sparse); @qcode{"quick"}, coarser sweeps
## (false); @qcode{"plots"} (true); @qcode{"tables"}, a cell array of table
## names among @qcode{"methods"}, @qcode{"targets"}, @qcode{"qkv"} (all).
##
## @var{tab} has a field per table run, a struct array with a row per table
## line (fractions, not percent; NaN for "-"): @code{tab.methods} (input,
## method, m, k, inf, rel, baseline, eps_spectral, bound, time),
## @code{tab.targets} (input, target, method, k, rel, estimate, detail, time),
## @code{tab.qkv} (input, method, m, k, eps_spectral, rel, bound, baseline,
## out_rel, time).  @var{png}: the files written.
##
## @example
## @group
## tab = attsparse_demo ("", "plots", false, "tables", @{"methods"@});
## [tab.methods.rel] ./ [tab.methods.baseline]
## @end group
## @end example
## @seealso{attsparse_rand, attsparse_det, attention_error, attsparse_example}
## @end deftypefn

function [tab, png] = attsparse_demo (outdir, varargin)
  if (nargin < 1 || isempty (outdir))
    outdir = fullfile (tempdir (), "attsparse-demo");
  endif
  opt = struct ("data", "", "inputs", struct (), "quick", false, "plots", true, ...
                "tables", {{"methods", "targets", "qkv"}});
  opt = demo_options (opt, outdir, varargin);
  ## the inputs: the built-in example, the real data sets found in "data" (their values V too), the caller's
  X = {"example", attsparse_example()};
  V = cell (0, 2);
  sets = demo_sets ();
  for i = 1:rows (sets)
    if (isempty (opt.data))
      break;
    endif
    file = fullfile (opt.data, strcat (sets{i, 1}, {".X.txt", ".V.txt"}));
    if (! exist (file{1}, "file"))
      printf ("demo: no %s (its R data package is not installed; Debian: %s)\n", file{1}, sets{i, 2});
      continue;
    endif
    X(end+1, :) = {sets{i, 1}, read_x_txt(file{1})};
    if (exist (file{2}, "file"))
      V(end+1, :) = {sets{i, 1}, full(read_x_txt (file{2}))};
    endif
  endfor
  X = [X; fieldnames(opt.inputs), struct2cell(opt.inputs)];
  tab = struct ();
  if (any (strcmp (opt.tables, "methods")))
    tab.methods = each (X, @(name, Xi) methods_table (name, Xi));
    printf ("%s\n", "", ...
      "m: draws (rand) or iterations (det); k: distinct columns of X in Y", ...
      "inf: max|Att(Y) - Att(X)| (the paper's metric); rel: max|Att(Y)/Att(X) - 1|", ...
      "baseline: rel of Y = 0 (uniform attention 1/n), the bar to beat", ...
      "spec_eps: smallest eps with (1-eps)XX' <= YY' <= (1+eps)XX'; bound: exp(2 spec_eps max G_ii) - 1 >= rel");
  endif
  if (any (strcmp (opt.tables, "targets")))
    tab.targets = each (X, @(name, Xi) targets_table (name, Xi, opt.quick));
    printf ("%s\n", "", ...
      "target: the rel = max|Att(Y)/Att(X) - 1| asked for; k: columns of X in Y; rel: the exact rel of that Y", ...
      "leverage-iid: the paper's sampling (i.i.d. draws, leverage scores); norm-poisson, mixed-poisson: Poisson", ...
      "sampling, norm-squared or mixed probabilities; each at seed 1 with m = c n swept (c = 1/4 .. 8192, steps of", ...
      "about 1.4): the first m meeting the target (the one before it did not)", ...
      "target: attsparse_rand(X, rel = target, seed = 1): its sample checked against X X', shrunk while a smaller draw", ...
      "meets the target and calibrated to X's squared norm and its rows' when that lowers its error; with that sample's", ...
      "estimate of rel (rel_estimate, from Y alone)", ...
      "greedy: attsparse_greedy(X, rel = target): chosen with X X' known, its rel exact (a certificate)", ...
      "det: attsparse_det with eps swept from 0.9 down: the first eps meeting the target (m: its iterations)", ...
      "gaussian: Y = X G / sqrt(k), G Gaussian, k swept up to 16 n: k dense columns, not columns of X", ...
      "exact: the exact Gram and its Cholesky factor, k = n; \"-\": not met within the sweep", ...
      "time_s: seconds of the run shown (target: all its rounds and the estimate; gaussian: drawing G and X G)");
  endif
  if (any (strcmp (opt.tables, "qkv")))
    on = X(ismember (X(:, 1), {"example", "ALL", "acq"}), :);
    tab.qkv = each (on, @(name, Xi) qkv_table (name, Xi, V(strcmp (V(:, 1), name), 2), ...
                                                sets(strcmp (sets(:, 1), name), 3), opt.quick));
    printf ("%s\n", "", ...
      "rel: max|Att~/Att - 1| over Att = D^-1 exp(QK'); baseline: rel of the uniform attention", ...
      "spec_eps: spectral eps of the stacked [Q; K]; bound: exp(2 spec_eps max||q_i|| max||k_j||) - 1 >= rel", ...
      "out_rel: max over (i, l) of |(Att~ V - Att V)_il| / sum_j Att_ij |V_jl| (at most the bound)");
  endif
  png = {};
  if (opt.plots)
    png = demo_plots (outdir, X{1, 2}, tab, opt.quick);
  endif
endfunction

## Table 1, per input: the paper's algorithm (leverage scores, its default m),
## uniform and norm-squared sampling at the same m, det at eps = 0.5.
function t = methods_table (name, X)
  [~, ~, lev] = attsparse_rand (X, "seed", 1);
  [~, ~, unif] = attsparse_rand (X, "m", lev.m, "seed", 1, "probabilities", "uniform");
  [~, ~, norm2] = attsparse_rand (X, "m", lev.m, "seed", 1, "probabilities", "norm");
  [~, ~, det] = attsparse_det (X, "eps", 0.5);
  res = {lev, unif, norm2, det};
  printf ("\n%s: %d x %d %s, nnz %.0f, r = max|XX'| = %.3g\n", name, rows (X), columns (X), ...
          merge (issparse (X), "sparse", "dense"), nnz (X), lev.r);
  t = struct ("input", name, "method", {"rand-leverage", "rand-uniform", "rand-norm", "det"}, ...
              "m", field (res, "m"), "k", field (res, "k"), "inf", field (res, "error"), ...
              "rel", field (res, "rel_error"), "baseline", field (res, "baseline"), ...
              "eps_spectral", field (res, "eps_spectral"), "bound", field (res, "bound"), "time", field (res, "time"));
  print_rows (t, {"method", "m", "k", "inf", "rel", "baseline", "spec_eps", "bound", "time_s"}, ...
              {"%-14s", "%7d", "%6d", "%10.3g", "%8.3g%%", "%8.3g%%", "%9.3g", "%8.3g%%", "%8.3f"});
endfunction

## Table 2, per input: the fewest columns for rel <= target, by method.  A
## method with a size to choose (m, eps, a width) is swept until every target
## is met; one that takes the target itself runs once per target.
function t = targets_table (name, X, quick)
  n = rows (X);
  targets = [0.05, 0.02, 0.01];
  cn = sort ([2.^(-2:13), 3 * 2.^(-3:11)]);   # m = c n, c = 1/4 .. 8192
  epsilons = [0.9, 0.7, 0.5, 0.35, 0.25, 0.18, 0.125, 0.09];
  if (quick)
    cn = [0.5, 2, 8, 32, 128];
    epsilons = [0.9, 0.5];
  endif
  sampled = @(p, s) fewest (ceil (cn * n), targets, @(m) info_of (@attsparse_rand, X, "m", m, "seed", 1, ...
                            "probabilities", p, "sampling", s, "estimate", false, "spectral", false));
  found = {"leverage-iid", sampled("leverage", "iid");
           "norm-poisson", sampled("norm", "poisson");
           "mixed-poisson", sampled("mixed", "poisson");
           "target", arrayfun(@(r) info_of (@attsparse_rand, X, "rel", r, "seed", 1, "spectral", false), ...
                              targets, "uniformoutput", false);
           "greedy", arrayfun(@(r) info_of (@attsparse_greedy, X, "rel", r, "spectral", false), ...
                              targets, "uniformoutput", false);
           ## each eps of the sweep about doubles det's iterations m: none after one with m n^2 > 1.5e7
           "det", fewest(epsilons, targets, @(e) info_of (@attsparse_det, X, "eps", e, "spectral", false), ...
                         @(info) info.m * n^2 > 1.5e7);
           "gaussian", gaussian_sweep(X, ceil (n * cn(cn <= 16)), targets)};
  base = attention_error (X, zeros (n, 0)).rel;
  printf ("\n%s: fewest columns for rel <= target, %d x %d; Y = 0 (the uniform attention) has rel %.3g%%\n", ...
          name, n, columns (X), 100 * base);
  for r = targets(targets >= base)
    printf ("target %.3g%% is not below the rel of Y = 0 (%.3g%%): no column is needed for it\n", 100 * r, 100 * base);
  endfor
  t = struct ("input", {}, "target", {}, "method", {}, "k", {}, "rel", {}, "estimate", {}, "detail", {}, "time", {});
  for i = 1:numel (targets)
    for j = 1:rows (found)
      t(end+1) = target_row (name, targets(i), found{j, 1}, found{j, 2}{i});
    endfor
  endfor
  t(end+1) = target_row (name, NaN, "exact", exact_gram (X));
  print_rows (t, {"target", "method", "k", "rel", "estimate", "detail", "time_s"}, ...
              {"%5.3g%%", "%-14s", "%6d", "%8.3g%%", "%8.3g%%", "%-40s", "%8.3f"});
endfunction

## A sweep: run (v) for each v in order until every target is met, or enough
## (result) says the next run would cost too much.
function found = fewest (values, targets, run, enough = @(info) false)
  runs = {};
  for v = values
    runs{end+1} = run (v);
    if (min (cellfun (@(r) r.rel_error, runs)) <= min (targets) || enough (runs{end}))
      break;
    endif
  endfor
  found = first_meeting (runs, targets);
endfunction

## Per target, the first run with rel_error <= target, else the best one
## marked met = false.
function found = first_meeting (runs, targets)
  rel = cellfun (@(r) r.rel_error, runs);
  found = cell (size (targets));
  for i = 1:numel (targets)
    j = find (rel <= targets(i), 1);
    if (isempty (j))
      [~, j] = min (rel);
      runs{j}.met = false;
    endif
    found{i} = runs{j};
  endfor
endfunction

## A row of the targets table: the run's k, exact rel, estimate (NaN when it
## has none), what was run, its time.
function row = target_row (input, target, method, info)
  if (isfield (info, "detail"))
    detail = info.detail;
  elseif (strcmp (info.method, "deterministic"))
    detail = sprintf ("eps=%g, m=%d", info.eps, info.m);
  elseif (strcmp (info.method, "greedy"))
    detail = sprintf ("rounds %d", info.rounds);
  elseif (strcmp (info.method, "randomized") && info.rel_target > 0)
    detail = sprintf ("m=%d, picked %s %s, rounds %d", info.m, info.probabilities, info.sampling, info.rounds);
  else
    detail = sprintf ("m=%d", info.m);
  endif
  row = struct ("input", input, "target", target, "method", method, "k", info.k, "rel", info.rel_error, ...
                "estimate", field ({info}, "rel_estimate"), "detail", detail, "time", info.time);
  if (isfield (info, "met"))
    row.detail = sprintf ("not met; best %.3g%% at %s", 100 * info.rel_error, detail);
    [row.k, row.rel, row.estimate] = deal (NaN);
  endif
endfunction

## Y = X G / sqrt (k), G a d x k matrix of normal numbers (Octave's randn), for
## the widths ks in order until every target is met: the columns of X G not
## made yet (G drawn by blocks of 8192 rows); time: drawing G and X G up to k.
function found = gaussian_sweep (X, ks, targets)
  old = randn ("state");
  randn ("state", 1);
  unwind_protect
    XG = zeros (rows (X), 0);
    time = 0;
    runs = {};
    for k = ks
      t0 = tic ();
      B = zeros (rows (X), k - columns (XG));
      for j = 1:8192:columns (X)
        cols = j:min (columns (X), j + 8191);
        B += full (X(:, cols) * randn (numel (cols), columns (B)));
      endfor
      XG = [XG, B];
      time += toc (t0);
      runs{end+1} = struct ("k", k, "rel_error", attention_error (X, XG / sqrt (k)).rel, "time", time, ...
                            "detail", sprintf ("k=%d (dense)", k));
      if (runs{end}.rel_error <= min (targets))
        break;
      endif
    endfor
  unwind_protect_cleanup
    randn ("state", old);
  end_unwind_protect
  found = first_meeting (runs, targets);
endfunction

## The exact reference: the Gram X X' and its Cholesky factor, k = n (a ridge
## of 1e-12 max G_ii keeps a rank-deficient Gram positive definite).
function r = exact_gram (X)
  t0 = tic ();
  G = gram (X);
  L = chol (G + 1e-12 * max (diag (G)) * eye (rows (G)))';
  time = toc (t0);
  r = struct ("k", rows (X), "rel_error", attention_error (X, L).rel, "time", time, ...
              "detail", "exact Gram XX' and its Cholesky factor");
endfunction

## Table 3: queries != keys, Q the odd rows of X, K its even rows, V the even
## rows of its values (generated when it has none); a row per m and probabilities.
function t = qkv_table (name, X, V, what, quick)
  Q = X(1:2:end, :);
  K = X(2:2:end, :);
  if (isempty (V))
    V = attsparse_example (rows (K), 3, 1, 1);
    what = sprintf ("attsparse_example(%d, 3, r = 1, seed = 1)", rows (K));
  else
    [V, what] = deal (V{1}(2:2:end, :), what{1});
  endif
  printf ("\n%s, queries != keys: Q = odd rows (%d x %d), K = even rows (%d), V = %s\n", ...
          name, rows (Q), columns (Q), rows (K), what);
  ms = merge (quick, [250, 4000], [250, 1000, 4000, 16000]);
  [p, m] = ndgrid ({"leverage", "norm"}, ms);
  res = cellfun (@(p, m) info_of (@attsparse_rand, Q, "K", K, "V", V, "m", m, "probabilities", p, "seed", 1), ...
                 p(:)', num2cell (m(:)'), "uniformoutput", false);
  t = struct ("input", name, "method", strcat ("qk-", p(:)'), "m", num2cell (m(:)'), "k", field (res, "k"), ...
              "eps_spectral", field (res, "eps_spectral"), "rel", field (res, "rel_error"), ...
              "bound", field (res, "bound"), "baseline", field (res, "baseline"), ...
              "out_rel", field (res, "out_rel_error"), "time", field (res, "time"));
  print_rows (t, {"method", "m", "k", "spec_eps", "rel", "bound", "baseline", "out_rel", "time_s"}, ...
              {"%-12s", "%6d", "%6d", "%9.3g", "%8.3g%%", "%9.3g%%", "%8.3g%%", "%8.3g%%", "%8.3f"});
endfunction

## The third output of f (varargin{:}): the info struct of attsparse_rand, attsparse_det.
function info = info_of (f, varargin)
  [~, ~, info] = f (varargin{:});
endfunction

## The field F of each struct of the cell array RES, as a cell array (NaN where missing).
function v = field (res, f)
  v = repmat ({NaN}, size (res));
  for i = find (cellfun (@(r) isfield (r, f), res))
    v{i} = res{i}.(f);
  endfor
endfunction

## table (name, X) for each row {name, X} of INPUTS, the rows stacked.
function t = each (inputs, table)
  t = [];
  for i = 1:rows (inputs)
    t = [t, table(inputs{i, :})];
  endfor
endfunction

## The data sets of demo-data.txt (beside this function): rows {name, Debian package, what V is}.
function sets = demo_sets ()
  fid = fopen (fullfile (fileparts (mfilename ("fullpath")), "demo-data.txt"), "r");
  c = textscan (fid, "%s %s %[^\n]", "CommentStyle", "#");
  fclose (fid);
  sets = [c{:}];
  sets = sets(! cellfun (@isempty, sets(:, 1)), :);
endfunction

%!demo
%! ## the paper's algorithms on the built-in example, as the methods table
%! ## prints them (about ten seconds), then the rows as fractions
%! tab = attsparse_demo ("", "plots", false, "tables", {"methods"});
%! [tab.methods.rel] ./ [tab.methods.baseline]

%!test
%! ## the qkv table on the example: Q the odd rows, K the even rows, V generated; each row its call
%! out = evalc ('tab = attsparse_demo ("", "quick", true, "plots", false, "tables", {"qkv"});');
%! q = tab.qkv;
%! assert ({q.method}, repmat ({"qk-leverage", "qk-norm"}, 1, 2));
%! assert ([q.m], [250 250 4000 4000]);
%! assert (all ([q.rel] <= [q.bound] * (1 + 1e-9)) && all ([q.out_rel] <= [q.bound] * (1 + 1e-9)));
%! X = attsparse_example ();
%! V = attsparse_example (50, 3, 1, 1);
%! [Y, ~, info] = attsparse_rand (X(1:2:end, :), "K", X(2:2:end, :), "V", V, "m", 4000, ...
%!                                "probabilities", "norm", "seed", 1);
%! assert ([q(4).k, q(4).rel, q(4).out_rel, q(4).eps_spectral], ...
%!         [info.k, info.rel_error, info.out_rel_error, info.eps_spectral]);
%! assert (! isempty (strfind (out, "example, queries != keys: Q = odd rows (50 x 20000), K = even rows (50)")));

%!error <OUTDIR must be a directory name> attsparse_demo (1)
%!error <'quick' must be true or false> attsparse_demo (tempname (), "quick", "yes")
%!error <'plots' must be true or false> attsparse_demo (tempname (), "Plots", [1 0])
%!error <unknown option 'foo'> attsparse_demo (tempname (), "foo", 1)
%!error <name/value pairs> attsparse_demo (tempname (), "quick")
%!error <'inputs' must be a scalar struct of real matrices> attsparse_demo (tempname (), "inputs", struct ("bad", {{1}}))
%!error <'data' must be the name of a directory> attsparse_demo (tempname (), "data", tempname ())
%!error <'tables' must be a cell array> attsparse_demo ("", "tables", {"foo"}, "plots", false)
