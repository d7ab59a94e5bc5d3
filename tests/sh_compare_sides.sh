#!/usr/bin/env bash
# sh_compare_sides.sh WALLBENCH - `compare` and `check` say what they compared, on committed files
# of every schema the reader takes (the list below, the one place naming them): against the record
# (schema 7), each older file's schema, sweep (same name, other points), board and build (revision,
# CUDA architectures) differences are noted before any verdict, in text and in --json (numbers, not
# strings); check finds results/thresholds.txt itself and names it, refuses a file against itself
# (one path, a link, a copy), and says a full sweep against a quick baseline before its verdict;
# compare of two GPU models says the two GPUs first, with the hardware ratios.
. "$(dirname "$0")/common.sh"
wb=$1
# The committed files this test reads, the one place naming them: the record (schema 7, README's),
# its quick baseline, and schema:file, oldest first (1 required, the others tested where still in the tree)
WB_RECORD=results/h200/20261202T140657Z-c2dfc31.h5
FILES="1:results/h200/20261130T011431Z-0dafc16.h5 2:results/h200/20261201T085547Z-6a899ef.h5
3:results/h200-order/scan-select-groupby.h5 4:results/h200/20261201T111332Z-5280b51.h5
5:results/h200/20261201T122005Z-47c0bec.h5 6:results/h200-contention/alone.h5"
QUICK=results/h200/baseline-quick.h5
cd "$src" || exit 1
echo "time_median_ms 50%" >"$tmp/thr.txt" # one rule every file's families pass (the real file names families)
[ -f "$WB_RECORD" ] || { echo "FAIL: the record $WB_RECORD is not in the tree"; exit 1; }
# before VERDICT TEXT OUT: TEXT is a line of OUT before the first line holding VERDICT
before() { printf '%s\n' "$3" | sed -n "1,/$1/p" | grep -qF -- "$2"; }

for entry in $FILES; do
    schema=${entry%%:*} f=${entry#*:}
    if [ ! -f "$f" ]; then
        [ "$schema" = 1 ] && bad "the schema-1 file $f is not in the tree" || echo "note: schema $schema: $f not in the tree, not tested"
        continue
    fi
    out=$("$wb" compare "$f" "$WB_RECORD" 2>&1) || bad "compare $f record: exit $?"
    before "^summary per family" "NOTE: schema differs: A $schema, B 7" "$out" || bad "compare $f: no schema note before the summary"
    before "^summary per family" "NOTE: build differs: A " "$out" || bad "compare $f: no build note"
    before "^summary per family" ", B c2dfc31, archs 90: " "$out" || bad "compare $f: the build note lacks the record's archs"
    json=$("$wb" compare --json "$f" "$WB_RECORD") || bad "compare --json $f: exit $?"
    printf '%s' "$json" | grep -qF "{\"kind\":\"schema\",\"a\":\"$schema\",\"b\":\"7\"" || bad "compare --json $f: no schema mismatch"
    printf '%s' "$json" | grep -qF "\"schema_version\":$schema," || bad "compare --json $f: schema_version is not the number $schema"
    printf '%s' "$json" | grep -qE '"hardware":\{"a":\{"inst_gips":[0-9.]+,"dram_gbps":[0-9.]+' || bad "compare --json $f: hardware not numbers"
    out=$("$wb" check "$WB_RECORD" --baseline "$f" --thresholds "$tmp/thr.txt" 2>&1); rc=$?
    [ $rc -le 1 ] || bad "check record against $f: exit $rc: $(printf '%s' "$out" | tail -n 2)"
    before "^check with " "NOTE: schema differs: BASE $schema, NEW 7" "$out" || bad "check against $f: no schema note before the verdict"
done
# schema 1 against the record: the same sweep name over other points, and another board
out=$("$wb" compare results/h200/20261130T011431Z-0dafc16.h5 "$WB_RECORD")
before "^summary per family" "NOTE: sweep differs: A full (1434 points, 0 not in the other), B full (2010 points, 576 not in the other)" "$out" ||
    bad "compare 0dafc16 record: no sweep note for one name over other points"
before "^summary per family" "NOTE: board differs: A GPU-19705296" "$out" || bad "compare 0dafc16 record: no board note"

# check's thresholds: results/thresholds.txt by default, named. The quick baseline is of a later build on
# another board: its verdict on the schema-7 record may be either (exit 0 or 1); the notes come first.
verdict='^\(within thresholds\|[0-9]* violation(s):\)'
out=$("$wb" check "$WB_RECORD" --baseline "$QUICK" 2>&1); rc=$?
[ $rc -le 1 ] || bad "check record against the quick baseline: exit $rc"
printf '%s' "$out" | grep -qF "check with $src/results/thresholds.txt (WB_SOURCE_DIR;" || bad "check does not name the default thresholds: $out"
before "$verdict" "NOTE: sweep differs: BASE quick, NEW full" "$out" || bad "a full sweep against a quick baseline is not said before the verdict"
(cd "$tmp" && WB_SOURCE_DIR= "$wb" check "$src/$WB_RECORD" --baseline "$src/$QUICK" 2>&1) | grep -qF "results/thresholds.txt (the " ||
    bad "check outside the tree does not find the source tree's thresholds"
# a file against itself: one path, a link, a copy: refused (exit 2), said
ln -s "$src/$WB_RECORD" "$tmp/link.h5"
cp "$WB_RECORD" "$tmp/copy.h5"
for b in "$WB_RECORD" "$tmp/link.h5" "$tmp/copy.h5"; do
    out=$("$wb" check "$WB_RECORD" --baseline "$b" 2>&1); rc=$?
    [ $rc -eq 2 ] && printf '%s' "$out" | grep -qF "a file checked against itself" && ! printf '%s' "$out" | grep -q "within thresholds" ||
        bad "check record --baseline $b: exit $rc: $out"
done
printf '%s' "$("$wb" compare "$WB_RECORD" "$tmp/copy.h5")" | grep -qF "NOTE: A and B are copies of one run" || bad "compare of a copy does not say so"
# the record predates the quick baseline: said before the verdict
out=$("$wb" check "$WB_RECORD" --baseline "$QUICK")
before "$verdict" "NOTE: NEW (2026-12-02T14:06:57Z) was measured before BASE (2026-12-04T20:21:53Z)" "$out" ||
    bad "check of an older run against a newer baseline does not say so"
# check --json: numbers and units
json=$("$wb" check "$WB_RECORD" --baseline "$QUICK" --json)
for key in '"common_points":787' '"units":{' '"thresholds_from":"WB_SOURCE_DIR"' '"schema_version":7,' '"kind":"sweep"'; do
    printf '%s' "$json" | grep -qF "$key" || bad "check --json lacks $key"
done
finish
