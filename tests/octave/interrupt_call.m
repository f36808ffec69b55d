## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## interrupt_call.m: Ctrl-C for one call in a child octave-cli, DELAY seconds after it starts.
##
## interrupt_call (setup, call, delay, what)
## Runs the statement SETUP, then CALL (a statement, as text) in a child
## (interrupt_child.m), which gets SIGINT DELAY seconds after CALL starts.
## CALL must stop with attsparse:interrupted within a second and the session
## must go on; prints the latency, naming the call WHAT.
function interrupt_call (setup, call, delay, what)
  [out, latency] = interrupt_child ({setup, "disp ('ready'); fflush (stdout);", ...
                                     "try", [" " call ";"], " disp ('finished');", ...
                                     "catch err", " printf ('%s at %.3f\\n', err.identifier, time ());", "end", ...
                                     "printf ('alive %d\\n', numel (attsparse_example (3, 10)) > 0);"}, ...
                                    "^ready", delay);
  assert (latency < 1, "%s: stopped %.2f s after Ctrl-C: %s", what, latency, out);
  printf ("%s stopped %.3f s after Ctrl-C\n", what, latency);
  assert (! isempty (strfind (out, "alive 1")), "session not usable after the interrupt: %s", out);
endfunction
