## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## read_block.m: one call of a block reader for the gateway: its columns as doubles, or its own error as a struct holding the message.

function X = read_block (reader, j0, j1)
  try
    X = double_input (reader (j0, j1));
  catch err
    X = struct ("message", err.message);
  end_try_catch
endfunction
