## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo_options.m: the options of attsparse_demo, checked: OPT holds their defaults, ARGS the name/value pairs given.

function opt = demo_options (opt, outdir, args)
  if (! ischar (outdir) || ! (isrow (outdir) || isempty (outdir)))
    error ("attsparse:badArgument", "attsparse_demo: OUTDIR must be a directory name");
  elseif (mod (numel (args), 2) || ! iscellstr (args(1:2:end)))
    error ("attsparse:badArgument", "attsparse_demo: options must be name/value pairs");
  endif
  for k = 1:2:numel (args)
    [name, v] = deal (lower (args{k}), args{k+1});
    if (! isfield (opt, name))
      error ("attsparse:badArgument", "attsparse_demo: unknown option '%s'", args{k});
    elseif (any (strcmp (name, {"quick", "plots"})) && ! (isscalar (v) && (islogical (v) || isnumeric (v)) && ! isnan (v)))
      error ("attsparse:badArgument", "attsparse_demo: '%s' must be true or false", name);
    elseif (strcmp (name, "data") && ! (ischar (v) && isfolder (v)))
      error ("attsparse:badArgument", "attsparse_demo: 'data' must be the name of a directory");
    elseif (strcmp (name, "inputs") && ! (isstruct (v) && isscalar (v) && all (cellfun (@(x) isnumeric (x) && isreal (x) && ismatrix (x), struct2cell (v)))))
      error ("attsparse:badArgument", "attsparse_demo: 'inputs' must be a scalar struct of real matrices");
    elseif (strcmp (name, "tables") && ! (iscellstr (v) && all (ismember (v, opt.tables))))
      error ("attsparse:badArgument", "attsparse_demo: 'tables' must be a cell array of some of 'methods', 'targets', 'qkv'");
    endif
    opt.(name) = v;
  endfor
endfunction
