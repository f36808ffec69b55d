## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## test_badinput.m: every Octave row of docs/bad-input.md: the call fails with the identifier and message shown, or succeeds and passes its check.

%!test
%! doc = fullfile (fileparts (which ("run_tests")), "..", "..", "docs", "bad-input.md");
%! rows = bad_input_rows (doc);
%! assert (rows(1, 1), {"O01"});
%! assert (rows(1, 4), {"attsparse:badInput"});
%! assert (rows(5, 3), {"sym_attention ([Inf 1])"});

%!test
%! doc = fullfile (fileparts (which ("run_tests")), "..", "..", "docs", "bad-input.md");
%! rows = bad_input_rows (doc);
%! lev = strcmp (rows(:, 3), 'attsparse_rand (X, "probabilities", "lev")');
%! assert (rows(lev, 5), {"'probabilities' must be one of leverage|uniform|norm|mixed|auto, got \"lev\""});
%! assert (size (rows, 1) >= 30);
%! X = attsparse_example (4, 50, 1, 20);
%! for r = 1:size (rows, 1)
%!   [id, input, call, gets, expect] = rows{r, :};
%!   label = sprintf ("%s (%s): %s", id, input, call);
%!   if (strcmp (gets, "value"))
%!     res = eval (call);
%!     assert (isequal (eval (expect), true), "%s: %s", label, expect);
%!     continue;
%!   endif
%!   try
%!     eval ([call ";"]);
%!     error ("test:noError", "%s raised no error", label);
%!   catch err
%!     assert (strcmp (err.identifier, gets), "%s: %s: %s", label, err.identifier, err.message);
%!     assert (! isempty (strfind (err.message, expect)), "%s: message '%s' lacks '%s'", label, err.message, expect);
%!     fname = strtok (call, " (");
%!     if (strncmp (gets, "attsparse:", 10))
%!       assert (strncmp (err.message, [fname ": "], numel (fname) + 2), "%s: message '%s'", label, err.message);
%!     endif
%!   end_try_catch
%! endfor
%! ## after all those errors the session still computes the right thing
%! [Y, ~, info] = attsparse_rand (X, "seed", 1);
%! assert (Y, X(:, info.index) .* info.weight', 1e-15);
