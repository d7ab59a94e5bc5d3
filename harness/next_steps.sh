#!/usr/bin/env bash
# next_steps.sh RESULTS.h5 PROFILE BUILD_DIR [FIGURES_DIR] - the last lines of `make run`: the file it
# wrote, the figure to open (or how to draw it where gnuplot is missing: FIGURES_DIR not given), and
# the commands to try next, each ready to paste and each one that works here and now (tests/
# sh_next_steps.sh runs them): report and roofline; make check where the profile has a quick-sweep
# baseline (this machine's, kept by make baseline, or the committed one), else make baseline to keep
# this run as one; compare against the newest other run of the folder; and, on any profile but h200,
# compare against the committed H200 record (compare names the two GPUs first, then the hardware
# ratios and the per-family verdicts).
set -u
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: harness/next_steps.sh RESULTS.h5 PROFILE BUILD_DIR [FIGURES_DIR]" >&2
    exit 2
fi
. "$(dirname "$0")/baselines.sh"
file=$1 prof=$2 b=$3 figs=${4:-}
dir=$(dirname "$file")
other=$(wb_newest_run "$dir" "$file")
echo
echo "results: $file"
if [ -n "$figs" ] && [ -f "$figs/fig4-roofline-points.png" ]; then
    echo "figure:  $figs/fig4-roofline-points.png (every point on the measured roofline; the others beside it)"
else
    echo "figure:  none drawn here; where gnuplot is: make plots RESULTS=$file"
fi
echo "next:"
echo "  $b/wallbench report $file    # time shares, bound classes, stalls"
echo "  $b/wallbench roofline $file    # the measured ceilings and ridge against L4 and GH200"
out=""
[ "${dir%/}" = "results/$prof" ] || out=" OUT=$dir"
if base=$(wb_baseline_of "$prof"); then
    echo "  make check GPU=$prof$out    # the newest run here against the quick-sweep baseline $base"
else
    echo "  make baseline GPU=$prof$out    # keep this run as this machine's quick-sweep baseline ($(wb_local_baseline "$prof"), untracked); then make check GPU=$prof checks later runs against it"
fi
if [ -n "$other" ]; then
    echo "  $b/wallbench compare $other $file   # per family against $(basename "$other")"
fi
record=$(wb_record)
if [ "$prof" != h200 ] && [ -n "$record" ]; then
    echo "  $b/wallbench compare $record $file   # this GPU against the committed H200 record: hardware ratios, per-family verdicts"
fi
