/* export_rows.h - `wallbench export FILE --points|--samples --format
 * csv|json`: the rows of /points or /samples for tools that read no HDF5.
 *
 * Columns: "point" (the Google Benchmark / NVTX name of the row's point),
 * then every /points column in file order (schema.c). Samples: point, id
 * (the /points row), sample (0-based), time_ms.
 * CSV (RFC 4180): one header line, "name[unit]" for columns with a unit,
 * "name" otherwise; strings always quoted; reals %.17g (exact round trip),
 * a missing real is NaN; integer axes that do not apply are -1.
 * pandas: pd.read_csv("points.csv").
 * JSON: {"format", "schema_version", "results_file", "provenance" (every
 * root attribute of the file), "columns" ([{name, unit, type, description,
 * ncu_metric}]), "units" ({name: unit}), "points" ([{name: value}])} with
 * missing reals as null (JSON has no NaN); samples: "samples" ([{point, id,
 * time_ms: [...]}]). */
#ifndef WB_EXPORT_ROWS_H
#define WB_EXPORT_ROWS_H

#include <stdio.h>

#include "harness/store/store_h5.h"

typedef enum { WB_TABLE_POINTS, WB_TABLE_SAMPLES } wb_table_kind;
typedef enum { WB_TABLE_CSV, WB_TABLE_JSON } wb_table_format;

/* Writes the table to f. WB_ERR (e) on a write error. */
int wb_export_rows(const wb_results *r, wb_table_kind kind, wb_table_format fmt, FILE *f, wb_err *e);

#endif
