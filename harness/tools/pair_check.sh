#!/usr/bin/env bash
# pair_check.sh OUTDIR [RECORD.h5] - issue 49 items 1 and 3 on a GPU, in one command: the atomics'
# ceilings (and the DRAM, L2 and issue ceilings the limiter reads them beside) at the quick sweep,
# then each pair of harness/tools/pairs.tsv profiled form by form as a program
#   wallbench profile --ceilings-from CEILINGS.h5 -- wallbench run --no-counters --family F --variant V
#     --n N --reps 10 --benchmark_filter='^POINT$'
# (POINT: the record's row that pair_check.py plan chose), each profile reported (report --json), and
# the table of predicted against measured gains (pair_check.py table): OUTDIR/pairs.md, pairs.json.
# RECORD defaults to the committed record results/h200/20261204T200319Z-4531e1f.h5; WALLBENCH to
# build/h200/wallbench. Needs python3 with h5py. Exit 2: bad arguments (a RECORD that is no results
# file among them, said before any GPU work); 3: no usable GPU; 1: a step failed (its log named).
set -u -o pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 OUTDIR [RECORD.h5]" >&2; exit 2; }
out=$1
record=${2:-$src/results/h200/20261204T200319Z-4531e1f.h5}
W=${WALLBENCH:-$src/build/h200/wallbench}
tool=$src/harness/tools/pair_check.py
pairs=$src/harness/tools/pairs.tsv
[ -x "$W" ] || { echo "pair_check: no wallbench at $W (make build GPU=h200, or set WALLBENCH)" >&2; exit 2; }
[ -r "$record" ] || { echo "pair_check: no record $record" >&2; exit 2; }
mkdir -p "$out/ceilings" "$out/runs" || exit 2
# the plan first: it reads the record (a file that is no results file is refused there, exit 2) before
# any GPU work
python3 "$tool" plan "$record" "$pairs" > "$out/plan.tsv" || exit $?
fail() { echo "pair_check: $1 failed; see $2" >&2; exit 1; }

t0=$(date +%s)
echo "pair_check: ceilings (atom_global, atom_shared, dram_read, inst_issue, l2_read; quick sweep)"
"$W" run --family ceiling --variant atom_global,atom_shared,dram_read,inst_issue,l2_read --sweep quick \
    --out "$out/ceilings" --summary-json "$out/ceilings/summary.json" > "$out/ceilings/run.log" 2>&1
rc=$?
if [ $rc -eq 3 ]; then # run's "no usable GPU": said here, not only in the log
    echo "pair_check: $(grep -m 1 'no usable GPU' "$out/ceilings/run.log" | sed 's/^wallbench run: //')" >&2
    exit 3
fi
[ $rc -eq 0 ] || fail "the ceiling run" "$out/ceilings/run.log"
ceil=$(ls "$out"/ceilings/*.h5 2>/dev/null | grep -v -- '-projected-' | tail -n 1)
[ -n "$ceil" ] || fail "the ceiling run (no results file)" "$out/ceilings/run.log"

while IFS=$'\t' read -r pair role fam var n name; do
    sweep=
    for s in quick full; do
        names=$("$W" list --names --family "$fam" --variant "$var" --sweep "$s" --n "$n") || exit 1
        if grep -qxF -- "$name" <<< "$names"; then  # not in a pipe: grep -q's early exit would fail it (pipefail)
            sweep=$s
            break
        fi
    done
    [ -n "$sweep" ] || { echo "pair_check: point $name is in no sweep of this build" >&2; exit 1; }
    # Google Benchmark matches the name with /iterations:N/manual_time appended (gbench_shim.cc)
    filter=$(python3 -c 'import re, sys; print("^" + re.escape(sys.argv[1]) + "/iterations:")' "$name")
    log=$out/$pair-$role.log
    echo "pair_check: $pair $role: $name"
    "$W" profile -o "$out/$pair-$role.h5" --ceilings-from "$ceil" -- "$W" run --no-counters --family "$fam" \
        --variant "$var" --sweep "$sweep" --n "$n" --reps 10 --out "$out/runs" "--benchmark_filter=$filter" \
        > "$log" 2>&1 || fail "profile of $pair $role" "$log"
    "$W" report "$out/$pair-$role.h5" --json --top 1000 > "$out/$pair-$role.json" 2>> "$log" || fail "report of $pair $role" "$log"
done < "$out/plan.tsv"

WB_PAIR_CEILINGS=$ceil WB_PAIR_COMMAND="harness/tools/pair_check.sh $* ($("$W" --version 2>/dev/null | head -n 1))" \
    python3 "$tool" table "$record" "$pairs" "$out" || exit $?
echo "pair_check: done in $(($(date +%s) - t0)) s: $out/pairs.md, $out/pairs.json, ceilings $ceil"
