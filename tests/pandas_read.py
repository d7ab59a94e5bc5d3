#!/usr/bin/env python3
"""pandas_read.py RESULTS.h5 POINTS.csv - the two reads docs/results-format.md
shows and the README's HDF5 read, each snippet taken from its page and run on
these files: the CSV
export with pd.read_csv and the HDF5 file with h5py + pandas. Each must
give str columns for text and numeric
columns for numbers, with no conversion after the snippet; the columns are
the point name and the schema's names; the ceilings come as a table.
Exit 0 when all holds, 1 otherwise, 77 when h5py or pandas is missing."""
import os
import re
import sys

try:
    import h5py
    import pandas as pd
except ImportError as e:
    print("SKIP: %s (pip install h5py pandas)" % e)
    sys.exit(77)

h5_path, csv_path = sys.argv[1:3]
fail = []

# The snippet of docs/results-format.md, run as it stands there (the first
# python block), on these two files.
docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "results-format.md")
text = open(docs).read()
m = re.search(r"```python\n(.*?)```", text, re.S)
if not m:
    print("FAIL: no python snippet in %s" % docs)
    sys.exit(1)
snippet = m.group(1).replace('"RUN.h5"', repr(h5_path)).replace('"points.csv"', repr(csv_path))
scope = {}
exec(compile(snippet, docs, "exec"), scope)
points, table, ceilings = scope["points"], scope["table"], scope["ceilings"]
if len(scope["point"]) == 0:
    fail.append("the snippet's point by name is not there")


def is_text(series):
    return all(isinstance(v, str) for v in series.dropna()) and len(series.dropna()) > 0


# The README's snippet too (its first python block, on this file).
readme = open(os.path.join(os.path.dirname(docs), "..", "README.md")).read()
m = re.search(r"```python\n(.*?)```", readme, re.S)
if not m:
    print("FAIL: no python snippet in README.md")
    sys.exit(1)
front = {}
exec(compile(re.sub(r'"results/[^"]+\.h5"', repr(h5_path), m.group(1)), "README.md", "exec"), front)
if "command_line" not in front["provenance"] or "unit" not in front["columns"]:
    fail.append("README: provenance or the column table missing")
else:  # every text field the README shows decoded: /columns and the attributes too
    for col in ("name", "unit", "description", "source"):
        if col not in front["columns"] or front["columns"][col].map(lambda v: isinstance(v, bytes)).any():
            fail.append("README: /columns %s missing or bytes" % col)
    raw = [k for k, v in front["provenance"].items() if isinstance(v, bytes)]
    if raw or not isinstance(front["provenance"]["command_line"], str):
        fail.append("README: attributes left as bytes: %s" % raw[:5])

for label, df in (("csv", points), ("h5", table), ("README h5", front["points"])):
    if list(df.columns[:4]) != ["name", "id", "family", "variant"]:
        fail.append("%s: columns start %s" % (label, list(df.columns[:4])))
    for col in ("name", "family", "variant", "status"):
        if not is_text(df[col]):
            fail.append("%s: %s is not str (%r)" % (label, col, df[col].iloc[0]))
    for col, kind in (("n", "i"), ("id", "i"), ("time_median_ms", "f"), ("noise_pct", "f"), ("reps", "i")):
        if df[col].dtype.kind != kind:
            fail.append("%s: %s has dtype %s" % (label, col, df[col].dtype))
    if not all(n.startswith(f + "/" + v + "/") for n, f, v in zip(df["name"], df["family"], df["variant"])):
        fail.append("%s: a name that is not family/variant/..." % label)
    if any("[" in c for c in df.columns):
        fail.append("%s: a unit inside a column name" % label)
if len(points) != len(table) or list(points["name"]) != list(table["name"]):
    fail.append("the CSV and the HDF5 file differ in their points")
# Counts: int64 in the file (schema 8), -1 where not counted; after the snippets NaN there, every
# value the CSV's (which writes NaN where not counted).
with h5py.File(h5_path, "r") as f:
    stored = f["points"].dtype
version = int(h5py.File(h5_path, "r").attrs["schema_version"])
for col in ("inst", "dram_sectors_read", "l2_sectors", "l1_sectors"):
    if version >= 8 and stored[col].kind != "i":
        fail.append("%s is %s in a schema-%d file, not an integer" % (col, stored[col], version))
    for label, df in (("h5", table), ("README h5", front["points"])):
        same = (df[col].isna() == points[col].isna()).all() and (df[col].dropna() == points[col].dropna()).all()
        if not same or (df[col] == -1).any():
            fail.append("%s: %s differs from the CSV's (-1 left for not counted?)" % (label, col))
if not points["inst"].isna().any():
    fail.append("no point without counts in the file: the -1 -> NaN path is not tested")
# Shares are percent: the stopping rule's noise is below 5% of the median, not 0.05.
ok = table[table["status"] == "ok"]
if len(ok) and not (ok["noise_pct"].dropna() > 0.01).any():
    fail.append("noise_pct does not look like percent")
if not is_text(ceilings["name"]) or ceilings["value"].dtype.kind != "f":
    fail.append("/ceilings: name not str or value not a float")
dram = ceilings[(ceilings["name"] == "dram_read") & (ceilings["unit"] == "GB/s")]
if len(dram) != 1 or not dram["value"].iloc[0] > 1000:
    fail.append("/ceilings: no dram_read GB/s row")
for m in fail:
    print("FAIL:", m)
print("%d points, %d ceilings read as str and numeric columns" % (len(table), len(ceilings)) if not fail else "")
sys.exit(1 if fail else 0)
