## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## demo_spec.m: read the demo's definition (demo-spec.dcf, shared with the R package) for attsparse_demo.

## spec = demo_spec (file): the records of FILE (Debian control format, as
## R's read.dcf reads it once the lines starting with '#' are dropped), grouped
## by kind: spec.methods, spec.searches, spec.inputs (cell arrays of structs, in
## file order), spec.table and spec.plots (structs of structs by table and plot
## name) and spec.columns (a struct by table, In-table or "methods", of cell
## arrays of the column records in file order).
## Field names have '-' replaced by '_'; continuation lines are joined with
## newlines, as read.dcf joins them.
function spec = demo_spec (file)
  [fid, msg] = fopen (file, "r");
  if (fid < 0)
    error ("attsparse:badInput", "attsparse_demo: cannot open the demo's definition %s: %s", file, msg);
  endif
  txt = fread (fid, Inf, "*char")';
  fclose (fid);
  recs = {};
  cur = struct ();
  key = "";
  for line = [strsplit(txt, "\n", "collapsedelimiters", false), {""}]
    l = deblank (line{1});
    if (! isempty (l) && l(1) == "#")
      continue;
    elseif (isempty (l))
      if (! isempty (fieldnames (cur)))
        recs{end+1} = cur;
      endif
      cur = struct ();
      key = "";
    elseif (any (l(1) == " \t"))
      if (isempty (key))
        error ("attsparse:badInput", "%s: a continuation line without a field: '%s'", file, l);
      endif
      cur.(key) = [cur.(key), "\n", strtrim(l)];
    else
      tok = regexp (l, '^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$', "tokens", "once");
      if (isempty (tok))
        error ("attsparse:badInput", "%s: malformed line '%s'", file, l);
      endif
      key = strrep (tok{1}, "-", "_");
      cur.(key) = tok{2};
    endif
  endfor
  kinds = {"Table", "table"; "Column", "columns"; "Method", "methods"; "Search", "searches"; "Input", "inputs";
           "Plot", "plots"};
  spec = struct ("table", struct (), "columns", struct (), "methods", {{}}, "searches", {{}}, "inputs", {{}},
                 "plots", struct ());
  for k = 1:numel (recs)
    r = recs{k};
    i = find (isfield (r, kinds(:, 1)), 1);
    if (isempty (i))
      error ("attsparse:badInput", "%s: record %d has none of the fields %s", file, k, strjoin (kinds(:, 1)', ", "));
    elseif (strcmp (kinds{i, 2}, "plots"))
      spec.plots.(r.Plot) = r;
    elseif (strcmp (kinds{i, 2}, "table"))
      spec.table.(r.Table) = r;
    elseif (strcmp (kinds{i, 2}, "columns"))
      t = "methods";
      if (isfield (r, "In_table"))
        t = r.In_table;
      endif
      if (! isfield (spec.columns, t))
        spec.columns.(t) = {};
      endif
      spec.columns.(t){end+1} = r;
    else
      spec.(kinds{i, 2}){end+1} = r;
    endif
  endfor
endfunction
