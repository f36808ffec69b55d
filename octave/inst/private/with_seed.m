## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## with_seed.m: add a "seed" option drawn from Octave's rand when the caller gave none.

## The seed comes from rand () so that rand ("seed", ...) or rand ("state", ...)
## reproduces a run; it stays below 2^31 so that R can take it too. An odd
## option list is left alone for the gateway to report as the caller wrote it.
function opts = with_seed (opts)
  names = opts(1:2:end);
  given = cellfun (@(s) ischar (s) && strcmpi (s, "seed"), names);
  if (mod (numel (opts), 2) == 0 && ! any (given))
    opts(end+1:end+2) = {"seed", floor(rand () * 2^31)};
  endif
endfunction
