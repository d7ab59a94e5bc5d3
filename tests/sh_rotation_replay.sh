#!/usr/bin/env bash
# sh_rotation_replay.sh - examples/profile-graph/rotation_batches.py restates --rotate's rule
# (harness/profile/inject/rotation.h) in Python: on the launch shapes of the committed tpch_like.py
# raw file (314 launches) and on 600 made-up launches of 40 shapes, its batches and changes of group
# by rotation.h's rule equal the C rule's (tests/test_rotation KEYS N HOLD), at GH100's 18 groups and
# at 5, each group held for at least 0 and 32 launches.
. "$(dirname "$0")/common.sh"
build=${WB_BUILD_DIR:-$src/build}
tool=$src/examples/profile-graph/rotation_batches.py
c_rule=$build/tests/test_rotation
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
[ -x "$c_rule" ] || { echo "FAIL: $c_rule is not built"; exit 1; }
zcat "$src/results/h200-profile/rotate/tpch-start/counters-rotate.tsv.gz" > "$tmp/tpch.tsv" || bad "the committed raw file"
awk 'BEGIN { srand(7) } { }
     END { print "# wallbench-raw 1 pass=counters pid=1 ppid=1"
           for (i = 0; i < 600; i++) { s = int(rand() * 40)
             printf "L\t%d\t%d\t0\t1\t%d\t1\t1\t128\t1\t1\t0\t\tk%d\n", i, i + 1, 64 + s % 3, s } }' /dev/null > "$tmp/made.tsv"
for raw in "$tmp/tpch.tsv" "$tmp/made.tsv"; do
    # the shapes as rotation_batches.py keys them: grid, block and name of each L line of 14 fields
    awk -F'\t' '$1 == "L" && NF == 14 { printf "%s,%s,%s/%s,%s,%s/%s\n", $6, $7, $8, $9, $10, $11, $14 }' "$raw" > "$tmp/keys"
    [ -s "$tmp/keys" ] || bad "$(basename "$raw"): no launch lines"
    for n in 18 5; do
        for hold in 0 32; do
            if [ "$hold" = 0 ]; then
                py=$(python3 "$tool" "$raw" "$n" | sed -n 's/^the next lacking (rotation.h) *\([0-9]*\) *\([0-9]*\) .*/\1 \2/p')
            else
                py=$(python3 "$tool" "$raw" "$n" --hold "$hold" | sed -n "s/^the next lacking, held $hold launches *\([0-9]*\) *\([0-9]*\) .*/\1 \2/p")
            fi
            c=$("$c_rule" "$tmp/keys" "$n" "$hold")
            [ -n "$py" ] && [ "$py" = "$c" ] || bad "$(basename "$raw"), $n groups, held $hold: Python '$py' (batches, changes), C '$c'"
        done
    done
done
# the numbers docs/profiling-measured.md quotes: on the tpch_like.py raw file, 82 batches by the
# lowest lacking, 72 by the next, 10 held 32 launches
out=$(python3 "$tool" "$tmp/tpch.tsv" --hold 32)
for want in "lowest lacking (until 2026-12-05) *82 " "(rotation.h) *72 " "held 32 launches *10 "; do
    printf '%s\n' "$out" | grep -q -- "$want" || bad "rotation_batches.py on the tpch raw file: no '$want'"
done
finish
