## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## read_x_txt.m: read a matrix in the X format shared with R (tests/fixtures/README.md, inst/scripts/export-data.R).

## First line "n d nnz issparse", then nnz lines "i j x" (1-based); dense
## inputs list every entry.  Returns a sparse matrix when issparse is 1.
function X = read_x_txt (file)
  [fid, msg] = fopen (file, "r");
  if (fid < 0)
    error ("attsparse:badInput", "cannot open %s: %s", file, msg);
  endif
  unwind_protect
    hdr = fscanf (fid, "%f", 4);
    T = fscanf (fid, "%f", [3, Inf]);
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
  if (numel (hdr) != 4)
    error ("attsparse:badInput", "%s: the first line must be 'n d nnz issparse'", file);
  elseif (columns (T) != hdr(3))
    error ("attsparse:badInput", "%s: %d entries, header says %d", file, columns (T), hdr(3));
  endif
  X = sparse (T(1, :), T(2, :), T(3, :), hdr(1), hdr(2));
  if (! hdr(4))
    X = full (X);
  endif
endfunction
