## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo.m: `make demo-octave`: attsparse_demo on the inputs of inst/extdata/demo-spec.dcf, the real data sets read from the files inst/scripts/export-data.R wrote.

## Run from the top of the repository.  build/demo/data holds ALL.X.txt and
## acq.X.txt (rows scaled so max G_ii = 1) when their R data packages
## (r-bioc-all, r-cran-tm) are installed; R's demo reads the same files.  The
## plots go to build/demo/octave.
attsparse_demo (fullfile ("build", "demo", "octave"), "data", fullfile ("build", "demo", "data"));
