#!/usr/bin/env python3
"""suite_check.py - wallbench profile against the suite's own in-process counters.

  suite_check.py --profile P.h5 --results R.h5 [--out FILE]

P.h5 is `wallbench profile` of `wallbench run --no-counters ...` (the suite run as
any other program), R.h5 the same points run by `wallbench run` with its own
counters (one CUPTI user range per point). For every measured point of R with
exactly one launch per counted range, its instructions per launch must equal
the instructions of every profiled launch of its kernel at the same launch
shape; the profile's launches of that kernel must all count the same. Prints
one line per point and a summary; exit 1 if any point differs or has no
profiled launch, 2 on bad input. Needs h5py and numpy."""
import argparse
import os
import sys

try:
    import h5py
    import numpy as np
except ImportError as exc:  # the GPU machine has them; CI need not
    print("suite_check.py: needs h5py and numpy (%s)" % exc, file=sys.stderr)
    sys.exit(77)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from counts_h5 import table, unreadable  # noqa: E402 (counts as floats, NaN not counted, whatever the version)


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def die(msg):
    print("suite_check.py: " + msg, file=sys.stderr)
    sys.exit(2)


def open_h5(option, path, need, kind):
    """The file of option, open; exit 2 naming it, and what it is, where it is not a kind (need: the tables of one)."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        die("%s %s: %s" % (option, path, unreadable(path, e, "a file")))
    if not all(t in f for t in need):
        what = "a results file" if "points" in f else "a profile file" if "launches" in f else "an HDF5 file"
        die("%s %s: %s, not a %s (no /%s)" % (option, path, what, kind, need[0]))
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--out")
    a = ap.parse_args()
    prof = open_h5("--profile", a.profile, ("launches", "kernels"), "profile file")
    res = open_h5("--results", a.results, ("points",), "results file")
    launches, kernels, points = table(prof, "launches"), table(prof, "kernels"), table(res, "points")
    try:
        out_file = open(a.out, "w") if a.out else None  # before the report: an --out it cannot write, no report
    except OSError as e:
        die("--out %s: %s" % (a.out, e.strerror))
    # Per profiled kernel row: the distinct instruction counts of its counted launches.
    per_kernel = {}
    for kid in np.unique(launches["kernel_id"]):
        inst = launches["inst"][(launches["kernel_id"] == kid) & np.isfinite(launches["inst"])]
        if len(inst):
            per_kernel[int(kid)] = inst
    lines, bad, ok = [], 0, 0
    names = [text(k["name"]) for k in kernels]
    for p in points:
        if text(p["status"]) != "ok" or p["launches"] != 1 or not np.isfinite(p["inst"]):
            continue
        want = float(p["inst"])
        hits = [k for k, inst in per_kernel.items() if np.all(inst == want)]
        close = [k for k, inst in per_kernel.items() if np.any(inst == want)]
        label = "%s/%s n=%d" % (text(p["family"]), text(p["variant"]), p["n"])
        if hits:
            ok += 1
            k = hits[0]
            lines.append("equal    %-40s inst %.0f = %d profiled launch(es) of %s" %
                         (label, want, len(per_kernel[k]), names[k][:60]))
        else:
            bad += 1
            lines.append("DIFFERS  %-40s inst %.0f: %s" % (label, want, "some launches of a kernel equal it, not all"
                                                           if close else "no profiled kernel counts it"))
    lines.append("%d point(s) compared: %d equal, %d differ" % (ok + bad, ok, bad))
    out = "\n".join(lines) + "\n"
    sys.stdout.write(out)
    if out_file:
        with out_file:
            out_file.write(out)
    return 0 if ok and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
