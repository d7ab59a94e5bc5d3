#!/usr/bin/env bash
# sh_pandas_read.sh WALLBENCH - docs/results-format.md's pandas snippet
# (tests/pandas_read.py) on a file of this build's schema (`wallbench merge` of the
# committed shards of record 47c0bec) and its CSV export. CTest skip (77)
# when python3, h5py or pandas is missing: sh_results_read.sh checks the CSV
# without them.
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
python3 -c 'import h5py, pandas' 2>/dev/null || { echo "SKIP: python3 lacks h5py or pandas (pip install h5py pandas)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$wb" merge "$src"/results/h200-shards/*.h5 -o "$tmp/merged.h5" >"$tmp/merge.log" 2>&1 ||
    { echo "FAIL: merge: $(tail -n 3 "$tmp/merge.log")"; exit 1; }
"$wb" export "$tmp/merged.h5" --points --format csv -o "$tmp/points.csv" || { echo "FAIL: export"; exit 1; }
python3 "$src/tests/pandas_read.py" "$tmp/merged.h5" "$tmp/points.csv" || exit 1
# The scripts' reader (harness/tools/counts_h5.py): a schema-8 file's int64 counts as floats, -1 as
# NaN; a schema-7 file's and a version-2 profile's float counts as they are.
python3 - "$src" "$tmp/merged.h5" <<'PY'
import sys, h5py, numpy as np
sys.path.insert(0, sys.argv[1] + "/harness/tools")
from counts_h5 import table
fail = []
with h5py.File(sys.argv[2], "r") as f:
    raw, t = f["points"][:], table(f, "points")
for c in ("inst", "dram_sectors_read", "l1_sectors"):
    if raw[c].dtype.kind != "i" or t[c].dtype.kind != "f":
        fail.append("%s: stored %s, read %s" % (c, raw[c].dtype, t[c].dtype))
    elif not ((raw[c] == -1) == np.isnan(t[c])).all() or (raw[c] == -1).sum() == 0:
        fail.append("%s: -1 and NaN do not line up (or nothing uncounted)" % c)
    elif not (t[c][raw[c] != -1] == raw[c][raw[c] != -1]).all():
        fail.append("%s: a count changed" % c)
if list(t["name"]) != list(raw["name"]) or not np.array_equal(t["time_median_ms"], raw["time_median_ms"], equal_nan=True):
    fail.append("other columns changed")
for path, name in ((sys.argv[1] + "/results/h200/20261202T140657Z-c2dfc31.h5", "points"),
                   (sys.argv[1] + "/results/h200-profile/modes-tpch/core.h5", "kernels")):
    with h5py.File(path, "r") as f:
        a, b = f[name][:], table(f, name)
    if a.dtype != b.dtype or not np.array_equal(a["inst"], b["inst"], equal_nan=True):
        fail.append("%s: a file with float counts changed" % path)
print("\n".join("FAIL: counts_h5: " + x for x in fail) or "ok: counts_h5 reads int64 and float counts alike")
sys.exit(1 if fail else 0)
PY
