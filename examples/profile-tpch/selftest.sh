#!/usr/bin/env bash
# selftest.sh - CPU check of examples/profile-tpch and harness/profile/ncu_compare.py:
#  1. ncu_compare.py on a synthetic profile file and synthetic Nsight Compute
#     CSVs (selftest_fixtures.py): equal data pass in every CSV form (raw
#     page, details page, mangled names, prefixed units); a DRAM count 2% off,
#     an instruction count off by one, an "n/a", an extra or reshaped launch
#     fail; 0.5% off, a small launch off and a reordered sequence pass; a graph
#     program's captured launches set aside and its nodes paired around; bad
#     input exits 2 with one message;
#  2. timing_compare.py: a file against itself passes, against 5% slower fails;
#  3. measure.sh's plumbing with a fake wallbench, ncu and program: every
#     step runs, overhead.txt carries the ratios and the comparisons' verdicts;
#  4. tpch_like.py --cpu-check (numpy for CuPy, torch on the CPU) verifies its
#     queries, --fail exits 3, --crash dies of SIGSEGV: only where torch is
#     importable (by python3 or $TORCH_PY), else reported as skipped.
# Needs numpy and h5py: exit 77 (skipped) without them, as in CI.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PY:-python3}
export PYTHONDONTWRITEBYTECODE=1  # nothing written into the source tree
if ! "$PY" -c 'import numpy, h5py' 2>/dev/null; then
    echo "skipped: $PY has no numpy or h5py (pip install numpy h5py)"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$PY" "$HERE/selftest_fixtures.py" "$T/fx" || { echo "selftest_fixtures.py failed"; exit 1; }
COMPARE="$ROOT/harness/profile/ncu_compare.py"
passed=0 failed=0 skipped=0

# expect NAME RC PATTERN CMD...: CMD exits RC and its output matches PATTERN (grep -E).
expect() {
    local name=$1 want=$2 pat=$3
    shift 3
    "$@" > "$T/out" 2>&1
    local rc=$?
    if [ "$rc" = "$want" ] && grep -Eq -- "$pat" "$T/out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: exit $rc (want $want), output should match /$pat/:"
        sed 's/^/  | /' "$T/out" | tail -n 15
    fi
}
cmp_csv() { "$PY" "$COMPARE" --profile "$T/fx/profile.h5" --ncu-csv "$T/fx/$1.csv" "${@:2}"; }

# 1. ncu_compare.py
expect equal 0 'RESULT: PASS \(12 launch pairs' cmp_csv equal
expect equal-names 0 'matching: sequence \(12 launches on each side agree on kernel name' cmp_csv equal
expect equal-mangled 0 'names compared mangled' cmp_csv equal_mangled
expect equal-units 0 'RESULT: PASS' cmp_csv equal_dynamic_units
expect equal-details 0 'RESULT: PASS' cmp_csv equal_details
expect counts 0 'dram__sectors_read.sum=dram_sectors_read +12 +10 +0 +2 +0 +0' cmp_csv equal
expect dram-half-pct 0 'dram__sectors_read.sum=dram_sectors_read +12 +9 +1 +2 +0 +0' cmp_csv dram_half_pct
expect dram-two-pct 1 'dram__sectors_write.sum=dram_sectors_write +12 +9 +0 +2 +0 +1 +0 +FAIL' cmp_csv dram_two_pct
expect dram-two-pct-tol 0 'RESULT: PASS' cmp_csv dram_two_pct --metric dram__sectors_write.sum=dram_sectors_write:0.03
expect inst-off-by-one 1 'smsp__inst_executed.sum=inst +12 +11 +0 +0 +0 +1 +0 +FAIL' cmp_csv inst_off_by_one
expect small-differs 0 'RESULT: PASS' cmp_csv small_differs
expect small-judged 1 'RESULT: FAIL' cmp_csv small_differs --min-sectors 0
expect na-value 1 'smsp__inst_executed.sum=inst +12 +11 +0 +0 +1 +0 +0 +FAIL' cmp_csv na_value
expect reordered 0 'diverge at launch 4: profile seq 4' cmp_csv reordered
expect reordered-pass 0 'RESULT: PASS \(12 launch pairs' cmp_csv reordered
expect extra-launch 1 'FAIL: 1 ncu launches have no partner, first: ID 7' cmp_csv extra_launch
expect grid-differs 1 'FAIL: 1 profile launches have no partner, first: seq 8' cmp_csv grid_differs
# a graph program: the profile's launches made inside a capture never ran (set aside), ncu's graph
# nodes have no partner in the profile, every other launch pairs in program order
cmp_graph() { "$PY" "$COMPARE" --profile "$T/fx/profile_captured.h5" --ncu-csv "$T/fx/graph_nodes.csv"; }
expect graph-captured 1 '2 profile launches were made inside a stream capture \(first: seq 4\)' cmp_graph
expect graph-in-order 1 'matching: in order \(12 pairs, every profile launch in program order; 2 ncu launches' cmp_graph
expect graph-counts 1 'smsp__inst_executed.sum=inst +12 +12 +0 +0 +0 +0 +0$' cmp_graph
expect graph-nodes-said 1 'FAIL: 2 ncu launches have no partner, first: ID 8' cmp_graph
expect graph-captured-only 0 'matching: sequence \(12 launches on each side agree' \
    "$PY" "$COMPARE" --profile "$T/fx/profile_captured.h5" --ncu-csv "$T/fx/equal.csv"
