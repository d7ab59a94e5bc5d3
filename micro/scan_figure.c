/* scan_figure.c - the scan family's figure (plots/fig-scan.gp): time and
 * DRAM bytes (counters) against the bytes model over selectivity, one series
 * per variant, layout and column count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "scan"

static double x_sel(const wb_row *r) { return r->p.selectivity; }

static void series_scan(const wb_row *r, char *buf, size_t len) {
    int at = snprintf(buf, len, "%s", r->p.variant);
    if (r->p.layout[0] && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/%s", r->p.layout);
    if (r->p.columns > 0 && at >= 0 && (size_t)at < len) snprintf(buf + at, len - (size_t)at, "/c%d", r->p.columns);
}

static int scan_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = wb_row_dram_mb(pk->row), v[3] = pk->row->p.bytes_model / 1e6;
    return 4;
}

static int export_scan(wb_export *x, wb_err *e) {
    table t = {{FAMILY, x_sel, series_scan,
                AX(selectivity) | AX_LAYOUT | AX(columns) | AX(table_entries) | AX(vector_bytes)},
               "series selectivity time_ms dram_mb model_mb", scan_row, NULL, NULL};
    return wb_export_table(x, &t, NULL, e);
}

const wb_figure wb_figure_scan = {"fig-scan", export_scan, 1};
