#!/usr/bin/env bash
# rand_peak.sh: the multiply-add peak (OpenBLAS dgemm, in-cache SSE2 and AVX2 loops) on 1 and 2 threads, then
# as_rand's phase timings on the sparse benchmark input on 1 and 2 threads; output in build/bench/rand-peak.txt.
# RAND_BEFORE=<git revision>: the same timings with the core of that revision, for a before/after comparison.
set -euo pipefail
OUT=${RAND_BENCH_DIR:-build/bench}
TOOL=$OUT/core_tool
[ -s "$OUT/sparse.bin" ] || $TOOL gen-sparse "$OUT/sparse.bin" 2000 500000 5e7 1
tools="$TOOL"
if [ -n "${RAND_BEFORE:-}" ]; then
  before=$OUT/before-$RAND_BEFORE
  rm -rf "$before" && mkdir -p "$before"
  git archive "$RAND_BEFORE" core | tar -x -C "$before"
  (cd "$before/core" && for f in *.c; do ${CC:-cc} -std=c99 -O2 -g -fPIC -fopenmp -c "$f"; done && ar rcs libattsparse.a ./*.o)
  # the tool of that revision (bench/rand_tool.c before it was named core_tool.c): the same command line,
  # built against the headers of its own core
  src=bench/core_tool.c; git cat-file -e "$RAND_BEFORE:$src" 2>/dev/null || src=bench/rand_tool.c
  git show "$RAND_BEFORE:$src" >"$before/core_tool.c"
  ${CC:-cc} -std=c99 -O2 -g -fopenmp -I"$before/core" "$before/core_tool.c" "$before/core/libattsparse.a" \
    -llapack -lblas -lgfortran -lm -o "$before/core_tool"
  tools="$before/core_tool $TOOL"
fi
{
  echo "load before the measurements: $(uptime)"
  for t in 1 2; do OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t $OUT/peak $t; done
  for tool in $tools; do
    for t in 1 2; do
      echo "$tool on sparse.bin (2000 x 500000, 5e7 nonzeros), $t thread(s) (OpenMP and OpenBLAS), 3 runs:"
      OPENBLAS_NUM_THREADS=$t $tool run "$OUT/sparse.bin" $t 0 3 2>&1
    done
  done
} | tee "$OUT/rand-peak.txt"
