## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## with_prepare.m: a result's info with the preparation it was computed after (attsparse_prepare), for attsparse_apply.

function info = with_prepare (info, prep)
  if (! isempty (prep))
    info.prepare = prep;
  endif
endfunction
