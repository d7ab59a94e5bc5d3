#!/usr/bin/env python3
"""modes_summary.py - the overhead and range tables of docs/profiling.md from
one measure_modes.sh folder (needs h5py and numpy for the range check).

  modes_summary.py OUTDIR [--plain STEP] [--per-kernel STEP]

Overhead: each step's process wall time against the plain program's (--plain,
default plain2: the first plain run also fills CuPy's kernel cache), and
whether the program printed the same checksum line as plain (the profiler did
not change it). Without the default plain2 in steps.tsv the overhead table is
left out, said in a line on stderr; a --plain given that names no step exits 2
naming the steps, except in a folder of STEP@K repeats, whose table (below)
does not read --plain: there too the table is left out and said.
Ranges: for each /counted_ranges row of nvtx.h5 and every50.h5,
its instructions against the sum of the same launches' in the per-kernel pass
(--per-kernel, default core; launches matched by seq), where that pass counted
every launch of the range. Sampled: sample.h5's launches (PM samples split by overlap) against the
per-kernel pass's (core-none.h5 where the folder has one: the sampled pass leaves the caches as the
program does), for launches >= 20 sampling intervals long. Repeats: steps run as STEP@K
(plain@1,sample@1,plain@2,...), the median of each round's ratio to plain@K. Markdown on stdout;
exit 2 on bad input (no such folder, no steps.tsv with step, rc, wall_s and checksum columns)."""
import argparse
import csv
import os
import sys

# counts_h5.table: counts as floats, NaN not counted, whatever the profile's version (imported where
# used: it needs numpy, which the steps tables do not)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "tools"))


def die(msg):
    print("modes_summary.py: " + msg, file=sys.stderr)
    sys.exit(2)


def steps(folder):
    path = os.path.join(folder, "steps.tsv")
    if not os.path.isdir(folder):
        die("%s: %s, not a measure_modes.sh folder" % (folder, "a file" if os.path.exists(folder)
                                                        else "no such folder"))
    if not os.path.isfile(path):
        die("%s has no steps.tsv: not a measure_modes.sh folder" % folder)
    try:
        with open(path) as f:
            r = csv.DictReader(f, delimiter="\t")
            rows, cols = list(r), r.fieldnames or []
    except (OSError, UnicodeDecodeError) as e:
        die("%s: %s: not a measure_modes.sh folder" % (path, getattr(e, "strerror", None) or e))
    missing = [c for c in ("step", "rc", "wall_s", "checksum") if c not in cols]
    if missing:
        die("%s has no %s column: not a measure_modes.sh folder%s" % (
            path, ", ".join(missing), " (measure.sh's: examples/profile-tpch/overhead_summary.py reads it)"
            if "log" in cols else ""))
    return rows


def overhead(folder, rows, plain):
    base = next((r for r in rows if r["step"] == plain), None)
    if base is None or base["rc"] != "0":
        die("no successful step %r in %s/steps.tsv" % (plain, folder))
    t0 = float(base["wall_s"])
    print("| step | exit | process s | x %s | output as plain |" % plain)
    print("|---|---|---|---|---|")
    for r in rows:
        same = "-" if base["checksum"] == "-" else ("yes" if r["checksum"] == base["checksum"] else "NO")
        wall = float(r["wall_s"])
        ratio = "%.2fx" % (wall / t0) if r["rc"] == "0" else "-"
        print("| %s | %s | %.2f | %s | %s |" % (r["step"], r["rc"], wall, ratio, same))


def ranges(folder, per_kernel):
    import h5py
    import numpy as np
    from counts_h5 import table
    ref = os.path.join(folder, per_kernel + ".h5")
    if not os.path.exists(ref):
        print("\n(no %s.h5: no range check)" % per_kernel)
        return
    with h5py.File(ref, "r") as f:
        L = table(f, "launches")
    seq, inst = L["seq"], L["inst"]
    for name in ("nvtx", "every50"):
        path = os.path.join(folder, name + ".h5")
        if not os.path.exists(path):
            continue
        with h5py.File(path, "r") as f:
            S = table(f, "counted_ranges") if "counted_ranges" in f else []
        print("\n%s: %d counted ranges against the per-kernel pass (%s.h5)\n" % (name, len(S), per_kernel))
        print("| range | launches | of them counted per kernel | inst (range) | inst (sum of its kernels) | range / sum - 1 |")
        print("|---|---|---|---|---|---|")
        for s in S:
            m = (seq >= s["first_seq"]) & (seq <= s["last_seq"])
            counted = int(np.isfinite(inst[m]).sum())
            k = float(np.nansum(inst[m]))
            # only where the per-kernel pass counted every launch of the range (graph launches it does not)
            rel = "%+.2f%%" % (100 * (s["inst"] / k - 1)) if k > 0 and counted == s["launches"] else "-"
            print("| %s | %d | %d | %.6g | %.6g | %s |" % (s["name"].decode(), s["launches"], counted, s["inst"], k, rel))


