## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attsparse_print.m: a compact display of a result's info (a few lines whatever its size), as R's print.

## -*- texinfo -*-
## @deftypefn  {} {} attsparse_print (@var{info})
## @deftypefnx {} {@var{s} =} attsparse_print (@var{info})
## A few lines on a result: the method and its aim, the columns kept, the
## errors against the uniform baseline, the time.
##
## @var{info} is the third output of @code{attsparse_rand},
## @code{attsparse_det} or @code{attsparse_greedy}.  @code{disp (@var{info})}
## lists every field, @var{index} and @var{weight} in full; this shows
## scalars only, in at most six lines.  With an output, the text is returned
## instead of printed.
## @seealso{attsparse_rand, attsparse_det, attsparse_greedy, attsparse_apply}
## @end deftypefn

function s = attsparse_print (info)
  if (nargin != 1)
    print_usage ();
  endif
  check_info (info, "attsparse_print");
  f = @(name) getfield_or_nan (info, name);
  method = info.method;
  switch (method)
    case "randomized"
      sampling = "iid";
      if (isfield (info, "sampling") && ! isempty (info.sampling))
        sampling = info.sampling;
      endif
      what = sprintf ("randomized, %s probabilities, %s sampling", info.probabilities, sampling);
      mname = "draws m";
    case "deterministic"
      what = "deterministic (BSS)";
      mname = "iterations";
    case "greedy"
      if (! isnan (f ("rel_target")))
        met = "NOT met";
        if (f ("rel_error") <= f ("rel_target"))
          met = "met";
        endif
        what = sprintf ("greedy, target rel %s %s", pct (f ("rel_target")), met);
      else
        what = sprintf ("greedy, budget k <= %d columns", f ("max_columns"));
      endif
      mname = "rounds";
    otherwise
      what = method;
      mname = "m";
  endswitch
  lines = {sprintf("<attsparse: %s>", what), ...
           sprintf("  %d columns kept (%s = %g)", numel (info.index), mname, f ("m"))};
  if (isnan (f ("rel_error")))
    lines{end+1} = "  error not computed (error = false)";
  else
    lines{end+1} = sprintf ("  rel error %s (uniform baseline %s), inf error %.3g, spectral eps %.3g", ...
                            pct (f ("rel_error")), pct (f ("baseline")), f ("error"), f ("eps_spectral"));
  endif
  if (! isnan (f ("rel_estimate")))
    lines{end+1} = sprintf ("  estimated rel error %s (without X X')", pct (f ("rel_estimate")));
  endif
  if (isfield (info, "prepare") && ! isempty (info.prepare))
    c = "";
    if (! isempty (info.prepare.center))
      c = "centred, ";
    endif
    lines{end+1} = sprintf ("  prepared: %sscale %.3g", c, info.prepare.scale);
  endif
  t = sprintf ("  time %.3g s", f ("time"));
  if (! isnan (f ("error_time")))
    t = sprintf ("%s (error evaluation %.3g s)", t, f ("error_time"));
  endif
  lines{end+1} = t;
  text = sprintf ("%s\n", lines{:});
  if (nargout > 0)
    s = text;
  else
    printf ("%s", text);
  endif
endfunction

function v = getfield_or_nan (info, name)
  v = NaN;
  if (isfield (info, name) && ! isempty (info.(name)))
    v = double (info.(name)(1));
  endif
endfunction

function s = pct (x)
  if (isnan (x))
    s = "NaN";
  else
    s = sprintf ("%.3g%%", 100 * x);
  endif
endfunction

%!test
%! X = attsparse_example (10, 400, 0.5, 3);
%! [~, ~, info] = attsparse_greedy (X, "rel", 0.05);
%! s = attsparse_print (info);
%! lines = strsplit (strtrim (s), "\n");
%! assert (numel (lines) <= 6);
%! assert (all (cellfun (@numel, lines) <= 100));
%! assert (! isempty (strfind (s, sprintf ("%d columns kept", info.k))));
%! assert (! isempty (strfind (s, "target rel 5% met")));
%! [~, ~, r] = attsparse_rand (X, "seed", 1);
%! s = attsparse_print (r);
%! assert (! isempty (strfind (s, "randomized, leverage probabilities")));
%! assert (numel (strsplit (strtrim (s), "\n")) <= 6);

%!error <INFO must be the third output> attsparse_print (struct ("a", 1))
