## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo_plots.m: the plots of attsparse_demo, PNG files of 900 x 450 pixels (k_vs_target: 450 per panel).

## png = demo_plots (outdir, X, tab, quick): error against m (on X, the
## example) and against r = max|XX'|, time against nnz (X), the det
## algorithm's columns against n, and with tab.targets the columns kept for
## each target, by method and input.  Returns the files written.
function png = demo_plots (outdir, X, tab, quick)
  [ok, msg] = mkdir (outdir);
  if (! ok)
    error ("attsparse:badArgument", "attsparse_demo: cannot create %s: %s", outdir, msg);
  endif
  ## without a display only gnuplot draws (even invisible figures)
  tk = graphics_toolkit ();
  if (! have_window_system ())
    if (isempty (file_in_path (getenv ("PATH"), gnuplot_binary ())))
      error ("attsparse:noGraphics", "attsparse_demo: no display and no gnuplot to draw the plots; install gnuplot (Debian: gnuplot-nox)");
    endif
    tk = "gnuplot";
  endif
  warning ("off", "Octave:gnuplot-graphics", "local");
  png = {};
  printf ("plot 1 of 5: error against m ...\n");
  ms = merge (quick, [1000, 4000, 16000], 1000 * 2.^(-1:5));
  seeds = merge (quick, 1:2, 1:5);
  probs = {"leverage", "uniform", "norm"};
  E = zeros (numel (ms), 3, 2, numel (seeds));
  for a = 1:numel (ms)
    for p = 1:3
      for s = 1:numel (seeds)
        [~, e, info] = attsparse_rand (X, "m", ms(a), "seed", seeds(s), "probabilities", probs{p}, ...
                                       "spectral", false, "estimate", false);
        E(a, p, :, s) = [info.rel_error, e];
      endfor
    endfor
  endfor
  E = median (E, 4);
  base = attention_error (X, zeros (rows (X), 0));
  f = new_figure (tk, 2, 1);
  for w = 1:2
    subplot (1, 2, w);
    b = merge (w == 1, base.rel, base.inf);
    h = loglog (ms, E(:, :, w), "-o", [ms(1), ms(end)], [b, b], "k--", "linewidth", 1.5);
    labels = [strcat("rand-", probs), {"baseline (Y = 0, uniform attention)"}];
    if (isfield (tab, "methods"))   # the default m, from the methods table
      h(end+1) = line (tab.methods(1).m * [1, 1], [min(E(:, :, w)(:)), b], "linestyle", ":", "color", "k");
      labels{end+1} = sprintf ("default m = %d", tab.methods(1).m);
    endif
    decorate (sprintf ("%s error vs m (median of %d seeds)", {"rel", "inf"}{w}, numel (seeds)), "m (draws)", ...
              h, labels);
  endfor
  png{end+1} = save_figure (f, fullfile (outdir, "error_vs_m.png"));

  printf ("plot 2 of 5: error against r ...\n");
  rs = merge (quick, [0.01, 0.1, 1], [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5]);
  E = zeros (numel (rs), 7);
  for i = 1:numel (rs)
    Xr = attsparse_example (50, 5000, rs(i), 1);
    [~, e_rand, ra] = attsparse_rand (Xr, "seed", 1, "estimate", false);
    [~, e_det, de] = attsparse_det (Xr, "eps", 0.5);
    E(i, :) = [ra.rel_error, de.rel_error, ra.baseline, ra.bound, e_rand, e_det, ...
               attention_error(Xr, zeros (50, 0)).inf];
  endfor
  f = new_figure (tk, 2, 1);
  for w = 1:2
    subplot (1, 2, w);
    cols = {1:4, 5:7}{w};
    h = loglog (rs, E(:, cols), "-o", [0.1, 0.1], [min(E(:, cols)(:)), max(E(:, cols)(:))], "k:", "linewidth", 1.5);
    decorate (sprintf ("%s error vs r = max|XX'| (n = 50, d = 5000)", {"rel", "inf"}{w}), "r = max|XX'|", h, ...
              [{"rand", "det (eps 0.5)", "baseline (Y = 0)", "bound of rand"}(1:numel (cols)), ...
               {"r = 0.1: the paper's regime is left of it"}]);
  endfor
  png{end+1} = save_figure (f, fullfile (outdir, "error_vs_r.png"));

  printf ("plot 3 of 5: time against nnz(X) ...\n");
  ds = merge (quick, [5000, 20000], 5000 * 2.^(0:5));
  T = zeros (numel (ds), 3);
  for i = 1:numel (ds)
    ## sparse, 200 rows: blocks attsparse_example (200, 5000, 1, b) with their entries below 0.8 / sqrt (5000)
    ## in magnitude dropped (about 50 nonzeros a column; the same matrix in R)
    B = arrayfun (@sparse_block, 1:ds(i) / 5000, "uniformoutput", false);
    Xs = [B{:}];
    T(i, :) = [nnz(Xs), best_of_3(@() attsparse_rand (Xs, "seed", 1, "error", false)), best_of_3(@() Xs * Xs')];
  endfor
  f = new_figure (tk, 1, 1);
  h = loglog (T(:, 1), T(:, 2:3), "-o", "linewidth", 1.5);
  decorate ("time vs nnz(X), n = 200 (best of 3)", "nnz(X)", h, {"attsparse_rand (error = false)", "exact Gram X*X'"});
  png{end+1} = save_figure (f, fullfile (outdir, "time_vs_nnz.png"));

  printf ("plot 4 of 5: columns against n ...\n");
  ns = merge (quick, [10, 40], 10 * 2.^(0:4));
  K = zeros (numel (ns), 3);
  for i = 1:numel (ns)
    [~, ~, info] = attsparse_det (attsparse_example (ns(i), 4000, 0.05, 1), "eps", 0.5, "error", false);
    K(i, :) = [info.max_columns, info.k, info.m];
  endfor
  f = new_figure (tk, 1, 1);
  h = loglog (ns, K, "-o", "linewidth", 1.5);
  decorate (sprintf ("attsparse_det (eps 0.5): columns vs n (b = %.3g)", info.b), "n (d = 4000)", h, ...
            {"budget max_columns = ceil(b rank)", "k (distinct columns)", "m (iterations)"});
  png{end+1} = save_figure (f, fullfile (outdir, "k_vs_n.png"));

  if (isfield (tab, "targets"))
    printf ("plot 5 of 5: columns against the target ...\n");
    t = tab.targets;
    inputs = unique ({t.input}, "stable");
    methods = unique ({t(! isnan ([t.target])).method}, "stable");
    f = new_figure (tk, min (3, numel (inputs)), ceil (numel (inputs) / 3));
    for i = 1:numel (inputs)
      subplot (ceil (numel (inputs) / 3), min (3, numel (inputs)), i);
      ti = t(strcmp ({t.input}, inputs{i}));
      targets = unique ([ti(! isnan ([ti.target])).target]);
      K = NaN (numel (targets), numel (methods));
      for j = 1:numel (methods)
        for a = 1:numel (targets)
          K(a, j) = ti(strcmp ({ti.method}, methods{j}) & [ti.target] == targets(a)).k;
        endfor
      endfor
      K(K <= 0) = NaN;   # no point for k = 0 (a target met with no column) on the log scale
      exact = ti(strcmp ({ti.method}, "exact")).k;
      h = loglog (targets, K, "-o", [targets(1), targets(end)], [exact, exact], "k--", "linewidth", 1.5);
      decorate (sprintf ("%s: fewest columns for rel <= target", inputs{i}), "target rel", h, ...
                [methods, {"exact Gram (k = n)"}]);
    endfor
    png{end+1} = save_figure (f, fullfile (outdir, "k_vs_target.png"));
  endif
  printf ("plots: %s\n", strjoin (png, " "));
endfunction

function B = sparse_block (b)
  B = attsparse_example (200, 5000, 1, b);
  B = sparse (B .* (abs (B) > 0.8 / sqrt (5000)));
endfunction

function t = best_of_3 (f)
  t = Inf;
  for rep = 1:3
    t0 = tic ();
    f ();
    t = min (t, toc (t0));
  endfor
endfunction

## An invisible figure of COLS x ROWS panels of 450 x 450 pixels at 100 dpi.
function f = new_figure (tk, cols, rows)
  f = figure ("visible", "off", "paperunits", "inches", "paperposition", [0, 0, 4.5 * cols, 4.5 * rows], ...
              "defaultaxesfontsize", 9, "defaulttextfontsize", 9);
  if (! strcmp (get (f, "__graphics_toolkit__"), tk))
    graphics_toolkit (f, tk);
  endif
endfunction

function decorate (ttl, xlab, h, labels)
  title (ttl, "interpreter", "none");
  xlabel (xlab, "interpreter", "none");
  legend (h, labels, "location", "southwest", "interpreter", "none");
  legend ("boxoff");
endfunction

function file = save_figure (f, file)
  unwind_protect
    print (f, file, "-dpng", "-r100");
  unwind_protect_cleanup
    close (f);
  end_unwind_protect
endfunction
