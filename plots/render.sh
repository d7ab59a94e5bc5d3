#!/usr/bin/env bash
# render.sh RESULTS.h5 [OTHER.h5] - exports the data of every plots/fig*.gp from one
# results file (wallbench export) and renders each figure as PNG, PDF and SVG into
# plots/out/<results-file-stem>/. A figure whose data the file lacks (export
# exit 3: family not run, counters missing, no second file for fig-compare)
# is skipped with its one-line reason. OTHER.h5 is the second file of
# fig-compare (export --with). $WALLBENCH: the binary (default: the
# newest build/*/wallbench); $WB_PLOTS_OUT: another output folder (tests);
# $WB_SHAPE: the launch-shape rule of every family figure (export --shape),
# overriding a script's own "# launch-shape rule:" line.
# Exit: 0 every exported figure rendered, 1 an export or a render failed,
# 2 bad input (a file missing, a folder, or one wallbench cannot read; a profile file with a second
# file or as the second; a $WB_SHAPE export would refuse: said once, no folder made),
# 3 gnuplot missing. A profile file (wallbench profile) renders fig4-profile and, where
# it holds a sampled timeline (--sample), fig-timeline.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: plots/render.sh RESULTS.h5 [OTHER.h5]" >&2; exit 2; fi
results=$1
with=${2:-}
files=("$results")
[ -n "$with" ] && files+=("$with")
for f in "${files[@]}"; do
    if [ -d "$f" ]; then echo "render: $f is a folder, not a results file: give one of its .h5 files" >&2; exit 2; fi
    if [ ! -f "$f" ]; then echo "render: $f: no such file" >&2; exit 2; fi
done
wb=${WALLBENCH:-$(ls -t "$root"/build/*/wallbench 2>/dev/null | head -n 1)}
if [ -z "$wb" ] || [ ! -x "$wb" ]; then
    echo "render: no wallbench binary: run make build, or set WALLBENCH" >&2
    exit 2
fi
# Each file read once, cheaply (wallbench report), before any folder is made: an empty, truncated,
# text or foreign file is one sentence and exit 2, not one failed export per figure.
for f in "${files[@]}"; do
    msg=$("$wb" report "$f" --csv 2>&1 >/dev/null); rc=$?
    if [ $rc -ne 0 ]; then
        msg=$(printf '%s\n' "$msg" | grep -m 1 . | sed 's/^wallbench report: //')
        echo "render: ${msg:-$f: wallbench report could not read it (exit $rc)}" >&2
        exit 2
    fi
done
# Which kind each file is (a profile file exports fig4-profile: exit 0, or 3 without data; a results
# file refuses the name: 2), and whether the two go together and $WB_SHAPE reads, all before any
# folder is made: one sentence and exit 2 rather than one failed export per figure.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kind() { "$wb" export "$1" --fig fig4-profile --out "$tmp/kind" >/dev/null 2>&1; case $? in 0 | 3) echo profile ;; *) echo results ;; esac; }
profile=$([ "$(kind "$results")" = profile ] && echo 1)
if [ -n "$with" ] && [ -n "$profile" ]; then
    echo "render: $results is a profile file: its figures take no second file (fig-compare compares two results files)" >&2; exit 2
fi
if [ -n "$with" ] && [ "$(kind "$with")" = profile ]; then
    echo "render: $with is a profile file: fig-compare's second file is a results file" >&2; exit 2
fi
if [ -n "${WB_SHAPE:-}" ] && [ -z "$profile" ]; then
    msg=$("$wb" report "$results" --shape "$WB_SHAPE" --csv 2>&1 >/dev/null) ||
        { echo "render: WB_SHAPE=$WB_SHAPE: $(printf '%s\n' "$msg" | grep -m 1 . | sed 's/^wallbench report: //; s/ (see wallbench report --help)$//')" >&2; exit 2; }
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "render: gnuplot is missing (harness/deps.sh plots installs it)" >&2
    exit 3
fi
stem=$(basename "$results")
stem=${stem%.h5}
out=${WB_PLOTS_OUT:-$root/plots/out/$stem}
case "$out" in *"'"*) echo "render: output folder must not contain a quote: $out" >&2; exit 2 ;; esac
mkdir -p "$out" || exit 2
# Two results files of one name (two profiles' core.h5) share plots/out/<stem>: the figures of the
# first would be replaced without a word. rendered-from.txt names the file a folder was drawn from.
from=$(cd "$(dirname "$results")" && pwd)/$(basename "$results")
from=${from#"$root"/}
if [ -f "$out/rendered-from.txt" ] && [ "$(head -n 1 "$out/rendered-from.txt")" != "$from" ]; then
    echo "render: $out held the figures of $(head -n 1 "$out/rendered-from.txt"); they are replaced by $from's (WB_PLOTS_OUT=DIR keeps both)" >&2
fi
printf '%s\n' "$from" > "$out/rendered-from.txt"

rendered=0 skipped=0 failed=0
for gp in "$here"/fig*.gp; do
    name=$(basename "$gp" .gp)
    # a profile file's figures: fig4-profile and fig-timeline (skipped without --sample's samples)
    if [ "$name" = fig4-profile ] || [ "$name" = fig-timeline ]; then [ -n "$profile" ] || continue; elif [ -n "$profile" ]; then continue; fi
    # A figure's launch-shape rule: $WB_SHAPE, else its "# launch-shape rule: RULE" line,
    # else the fastest shape per point; the figure states it in its title.
    shape=${WB_SHAPE:-$(sed -n 's/^# launch-shape rule: *//p' "$gp" | head -n 1)}
    # OTHER.h5 is fig-compare's alone: export refuses --with for a figure of one file
    other=$([ "$name" = fig-compare ] && printf '%s' "$with")
    # a family figure's launch-shape rule (a profile's figures take none: each kernel at its own shape)
    rule=$([ -z "$profile" ] && printf '%s' "${shape:-fastest}")
    msg=$("$wb" export "$results" --fig "$name" --out "$tmp" ${other:+--with "$other"} ${rule:+--shape "$rule"} 2>&1)
    rc=$?
    if [ $rc -eq 3 ]; then
        echo "skip $name: ${msg#*skipped: }"
        skipped=$((skipped + 1))
        continue
    elif [ $rc -ne 0 ]; then
        echo "render: export $name failed (exit $rc): $msg" >&2
        failed=$((failed + 1))
        continue
    fi
    echo "$msg"
    # gnuplot's warnings stay in the log unless the render fails
    if gnuplot -e "data='$tmp'; out='$out/$name'" "$gp" >"$tmp/$name.log" 2>&1 && [ -s "$out/$name.png" ] &&
        [ -s "$out/$name.pdf" ] && [ -s "$out/$name.svg" ]; then
        rendered=$((rendered + 1))
    else
        echo "render: gnuplot $name failed:" >&2
        cat "$tmp/$name.log" >&2
        failed=$((failed + 1))
    fi
done
echo "render: $rendered rendered, $skipped skipped, $failed failed -> $out"
[ $failed -eq 0 ] || exit 1
