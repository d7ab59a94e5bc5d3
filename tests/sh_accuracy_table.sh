#!/usr/bin/env bash
# sh_accuracy_table.sh - examples/profile-graph/accuracy_table.py without a GPU, on the committed
# example run against Nsight Compute (results/h200-profile/modes-tpch: core.h5 and ncu7.csv.gz): it
# gives the numbers docs/profiling.md's accuracy table quotes (instructions equal on 287 of 314
# launches, DRAM reads within 1% on 182 of 182, writes on 14 of 60 summed -0.59%, L2 sectors on 31
# of 206); a counter the CSV lacks is "-"; bad input exits 2. Skipped without h5py and numpy.
. "$(dirname "$0")/common.sh"
tool=$src/examples/profile-graph/accuracy_table.py
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
d=$src/results/h200-profile/modes-tpch
out=$(python3 "$tool" --pair core=$d/core.h5:$d/ncu7.csv.gz --pair ncu4=$d/core.h5:$d/ncu4.csv.gz 2>&1) ||
    bad "exit $?: $out"
has_lines "$out" '| instructions equal | 287 of 314, summed +0.02% |' \
    '| DRAM sectors read within 1% | 182 of 182, summed -0.01% |' \
    '| DRAM sectors written within 1% | 14 of 60, summed -0.59% |' \
    '| L2 sectors within 1% | 31 of 206, summed -4.57% | - |'
python3 "$tool" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "no --pair: exit $rc, not 2"
python3 "$tool" --pair x=$d/core.h5 > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "a pair without its CSV: exit $rc, not 2"
python3 "$tool" --pair x=$d/nosuch.h5:$d/ncu7.csv.gz > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "a missing profile: exit $rc, not 2"
finish
