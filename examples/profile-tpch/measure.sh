#!/usr/bin/env bash
# measure.sh - `wallbench profile` against the plain program and Nsight Compute
# on tpch_like.py, side by side in one GPU session (issue 27's accuracy and
# overhead numbers). Run from the repository root on the GPU machine:
#
#   WB=build/h200/wallbench bash examples/profile-tpch/measure.sh OUTDIR [--with-none]
#
# Environment: WB (required: the wallbench binary), PY (python3), NCU (ncu),
# ARGS (the program's options, default "--rows 4000000 --reps 2 --seed 1"),
# WB_OPTS (options of every `wallbench profile`, default --no-ceilings: the
# ceiling run is no part of the profiler's overhead; give
# "--ceilings-from RESULTS.h5" for files with the measured roof),
# BUDGET_S (300: the --with-none steps are skipped once this much has passed),
# TOTAL_S (540: no step runs past it, so that overhead.txt is written within
# a 10-minute device call; a step cut short by it reads as rc 124).
# Steps, each timed as a process (date +%s.%N), its exit code kept, a failure
# not stopping the rest:
#   cachefill      one run to fill CuPy's kernel cache (not counted)
#   count          --count-launches (torch.profiler): launches per phase
#   plain1, plain2 the program alone
#   timing         wallbench profile --pass timing
#   counters-all   wallbench profile --pass counters --cache-control all
#   both           wallbench profile (both passes)
#   ncu-all        ncu, the same metrics, --clock-control none --cache-control all
#   ncu-none, counters-none   the same with --cache-control none (--with-none)
#   compare-*      ncu_compare.py for each pair; timing_compare.py for the kernel times
# Then overhead_summary.py writes OUTDIR/overhead.txt. Exit 0 when every
# step did, 1 otherwise (overhead.txt lists each step's exit code).
set -u

usage="usage: WB=path/to/wallbench bash examples/profile-tpch/measure.sh OUTDIR [--with-none]"
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || { echo "$usage" >&2; exit 2; }
OUT=$1
WITH_NONE=0
case "${2:-}" in '') ;; --with-none) WITH_NONE=1 ;; *) echo "measure.sh: unknown option '$2'; $usage" >&2; exit 2 ;; esac
[ -n "${WB:-}" ] || { echo "measure.sh: set WB to the wallbench binary, e.g. WB=build/h200/wallbench" >&2; exit 2; }
PY=${PY:-python3}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
ARGS=${ARGS:-"--rows 4000000 --reps 2 --seed 1"}
WB_OPTS=${WB_OPTS:---no-ceilings}
BUDGET_S=${BUDGET_S:-300}
TOTAL_S=${TOTAL_S:-540}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PROG="$HERE/tpch_like.py"
COMPARE="$ROOT/harness/profile/ncu_compare.py"

mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
[ -x "$WB" ] || { echo "measure.sh: WB=$WB is not an executable" >&2; exit 2; }
for f in timing.h5 counters-all.h5 counters-none.h5 both.h5; do rm -f "$OUT/$f"; done
STEPS="$OUT/steps.tsv"
printf 'step\trc\twall_s\tlog\n' > "$STEPS"
T0=$(date +%s.%N)
# shellcheck disable=SC2206
PROG_ARGS=($ARGS)
# shellcheck disable=SC2206
WB_ARGS=($WB_OPTS)

# Arithmetic by awk: bc may be missing on the GPU machine.
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
elapsed() { sub "$(date +%s.%N)" "$T0"; }

# step NAME TIMEOUT_S CMD...: runs CMD with stdout+stderr to OUT/NAME.log
# and records its exit code and process wall time; the timeout is cut to
# what is left of TOTAL_S, and a step with under 5 s left is skipped.
step() {
    local name=$1 limit=$2
    shift 2
    local left
    left=$(awk -v t="$TOTAL_S" -v e="$(elapsed)" 'BEGIN { printf "%d", t - e }')
    if [ "$left" -lt 5 ]; then
        echo "== $name skipped: TOTAL_S=$TOTAL_S s have passed"
        printf '%s\tdeadline\t0\t-\n' "$name" >> "$STEPS"
        return
    fi
    [ "$left" -lt "$limit" ] && limit=$left
    echo "== $name ($(printf '%.0f' "$(elapsed)") s in): $*"
    local t1 t2 rc
    t1=$(date +%s.%N)
    timeout --kill-after=10 "$limit" "$@" > "$OUT/$name.log" 2>&1
    rc=$?
    t2=$(date +%s.%N)
    printf '%s\t%d\t%s\t%s\n' "$name" "$rc" "$(sub "$t2" "$t1")" "$name.log" >> "$STEPS"
    echo "   rc=$rc, $(sub "$t2" "$t1") s; last lines:"
    tail -n 3 "$OUT/$name.log" | sed 's/^/   | /'
}

{
    echo "date: $(date -u +%FT%TZ)"
    echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
    echo "ncu: $("$NCU" --version 2>&1 | tail -1)"
    echo "python: $("$PY" -c 'import torch, cupy, sys; print(sys.version.split()[0], "torch", torch.__version__, "cupy", cupy.__version__)' 2>&1 | tail -1)"
    echo "program: $PY $PROG $ARGS"
    echo "wallbench profile options: $WB_OPTS"
} > "$OUT/env.txt"
cat "$OUT/env.txt"

