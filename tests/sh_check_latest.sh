#!/usr/bin/env bash
# sh_check_latest.sh WALLBENCH - `make check`'s and `make baseline`'s scripts
# (harness/check_latest.sh, keep_baseline.sh) on synthetic files: check takes the
# newest run by name (not a baseline, not a projection) against the quick baseline
# and says so; a profile without a baseline (no committed one, none kept) or a folder
# without a run gets one sentence saying what to do and exit 0; make baseline keeps
# the newest run as this machine's baseline (results/<profile>/local/), which check
# then uses; a BASELINE= that is missing or a text file is bad input (2). The
# synthetic files come from tests/test_export --write.
. "$(dirname "$0")/common.sh"
wb=$1
gen=${WB_BUILD_DIR:-}/tests/test_export
script=$src/harness/check_latest.sh
[ -x "$gen" ] || { echo "FAIL: $gen (writes the synthetic files) is not built"; exit 1; }

# expect_run CODE TEXT ARGS...: the script exits CODE and says TEXT.
expect_run() {
    local want=$1 text=$2 out rc
    shift 2
    out=$("$script" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ] || ! printf '%s' "$out" | grep -qF -- "$text"; then
        echo "FAIL: check_latest.sh $*: exit $rc (want $want), output lacks '$text':"
        printf '%s\n' "$out" | head -n 8
        failures=$((failures + 1))
    else
        echo "ok: check_latest.sh $* -> $rc"
    fi
}

# a copy of the scripts in a tree of their own: results/<profile>/ there is what the scripts see
mkdir -p "$tmp/harness"
cp "$src/harness/check_latest.sh" "$src/harness/keep_baseline.sh" "$src/harness/baselines.sh" "$tmp/harness/"
mkdir -p "$tmp/results" && cp "$src/results/thresholds.txt" "$tmp/results/"
script=$tmp/harness/check_latest.sh
cd "$tmp" || exit 1
d=results/gh200
mkdir -p "$d"
# a profile with no baseline (gh200: none committed): what to do, exit 0, run or no run
expect_run 2 "no run of yours in $d: run \`make run GPU=gh200\` first, then \`make baseline GPU=gh200\`" "$wb" "$d" gh200
"$gen" --write "$d/20261201T100000Z-aaaaaaa.h5" >/dev/null || { echo "FAIL: $gen --write"; exit 1; }
"$gen" --write "$d/20261201T110000Z-bbbbbbb.h5" >/dev/null
expect_run 0 "keep your run $d/20261201T110000Z-bbbbbbb.h5 as this machine's with make baseline GPU=gh200" "$wb" "$d" gh200
expect_run 2 "BASELINE=nosuch.h5: no such file" "$wb" "$d" gh200 nosuch.h5
# make baseline keeps the newest run; check then uses it
out=$(harness/keep_baseline.sh "$d" gh200 2>&1); rc=$?
if [ $rc -ne 0 ] || ! cmp -s "$d/20261201T110000Z-bbbbbbb.h5" "$d/local/baseline-quick.h5" ||
    ! printf '%s' "$out" | grep -qF "kept $d/20261201T110000Z-bbbbbbb.h5 as results/gh200/local/baseline-quick.h5"; then
    echo "FAIL: keep_baseline.sh: exit $rc: $out"; failures=$((failures + 1))
else echo "ok: keep_baseline.sh keeps the newest run"; fi
harness/keep_baseline.sh "$d" gh200 2>&1 | grep -qF "replaces the one kept before" ||
    { echo "FAIL: keep_baseline.sh again: no word that it replaced the baseline"; failures=$((failures + 1)); }
harness/keep_baseline.sh results/none gh200 >/dev/null 2>&1; [ $? -eq 2 ] ||
    { echo "FAIL: keep_baseline.sh without a run: not exit 2"; failures=$((failures + 1)); }
