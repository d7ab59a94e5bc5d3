#!/usr/bin/env bash
# sh_pytools_input.sh - the Python tools (harness/tools, harness/profile, examples/) on bad input:
# a missing file, a folder, a text file, a truncated .h5, a file of the other kind (a profile for a
# results file and back), a malformed or negative option value each exit 2 with one line on stderr
# naming the program and the file or option, never a Python traceback (exit 1 is a verdict in
# shard_equivalence.py, timing_compare.py, ncu_compare.py, suite_check.py); --help exits 0; and
# findings.py on a results file without a groupby (or probe, scan, transform) point says so per
# section and exits 0; where h5py and numpy cannot be imported, the tools that read HDF5 say so in
# one line (exit 3). Skipped without python3's h5py and numpy.
. "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 lacks h5py or numpy"; exit 77; }
export PYTHONDONTWRITEBYTECODE=1
T=$src/harness/tools
H=$src/harness/profile
G=$src/examples/profile-graph
X=$src/examples/profile-tpch
res=$src/results/h200/baseline-quick.h5
prof=$src/results/h200-profile/tpch-both.h5
csv=$src/results/h200-profile/modes-tpch/ncu4.csv.gz
none=$tmp/none.h5
mkdir -p "$tmp/folder" "$tmp/empty"
head -c 4096 "$res" > "$tmp/cut.h5"
echo "not a results file" > "$tmp/text.h5"

# refused WANT TOOL ARGS...: exit 2, one non-empty line on stderr holding WANT, no traceback
refused() {
    local want=$1 rc n
    shift
    python3 "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    n=$(grep -c . "$tmp/err")
    if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || grep -q Traceback "$tmp/err" || ! grep -qF -- "$want" "$tmp/err"; then
        bad "$(basename "$1") ${*:2}: exit $rc, $n stderr line(s), want 2, one with '$want': $(head -n 4 "$tmp/err")"
    fi
}
# usage TOOL: --help exits 0 with text on stdout, no arguments exit 2 without a traceback
usage() {
    local rc
    python3 "$1" --help > "$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && [ -s "$tmp/out" ] || bad "$(basename "$1") --help: exit $rc, $(wc -l < "$tmp/out") line(s)"
    python3 "$1" > "$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && ! grep -q Traceback "$tmp/out" || bad "$(basename "$1") without arguments: exit $rc: $(tail -n 2 "$tmp/out")"
}

# 1. findings.py: sections whose family the file lacks say so, the rest run
for f in "$src/results/h200-compress/20261204T162836Z-f48394d.h5" "$src/results/h200-contention/alone.h5"; do
    python3 "$T/findings.py" "$f" > "$tmp/out" 2> "$tmp/err" || bad "findings.py $f: exit $?: $(tail -n 2 "$tmp/err")"
    [ -s "$tmp/err" ] && bad "findings.py $f: stderr: $(head -n 2 "$tmp/err")"
    grep -qxF "  (no groupby points in this file)" "$tmp/out" || bad "findings.py $f: no line for the missing groupby points"
    grep -q '^\[time shares\]' "$tmp/out" || bad "findings.py $f: the later sections did not run"
done
refused "$tmp/folder: a folder" "$T/findings.py" "$tmp/folder"

# 2. shard_equivalence.py, either position
refused "$none: no such file" "$T/shard_equivalence.py" "$none" "$res"
refused "$tmp/folder: a folder" "$T/shard_equivalence.py" "$tmp/folder" "$res"
refused "$tmp/text.h5: not a readable HDF5 file" "$T/shard_equivalence.py" "$tmp/text.h5" "$res"
refused "$tmp/cut.h5: not a readable HDF5 file" "$T/shard_equivalence.py" "$res" "$tmp/cut.h5"
refused "$prof: no /points" "$T/shard_equivalence.py" "$res" "$prof"

# 3. wall_targets.py
refused "$none: no such file" "$T/wall_targets.py" "$none"
refused "$tmp/cut.h5: not a readable HDF5 file" "$T/wall_targets.py" "$tmp/cut.h5"
refused "$prof: no /points" "$T/wall_targets.py" "$prof"
usage "$T/wall_targets.py"

# 4. modes_summary.py: folders that are none of measure_modes.sh's, a --plain that is no step
refused "$tmp/nosuch: no such folder" "$G/modes_summary.py" "$tmp/nosuch"
refused "$tmp/empty has no steps.tsv" "$G/modes_summary.py" "$tmp/empty"
refused "$res: a file" "$G/modes_summary.py" "$res"
refused "no checksum column" "$G/modes_summary.py" "$src/results/h200-profile/logs"
refused "--plain nosuch: no such step" "$G/modes_summary.py" "$src/results/h200-profile/modes-tpch" --plain nosuch
printf 'step\trc\twall_s\tchecksum\nplain\t0\t2.0\tc 1\ncore\t0\t5.0\tc 1\n' > "$tmp/empty/steps.tsv"
python3 "$G/modes_summary.py" "$tmp/empty" > "$tmp/out" 2> "$tmp/err" || bad "modes_summary.py without plain2: exit $?"
[ "$(grep -c . "$tmp/err")" -eq 1 ] && grep -q 'no step plain2 .*overhead table is left out' "$tmp/err" ||
    bad "modes_summary.py without plain2: stderr '$(cat "$tmp/err")'"
rm "$tmp/empty/steps.tsv"

