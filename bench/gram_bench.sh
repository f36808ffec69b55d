#!/usr/bin/env bash
# gram_bench.sh: times the exact Gram X X' (and chol) of the core, R's Matrix::tcrossprod and Octave's X*X' on the
# benchmark's inputs, each run its own process under /usr/bin/time -v (peak memory) and a time limit.
set -u
OUT=${OUT:-build/bench}
RLIB=${RLIB:-build/Rlib}
LIMIT=${GRAM_LIMIT:-600}
TOOL=$OUT/gram_bench
OCT="env OCTAVE_HISTFILE=/dev/null octave-cli --norc --quiet --no-window-system --path build/octave"
mkdir -p "$OUT"
[ -s "$OUT/sparse.bin" ] || $OUT/core_tool gen-sparse "$OUT/sparse.bin" 2000 500000 5e7 1
[ -s "$OUT/gram-u100.bin" ] || $TOOL uniform "$OUT/gram-u100.bin" 2000 100000 100 1
[ -s "$OUT/gram-dense.bin" ] || $TOOL dense "$OUT/gram-dense.bin" 2000 10000 1

echo "== multiply-add peak (make bench-peak's first lines)"
for t in 1 2; do $OUT/peak $t 2>&1 | grep -E '^peak: (dgemm|in-cache SSE2)'; done

# LABEL CMD...: the command's own lines, then its wall time and peak memory (or why it stopped)
run() {
  local label=$1 tv=$OUT/.gram-time-v status=0
  shift
  /usr/bin/time -v -o "$tv" timeout "$LIMIT" "$@" 2>&1 | grep -E '^(gram_bench|gram_run)' || true
  status=$(awk -F': ' '/Exit status/ {print $2}' "$tv")
  awk -F': ' -v l="$label" -v s="$status" -v lim="$LIMIT" '
    /Maximum resident set size/ {rss = $2 / 1024}
    /Elapsed \(wall clock\)/ {n = split($2, a, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + a[i]}
    END {printf "%-28s process %7.1f s, peak %7.0f MiB%s\n", l, w, rss,
         s == 124 ? sprintf(" (stopped at the %s s limit)", lim) : s != 0 ? " (exit " s ")" : ""}' "$tv"
}

for in in gram-u100 sparse gram-dense; do
  f=$OUT/$in.bin
  echo "== $in"
  run "core as_gram 1 thread" $TOOL time "$f" 1 0.25 1
  run "core as_gram 2 threads" $TOOL time "$f" 2 0.25 1
  run "R attsparse::gram" env R_LIBS="$RLIB" Rscript bench/gram_run.R "$f" gram
  run "R Matrix::tcrossprod" env R_LIBS="$RLIB" Rscript bench/gram_run.R "$f" tcrossprod
  run "Octave X*X'" $OCT bench/gram_run.m "$f"
  if [ "$in" != gram-dense ]; then
    run "R attsparse_rand error=FALSE" env R_LIBS="$RLIB" Rscript bench/gram_run.R "$f" rand-noerror
    run "R attsparse_rand error=TRUE" env R_LIBS="$RLIB" Rscript bench/gram_run.R "$f" rand-error
  fi
done | tee "$OUT/.gram-lines"

# The README's rule, checked on each sparse input: sampling (error = FALSE) is predicted faster than
# gram() + chol when the exact Gram's multiply-adds exceed the passes', slower otherwise.
echo "== the rule: sampling faster than gram() + chol when the Gram's work exceeds the passes'"
awk -f bench/gram_rule.awk "$OUT/.gram-lines" || echo "the rule disagrees with a measurement: revise it in README.md and docs/performance.md"
