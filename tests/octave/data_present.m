## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## data_present.m: the runtime condition of a %!testif on a data file: true when it exists, else prints why the test is skipped.

## ok = data_present (f, how): F a file, HOW what writes it.  A test guarded
## by "%!testif ; data_present (...)" is counted as skipped (run_tests.m
## prints the count) when F is missing, with this line saying why.
function ok = data_present (f, how)
  ok = exist (f, "file") == 2;
  if (! ok)
    printf ("skipped: %s not found (%s)\n", f, how);
  endif
endfunction
