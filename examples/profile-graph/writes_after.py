#!/usr/bin/env python3
"""writes_after.py - where a kernel's DRAM writes go (issue 48 target 6): per kernel, the sectors
written inside its counted range (`dram_sectors_write`, what ncu and the counter pass count), the
sectors the L2 flush before the next counted launch wrote back (`dram_sectors_write_after`: the
dirty lines the kernel left in the L2; profile schema 6, `--cache-control all`), and, with --ncu,
Nsight Compute's count of the same launches and which share of the lines written back afterwards
it counted inside the kernel.

  writes_after.py --profile P.h5 [--ncu N.csv[.gz]] [--min 100000] [--top 12]

Kernels are name + launch shape, their launches summed; listed by in-range plus after writes, the
--top largest. With --ncu, launches are matched as harness/profile/ncu_compare.py matches them, and
on launches of >= --min sectors (in range or after) the last lines say how many have ncu's count
between ours and ours plus the lines written back after (1% slack) and the median share
(ncu - ours) / after. Needs numpy and h5py. Markdown on stdout. Exit 0, or 2 on bad input."""
import argparse
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "profile"))
import ncu_compare as nc  # noqa: E402  (the reader and the matching of ncu_compare.py)
from writes_agreement import read_ncu  # noqa: E402  (.gz logs)

COLUMNS = ["dram_sectors_write", "dram_sectors_write_after"]
NCU_METRIC = "dram__sectors_write.sum"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", required=True, help="a wallbench profile file of schema 6 or later")
    ap.add_argument("--ncu", help="ncu's --csv log of the same program with dram__sectors_write.sum")
    ap.add_argument("--min", type=float, default=1e5, help="judge launches with at least this many sectors")
    ap.add_argument("--top", type=int, default=12, help="kernels listed")
    a = ap.parse_args()
    nc.at_least_zero(("--top", a.top))
    prof = nc.read_profile(a.profile, COLUMNS)
    counted = [p for p in prof if not math.isnan(p.values["dram_sectors_write_after"])]
    if not counted:
        nc.die("--profile %s: no launch has dram_sectors_write_after (counted with --cache-control all, "
               "by a build of profile schema 6 or later?)" % a.profile)
    theirs = {}
    if a.ncu:
        ncu = read_ncu(a.ncu)
        pairs, _, _ = nc.match(prof, ncu, nc.Names(ncu), lambda msg: None)
        for p, n in pairs:
            if NCU_METRIC in n.values:
                theirs[id(p)] = nc.in_column_unit(*n.values[NCU_METRIC], "dram_sectors_write")
    names = nc.Names([])
    per = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0])  # launches, in range, after, ncu, launches ncu has
    for p in counted:
        s = per[(names.prof_key(p), p.grid, p.block)]
        s[0] += 1
        s[1] += p.values["dram_sectors_write"]
        s[2] += p.values["dram_sectors_write_after"]
        if id(p) in theirs:
            s[3] += theirs[id(p)]
            s[4] += 1
    print("| kernel | grid | block | launches | written in its range | written back after it | after / (in + after) |"
          + (" ncu | ncu / in range |" if a.ncu else ""))
    print("|---|---|---|---|---|---|---|" + ("---|---|" if a.ncu else ""))
    rows = sorted(per.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))
    for (name, grid, block), (k, inside, after, ncu_w, k_ncu) in rows[:a.top]:
        share = after / (inside + after) if inside + after else math.nan
        line = "| %s | %s | %s | %d | %.0f | %.0f | %.2f |" % (name[:48], grid, block, k, inside, after, share)
        if a.ncu:
            line += " %s | %s |" % ("%.0f" % ncu_w if k_ncu == k else "-",
                                    "%.3f" % (ncu_w / inside) if k_ncu == k and inside else "-")
        print(line)
    inside = sum(v[1] for v in per.values())
    after = sum(v[2] for v in per.values())
    print("\n%d counted launches with a flush after them: %.0f sectors written in their ranges, %.0f written back "
          "after them (%.1f%% of the two)" % (len(counted), inside, after, 100 * after / (inside + after or 1)))
    if a.ncu:
        judged = [p for p in counted if id(p) in theirs and max(p.values["dram_sectors_write"],
                                                                p.values["dram_sectors_write_after"]) >= a.min]
        between = [p for p in judged if 0.99 * p.values["dram_sectors_write"] <= theirs[id(p)]
                   <= 1.01 * (p.values["dram_sectors_write"] + p.values["dram_sectors_write_after"])]
        shares = sorted((theirs[id(p)] - p.values["dram_sectors_write"]) / p.values["dram_sectors_write_after"]
                        for p in judged if p.values["dram_sectors_write_after"] > 0)
        print("ncu's count between ours and ours + the lines written back after it (1%% slack): %d of %d launches of "
              ">= %g sectors" % (len(between), len(judged), a.min))
        if shares:
            print("share of the lines written back after the kernel that ncu counted inside it: median %.3f "
                  "(quartiles %.3f, %.3f)" % (shares[len(shares) // 2], shares[len(shares) // 4],
                                               shares[3 * len(shares) // 4]))


if __name__ == "__main__":
    main()
