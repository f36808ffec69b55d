## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## pkg_install_check.m: `pkg install` a package tarball into a throwaway prefix, load it and run its functions' tests.

## Returns the number of failures.  prefix is created under
## the current directory; the user's own package lists are not touched.
function nfail = pkg_install_check (tarball, prefix)
  prefix = make_absolute_filename (prefix);
  mkdir (prefix);
  pkg ("prefix", fullfile (prefix, "share"), fullfile (prefix, "lib"));
  pkg ("local_list", fullfile (prefix, "octave_packages"));
  pkg ("global_list", fullfile (prefix, "global_packages"));
  pkg ("install", "-local", tarball);
  pkg ("load", "attsparse");
  where = fileparts (which ("attsparse_rand"));
  assert (strncmp (where, prefix, numel (prefix)), "attsparse_rand found in %s", where);
  mex_file = which ("__attsparse__");
  assert (strncmp (mex_file, prefix, numel (prefix)), "__attsparse__ found at %s", mex_file);
  printf ("installed in %s\n", prefix);

  X = attsparse_example (6, 400, 0.5, 1);
  [Y, err, info] = attsparse_rand (sparse (X), "seed", 1);
  assert (issparse (Y) && isequal (Y, sparse (X(:, info.index)) * diag (info.weight)));
  assert (err, info.error);
  [Y, err, info] = attsparse_det (X);
  assert (isequal (Y, X(:, info.index) .* info.weight'));
  printf ("attsparse_rand and attsparse_det run\n");

  npass = nfail = 0;
  for f = {dir(fullfile (where, "*.m")).name}
    [n, nmax] = test (fullfile (where, f{1}), "quiet", stdout);
    npass += n;
    nfail += nmax - n;
  endfor
  printf ("installed package: %d passed, %d failed\n", npass, nfail);
  pkg ("unload", "attsparse");
endfunction
