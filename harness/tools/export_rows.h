/* export_rows.h - `wallbench export FILE --points|--samples --format
 * csv|json`: the rows of /points or /samples for tools that read no HDF5.
 *
 * Columns: every /points column in file order (schema.c), "name" (the
 * point's name: Google Benchmark / NVTX name, key of compare) first.
 * Samples: name, id (the /points row), sample (0-based), time_ms.
 * CSV (RFC 4180): one header line of the column names alone (units: the
 * file's /columns, the JSON's "columns", or the sidecar wb_export_columns
 * writes next to an --out FILE as FILE.columns.json); strings always
 * quoted; reals %.17g (exact round trip), a missing real is NaN; an integer
 * that does not apply is -1; shares are percent (*_pct), as in the file.
 * pandas: pd.read_csv("points.csv") gives str and numeric columns.
 * JSON: {"format", "schema_version", "results_file", "provenance" (every
 * root attribute of the file), "ceilings" ([{name, size_bytes, unit, value,
 * kernel, launch}]), "columns" ([{name, unit, type, description,
 * ncu_metric}]), "units" ({name: unit}), "points" ([{name: value}])} with
 * missing reals as null (JSON has no NaN); samples: "samples" ([{name, id,
 * time_ms: [...]}]). */
#ifndef WB_EXPORT_ROWS_H
#define WB_EXPORT_ROWS_H

#include <stdio.h>

#include "harness/store/store_h5.h"

typedef enum { WB_TABLE_POINTS, WB_TABLE_SAMPLES } wb_table_kind;
typedef enum { WB_TABLE_CSV, WB_TABLE_JSON } wb_table_format;

/* Writes the table to f. WB_ERR (e) on a write error. */
int wb_export_rows(const wb_results *r, wb_table_kind kind, wb_table_format fmt, FILE *f, wb_err *e);
/* The CSV's sidecar: {"format": "wallbench-columns", "schema_version",
 * "columns": [{name, unit, type, description, ncu_metric}]}. */
int wb_export_columns(wb_table_kind kind, FILE *f, wb_err *e);

#endif
