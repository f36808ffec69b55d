# gram_rule.awk: the README's rule checked on make bench-gram's lines (bench/gram_bench.sh): on each sparse input,
# attsparse_rand (error = FALSE) is predicted faster than gram() + chol when the exact Gram's multiply-adds exceed
# the passes', slower otherwise; prints the prediction beside the measured ratio, exits 1 if one disagrees.
  /^== / {in_ = $2}
  /^gram_run: .* gram: gram .* s, chol .* s$/ && / gram: / && !/tcrossprod/ {
    split($0, a, "gram: gram "); split(a[2], b, " s, chol "); g[in_] = b[1] + b[2] }
  /^gram_run: .* attsparse_rand error=FALSE: / { split($0, a, "error=FALSE: "); r[in_] = a[2] + 0 }
  /^gram_run: .* work: sampling / { split($0, a, "sampling "); ws[in_] = a[2] + 0 }
  # the exact Gram's multiply-adds as the core counts them (gram_bench: light + dense-panel)
  /^gram_bench: .* light \+ .* dense-panel multiply-adds/ {
    split($0, a, " light \\+ "); nf = split(a[1], f, " "); split(a[2], b, " dense-panel")
    wg[in_] = f[nf] + b[1] }
  END {
    bad = 0
    for (k in r) {
      if (!(k in g) || !(k in ws) || !(k in wg)) { printf "%-12s incomplete (a run stopped)\n", k; continue }
      fast = wg[k] > ws[k]; ratio = r[k] / g[k]
      ok = (fast && ratio < 1) || (!fast && ratio >= 1)
      printf "%-12s work %.3g vs %.3g: predicted %s; measured %.2f s vs %.2f s (%.2fx): %s\n", k, ws[k], wg[k],
             fast ? "faster" : "slower", r[k], g[k], ratio, ok ? "agrees" : "DISAGREES"
      bad += !ok
    }
    exit bad > 0
  }
