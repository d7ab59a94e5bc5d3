#!/usr/bin/env bash
# sh_writes_after.sh WALLBENCH - a kernel's DRAM writes after its range (issue 48 target 6) without a
# GPU: the committed counter pass of graph_steps.py (results/h200-profile/modes-af6c05e/graph, its raw
# file) rebuilt with `wallbench profile --from-raw` has dram_sectors_write_after on every counted
# launch but the last, and examples/profile-graph/writes_after.py gives the numbers docs/profiling-measured.md
# quotes: 4,084,392 sectors written inside the 680 ranges, 188,177,352 written back after them, ncu's
# count between ours and ours plus those on 334 of 349 launches; `wallbench report` says the same in
# one line, and none for a profile without the column (schema 5), which writes_after.py refuses
# (exit 2). Skipped without python3's h5py and numpy.
. "$(dirname "$0")/common.sh"
wb=$1
tool=$src/examples/profile-graph/writes_after.py
d=$src/results/h200-profile/modes-af6c05e/graph
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
mkdir -p "$tmp/raw" && zcat "$d/counters-core.tsv.gz" > "$tmp/raw/counters.1.tsv"
"$wb" profile --from-raw "$tmp/raw" --no-ceilings -o "$tmp/core.h5" > "$tmp/rebuild.log" 2>&1 ||
    bad "--from-raw exited $?: $(tail -n 3 "$tmp/rebuild.log")"
out=$(python3 "$tool" --profile "$tmp/core.h5" --ncu "$d/ncu9.csv.gz" --top 3 2>&1) || bad "exit $?: $out"
has_lines "$out" '680 counted launches with a flush after them: 4084392 sectors written in their ranges, 188177352 written back after them (97.9% of the two)' \
    "ncu's count between ours and ours + the lines written back after it (1% slack): 334 of 349 launches" \
    '| vectorized_elementwise_kernel | (4096, 1, 1) | (128, 1, 1) | 318 | 319584 | 161978480 | 1.00 | 726320 | 2.273 |'
# the report says it once, before its tables
"$wb" report "$tmp/core.h5" > "$tmp/report.txt" 2>&1 || bad "report exited $?"
grep -q '^  DRAM writes: 4084392 sectors inside the 680 counted launches.*188177352 written back after them (97.9%' \
    "$tmp/report.txt" || bad "report: no DRAM-writes line: $(head -n 8 "$tmp/report.txt")"
"$wb" report "$d/core.h5" > "$tmp/report5.txt" 2>&1 || bad "report of a schema-5 file exited $?"
grep -q 'DRAM writes:' "$tmp/report5.txt" && bad "report of a schema-5 file (no such column) has a DRAM-writes line"
out=$(python3 "$tool" --profile "$d/core.h5" 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'no column dram_sectors_write_after' ||
    bad "a schema-5 profile: exit $rc, '$out'"
finish
