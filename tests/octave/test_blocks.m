## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_blocks.m: attsparse_rand on columns read through a handle, stopped by Ctrl-C.
## (Same answer as in memory: the %!tests of attsparse_rand.m.)

## Ctrl-C: a run that reads 25 blocks through an Octave handle, in a child
## octave-cli, gets SIGINT once its first pass is done (its progress line; the
## score pass, another 25 blocks, follows: a signal before the call started
## would end the script, as Ctrl-C does outside a try); it must stop within a
## second with attsparse:interrupted, and the session must go on (the next
## statements run).
%!testif ; ! system ("command -v octave-cli >/dev/null")
%! [out, latency] = interrupt_child ({
%!   "X = randn (64, 400000) * 0.02;", "rd = @(a, b) X(:, a:b);", ...
%!   "printf ('ready\\n'); fflush (stdout);", ...
%!   "try", ...
%!   " attsparse_rand (rd, 'ncol', 400000, 'block', 16384, 'm', 2000, 'seed', 1, 'error', false, 'verbose', true);", ...
%!   " disp ('finished');", ...
%!   "catch err", " printf ('%s at %.3f\\n', err.identifier, time ());", "end", ...
%!   "[~, ~, info] = attsparse_rand (X(:, 1:500), 'seed', 1);", ...
%!   "printf ('alive %d\\n', info.k > 0);"}, "Cholesky of the sketch", 0);
%! assert (latency < 1, "stopped %.2f s after Ctrl-C: %s", latency, out);
%! assert (! isempty (strfind (out, "alive 1")), "session not usable after the interrupt: %s", out);

## A reader is held to account: another value for a column in a later pass,
## its own error (the handle's and attsparse_file_reader's), a NaN far from
## the first block, a wrong shape; and reader options given twice.
%!shared X
%! X = attsparse_example (4, 40000, 0.5, 3);
%!error <X: column 30000 read differently in two passes: a reader must return the same X every time>
%! function Z = flaky (X, a, b)
%!   persistent reads = 0;
%!   reads++;
%!   Z = X(:, a:b);
%!   if (a <= 30000 && 30000 <= b)
%!     Z(2, 30000 - a + 1) += reads * 1e-9;
%!   endif
%! endfunction
%! attsparse_rand (@(a, b) flaky (X, a, b), "ncol", 40000, "seed", 1, "error", false);
%!error <X: column [0-9]+ read differently in two passes> attsparse_rand (@(a, b) randn (4, b - a + 1), "ncol", 40000, "nrow", 4, "seed", 1)
%!error <X: column [0-9]+ read differently in two passes> leverage_scores (@(a, b) randn (4, b - a + 1), "approx", "ncol", 40000, "nrow", 4)
%!error <attsparse_rand: the reader failed on columns 1..16384: disk on fire>
%! attsparse_rand (@(a, b) error ("my:id", "disk on fire"), "ncol", 40000, "nrow", 4);
%!error <the reader failed on columns 1..1: disk on fire> attsparse_rand (@(a, b) error ("my:id", "disk on fire"), "ncol", 40000)
%!error <the reader failed on columns 1..16384: attsparse_file_reader: cannot open /nonexistent/x.bin>
%! attsparse_rand (attsparse_file_reader ("/nonexistent/x.bin", 4), "ncol", 40000, "nrow", 4);
%!error <the reader failed on columns 1..16384: disk on fire>
%! attention_error (@(a, b) error ("disk on fire"), ones (4, 2), "ncol", 40000, "nrow", 4);
%!error <it returned a 1x1 cell, not a real matrix> attsparse_rand (@(a, b) {1}, "ncol", 40000, "nrow", 4)
%!test
%! Xn = X;
%! Xn(3, 30000) = NaN;
%! fail ('attsparse_rand (@(a, b) Xn(:, a:b), "ncol", 40000, "seed", 1)', "^attsparse_rand: X: column 30000 holds a NaN or infinite value$");
%! fail ('leverage_scores (@(a, b) Xn(:, a:b), "approx", "ncol", 40000, "block", 7000)', "^leverage_scores: X: column 30000 holds a NaN or infinite value$");
%! fail ('attention_error (@(a, b) Xn(:, a:b), X(:, 1:9), "ncol", 40000)', "^attention_error: X: column 30000 holds a NaN or infinite value$");
%!error <option 'ncol' is given twice> attsparse_rand (@(a, b) X(:, a:b), "ncol", 40000, "ncol", 30000)
%!error <option 'block' is given twice> attsparse_rand (@(a, b) X(:, a:b), "ncol", 40000, "block", 5000, "block", 100)
%!error <option 'nrow' is given twice> leverage_scores (@(a, b) X(:, a:b), "approx", "ncol", 40000, "nrow", 4, "nrow", 4)

