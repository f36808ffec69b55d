## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo.m: `make demo-octave`: both algorithms on attsparse_example () (n = 100, d = 20000, r = 0.05), metrics as a table.

X = attsparse_example ();
empty = attention_error (X, zeros (rows (X), 0));
printf ("X: %d x %d, dense, r = max |X X'| = %g (attsparse_example ())\n", rows (X), columns (X), empty.r);
printf ("empty Y (uniform attention 1/n): inf err %.3g, rel err %.3g\n\n", empty.inf, empty.rel);
runs = {"attsparse_rand", @() attsparse_rand(X, "seed", 1);
        "attsparse_det",  @() attsparse_det(X)};
printf ("%-15s %10s %6s %6s %10s %10s %10s %9s %8s\n", "algorithm", "size(Y)", "k", ...
        "m", "inf err", "rel err", "uniform", "spec eps", "time s");
for r = 1:rows (runs)
  [Y, err, info] = runs{r, 2} ();
  printf ("%-15s %10s %6d %6d %10.3g %10.3g %10.3g %9.3g %8.2f\n", runs{r, 1}, ...
          sprintf ("%dx%d", size (Y)), info.k, info.m, err, info.rel_error, ...
          info.baseline, info.eps_spectral, info.time);
endfor
printf ("\ninf err: max |Att(Y) - Att(X)|; rel err: max |Att(Y) ./ Att(X) - 1|;\n");
printf ("uniform: rel err of the empty sketch (attention 1/n), the bar to beat;\n");
printf ("spec eps: smallest eps with (1-eps) XX' <= YY' <= (1+eps) XX'; m: draws (rand) or iterations (det).\n");
