#!/usr/bin/env bash
# gpu_profile_threads.sh WALLBENCH PROGRAM OUTDIR - `wallbench profile` on a program whose two threads
# launch at once and which forks a child that exits through atexit (tests/profile_threads.c): under
# both passes and under --ranges every:10 it prints what it prints alone and exits 0; the file holds
# every launch, timed, and each launch either has its instructions or says why not (a batch whose
# launches interleaved across threads is said not attributable, never attributed wrongly); the
# forked child wrote nothing into the pass's file (a second copy of its lines is a duplicate seq,
# which the reader refuses). GPU test: exit 77 without a usable GPU.
set -u
wb=$1 prog=$2
out=${3:-$(mktemp -d)}
. "$(dirname "$0")/gpu_skip.sh"
rm -rf "$out" && mkdir -p "$out"
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }
plain=$("$prog" 2> "$out/plain.err") || bad "the program alone exited $?: $(cat "$out/plain.err")"
case "$plain" in *", 0 output(s) differ"*) ;; *) bad "the program alone: $plain" ;; esac
launches=$((2 * 60))
for mode in both every10; do
    args=(--no-ceilings --keep-raw "$out/raw-$mode" -o "$out/$mode.h5")
    [ "$mode" = every10 ] && args+=(--pass counters --ranges every:10)
    got=$("$wb" profile "${args[@]}" -- "$prog" 2> "$out/$mode.log")
    rc=$?
    [ $rc -eq 0 ] || bad "$mode: profile exited $rc: $(tail -n 5 "$out/$mode.log")"
    [ "$got" = "$plain" ] || bad "$mode: the program printed '$got', alone '$plain'"
    grep -q "wallbench profile: $launches launches" "$out/$mode.log" ||
        bad "$mode: not $launches launches: $(grep 'launches:' "$out/$mode.log")"
    n=$(ls "$out/raw-$mode" | grep -c '\.tsv$')
    [ "$mode" = both ] && [ "$n" -ne 2 ] && bad "$mode: $n raw files, expected 2 (the child writes none)"
done
# both passes: every launch timed; counted, or a reason
"$wb" export "$out/both.h5" --table launches --format json -o "$out/launches.json" || bad "export launches"
python3 - "$out/launches.json" "$launches" <<'EOF' || bad "launches of both.h5 (above)"
import json, math, sys
rows = json.load(open(sys.argv[1]))
rows = rows["rows"] if isinstance(rows, dict) else rows
n = int(sys.argv[2])
timed = sum(1 for r in rows if r["time_ms"] is not None and r["time_ms"] > 0)
counted = sum(1 for r in rows if r["inst"] is not None and r["inst"] > 0)
silent = [r["seq"] for r in rows if not (r["inst"] is not None and r["inst"] > 0) and not r["counter_note"]]
print(f"{len(rows)} launches, {timed} timed, {counted} with instructions, {len(rows) - counted} with a reason")
ok = len(rows) == n and timed == n and not silent
if silent: print("launches without instructions nor a reason:", silent[:10])
sys.exit(0 if ok else 1)
EOF
[ $failures -eq 0 ] && echo "gpu_profile_threads: all passed" || echo "gpu_profile_threads: $failures failure(s)"
[ $failures -eq 0 ]