## 'memory' is honoured, and an impossible size refused before any read (the
## default cap follows the process's memory limit), with attsparse's ids.
%!error id=attsparse:tooBig attsparse_rand (@(a, b) X(:, a:b), "ncol", 40000, "memory", 1)
%!test
%! function Z = counted (X, a, b)
%!   global attsparse_test_reads
%!   attsparse_test_reads++;
%!   Z = X(:, a:b);
%! endfunction
%! global attsparse_test_reads
%! attsparse_test_reads = 0;
%! try
%!   attsparse_rand (@(a, b) counted (.01 * ones (1, 1e6), a, b), "ncol", 1e6, "nrow", 1, "memory", 1);
%!   error ("not refused");
%! catch err
%!   assert (err.identifier, "attsparse:tooBig");
%!   assert (! isempty (strfind (err.message, "above 'memory' = 1 MiB")), err.message);
%! end_try_catch
%! assert (attsparse_test_reads, 0);
%! clear -global attsparse_test_reads
%!testif ; ! system ("command -v octave-cli >/dev/null")
%! ## the issue's reproducer: 5e8 columns under a 3 GB address-space limit, refused at once
%! dir = fileparts (which ("attsparse_rand"));
%! cmd = sprintf (["ulimit -v 3000000; OCTAVE_HISTFILE=/dev/null octave-cli --norc --quiet --path '%s' --eval '" ...
%!                 "try, attsparse_rand (@(a, b) .01 * ones (1, b - a + 1), \"ncol\", 5e8, \"nrow\", 1, \"m\", 50, " ...
%!                 "\"error\", false); disp (\"ran\"); catch e, disp (e.identifier); disp (e.message); end' 2>&1"], dir);
%! tic;
%! [~, out] = system (cmd);
%! assert (toc < 60);
%! assert (! isempty (strfind (out, "attsparse:tooBig")) && ! isempty (strfind (out, "'memory'")), out);

## No wider than the sketch: read whole, the in-memory call's result, target
## mode too; error false with spectral true as in memory; leverage scores and
## attention_error through the same run.
%!test
%! Xs = X(:, 1:12);
%! for args = {{"rel", 0.3}, {"m", 30, "error", false, "spectral", true}}
%!   [Y0, e0, i0] = attsparse_rand (Xs, "seed", 3, args{1}{:});
%!   [Y1, e1, i1] = attsparse_rand (@(a, b) Xs(:, a:b), "ncol", 12, "seed", 3, args{1}{:});
%!   assert (isequal (Y1, Y0) && isequal (i1.index, i0.index) && isequal (i1.weight, i0.weight));
%!   assert (isequaln ([e1, i1.rel_error, i1.eps_spectral, i1.rel_estimate], [e0, i0.rel_error, i0.eps_spectral, i0.rel_estimate]));
%!   assert (i1.reads, 1);
%! endfor
%!test
%! [~, ~, i0] = attsparse_rand (X, "seed", 2, "m", 200, "error", false, "spectral", true);
%! [~, e1, i1] = attsparse_rand (@(a, b) X(:, a:b), "ncol", 40000, "seed", 2, "m", 200, "error", false, "spectral", true);
%! assert (isequal (i1.index, i0.index) && isequal (i1.weight, i0.weight));
%! assert (isnan (e1) && isnan (i1.rel_error));
%! assert (i1.eps_spectral, i0.eps_spectral, -1e-10);
%! assert ([i1.chunk, i1.blocks, i1.reads], [16384, 3, 3]);
%!test
%! e0 = attention_error (X, X(:, 1:300), "spectral", true);
%! e1 = attention_error (@(a, b) X(:, a:b), X(:, 1:300), "ncol", 40000, "spectral", true);
%! assert ([e1.inf, e1.rel, e1.baseline, e1.r, e1.eps_spectral], [e0.inf, e0.rel, e0.baseline, e0.r, e0.eps_spectral], -1e-10);

## Target mode through a handle: the in-memory index, weight, rounds and
## estimate bit for bit, in at most 4 reads of X (sketch, scores, the
## pilots' columns, a round's), for any block width.
%!test
%! X = attsparse_example (12, 40000, 0.5, 4);
%! [Y0, ~, i0] = attsparse_rand (X, "rel", 0.05, "seed", 3, "error", false);
%! for blk = [16384, 40000]
%!   [Y1, ~, i1] = attsparse_rand (@(a, b) X(:, a:b), "ncol", 40000, "block", blk, "rel", 0.05, "seed", 3, "error", false);
%!   assert (isequal (i1.index, i0.index) && isequal (i1.weight, i0.weight) && isequal (Y1, Y0));
%!   assert (isequal ([i1.rel_estimate, i1.inf_estimate, i1.rounds, i1.m], [i0.rel_estimate, i0.inf_estimate, i0.rounds, i0.m]));
%!   assert (i1.estimate, "gaussian");
%!   assert (i1.reads <= 4 && i1.rel_estimate <= 0.05);
%! endfor
