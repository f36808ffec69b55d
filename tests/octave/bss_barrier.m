## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## bss_barrier.m: the BSS barriers after q steps on rank r, from the paper's constants (for the tests).

## bar = bss_barrier (epsilon, r, q): Batson, Spielman, Srivastava,
## "Twice-Ramanujan sparsifiers", SIAM J. Comput. 2012, section 3:
## u_q = r/eU + q dU, l_q = -r/eL + q dL, and their bound (u - l)/(u + l).
function bar = bss_barrier (epsilon, r, q)
  b = ((1 + sqrt (1 - epsilon^2)) / epsilon)^2;
  sb = sqrt (b);
  bar.eU = (sb - 1) / (b + sb);
  bar.eL = 1 / sb;
  bar.u = r / bar.eU + q * (sb + 1) / (sb - 1);
  bar.l = -r / bar.eL + q;
  bar.eps = (bar.u - bar.l) / (bar.u + bar.l);
endfunction
