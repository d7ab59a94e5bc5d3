#!/usr/bin/env bash
# sh_sampled_rates.sh - examples/profile-graph/sampled_rates.py on the committed sampled profile
# (results/h200-profile/sampled-tpch/sample.h5) gives the rates docs/profiling-measured.md quotes
# for its timeline figure: indexFuncLargeIndex's 2,864 samples at a median 12.2 G warp inst/s and
# 33 GB/s, CatArrayBatchedCopy's 416 at 17.0 and 1,871; a profile without samples (the profile of
# record) and a missing file exit 2 with one line. Skipped without python3's h5py and numpy.
. "$(dirname "$0")/common.sh"
tool=$src/examples/profile-graph/sampled_rates.py
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
out=$(python3 "$tool" "$src/results/h200-profile/sampled-tpch/sample.h5") || bad "sampled_rates.py exited $?"
grep -q '^| _ZN2at6native19indexFuncLargeIndex[^|]* | 2864 | 12.2 | 33 |$' <<< "$out" || bad "indexFuncLargeIndex's row in:
$out"
grep -q 'CatArrayBatchedCopy[^|]* | 416 | 17.0 | 1871 |$' <<< "$out" || bad "CatArrayBatchedCopy's row in:
$out"
for f in "$src/results/h200-profile/tpch-both.h5" "$tmp/none.h5"; do
    python3 "$tool" "$f" > /dev/null 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] || bad "$(basename "$f"): exit $rc, stderr: $(cat "$tmp/err")"
done
finish
