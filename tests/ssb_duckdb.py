#!/usr/bin/env python3
"""ssb_duckdb.py DIR - the DuckDB oracle of the ssb family: runs the 13 SSB
queries (DIR/queries.sql, one a line, over the dense-int tables that
test_ssb_ref --csv wrote) in DuckDB and compares every result row with the
suite's CPU reference (DIR/answers.csv). Exit 0 equal, 1 different."""
import csv
import sys

import duckdb

NAMES = ["q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"]


def main(d):
    con = duckdb.connect()
    for t in ("lineorder", "dwdate", "customer", "supplier", "part"):
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM read_csv_auto('{d}/{t}.csv', header = true)")
    expected = {q: [] for q in NAMES}
    with open(f"{d}/answers.csv") as f:
        for row in csv.reader(f):
            expected[row[0]].append(tuple(int(v) for v in row[1:]))
    with open(f"{d}/queries.sql") as f:
        queries = [line.strip() for line in f if line.strip()]
    if len(queries) != len(NAMES):
        print(f"queries.sql has {len(queries)} queries, expected {len(NAMES)}")
        return 1
    bad = 0
    for name, sql in zip(NAMES, queries):
        # A query that matches no row sums to NULL; the reference writes no row.
        got = [tuple(int(v) for v in r) for r in con.execute(sql).fetchall() if r[-1] is not None]
        if got != expected[name]:
            bad += 1
            extra = sorted(set(got) - set(expected[name]))[:5]
            missing = sorted(set(expected[name]) - set(got))[:5]
            print(f"{name}: DuckDB {len(got)} rows, reference {len(expected[name])}; "
                  f"only DuckDB: {extra}; only reference: {missing}")
        elif not got and name != "q3.4":
            # Equal but empty proves nothing: the data (seed 3) gives every
            # query rows but Q3.4 (8e-7 of 1 M rows, 0.8 expected).
            bad += 1
            print(f"{name}: no rows on either side")
        else:
            print(f"{name}: {len(got)} rows equal")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
