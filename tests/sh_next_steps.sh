#!/usr/bin/env bash
# sh_next_steps.sh WALLBENCH - the last lines of `make run` (harness/next_steps.sh): the file, the
# figure to open (or how to draw it without gnuplot), and the next commands, report, roofline, make
# check and compare against the newest other run of the folder (not a baseline, not a projection);
# each printed command is then run against real files, so a line that would not work fails here.
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
gen=${WB_BUILD_DIR:-}/tests/test_export
[ -x "$gen" ] || { echo "FAIL: $gen (writes the synthetic files) is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

d=$tmp/results/h200
mkdir -p "$d" "$tmp/figs"
"$gen" --write "$d/20261201T100000Z-aaaaaaa.h5" >/dev/null || { echo "FAIL: $gen --write"; exit 1; }
"$gen" --write "$d/20261201T110000Z-bbbbbbb.h5" >/dev/null
cp "$d/20261201T110000Z-bbbbbbb.h5" "$d/baseline-quick.h5"
cp "$d/20261201T110000Z-bbbbbbb.h5" "$d/20261201T100000Z-aaaaaaa-projected-l4.h5"
new=$d/20261201T110000Z-bbbbbbb.h5
bdir=$(dirname "$wb")

out=$("$src/harness/next_steps.sh" "$new" h200 "$bdir")
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -qxF "results: $new" || bad "the file is not named"
printf '%s\n' "$out" | grep -qF "figure:  none drawn here; where gnuplot is: make plots RESULTS=$new" || bad "no figure: how to draw it"
printf '%s\n' "$out" | grep -qF "make check GPU=h200 OUT=$d" || bad "make check with the folder"
printf '%s\n' "$out" | grep -qF "wallbench compare $d/20261201T100000Z-aaaaaaa.h5 $new" || bad "compare against the other run"
touch "$tmp/figs/fig4-roofline-points.png"
"$src/harness/next_steps.sh" "$new" h200 "$bdir" "$tmp/figs" | grep -qF "figure:  $tmp/figs/fig4-roofline-points.png" ||
    bad "the figure to open is not named"
# the printed wallbench commands work as printed
while read -r cmd; do
    eval "$cmd" >/dev/null 2>"$tmp/err" || bad "printed command failed: $cmd: $(head -n 2 "$tmp/err")"
done < <(printf '%s\n' "$out" | sed -n 's/^  \(.*wallbench [a-z]* [^#]*\)#.*/\1/p')
[ "$(printf '%s\n' "$out" | grep -c 'wallbench ')" -eq 3 ] || bad "expected report, roofline and compare lines"
"$src/harness/next_steps.sh" "$new" >/dev/null 2>&1; [ $? -eq 2 ] || bad "missing arguments: exit 2"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "sh_next_steps: ok"
