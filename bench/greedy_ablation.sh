#!/usr/bin/env bash
# greedy_ablation.sh: columns kept by the greedy method (exact rel <= target) as its parts are switched
# on one at a time (core_tool greedy NAME=VALUE ...), on each input of DIR; "!" marks a target not met.
# Run: bench/greedy_ablation.sh CORE_TOOL DIR
set -euo pipefail
tool=$1 dir=$2
steps=(
  "plain greedy, Frobenius refit|centre=0 gain=0 lawson=0 diag=0 prune=0 two=0 batch=0.05 minimax=0"
  "+ gain per norm|centre=0 gain=1 lawson=0 diag=0 prune=0 two=0 batch=0.05 minimax=0"
  "+ row-centred error|centre=1 gain=1 lawson=0 diag=0 prune=0 two=0 batch=0.05 minimax=0"
  "+ row weights (Lawson)|centre=1 gain=1 lawson=2 diag=0 prune=0 two=0 batch=0.05 minimax=0"
  "+ diagonal weight tried|centre=1 gain=1 lawson=2 diag=0.3 prune=0 two=0 batch=0.05 minimax=0"
  "+ two choices a column|centre=1 gain=1 lawson=2 diag=0.3 prune=0 two=1 batch=0.05 minimax=0"
  "+ prune|centre=1 gain=1 lawson=2 diag=0.3 prune=4 two=1 batch=0.05 minimax=0"
  "+ minimax fit, its prune (shipped)|centre=1 gain=1 lawson=2 diag=0.3 prune=4 two=1 batch=0.05 minimax=8"
)
inputs=()
for f in crude acq golub lung example; do [ -s "$dir/$f.bin" ] && inputs+=("$f"); done
targets() { [ "$1" = example ] && echo "0.02 0.01" || echo "0.05 0.02 0.01"; }
header="step"
for f in "${inputs[@]}"; do for t in $(targets "$f"); do header="$header | $f $(awk -v t="$t" 'BEGIN { print 100 * t }')%"; done; done
echo "columns kept for exact rel <= target (\"!\": not met), $(nproc) cores"
echo "$header | seconds"
for step in "${steps[@]}"; do
  name=${step%%|*} settings=${step#*|}
  line="$name"
  t0=$(date +%s.%N)
  for f in "${inputs[@]}"; do
    # shellcheck disable=SC2046
    while read -r target k rel; do
      met=$(awk -v r="$rel" -v t="$target" 'BEGIN { print (r / 100 <= t) ? "" : "!" }')
      line="$line | $k$met"
    done < <("$tool" greedy "$dir/$f.bin" $settings $(targets "$f") |
             sed -E 's/.* ([0-9.]+): k ([0-9]+), rel ([0-9.e+-]+)%.*/\1 \2 \3/')
  done
  echo "$line | $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
done
if [ -s "$dir/ALL.bin" ]; then
  echo "ALL (128 x 12625, dense), the shipped method:"
  "$tool" greedy "$dir/ALL.bin" 0.05 0.02 | sed 's/^core_tool: greedy [^ ]*\//  /'
fi
