/* schema.h - the columns of /points, built once from wb_row's layout and the
 * metric table. The HDF5 writer and reader, export, compare and check all
 * walk this one list, so a column exists everywhere or nowhere. */
#ifndef WB_SCHEMA_H
#define WB_SCHEMA_H

#include <stddef.h>
#include "harness/base/point.h"

/* Bump when a column is added, removed, renamed or changes type. Readers
 * read files of WB_SCHEMA_OLDEST..WB_SCHEMA_VERSION: a column newer than
 * the file (wb_column.since) reads as its "not applicable" value. */
#define WB_SCHEMA_VERSION 6
#define WB_SCHEMA_OLDEST 1

typedef enum { WB_COL_I32, WB_COL_I64, WB_COL_F64, WB_COL_STR } wb_col_type;

typedef struct wb_column {
    char name[48];
    wb_col_type type;
    size_t offset;     /* offset in wb_row */
    size_t size;       /* bytes (string length for WB_COL_STR, NUL included) */
    const char *unit;
    const char *desc;
    const char *source; /* ncu metric for counter columns, "" otherwise */
    int since;          /* schema version that added it; 0: every version */
} wb_column;

/* All columns, in file order. */
const wb_column *wb_schema_columns(int *count);
/* The source of counter column i of wb_metrics[] in /columns of files created
 * from now on: the name this GPU's chip was counted with, or why it is NaN
 * (copied; NULL: back to the table's name). */
void wb_schema_metric_source(int i, const char *source);
/* Column by name, or NULL. */
const wb_column *wb_schema_find(const char *name);
/* Value of a numeric column as double (NaN for -1 integer "not applicable"
 * is NOT applied: integers come back as they are). Strings give NaN. */
double wb_row_get(const wb_row *r, const wb_column *c);
/* Pointer to a string column's bytes, or NULL for numeric columns. */
const char *wb_row_str(const wb_row *r, const wb_column *c);

#endif
