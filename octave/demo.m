## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo.m: `make demo-octave`: attsparse_demo on the default input and on the real data sets that inst/scripts/export-data.R wrote.

## Run from the top of the repository.  build/demo/data holds ALL.X.txt and
## acq.X.txt (rows scaled so max G_ii = 1) when their R data packages
## (r-bioc-all, r-cran-tm) are installed; the plots go to build/demo/octave.
inputs = struct ();
for name = {"ALL", "acq"}
  file = fullfile ("build", "demo", "data", [name{1} ".X.txt"]);
  if (exist (file, "file"))
    inputs.(name{1}) = file;
  else
    printf ("demo: no %s (its R data package is not installed)\n", file);
  endif
endfor
attsparse_demo (fullfile ("build", "demo", "octave"), "inputs", inputs);
