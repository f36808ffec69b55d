## rand_run.m: one method of the randomized-algorithm benchmark on one input, in Octave; appends result lines to a TSV.
## Run: octave-cli --path build/octave bench/rand_run.m DIR INPUT METHOD SIZES BUDGET OUT
##   METHOD rand (SIZES: draws m, 0 = default), det (eps), gram (X*X' + chol), gauss (k columns)
## The same measurements as bench/rand_run.R: time of the method alone, resident memory
## before it, its peak (VmHWM reset before the run), rel error of Y against the exact Gram.
1;

function X = read_asbin (path)
  fid = fopen (path, "r");
  magic = fread (fid, 8, "char=>char")';
  if (! strcmp (magic, "ASBIN001"))
    error ("rand_run: %s is not an ASBIN001 file", path);
  endif
  h = fread (fid, 4, "int64=>double");
  n = h(1); d = h(2); nnz = h(3);
  if (h(4) == 0)
    X = reshape (fread (fid, n * d, "double=>double"), n, d);
  else
    p = fread (fid, d + 1, "int32=>double");
    i = fread (fid, nnz, "int32=>double") + 1;
    x = fread (fid, nnz, "double=>double");
    j = repelem ((1:d)', diff (p));
    clear p;
    X = sparse (i, j, x, n, d);
  endif
  fclose (fid);
endfunction

## Y Y' in blocks of columns: dense BLAS for columns with more than n/16 entries
function H = gram_blocked (Y)
  n = rows (Y);
  if (! issparse (Y))
    H = Y * Y';
    return;
  endif
  cnt = full (sum (Y != 0, 1));
  light = Y(:, cnt <= n / 16);
  H = full (light * light');
  heavy = find (cnt > n / 16);
  for b0 = 1:2048:numel (heavy)
    B = full (Y(:, heavy(b0:min (b0 + 2047, end))));
    H += B * B';
  endfor
endfunction

function A = row_softmax (G)
  A = exp (G - max (G, [], 2));
  A ./= sum (A, 2);
endfunction

function mem_reset ()
  fid = fopen ("/proc/self/clear_refs", "w");
  if (fid >= 0)
    fputs (fid, "5");
    fclose (fid);
  endif
endfunction

function [hwm, rss] = mem_now ()
  s = fileread ("/proc/self/status");
  hwm = str2double (regexp (s, 'VmHWM:\s*(\d+)', "tokens"){1}{1}) / 1024;
  rss = str2double (regexp (s, 'VmRSS:\s*(\d+)', "tokens"){1}{1}) / 1024;
endfunction

function Y = gauss_project (X, k)
  Y = zeros (rows (X), k);
  blk = max (1, min (8192, floor (2^24 / k)));   # Omega blocks of at most 128 MiB
  for b0 = 1:blk:columns (X)
    b = b0:min (b0 + blk - 1, columns (X));
    Y += full (X(:, b) * randn (numel (b), k));
  endfor
  Y /= sqrt (k);
endfunction

args = argv ();
dir = args{1}; input = args{2}; method = args{3};
sizes = str2double (strsplit (args{4}, ","));
budget = str2double (args{5}); out = args{6};

X = read_asbin (fullfile (dir, [input ".bin"]));
[n, d] = size (X);
fid = fopen (fullfile (dir, [input ".G"]), "r");
G = reshape (fread (fid, n * n, "double=>double"), n, n);
fclose (fid);
w = whos ("X");
size_x = w.bytes / 2^20;
nnzx = nnz (X);
AttX = row_softmax (G);

for si = 1:numel (sizes)
  sz = sizes(si);
  randn ("state", 1);
  mem_reset ();
  [~, before] = mem_now ();
  status = "ok";
  Y = [];
  t0 = tic ();
  try
    switch (method)
      case "rand"
        if (sz > 0)
          [Y, ~, info] = attsparse_rand (X, "m", sz, "seed", 1, "error", false);
        else
          [Y, ~, info] = attsparse_rand (X, "seed", 1, "error", false);
        endif
      case "det"
        [Y, ~, info] = attsparse_det (X, "eps", sz, "error", false);
      case "gram"
        GX = full (X * X');
        [R, p] = chol (GX);
        if (p > 0)
          status = sprintf ("chol failed: X X' not positive definite (leading minor %d)", p);
          Y = [];
        else
          Y = R';
        endif
      case "gauss"
        Y = gauss_project (X, sz);
    endswitch
  catch err
    status = ["stopped: " err.message];
  end_try_catch
  t = toc (t0);
  peak = mem_now ();
  if (isempty (Y))
    rel = NaN; k = NaN;
  else
    rel = max (max (abs (row_softmax (gram_blocked (Y)) ./ AttX - 1)));
    k = columns (Y);
  endif
  newfile = ! exist (out, "file");
  fid = fopen (out, "a");
  if (newfile)
    fputs (fid, "frontend\tinput\tn\td\tnnz\tmethod\tparam\tk\ttime\trel\tsize_x_mb\trss_before_mb\tpeak_mb\textra_mb\ty_mb\tstatus\n");
  endif
  wy = whos ("Y");
  fprintf (fid, "Octave\t%s\t%d\t%d\t%d\t%s\t%g\t%d\t%.3f\t%.4g\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\n", input, n, d, nnzx,
           method, sz, k, t, rel, size_x, before, peak, peak - before, wy.bytes / 2^20, strrep (status, "\t", " "));
  fclose (fid);
  fprintf (stderr, "Octave %s %s %g: k %d, %.2f s, rel %.3g, +%.0f MiB over %.0f MiB resident (X: %.0f MiB) %s\n",
           input, method, sz, k, t, rel, peak - before, before, size_x, status);
  if (isnan (rel) || rel <= 0.01)
    break;
  endif
  if (si < numel (sizes) && ! strcmp (method, "det") && t * sizes(si + 1) / max (sz, 1e-9) > budget)
    break;
  endif
endfor
