## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## double_input.m: single, integer and logical matrices to double; anything else is left for the gateway to reject by name.

function X = double_input (X)
  if ((isnumeric (X) || islogical (X)) && ! isa (X, "double"))
    X = double (X);
  endif
endfunction
