## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## rand_blocks.m: attsparse_rand on a block reader: takes "ncol", "nrow" and "block" out of the options and calls the gateway's block passes.

function [Y, err, info] = rand_blocks (reader, opts)
  if (mod (numel (opts), 2) != 0)
    error ("attsparse:badArgument", "attsparse_rand: options must be name/value pairs");
  endif
  ncol = []; nrow = []; block = [];
  keep = true (size (opts));
  for a = 1:2:numel (opts)
    if (! ischar (opts{a}))
      continue;
    endif
    switch (lower (opts{a}))
      case "ncol"
        ncol = opts{a+1}; keep(a:a+1) = false;
      case "nrow"
        nrow = opts{a+1}; keep(a:a+1) = false;
      case "block"
        block = opts{a+1}; keep(a:a+1) = false;
    endswitch
  endfor
  if (isempty (ncol))
    error ("attsparse:badArgument",
           "attsparse_rand: a function handle X needs \"ncol\", the number of columns it reads");
  endif
  if (isempty (block))
    block = ncol;   # the gateway reads at most a canonical chunk at a time
  endif
  rd = @(j0, j1) double_input (reader (j0, j1));
  if (isempty (nrow))
    nrow = rows (rd (1, 1));
  endif
  [Y, err, info] = __attsparse__ ("rand_blocks", rd, ncol, nrow, block, opts{keep});
endfunction
