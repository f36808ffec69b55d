## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## print_rows.m: print a table of attsparse_demo, a heading and a line per row.

## Prints the rows under a heading, a line each: the fields but input in the C
## formats FMT (headed HEADS), those with "%%" in percent, a missing value "-".
function print_rows (t, heads, fmt)
  names = fieldnames (t);
  names(strcmp (names, "input")) = [];
  for i = 0:numel (t)
    cells = cell (1, numel (fmt));
    for c = 1:numel (fmt)
      s = sprintf (fmt{c}, merge (fmt{c}(end) == "s", "", 1));
      pad = sprintf ("%%%s%ds", merge (fmt{c}(2) == "-", "-", ""), numel (s));
      if (i == 0)
        cells{c} = sprintf (pad, heads{c});
      elseif (isnumeric (v = t(i).(names{c})) && isnan (v))
        cells{c} = sprintf (pad, "-");
      elseif (any (strfind (fmt{c}, "%%")))
        cells{c} = sprintf (fmt{c}, 100 * v);
      else
        cells{c} = sprintf (fmt{c}, v);
      endif
    endfor
    printf ("%s\n", strjoin (cells, " "));
  endfor
endfunction
