#!/usr/bin/env python3
"""writes_agreement.py - how well runs of one program agree on a counter, launch by launch:
each `wallbench profile` file and each Nsight Compute CSV against every other (issue 48 target 6,
DRAM writes). Answers whether a difference between wallbench and ncu is more than two runs of
either differ from each other.

  writes_agreement.py --profile A.h5 [--profile B.h5 ...] --ncu X.csv[.gz] [--ncu Y.csv ...]
                      [--metric dram__sectors_write.sum=dram_sectors_write] [--min 100000]
                      [--tol 0.01] [--by-kernel]

Every source is matched to the first --ncu as harness/profile/ncu_compare.py matches (launch k
with launch k where the sequences agree, else per kernel). Judged: the launches where every source
has the value and the largest is >= --min. For each pair: launches within --tol, the median signed
difference (first minus second, over the second), the mean absolute one, and the sums' difference.
--by-kernel: per kernel, the first profile's signed difference from the first ncu CSV per launch.
Needs numpy and h5py. Exit 0, or 2 on bad input."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "profile"))
import ncu_compare as nc  # noqa: E402  (the reader and the matching of ncu_compare.py)


def read_ncu(path, option="--ncu"):
    """ncu_compare's reader (.gz logs too), the launches alone; option names the file in messages."""
    return nc.read_ncu(path, option)[0]


def label(path):
    """A source's name in the tables: its folder and file (modes-tpch/core.h5)."""
    return "/".join(os.path.abspath(path).split(os.sep)[-2:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", action="append", default=[], help="a wallbench profile file (repeatable)")
    ap.add_argument("--ncu", action="append", default=[], help="an ncu --csv --page raw log (repeatable)")
    ap.add_argument("--metric", default="dram__sectors_write.sum=dram_sectors_write", help="NCU_METRIC=COLUMN")
    ap.add_argument("--min", type=float, default=1e5, help="judge launches whose largest value is at least this")
    ap.add_argument("--tol", type=float, default=0.01, help="relative tolerance of 'within'")
    ap.add_argument("--by-kernel", action="store_true")
    a = ap.parse_args()
    nc.at_least_zero(("--tol", a.tol))
    if not a.ncu or len(a.profile) + len(a.ncu) < 2:
        nc.die("give at least one --ncu and two sources in all")
    if "=" not in a.metric:
        nc.die("--metric %s: NCU_METRIC=COLUMN" % a.metric)
    metric, column = a.metric.split("=", 1)
    anchor = read_ncu(a.ncu[0])
    names = nc.Names(anchor)
    quiet = lambda msg: None
    # values[source][k]: the source's value for the anchor's k-th launch (NaN: no partner)
    sources, values = [], []
    for path in a.profile:
        pairs, _, _ = nc.match(nc.read_profile(path, [column]), anchor, names, quiet)
        at = {id(n): p.values[column] for p, n in pairs}
        sources.append(label(path))
        values.append([at.get(id(n), float("nan")) for n in anchor])
    for path in a.ncu:
        other = anchor if path == a.ncu[0] else read_ncu(path)
        if len(other) != len(anchor):
            nc.die("--ncu %s has %d launches, %s has %d" % (path, len(other), a.ncu[0], len(anchor)))
        if not any(metric in n.values for n in other):
            nc.die("--ncu %s has no metric %s (--metric %s)" % (path, metric, a.metric))
        sources.append(label(path))
        values.append([n.values[metric][0] if metric in n.values else float("nan") for n in other])
    judged = [k for k in range(len(anchor))
              if all(v[k] == v[k] for v in values) and max(v[k] for v in values) >= a.min]
    if not judged:
        nc.die("no launch has %s >= %g in every source" % (column, a.min))
    print("%s: %d launches judged (every source has it, the largest >= %g); within %g%%" %
          (column, len(judged), a.min, 100 * a.tol))
    print("| first | second | within | median signed | mean abs | sums |")
    print("|---|---|---|---|---|---|")
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            rel = sorted((values[i][k] - values[j][k]) / values[j][k] for k in judged)
            within = sum(abs(r) <= a.tol for r in rel)
            med = rel[len(rel) // 2] if len(rel) % 2 else 0.5 * (rel[len(rel) // 2 - 1] + rel[len(rel) // 2])
            sums = sum(values[i][k] for k in judged) / sum(values[j][k] for k in judged) - 1
            print("| %s | %s | %d of %d | %+.2f%% | %.2f%% | %+.2f%% |" % (
                sources[i], sources[j], within, len(rel), 100 * med, 100 * sum(map(abs, rel)) / len(rel), 100 * sums))
    if a.by_kernel and a.profile:
        first_ncu = len(a.profile)
        print("\nper kernel: %s against %s, signed %% per launch" % (sources[0], sources[first_ncu]))
        by = {}
        for k in judged:
            by.setdefault(names.ncu_key(anchor[k])[:60], []).append(
                100 * (values[0][k] - values[first_ncu][k]) / values[first_ncu][k])
        for name, d in by.items():
            print("  %-60s %s" % (name, " ".join("%+.1f" % x for x in d)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
