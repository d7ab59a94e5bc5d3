#!/usr/bin/env python3
"""compare_builds.py A.h5 B.h5 - the same sweep from two builds on one GPU (README "Your GPU"):
e.g. A = the sm_90 build, B = the compute_80 PTX build the driver JIT-compiles (the code an A100
gets). Per family: points matched, geometric mean of the time ratio B/A, its range, and the
instruction-count ratio B/A (CUPTI inst); then every point whose instruction count differs by more
than 1% or whose time differs by more than 10%, with registers on each side.
Needs h5py and numpy. Exit 2 on bad input, 0 otherwise (it reports, it does not judge)."""
import math
import os
import sys
from collections import defaultdict

try:
    import h5py
    import numpy as np
except ImportError as e:
    sys.exit(f"compare_builds.py: {e}: pip install h5py numpy")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness", "tools"))
from counts_h5 import table  # noqa: E402 (counts as floats, NaN not counted, whatever the schema)

KEY = ["family", "variant", "dtype", "layout", "n", "ilp", "occupancy_target", "block", "sm_limit", "selectivity",
       "table_entries", "groups", "expr_ops", "vector_bytes", "columns", "load_factor", "match_rate", "warm_cache",
       "repetition"]


def load(path):
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        print(f"compare_builds.py: cannot open {path}: {e}", file=sys.stderr)
        sys.exit(2)
    pts = table(f, "points")
    names = pts.dtype.names
    attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    rows = {}
    for r in pts:
        def val(c):
            v = r[c]
            if isinstance(v, bytes):
                return v.decode()
            if isinstance(v, np.floating):
                return "nan" if math.isnan(v) else round(float(v), 9)  # NaN != NaN would match nothing
            return 0 if c == "sm_limit" and int(v) == -1 else int(v)  # schema 6: -1 = all SMs (older: 0)
        if val("status") != "ok":
            continue
        got = {c: val(c) for c in ("time_median_ms", "inst", "regs")}
        rows[tuple(val(c) for c in KEY if c in names)] = {k: float("nan") if v == "nan" else v for k, v in got.items()}
    return attrs, rows


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    (aa, a), (ba, b) = load(argv[1]), load(argv[2])
    for tag, at in (("A", aa), ("B", ba)):
        print(f"{tag}: {at.get('gpu_name', '?')}, kernels {at.get('kernel_code', '? (file older than kernel_code)')}, "
              f"CUDA_ARCHS {at.get('cuda_archs', '?')}, git {at.get('git_revision', '?')}")
    common = sorted(set(a) & set(b))
    if not common:
        print("compare_builds.py: no point is in both files (same sweep?)", file=sys.stderr)
        return 2
    fam = defaultdict(list)
    odd = []
    for k in common:
        x, y = a[k], b[k]
        t = y["time_median_ms"] / x["time_median_ms"] if x["time_median_ms"] > 0 else float("nan")
        i = y["inst"] / x["inst"] if x["inst"] and x["inst"] > 0 else float("nan")
        fam[k[0]].append((t, i))
        if (math.isfinite(i) and abs(i - 1) > 0.01) or (math.isfinite(t) and abs(t - 1) > 0.10):
            odd.append((k, t, i, x["regs"], y["regs"]))
    print(f"{len(common)} points in both ({len(a) - len(common)} only in A, {len(b) - len(common)} only in B)")
    print(f"{'family':<10} {'points':>6} {'time B/A gmean':>15} {'min':>7} {'max':>7} {'inst B/A gmean':>15}")
    for name, v in sorted(fam.items()):
        ts = [t for t, _ in v if math.isfinite(t) and t > 0]
        ins = [i for _, i in v if math.isfinite(i) and i > 0]
        g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
        print(f"{name:<10} {len(v):>6} {g(ts):>15.3f} {min(ts, default=float('nan')):>7.3f} "
              f"{max(ts, default=float('nan')):>7.3f} {g(ins):>15.4f}")
    print(f"{len(odd)} point(s) with inst off by > 1% or time by > 10%:")
    for k, t, i, ra, rb in odd:
        print(f"  {k[0]}/{k[1]} n={k[4]} ilp={k[5]} block={k[7]} sms={k[8]} s={k[9]}: time x{t:.3f}, inst x{i:.4f}, regs {ra} -> {rb}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
