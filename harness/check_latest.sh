#!/usr/bin/env bash
# check_latest.sh WALLBENCH DIR PROFILE [BASELINE] - `make check`: the newest results file of DIR
# (by name, i.e. by UTC time; baselines and projections left out) against the profile's quick-sweep
# baseline (BASELINE, else this machine's results/<profile>/local/baseline-quick.h5 kept by make
# baseline, else the committed results/<profile>/baseline-quick.h5) with results/thresholds.txt,
# through `wallbench check`, which says first what it compared. Nothing to check (no baseline yet,
# no run yet, the newest run is the baseline itself) is no error: one sentence saying what to do,
# exit 0; a committed file as the newest run is checked with a line saying it is no run of yours. Exit: check's (0 within,
# 1 violations, 2 bad input), 2 for a BASELINE= that does not exist.
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
newest=$(wb_newest_run "$dir")
if [ -z "$base" ] && ! base=$(wb_baseline_of "$prof"); then
    if [ -n "$newest" ]; then
        echo "make check: GPU profile $prof has no quick-sweep baseline yet: keep your run $newest as this machine's with make baseline GPU=$prof$out, then later runs are checked against it"
    else
        echo "make check: GPU profile $prof has no quick-sweep baseline yet and $dir holds no run: make run GPU=$prof$out, then make baseline GPU=$prof$out"
    fi
    exit 0
fi
if [ -z "$newest" ]; then
    echo "make check: no results file in $dir to check: run one first (make run GPU=$prof$out)"
    exit 0
fi
[ "$base" = "${base#/}" ] && [ -f "$wb_root/$base" ] && [ ! -f "$base" ] && base=$wb_root/$base
if cmp -s "$newest" "$base"; then
    echo "make check: the newest run of $dir, $newest, is the baseline itself (make baseline kept it): make run GPU=$prof$out for a run to check"
    exit 0
fi
# a committed file is nobody's new run: say so before the verdict
if git -C "$wb_root" ls-files --error-unmatch -- "$newest" >/dev/null 2>&1; then
    echo "make check: $dir holds no run of yours: checking the committed $newest (make run GPU=$prof$out for your own)"
fi
exec "$wb" check "$newest" --baseline "$base" --thresholds "$wb_root/results/thresholds.txt"
