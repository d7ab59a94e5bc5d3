#!/usr/bin/env bash
# sh_pandas_read.sh WALLBENCH - docs/results-format.md's pandas snippet
# (tests/pandas_read.py) on a schema-6 file (`wallbench merge` of the
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
python3 "$src/tests/pandas_read.py" "$tmp/merged.h5" "$tmp/points.csv"
