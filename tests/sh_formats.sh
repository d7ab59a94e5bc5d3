#!/usr/bin/env bash
# sh_formats.sh WALLBENCH - the conventions every subcommand shares: --version; --json output of
# report, compare and check is one valid JSON document (python3's json) and --csv a table whose
# header names its columns, on the committed records; every subcommand's --help states its exit
# codes; --out is a folder and -o/--output a file (merge refuses --out, export rows take -o).
. "$(dirname "$0")/common.sh"
wb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: one check runs in another folder
. "$(dirname "$0")/expect.sh"

schema=$(sed -n 's/^#define WB_SCHEMA_VERSION \([0-9]*\).*/\1/p' "$src/harness/store/schema.h")
expect 0 "wallbench 0." --version
expect 0 "writes results schema $schema" --version

# every subcommand's help states its exit codes
for cmd in $("$wb" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
    expect 0 "exit codes:" "$cmd" --help
done

rec=$src/results/h200/20261201T122005Z-47c0bec.h5
prev=$src/results/h200/20261201T111332Z-5280b51.h5
if [ -f "$rec" ] && [ -f "$prev" ] && command -v python3 >/dev/null; then
    valid_json() { # valid_json WHAT ARGS...: the output parses as JSON and holds KEY
        local key=$1
        shift
        "$wb" "$@" >"$tmp/out.json" 2>"$tmp/err"
        if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if '$key' in d else 1)" "$tmp/out.json"; then
            echo "ok: wallbench $* is JSON with '$key'"
        else
            echo "FAIL: wallbench $*: not JSON with '$key': $(head -c 300 "$tmp/out.json") $(head -n 2 "$tmp/err")"
            failures=$((failures + 1))
        fi
    }
    valid_json tables report "$rec" --json
    valid_json families compare "$prev" "$rec" --json
    valid_json violations check "$rec" --baseline "$prev" --thresholds "$src/results/thresholds.txt" --json
    expect 0 "# Table 6" report "$rec" --csv
    expect 0 "point,family,variant,a_ms,b_ms,b_over_a,verdict,p" compare "$prev" "$rec" --csv
    # two records' times always differ by more than 0.01%: violations to print, whatever the thresholds of the day
    echo "time_median_ms 0.01%" > "$tmp/strict.txt"
    expect 1 "point,family,variant,metric,baseline,new,change_pct,allowed_pct,rule_line" \
        check "$rec" --baseline "$prev" --thresholds "$tmp/strict.txt" --csv
    # one meaning for --out (a folder) and -o/--output (a file)
    expect 2 "--out is a folder" export "$rec" --points --format csv --out "$tmp/points.csv"
    expect 2 "--points and --samples export every row, every shape" export "$rec" --points --format csv --shape ilp=1
    # --with is fig-compare's other file: with another figure it would be ignored, so it is refused
    expect 2 "--with names fig-compare's other file; fig4-roofline-points compares with none" \
        export "$rec" --fig fig4-roofline-points --with "$prev" --out "$tmp/figs"
    "$wb" export "$rec" --points --format csv -o "$tmp/points.csv" && [ -s "$tmp/points.csv" ] ||
        { echo "FAIL: export --points -o FILE"; failures=$((failures + 1)); }
    expect 2 "--out is a folder in every command" merge "$rec" --out "$tmp/m.h5"
    # export --fig without --out: a folder of its own, never the current one
    (cd "$tmp" && "$wb" export "$rec" --fig fig4 >/dev/null) && [ -f "$tmp/20261201T122005Z-47c0bec-tables/fig4-roofline-points.dat" ] &&
        [ -z "$(ls "$tmp"/*.dat 2>/dev/null)" ] || { echo "FAIL: export --fig without --out"; failures=$((failures + 1)); }
    "$wb" project "$rec" --to l4 --out "$tmp" >/dev/null && [ -f "$tmp/20261201T122005Z-47c0bec-projected-l4.h5" ] ||
        { echo "FAIL: project --out DIR: the default name in DIR"; failures=$((failures + 1)); }
    "$wb" project "$rec" --to l4 --out "$tmp/new/sub" >/dev/null && [ -f "$tmp/new/sub/20261201T122005Z-47c0bec-projected-l4.h5" ] ||
        { echo "FAIL: project --out DIR: DIR and its parents created, as run and export create theirs"; failures=$((failures + 1)); }
    : > "$tmp/plain"
    expect 2 "is not a folder" project "$rec" --to l4 --out "$tmp/plain/sub"
    "$wb" project "$rec" --to gh200 -o "$tmp/g.h5" >/dev/null && [ -f "$tmp/g.h5" ] ||
        { echo "FAIL: project -o FILE"; failures=$((failures + 1)); }
else
    echo "the committed records or python3 are missing: their formats are not checked here"
fi
finish
