#!/usr/bin/env bash
# gpu_contention.sh WALLBENCH OUTDIR - timing under contention (issue 28): two short `wallbench run`
# started at once on one GPU must flag the points each timed while the other held the GPU (column
# other_processes > 0, a warning in the row's reason, on the console and in --summary-json), and a
# run alone must flag none. GPU test: exit 77 without a usable GPU. Needs python3 (the CSV check).
# The two runs overlap for most of their points (same command, started together); the test asserts
# at least one flagged point in each and prints how many, so a change in overlap shows.
. "$(dirname "$0")/common.sh"
wb=$1
out=${2:-$(mktemp -d)}
. "$(dirname "$0")/gpu_skip.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed (reads the CSV export)"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
# One family, two variants at 2^26: each run takes seconds, and the two overlap for all of them.
args=(run --family transform --variant scalar,vec16 --sweep quick --n 67108864 --no-counters)

# flagged DIR: "<flagged> <points>" of the run's file, from the CSV export
flagged() {
    local h5
    h5=$(ls "$1"/*.h5 2>/dev/null | head -n 1)
    [ -n "$h5" ] || { echo "0 0"; return; }
    "$wb" export "$h5" --points --format csv -o "$1/points.csv" || { echo "0 0"; return; }
    python3 - "$1/points.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = next(c for c in rows[0] if c.split("[")[0] == "other_processes")
ok = [r for r in rows if r[next(c for c in r if c.split("[")[0] == "status")] == "ok"]
print(sum(int(r[col]) > 0 for r in ok), len(ok))
PY
}

# two at once
"$wb" "${args[@]}" --out "$out/a" --summary-json "$out/a.json" >"$out/a.log" 2>&1 &
pa=$!
"$wb" "${args[@]}" --out "$out/b" --summary-json "$out/b.json" >"$out/b.log" 2>&1 &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] || bad "the concurrent runs exited $ra and $rb (logs: $out/a.log, $out/b.log)"
for s in a b; do
    read -r n total <<< "$(flagged "$out/$s")"
    echo "run $s (beside the other): $n of $total points flagged"
    [ "$n" -ge 1 ] || bad "run $s: no point flagged although the other run held the GPU"
    grep -q "other process(es) held the GPU around the samples" "$out/$s.log" || bad "run $s: no console warning"
    grep -q "point(s) were timed while other processes held the GPU" "$out/$s.log" || bad "run $s: no end-of-run warning"
    grep -q "timed while other processes held the GPU" "$out/$s.json" || bad "run $s: no warning in --summary-json"
done

# alone
"$wb" "${args[@]}" --out "$out/alone" >"$out/alone.log" 2>&1 || bad "the lone run failed (log: $out/alone.log)"
read -r n total <<< "$(flagged "$out/alone")"
echo "run alone: $n of $total points flagged"
[ "$total" -ge 1 ] || bad "the lone run stored no ok point"
[ "$n" -eq 0 ] || bad "the lone run flagged $n points (another process on this GPU? nvidia-smi)"
! grep -q "held the GPU" "$out/alone.log" || bad "the lone run warned of contention"
finish
