/* groupby_figure.c - the groupby family's figure (plots/fig-groupby.gp):
 * time and ns per row over the number of groups, per variant, with the
 * points whose shared table did not fit marked (fallback) and the DRAM
 * read floor of each point (read_ms). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "groupby"

static double x_groups(const wb_row *r) { return r->p.groups > 0 ? (double)r->p.groups : NAN; }

/* fallback = 1: a shared-memory point whose table did not fit and ran the
 * global-atomic kernel instead (the column fallback, micro/groupby.c's plan).
 * Files before schema 6 lack the column (-1): their plan wrote it only into
 * the note, "fell back to global: ...", which is read for them alone. */
static int fell_back(const wb_row *r) {
    return r->p.fallback >= 0 ? r->p.fallback == 1 : strncmp(r->p.note, "fell back", 9) == 0;
}

/* read_ms: the point's model bytes at the file's DRAM read ceiling, the
 * floor the figure judges the kernels against (NaN without that ceiling). */
static int groupby_row(const void *ctx, const pick *pk, double *v) {
    const wb_export *x = ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = wb_row_ns_per_item(pk->row);
    v[3] = fell_back(pk->row);
    v[4] = pk->row->p.bytes_model / (x->v.dram_read_gbps * 1e6);
    return 5;
}

static int export_groupby(wb_export *x, wb_err *e) {
    table t = {{FAMILY, x_groups, wb_series_variant, AX(groups)}, "series groups time_ms ns_per_row fallback read_ms",
               groupby_row, NULL, NULL};
    return wb_export_table(x, &t, x, e);
}

const wb_figure wb_figure_groupby = {"fig-groupby", export_groupby, 1};
