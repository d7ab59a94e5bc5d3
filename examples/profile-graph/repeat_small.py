"""repeat_small.py - a small CuPy program that repeats its kernels (6 kernels x 4 iterations, 2^24
elements): enough launches of each kernel and shape for `wallbench profile --rotate` to use 4 of its
groups, in seconds (issue 48: which rows each group brings back, docs/profiling-measured.md, "But only part of the set comes back").
Prints a checksum line, as the other examples do. Exit 0, or 77 where CuPy is missing."""
import sys

try:
    import cupy as cp
except ImportError as e:  # this machine cannot run it: 77, not a failure of the program
    print("repeat_small.py: needs CuPy with CUDA (pip install cupy-cuda12x): %s" % e, file=sys.stderr)
    sys.exit(77)
n = 1 << 24
rs = cp.random.RandomState(1)
a = rs.random_sample(n, dtype=cp.float32); b = rs.random_sample(n, dtype=cp.float32)
k = rs.randint(0, 1000, n, dtype=cp.int32)
tot = 0.0
for it in range(4):
    c = a * b + 1.0
    s = c.sum()
    m = cp.maximum(a, b)
    h = cp.bincount(k, minlength=1000)
    w = cp.where(a > 0.5, m, c)
    tot += float(s) + float(w[17]) + float(h[3])
cp.cuda.Device().synchronize()
print("checksum", round(tot, 2))
