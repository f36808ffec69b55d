## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_file_reader.m: a block reader over a binary file of doubles stored column by column, for attsparse_rand.

## -*- texinfo -*-
## @deftypefn {} {@var{reader} =} attsparse_file_reader (@var{file}, @var{nrow})
## A function handle @code{@var{reader} (@var{j0}, @var{j1})} that returns
## columns @var{j0}..@var{j1} of the @var{nrow}-by-@var{d} matrix stored in
## @var{file} as raw doubles in column-major order (what
## @code{fwrite (fid, X, "double")} writes), read with @code{fseek} and
## @code{fread}: only those columns are read.  Pass it to
## @code{attsparse_rand} with @qcode{"ncol"}, @var{d}, to sample a matrix that
## does not fit in memory:
##
## @example
## @group
## fid = fopen ("X.bin", "w"); fwrite (fid, X, "double"); fclose (fid);
## [Y, err, info] = attsparse_rand (attsparse_file_reader ("X.bin", rows (X)), ...
##                                  "ncol", columns (X), "sampling", "poisson", "seed", 1);
## @end group
## @end example
##
## The source is this file: a reader for another format (HDF5 with
## @code{h5read}, a database, a sparse matrix in pieces) is any handle with the
## same calling convention, returning a full or a sparse double matrix.
## @seealso{attsparse_rand}
## @end deftypefn

function reader = attsparse_file_reader (file, nrow)
  if (nargin != 2 || ! ischar (file) || ! isscalar (nrow) || nrow < 1 || nrow != round (nrow))
    print_usage ();
  endif
  reader = @(j0, j1) read_columns (file, nrow, j0, j1);
endfunction

function X = read_columns (file, nrow, j0, j1)
  [fid, msg] = fopen (file, "r");
  if (fid < 0)
    error ("attsparse:badInput", "attsparse_file_reader: cannot open %s: %s", file, msg);
  endif
  unwind_protect
    if (fseek (fid, (j0 - 1) * nrow * 8, SEEK_SET) != 0)
      error ("attsparse:badInput", "attsparse_file_reader: %s has no column %d", file, j0);
    endif
    [X, count] = fread (fid, [nrow, j1 - j0 + 1], "double");
    if (count != nrow * (j1 - j0 + 1))
      error ("attsparse:badInput", "attsparse_file_reader: %s ends before column %d", file, j1);
    endif
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
endfunction

%!test
%! X = reshape (1:24, 4, 6);
%! f = tempname ();
%! fid = fopen (f, "w"); fwrite (fid, X, "double"); fclose (fid);
%! unwind_protect
%!   rd = attsparse_file_reader (f, 4);
%!   assert (rd (2, 4), X(:, 2:4));
%!   assert (rd (6, 6), X(:, 6));
%!   fail ("rd (6, 7)", "ends before column 7");
%! unwind_protect_cleanup
%!   unlink (f);
%! end_unwind_protect
%!error <Invalid call> attsparse_file_reader ("x.bin", 0)
