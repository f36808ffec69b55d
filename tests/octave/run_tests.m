## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## run_tests.m: runs the %!test blocks of every inst/*.m and every tests/octave/test_*.m; prints "octave: N passed, M failed".

## Returns the number of failures.  The functions of inst_dir
## are tested by name, i.e. the copies found on the path (build/octave); the
## test scripts find their helpers (direct_attention.m, ...) on the path too.
function nfail = run_tests (inst_dir, test_dir)
  inst = dir (fullfile (inst_dir, "*.m"));
  scripts = dir (fullfile (test_dir, "test_*.m"));
  targets = [regexprep({inst.name}, '\.m$', ''), ...
             fullfile(test_dir, {scripts.name})];
  npass = nfail = nskip = 0;
  t0 = tic ();
  for t = 1:numel (targets)
    t1 = tic ();
    try
      [n, nmax, nxfail, nbug, nsk, nrtsk] = test (targets{t}, "quiet", stdout);
      bad = nmax - n - nxfail - nbug;
    catch err
      printf ("%s: %s\n", targets{t}, err.message);
      [n, bad, nsk, nrtsk] = deal (0, 1, 0, 0);
    end_try_catch
    printf ("%-40s %3d passed, %d failed%s (%.1f s)\n", targets{t}, n, bad, ...
            skipped (nsk + nrtsk), toc (t1));
    npass += n;
    nfail += bad;
    nskip += nsk + nrtsk;
  endfor
  printf ("%d test files in %.0f s%s\n", numel (targets), toc (t0), skipped (nskip));
  printf ("octave: %d passed, %d failed\n", npass, nfail);
endfunction

function s = skipped (n)
  s = "";
  if (n > 0)
    s = sprintf (", %d skipped", n);
  endif
endfunction
