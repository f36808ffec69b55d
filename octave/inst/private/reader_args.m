## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## reader_args.m: a block reader's "ncol", "nrow" and "block" taken out of the options (attsparse_rand, leverage_scores, attention_error).

## The reader is wrapped by read_block, which hands the reader's own error to
## the gateway (the core reports it with the columns it was reading); "nrow",
## when not given, is the row count of column 1.  Each of the three at most
## once, as every other option.
function [rd, ncol, nrow, block, rest] = reader_args (reader, opts, caller)
  if (mod (numel (opts), 2) != 0)
    error ("attsparse:badArgument", "%s: options must be name/value pairs", caller);
  endif
  vals = struct ("ncol", [], "nrow", [], "block", []);
  seen = struct ("ncol", false, "nrow", false, "block", false);
  keep = true (size (opts));
  for a = 1:2:numel (opts)
    if (! ischar (opts{a}) || ! any (strcmp (opts{a}, fieldnames (vals))))
      continue;
    endif
    name = opts{a};
    if (seen.(name))
      error ("attsparse:badArgument", "%s: option '%s' is given twice", caller, name);
    endif
    seen.(name) = true;
    vals.(name) = opts{a+1};
    keep(a:a+1) = false;
  endfor
  if (isempty (vals.ncol))
    error ("attsparse:badArgument",
           "%s: a function handle X needs \"ncol\", the number of columns it reads", caller);
  endif
  rd = @(j0, j1) read_block (reader, j0, j1);
  if (isempty (vals.nrow))
    first = rd (1, 1);
    if (isstruct (first))
      error ("attsparse:badInput", "%s: the reader failed on columns 1..1: %s", caller, first.message);
    endif
    ## what the reader returned, rather than a "nrow" the caller did not give (a
    ## wrong column count is the core's to name, with the block it reads)
    if (rows (first) < 1)
      error ("attsparse:badInput", "%s: the reader returned %d x %d for columns 1..1: it must return nrow x 1, nrow >= 1",
             caller, rows (first), columns (first));
    endif
    vals.nrow = rows (first);
  endif
  if (isempty (vals.block))
    vals.block = vals.ncol;   # the core reads at most a canonical chunk at a time
  endif
  [ncol, nrow, block] = deal (vals.ncol, vals.nrow, vals.block);
  rest = opts(keep);
endfunction
