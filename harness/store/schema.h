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
#define WB_SCHEMA_VERSION 10
#define WB_SCHEMA_OLDEST 1

/* The schema that stores counts (wb_column.count) as 64-bit integers, -1
 * where not counted; older files hold them as doubles, NaN not counted. */
#define WB_SCHEMA_COUNTS 8

typedef enum { WB_COL_I32, WB_COL_I64, WB_COL_F64, WB_COL_STR } wb_col_type;

/* How a column's file value differs from its wb_row field, from schema 6 on
 * (docs/results-format.md: shares are percent, "does not apply" is -1/NaN).
 * Older files hold the field as it is. */
typedef enum {
    WB_ENC_NONE,
    WB_ENC_PCT,     /* field is a fraction 0-1; the file holds percent (x100) */
    WB_ENC_ZERO_NA, /* field 0 means "does not apply"; the file holds -1 */
} wb_col_enc;

/* The schema that renamed columns (name_before_6) and introduced wb_col_enc. */
#define WB_SCHEMA_RENAMED 6

typedef struct wb_column {
    char name[48];
    wb_col_type type;
    size_t offset;     /* offset in wb_row */
    size_t size;       /* bytes (string length for WB_COL_STR, NUL included) */
    const char *unit;
    const char *desc;
    const char *source; /* ncu metric for counter columns, "" otherwise */
    int since;          /* schema version that added it; 0: every version */
    wb_col_enc enc;     /* file value vs field, in files of schema >= WB_SCHEMA_RENAMED */
    const char *name_before_6; /* its name in files of schema < WB_SCHEMA_RENAMED; NULL: unchanged */
    int count;          /* 1: a whole count (wb_unit_is_count) held as a double, NaN not counted; from
                           schema WB_SCHEMA_COUNTS on the file holds an int64, -1 not counted */
} wb_column;

/* All columns, in file order. */
const wb_column *wb_schema_columns(int *count);
/* The source of counter column i of wb_metrics[] in /columns of files created
 * from now on: the name this GPU's chip was counted with, or why it is NaN
 * (copied; NULL: back to the table's name). */
void wb_schema_metric_source(int i, const char *source);
/* Column by name, or NULL. */
const wb_column *wb_schema_find(const char *name);
/* The column's name in a file of schema `version`. */
const char *wb_column_name_in(const wb_column *c, int version);
/* Value of a numeric column as double, as the file of this schema holds it
 * (wb_col_enc applied: percent, -1 for "does not apply"); integers come back
 * as they are. Strings give NaN. */
double wb_row_get(const wb_row *r, const wb_column *c);
/* Rewrites r's fields into the file's convention (wb_col_enc) and back; the
 * writer encodes a copy, the reader decodes what a schema-6+ file held. */
void wb_row_encode(wb_row *r);
void wb_row_decode(wb_row *r);
/* The counts of r (wb_column.count) as a schema-WB_SCHEMA_COUNTS file holds
 * them: NaN (or anything not a count: infinite, negative) -> -1, else rounded
 * to a whole count (the writer, on a copy); and
 * back: -1 -> NaN (the reader, for files of that schema on). */
void wb_row_encode_counts(wb_row *r);
void wb_row_decode_counts(wb_row *r);
/* The file type of column c in a file of schema version: its type, but a
 * count's int64 from WB_SCHEMA_COUNTS on. */
wb_col_type wb_column_file_type(const wb_column *c, int version);
/* Pointer to a string column's bytes, or NULL for numeric columns. */
const char *wb_row_str(const wb_row *r, const wb_column *c);

#endif
