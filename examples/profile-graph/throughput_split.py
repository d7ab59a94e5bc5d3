#!/usr/bin/env python3
"""throughput_split.py - why a profile's DRAM throughput (% of peak over the range's elapsed time)
differs from Nsight Compute's on the same launches: the column is (sectors read + written) x 32 /
time over the peak, so per launch its ratio to ncu's should equal the ratio of (read + write
sectors) / time, and the remaining question is which of reads, writes or time differs.

  throughput_split.py --profile P.h5 --ncu N.csv[.gz] [--min-pct 1]

Launches are matched as harness/profile/ncu_compare.py matches them; judged are those where the
profile has dram_throughput_pct (a --rotate run holds it in group 1's launches) and ncu's is at
least --min-pct. Prints: how many; the range of ours / ncu's; the largest difference between that
ratio and the ratio of (read + write sectors) / time; the median ratio of reads and of times; the
writes summed on each side. Needs numpy and h5py. Exit 0, or 2 on bad input."""
import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "profile"))
import ncu_compare as nc  # noqa: E402  (the reader and the matching of ncu_compare.py)
from writes_agreement import read_ncu  # noqa: E402  (.gz logs)

# profile column: ncu metric
PAIRS = {"dram_throughput_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
         "dram_sectors_read": "dram__sectors_read.sum",
         "dram_sectors_write": "dram__sectors_write.sum",
         "kernel_time_ms": "gpu__time_duration.sum"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", required=True, help="a wallbench profile file")
    ap.add_argument("--ncu", required=True, help="ncu's --csv log of the same program with the four metrics above")
    ap.add_argument("--min-pct", type=float, default=1.0, help="judge launches where ncu's DRAM throughput is at least this")
    a = ap.parse_args()
    nc.at_least_zero(("--min-pct", a.min_pct))
    prof = nc.read_profile(a.profile, list(PAIRS))
    ncu = read_ncu(a.ncu)
    pairs, _, _ = nc.match(prof, ncu, nc.Names(ncu), lambda msg: None)
    rows = []
    for p, n in pairs:
        if not all(m in n.values for m in PAIRS.values()):
            continue
        theirs = {c: nc.in_column_unit(*n.values[m], c) for c, m in PAIRS.items()}
        ours = p.values
        if not all(math.isfinite(ours[c]) for c in PAIRS) or theirs["dram_throughput_pct"] < a.min_pct:
            continue
        if ours["kernel_time_ms"] <= 0 or theirs["kernel_time_ms"] <= 0 or theirs["dram_sectors_read"] <= 0:
            continue
        rate = lambda v: (v["dram_sectors_read"] + v["dram_sectors_write"]) / v["kernel_time_ms"]  # noqa: E731
        rows.append((ours["dram_throughput_pct"] / theirs["dram_throughput_pct"], rate(ours) / rate(theirs),
                     ours["dram_sectors_read"] / theirs["dram_sectors_read"],
                     ours["kernel_time_ms"] / theirs["kernel_time_ms"],
                     ours["dram_sectors_write"], theirs["dram_sectors_write"]))
    if not rows:
        nc.die("no launch with dram_throughput_pct in --profile %s and ncu's DRAM throughput >= %g%% in --ncu %s"
               % (a.profile, a.min_pct, a.ncu))
    print("%d launches with our DRAM throughput and ncu's >= %g%%" % (len(rows), a.min_pct))
    print("ours / ncu's DRAM throughput: %.3f to %.3f, median %.3f"
          % (min(r[0] for r in rows), max(r[0] for r in rows), statistics.median(r[0] for r in rows)))
    print("largest |that ratio - ratio of (read + write sectors) / time|: %.4f" % max(abs(r[0] - r[1]) for r in rows))
    print("median ratio of reads %.4f, of times %.4f; writes summed: ours %.0f, ncu's %.0f sectors"
          % (statistics.median(r[2] for r in rows), statistics.median(r[3] for r in rows),
             sum(r[4] for r in rows), sum(r[5] for r in rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
