#!/usr/bin/env bash
# measure_modes.sh - the cost of each mode of `wallbench profile` on one program,
# against the plain program and Nsight Compute, in one GPU session (issue 48's
# overhead table). Run from the repository root on the GPU machine:
#
#   WB=build/h200/wallbench bash examples/profile-graph/measure_modes.sh OUTDIR STEPS -- CMD [ARGS...]
#
# STEPS: a comma-separated list of step names (below), run in that order; STEP@K is
# the K-th repeat of a step (plain@1,sample@1,plain@2,sample@2,...: alternated, so
# that a drift of the machine falls on both). Each
# step is timed as a process (date +%s.%N), its exit code and the program's
# output line that starts with "checksum" (if any) kept in OUTDIR/steps.tsv;
# its log in OUTDIR/<step>.log, its profile file in OUTDIR/<step>.h5. A
# failing step does not stop the rest. No step runs past TOTAL_S (default 540 s).
#   plain, plain2       the program alone (the first also fills CuPy's kernel cache)
#   timing              --pass timing
#   core                --pass counters (the default set and ranges: core, kernel)
#   core-kreplay        the same with kernel replay and the flush in a context of its own
#                       (WB_PROFILE_REPLAY=kernel: what the pass cost before the one-pass path)
#   core-none           --cache-control none
#   core-empty          the flushed L2 emptied too (WB_PROFILE_FLUSH=empty: discard.global.L2), as ncu's
#   nvtx, every50       --ranges nvtx / every:50
#   sample              --sample (PM sampling during the timing pass, no counter pass)
#   roofline, all       --counters roofline / all
#   rotate              --counters all --rotate (every launch one group of the set, in one pass, nothing
#                       replayed; since 2026-12-05 a group held 32 launches, a new profiler object a change)
#   rotate-stale        rotate as it was before those defaults: one profiler object, no hold
#                       (WB_PROFILE_ROTATE_NEW_OBJECT=0 WB_PROFILE_ROTATE_HOLD=0)
#   rotate-kreplay      rotate-stale with each group in kernel replay (WB_PROFILE_REPLAY=kernel), the flush on the stream
#   rotate-hold32       one profiler object, each group kept for at least 32 launches (WB_PROFILE_ROTATE_NEW_OBJECT=0)
#   rotate-new-hold32   the defaults spelled out (WB_PROFILE_ROTATE_HOLD=32 WB_PROFILE_ROTATE_NEW_OBJECT=1)
#   all-k               --counters all -k "$ALL_K" (a few kernels under the full set)
#   both                both passes (the default command)
#   ncu4, ncu7, ncu9, ncu35   Nsight Compute, --cache-control all --clock-control none, with the
#                       4 metrics of the issue, the core set's 7 (before its atomics rows), its 9, the full set (--list-metrics)
#   ncu9-none           ncu with the core set's 9 and --cache-control none (against core-none)
# Environment: WB (required), NCU, WB_OPTS (options of every profile, default --no-ceilings),
# ALL_K (the -k of all-k, default regex:gemm|softmax), TOTAL_S, NCU_EXTRA (more ncu options).
set -u
[ $# -ge 2 ] || { echo "usage: WB=... measure_modes.sh OUTDIR STEPS -- CMD [ARGS]" >&2; exit 2; }
OUT=$1 STEPS=$2
shift 2
[ "${1:-}" = "--" ] && shift
[ $# -ge 1 ] || { echo "measure_modes.sh: no program after --" >&2; exit 2; }
[ -n "${WB:-}" ] || { echo "measure_modes.sh: set WB to the wallbench binary, e.g. WB=build/h200/wallbench" >&2; exit 2; }
[ -x "$WB" ] || { echo "measure_modes.sh: WB=$WB is not an executable" >&2; exit 2; }
IFS=, read -r -a LIST <<< "$STEPS"
# every step name checked before the first runs (the case below is the list; a typo ran nothing and exited 0)
KNOWN=$(awk '/case \$\{s%@\*\} in/ { on = 1; next } on && /^    esac/ { exit }
             on && match($0, /^    [a-z0-9 |-]+\)/) { s = substr($0, 5, RLENGTH - 5); gsub(/[ |]+/, " ", s); printf "%s ", s }' "$0")
for s in "${LIST[@]}"; do
    case " $KNOWN " in *" ${s%@*} "*) ;; *) echo "measure_modes.sh: unknown step '$s': steps are $KNOWN (STEP@K repeats)" >&2; exit 2 ;; esac
