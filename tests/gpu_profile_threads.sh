#!/usr/bin/env bash
# gpu_profile_threads.sh WALLBENCH PROGRAM OUTDIR - `wallbench profile` on a program whose two threads
# launch at once and which forks a child that exits through atexit (tests/profile_threads.c): under
# both passes and under --ranges every:10 it prints what it prints alone and exits 0; the file holds
# every launch, timed and counted (the counter pass lets one launch call at a time run, so the
# threads' launches keep their own counts: the two threads' launch shapes differ, so do their
# counts, and each shape's counted launches must agree); every:10's ranges hold every launch; the forked child wrote nothing into the pass's file
# (a second copy of its lines is a duplicate seq, which the reader refuses). With "reset" the
# main thread launches 10 times alone, destroys its context, and launches 10 more times in a new
# one (--batch 8: 4 launches a batch, so its last 6 launches before the reset are in batches of
# their own, the last one open at the reset): every launch is still timed, those 6 have their
# instructions, so have the threads', those after the reset say why not. Each
# pass's board (both) was read and saw no process but the program's (the test's GPU is its own).
# GPU test: exit 77 without a usable GPU.
. "$(dirname "$0")/common.sh"
wb=$1 prog=$2
out=${3:-$(mktemp -d)}
. "$(dirname "$0")/gpu_skip.sh"
rm -rf "$out" && mkdir -p "$out"
plain=$("$prog" 2> "$out/plain.err") || bad "the program alone exited $?: $(cat "$out/plain.err")"
case "$plain" in "profile_threads: "*", 0 output(s) differ"*) ;; *) bad "the program alone: $plain" ;; esac
plain_reset=$("$prog" reset 2> "$out/plain-reset.err") || bad "the program alone, reset, exited $?: $(cat "$out/plain-reset.err")"
case "$plain_reset" in *"10 launches alone, a context reset, 10 launches in a new one: 0 and 0 output(s) differ"*) ;;
    *) bad "reset alone: $plain_reset" ;; esac
launches=$((2 * 60))
for mode in both every10 reset; do
    args=(--no-ceilings --keep-raw "$out/raw-$mode" -o "$out/$mode.h5")
    [ "$mode" = every10 ] && args+=(--pass counters --ranges every:10)
    want=$plain prog_args=()
    [ "$mode" = reset ] && want=$plain_reset prog_args=(reset) args+=(--batch 8)
    # a hang (the profiler's lock against a thread inside its launch) ends at 50 s, the program too
    timeout --kill-after=5 50 "$wb" profile "${args[@]}" -- "$prog" "${prog_args[@]}" > "$out/$mode.out" 2> "$out/$mode.log"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then bad "$mode: hung, killed after 50 s: $(tail -n 5 "$out/$mode.log")"
    elif [ $rc -ne 0 ]; then bad "$mode: profile exited $rc: $(tail -n 5 "$out/$mode.log")"; fi
    got=$(grep '^profile_threads:' "$out/$mode.out") # the profiler's own summary follows on stdout
    [ "$mode" = every10 ] || want=$(printf '%s\n%s' "$want" "$want") # both passes: the program runs twice
    [ "$got" = "$want" ] || bad "$mode: the program printed '$got', alone '$want'"
    n=$(ls "$out/raw-$mode" | grep -cE '^(timing|counters)\.[0-9]+\.tsv$') # not the watch.<pass>.tsv files
    [ "$n" -eq $([ "$mode" = every10 ] && echo 1 || echo 2) ] || bad "$mode: $n raw files (the child must write none)"
done
grep -q "wallbench profile: $launches launches" "$out/both.log" ||
    bad "both: not $launches launches: $(grep 'launches:' "$out/both.log")"
