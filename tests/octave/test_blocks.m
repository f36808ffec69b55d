## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_blocks.m: attsparse_rand on columns read through a handle, stopped by Ctrl-C.
## (Same answer as in memory: the %!tests of attsparse_rand.m.)

## Ctrl-C: a run that reads 25 blocks through an Octave handle, in a child
## octave-cli, gets SIGINT while it reads; it must stop within a second with
## attsparse:interrupted, and the session must go on (the next statements run).
%!testif ; ! system ("command -v octave-cli >/dev/null")
%! dir = fileparts (which ("attsparse_rand"));
%! base = tempname ();
%! fid = fopen ([base ".m"], "w");
%! fprintf (fid, "X = randn (64, 400000) * 0.02;\nrd = @(a, b) X(:, a:b);\n");
%! fprintf (fid, "printf ('ready\\n'); fflush (stdout);\n");
%! fprintf (fid, "try\n attsparse_rand (rd, 'ncol', 400000, 'block', 16384, 'm', 2000, 'seed', 1, 'error', false);\n");
%! fprintf (fid, " disp ('finished');\ncatch err\n printf ('%%s at %%.3f\\n', err.identifier, time ());\nend\n");
%! fprintf (fid, "[~, ~, info] = attsparse_rand (X(:, 1:500), 'seed', 1);\n");
%! fprintf (fid, "printf ('alive %%d\\n', info.k > 0);\n");
%! fclose (fid);
%! cmd = sprintf (["OCTAVE_HISTFILE=/dev/null octave-cli --norc --quiet --path '%s' '%s.m' > '%s.out' 2>&1 & pid=$!; ", ...
%!                 "until grep -q 'ready' '%s.out' 2>/dev/null || ! kill -0 $pid 2>/dev/null; do sleep 0.02; done; sleep 1; ", ...
%!                 "date +%%s.%%N > '%s.sent'; kill -INT $pid; wait $pid"], dir, base, base, base, base);
%! system (cmd);
%! out = fileread ([base ".out"]);
%! sent = str2double (fileread ([base ".sent"]));
%! cellfun (@unlink, strcat (base, {".m", ".out", ".sent"}));
%! tok = regexp (out, 'attsparse:interrupted at (\S+)', "tokens", "once");
%! assert (! isempty (tok), "no interrupt: %s", out);
%! latency = str2double (tok{1}) - sent;
%! assert (latency < 1, "stopped %.2f s after Ctrl-C", latency);
%! assert (! isempty (strfind (out, "alive 1")), "session not usable after the interrupt: %s", out);
