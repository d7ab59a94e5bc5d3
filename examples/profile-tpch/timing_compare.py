#!/usr/bin/env python3
"""timing_compare.py - the kernel times (time_ms) of two `wallbench profile`
files of the same program, launch by launch and per kernel: two timing passes
give the run-to-run spread against which the timing pass's own overhead is
judged (needs numpy and h5py).

  timing_compare.py A.h5 B.h5 [--tol 0.02] [--top 15]

Launches pair by position when both sequences agree on kernel name, grid and
block, else per kernel (the k-th launch of each). Prints the per-launch ratio
B/A (median, share within --tol), the 15 kernels of most time in A with their
summed times, and the summed kernel time of each file.
Exit: 0 when the summed kernel times agree within --tol, 1 when not, 2 bad input."""
import argparse
import math
import os
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "profile"))
from ncu_compare import at_least_zero, base_name, die, read_profile  # noqa: E402  (the same profile-file reader)


def key(p):
    return (p.name, p.grid, p.block)


def pair(a, b):
    if len(a) == len(b) and all(key(x) == key(y) for x, y in zip(a, b)):
        return list(zip(a, b)), "sequence"
    queues = defaultdict(list)
    for y in b:
        queues[key(y)].append(y)
    pairs = []
    for x in a:
        q = queues.get(key(x))
        if q:
            pairs.append((x, q.pop(0)))
    return pairs, "per kernel (the sequences differ: %d and %d launches)" % (len(a), len(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tol", type=float, default=0.02, help="relative tolerance (default 0.02)")
    ap.add_argument("--top", type=int, default=15)
    o = ap.parse_args()
    at_least_zero(("--tol", o.tol), ("--top", o.top))
    a, b = read_profile(o.a, ["time_ms"], None), read_profile(o.b, ["time_ms"], None)
    timed = lambda p: not math.isnan(p.values["time_ms"])
    a, b = [p for p in a if timed(p)], [p for p in b if timed(p)]
    if not a or not b:
        die("%s has no timed launch (time_ms all NaN): was its timing pass run?" % (o.a if not a else o.b))
    pairs, how = pair(a, b)
    print("A %s: %d timed launches; B %s: %d; paired %d, %s" % (o.a, len(a), o.b, len(b), len(pairs), how))
    ratios = sorted(y.values["time_ms"] / x.values["time_ms"] for x, y in pairs if x.values["time_ms"] > 0)
    if ratios:
        within = sum(abs(r - 1) <= o.tol for r in ratios)
        dev = sorted(abs(r - 1) for r in ratios)
        print("per launch B/A: median %.4f, 10%% %.4f, 90%% %.4f; |B/A - 1| median %.4f; %d of %d (%.1f%%) "
              "within %g%%" % (ratios[len(ratios) // 2], ratios[len(ratios) // 10], ratios[(9 * len(ratios)) // 10],
                               dev[len(dev) // 2], within, len(ratios), 100.0 * within / len(ratios), 100 * o.tol))
    per = defaultdict(lambda: [0, 0.0, 0.0])
    for x, y in pairs:
        s = per[key(x)]
        s[0] += 1
        s[1] += x.values["time_ms"]
        s[2] += y.values["time_ms"]
    print("%6s %12s %12s %8s  %s" % ("calls", "A ms", "B ms", "B/A", "kernel grid block"))
    for k, (n, ta, tb) in sorted(per.items(), key=lambda kv: -kv[1][1])[:o.top]:
        short = next(p.short for p in a if key(p) == k) or base_name(k[0])
        print("%6d %12.4f %12.4f %8.4f  %s %s %s" % (n, ta, tb, tb / ta if ta else math.nan, short[:60], k[1], k[2]))
    ta, tb = sum(v[1] for v in per.values()), sum(v[2] for v in per.values())
    ok = ta > 0 and abs(tb / ta - 1) <= o.tol
    print("summed kernel time of the paired launches: A %.4f ms, B %.4f ms, B/A %.4f (%swithin %g%%)"
          % (ta, tb, tb / ta if ta else math.nan, "" if ok else "NOT ", 100 * o.tol))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
