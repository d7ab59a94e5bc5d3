#!/usr/bin/env bash
# check_latest.sh WALLBENCH DIR [BASELINE] - `make check`: the newest results
# file of DIR (by name, i.e. by UTC time; baselines and projections left out)
# against the committed quick-sweep baseline (default DIR/baseline-quick.h5)
# with results/thresholds.txt, through `wallbench check`, which says first
# what it compared. Exit: check's (0 within, 1 violations, 2 bad input), or
# 2 with one sentence when there is no baseline or no run to check.
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: harness/check_latest.sh WALLBENCH DIR [BASELINE]" >&2
    exit 2
fi
wb=$1 dir=${2%/} base=${3:-${2%/}/baseline-quick.h5}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$base" ]; then
    echo "make check: no baseline $base (a committed quick-sweep run of this profile); give one: make check BASELINE=<an earlier run>.h5" >&2
    exit 2
fi
newest=$(ls "$dir"/*.h5 2>/dev/null | grep -v -- '-projected-[^/]*\.h5$' | grep -v -- '/baseline[^/]*\.h5$' | LC_ALL=C sort | tail -n 1)
if [ -z "$newest" ]; then
    echo "make check: no results file in $dir to check: run one first (make run GPU=<profile>)" >&2
    exit 2
fi
exec "$wb" check "$newest" --baseline "$base" --thresholds "$root/results/thresholds.txt"
