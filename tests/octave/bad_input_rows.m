## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## bad_input_rows.m: the Octave rows of docs/bad-input.md, for test_badinput.m.

## rows = bad_input_rows (doc): one row {id, input, call, gets, expect} per executable
## Octave row of the markdown table in DOC (pipes escaped as \| inside cells).
function rows = bad_input_rows (doc)
  rows = {};
  for line = strsplit (fileread (doc), "\n")
    l = line{1};
    if (isempty (regexp (l, '^\| O\d+ \|', "once")))
      continue;
    endif
    f = strtrim (regexp (l, '(?<!\\)\|', "split"));
    f = regexprep (f, '\\\|', '|');
    f = regexprep (f, '^`(.*)`$', '$1');
    if (strncmp (f{5}, "see ", 4))   # the interrupt rows: their own tests (test_det.m, test_rand.m)
      continue;
    endif
    rows(end+1, :) = {f{2}, f{4}, f{5}, f{6}, f{7}};
  endfor
endfunction

