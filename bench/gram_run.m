## gram_run.m: one exact-Gram run of make bench-gram in Octave: X*X' then chol.
## Run: octave-cli bench/gram_run.m FILE
1;

function X = read_input (path)
  fid = fopen (path, "r");
  fread (fid, 8, "char=>char");
  h = fread (fid, 4, "int64=>double");
  if (h(4) == 0)
    X = reshape (fread (fid, h(1) * h(2), "double=>double"), h(1), h(2));
  else
    p = fread (fid, h(2) + 1, "int32=>double");
    rows = fread (fid, h(3), "int32=>double") + 1;
    vals = fread (fid, h(3), "double=>double");
    X = sparse (rows, repelem ((1:h(2))', diff (p)), vals, h(1), h(2));
  endif
  fclose (fid);
endfunction

## killed at the time limit, Octave would dump its workspace (the input) into the current directory
crash_dumps_octave_core (false);
args = argv ();
X = read_input (args{1});
t0 = tic ();
G = full (X * X');
tg = toc (t0);
n = rows (G);
t0 = tic ();
L = chol (G + 1e-10 * trace (G) / n * eye (n));
tc = toc (t0);
[~, name] = fileparts (args{1});
printf ("gram_run: %s Octave X*X': gram %.3f s, chol %.3f s\n", name, tg, tc);
