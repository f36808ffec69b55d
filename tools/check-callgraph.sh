#!/usr/bin/env bash
# check-callgraph.sh: the core's files must call each other without a circle. From the objects' symbol
# tables (nm): file A -> file B when A calls a function (or reads a variable) that B defines; tsort finds loops.
# Usage: tools/check-callgraph.sh build/core/*.o   (last line: "core call graph: N passed, M failed")
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 OBJECT..." >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for o in "$@"; do
  nm --defined-only "$o" | awk -v f="$(basename "$o" .o)" '$2 ~ /^[TDBR]$/ { print $3, f }'
done | sort -u >"$tmp/defs"
# "A B symbol" per call from one file into another
for o in "$@"; do
  nm --undefined-only "$o" | awk '{ print $2 }' | sort -u | join - "$tmp/defs" |
    awk -v f="$(basename "$o" .o)" '$2 != f { print f, $2, $1 }'
done >"$tmp/calls"
# every file is a node, even one that calls no other
{ for o in "$@"; do f=$(basename "$o" .o); echo "$f $f"; done; awk '{ print $1, $2 }' "$tmp/calls"; } |
  sort -u >"$tmp/edges"
if tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
  echo "core call graph: $# files, $(awk '$1 != $2' "$tmp/edges" | wc -l) file-to-file calls, no circle"
  echo "core call graph: 1 passed, 0 failed"
  exit 0
fi
echo "core call graph: a circle of calls between the core's files; the calls between its files:"
grep -v 'input contains a loop' "$tmp/loops" | sed 's/^tsort: //' | sort -u >"$tmp/inloop"
awk 'NR == FNR { in_loop[$1] = 1; next } in_loop[$1] && in_loop[$2] { print "  " $1 ".c -> " $2 ".c: " $3 }' \
  "$tmp/inloop" "$tmp/calls"
echo "core call graph: 0 passed, 1 failed"
exit 1
