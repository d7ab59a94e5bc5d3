#!/usr/bin/env bash
# gpu_plugin_modes.sh WALLBENCH PLUGIN OUTDIR - the example plugin's test sweep
# with --ncu and --summary-json (CTest, GPU; 77 without one): exit 0, every
# point ok and verified, exactly one sample per point (--ncu: one timed
# launch, no warm-up), the summary agreeing with the file (16 points, none
# failed, counters off because of --ncu), the CSV export one row per point.
set -u
wb=$1 plugin=$2 out=$3
. "$(dirname "$0")/gpu_skip.sh"
rm -rf "$out" && mkdir -p "$out"
"$wb" run --plugin "$plugin" --family hashprobe --sweep test --ncu --summary-json "$out/summary.json" --out "$out" ||
    { echo "FAIL: run --ncu exited $?"; exit 1; }
h5=$(ls "$out"/*.h5 | head -n 1)
"$wb" export "$h5" --points --format csv -o "$out/points.csv" || exit 1
"$wb" export "$h5" --samples --format csv -o "$out/samples.csv" || exit 1
fail=0
rows=$(($(wc -l <"$out/points.csv") - 1)) samples=$(($(wc -l <"$out/samples.csv") - 1))
[ "$rows" -eq 16 ] || { echo "FAIL: $rows rows, expected 16"; fail=1; }
[ "$samples" -eq 16 ] || { echo "FAIL: $samples samples, expected one per point"; fail=1; }
grep -q '"points":{"ok":16,"skipped":0,"failed":0,"rows":16}' "$out/summary.json" ||
    { echo "FAIL: summary points:"; grep -o '"points":{[^}]*}' "$out/summary.json"; fail=1; }
grep -q '"warnings":\["counters off (--ncu)"' "$out/summary.json" || { echo "FAIL: summary lacks the --ncu note"; fail=1; }
grep -qF "\"results_file\":\"$h5\"" "$out/summary.json" || { echo "FAIL: summary names another file"; fail=1; }
python3 - "$out/points.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = [r["name"] for r in rows if r["verified"] != "1" or r["status"] != "ok" or r["reps"] != "1"]
print("FAIL: not ok, verified and one sample: %s" % bad if bad else "every row ok, verified, one sample")
sys.exit(1 if bad else 0)
PY
[ $fail -eq 0 ] && echo "--ncu and --summary-json: as expected"
exit $fail
