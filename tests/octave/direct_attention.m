## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## direct_attention.m: test helper: D^-1 exp (Y Y') in plain Octave, row maximum subtracted.

function A = direct_attention (Y)
  G = full (Y * Y');
  E = exp (G - max (G, [], 2));
  A = E ./ sum (E, 2);
endfunction
