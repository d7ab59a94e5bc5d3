#!/usr/bin/env bash
# sh_plots.sh WALLBENCH - renders every figure of plots/ through
# plots/render.sh and checks that each PNG exists and is not empty, each SVG
# is an SVG document, and that
# each export had rows. Data: the newest measured results/h200/*.h5 (by name,
# projections and the baseline copy left out; fig-compare against the record's
# repeat in results/h200-repeat/, else its L4 projection when that file is there), else a
# synthetic file written by tests/test_export --write (every family, with
# counters, compare_with pointing at itself). Every figure must render;
# fig-compare may be skipped for a committed file without compare_with.
# A file render.sh cannot use (missing, a folder, empty, text, truncated, foreign
# HDF5; as RESULTS or OTHER; a profile file with a second file or as the second; a
# $WB_SHAPE export refuses) is one sentence and exit 2, with no output folder made
# (this part runs without gnuplot). CTest skip (77) when gnuplot is missing.
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
bad=$(mktemp -d)
fail=0
mkdir -p "$bad/folder.h5"
: >"$bad/empty.h5"
echo "not hdf5" >"$bad/text.h5"
good=$(ls "$src"/results/h200/*.h5 2>/dev/null | LC_ALL=C sort | tail -n 1)
[ -n "$good" ] && head -c 4096 "$good" >"$bad/truncated.h5"
# expect_bad FILE TEXT [OTHER]: render.sh exits 2, says TEXT on one line, and makes no folder
expect_bad() {
    local f=$1 text=$2 other=${3:-} out rc n
    out=$(WALLBENCH=$wb WB_PLOTS_OUT=$bad/out "$src/plots/render.sh" "$f" $other 2>&1); rc=$?
    n=$(printf '%s\n' "$out" | grep -c .)
    if [ $rc -ne 2 ] || [ "$n" -ne 1 ] || ! printf '%s' "$out" | grep -qF -- "$text" || [ -e "$bad/out" ]; then
        echo "FAIL: render.sh $f $other: exit $rc (want 2), $n line(s) (want 1, with '$text'), folder made: $([ -e "$bad/out" ] && echo yes || echo no):"
        printf '%s\n' "$out" | head -n 5
        fail=1
        rm -rf "$bad/out"
    else
        echo "ok: render.sh $(basename "$f") ${other:+$(basename "$other")} -> 2: $out"
    fi
}
expect_bad "$bad/none.h5" "none.h5: no such file"
expect_bad "$bad/folder.h5" "folder.h5 is a folder, not a results file"
expect_bad "$bad/empty.h5" "empty.h5 is empty (0 bytes)"
expect_bad "$bad/text.h5" "text.h5: not an HDF5 file"
[ -n "$good" ] && expect_bad "$bad/truncated.h5" "truncated.h5: H5Fopen failed"
[ -n "$good" ] && expect_bad "$good" "text.h5: not an HDF5 file" "$bad/text.h5"
# files that read but do not go together, and a launch-shape rule export would refuse: said before
# any export (these failed late, one export per figure, until 2026-12-05)
prof=$src/results/h200-profile/tpch-both.h5
if [ -n "$good" ] && [ -f "$prof" ]; then
    expect_bad "$prof" "its figures take no second file" "$good"
    expect_bad "$good" "fig-compare's second file is a results file" "$prof"
fi
[ -n "$good" ] && WB_SHAPE=bogus expect_bad "$good" "WB_SHAPE=bogus: launch shape 'bogus'"
# a foreign HDF5 file (h5py writes it, where installed)
if python3 -c 'import h5py' 2>/dev/null; then
    python3 -c 'import h5py, sys; f = h5py.File(sys.argv[1], "w"); f["x"] = [1, 2, 3]' "$bad/foreign.h5" &&
        expect_bad "$bad/foreign.h5" "foreign.h5: no /points dataset: not a wallbench results file"
fi
rm -rf "$bad"
if ! command -v gnuplot >/dev/null 2>&1; then
    [ $fail -eq 0 ] || exit 1
    echo "SKIP: gnuplot is not installed (harness/deps.sh plots installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$(ls "$src"/results/h200/*.h5 2>/dev/null | grep -v -- '-projected-' | grep -v '/baseline[^/]*\.h5$' | LC_ALL=C sort | tail -n 1)
# fig-compare's second file: the record's repeat where it is committed (results/h200-repeat/, the same
# run name), else a projection beside it; with it every other figure still renders from the first
with=""
repeat=$(ls "$src"/results/h200-repeat/*.h5 2>/dev/null | grep -v "/baseline[^/]*\.h5$" | LC_ALL=C sort | tail -n 1)
[ -n "$results" ] && [ -n "$repeat" ] && [ "${repeat##*-}" = "${results##*-}" ] && with=$repeat
[ -z "$with" ] && [ -n "$results" ] && [ -f "${results%.h5}-projected-l4.h5" ] && with=${results%.h5}-projected-l4.h5
if [ -z "$results" ]; then
    gen=${WB_BUILD_DIR:-}/tests/test_export
    if [ ! -x "$gen" ]; then
        echo "FAIL: no committed results/h200/*.h5 and no $gen to write a synthetic file"
        exit 1
    fi
    results=$tmp/synthetic.h5
    "$gen" --write "$results" || { echo "FAIL: $gen --write"; exit 1; }
fi
echo "rendering from $results"
WALLBENCH=$wb WB_PLOTS_OUT=$tmp/out "$src/plots/render.sh" "$results" $with >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
[ $rc -eq 0 ] || { echo "FAIL: render.sh exited $rc"; fail=1; }
for gp in "$src"/plots/fig*.gp; do
    name=$(basename "$gp" .gp)
    [ "$name" = fig4-profile ] || [ "$name" = fig-timeline ] && continue # a profile's figures: below
    if grep -q "^skip $name:" "$tmp/log"; then
        if [ "$name" = fig-compare ] && [ -z "$with" ] && [ "$results" != "$tmp/synthetic.h5" ]; then continue; fi
        # A committed record older than a family: its figure renders from a synthetic file instead, the
        # family's own (tests/test_<f>_figure --write, docs/adding-a-family.md) or test_export's.
        gen=${WB_BUILD_DIR:-}/tests/test_${name#fig-}_figure
        synth=$tmp/synthetic-${name#fig-}.h5
        [ -x "$gen" ] || gen=${WB_BUILD_DIR:-}/tests/test_export synth=$tmp/synthetic.h5
        if [ "$results" != "$tmp/synthetic.h5" ] && [ -x "$gen" ] &&
            grep -Eq "^skip $name: no ok point of (the .* family|family '.*')" "$tmp/log"; then
            [ -f "$synth" ] || "$gen" --write "$synth"
            mkdir -p "$tmp/synthetic"
            if "$wb" export "$synth" --fig "$name" --out "$tmp/synthetic" >/dev/null &&
                gnuplot -e "data='$tmp/synthetic'; out='$tmp/synthetic/$name'" "$gp" && [ -s "$tmp/synthetic/$name.png" ]; then
                echo "$name: not in $(basename "$results"); rendered from the synthetic file"
                continue
            fi
        fi
        echo "FAIL: $name was skipped"
        fail=1
        continue
    fi
    rows=$(sed -n "s/^$name: \([0-9]*\) rows.*/\1/p" "$tmp/log")
    [ -n "$rows" ] && [ "$rows" -gt 0 ] || { echo "FAIL: $name: export wrote no rows"; fail=1; }
    [ -s "$tmp/out/$name.png" ] || { echo "FAIL: $name.png missing or empty"; fail=1; }
    # SVG: XML whose root is an svg element (gnuplot's svg terminal)
    grep -q "<svg" "$tmp/out/$name.svg" 2>/dev/null && grep -q "</svg>" "$tmp/out/$name.svg" ||
        { echo "FAIL: $name.svg missing or not an SVG document"; fail=1; }
done
# fig4-profile from a synthetic profile file (tests/test_profile_tools --write): render.sh draws it alone.
gen=${WB_BUILD_DIR:-}/tests/test_profile_tools
if [ -x "$gen" ] && "$gen" --write "$tmp/profile.h5"; then
    WALLBENCH=$wb WB_PLOTS_OUT=$tmp/profile "$src/plots/render.sh" "$tmp/profile.h5" >"$tmp/plog" 2>&1 ||
        { cat "$tmp/plog"; echo "FAIL: render.sh on a profile file"; fail=1; }
    grep -q "^fig4-profile: [1-9][0-9]* rows" "$tmp/plog" || { echo "FAIL: fig4-profile: export wrote no rows"; fail=1; }
    # the synthetic profile has no sampled timeline: fig-timeline is skipped (sh_profile_cli renders its export)
    grep -q "render: 1 rendered, 1 skipped, 0 failed" "$tmp/plog" || { echo "FAIL: a profile renders fig4-profile, skips fig-timeline"; fail=1; }
    [ -s "$tmp/profile/fig4-profile.png" ] && grep -q "</svg>" "$tmp/profile/fig4-profile.svg" 2>/dev/null ||
        { echo "FAIL: fig4-profile.png/svg missing"; fail=1; }
    # another file of the same name into the same folder: its figures replace the first's, and it is said
    mkdir -p "$tmp/other" && cp "$tmp/profile.h5" "$tmp/other/profile.h5"
    WALLBENCH=$wb WB_PLOTS_OUT=$tmp/profile "$src/plots/render.sh" "$tmp/other/profile.h5" >"$tmp/plog2" 2>&1 ||
        { cat "$tmp/plog2"; echo "FAIL: render.sh on a second profile file"; fail=1; }
    grep -q "held the figures of $tmp/profile.h5; they are replaced by $tmp/other/profile.h5's" "$tmp/plog2" &&
        [ "$(cat "$tmp/profile/rendered-from.txt")" = "$tmp/other/profile.h5" ] ||
        { cat "$tmp/plog2"; echo "FAIL: a folder drawn from another file of the same name is not said"; fail=1; }
else
    echo "FAIL: no $gen to write a synthetic profile"
    fail=1
fi
[ $fail -eq 0 ] && echo "all figures rendered"
exit $fail
