#!/usr/bin/env bash
# sh_next_steps.sh WALLBENCH - the last lines of `make run` (harness/next_steps.sh): the file, the
# figure to open (or how to draw it without gnuplot), and the next commands, report, roofline, make
# check (only where the profile has a baseline; else make baseline), compare against the newest other
# run of the folder (not a baseline, not a projection) and, on every profile but h200, against the
# committed H200 record; each printed wallbench command is then run against real files, so a line that
# would not work fails here. Every row of harness/gpus.tsv is walked: make check is offered exactly
# where a baseline exists.
. "$(dirname "$0")/common.sh"
wb=$1
gen=${WB_BUILD_DIR:-}/tests/test_export
[ -x "$gen" ] || { echo "FAIL: $gen (writes the synthetic files) is not built"; exit 1; }

# a tree of its own: the scripts, a committed record and baseline for h200 only
mkdir -p "$tmp/harness"
cp "$src/harness/next_steps.sh" "$src/harness/baselines.sh" "$src/harness/gpus.tsv" "$tmp/harness/"
cd "$tmp" || exit 1
d=results/h200
mkdir -p "$d" "$tmp/figs"
"$gen" --write "$d/20261201T100000Z-aaaaaaa.h5" >/dev/null || { echo "FAIL: $gen --write"; exit 1; }
"$gen" --write "$d/20261201T110000Z-bbbbbbb.h5" >/dev/null
cp "$d/20261201T110000Z-bbbbbbb.h5" "$d/baseline-quick.h5"
cp "$d/20261201T110000Z-bbbbbbb.h5" "$d/20261201T100000Z-aaaaaaa-projected-l4.h5"
new=$d/20261201T110000Z-bbbbbbb.h5
bdir=$(dirname "$wb")

out=$(harness/next_steps.sh "$new" h200 "$bdir")
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -qxF "results: $new" || bad "the file is not named"
printf '%s\n' "$out" | grep -qF "figure:  none drawn here; where gnuplot is: make plots RESULTS=$new" || bad "no figure: how to draw it"
printf '%s\n' "$out" | grep -qF "make check GPU=h200    # the newest run here against the quick-sweep baseline results/h200/baseline-quick.h5" || bad "make check on h200"
printf '%s\n' "$out" | grep -q "make baseline" && bad "make baseline offered where a baseline exists"
printf '%s\n' "$out" | grep -q "committed H200 record" && bad "the H200 record offered to an h200 run"
printf '%s\n' "$out" | grep -qF "wallbench compare $d/20261201T100000Z-aaaaaaa.h5 $new" || bad "compare against the other run"
touch "$tmp/figs/fig4-roofline-points.png"
harness/next_steps.sh "$new" h200 "$bdir" "$tmp/figs" | grep -qF "figure:  $tmp/figs/fig4-roofline-points.png" ||
    bad "the figure to open is not named"
# the printed wallbench commands work as printed
while read -r cmd; do
    eval "$cmd" >/dev/null 2>"$tmp/err" || bad "printed command failed: $cmd: $(head -n 2 "$tmp/err")"
done < <(printf '%s\n' "$out" | sed -n 's/^  \(.*wallbench [a-z]* [^#]*\)#.*/\1/p')
[ "$(printf '%s\n' "$out" | grep -c 'wallbench ')" -eq 3 ] || bad "expected report, roofline and compare lines"
harness/next_steps.sh "$new" >/dev/null 2>&1; [ $? -eq 2 ] || bad "missing arguments: exit 2"

# Another profile's first run (gh200 here; every row of gpus.tsv below): no baseline, so make baseline
# instead of make check, and compare against the committed H200 record; the commands work as printed.
g=results/gh200
mkdir -p "$g"
"$gen" --write "$g/20261202T100000Z-ccccccc.h5" >/dev/null
first=$g/20261202T100000Z-ccccccc.h5
out=$(harness/next_steps.sh "$first" gh200 "$bdir")
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^  make check " && bad "make check offered to a profile without a baseline"
printf '%s\n' "$out" | grep -qF "make baseline GPU=gh200    # keep this run" || bad "make baseline not offered"
printf '%s\n' "$out" | grep -qF "wallbench compare $d/20261201T110000Z-bbbbbbb.h5 $first   # this GPU against the committed H200 record" ||
    bad "compare against the H200 record not offered"
while read -r cmd; do
    eval "$cmd" >/dev/null 2>"$tmp/err" || bad "printed command failed: $cmd: $(head -n 2 "$tmp/err")"
done < <(printf '%s\n' "$out" | sed -n 's/^  \(.*wallbench [a-z]* [^#]*\)#.*/\1/p')
# kept as this machine's baseline: make check is offered from then on
mkdir -p "$g/local" && cp "$first" "$g/local/baseline-quick.h5"
harness/next_steps.sh "$first" gh200 "$bdir" | grep -qF "make check GPU=gh200    # the newest run here against the quick-sweep baseline results/gh200/local/baseline-quick.h5" ||
    bad "make check not offered once a baseline is kept"
rm -rf "$g/local"
# every profile of gpus.tsv: make check exactly where a baseline is, make baseline elsewhere; the record
# compare on every profile but h200
for prof in $(grep -v '^#' harness/gpus.tsv | tail -n +2 | cut -f1); do
    mkdir -p "results/$prof"
    f=results/$prof/20261203T100000Z-ddddddd.h5
    cp "$first" "$f"
    o=$(harness/next_steps.sh "$f" "$prof" "$bdir")
    if [ -f "results/$prof/baseline-quick.h5" ]; then
        printf '%s\n' "$o" | grep -q "^  make check GPU=$prof " || bad "$prof: make check not offered"
    else
        printf '%s\n' "$o" | grep -q "^  make check " && bad "$prof: make check offered without a baseline"
        printf '%s\n' "$o" | grep -q "make baseline GPU=$prof " || bad "$prof: make baseline not offered"
    fi
    if [ "$prof" = h200 ]; then
        printf '%s\n' "$o" | grep -q "committed H200 record" && bad "h200: the record offered"
    else
        printf '%s\n' "$o" | grep -q "committed H200 record" || bad "$prof: the record not offered"
    fi
    rm -f "$f"
done
finish
