#!/usr/bin/env python3
"""findings.py RESULTS.h5 [--shape ilp=4,occ=1,block=256] - recomputes the
numbers behind the README Findings (issue 16) from one results file, each at
a stated launch-shape rule: the fixed shape given (default ILP 4, occupancy 1,
block 256, the shape every size and group count is measured at) and, where a
point was also measured at other shapes, the fastest shape per point, named
as such. Comparisons (Zipf vs uniform, shared vs global, a variant vs its
peer) are made at the same shape. Not a test: a tool for whoever rewrites
the Findings; needs python3 with h5py and numpy (the GPU machine has them).
"""
import argparse
import sys

from pydeps import need

h5py, np = need("h5py", "numpy")  # before counts_h5, which imports numpy

from counts_h5 import table, unreadable  # noqa: E402
from results_attrs import attrs_with_ceilings  # noqa: E402


KEYS = {"ilp": "ilp", "occ": "occupancy_target", "block": "block", "sms": "sm_limit"}


def parse_shape(s):
    out = {}
    for part in s.split(","):
        k, _, v = part.partition("=")
        try:
            out[KEYS[k]] = float(v)
        except (KeyError, ValueError):
            print("findings.py: --shape %s: expected name=value of %s" % (s, ", ".join(KEYS)), file=sys.stderr)
            sys.exit(2)
    return out


def load(path):
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        why = unreadable(path, e)
        print("findings.py: %s: %s" % (path, why), file=sys.stderr)
        sys.exit(2)
    with f:
        if "points" not in f:
            print("findings.py: %s has no /points: not a results file (a profile? wallbench report reads it)" % path,
                  file=sys.stderr)
            sys.exit(2)
        p = table(f, "points")  # counts as floats, NaN not counted, whatever the schema
        attrs = attrs_with_ceilings(f)
    s = lambda col: np.char.decode(p[col].astype("S"), "utf-8", "replace") if p.dtype[col].kind == "S" else p[col]
    cols = {name: s(name) for name in p.dtype.names}
    return cols, attrs


def absent(has, family):
    """True, with a line saying so, when the file has no ok point of the family a section reads."""
    if not has.any():
        print(f"  (no {family} points in this file)")
    return not has.any()