# The counter pass's metric list, as the profiler collects it on this GPU;
# should --list-metrics fail or print no metric name, metrics.c's primary
# names (the H200's). Only tokens shaped as ncu metric names are kept.
metrics_c() {
    sed -n 's/^ *{"[a-z0-9_]*", "\([a-z0-9_.]*\)".*/\1/p' "$ROOT/harness/base/metrics.c"
    sed -n 's/^ *STALL(\([a-z_]*\)),.*/smsp__average_warps_issue_stalled_\1_per_issue_active.ratio/p' \
        "$ROOT/harness/base/metrics.c"
}
metric_names() { tr -s ', \t\n' '\n' < "$1" | grep -E '^[a-z0-9_]+__[a-zA-Z0-9_.]+$' | paste -sd,; }
"$WB" profile --list-metrics > "$OUT/metrics.txt" 2> "$OUT/metrics.err"
METRICS=$(metric_names "$OUT/metrics.txt")
if [ -n "$METRICS" ]; then
    echo "wallbench profile --list-metrics" > "$OUT/metrics.source"
else
    echo "harness/base/metrics.c (wallbench profile --list-metrics gave none: $(head -c 200 "$OUT/metrics.err"))" \
        > "$OUT/metrics.source"
    metrics_c > "$OUT/metrics.txt"
    METRICS=$(metric_names "$OUT/metrics.txt")
fi
echo "metrics ($(echo "$METRICS" | tr ',' '\n' | grep -c .), from $(cat "$OUT/metrics.source")): $METRICS"

NCU_FLAGS=(--csv --page raw --print-units base --print-kernel-base mangled --target-processes all
           --clock-control none --metrics "$METRICS")

step cachefill 180 "$PY" "$PROG" "${PROG_ARGS[@]}"
step count 180 "$PY" "$PROG" "${PROG_ARGS[@]}" --count-launches
step plain1 120 "$PY" "$PROG" "${PROG_ARGS[@]}"
step plain2 120 "$PY" "$PROG" "${PROG_ARGS[@]}"
step timing 180 "$WB" profile "${WB_ARGS[@]}" --keep-raw "$OUT/raw-timing" --pass timing -o "$OUT/timing.h5" -- "$PY" "$PROG" "${PROG_ARGS[@]}"
step counters-all 300 "$WB" profile "${WB_ARGS[@]}" --keep-raw "$OUT/raw-counters-all" --pass counters --cache-control all -o "$OUT/counters-all.h5" -- \
    "$PY" "$PROG" "${PROG_ARGS[@]}"
step both 300 "$WB" profile "${WB_ARGS[@]}" --keep-raw "$OUT/raw-both" -o "$OUT/both.h5" -- "$PY" "$PROG" "${PROG_ARGS[@]}"
step ncu-all 400 "$NCU" "${NCU_FLAGS[@]}" --cache-control all --log-file "$OUT/ncu-all.csv" \
    "$PY" "$PROG" "${PROG_ARGS[@]}"
if [ "$WITH_NONE" = 1 ]; then
    if awk -v e="$(elapsed)" -v b="$BUDGET_S" 'BEGIN { exit !(e < b) }'; then
        step counters-none 300 "$WB" profile "${WB_ARGS[@]}" --keep-raw "$OUT/raw-counters-none" --pass counters --cache-control none -o "$OUT/counters-none.h5" -- \
            "$PY" "$PROG" "${PROG_ARGS[@]}"
        step ncu-none 400 "$NCU" "${NCU_FLAGS[@]}" --cache-control none --log-file "$OUT/ncu-none.csv" \
            "$PY" "$PROG" "${PROG_ARGS[@]}"
    else
        echo "== --with-none skipped: $(printf '%.0f' "$(elapsed)") s have passed, BUDGET_S=$BUDGET_S"
        printf 'with-none\tskipped\t0\t-\n' >> "$STEPS"
    fi
fi

# Accuracy: each counter pass against ncu under the same cache policy.
step compare-all 120 "$PY" "$COMPARE" --profile "$OUT/counters-all.h5" --ncu-csv "$OUT/ncu-all.csv" \
    --out "$OUT/compare-all.txt"
if [ -s "$OUT/ncu-none.csv" ]; then
    step compare-none 120 "$PY" "$COMPARE" --profile "$OUT/counters-none.h5" --ncu-csv "$OUT/ncu-none.csv" \
        --out "$OUT/compare-none.txt"
fi
# Kernel times: the timing pass against a second timing pass (both.h5: the
# run-to-run spread) and against ncu's gpu__time_duration, from the run that
# left the caches as the program had them where there is one.
step times-vs-both 120 "$PY" "$HERE/timing_compare.py" "$OUT/timing.h5" "$OUT/both.h5"
NCU_T="$OUT/ncu-all.csv"
[ -s "$OUT/ncu-none.csv" ] && NCU_T="$OUT/ncu-none.csv"
step times-vs-ncu 120 "$PY" "$COMPARE" --profile "$OUT/timing.h5" --ncu-csv "$NCU_T" \
    --metric gpu__time_duration.sum=time_ms:0.02 --by-kernel --out "$OUT/times-vs-ncu.txt"
echo "$(basename "$NCU_T")" > "$OUT/times-vs-ncu.source"

TOTAL=$(elapsed)
"$PY" "$HERE/overhead_summary.py" "$OUT" "$TOTAL" > "$OUT/overhead.txt" 2> "$OUT/overhead.err" ||
    echo "measure.sh: overhead_summary.py failed: $(cat "$OUT/overhead.err")" >&2
cat "$OUT/overhead.txt"
printf 'measure.sh: total %.1f s\n' "$TOTAL"
awk -F'\t' 'NR > 1 && $2 != "0" && $2 != "skipped" { bad = 1 } END { exit bad }' "$STEPS"
