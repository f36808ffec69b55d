## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## precheck.m: the traps of X said before any work (the core's rule, core/precheck.c): X transposed (a warning), logits that overflow or so small that Y = 0 meets the target (a note on stderr with the scale to use).
## With a fifth argument "shape", X is [nrow, ncol] of a block reader: the trap of the shape alone, before any pass.

function precheck (X, opts, fname, rel_default, what)
  rel = rel_default;
  if (! (isnumeric (rel) && isscalar (rel)))
    rel = NaN;
  endif
  names = opts(1:2:end);
  at = find (cellfun (@(s) ischar (s) && strcmp (s, "rel"), names), 1);
  if (! isempty (at) && 2 * at <= numel (opts))
    rel = opts{2 * at};
  endif
  if (any (cellfun (@(s) ischar (s) && strcmp (s, "k"), names)))
    rel = NaN;   # a column budget: no target
  endif
  try
    if (nargin > 4 && strcmp (what, "shape"))
      warn = __attsparse__ ("precheck_shape", X(1), X(2));
      note = "";
    else
      [warn, note] = __attsparse__ ("precheck", X, double (rel));
    endif
  catch
    return;   # a bad X: the call itself says what is wrong, under its own name
  end_try_catch
  if (! isempty (warn))
    warning ("attsparse:transposed", "%s: %s", fname, warn);
  endif
  if (! isempty (note))
    fprintf (stderr, "%s: %s\n", fname, note);
  endif
endfunction
