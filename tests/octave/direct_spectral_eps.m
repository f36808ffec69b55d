## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## direct_spectral_eps.m: test helper: smallest e with (1-e) X X' <= Y Y' <= (1+e) X X' on the range of X X', by eig.

## mu: the generalized eigenvalues of (Y Y', X X') on that range.
function [e, mu] = direct_spectral_eps (X, Y)
  G = full (X * X');
  [V, L] = eig ((G + G') / 2);
  lam = diag (L);
  keep = lam > numel (lam) * 16 * eps (max (lam));
  W = V(:, keep) ./ sqrt (lam(keep))';
  C = W' * full (Y * Y') * W;
  mu = eig ((C + C') / 2);
  e = max (max (mu) - 1, 1 - min (mu));
endfunction
