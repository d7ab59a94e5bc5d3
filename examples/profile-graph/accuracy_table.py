#!/usr/bin/env python3
"""accuracy_table.py - docs/profiling.md's accuracy table: `wallbench profile` files against Nsight
Compute on the same program, launch by launch, one column a pair, one row a counter.

  accuracy_table.py --pair LABEL=PROFILE.h5:NCU.csv[.gz] [--pair ...] [--min 100000] [--tol 0.01]

Launches are matched as harness/profile/ncu_compare.py matches them (launch k with launch k where
the sequences agree, else in program order around what one side lacks, such as ncu's graph nodes,
else per kernel). Rows: instructions equal (smsp__inst_executed.sum = inst),
and within --tol for instructions and, on launches of >= --min sectors, DRAM sectors read and
written and L2 sectors (lts__t_sectors.sum = l2_sectors); each cell "k of n, summed +x.xx%" (the
profile's sum over every launch both counted, of any size, against ncu's). A counter the CSV lacks
is "-". Needs numpy
and h5py. Markdown on stdout. Exit 0, or 2 on bad input."""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "profile"))
import ncu_compare as nc  # noqa: E402  (the reader and the matching of ncu_compare.py)
from writes_agreement import read_ncu  # noqa: E402  (.gz logs)

# (row label, ncu metric, profile column, tolerance: None = --tol, judged from --min: sectors only)
ROWS = [("instructions equal", "smsp__inst_executed.sum", "inst", 0.0, False),
        ("instructions within {tol}", "smsp__inst_executed.sum", "inst", None, False),
        ("DRAM sectors read within {tol}", "dram__sectors_read.sum", "dram_sectors_read", None, True),
        ("DRAM sectors written within {tol}", "dram__sectors_write.sum", "dram_sectors_write", None, True),
        ("L2 sectors within {tol}", "lts__t_sectors.sum", "l2_sectors", None, True)]


def cell(pairs, metric, column, tol, minimum):
    """'k of n, summed +x%': k of the n launches whose larger value is >= minimum within tol (a launch
    ncu counted and the profile did not is judged and not within), and the profile's sum over every
    launch both counted against ncu's; None where no launch has the value."""
    judged = within = 0
    ps = ns = 0.0
    for p, n in pairs:
        pv = p.values[column]
        nv = nc.in_column_unit(*n.values.get(metric, (math.nan, "")), column)
        if math.isnan(nv):
            continue
        if math.isnan(pv):
            judged += abs(nv) >= minimum
            continue
        ps, ns = ps + pv, ns + nv
        big = max(abs(pv), abs(nv))
        if big < minimum:
            continue
        judged += 1
        within += (pv == nv) if tol == 0 else (big == 0 or abs(pv - nv) / big <= tol)
    if not judged:
        return None
    return "%d of %d, summed %+.2f%%" % (within, judged, 100 * (ps / ns - 1) if ns else 0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pair", action="append", default=[], help="LABEL=PROFILE.h5:NCU.csv[.gz] (repeatable)")
    ap.add_argument("--min", type=float, default=1e5, help="judge sector counts of launches at least this large")
    ap.add_argument("--tol", type=float, default=0.01, help="relative tolerance of 'within'")
    a = ap.parse_args()
    nc.at_least_zero(("--tol", a.tol))
    if not a.pair:
        nc.die("give at least one --pair LABEL=PROFILE.h5:NCU.csv")
    columns, quiet = sorted({r[2] for r in ROWS}), (lambda msg: None)
    heads, cells = [], []
    for spec in a.pair:
        label, eq, files = spec.partition("=")
        prof, colon, csv = files.rpartition(":")
        if not (eq and colon and label and prof and csv):
            nc.die("--pair %r: LABEL=PROFILE.h5:NCU.csv" % spec)
        for path in (prof, csv):
            if not os.path.isfile(path):
                nc.die("--pair %s: %s: %s" % (label, path, "a folder, not a file" if os.path.isdir(path)
                                              else "no such file"))
        ncu = read_ncu(csv, "--pair %s:" % label)
        pairs, _, _ = nc.match(nc.read_profile(prof, columns, "--pair %s:" % label), ncu, nc.Names(ncu), quiet)
        heads.append("%s (%d launches matched)" % (label, len(pairs)))
        cells.append([cell(pairs, m, c, a.tol if t is None else t, a.min if sectors else 0.0)
                      for _, m, c, t, sectors in ROWS])
    tol = "%g%%" % (100 * a.tol)
    print("| counter (sectors: launches >= %g) | %s |" % (a.min, " | ".join(heads)))
    print("|---|%s" % ("---|" * len(heads)))
    for r, (name, *_rest) in enumerate(ROWS):
        print("| %s | %s |" % (name.format(tol=tol), " | ".join(c[r] or "-" for c in cells)))


if __name__ == "__main__":
    main()
