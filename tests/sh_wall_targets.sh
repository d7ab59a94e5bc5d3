#!/usr/bin/env bash
# sh_wall_targets.sh WALLBENCH - harness/tools/wall_targets.py (the issue 17 numbers
# the lead reads off a record) on the synthetic file of tests/test_export
# --write: it exits 0 and prints the five gather_word table sizes with their
# rates. CTest skip (77) without python3 + h5py + numpy.
set -u
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
gen=${WB_BUILD_DIR:-}/tests/test_export
python3 -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 with h5py and numpy is missing"; exit 77; }
[ -x "$gen" ] || { echo "FAIL: no $gen"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" --write "$tmp/s.h5" >/dev/null 2>&1 || { echo "FAIL: $gen --write"; exit 1; }
out=$(python3 "$src/harness/tools/wall_targets.py" "$tmp/s.h5") || { echo "FAIL: wall_targets.py exited $?"; echo "$out"; exit 1; }
echo "$out"
n=$(grep -c '^  gather_word ' <<< "$out")
[ "$n" -eq 5 ] || { echo "FAIL: $n gather_word sizes, want 5"; exit 1; }
grep -q '^  gather_word .*1024 MiB .* 40.0 G req/s' <<< "$out" || { echo "FAIL: 1 GiB gather_word is not 40.0 G req/s"; exit 1; }
python3 "$src/harness/tools/wall_targets.py" 2>/dev/null; [ $? -eq 2 ] || { echo "FAIL: no argument must exit 2"; exit 1; }
echo "ok"