expect time-metric 0 'total +0.8546 +0.8546 +1.0000' cmp_csv equal --metric gpu__time_duration.sum=time_ms:0.02 --by-kernel
expect out-file 0 'RESULT: PASS' cmp_csv equal --out "$T/report.txt"
expect out-file-written 0 'RESULT: PASS' cat "$T/report.txt"
expect no-header 2 'no CSV header row.*==ERROR== The application returned' cmp_csv no_header
expect no-csv 2 'ncu-csv .*/nonesuch.csv: No such file' cmp_csv nonesuch
expect no-metric 2 'has no metric lts__t_sectors.sum' cmp_csv equal --metric lts__t_sectors.sum=l2_sectors
expect no-column 2 '/launches has no column nonesuch' cmp_csv equal --metric gpu__time_duration.sum=nonesuch
expect bad-spec 2 'expected NCU_METRIC=COLUMN' cmp_csv equal --metric inst
expect not-hdf5 2 'not a readable HDF5 file' "$PY" "$COMPARE" --profile "$T/fx/equal.csv" --ncu-csv "$T/fx/equal.csv"

# 2. timing_compare.py
expect times-same 0 'B/A 1.0000 \(within 2%\)' "$PY" "$HERE/timing_compare.py" "$T/fx/profile.h5" "$T/fx/profile.h5"
expect times-slower 1 'B/A 1.0500 \(NOT within 2%\)' "$PY" "$HERE/timing_compare.py" "$T/fx/profile.h5" \
    "$T/fx/profile_slow.h5"

# 3. measure.sh with fakes: wallbench copies the synthetic profile to -o,
# ncu the synthetic CSV to --log-file, and the "program" prints its lines.
mkdir -p "$T/bin"
cat > "$T/bin/wallbench" <<EOF
#!/usr/bin/env bash
[ "\$1" = profile ] || exit 2
shift
[ "\$1" = --list-metrics ] && { echo smsp__inst_executed.sum,dram__sectors_read.sum,gpu__time_duration.sum; exit 0; }
out=
while [ \$# -gt 0 ] && [ "\$1" != -- ]; do [ "\$1" = -o ] && out=\$2; shift; done
shift
cp "$T/fx/profile.h5" "\$out"
echo "wallbench profile: timing pass 1.5 s"
exec "\$@"
EOF
cat > "$T/bin/ncu" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && { echo "fake ncu"; exit 0; }
while [ \$# -gt 0 ] && [ "\$1" != --log-file ]; do shift; done
cp "$T/fx/equal_mangled.csv" "\$2"
shift 2
exec "\$@"
EOF
cat > "$T/bin/python" <<EOF
#!/usr/bin/env bash
case "\$1" in
*tpch_like.py)
    case " \$* " in *" --count-launches "*) echo "launches datagen 20"; echo "launches total 230";; esac
    echo "timed_region_ms=10.0"; echo "query_ms Q1 2.0"; echo "query_ms join 3.0"; exit 0;;
esac
exec "$PY" "\$@"
EOF
chmod +x "$T/bin/"*
expect measure 0 'both passes, process / plain: [0-9.]+x' env WB="$T/bin/wallbench" NCU="$T/bin/ncu" PY="$T/bin/python" \
    bash "$HERE/measure.sh" "$T/m" --with-none
expect measure-files 0 'ncu-none.csv' ls "$T/m"
expect measure-compare 0 'counter pass vs ncu, cache none \(rc 0\)' cat "$T/m/overhead.txt"
expect measure-steps 0 'steps. exit codes: .*compare-none 0, times-vs-both 0, times-vs-ncu 0' cat "$T/m/overhead.txt"
expect measure-launches 0 'kernel launches .*total 230' cat "$T/m/overhead.txt"
expect measure-no-wb 2 'WB=.* is not an executable' env WB="$T/nonesuch" bash "$HERE/measure.sh" "$T/m2"

# 4. tpch_like.py on the CPU, where torch is there.
TPY=${TORCH_PY:-$PY}
if "$TPY" -c 'import torch, numpy' 2>/dev/null; then
    P=(--cpu-check --rows 20000 --reps 2)
    # One run, its output kept for the per-query checks.
    expect cpu-check 0 '^timed_region_ms=[0-9.]+$' bash -c '"$@" > "$0" 2>&1; rc=$?; cat "$0"; exit $rc' \
        "$T/cpu.log" "$TPY" "$HERE/tpch_like.py" "${P[@]}"
    for q in Q1 Q6 join topk groupby; do
        expect "cpu-check-$q" 0 "^verify $q +ok" cat "$T/cpu.log"
    done
    expect fail 3 'exiting with 3 after the first query' "$TPY" "$HERE/tpch_like.py" "${P[@]}" --fail
    expect crash 139 'raising SIGSEGV' bash -c '"$0" "$@"; rc=$?; echo "rc $rc"; exit $rc' \
        "$TPY" "$HERE/tpch_like.py" "${P[@]}" --crash
    expect bad-rows 2 'at least 1000 rows' "$TPY" "$HERE/tpch_like.py" --rows 5
else
    echo "skipped: tpch_like.py --cpu-check ($TPY cannot import torch; set TORCH_PY)"
    skipped=1
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
[ "$skipped" = 0 ] || echo "(part 4 skipped)"
exit 0
