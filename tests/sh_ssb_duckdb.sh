#!/usr/bin/env bash
# sh_ssb_duckdb.sh WALLBENCH - the ssb family's independent oracle: the 13 SSB
# queries as SQL text in DuckDB on tables the suite's generator wrote (SF ~0.17,
# 1,000,003 lineorder rows, an odd count), row for row against the suite's CPU
# reference. DuckDB (PyPI `duckdb`) is installed into the build directory
# where it is missing; the test is skipped (77) with the
# reason where that cannot be done. Costs ~3 s once DuckDB is there, ~24 s
# (94 MB) for the first install on the 2-core CI machine.
set -u
build=${WB_BUILD_DIR:?WB_BUILD_DIR not set}
src=${WB_SOURCE_DIR:?WB_SOURCE_DIR not set}
py=python3
if ! command -v python3 >/dev/null; then echo "SKIP: no python3"; exit 77; fi
# DuckDB from PyPI where it is missing: a virtual environment in the build
# directory, else (Debian without python3-venv) pip's --target folder there.
if ! python3 -c 'import duckdb' 2>/dev/null; then
    venv=$build/duckdb-venv target=$build/duckdb-py log=$build/duckdb-pip.log
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then
        py=$venv/bin/python
    elif PYTHONPATH=$target python3 -c 'import duckdb' 2>/dev/null; then
        export PYTHONPATH=$target
    elif python3 -m venv "$venv" >"$log" 2>&1 && "$venv/bin/pip" install --quiet duckdb >>"$log" 2>&1; then
        py=$venv/bin/python
    elif python3 -m pip install --quiet --target "$target" duckdb >>"$log" 2>&1; then
        export PYTHONPATH=$target
    else
        echo "SKIP: DuckDB (PyPI duckdb) is missing and could not be installed (no network, or no python3-venv / python3-pip): $(tail -n 1 "$log")"
        exit 77
    fi
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/tests/test_ssb_ref" --csv "$dir" 1000003 3 || { echo "FAIL: test_ssb_ref --csv"; exit 1; }
"$py" "$src/tests/ssb_duckdb.py" "$dir"
