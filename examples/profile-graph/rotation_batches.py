#!/usr/bin/env python3
"""rotation_batches.py RAW.tsv[.gz] [GROUPS] [--hold W ...] - how many counter batches and changes of
group `wallbench profile --rotate` makes over one program's launches, and how many of the groups
each kernel and launch shape could have it gets, under each rule it has had: each shape takes its
groups in turn, k mod GROUPS (until 2026-12-04); a shape keeps the open batch's group while it has not
had it, else the lowest it lacks (until 2026-12-05); else the next after the active group that it
lacks (harness/profile/inject/rotation.h); and that rule with the group held for at least W
launches, repeats and all (WB_PROFILE_ROTATE_HOLD=W; --rotate's default since 2026-12-05 is
W = 32: give --hold 32 to see it). Reads the launch (L) lines of a counter pass's
raw file (--keep-raw); a batch also ends at 256 ranges (a launch and its L2 flush: two). Every batch
start is a CUPTI Start: 6.56 s of --rotate's 12.1 s added on tpch_like.py; every change of group a
new profiler object (the default since 2026-12-05), ~0.4 s on GH100 (docs/profiling-measured.md). The rules are
rotation.h's, restated here; tests/sh_rotation_replay.sh checks that both count the same.
Exit 2 on bad input (no such file, not a raw file, no launch lines)."""
import argparse
import gzip
import os
import sys


def shapes(path):
    try:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for line in f:
                t = line.rstrip("\n").split("\t")
                if t[0] == "L" and len(t) == 14:
                    yield "%s,%s,%s/%s,%s,%s/%s" % (t[5], t[6], t[7], t[8], t[9], t[10], t[13])
    except (OSError, EOFError, UnicodeDecodeError) as e:
        why = ("a folder, not a raw file" if os.path.isdir(path) else "not a text file (an .h5? give the raw "
               ".tsv[.gz] of --keep-raw)" if isinstance(e, UnicodeDecodeError) else getattr(e, "strerror", None) or e)
        print("rotation_batches.py: %s: %s" % (path, why), file=sys.stderr)
        sys.exit(2)


def pick_in_turn(seen, count, active, keep, n):
    return count % n, seen


def first_lacking(seen, start, n):
    g = start
    while (seen >> g) & 1:
        g = (g + 1) % n
    return g


def pick_lowest(seen, count, active, keep, n):
    if seen & ((1 << n) - 1) == (1 << n) - 1:
        seen = 0
    g = active if active is not None and not (seen >> active) & 1 else first_lacking(seen, 0, n)
    return g, seen | 1 << g


def pick_next(seen, count, active, keep, n):  # rotation.h's wb_rotation_pick
    if seen & ((1 << n) - 1) == (1 << n) - 1:
        seen = 0
    if active is None:
        g = first_lacking(seen, 0, n)
    elif not (seen >> active) & 1 or keep:
        g = active
    else:
        g = first_lacking(seen, (active + 1) % n, n)
    return g, seen | 1 << g


def replay(launches, pick, n, hold=0, batch=256):
    """Batches, changes of group, and the groups each shape had over the groups it could have had."""
    seen, count, got = {}, {}, {}
    active, batches, used, changes, held = None, 0, 0, 0, 0
    for key in launches:
        g, seen[key] = pick(seen.get(key, 0), count.get(key, 0), active, held < hold, n)
        count[key] = count.get(key, 0) + 1
        got.setdefault(key, set()).add(g)
        if active is None or g != active or used + 2 > batch:
            batches, used = batches + 1, 0
        if g != active:
            changes, held = changes + (active is not None), 0
        active, used, held = g, used + 2, held + 1
    had = sum(len(v) for v in got.values())
    possible = sum(min(count[k], n) for k in got)
    return batches, changes, had, possible


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("raw")
    ap.add_argument("groups", nargs="?", type=int, default=18, help="groups (default 18, GH100's)")
    ap.add_argument("--hold", type=int, action="append", default=[], metavar="W",
                    help="also the rule with a group held for W launches (repeatable)")
    a = ap.parse_args()
    if not 1 <= a.groups <= 64 or any(w < 0 for w in a.hold):
        ap.error("GROUPS is 1..64, W >= 0")
    launches = list(shapes(a.raw))
    if not launches:
        ap.exit(2, "rotation_batches.py: no launch lines in %s\n" % a.raw)
    n = a.groups
    print("%d launches, %d kernel shapes, %d groups" % (len(launches), len(set(launches)), n))
    print("%-44s %8s %8s %s" % ("rule", "batches", "changes", "groups had / could have"))
    rules = [("groups in turn per shape (until 2026-12-04)", pick_in_turn, 0),
             ("the lowest lacking (until 2026-12-05)", pick_lowest, 0),
             ("the next lacking (rotation.h)", pick_next, 0)]
    rules += [("the next lacking, held %d launches" % w, pick_next, w) for w in a.hold]
    for name, pick, hold in rules:
        b, c, had, possible = replay(launches, pick, n, hold)
        print("%-44s %8d %8d %d / %d" % (name, b, c, had, possible))


if __name__ == "__main__":
    main()
