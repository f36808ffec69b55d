#!/usr/bin/python3
# rand_srp.py: scikit-learn's SparseRandomProjection in the randomized-algorithm benchmark; appends result lines to a TSV.
# Run: /usr/bin/python3 bench/rand_srp.py DIR INPUT SIZES BUDGET OUT   (Debian's python3-sklearn)
# The same measurements as bench/rand_run.R: time of fit_transform alone (input loaded before),
# resident memory before it, its peak (VmHWM reset before the run), rel error against the exact Gram.
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
from sklearn.random_projection import SparseRandomProjection


def read_asbin(path):
    with open(path, "rb") as f:
        if f.read(8) != b"ASBIN001":
            raise SystemExit(f"rand_srp: {path} is not an ASBIN001 file")
        n, d, nnz, kind = np.fromfile(f, dtype="<i8", count=4)
        if kind == 0:
            return np.fromfile(f, dtype="<f8", count=n * d).reshape((n, d), order="F")
        p = np.fromfile(f, dtype="<i4", count=d + 1)
        i = np.fromfile(f, dtype="<i4", count=nnz)
        x = np.fromfile(f, dtype="<f8", count=nnz)
    return sp.csc_matrix((x, i, p), shape=(n, d), copy=False)


def mem_reset():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def mem_now(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def row_softmax(G):
    A = np.exp(G - G.max(axis=1, keepdims=True))
    return A / A.sum(axis=1, keepdims=True)


def main():
    dirname, name, sizes, budget, out = sys.argv[1:6]
    sizes = [int(float(s)) for s in sizes.split(",")]
    budget = float(budget)
    X = read_asbin(os.path.join(dirname, name + ".bin"))
    n, d = X.shape
    G = np.fromfile(os.path.join(dirname, name + ".G"), dtype="<f8").reshape((n, n), order="F")
    att_x = row_softmax(G)
    if sp.issparse(X):
        nnz, size_x = X.nnz, (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes) / 2**20
    else:
        nnz, size_x = n * d, X.nbytes / 2**20
    for si, k in enumerate(sizes):
        mem_reset()
        before = mem_now("VmRSS")
        t0 = time.perf_counter()
        Y = SparseRandomProjection(n_components=k, dense_output=True, random_state=1).fit_transform(X)
        t = time.perf_counter() - t0
        peak = mem_now("VmHWM")
        Y = np.asarray(Y)
        rel = float(np.max(np.abs(row_softmax(Y @ Y.T) / att_x - 1)))
        new = not os.path.exists(out)
        with open(out, "a") as f:
            if new:
                f.write("frontend\tinput\tn\td\tnnz\tmethod\tparam\tk\ttime\trel\tsize_x_mb\t"
                        "rss_before_mb\tpeak_mb\textra_mb\ty_mb\tstatus\n")
            f.write(f"Python\t{name}\t{n}\t{d}\t{nnz}\tsrp\t{k}\t{k}\t{t:.3f}\t{rel:.4g}\t{size_x:.1f}\t"
                    f"{before:.1f}\t{peak:.1f}\t{peak - before:.1f}\t{Y.nbytes / 2**20:.1f}\tok\n")
        print(f"Python {name} srp {k}: {t:.2f} s, rel {rel:.3g}, +{peak - before:.0f} MiB over "
              f"{before:.0f} MiB resident (X: {size_x:.0f} MiB)", file=sys.stderr)
        if rel <= 0.01:
            break
        if si + 1 < len(sizes) and t * sizes[si + 1] / k > budget:
            break


if __name__ == "__main__":
    main()
