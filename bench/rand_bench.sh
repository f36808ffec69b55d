#!/usr/bin/env bash
# rand_bench.sh: the randomized-algorithm benchmark: attsparse_rand and attsparse_det against the exact Gram + Cholesky,
# a Gaussian projection and scikit-learn's SparseRandomProjection, in R, Octave and Python, on the same inputs.
# Run from the repository root (make bench-rand does): bench/rand_bench.sh [--quick]
#   --quick   the real data sets only (a minute)
# Every run is its own process under /usr/bin/time -v; results go to build/bench/rand-*.tsv and the
# tables (bench/rand_report.R) to build/bench/rand-tables.txt, which is also printed.
set -euo pipefail
OUT=${RAND_BENCH_DIR:-build/bench}
RLIB=${RLIB:-build/Rlib}
BUDGET=${RAND_BENCH_BUDGET:-45}        # seconds: a sweep stops before a run would pass it
TOOL=$OUT/core_tool
RUNS=$OUT/rand-runs.tsv
PROCS=$OUT/rand-procs.tsv
PY=/usr/bin/python3                    # Debian's, with python3-sklearn
OCT="octave-cli --norc --quiet --no-window-system --path build/octave"
export OCTAVE_HISTFILE=/dev/null R_LIBS=$RLIB
quick=0
[ "${1:-}" = "--quick" ] && quick=1

mkdir -p "$OUT"
rm -f "$RUNS" "$PROCS"
printf 'frontend\tinput\tmethod\tsizes\tmaxrss_mb\twall_s\texit\n' >"$PROCS"

# ---------------------------------------------------------------- inputs
if [ $quick -eq 0 ]; then
  [ -s "$OUT/dense.bin" ]  || $TOOL gen-dense  "$OUT/dense.bin"  500 200000 1 1
  [ -s "$OUT/sparse.bin" ] || $TOOL gen-sparse "$OUT/sparse.bin" 2000 500000 5e7 1
  big="dense sparse"
else
  big=""
fi
real="ALL golub crude acq"
Rscript bench/rand_prepare.R "$OUT" $big $real
inputs=""
for x in $big $real; do [ -s "$OUT/$x.bin" ] && inputs="$inputs $x"; done

# one process: FRONTEND INPUT METHOD SIZES [timeout seconds]
run() {
  local fe=$1 in=$2 meth=$3 sizes=$4 limit=${5:-0} tv=$OUT/.time-v status=0
  local -a cmd
  case $fe in
    R)      cmd=(Rscript bench/rand_run.R "$OUT" "$in" "$meth" "$sizes" "$BUDGET" "$RUNS") ;;
    Octave) cmd=($OCT bench/rand_run.m "$OUT" "$in" "$meth" "$sizes" "$BUDGET" "$RUNS") ;;
    Python) cmd=($PY bench/rand_srp.py "$OUT" "$in" "$sizes" "$BUDGET" "$RUNS") ;;
  esac
  if [ "$limit" -gt 0 ]; then cmd=(timeout "$limit" "${cmd[@]}"); fi
  /usr/bin/time -v -o "$tv" "${cmd[@]}" || status=$?
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$tv")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; printf "%.1f", s}' "$tv")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fe" "$in" "$meth" "$sizes" "$rss" "$wall" "$status" >>"$PROCS"
  if [ "$status" -eq 124 ]; then
    local n d
    read -r n d < <(Rscript -e 'source("bench/rand_common.R"); con <- file(commandArgs(TRUE)[1], "rb"); invisible(readChar(con, 8, TRUE)); h <- readBin(con, "integer", 8, size = 4); cat(h[1], h[3], "\n")' "$OUT/$in.bin")
    # the run that was killed: the first size not yet in the results
    local done_n size
    done_n=$(awk -F'\t' -v fe="$fe" -v inp="$in" -v m="$meth" '$1 == fe && $2 == inp && $6 == m' "$RUNS" | wc -l)
    size=$(echo "$sizes" | tr ',' '\n' | sed -n "$((done_n + 1))p")
    printf '%s\t%s\t%s\t%s\tNA\t%s\t%s\tNA\t%s\tNA\tNA\tNA\tNA\tNA\tNA\tstopped: killed at %s s\n' \
      "$fe" "$in" "$n" "$d" "$meth" "$size" "$limit" "$limit" >>"$RUNS"
  fi
}

# a projection at k columns makes a dense n x k Y: past 2 GiB it is not run, and says so
too_big() {
  local in=$1 fe=$2 meth=$3 k=$4 n d
  read -r n d < <(awk -F'\t' -v inp="$in" '$2 == inp && $3 != "" {print $3, $4; exit}' "$RUNS")
  if [ -n "$n" ] && [ $((n * k * 8)) -gt $((2 * 1024 * 1024 * 1024)) ]; then
    printf '%s\t%s\t%s\t%s\tNA\t%s\t%s\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tskipped: Y would be %s x %s dense, %.1f GiB\n' \
      "$fe" "$in" "$n" "$d" "$meth" "$k" "$n" "$k" "$(awk -v n="$n" -v k="$k" 'BEGIN {print n * k * 8 / 2^30}')" >>"$RUNS"
    return 0
  fi
  return 1
}

# k of R's attsparse_rand at the default m on an input (for the projections at equal k)
rand_k() { awk -F'\t' -v inp="$1" '$1 == "R" && $2 == inp && $6 == "rand" && $7 == 0 {print $8}' "$RUNS" | head -1; }

for in in $inputs; do
  case $in in
    sparse) rsweep=120000,480000,2000000,8000000; gsweep=250,1000,4000; psweep=1000,4000,16000,64000; dsweep=0.9 ;;
    dense)  rsweep=8000,32000,128000,512000,2000000;    gsweep=1000,4000,16000; psweep=1000,4000,16000,64000; dsweep=0.9 ;;
    *)      rsweep=1000,4000,16000,64000,256000,1024000; gsweep=1000,4000; psweep=1000,4000,16000; dsweep=0.9,0.5 ;;
  esac
  echo "== $in"
  run R "$in" rand 0
  k=$(rand_k "$in")
  run R "$in" rand "$rsweep"
  run R "$in" det "$dsweep"
  run R "$in" gram 0
  too_big "$in" R gauss "$k" || run R "$in" gauss "$k"
  run R "$in" gauss "$gsweep"
  too_big "$in" Python srp "$k" || run Python "$in" srp "$k" $((BUDGET * 2))
  run Python "$in" srp "$psweep" $((BUDGET * 2))
  run Octave "$in" rand 0
  run Octave "$in" gram 0 $((BUDGET * 6))
  # Octave's Gaussian projection and BSS only where R's finished within the budget
  if awk -F'\t' -v inp="$in" -v k="$k" '$1 == "R" && $2 == inp && $6 == "gauss" && $7 == k && $16 == "ok" {f = 1} END {exit !f}' "$RUNS"; then
    run Octave "$in" gauss "$k"
  fi
  if awk -F'\t' -v inp="$in" '$1 == "R" && $2 == inp && $6 == "det" && $7 == 0.5 && $16 == "ok" {f = 1} END {exit !f}' "$RUNS"; then
    run Octave "$in" det 0.5
  fi
done

Rscript bench/rand_report.R "$OUT" | tee "$OUT/rand-tables.txt"
