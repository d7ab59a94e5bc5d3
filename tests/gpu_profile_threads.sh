#!/usr/bin/env bash
# gpu_profile_threads.sh WALLBENCH PROGRAM OUTDIR - `wallbench profile` on a program whose two threads
# launch at once and which forks a child that exits through atexit (tests/profile_threads.c): under
# both passes and under --ranges every:10 it prints what it prints alone and exits 0; the file holds
# every launch, timed, and each launch either has its instructions or the counter pass's reason (a
# batch whose launches interleaved across threads is said not attributable, never attributed
# wrongly); every:10's ranges hold every launch; the forked child wrote nothing into the pass's file
# (a second copy of its lines is a duplicate seq, which the reader refuses). GPU test: exit 77
# without a usable GPU.
set -u
wb=$1 prog=$2
out=${3:-$(mktemp -d)}
. "$(dirname "$0")/gpu_skip.sh"
rm -rf "$out" && mkdir -p "$out"
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }
plain=$("$prog" 2> "$out/plain.err") || bad "the program alone exited $?: $(cat "$out/plain.err")"
case "$plain" in "profile_threads: "*", 0 output(s) differ"*) ;; *) bad "the program alone: $plain" ;; esac
launches=$((2 * 60))
for mode in both every10; do
    args=(--no-ceilings --keep-raw "$out/raw-$mode" -o "$out/$mode.h5")
    [ "$mode" = every10 ] && args+=(--pass counters --ranges every:10)
    "$wb" profile "${args[@]}" -- "$prog" > "$out/$mode.out" 2> "$out/$mode.log"
    rc=$?
    [ $rc -eq 0 ] || bad "$mode: profile exited $rc: $(tail -n 5 "$out/$mode.log")"
    got=$(grep '^profile_threads:' "$out/$mode.out") # the profiler's own summary follows on stdout
    [ "$got" = "$plain" ] || bad "$mode: the program printed '$got', alone '$plain'"
    n=$(ls "$out/raw-$mode" | grep -c '\.tsv$')
    [ "$n" -eq $([ "$mode" = both ] && echo 2 || echo 1) ] || bad "$mode: $n raw files (the child must write none)"
done
grep -q "wallbench profile: $launches launches" "$out/both.log" ||
    bad "both: not $launches launches: $(grep 'launches:' "$out/both.log")"
# both passes: every launch timed; counted, or the counter pass's own reason (not the bare default);
# every:10: the counted ranges hold every launch, each range with instructions
"$wb" export "$out/both.h5" --table launches --format json -o "$out/launches.json" || bad "export launches"
"$wb" export "$out/every10.h5" --table counted_ranges --format json -o "$out/ranges.json" || bad "export ranges"
python3 - "$out/launches.json" "$out/ranges.json" "$launches" <<'EOF' || bad "the files' rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
ranges = json.load(open(sys.argv[2]))["rows"]
n = int(sys.argv[3])
has = lambda r: r["inst"] is not None and r["inst"] > 0
timed = sum(1 for r in rows if r["time_ms"] is not None and r["time_ms"] > 0)
counted = sum(1 for r in rows if has(r))
silent = [r["seq"] for r in rows if not has(r) and r["counter_note"] in ("", "not counted")]
print(f"both: {len(rows)} launches, {timed} timed, {counted} with instructions, {len(rows) - counted} with a reason:",
      sorted({r["counter_note"] for r in rows if not has(r)}))
in_ranges = sum(r["launches"] for r in ranges)
print(f"every:10: {len(ranges)} ranges holding {in_ranges} launches, {sum(1 for r in ranges if has(r))} with instructions")
ok = len(rows) == n and timed == n and not silent and in_ranges == n and all(has(r) for r in ranges)
if silent: print("launches without instructions nor a reason:", silent[:10])
sys.exit(0 if ok else 1)
EOF
[ $failures -eq 0 ] && echo "gpu_profile_threads: all passed" || echo "gpu_profile_threads: $failures failure(s)"
[ $failures -eq 0 ]
