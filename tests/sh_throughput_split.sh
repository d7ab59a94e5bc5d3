#!/usr/bin/env bash
# sh_throughput_split.sh WALLBENCH - the numbers docs/profiling-measured.md gives for --rotate's DRAM
# throughput against ncu's, recomputed without a GPU: graph_steps.py's rotate profile on the H200
# (results/h200-profile/rotate-defaults, GPU-42bb2011, as written on the device) against ncu's 35
# metrics of the next call on that board: on 47 launches ours is 0.789-1.074 of ncu's, equal to the
# ratio of (read + write sectors) / time within 0.005 but on one launch (0.062), reads the same
# (median 1.0000), writes 148,912 sectors against ncu's 1,214,176 (the write-backs after our range);
# `report` on that file shows all 25 group columns back in every launch that held their group. A
# profile without the column is refused (exit 2). Skipped without python3's h5py and numpy.
. "$(dirname "$0")/common.sh"
wb=$1
tool=$src/examples/profile-graph/throughput_split.py
h=$src/results/h200-profile/rotate-defaults
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
out=$(python3 "$tool" --profile "$h/graph/rotate.h5" --ncu "$h/graph-ncu35/ncu35.csv.gz" 2>&1) || bad "exit $?: $out"
has_lines "$out" "47 launches with our DRAM throughput and ncu's >= 1%" \
    "ours / ncu's DRAM throughput: 0.789 to 1.074, median 0.960" \
    "largest |that ratio - ratio of (read + write sectors) / time|: 0.0621" \
    "median ratio of reads 1.0000, of times 1.0067; writes summed: ours 148912, ncu's 1214176 sectors"
# that file's rotation as `report` prints it: all 25 group columns back in every launch that held their group
rep=$("$wb" report "$h/graph/rotate.h5" 2>&1) || bad "report on the H200 rotate file: exit $?"
cols=$(printf '%s\n' "$rep" | sed -n 's/.*launches that held its group: //p')
n_full=$(printf '%s\n' "$cols" | tr ',' '\n' | awk '{ split($2, v, "/"); if (v[1] == v[2] && v[2] > 0) n++ } END { print n + 0 }')
[ "$n_full" -eq 25 ] || bad "H200 rotate file: $n_full of 25 group columns full: $cols"
# the profile of record has no dram_throughput_pct values (the core set): refused, one line
python3 "$tool" --profile "$src/results/h200-profile/tpch-both.h5" --ncu "$h/graph-ncu35/ncu35.csv.gz" > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc -eq 2 ] && grep -q "no launch with dram_throughput_pct" "$tmp/e" || bad "a profile without the column: exit $rc, $(head -n 3 "$tmp/e")"
finish