done
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
WB_OPTS=${WB_OPTS:---no-ceilings}
ALL_K=${ALL_K:-regex:gemm|softmax}
TOTAL_S=${TOTAL_S:-540}
NCU_EXTRA=${NCU_EXTRA:-}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
T0=$(date +%s.%N)
printf 'step\trc\twall_s\tchecksum\n' > "$OUT/steps.tsv"
# shellcheck disable=SC2206
WBO=($WB_OPTS)
# shellcheck disable=SC2206
NCUX=($NCU_EXTRA)
ncu_metrics() {
    case $1 in
    4) echo smsp__inst_executed.sum,dram__sectors_read.sum,dram__sectors_write.sum,gpu__time_duration.sum ;;
    7) echo smsp__inst_executed.sum,smsp__inst_issued.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors.sum,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum ;;
    9) echo smsp__inst_executed.sum,smsp__inst_issued.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors.sum,lts__t_requests_op_atom.sum,lts__t_requests_op_red.sum,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum ;;
    35) "$WB" profile --counters all --list-metrics ;;
    esac
}
step() {
    local name=$1
    shift
    local left
    left=$(awk -v t="$TOTAL_S" -v s="$T0" -v n="$(date +%s.%N)" 'BEGIN { printf "%d", t - (n - s) }')
    if [ "$left" -lt 5 ]; then
        printf '%s\tdeadline\t0\t-\n' "$name" >> "$OUT/steps.tsv"
        return
    fi
    echo "== $name: $*"
    local t1 t2 rc sum
    t1=$(date +%s.%N)
    timeout --kill-after=10 "$left" "$@" > "$OUT/$name.log" 2>&1
    rc=$?
    t2=$(date +%s.%N)
    sum=$(grep -m1 '^checksum' "$OUT/$name.log" | tr '\t' ' ')
    printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$(awk -v a="$t2" -v b="$t1" 'BEGIN { printf "%.3f", a - b }')" \
        "${sum:--}" >> "$OUT/steps.tsv"
    tail -n 3 "$OUT/$name.log"
}
prof() { # prof NAME [profile options]: one wallbench profile of the program
    local name=$1
    shift
    step "$name" "$WB" profile "${WBO[@]}" --keep-raw "$OUT/raw-$name" -o "$OUT/$name.h5" "$@" -- "${PROG[@]}"
}
PROG=("$@")
for s in "${LIST[@]}"; do
    case ${s%@*} in # STEP@K: the K-th repeat of STEP, its own files (modes_summary.py's repeats table)
    plain | plain2) step "$s" "${PROG[@]}" ;;
    timing) prof "$s" --pass timing ;;
    core) prof "$s" --pass counters ;;
    core-kreplay) WB_PROFILE_REPLAY=kernel prof "$s" --pass counters ;;
    core-none) prof "$s" --pass counters --cache-control none ;;
    core-empty) WB_PROFILE_FLUSH=empty prof "$s" --pass counters ;;
    sample) prof "$s" --sample ;;
    nvtx) prof "$s" --pass counters --ranges nvtx ;;
    every50) prof "$s" --pass counters --ranges every:50 ;;
    roofline) prof "$s" --pass counters --counters roofline ;;
    all) prof "$s" --pass counters --counters all ;;
    rotate) prof "$s" --pass counters --counters all --rotate ;;
    rotate-stale) WB_PROFILE_ROTATE_NEW_OBJECT=0 WB_PROFILE_ROTATE_HOLD=0 prof "$s" --pass counters --counters all --rotate ;;
    rotate-kreplay) WB_PROFILE_REPLAY=kernel WB_PROFILE_ROTATE_NEW_OBJECT=0 WB_PROFILE_ROTATE_HOLD=0 \
        prof "$s" --pass counters --counters all --rotate ;;
    rotate-hold32) WB_PROFILE_ROTATE_HOLD=32 WB_PROFILE_ROTATE_NEW_OBJECT=0 prof "$s" --pass counters --counters all --rotate ;;
    rotate-new-hold32) WB_PROFILE_ROTATE_HOLD=32 WB_PROFILE_ROTATE_NEW_OBJECT=1 prof "$s" --pass counters --counters all --rotate ;;
    all-k) prof "$s" --pass counters --counters all -k "$ALL_K" ;;
    both) prof "$s" ;;
    ncu4 | ncu7 | ncu9 | ncu35)
        step "$s" "$NCU" --metrics "$(ncu_metrics "${s#ncu}")" --cache-control all --clock-control none \
            "${NCUX[@]}" --csv --log-file "$OUT/$s.csv" "${PROG[@]}" ;;
    ncu9-none)
        step "$s" "$NCU" --metrics "$(ncu_metrics 9)" --cache-control none --clock-control none \
            "${NCUX[@]}" --csv --log-file "$OUT/$s.csv" "${PROG[@]}" ;;
    *) echo "measure_modes.sh: unknown step $s" >&2 ;;
    esac
done
cat "$OUT/steps.tsv"