# both passes: every launch timed; counted, or the counter pass's own reason (not the bare default),
# never another launch's counts (one instruction count per launch shape);
# every:10: the counted ranges hold every launch, each range with instructions
"$wb" export "$out/both.h5" --table launches --format json -o "$out/launches.json" || bad "export launches"
"$wb" export "$out/every10.h5" --table counted_ranges --format json -o "$out/ranges.json" || bad "export ranges"
"$wb" export "$out/reset.h5" --table launches --format json -o "$out/reset.json" || bad "export reset"
python3 - "$out/launches.json" "$out/ranges.json" "$launches" "$out/reset.json" <<'EOF' || bad "the files' rows (above)"
import json, sys
def load(path):  # a mode whose profile or export failed (said above) leaves the others' checks
    try:
        return json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"cannot read {path}: {e}")
        return {"rows": [], "provenance": {}}
both_file = load(sys.argv[1])
rows = both_file["rows"]
ranges = load(sys.argv[2])["rows"]
n = int(sys.argv[3])
reset = sorted(load(sys.argv[4])["rows"], key=lambda r: r["seq"])
has = lambda r: r["inst"] is not None and r["inst"] > 0
timed = sum(1 for r in rows if r["time_ms"] is not None and r["time_ms"] > 0)
counted = sum(1 for r in rows if has(r))
silent = [r["seq"] for r in rows if not has(r) and r["counter_note"] in ("", "not counted")]
print(f"both: {len(rows)} launches, {timed} timed, {counted} with instructions, {len(rows) - counted} with a reason:",
      sorted({r["counter_note"] for r in rows if not has(r)}))
in_ranges = sum(r["launches"] for r in ranges)
print(f"every:10: {len(ranges)} ranges holding {in_ranges} launches, {sum(1 for r in ranges if has(r))} with instructions")
ok = len(rows) == n and timed == n and counted == n and in_ranges == n and all(has(r) for r in ranges)
# a launch given another's counts: the threads' kernels differ in launch shape, so their instruction
# counts differ, and each launch of one shape counts the same: a shape with two counts is a mix-up
def one_count_per_shape(rows, label):
    per = {}
    for r in rows:
        if has(r):
            per.setdefault((r["grid_x"], r["block_x"]), set()).add(r["inst"])
    print(f"{label}: instructions of the counted launches, per launch shape:", {k: sorted(v) for k, v in per.items()})
    return all(len(v) == 1 for v in per.values())
ok = one_count_per_shape(rows, "both") and ok
if silent: print("launches without instructions nor a reason:", silent[:10])
# the board during each pass (watch.h): NVML read, no process on the test's GPU but the program
# (a slowdown left by an earlier heavy test is the board's, not a fault of the watch)
prov = both_file["provenance"]
for k in ("timing_pass_board", "counter_pass_board"):
    v = str(prov.get(k, ""))
    print(f"{k}: {v}")
    ok = ok and v.startswith(("undisturbed: ", "disturbed: ")) and "no other process on it (by " in v
# reset: the threads' launches counted or with a reason; the main thread's last 6 before the reset
# (batches of their own, the last decoded as the context ended) counted; the new context's not
threads, alone, after = reset[:n], reset[n:n + 10], reset[n + 10:]
r_timed = sum(1 for r in reset if r["time_ms"] is not None and r["time_ms"] > 0)
r_silent = [r["seq"] for r in threads + alone if not has(r) and r["counter_note"] in ("", "not counted")]
r_alone = [r["seq"] for r in alone[4:] if has(r)]
r_after = [r for r in after if not has(r) and "destroyed" in r["counter_note"]]
r_threads = sum(1 for r in threads if has(r))
print(f"reset: {len(reset)} launches, {r_timed} timed, {r_threads} of the threads' {n} with instructions; "
      f"of the 10 launched alone before the reset, "
      f"{sum(1 for r in alone if has(r))} with instructions ({len(r_alone)} of the last 6); {len(r_after)} of "
      f"{len(after)} after it saying the context was destroyed")
if len(r_alone) < 6: print("the last launches before the reset:", [(r["seq"], r["counter_note"]) for r in alone])
ok = (ok and len(reset) == n + 20 and r_timed == n + 20 and r_threads == n and not r_silent and len(r_alone) == 6
      and len(r_after) == 10 and one_count_per_shape(reset, "reset"))
sys.exit(0 if ok else 1)
EOF
finish
