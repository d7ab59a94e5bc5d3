#!/usr/bin/env bash
# next_steps.sh RESULTS.h5 PROFILE BUILD_DIR [FIGURES_DIR] - the last lines of `make run`: the file it
# wrote, the figure to open (or how to draw it where gnuplot is missing: FIGURES_DIR not given), and
# the commands to try next, each ready to paste: report, roofline, check (make check), and compare
# against the newest other run of the folder (on a fresh clone of results/h200, the committed record).
set -u
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: harness/next_steps.sh RESULTS.h5 PROFILE BUILD_DIR [FIGURES_DIR]" >&2
    exit 2
fi
file=$1 prof=$2 b=$3 figs=${4:-}
dir=$(dirname "$file")
# what to compare with: the newest other run of the folder (on a fresh clone of results/h200: the record)
other=$(ls "$dir"/*.h5 2>/dev/null | grep -v -- '-projected-[^/]*\.h5$' | grep -v -- '/baseline[^/]*\.h5$' |
    grep -vx -- "$file" | LC_ALL=C sort | tail -n 1)
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
echo "  make check GPU=$prof$out    # the newest run here against the committed quick-sweep baseline"
if [ -n "$other" ]; then
    echo "  $b/wallbench compare $other $file   # per family against $(basename "$other")"
fi
