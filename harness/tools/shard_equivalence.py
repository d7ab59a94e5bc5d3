#!/usr/bin/env python3
"""shard_equivalence.py UNSHARDED.h5 MERGED.h5 - is a merge of shards the
same measurement as one unsharded run of that sweep on the same GPU?
Sharding moves no kernel code, so instruction counts must be equal within
tests/inst_equal.txt (0%; 1% for the variants whose CAS loops and CUB
look-back vary by themselves).

Pairs the rows of /points on every axis column (as wallbench compare does)
and prints: points in both and in one only, instruction counts (column
`inst`, CUPTI smsp__inst_executed.sum) equal or not, and the time ratio
merged / unsharded per point with a noise verdict: within noise when
|ratio - 1| <= max(5%, 3 x the larger relative sample standard deviation).
Exit 0 when the point sets are the same, every instruction count is equal
(both NaN counts as equal; within inst_equal.txt) and at least 95% of the times are within noise;
1 otherwise, listing the offenders; 2 on bad input (not a results file). Needs h5py and numpy."""
import math
import os
import sys

from pydeps import need

h5py, np = need("h5py", "numpy")  # before counts_h5, which imports numpy

from counts_h5 import table, unreadable  # noqa: E402

AXES = ["family", "variant", "dtype", "layout", "n", "ilp", "occupancy_target", "block", "sm_limit",
        "selectivity", "table_entries", "groups", "expr_ops", "vector_bytes", "columns", "load_factor",
        "match_rate", "warm_cache", "repetition"]


def inst_tolerances():
    """(family, variant, fraction) from tests/inst_equal.txt; the most specific line wins."""
    rules = []
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "inst_equal.txt")
    with open(path) as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) < 2 or words[0] != "inst":
                continue
            sel = dict(w.split("=", 1) for w in words[2:] if "=" in w)
            rules.append((sel.get("family"), sel.get("variant"), float(words[1].rstrip("%")) / 100))
    return rules


def tolerance(rules, family, variant):
    best, spec = 0.0, -1
    for fam, var, tol in rules:
        if (fam is None or fam == family) and (var is None or var == variant):
            k = (fam is not None) + (var is not None)
            if k > spec:
                best, spec = tol, k
    return best


def key_of(row):
    k = []
    for a in AXES:
        v = row[a]
        if isinstance(v, bytes):
            v = v.decode()
        elif isinstance(v, (float, np.floating)):
            v = "nan" if math.isnan(v) else repr(float(v))
        else:
            v = int(v)
            if a == "sm_limit" and v == -1:  # schema 6 writes "all SMs" as -1, older files as 0
                v = 0
        k.append(v)
    return tuple(k)


def name_of(k):
    return "/".join(str(v) for v in k[:2]) + "/" + ",".join(f"{a}={v}" for a, v in zip(AXES[2:], k[2:])
                                                          if v not in ("", -1, "nan"))


def refuse(path, why):
    print(f"shard_equivalence.py: {path}: {why}", file=sys.stderr)
    sys.exit(2)  # not 1: that is the verdict DIFFERENT


def load(path):
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        refuse(path, unreadable(path, e))
    with f:
        if "points" not in f:
            refuse(path, "no /points: not a results file (a profile?)")
        pts = table(f, "points")  # counts as floats, NaN not counted, whatever the schema
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    rows = {}
    for r in pts:
        rows.setdefault(key_of(r), r)
    return rows, attrs


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    a, aa = load(sys.argv[1])
    b, ba = load(sys.argv[2])
    print(f"unsharded: {sys.argv[1]} ({aa.get('gpu_name')}, {aa.get('sweep')} sweep, {len(a)} points)")
    print(f"merged:    {sys.argv[2]} ({ba.get('gpu_name')}, shards {ba.get('merged_shards')}, {len(b)} points)")
    only_a = sorted(set(a) - set(b))
    only_b = sorted(set(b) - set(a))
    both = [k for k in a if k in b]
    print(f"points in both: {len(both)}; only unsharded: {len(only_a)}; only merged: {len(only_b)}")
    for k in only_a[:10]:
        print(f"  only unsharded: {name_of(k)}")
    for k in only_b[:10]:
        print(f"  only merged: {name_of(k)}")

    rules = inst_tolerances()
    inst_diff, ratios, noisy = [], [], []
    for k in both:
        x, y = a[k], b[k]
        ix, iy = float(x["inst"]), float(y["inst"])
        tol = tolerance(rules, k[0], k[1])
        same = ix == iy or (math.isnan(ix) and math.isnan(iy)) or (ix > 0 and abs(iy - ix) <= tol * ix)
        if not same:
            inst_diff.append((k, ix, iy))
        sx, sy = x["status"].decode(), y["status"].decode()
        tx, ty = float(x["time_median_ms"]), float(y["time_median_ms"])
        if sx != "ok" or sy != "ok" or not (tx > 0 and ty > 0):
            continue
        r = ty / tx
        ratios.append(r)
        rel = max(float(x["time_stddev_ms"]) / tx, float(y["time_stddev_ms"]) / ty)
        tol = max(0.05, 3 * rel if math.isfinite(rel) else 0.05)
        if abs(r - 1) > tol:
            noisy.append((k, tx, ty, tol))
    print(f"instruction counts equal (within tests/inst_equal.txt): {len(both) - len(inst_diff)} of {len(both)}")
    for k, ix, iy in inst_diff[:20]:
        print(f"  inst differs: {name_of(k)}: {ix:.0f} vs {iy:.0f} ({(iy - ix) / ix * 100 if ix else float('nan'):+.4f}%)")
    if ratios:
        q = np.percentile(ratios, [5, 50, 95])
        within = len(ratios) - len(noisy)
        print(f"time merged/unsharded over {len(ratios)} timed pairs: median {q[1]:.4f}, 5% {q[0]:.4f}, "
              f"95% {q[2]:.4f}, geomean {math.exp(np.mean(np.log(ratios))):.4f}; within noise {within} "
              f"({within / len(ratios) * 100:.1f}%)")
    for k, tx, ty, tol in sorted(noisy, key=lambda t: -abs(t[2] / t[1] - 1))[:20]:
        print(f"  outside noise: {name_of(k)}: {tx:.4f} -> {ty:.4f} ms ({ty / tx:.3f}x, tolerance {tol * 100:.1f}%)")
    wall_a = aa.get("run_wall_s")
    shards = sorted(k for k in ba if k.startswith("shard") and k.endswith("_run_wall_s"))
    walls = [float(ba[k]) for k in shards]
    if walls:
        print("shard run times (s): " + ", ".join(f"{k[5:-11]}: {w:.0f}" for k, w in zip(shards, walls)) +
              (f"; unsharded {float(wall_a):.0f} s; sum of shards / unsharded {sum(walls) / float(wall_a):.3f}"
               f" (the ceilings run in every shard); unsharded / longest shard {float(wall_a) / max(walls):.2f}x"
               " (the speed-up when the shards run side by side)" if wall_a is not None else ""))
    ok = not only_a and not only_b and not inst_diff and ratios and len(noisy) <= 0.05 * len(ratios)
    print("verdict:", "the merge equals the unsharded run" if ok else "DIFFERENT (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
