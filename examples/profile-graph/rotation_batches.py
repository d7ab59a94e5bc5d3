#!/usr/bin/env python3
"""rotation_batches.py RAW.tsv[.gz] [GROUPS] - how many counter batches `wallbench profile --rotate`
starts over one program's launches, under the rule it used until 2026-12-04 (each kernel and launch
shape takes its groups in turn, k mod GROUPS) and under harness/profile/inject/rotation.h's (a shape
keeps the open batch's group while it has not had it). Reads the launch (L) lines of a counter pass's
raw file (--keep-raw); a batch also ends at 256 ranges (a launch and its L2 flush: two). Every batch
start is a CUPTI Start: 6.56 s of --rotate's 12.1 s added on tpch_like.py (docs/profiling-measured.md).
The rule is rotation.h's, restated here; tests/sh_rotation_replay.sh checks that both count the same."""
import gzip
import sys


def shapes(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            t = line.rstrip("\n").split("\t")
            if t[0] == "L" and len(t) == 14:
                yield "%s,%s,%s/%s,%s,%s/%s" % (t[5], t[6], t[7], t[8], t[9], t[10], t[13])


def pick_in_turn(state, key, active, n):
    k = state.get(key, 0)
    state[key] = k + 1
    return k % n


def pick_keep_active(state, key, active, n):  # rotation.h's wb_rotation_pick
    full = (1 << n) - 1
    seen = state.get(key, 0)
    if seen & full == full:
        seen = 0
    if active is not None and 0 <= active < n and not (seen >> active) & 1:
        g = active
    else:
        g = 0
        while (seen >> g) & 1:
            g += 1
    state[key] = seen | 1 << g
    return g


def batches(launches, pick, n, batch=256):
    state, active, count, used = {}, None, 0, 0
    for key in launches:
        g = pick(state, key, active, n)
        if active is None or g != active or used + 2 > batch:
            count, used = count + 1, 0
        active, used = g, used + 2
    return count


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: rotation_batches.py RAW.tsv[.gz] [GROUPS (default 18, GH100's)]")
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 18
    launches = list(shapes(sys.argv[1]))
    if not launches:
        sys.exit("rotation_batches.py: no launch lines in %s" % sys.argv[1])
    print("%d launches, %d kernel shapes, %d groups" % (len(launches), len(set(launches)), n))
    print("batches, groups in turn per shape:      %d" % batches(launches, pick_in_turn, n))
    print("batches, the open batch's group kept:   %d" % batches(launches, pick_keep_active, n))


if __name__ == "__main__":
    main()
