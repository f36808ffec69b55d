## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## precheck.m: the traps of X said before any work (the core's rule, core/precheck.c): X transposed (a warning), logits that overflow or so small that Y = 0 meets the target (a note on stderr with the scale to use).

function precheck (X, opts, fname, rel_default)
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
    [warn, note] = __attsparse__ ("precheck", X, double (rel));
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