def at_shape(c, shape):
    m = np.ones(len(c["family"]), bool)
    for k, v in shape.items():
        m &= np.isclose(c[k].astype(float), v)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results")
    ap.add_argument("--shape", default="ilp=4,occ=1,block=256")
    a = ap.parse_args()
    shape = parse_shape(a.shape)
    c, attrs = load(a.results)
    ok = c["status"] == "ok"
    fam, var, lay = c["family"], c["variant"], c["layout"]
    t, gbps, n = c["time_median_ms"], c["gbps_model"], c["n"]
    fixed = at_shape(c, shape)
    rule = "launch shape " + a.shape
    dram_read = float(attrs.get("ceiling_dram_read_gbps", np.nan))
    memcpy = float(attrs.get("ceiling_memcpy_gbps", np.nan))
    print(f"{a.results}: {ok.sum()} ok points; fixed rule: {rule}; DRAM read ceiling {dram_read:.0f} GB/s")

    print(f"\n[groupby shared, uniform] GB/s and % of the DRAM read ceiling per G: {rule} | fastest shape per point")
    g = ok & (fam == "groupby")
    if not absent(g, "groupby"):
        g &= n == n[g].max()  # the row count every G is measured at
        print(f"  n = {n[g].max()}")
    for G in sorted(set(c["groups"][g & (var == "shared")])):
        sel = g & (var == "shared") & (lay == "uniform") & (c["groups"] == G)
        fx, allp = sel & fixed, sel
        if not allp.any():
            continue
        i = np.where(allp)[0][np.argmin(t[allp])]
        f_txt = f"{gbps[fx][0]:7.0f} GB/s ({100 * gbps[fx][0] / dram_read:4.1f}%)" if fx.any() else "   (not measured)"
        print(f"  G={G:>8}: {f_txt} | {gbps[i]:7.0f} GB/s ({100 * gbps[i] / dram_read:4.1f}%) "
              f"at ILP {c['ilp'][i]}, occ {c['occupancy_target'][i]:g}, block {c['block'][i]}; note: {c['note'][i][:40]}")

    print(f"\n[groupby Zipf cost] time zipf / uniform - 1 per variant and G, both at {rule}")
    absent(g, "groupby")
    for v in ("shared", "global"):
        for G in sorted(set(c["groups"][g & (var == v)])):
            u = g & (var == v) & (c["groups"] == G) & fixed & (lay == "uniform")
            z = g & (var == v) & (c["groups"] == G) & fixed & (lay == "zipf")
            if u.any() and z.any():
                print(f"  {v:>6} G={G:>8}: uniform {t[u][0]:8.3f} ms, zipf {t[z][0]:8.3f} ms: {100 * (t[z][0] / t[u][0] - 1):+6.1f}%")

    print(f"\n[probe] time per variant by table entries and table bytes, n = 2^28 probes, match 1, {rule}")
    pr = ok & (fam == "probe") & fixed & np.isin(var, ["hash", "direct", "packed"]) & (n == 1 << 28)
    pr &= np.isclose(c["match_rate"].astype(float), 1.0)
    absent(ok & (fam == "probe"), "probe")
    for v in ("hash", "direct", "packed"):
        for i in np.where(pr & (var == v))[0]:
            lf = c["load_factor"][i]
            # hash: 8-byte slots, about entries / load factor of them (micro/probe.c rounds the count)
            tb = c["table_entries"][i] / lf * 8 if v == "hash" else c["table_entries"][i] * (4 if v == "direct" else 1)
            w = c["dram_sectors_write"][i] * 32 / n[i]
            print(f"  {v:>6} entries {c['table_entries'][i]:>10} ({tb / 2**30:7.3f} GiB{f', lf {lf:g}' if v == 'hash' else ''}): "
                  f"{t[i]:7.3f} ms; DRAM writes {w:.3f} B/probe")

    print(f"\n[probe DRAM writes] target < 0.1 B per probe (read-only kernels): worst points")
    pp = ok & (fam == "probe") & np.isin(var, ["hash", "direct", "packed"])
    absent(ok & (fam == "probe"), "probe")
    wpp = c["dram_sectors_write"] * 32 / np.maximum(n, 1)
    for i in np.where(pp)[0][np.argsort(-wpp[pp])][:5]:
        print(f"  {wpp[i]:7.3f} B/probe  {var[i]} entries {c['table_entries'][i]} match {c['match_rate'][i]:g} "
              f"ILP {c['ilp'][i]} occ {c['occupancy_target'][i]:g} (row {c['id'][i]})")

    print(f"\n[transform] GB/s per ILP at occupancy 1, block 256; CUB and cudaMemcpy ({memcpy:.0f} GB/s) at the same n")
    tr = ok & (fam == "transform") & np.isclose(c["occupancy_target"].astype(float), 1) & (c["sm_limit"] <= 0)
    for N in (1 << 26, 1 << 28) if not absent(ok & (fam == "transform"), "transform") else ():
        cub = ok & (fam == "transform") & (var == "cub") & (n == N)
        print(f"  n=2^{int(np.log2(N))}: cub {gbps[cub][0] if cub.any() else float('nan'):.0f} GB/s")
        for v in ("scalar", "vec16"):
            for i in np.where(tr & (var == v) & (n == N) & (c["block"] == 256) & (c["dtype"] == "int32"))[0]:
                print(f"    {v:>6} ILP {c['ilp'][i]:>2}: {gbps[i]:6.0f} GB/s = {gbps[i] / memcpy:.3f} of cudaMemcpy")

    print(f"\n[scan tiled vs direct] ms per selectivity, largest n; {rule} | fastest shape per point")
    sc = ok & (fam == "scan")
    if not absent(sc, "scan"):
        sc &= n == n[sc].max()
    sel = c["selectivity"].astype(float)
    for lay_ in sorted(set(lay[sc])):
        for s_ in sorted(set(sel[sc & (lay == lay_)])):
            cells = {}
            for v in ("tiled", "direct", "direct_sector"):
                m = sc & (lay == lay_) & (var == v) & np.isclose(sel, s_)
                if m.any():
                    fx = t[m & fixed]
                    cells[v] = (fx.min() if len(fx) else np.nan, t[m].min())
            if "tiled" not in cells or "direct" not in cells:
                continue
            (tf, ta), (df, da) = cells["tiled"], cells["direct"]
            print(f"  {lay_} s={s_:<5g} tiled {tf:.3f} | {ta:.3f}  direct {df:.3f} | {da:.3f}  "
                  f"direct / tiled {df / tf:.3f} | {da / ta:.3f}"
                  + (f"  direct_sector {cells['direct_sector'][0]:.3f} | {cells['direct_sector'][1]:.3f}"
                     if "direct_sector" in cells else ""))

    print("\n[time shares] of operator time (every measured point, all shapes)")
    op = ok & (fam != "ceiling") & (t > 0)
    tot = t[op].sum()
    ga = op & (fam == "groupby") & (var == "global")
    print(f"  global-atomic group-by: {100 * t[ga].sum() / tot:.1f}% of operator time")
    waves = c["waves"].astype(float)
    under = op & np.isfinite(waves) & (waves < 1)
    restricted = c["sm_limit"] > 0
    print(f"  below one wave: {100 * t[under].sum() / tot:.2f}% of operator time; without the sm_limit points "
          f"{100 * t[under & ~restricted].sum() / t[op & ~restricted].sum():.2f}%")
    print("  Table 6 shares: wallbench report RESULTS [--shape ...] (memory bandwidth >= 75% row)")

    cp = c["counter_pass_ms"].astype(float)
    tp = c["timing_pass_ms"].astype(float)
    counted = ok & np.isfinite(cp)
    print(f"\n[counters] {counted.sum()} points with counters" + (
          f"; counter pass = {np.nansum(cp[counted]) / np.nansum(tp[counted]):.2f} x timing pass (host time)"
          if counted.any() else ""))
    if "samples_taken" in c:
        st = c["samples_taken"]
        print(f"\n[sampling] samples per point: median {np.median(st[ok]):.0f}, max {st[ok].max()}; stops: "
              + ", ".join(f"{k} {int((c['stop'][ok] == k).sum())}" for k in sorted(set(c["stop"][ok])))
              + f"; throttled samples {int(c['throttled_samples'][ok].clip(0).sum())}; timing pass total "
              f"{np.nansum(tp) / 1e3:.1f} s, counter pass total {np.nansum(cp) / 1e3:.1f} s")
        # The cost of noise-driven sampling (issue 16's +30% budget): the same
        # passes with each point's timing pass scaled to 10 samples, the fixed
        # count before it, from this file alone.
        su = c["setup_ms"].astype(float) if "setup_ms" in c else np.zeros(len(tp))
        took = ok & (st > 0) & np.isfinite(tp)
        ten = tp[took] * 10.0 / st[took]
        whole = np.nansum(tp[took]) + np.nansum(su[took]) + np.nansum(cp[took])
        base = whole - np.nansum(tp[took]) + np.nansum(ten)
        print(f"  timing pass at 10 samples a point (scaled): {np.nansum(ten) / 1e3:.1f} s; timing + set-up + "
              f"counter passes {whole / 1e3:.1f} s against {base / 1e3:.1f} s at 10 samples: "
              f"{100 * (whole / base - 1):+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
