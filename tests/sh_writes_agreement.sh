#!/usr/bin/env bash
# sh_writes_agreement.sh - examples/profile-graph/writes_agreement.py without a GPU, on ncu CSVs
# made here (no h5py needed): a log against itself agrees on every judged launch at +0.00%; against
# a copy with two launches moved by +2% and +0.5%, 3 of 4 are within 1%, the median difference is
# the mean of the two middle ones, and a launch under --min is not judged; a .gz log reads as the
# plain one; bad input exits 2.
. "$(dirname "$0")/common.sh"
tool=$src/examples/profile-graph/writes_agreement.py
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
log() { # log FILE W...: launches of kernel k, their DRAM writes, as ncu --csv --page raw prints them
    local file=$1 id=0
    shift
    {
        echo '==PROF== Connected to process 1'
        echo '"ID","Kernel Name","Grid Size","Block Size","dram__sectors_write.sum"'
        echo '"","","","","sector"'
        for w in "$@"; do
            echo "\"$id\",\"k\",\"(4, 1, 1)\",\"(128, 1, 1)\",\"$w\""
            id=$((id + 1))
        done
    } > "$file"
}
log "$tmp/a.csv" 200000 300000 400000 500000 50
log "$tmp/b.csv" 204000 301500 400000 500000 60 # +2%, +0.5%, equal, equal; the last under --min
gzip -c "$tmp/b.csv" > "$tmp/b.csv.gz"
out=$(python3 "$tool" --ncu "$tmp/a.csv" --ncu "$tmp/a.csv" 2>&1) || bad "a against a: exit $?: $out"
printf '%s\n' "$out" | grep -q '^| tmp.*/a.csv | tmp.*/a.csv | 4 of 4 | +0.00% | 0.00% | +0.00% |$' ||
    bad "a against itself: $out"
out=$(python3 "$tool" --ncu "$tmp/b.csv.gz" --ncu "$tmp/a.csv" 2>&1) || bad "b against a: exit $?: $out"
printf '%s\n' "$out" | grep -q '^dram_sectors_write: 4 launches judged' || bad "judged count: $out"
printf '%s\n' "$out" | grep -q '/b.csv.gz | .*/a.csv | 3 of 4 | +0.25% | 0.62% | +0.39% |$' || bad "b against a: $out"
python3 "$tool" --ncu "$tmp/a.csv" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "one source: exit $rc, not 2"
python3 "$tool" --ncu "$tmp/nosuch.csv" --ncu "$tmp/a.csv" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "a missing log: exit $rc, not 2"
python3 "$tool" --ncu "$tmp/a.csv" --ncu "$tmp/a.csv" --min 1e9 > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "nothing to judge: exit $rc, not 2"
finish
