#!/usr/bin/env bash
# sh_ssb_duckdb.sh WALLBENCH - the ssb family's independent oracle: the 13 SSB
# queries as SQL text in DuckDB on tables the suite's generator wrote (SF ~0.17,
# 1,000,003 lineorder rows, an odd count), row for row against the suite's CPU
# reference. DuckDB (PyPI `duckdb`) is installed into a virtual environment in
# the build directory where it is missing; the test is skipped (77) with the
# reason where that cannot be done. Costs ~3 s once DuckDB is there.
set -u
build=${WB_BUILD_DIR:?WB_BUILD_DIR not set}
src=${WB_SOURCE_DIR:?WB_SOURCE_DIR not set}
py=python3
if ! command -v python3 >/dev/null; then echo "SKIP: no python3"; exit 77; fi
if ! python3 -c 'import duckdb' 2>/dev/null; then
    venv=$build/duckdb-venv
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then
        if ! python3 -m venv "$venv" >/dev/null 2>&1; then
            echo "SKIP: DuckDB missing and python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 77
        fi
        if ! "$venv/bin/pip" install --quiet duckdb >"$build/duckdb-pip.log" 2>&1; then
            echo "SKIP: DuckDB missing and pip install duckdb failed (no network?): $(tail -n 1 "$build/duckdb-pip.log")"
            exit 77
        fi
    fi
    py=$venv/bin/python
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/tests/test_ssb_ref" --csv "$dir" 1000003 3 || { echo "FAIL: test_ssb_ref --csv"; exit 1; }
"$py" "$src/tests/ssb_duckdb.py" "$dir"
