## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## rand_blocks.m: attsparse_rand on a block reader: takes "ncol", "nrow" and "block" out of the options and calls the gateway's block passes.

function [Y, err, info] = rand_blocks (reader, opts)
  [rd, ncol, nrow, block, rest] = reader_args (reader, opts, "attsparse_rand");
  [Y, err, info] = __attsparse__ ("rand_blocks", rd, ncol, nrow, block, rest{:});
endfunction
