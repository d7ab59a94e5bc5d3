/* profile_cols.h - the columns of a profile file's tables (/launches,
 * /kernels, /ranges), built once from the structs of profile.h and the metric
 * table: the HDF5 writer and reader (harness/store/profile_h5.c) and the
 * export tool all walk this one list, so a column exists everywhere or
 * nowhere, with its unit and description (/columns). */
#ifndef WB_PROFILE_COLS_H
#define WB_PROFILE_COLS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/profile.h"

typedef enum {
    WB_PT_LAUNCHES = 0,
    WB_PT_KERNELS = 1,
    WB_PT_RANGES = 2,
    WB_PT_SPANS = 3,
    WB_PT_SAMPLES = 4,
    WB_PT_COUNT = 5
} wb_prof_table;
/* The tables of one mode (/counted_ranges, /samples): a version-1 file lacks them, a later one may
 * (read as empty). */
#define WB_PT_SINCE_V2(t) ((t) == WB_PT_SPANS || (t) == WB_PT_SAMPLES)
typedef enum { WB_PCOL_I32, WB_PCOL_I64, WB_PCOL_F64, WB_PCOL_STR } wb_pcol_type;

/* The most columns a table has. */
#define WB_PCOLS_MAX (WB_METRICS_MAX + WB_STALL_GROUPS + 64)

typedef struct wb_pcol {
    char name[48];
    wb_pcol_type type;
    size_t size;      /* bytes (strings: NUL included) */
    size_t offset;    /* in the table's struct; unused by computed columns */
    int computed;     /* 0 a field; else how it is made from the row (profile_cols.c) */
    const char *unit;
    const char *desc;
    int count;        /* 1: a whole count (wb_unit_is_count) held as a double, NaN not counted; the file
                         holds an int64, -1 not counted, from WB_PROFILE_SCHEMA_COUNTS on */
    int since;        /* the profile schema that added it (0: every version); an older file lacks it
                         and its rows keep the reader's initial value (NaN for a counter) */
} wb_pcol;

/* "launches", "kernels", "ranges", "counted_ranges", "samples"; NULL for another value. */
const char *wb_prof_table_name(wb_prof_table t);
/* Table by name, or -1. */
int wb_prof_table_find(const char *name);
/* Columns of t in file order. */
const wb_pcol *wb_pcols(wb_prof_table t, int *count);
/* Column of t by name, or NULL. */
const wb_pcol *wb_pcol_find(wb_prof_table t, const char *name);
/* Rows of t in p, and row i (a wb_prof_launch, wb_prof_kernel or wb_prof_range). */
int64_t wb_prof_rows(const wb_profile *p, wb_prof_table t);
void *wb_prof_row(const wb_profile *p, wb_prof_table t, int64_t i);
/* Copies the column's c->size bytes of row i (native layout) to out;
 * computed columns are made here (a row's id is i). */
void wb_pcol_get(const wb_pcol *c, const void *row, int64_t i, void *out);
/* Stores c->size bytes from in into a field column (strings are
 * NUL-terminated inside the field); computed columns are left alone. */
void wb_pcol_set(const wb_pcol *c, void *row, const void *in);
/* A numeric column as double (integers as they are, -1 included); NaN for strings. */
double wb_pcol_num(const wb_pcol *c, const void *row, int64_t i);

#endif
