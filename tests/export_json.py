#!/usr/bin/env python3
"""export_json.py POINTS.csv POINTS.json SAMPLES.csv SAMPLES.json - the JSON
exports against the CSV ones (which test_export_rows.c checks against the
HDF5 rows): same columns in the same order, every value equal (NaN in the
CSV is null in the JSON), the header the column names, their units the same in "columns",
"units" and the CSV's sidecar POINTS.csv.columns.json, the provenance and
ceilings present, the samples grouped by point in order."""
import csv, json, math, sys

def num(s):
    return float(s) if s not in ("NaN",) else None

points_csv, points_json, samples_csv, samples_json = sys.argv[1:5]
fail = []
with open(points_csv, newline="") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
doc = json.load(open(points_json))
if doc["format"] != "wallbench-points": fail.append("format")
if doc["provenance"].get("git_rev") != "abc1234": fail.append("provenance git_rev")
if doc["provenance"].get("sm_count") != 132: fail.append("provenance sm_count")
if not any(c["name"] == "dram_read" and c["unit"] == "GB/s" for c in doc["ceilings"]): fail.append("ceilings")
if any(k.startswith("ceiling_") for k in doc["provenance"]): fail.append("ceiling attributes in the provenance")
names = [c["name"] for c in doc["columns"]]
if names != header: fail.append("columns differ from the CSV header")
side = json.load(open(points_csv + ".columns.json"))
if side["format"] != "wallbench-columns" or side["columns"] != doc["columns"]: fail.append("sidecar columns")
for c in doc["columns"]:
    if doc["units"][c["name"]] != c["unit"]: fail.append("unit of " + c["name"])
    if sorted(c) != ["description", "name", "source", "type", "unit"]: fail.append("column fields %s (/columns' names)" % sorted(c))
if doc["units"]["time_median_ms"] != "ms" or doc["units"]["noise_pct"] != "%": fail.append("units")
if len(doc["points"]) != len(body): fail.append("point count")
for i, (p, r) in enumerate(zip(doc["points"], body)):
    if list(p.keys()) != names: fail.append("keys of point %d" % i)
    for c, cell in zip(doc["columns"], r):
        v = p[c["name"]]
        if c["type"] == "string":
            ok = v == cell
        elif cell == "NaN":
            ok = v is None
        else:
            ok = v == float(cell)
        if not ok: fail.append("point %d %s: json %r csv %r" % (i, c["name"], v, cell))
with open(samples_csv, newline="") as f:
    srows = list(csv.reader(f))[1:]
sdoc = json.load(open(samples_json))
flat = [(s["name"], s["point_id"], k, t) for s in sdoc["samples"] for k, t in enumerate(s["time_ms"])]
if [(r[0], int(r[1]), int(r[2]), num(r[3])) for r in srows] != flat: fail.append("samples differ")
if sdoc["units"]["time_ms"] != "ms": fail.append("samples unit")
if open(samples_csv).readline().strip() != "name,point_id,rep,time_ms": fail.append("samples CSV header is not /samples' names")
for m in fail: print("FAIL:", m)
sys.exit(1 if fail else 0)
