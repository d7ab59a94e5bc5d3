#!/usr/bin/env python3
"""rotation_rows.py RAW.tsv[.gz] - which of `wallbench profile --rotate`'s group rows come back
with values, from a counter pass's raw file (--keep-raw): per group, the launches (C lines) that
held it, and per row of the group, how many of those have a value and how many NaN. Also how many
launches of group 0 came after a batch of another group and kept their values: whether a group's
rows depend on the groups counted before it, and which group the first counted launch held (the
first configuration the profiler object was given; issue 48, docs/profiling-measured.md).
A file written since 2026-12-05 names each batch's group ("# batch\tgroup g" before its C lines);
an older one does not, and a launch's group is then the groups of its columns written other than
"nan" (CUPTI's own NaN is written "-nan": 0/0). Exit 2 on bad input (no such file, not a raw file)."""
import gzip
import math
import os
import sys


def raw_lines(path):
    """The raw file's lines; exit 2 with one sentence where it cannot be read as text."""
    try:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            yield from f
    except (OSError, EOFError, UnicodeDecodeError) as e:
        why = ("a folder, not a raw file" if os.path.isdir(path) else "not a text file (an .h5? give the raw "
               ".tsv[.gz] of --keep-raw)" if isinstance(e, UnicodeDecodeError) else getattr(e, "strerror", None) or e)
        print("rotation_rows.py: %s: %s" % (path, why), file=sys.stderr)
        sys.exit(2)


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) != 2:
        print("usage: rotation_rows.py RAW.tsv[.gz]", file=sys.stderr)
        sys.exit(2)
    path = sys.argv[1]
    groups = metrics = None
    held = {}   # group -> launches that held it
    rows = {}   # (group, metric) -> [values, nan]
    other_before = late0 = late0_ok = 0
    first = None  # the groups of the first C line
    batch = None  # the group of the last "# batch" line
    for line in raw_lines(path):
        t = line.rstrip("\n").split("\t")
        if t[0] == "# groups":
            groups = [int(x) for x in t[1:]]
        elif t[0] == "# metrics":
            metrics = t[1:]
        elif t[0] == "# batch" and len(t) == 2 and t[1].startswith("group "):
            batch = int(t[1][6:])
        elif t[0] == "C" and groups and metrics:
            v = t[2:]
            if batch is not None:
                mine = {batch} if batch >= 0 else set()
            else:
                mine = {groups[k] for k, x in enumerate(v) if groups[k] >= 0 and x != "nan"}
            if first is None:
                first = sorted(mine)
            for g in mine:
                held[g] = held.get(g, 0) + 1
                for k, x in enumerate(v):
                    if groups[k] == g:
                        ok = not math.isnan(float(x))
                        rows.setdefault((g, metrics[k]), [0, 0])[0 if ok else 1] += 1
            if 0 in mine and other_before:
                late0 += 1
                late0_ok += all(not math.isnan(float(x)) for k, x in enumerate(v) if groups[k] == 0)
            other_before = other_before or any(g != 0 for g in mine)
    if not groups or not metrics:
        print("rotation_rows.py: %s has no '# groups' line: not a --rotate counter pass" % path, file=sys.stderr)
        sys.exit(2)
    for g in sorted(held):
        cells = ", ".join("%s %d/%d" % (m, ok, ok + bad) for (gg, m), (ok, bad) in sorted(rows.items()) if gg == g)
        print("group %d: %d launches; rows with a value: %s" % (g, held[g], cells))
    print("group 0 after another group's launch: %d launches, %d with every group-0 row a value" % (late0, late0_ok))
    print("the first counted launch held group(s): %s" % ", ".join(str(g) for g in first or []))


if __name__ == "__main__":
    main()
