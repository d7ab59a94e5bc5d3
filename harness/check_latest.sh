#!/usr/bin/env bash
# check_latest.sh WALLBENCH DIR PROFILE [BASELINE] - `make check`: the user's newest run in DIR (by
# name, i.e. by UTC time; baselines, projections and files git tracks left out: a committed record is
# nobody's new run) against the profile's quick-sweep baseline (BASELINE, else this machine's
# results/<profile>/local/baseline-quick.h5 kept by make baseline, else the committed
# results/<profile>/baseline-quick.h5) with results/thresholds.txt, through `wallbench check`, which
# says first what it compared. No baseline yet while a run exists, or the newest run being the
# baseline itself, is no error: one sentence saying what to do, exit 0. No run of the user's in DIR
# (none at all, or only committed files) is: one sentence, exit 2. Exit: check's (0 within,
# 1 violations, 2 bad input), 2 for a BASELINE= that does not exist or no run to check.
set -u
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: harness/check_latest.sh WALLBENCH DIR PROFILE [BASELINE]" >&2
    exit 2
fi
. "$(dirname "$0")/baselines.sh"
wb=$1 dir=${2%/} prof=$3 base=${4:-}
out=""
[ "$dir" = "results/$prof" ] || out=" OUT=$dir"
if [ -n "$base" ] && [ ! -f "$base" ]; then
    echo "make check: BASELINE=$base: no such file" >&2
    exit 2
fi
newest=$(wb_newest_own_run "$dir")
if [ -z "$newest" ]; then
    committed=""
    [ -n "$(wb_newest_run "$dir")" ] && committed=" (the committed records there are not checked)"
    then=""
    [ -z "$base" ] && ! wb_baseline_of "$prof" >/dev/null && then=", then \`make baseline GPU=$prof$out\` (profile $prof has no quick-sweep baseline yet)"
    echo "make check: no run of yours in $dir$committed: run \`make run GPU=$prof$out\` first$then" >&2
    exit 2
fi
if [ -z "$base" ] && ! base=$(wb_baseline_of "$prof"); then
    echo "make check: GPU profile $prof has no quick-sweep baseline yet: keep your run $newest as this machine's with make baseline GPU=$prof$out, then later runs are checked against it"
    exit 0
fi
[ "$base" = "${base#/}" ] && [ -f "$wb_root/$base" ] && [ ! -f "$base" ] && base=$wb_root/$base
if cmp -s "$newest" "$base"; then
    echo "make check: the newest run of $dir, $newest, is the baseline itself (make baseline kept it): make run GPU=$prof$out for a run to check"
    exit 0
fi
exec "$wb" check "$newest" --baseline "$base" --thresholds "$wb_root/results/thresholds.txt"
