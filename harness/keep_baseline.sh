#!/usr/bin/env bash
# keep_baseline.sh DIR PROFILE [BASELINE] - `make baseline`: keeps the newest run of DIR as the
# profile's quick-sweep baseline of this machine, results/<profile>/local/baseline-quick.h5 (git
# ignores results/*/local/), or BASELINE where given; `make check GPU=<profile>` then uses it
# (check compares the points both files hold, and says so for a sweep other than the run's).
# A committed file is never kept: the run kept is the user's own (baselines.sh, wb_newest_own_run).
# Exit: 0 kept, 2 no run of the user's to keep or the copy failed.
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: harness/keep_baseline.sh DIR PROFILE [BASELINE]" >&2
    exit 2
fi
. "$(dirname "$0")/baselines.sh"
dir=${1%/} prof=$2 target=${3:-$(wb_local_baseline "$2")}
out=""
[ "$dir" = "results/$prof" ] || out=" OUT=$dir"
run=$(wb_newest_own_run "$dir")
if [ -z "$run" ]; then
    committed=""
    [ -n "$(wb_newest_run "$dir")" ] && committed=" (committed records are never kept as yours)"
    echo "make baseline: no run of yours in $dir to keep$committed: run \`make run GPU=$prof$out\` first" >&2
    exit 2
fi
[ -d "$target" ] && { echo "make baseline: BASELINE=$target is a folder: give the file to keep the run as (e.g. $target/baseline.h5)" >&2; exit 2; }
mkdir -p "$(dirname "$target")" || exit 2
note=""
[ -f "$target" ] && note=" (it replaces the one kept before)"
cp "$run" "$target" || { echo "make baseline: cannot copy $run to $target" >&2; exit 2; }
echo "make baseline: kept $run as $target$note; make check GPU=$prof checks later runs against it"
