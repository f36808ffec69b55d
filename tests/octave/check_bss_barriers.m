## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## check_bss_barriers.m: the BSS barrier argument for a result of attsparse_det, recomputed from Y with eig (for the tests).

## check_bss_barriers (X, Y, info, epsilon): of the result only Y and the
## iteration count info.m are used.  m iterations are the fewest whose bound
## (u - l)/(u + l) reaches eps; Y Y' = gamma A with gamma = 2/(u_m + l_m), A
## (whitened) strictly inside (l_m, u_m), its potentials not above their
## start: tr (u_m I - A)^-1 <= eU, tr (A - l_m I)^-1 <= eL; l_m > 0, so Y
## spans the range of X, and each step adds at most one column.
function check_bss_barriers (X, Y, info, epsilon)
  ## generalized eigenvalues of (Y Y', X X') on the range of X X'
  [~, mu] = direct_spectral_eps (X, Y);
  r = numel (mu);
  assert (r, info.rank);
  assert (max (abs (mu - 1)) <= epsilon);
  bar = bss_barrier (epsilon, r, info.m);
  assert (bar.eps <= epsilon * (1 + 1e-12));
  assert (bss_barrier (epsilon, r, info.m - 1).eps > epsilon * (1 - 1e-9));
  assert (info.eps_bound, bar.eps, -1e-12);
  lambda = mu * (bar.u + bar.l) / 2;
  assert (all (lambda > bar.l & lambda < bar.u));
  assert (sum (1 ./ (bar.u - lambda)) <= bar.eU * (1 + 1e-8));
  assert (sum (1 ./ (lambda - bar.l)) <= bar.eL * (1 + 1e-8));
  assert (info.k >= r && info.k <= info.m);
endfunction
