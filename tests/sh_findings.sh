#!/usr/bin/env bash
# sh_findings.sh - harness/tools/findings.py (docs/measuring.md's numbers) on the record: its first
# line counts the record's ok points; a --shape it cannot read and a profile file (no /points) exit 2
# with one line, not a Python traceback. Skipped without python3's h5py and numpy.
. "$(dirname "$0")/common.sh"
tool=$src/harness/tools/findings.py
record=$src/results/h200/20261204T200319Z-4531e1f.h5
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
python3 "$tool" "$record" > "$tmp/out" 2>&1 || bad "findings.py on the record exited $?: $(tail -n 3 "$tmp/out")"
grep -q "^$record: 2460 ok points; fixed rule: launch shape ilp=4,occ=1,block=256" "$tmp/out" || bad "first line: $(head -n 1 "$tmp/out")"
for args in "$record --shape bogus" "$record --shape ilp=x" "$src/results/h200-profile/tpch-both.h5" "$tmp/none.h5"; do
    # shellcheck disable=SC2086
    python3 "$tool" $args > /dev/null 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "findings.py $args: exit $rc, stderr: $(head -n 3 "$tmp/err")"
done
finish
