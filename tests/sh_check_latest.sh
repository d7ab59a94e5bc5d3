#!/usr/bin/env bash
# sh_check_latest.sh WALLBENCH - `make check`'s script (harness/check_latest.sh)
# on synthetic files: it checks the newest run by name (not a baseline, not a
# projection) against the quick baseline and says so; with no baseline, no
# run, or a text file as the baseline it says what is wrong in one sentence
# and exits 2. The synthetic files come from tests/test_export --write.
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
gen=${WB_BUILD_DIR:-}/tests/test_export
script=$src/harness/check_latest.sh
[ -x "$gen" ] || { echo "FAIL: $gen (writes the synthetic files) is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

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

d=$tmp/results/h200
mkdir -p "$d"
expect_run 2 "no baseline $d/baseline-quick.h5" "$wb" "$d"
"$gen" --write "$d/baseline-quick.h5" >/dev/null || { echo "FAIL: $gen --write"; exit 1; }
expect_run 2 "no results file in $d to check" "$wb" "$d"
"$gen" --write "$d/20261201T100000Z-aaaaaaa.h5" >/dev/null
"$gen" --write "$d/20261201T110000Z-bbbbbbb.h5" >/dev/null
cp "$d/baseline-quick.h5" "$d/20261201T120000Z-bbbbbbb-projected-l4.h5"
cp "$d/baseline-quick.h5" "$d/baseline.h5"
# the newest run by name, neither the projection nor a baseline, and within thresholds (the same points)
expect_run 0 "check NEW = $d/20261201T110000Z-bbbbbbb.h5" "$wb" "$d"
expect_run 0 "against BASE = $d/baseline-quick.h5" "$wb" "$d"
expect_run 0 "within thresholds" "$wb" "$d"
# BASELINE= another file; a text file given as one: one sentence, exit 2
expect_run 0 "against BASE = $d/baseline.h5" "$wb" "$d" "$d/baseline.h5"
echo text >"$tmp/notes.txt"
expect_run 2 "notes.txt" "$wb" "$d" "$tmp/notes.txt"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "sh_check_latest: ok"
