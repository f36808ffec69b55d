## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## qk_options.m: takes the "K" and "V" name/value pairs (Q != K, values) out of an option list.

## [K, V, opts] = qk_options (opts, fname): K and V as the gateway's "method" command takes them, {} when
## not given and {value} (as double) when given -- an empty K or V is given, and the core says what is
## wrong with it, as in R; the other pairs left in order for the gateway (which checks them); fname
## prefixes messages.
function [K, V, opts] = qk_options (opts, fname)
  K = {};
  V = {};
  if (mod (numel (opts), 2) != 0)
    return;   # the gateway says what is wrong with the pairs
  endif
  names = opts(1:2:end);
  isk = cellfun (@(s) ischar (s) && strcmp (s, "K"), names);
  isv = cellfun (@(s) ischar (s) && strcmp (s, "V"), names);
  if (sum (isk) > 1 || sum (isv) > 1)
    error ("attsparse:badArgument", "%s: option '%s' is given twice", fname, ifelse_kv (sum (isk) > 1));
  endif
  if (any (isk))
    K = {double_input(opts{2 * find (isk)})};
  endif
  if (any (isv))
    V = {double_input(opts{2 * find (isv)})};
  endif
  at = find (isk | isv);
  drop = [2*at-1, 2*at];
  opts(drop) = [];
endfunction

function s = ifelse_kv (k)
  if (k)
    s = "K";
  else
    s = "V";
  endif
endfunction
