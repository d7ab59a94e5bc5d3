#!/usr/bin/env bash
# sh_data_out.sh WALLBENCH - data a script can use, on synthetic files of both kinds (a results
# file from tests/test_export --write, a profile from tests/test_profile_tools --write):
# `report --json` is one JSON document with every table, Table 2 included, whose numeric cells are
# numbers (bare, or {"value", "unit"} / {"mean", "std", "unit"}), never printed strings like
# "82.0%" or "2+-4%"; Table 6's memory and compute shares add up to 100%; `report --csv` holds the
# same tables; and `list --names` prints exactly one line per point of the sweep.
. "$(dirname "$0")/common.sh"
wb=$1
gen_results=${WB_BUILD_DIR:-}/tests/test_export
gen_profile=${WB_BUILD_DIR:-}/tests/test_profile_tools
for g in "$gen_results" "$gen_profile"; do
    [ -x "$g" ] || { echo "FAIL: $g (writes a synthetic file) is not built"; exit 1; }
done
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$gen_results" --write "$tmp/results.h5" >/dev/null || fail "test_export --write"
"$gen_profile" --write "$tmp/profile.h5" >/dev/null || fail "test_profile_tools --write"

if command -v python3 >/dev/null; then
    for kind in results profile; do
        f=$tmp/$kind.h5
        "$wb" report "$f" --json >"$tmp/$kind.json" 2>"$tmp/err" || fail "report $kind --json: exit $? $(head -n 2 "$tmp/err")"
        python3 - "$tmp/$kind.json" "$kind" <<'PY' || failures=$((failures + 1))
import json, re, sys
doc, kind = json.load(open(sys.argv[1])), sys.argv[2]
bad = []
if doc.get("kind") != kind: bad.append("kind %r, want %r" % (doc.get("kind"), kind))
titles = [t["title"] for t in doc["tables"]]
for want in ("Table 2", "Table 6", "Table 7", "Table 8", "Table 9"):
    if not any(t.startswith(want) for t in titles): bad.append("no %s in %s" % (want, titles))
printed = re.compile(r"^-?[0-9][0-9,]*(\.[0-9]+)?(%|x)?$|\+-")  # a number left as printed text
numbers = 0
for t in doc["tables"]:
    for row in t["table"]["rows"]:
        for cell in row[1:]:
            if isinstance(cell, str) and printed.search(cell): bad.append("%s: printed cell %r" % (t["title"][:40], cell))
            if isinstance(cell, (int, float)) or (isinstance(cell, dict) and "unit" in cell): numbers += 1
            if isinstance(cell, dict) and not isinstance(cell.get("value", cell.get("mean")), (int, float, type(None))):
                bad.append("cell %r" % cell)
if numbers == 0: bad.append("no numeric cell at all")
t6 = next(t for t in doc["tables"] if t["title"].startswith("Table 6"))
rows = {r[0]: r for r in t6["table"]["rows"]}
mem, comp = rows["Memory bound"][1], rows["Compute bound"][1]
if not (isinstance(mem, dict) and mem["unit"] == "%" and abs(mem["value"] + comp["value"] - 100) < 1e-9):
    bad.append("Table 6 measured shares %r + %r are not 100%%" % (mem, comp))
t2 = next(t for t in doc["tables"] if t["title"].startswith("Table 2"))
sms = next(r for r in t2["table"]["rows"] if r[0] == "SM count")
if sms[1] != 58: bad.append("Table 2 L4 SM count %r, want 58 (gpus.tsv)" % sms[1])
for m in bad: print("FAIL: report %s --json: %s" % (kind, m))
if not bad: print("ok: report %s --json: %d tables, %d numeric cells, Table 2 included" % (kind, len(titles), numbers))
sys.exit(1 if bad else 0)
PY
        "$wb" report "$f" --csv >"$tmp/$kind.csv" 2>&1 && grep -q "^# Table 2" "$tmp/$kind.csv" &&
            grep -q "^# Table 9" "$tmp/$kind.csv" || fail "report $kind --csv lacks Table 2 or 9"
    done
else
    echo "python3 is missing: report --json is not checked here"
fi

# list --names: one name a line, nothing else, as many lines as the sweep has points
for fam in transform select; do
    want=$("$wb" list --family $fam 2>/dev/null | sed -n 's/.*points: test \([0-9]*\),.*/\1/p')
    got=$("$wb" list --family $fam --sweep test --names 2>/dev/null | wc -l)
    names=$("$wb" list --family $fam --sweep test --names 2>/dev/null | grep -c "^$fam/")
    if [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$got" -eq "$want" ] && [ "$names" -eq "$want" ]; then
        echo "ok: list --family $fam --sweep test --names: $got lines, $want points"
    else
        fail "list --family $fam --sweep test --names: $got lines ($names names), the sweep has '$want' points"
    fi
done

finish
