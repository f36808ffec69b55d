#!/usr/bin/env bash
# rand_peak.sh: the multiply-add peak (OpenBLAS dgemm, in-cache SSE2 loop) on 1 and 2 threads, then as_rand's
# phase timings on the sparse benchmark input on 1 and 2 threads; output in build/bench/rand-peak.txt.
set -euo pipefail
OUT=${RAND_BENCH_DIR:-build/bench}
TOOL=$OUT/rand_tool
[ -s "$OUT/sparse.bin" ] || $TOOL gen-sparse "$OUT/sparse.bin" 2000 500000 5e7 1
{
  for t in 1 2; do OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t $OUT/peak $t; done
  for t in 1 2; do
    echo "as_rand on sparse.bin (2000 x 500000, 5e7 nonzeros), $t thread(s), 3 runs:"
    $TOOL run "$OUT/sparse.bin" $t 0 3 2>&1
  done
} | tee "$OUT/rand-peak.txt"
