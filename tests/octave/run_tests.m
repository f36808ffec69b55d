## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## run_tests.m: runs the %!test blocks of every inst/*.m and every tests/octave/test_*.m; prints the failures once more at the end, then "octave: N passed, M failed".

## Returns the number of failures.  The functions of inst_dir
## are tested by name, i.e. the copies found on the path (build/octave); the
## test scripts find their helpers (direct_attention.m, ...) on the path too.
function nfail = run_tests (inst_dir, test_dir)
  inst = dir (fullfile (inst_dir, "*.m"));
  scripts = dir (fullfile (test_dir, "test_*.m"));
  targets = [regexprep({inst.name}, '\.m$', ''), ...
             fullfile(test_dir, {scripts.name})];
  npass = nfail = nskip = 0;
  failed = {};
  t0 = tic ();
  for t = 1:numel (targets)
    t1 = tic ();
    logf = [tempname() ".log"];
    fid = fopen (logf, "w");
    try
      [n, nmax, nxfail, nbug, nsk, nrtsk] = test (targets{t}, "quiet", fid);
      bad = nmax - n - nxfail - nbug;
    catch err
      fprintf (fid, "%s: %s\n", targets{t}, err.message);
      [n, bad, nsk, nrtsk] = deal (0, 1, 0, 0);
    end_try_catch
    fclose (fid);
    out = fileread (logf);
    unlink (logf);
    printf ("%s", out);
    printf ("%-40s %3d passed, %d failed%s (%.1f s)\n", targets{t}, n, bad, ...
            skipped (nsk + nrtsk), toc (t1));
    if (bad > 0)
      failed(end+1, :) = {targets{t}, failures(out)};
    endif
    npass += n;
    nfail += bad;
    nskip += nsk + nrtsk;
  endfor
  printf ("%d test files in %.0f s%s\n", numel (targets), toc (t0), skipped (nskip));
  ## the failures once more, last, where a log's tail shows them
  for t = 1:rows (failed)
    printf ("---- failed in %s:\n%s", failed{t, :});
  endfor
  printf ("octave: %d passed, %d failed\n", npass, nfail);
endfunction

## The blocks of a test log that report a failure: from the "*****" line of the
## test to its "!!!!!" message.
function s = failures (log)
  blocks = regexp (log, '\*{5} (?:(?!\*{5} ).)*?!{5} [^\n]*\n(?:(?!\*{5} |>{5} )[^\n]*\n)*', "match");
  s = [blocks{:}];
  if (isempty (s))
    s = log;
  endif
endfunction

function s = skipped (n)
  s = "";
  if (n > 0)
    s = sprintf (", %d skipped", n);
  endif
endfunction