# 5. rotation_rows.py, rotation_batches.py: raw files of --keep-raw only
for t in rotation_rows rotation_batches; do
    refused "$t.py: $tmp/none.tsv" "$G/$t.py" "$tmp/none.tsv"
    refused "$tmp/folder: a folder" "$G/$t.py" "$tmp/folder"
    refused "$res: not a text file" "$G/$t.py" "$res"
done
usage "$G/rotation_rows.py"

# 6. overhead_summary.py
usage "$X/overhead_summary.py"
refused "TOTAL_S 'abc'" "$X/overhead_summary.py" "$src/results/h200-profile/logs" abc
refused "OUTDIR $tmp/nosuch: no such folder" "$X/overhead_summary.py" "$tmp/nosuch" 3

# 7, 8. negative counts and tolerances, each error under its own program's and option's name
refused "timing_compare.py: --tol -1" "$X/timing_compare.py" "$prof" "$prof" --tol -1
refused "timing_compare.py: --top -1" "$X/timing_compare.py" "$prof" "$prof" --top -1
refused "timing_compare.py: $none: no such file" "$X/timing_compare.py" "$none" "$prof"
refused "accuracy_table.py: --tol -1" "$G/accuracy_table.py" --pair "x=$prof:$csv" --tol -1
refused "accuracy_table.py: --pair x: $tmp/folder: a folder" "$G/accuracy_table.py" --pair "x=$tmp/folder:$csv"
refused "accuracy_table.py: --pair x: $res: no /launches table (a results file" "$G/accuracy_table.py" --pair "x=$res:$csv"
refused "writes_agreement.py: --tol -1" "$G/writes_agreement.py" --ncu "$csv" --ncu "$csv" --tol -1
refused "writes_agreement.py: --ncu $csv has no metric foo.sum" "$G/writes_agreement.py" --ncu "$csv" --ncu "$csv" \
    --metric foo.sum=inst
refused "writes_agreement.py: --ncu $tmp/none.csv" "$G/writes_agreement.py" --ncu "$tmp/none.csv" --ncu "$csv"
refused "writes_after.py: --top -1" "$G/writes_after.py" --profile "$prof" --top -1
refused "writes_after.py: --profile $tmp/cut.h5: not a readable HDF5 file" "$G/writes_after.py" --profile "$tmp/cut.h5"
refused "ncu_compare.py: --worst -1" "$H/ncu_compare.py" --profile "$prof" --ncu-csv "$csv" --worst -1
refused "ncu_compare.py: --min-sectors -5" "$H/ncu_compare.py" --profile "$prof" --ncu-csv "$csv" --min-sectors -5
refused "ncu_compare.py: --repeat $none: no such file" "$H/ncu_compare.py" --profile "$prof" --ncu-csv "$csv" --repeat "$none"

# 9. pair_check.py
printf 'p\tgroupby\tglobal\tshared\t16777216\nq\tgroupby\tglobal\tshared\tmany\n' > "$tmp/pairs.tsv"
refused "$tmp/pairs.tsv:2: n 'many' is not a number" "$T/pair_check.py" plan "$res" "$tmp/pairs.tsv"
refused "$res: not a text file" "$T/pair_check.py" plan "$res" "$res"
refused "usage:" "$T/pair_check.py" plan "$res" "$T/pairs.tsv" extra
refused "$prof: no /points" "$T/pair_check.py" plan "$prof" "$T/pairs.tsv"

# 10. suite_check.py: an --out it cannot write before any report; the two files swapped
refused "--out $tmp/nosuch/report.txt" "$H/suite_check.py" --profile "$prof" --results "$res" --out "$tmp/nosuch/report.txt"
[ -s "$tmp/out" ] && bad "suite_check.py with an --out it cannot write printed the report"
refused "--profile $res: a results file, not a profile file" "$H/suite_check.py" --profile "$res" --results "$prof"
refused "--results $tmp/cut.h5: not a readable HDF5 file" "$H/suite_check.py" --profile "$prof" --results "$tmp/cut.h5"

# 11. where h5py and numpy are not importable (python3 -S: no site-packages): one line naming them, exit 3,
# never a traceback; modes_summary.py's steps tables need neither and still print
for t in "$T/findings.py $res" "$T/wall_targets.py $res" "$T/shard_equivalence.py $res $res" \
         "$T/pair_check.py plan $res $T/pairs.tsv" "$G/sampled_rates.py $prof"; do
    # shellcheck disable=SC2086
    python3 -S $t > "$tmp/out" 2> "$tmp/err"
    rc=$?
    tool=$(basename "${t%% *}")
    if [ $rc -ne 3 ] || [ "$(grep -c . "$tmp/err")" -ne 1 ] || ! grep -qF "$tool: needs h5py and numpy (pip install h5py numpy" "$tmp/err"; then
        bad "python3 -S $tool: exit $rc, want 3 and one line naming h5py and numpy: $(head -n 4 "$tmp/err")"
    fi
done
python3 -S "$G/modes_summary.py" "$src/results/h200-profile/modes-af6c05e/graph" --plain plain > "$tmp/out" 2> "$tmp/err" &&
    grep -qF "| ncu9 | 0 | 42.28 | 7.29x | yes |" "$tmp/out" && grep -qF "(no h5py/numpy here: no range check)" "$tmp/out" ||
    bad "python3 -S modes_summary.py: want its steps table and the range check said skipped: $(head -n 4 "$tmp/err")"
finish
