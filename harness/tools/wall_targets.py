#!/usr/bin/env python3
"""wall_targets.py RESULTS.h5 - the numbers of issue 17 from one results file:
the gather ceilings by table size, the direct probe against the wall at 1 GiB
(target >= 90%), the partitioned probe against direct by table size and
partition count (target >= 1.3x at 2^28 keys into 1 GiB; where it starts and
stops paying; its partition and probe times apart, from the "partition"
twins, where the file has them), regime A (layout=host) against regime B, and how many points
carry the hierarchical intensities. Needs python3 with h5py and numpy; reads
/points only, prints plain text. Exit 2 on bad input (no such file, not HDF5, no /points)."""
import sys

from pydeps import need

h5py, np = need("h5py", "numpy")  # before counts_h5, which imports numpy

from counts_h5 import table, unreadable  # noqa: E402
from results_attrs import attrs_with_ceilings  # noqa: E402


def text(col):
    return np.array([v.decode() if isinstance(v, bytes) else str(v) for v in col])


def main(path):
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        why = unreadable(path, e)
        print(f"wall_targets.py: {path}: {why}", file=sys.stderr)
        return 2
    with f:
        if "points" not in f:
            print(f"wall_targets.py: {path}: no /points: not a results file (a profile?)", file=sys.stderr)
            return 2
        p = table(f, "points")  # counts as floats, NaN not counted, whatever the schema
        attrs = attrs_with_ceilings(f)
    fam, var, status, layout = (text(p[c]) for c in ("family", "variant", "status", "layout"))
    ok = status == "ok"
    names = p.dtype.names
    t = p["time_median_ms"]
    items = p["items"]
    tb = p["table_bytes"] if "table_bytes" in names else np.full(len(p), np.nan)

    print("== gather ceilings (best over ILP): table bytes, G req/s, GB/s requested")
    for v, width in (("gather_word", 4), ("gather_sector", 32)):
        sel = ok & (fam == "ceiling") & (var == v)
        for b in sorted(set(tb[sel])):
            m = sel & (tb == b)
            g = (items[m] / (t[m] * 1e-3) / 1e9).max()
            print(f"  {v:13s} {b / 2**20:10.0f} MiB  {g:7.1f} G req/s  {g * width:7.0f} GB/s")

    probe = ok & (fam == "probe")
    n = p["n"]
    ent = p["table_entries"]
    print("== direct probe against the wall (target: >= 90% at a 1 GiB table)")
    for e in sorted(set(ent[probe & (var == "direct") & (n == 2**28)])):
        m = probe & (var == "direct") & (ent == e) & (n == 2**28) & (p["match_rate"] == 1)
        if not m.any():
            continue
        i = np.flatnonzero(m)[np.argmin(t[m])]
        pct = p["gather_pct"][i] if "gather_pct" in names else np.nan
        print(f"  {4 * e / 2**20:10.4g} MiB  {t[i]:7.3f} ms  {items[i] / t[i] / 1e6:7.1f} G probes/s  "
              f"{pct:6.1f}% of gather_word" + ("   <- target row" if e == 2**28 else ""))

    print("== partitioned vs direct, 2^28 keys (target: >= 1.3x at 2^28 entries = 1 GiB)")
    part = probe & (var == "partitioned") & (n == 2**28)
    for e in sorted(set(ent[part])):
        d = probe & (var == "direct") & (ent == e) & (n == 2**28) & (p["match_rate"] == 1)
        m = part & (ent == e)
        best = np.flatnonzero(m)[np.argmin(t[m])]
        line = f"  {4 * e / 2**20:8.4g} MiB  partitioned best {t[best]:7.3f} ms at {p['partitions'][best]} parts"
        if d.any():
            dt = t[d].min()
            line += f", direct {dt:7.3f} ms: {dt / t[best]:5.2f}x" + (" pays" if dt > t[best] else " does not pay")
        print(line)
        # the twin "partition" (the same point, partitioning alone): probe time = partitioned - partition
        alone = probe & (var == "partition") & (n == 2**28) & (ent == e)
        for i in np.flatnonzero(m)[np.argsort(p["partitions"][m])]:
            line = f"      {p['partitions'][i]:5d} parts  {t[i]:7.3f} ms  {p['gather_pct'][i]:6.1f}% of the wall"
            tw = alone & (p["partitions"] == p["partitions"][i])
            if tw.any():
                pt = t[tw].min()
                line += f"  = partition {pt:7.3f} ms + probe {t[i] - pt:7.3f} ms"
            print(line)

    print("== regime A (input copied from pinned host memory per query) vs regime B (resident)")
    h2d = attrs.get("ceiling_h2d_gbps", np.nan)
    print(f"  h2d ceiling {float(h2d):.1f} GB/s")
    for f_, hostl, resl in (("select", "host", "uniform"), ("scan", "q1.1_host", "q1.1")):
        m = ok & (fam == f_) & (layout == hostl)
        for i in np.flatnonzero(m):
            r = ok & (fam == f_) & (layout == resl) & (var == var[i]) & (n == n[i]) & (p["selectivity"] == p["selectivity"][i])
            rt = t[r].min() if r.any() else np.nan
            print(f"  {f_}/{var[i]} n=2^{int(np.log2(max(n[i], 1)))} s={p['selectivity'][i]:g}: host {t[i]:8.3f} ms "
                  f"({p['gbps_model'][i]:6.1f} GB/s over PCIe), resident {rt:7.3f} ms: {t[i] / rt:6.1f}x slower")

    if "inst_per_l1_sector" in names:
        has = np.isfinite(p["inst_per_l1_sector"]) & np.isfinite(p["inst_per_l2_sector"])
        print(f"== hierarchical roofline: {int(has.sum())} points with L1 and L2 intensities")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) != 2:
        print("usage: wall_targets.py RESULTS.h5", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