def sampled(folder, per_kernel, min_intervals=20):
    """The sampled pass's split against the per-kernel pass, launch by launch (seq), for launches at
    least min_intervals sampling intervals long: instructions and DRAM sectors (read + write)."""
    import h5py
    import numpy as np
    from counts_h5 import table
    # the sampled pass runs with the caches as the program leaves them: against the per-kernel pass
    # with --cache-control none where the folder has one
    if os.path.exists(os.path.join(folder, "core-none.h5")):
        per_kernel = "core-none"
    sp, ref = os.path.join(folder, "sample.h5"), os.path.join(folder, per_kernel + ".h5")
    if not (os.path.exists(sp) and os.path.exists(ref)):
        return
    with h5py.File(sp, "r") as f:
        S, interval = table(f, "launches"), float(f.attrs.get("sample_interval_ns", np.nan))
        names = {int(k["kernel_id"]): k["name"].decode(errors="replace") for k in f["kernels"][:]}
        gaps, idle = f.attrs.get("sample_gaps", -1), f.attrs.get("sample_idle_pct", np.nan)
        nsamp = f.attrs.get("samples", -1)
    with h5py.File(ref, "r") as f:
        K = table(f, "launches")
    by_seq = {int(r["seq"]): r for r in K}
    rows = []
    for r in S:
        k = by_seq.get(int(r["seq"]))
        if k is None or not np.isfinite(r["time_ms"]) or r["time_ms"] * 1e6 < min_intervals * interval:
            continue
        di = r["inst"] / k["inst"] - 1 if k["inst"] > 0 else np.nan
        ds_k = k["dram_sectors_read"] + k["dram_sectors_write"]
        ds = (r["dram_sectors_read"] + r["dram_sectors_write"]) / ds_k - 1 if ds_k > 0 else np.nan
        rows.append((int(r["seq"]), r["time_ms"], di, ds, names.get(int(r["kernel_id"]), "?")))
    print("\nsampled (sample.h5: %d samples of %.0f us, %s gap(s), %.1f%% idle) against the per-kernel pass (%s.h5), "
          "launches >= %d intervals long:\n" % (nsamp, interval / 1e3, gaps, idle, per_kernel, min_intervals))
    if not rows:
        print("(none that long)")
        return
    inst_ok = sum(abs(r[2]) <= 0.05 for r in rows if np.isfinite(r[2]))
    dram_ok = sum(abs(r[3]) <= 0.05 for r in rows if np.isfinite(r[3]))
    print("| launches | instructions within 5% | DRAM sectors within 5% | worst instructions | worst DRAM |")
    print("|---|---|---|---|---|")
    wi = max((abs(r[2]) for r in rows if np.isfinite(r[2])), default=np.nan)
    wd = max((abs(r[3]) for r in rows if np.isfinite(r[3])), default=np.nan)
    print("| %d | %d | %d | %.1f%% | %.1f%% |" % (len(rows), inst_ok, dram_ok, 100 * wi, 100 * wd))
    print("\n| seq | kernel | ms | intervals | instructions sampled / counted - 1 | DRAM sectors sampled / counted - 1 |")
    print("|---|---|---|---|---|---|")
    for seq, ms, di, ds, name in rows:
        print("| %d | %s | %.2f | %.0f | %+.1f%% | %+.1f%% |" % (seq, name[:60], ms, ms * 1e6 / interval, 100 * di, 100 * ds))


def repeats(rows, plain="plain"):
    """Steps run as STEP@K (measure_modes.sh): per STEP the median process time over its repeats
    and, per K, the ratio to plain@K of the same round; the median of those ratios is the cost."""
    import statistics
    runs = {}
    for r in rows:
        name, sep, k = r["step"].partition("@")
        if sep and r["rc"] == "0":
            runs.setdefault(name, {})[k] = float(r["wall_s"])
    if plain not in runs or len(runs) < 2:
        return
    print("\nRepeats (STEP@K, alternated with %s@K): median process time, and the median of each round's ratio\n" % plain)
    print("| step | runs | median s | min s | max s | median of ratios to %s@K |" % plain)
    print("|---|---|---|---|---|---|")
    for name, ks in runs.items():
        w = list(ks.values())
        ratios = [ks[k] / runs[plain][k] for k in ks if k in runs[plain]]
        print("| %s | %d | %.2f | %.2f | %.2f | %s |" % (name, len(w), statistics.median(w), min(w), max(w),
                                                       "%.3fx" % statistics.median(ratios) if ratios else "-"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--plain", help="the step the overhead table is against (default plain2)")
    ap.add_argument("--per-kernel", default="core")
    a = ap.parse_args()
    rows = steps(a.folder)
    names = [r["step"] for r in rows]
    plain = a.plain or "plain2"
    if plain in names:
        overhead(a.folder, rows, plain)
    elif a.plain and not any("@" in n for n in names):
        die("--plain %s: no such step in %s/steps.tsv (its steps: %s)" % (a.plain, a.folder, ", ".join(names)))
    else:
        print("modes_summary.py: no step %s in %s/steps.tsv: the overhead table is left out" % (plain, a.folder),
              file=sys.stderr)
    repeats(rows)
    try:
        ranges(a.folder, a.per_kernel)
        sampled(a.folder, a.per_kernel)
    except ImportError:
        print("\n(no h5py/numpy here: no range check)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
