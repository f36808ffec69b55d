## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## struct_options.m: options given as one struct expanded to name/value pairs; the "prepare" option taken out.

## [opts, prep] = struct_options (opts, fname): a scalar struct among the options (first, or
## anywhere a name is expected) becomes its fields' name/value pairs in order, so
## f (X, struct ("rel", 0.02), "threads", 2) is f (X, "rel", 0.02, "threads", 2); a name given twice
## stays so for the gateway to refuse.  "prepare" (the second output of attsparse_prepare) is taken
## out: [] when not given.
function [opts, prep] = struct_options (opts, fname)
  out = {};
  i = 1;
  while (i <= numel (opts))
    if (isstruct (opts{i}))
      s = opts{i};
      if (! isscalar (s))
        error ("attsparse:badArgument", "%s: a struct of options must be a scalar struct", fname);
      endif
      f = fieldnames (s);
      for j = 1:numel (f)
        out(end+1:end+2) = {f{j}, s.(f{j})};
      endfor
      i += 1;
    else
      last = min (i + 1, numel (opts));
      out = [out, opts(i:last)];
      i = last + 1;
    endif
  endwhile
  opts = out;
  prep = [];
  if (mod (numel (opts), 2) != 0)
    return;   # the gateway says what is wrong with the pairs
  endif
  names = opts(1:2:end);
  at = find (cellfun (@(s) ischar (s) && strcmp (s, "prepare"), names));
  if (numel (at) > 1)
    error ("attsparse:badArgument", "%s: option 'prepare' is given twice", fname);
  endif
  if (! isempty (at))
    prep = opts{2 * at};
    if (! (isstruct (prep) && isscalar (prep) && isfield (prep, "divisor")))
      error ("attsparse:badArgument", ...
             "%s: 'prepare' must be the second output of attsparse_prepare", fname);
    endif
    opts([2*at-1, 2*at]) = [];
  endif
endfunction
