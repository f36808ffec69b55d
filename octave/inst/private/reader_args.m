## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## reader_args.m: a block reader's "ncol", "nrow" and "block" taken out of the options (attsparse_rand, leverage_scores).

function [rd, ncol, nrow, block, rest] = reader_args (reader, opts, caller)
  if (mod (numel (opts), 2) != 0)
    error ("attsparse:badArgument", "%s: options must be name/value pairs", caller);
  endif
  ncol = []; nrow = []; block = [];
  keep = true (size (opts));
  for a = 1:2:numel (opts)
    if (! ischar (opts{a}))
      continue;
    endif
    switch (opts{a})
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
           "%s: a function handle X needs \"ncol\", the number of columns it reads", caller);
  endif
  if (isempty (block))
    block = ncol;   # the gateway reads at most a canonical chunk at a time
  endif
  rd = @(j0, j1) double_input (reader (j0, j1));
  if (isempty (nrow))
    nrow = rows (rd (1, 1));
  endif
  rest = opts(keep);
endfunction
