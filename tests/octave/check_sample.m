## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## check_sample.m: test helper: Y is X(:, info.index) .* info.weight' exactly, index distinct and increasing.

function check_sample (X, Y, info)
  assert (issparse (Y), issparse (X));
  assert (size (Y), [rows(X), info.k]);
  assert (size (info.index), [info.k, 1]);
  assert (size (info.weight), [info.k, 1]);
  assert (all (diff (info.index) > 0));
  assert (all (info.index >= 1 & info.index <= columns (X)));
  assert (all (info.weight > 0));
  if (issparse (X))
    assert (isequal (Y, X(:, info.index) * diag (info.weight)));
  else
    assert (isequal (Y, X(:, info.index) .* info.weight'));
  endif
endfunction
