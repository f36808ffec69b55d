## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## interrupt_child.m: Ctrl-C for a long call, as a user would send it.
##
## [out, latency] = interrupt_child (lines, ready, delay)
## Runs the script LINES (a cell of Octave statements) in a child octave-cli
## with the attsparse functions on its path.  Once its output shows READY (a
## regular expression for grep), and DELAY more seconds, the child gets SIGINT.
## The script must print "<identifier> at <time ()>" from its catch block.
## Returns the child's output and the seconds from the signal to that time ()
## (Inf when no "attsparse:interrupted at" line appeared).
function [out, latency] = interrupt_child (lines, ready, delay)
  dir = fileparts (which ("attsparse_rand"));
  base = tempname ();
  fid = fopen ([base ".m"], "w");
  ## a child Octave that dies of the signal writes no octave-workspace (into the tree, under make check)
  fprintf (fid, "%s\n", "crash_dumps_octave_core (false);", lines{:});
  fclose (fid);
  cmd = sprintf (["cd '%s' || exit 1; OCTAVE_HISTFILE=/dev/null octave-cli --norc --quiet --path '%s' '%s.m' > '%s.out' 2>&1 & pid=$!; ", ...
                  "until grep -q '%s' '%s.out' 2>/dev/null || ! kill -0 $pid 2>/dev/null; do sleep 0.02; done; sleep %g; ", ...
                  "date +%%s.%%N > '%s.sent'; kill -INT $pid; wait $pid"], tempdir (), dir, base, base, ready, base, delay, base);
  system (cmd);
  out = fileread ([base ".out"]);
  sent = str2double (fileread ([base ".sent"]));
  cellfun (@unlink, strcat (base, {".m", ".out", ".sent"}));
  tok = regexp (out, 'attsparse:interrupted at (\S+)', "tokens", "once");
  latency = Inf;
  if (! isempty (tok))
    latency = str2double (tok{1}) - sent;
  endif
endfunction
