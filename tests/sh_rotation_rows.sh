#!/usr/bin/env bash
# sh_rotation_rows.sh - examples/profile-graph/rotation_rows.py, which docs/profiling-measured.md
# cites for --rotate's NaN rows: on the committed kernel-replay rotate file it says what the page
# says (group 0's L1 sectors in 17 of 17 launches; group 1's SM throughput in 25 of 25, its
# occupancy, IPC, L1 hit rate and DRAM throughput in 0 of 25; the first launch held group 0); on a
# file with "# batch" lines (since 2026-12-05) a launch's group is its batch's, even where every
# value of that group was written "nan", which the older files' rule (values other than "nan")
# would take for no group at all; and on the H100 files of the new-object fix what its page says.
. "$(dirname "$0")/common.sh"
tool=$src/examples/profile-graph/rotation_rows.py
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
out=$(python3 "$tool" "$src/results/h200-profile/modes-af6c05e/small/counters-rotate-kreplay.tsv.gz") || bad "rotation_rows.py on the committed file failed"
for want in "group 0: 17 launches; rows with a value: l1_sectors_ld 17/17, l1_sectors_st 17/17" \
            "group 1: 25 launches; rows with a value: dram_throughput_pct 0/25, ipc 0/25, l1_hit_pct 0/25, occupancy_achieved_pct 0/25, sm_throughput_pct 25/25" \
            "the first counted launch held group(s): 0"; do
    grep -qxF "$want" <<< "$out" || bad "committed kreplay file: no line '$want' in:
$out"
done
# the new-object question (H100, 2026-12-05, results/h100-profile/rotate-defaults/small/): one object
# left group 1's own columns NaN in 0 of 25 launches, a new object at each change brought them back in 25 of 25
d=$src/results/h100-profile/rotate-defaults/small
for pair in "tree|group 1: 25 launches; rows with a value: dram_throughput_pct 0/25, ipc 0/25, l1_hit_pct 0/25, occupancy_achieved_pct 0/25, sm_throughput_pct 25/25" \
            "newobj|group 1: 25 launches; rows with a value: dram_throughput_pct 25/25, ipc 25/25, l1_hit_pct 25/25, occupancy_achieved_pct 25/25, sm_throughput_pct 25/25" \
            "newobj|group 2: 14 launches; rows with a value: stall_raw_barrier 14/14"; do
    out=$(python3 "$tool" "$d/counters-${pair%%|*}.tsv.gz") || bad "rotation_rows.py on $d/counters-${pair%%|*}.tsv.gz failed"
    grep -qxF "${pair#*|}" <<< "$out" || bad "counters-${pair%%|*}.tsv.gz: no line '${pair#*|}' in:
$out"
done
# group 1 held by launch 1 with both its values "nan": counted as group 1's, 0 of 1
printf '%s\n' "# wallbench-raw 1 pass=counters pid=1 ppid=1" "# groups	-2	0	1" \
    "# metrics	inst	l1_sectors_ld	ipc" "# batch	group 0" "C	0	10	4	nan" "# batch	group 1" "C	1	11	nan	nan" > "$tmp/batch.tsv"
out=$(python3 "$tool" "$tmp/batch.tsv") || bad "rotation_rows.py on a file with # batch lines failed"
grep -qxF "group 1: 1 launches; rows with a value: ipc 0/1" <<< "$out" || bad "# batch lines: launch 1 not group 1's in:
$out"
finish
