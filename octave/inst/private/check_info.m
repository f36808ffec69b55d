## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## check_info.m: refuses, by name, anything but the info output of attsparse_rand, attsparse_det or attsparse_greedy.

function check_info (info, fname)
  if (! (isstruct (info) && isscalar (info) && all (isfield (info, {"index", "weight", "method"}))))
    error ("attsparse:badArgument", ...
           "%s: INFO must be the third output of attsparse_rand, attsparse_det or attsparse_greedy", fname);
  endif
endfunction
