#!/usr/bin/env bash
# sh_results_read.sh WALLBENCH - every committed results file (schema 1-5,
# results/**/*.h5) and a file of this build's schema made here (`wallbench merge` of the
# committed shards of record 47c0bec) read through `report` and
# `export --points --format csv`: exit 0, a CSV whose header is the column
# names ("name" first, no units inside), one row per point with the point's
# name in it, and its sidecar of units. The merged file keeps the record's
# ceilings in /ceilings (the DRAM-read and instruction ceilings equal the
# record's ceiling_* attributes) and says this build's schema, 7.
# Needs no python (sh_pandas_read.sh reads the same files with pandas).
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# One file through report and export; $2: its label in messages.
read_one() {
    local h5=$1 csv=$tmp/points.csv
    "$wb" report "$h5" >"$tmp/report.txt" 2>"$tmp/report.err" || { no "report $h5: $(head -c 300 "$tmp/report.err")"; return; }
    rm -f "$csv" "$csv.columns.json"
    "$wb" export "$h5" --points --format csv -o "$csv" 2>"$tmp/export.err" ||
        { no "export $h5: $(head -c 300 "$tmp/export.err")"; return; }
    local header
    header=$(head -n 1 "$csv")
    case $header in name,id,family,variant,*) ;; *) no "$h5: CSV header starts '${header:0:60}'" ;; esac
    case $header in *"["*) no "$h5: a unit inside the CSV header" ;; esac
    grep -q '"name":"n","unit":"elements"' "$csv.columns.json" || no "$h5: the sidecar lacks the unit of n"
    # Every row starts with its quoted point name: family/variant/.../n:N.
    local rows named
    rows=$(grep -c '^"' "$csv")
    named=$(grep -c '^"[a-z0-9_]*/[A-Za-z0-9_.]*/[^"]*n:[0-9]' "$csv")
    [ "$rows" -gt 0 ] && [ "$rows" -eq "$named" ] || no "$h5: $named of $rows rows start with a point name"
}

n=0
while IFS= read -r h5; do
    # A profile of `wallbench profile` has its own tables (sh_profile_cli, test_profile_h5 read those).
    "$wb" export "$h5" --table kernels --format csv >/dev/null 2>&1 && continue
    read_one "$h5"
    n=$((n + 1))
done < <(find "$src/results" -name '*.h5' | LC_ALL=C sort)
echo "read $n committed results files"
[ "$n" -ge 5 ] || no "only $n committed results files found under $src/results"

# This build's schema (8: counts as int64): the record's shards merged here.
shards=("$src"/results/h200-shards/*.h5)
merged=$tmp/merged.h5
if "$wb" merge "${shards[@]}" -o "$merged" >"$tmp/merge.log" 2>&1; then
    read_one "$merged"
    "$wb" export "$merged" --points --format json -o "$tmp/points.json" || no "export json of the merged file"
    grep -q '"schema_version":10' "$tmp/points.json" || no "the merged file is not schema 10 (this build's)"
    # Its counts, stored as integers, read back as the record's doubles (the same merge, schema 5)
    "$wb" export "$merged" --points --format csv -o "$tmp/merged.csv" &&
        "$wb" export "$src/results/h200/20261201T122005Z-47c0bec.h5" --points --format csv -o "$tmp/record.csv" ||
        no "export csv of the merged file and the record"
    python3 - "$tmp/merged.csv" "$tmp/record.csv" <<'PY' || no "the merged file's counts differ from the record's"
import csv, sys
rows = [{r["name"]: r for r in csv.DictReader(open(p))} for p in sys.argv[1:]]
cols = ("inst", "inst_issued", "dram_sectors_read", "dram_sectors_write", "l2_sectors", "l1_sectors")
bad = [(n, c) for n in rows[1] for c in cols if rows[0][n][c] != rows[1][n][c]]
counted = sum(rows[0][n]["inst"] not in ("NaN", "") for n in rows[0])
print(f"{len(rows[0])} points, {counted} counted; {len(bad)} count cells differ {bad[:3]}")
sys.exit(1 if bad or len(rows[0]) != len(rows[1]) or counted < 700 else 0)
PY
    grep -q '"ceilings":\[{"name":"' "$tmp/points.json" || no "the merged file's JSON has no ceilings"
    if grep -q '"ceiling_dram_read_gbps"' "$tmp/points.json"; then no "a ceiling attribute in the merged file's provenance"; fi
    # The record (made by the same merge with schema 5) holds them as attributes.
    record=$src/results/h200/20261201T122005Z-47c0bec.h5
    "$wb" export "$record" --points --format json -o "$tmp/record.json" || no "export json of the record"
    for c in dram_read:GB/s:gbps inst_issue:G\ inst/s:gips; do
        name=${c%%:*} rest=${c#*:} unit=${rest%%:*} suffix=${rest#*:}
        want=$(grep -o "\"ceiling_${name}_${suffix}\":[-0-9.e+]*" "$tmp/record.json" | head -n 1 | cut -d: -f2)
        got=$(grep -o "{\"name\":\"$name\",\"size_bytes\":null,\"unit\":\"$unit\",\"value\":[-0-9.e+]*" \
            "$tmp/points.json" | head -n 1 | sed 's/.*"value"://')
        [ -n "$want" ] && [ "$want" = "$got" ] || no "ceiling $name: record attribute '$want', merged /ceilings '$got'"
    done
else
    no "merge of the committed shards: $(tail -n 3 "$tmp/merge.log")"
fi
[ $fail -eq 0 ] && echo "every results file reads through report and export"
exit $fail
