## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## spec_options.m: the name=value words of a demo-spec.dcf field as a name/value cell, for attsparse_demo.

## name=value words as a name/value cell: numbers, true/false as logicals, else strings.
function opts = spec_options (words)
  opts = {};
  if (isempty (words))
    return;
  endif
  for w = strsplit (strtrim (words))
    i = find (w{1} == "=", 1);
    v = w{1}(i+1:end);
    if (any (strcmp (v, {"true", "false"})))
      v = strcmp (v, "true");
    elseif (! isnan (str2double (v)))
      v = str2double (v);
    endif
    opts(end+1:end+2) = {w{1}(1:i-1), v};
  endfor
endfunction