expect_run 0 "is the baseline itself (make baseline kept it)" "$wb" "$d" gh200
"$gen" --write "$d/20261201T120000Z-eeeeeee.h5" >/dev/null
expect_run 0 "against BASE = results/gh200/local/baseline-quick.h5" "$wb" "$d" gh200
# a committed baseline (h200's) and a kept one: the kept one first
h=results/h200
mkdir -p "$h"
"$gen" --write "$h/baseline-quick.h5" >/dev/null
expect_run 2 "no run of yours in $h: run \`make run GPU=h200\` first" "$wb" "$h" h200
"$gen" --write "$h/20261201T100000Z-aaaaaaa.h5" >/dev/null
"$gen" --write "$h/20261201T110000Z-bbbbbbb.h5" >/dev/null
cp "$h/baseline-quick.h5" "$h/20261201T120000Z-bbbbbbb-projected-l4.h5"
cp "$h/baseline-quick.h5" "$h/baseline.h5"
# the newest run by name, neither the projection nor a baseline, and within thresholds (the same points)
expect_run 0 "check NEW = $h/20261201T110000Z-bbbbbbb.h5" "$wb" "$h" h200
expect_run 0 "against BASE = $h/baseline-quick.h5" "$wb" "$h" h200
expect_run 0 "within thresholds" "$wb" "$h" h200
# BASELINE= another file; a text file given as one: one sentence, exit 2
expect_run 0 "against BASE = $h/baseline.h5" "$wb" "$h" h200 "$h/baseline.h5"
echo text >"$tmp/notes.txt"
expect_run 2 "notes.txt" "$wb" "$h" h200 "$tmp/notes.txt"

# committed records (git tracks them; a fresh clone's results/h200) are nobody's run: a folder of
# only committed files has no run to check nor to keep (exit 2, nothing kept), and a committed
# record newer by name than the user's run is passed over by both scripts
if ! git -C "$tmp" init -q 2>/dev/null; then
    echo "FAIL: git init in $tmp"; failures=$((failures + 1))
else
    l=results/l4
    mkdir -p "$l"
    "$gen" --write "$l/20261204T200319Z-1234567.h5" >/dev/null
    cp "$h/baseline-quick.h5" "$l/baseline-quick.h5"
    git -C "$tmp" add -- "$l/20261204T200319Z-1234567.h5" "$l/baseline-quick.h5"
    expect_run 2 "no run of yours in $l (the committed records there are not checked): run \`make run GPU=l4\` first" "$wb" "$l" l4
    out=$(harness/keep_baseline.sh "$l" l4 2>&1); rc=$?
    if [ $rc -ne 2 ] || [ -e "$l/local" ] || ! printf '%s' "$out" | grep -qF "no run of yours in $l to keep (committed records are never kept as yours)"; then
        echo "FAIL: keep_baseline.sh kept a committed record: exit $rc: $out"; failures=$((failures + 1))
    else echo "ok: keep_baseline.sh keeps no committed record -> 2"; fi
    "$gen" --write "$h/20261231T000000Z-fffffff.h5" >/dev/null
    git -C "$tmp" add -- "$h/20261231T000000Z-fffffff.h5"
    expect_run 0 "check NEW = $h/20261201T110000Z-bbbbbbb.h5" "$wb" "$h" h200
    rm -rf "$h/local"
    out=$(harness/keep_baseline.sh "$h" h200 2>&1)
    printf '%s' "$out" | grep -qF "kept $h/20261201T110000Z-bbbbbbb.h5 as" ||
        { echo "FAIL: keep_baseline.sh did not keep the newest own run: $out"; failures=$((failures + 1)); }
fi

# OUT= in the environment (the GPU machine of this project exports one) is not make's OUT=:
# make baseline, check and run take their folder from the command line only.
env_plan=$(cd "$src" && OUT=/tmp/env-out-dir make -n baseline GPU=h200 2>&1)
cli_plan=$(cd "$src" && make -n baseline GPU=h200 OUT=/tmp/cli-out-dir 2>&1)
if printf '%s' "$env_plan" | grep -q env-out-dir || ! printf '%s' "$env_plan" | grep -q "keep_baseline.sh results/"; then
    echo "FAIL: make baseline took OUT from the environment:"; printf '%s\n' "$env_plan" | head -n 4
    failures=$((failures + 1))
fi
if ! printf '%s' "$cli_plan" | grep -q cli-out-dir; then
    echo "FAIL: make baseline OUT=... ignored its OUT:"; printf '%s\n' "$cli_plan" | head -n 4
    failures=$((failures + 1))
fi
finish
