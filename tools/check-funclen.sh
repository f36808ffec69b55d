#!/bin/sh
# check-funclen.sh: no function body in the core longer than FUNCLEN_MAX lines (150 unless set), counted
# from the line with the body's opening brace to the line with its closing brace, both included. The core's
# style makes a body easy to find without a parser: its opening brace alone on a line at column 0 (or at the
# end of a column-0 line that has a parameter list and no '='), its closing brace at column 0; the name is
# the last identifier before '(' on the last column-0 line with a '(' before the body.
# Usage: tools/check-funclen.sh core/*.c   (last line: "core function length: N passed, M failed")
set -eu
[ $# -gt 0 ] || { echo "usage: $0 FILE.c..." >&2; exit 2; }
max=${FUNCLEN_MAX:-150}
awk -v max="$max" '
# s without its __attribute__((...)) parts
function no_attr(s,   p, i, d, ch) {
  while ((p = index(s, "__attribute__")) > 0) {
    for (i = p + 13; substr(s, i, 1) ~ /[ \t]/; i++) ;
    for (d = 0; i <= length(s); i++) {
      ch = substr(s, i, 1)
      if (ch == "(") d++
      else if (ch == ")" && --d == 0) { i++; break }
    }
    s = substr(s, 1, p - 1) substr(s, i)
  }
  return s
}
FNR == 1 { open = 0; name = "" }
# the declaration line that names the function (parameters may go on over indented lines)
!open && /^[A-Za-z_]/ && index(no_attr($0), "(") { s = no_attr($0); s = substr(s, 1, index(s, "(") - 1)
  sub(/[^A-Za-z0-9_]+$/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/); name = w[n] }
!open && (/^\{[ \t]*$/ || (/^[A-Za-z_].*\([^=]*\{[ \t]*$/ && !/=/)) { open = 1; from = FNR; fname = name }
open && /^\}/ {
  open = 0; len = FNR - from + 1; nfun++
  if (len > longest) { longest = len; where = fname " (" FILENAME ":" from ")" }
  if (len > max) { nbad++; printf "  %s:%d: %s, %d lines\n", FILENAME, from, fname, len }
}
END {
  printf "core function length: %d functions in %d files, the longest %s with %d lines, the limit %d\n",
    nfun, ARGC - 1, where, longest, max
  if (nbad > 0) { printf "core function length: %d over the limit (listed above)\n", nbad
    print "core function length: 0 passed, 1 failed"; exit 1 }
  print "core function length: 1 passed, 0 failed"
}' "$@"
