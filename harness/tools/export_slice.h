/* export_slice.h - the toolkit of a family's figure (micro/<f>_figure.c,
 * and the family-blind export_ilp.c): how a figure picks its rows (one x
 * axis, series, the other axes held fixed; see export_slice.c), writes them
 * as one table, and the per-row quantities several figures draw. */
#ifndef WB_EXPORT_SLICE_H
#define WB_EXPORT_SLICE_H

#include <stdint.h>
#include <stdio.h>

#include "harness/tools/export.h"

/* The axes a slice plots (x or series), left out of its fixed signature:
 * AX(column) for an axis of harness/base/axes.h, AX_DTYPE and AX_LAYOUT for
 * the two string axes; AX_VARIANT_FIXED holds the variant at its most
 * frequent value too; AX_ILP, AX_OCC: the figure plots that launch axis, so
 * the export's shape rule does not hold it fixed. */
#define AX(column) (1u << WB_AXIS_##column)
enum {
    AX_DTYPE = 1u << WB_POINT_AXES_N,
    AX_LAYOUT = AX_DTYPE << 1,
    AX_VARIANT_FIXED = AX_DTYPE << 2,
    AX_ILP = AX_DTYPE << 3,
    AX_OCC = AX_DTYPE << 4
};
/* AX(vector_bytes) in select, scan, expr: vector width follows ILP (4 B at
 * ILP 1, 16 B from ILP 4; library peers -1), a launch shape that must not
 * split a pair; AX(table_entries) in scan: only the Q3.1-like join has a
 * dimension table */

typedef struct slice {
    const char *family;
    double (*x)(const wb_row *r);                       /* NaN: not on the figure */
    void (*series)(const wb_row *r, char *buf, size_t len);
    unsigned axes;  /* AX(column), AX_DTYPE, AX_LAYOUT, AX_ILP, AX_OCC plotted; AX_VARIANT_FIXED */
    int64_t n;      /* > 0: draw this n (e.g. a peer at its figure's size); 0: the rule picks it */
} slice;

typedef struct pick {
    char series[48];
    int order; /* series in first-appearance order */
    double x;
    const wb_row *row;
} pick;

/* One figure table: its slice, columns, the values of a picked row (v[0] is
 * its x; returns how many) and what follows the rows (a model, the peers). */
typedef struct table {
    slice s;
    const char *columns;
    int (*row)(const void *ctx, const pick *pk, double *v);
    void (*tail)(FILE *f, wb_export *x, const pick *p, int n, const void *ctx);
    const char *note; /* an extra comment line, or NULL */
} table;

/* The rows a figure draws; *sig receives the fixed axes. Returns the pick
 * count (0: the family has no usable row), -1 when out of memory. */
int wb_pick_rows(const wb_export *x, const slice *s, pick **out, char *sig, size_t siglen);
/* wb_pick_rows with the absent case as WB_SKIP; *n = picks. */
int wb_picks(wb_export *x, const slice *s, pick **p, int *n, char *sig, size_t len, wb_err *e);
/* Opens a table with its slice line; NULL with e set on failure. */
FILE *wb_open_sliced(wb_export *x, const char *part, const char *columns, const char *sig, wb_err *e);
/* Ends a gnuplot block where pick i starts another series. */
void wb_block_break(FILE *f, const pick *p, int i);
/* Sorted distinct x values of the picks; returns the count. */
int wb_distinct_x(const pick *p, int n, double *out);
/* One row: the series, then k numbers. */
void wb_row_out(FILE *f, const char *series, const double *v, int k);
/* DIR/<name>-shapes.dat (series shape): per series, in block order, the
 * launch shapes its points were drawn at ("ILP 8/16, block 256, occupancy
 * 1": more than one value where the rule picked per point). */
int wb_export_series_shapes(wb_export *x, const pick *p, int n, wb_err *e);
/* Picks t's rows and writes its main table (ctx goes to t->row and t->tail). */
int wb_export_table(wb_export *x, const table *t, const void *ctx, wb_err *e);

/* A series per variant: the variant name (slice.series). */
void wb_series_variant(const wb_row *r, char *buf, size_t len);
/* DRAM MB read and written (counters), NaN without them. */
double wb_row_dram_mb(const wb_row *r);
/* ns per item (items, else n); NaN without items. */
double wb_row_ns_per_item(const wb_row *r);

#endif
