/* expr_figure.c - the expr family's figure (plots/fig-expr.gp): time,
 * instructions per item and per sector and G inst/s over the operator count,
 * per variant, with the rooflines (-roofs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "expr"

static double x_ops(const wb_row *r) { return r->p.expr_ops > 0 ? r->p.expr_ops : NAN; }

static int expr_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    const wb_row *r = pk->row;
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    v[0] = pk->x, v[1] = r->m.time_median_ms, v[2] = wb_agg_metric(r, "inst") / items;
    v[3] = r->c.inst_per_sector, v[4] = r->c.gips;
    return 5;
}

static int export_expr(wb_export *x, wb_err *e) {
    table t = {{FAMILY, x_ops, wb_series_variant, AX(expr_ops) | AX(vector_bytes)},
               "series expr_ops time_ms inst_per_item inst_per_sector gips", expr_row, NULL, NULL};
    int rc = wb_export_table(x, &t, NULL, e);
    return rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0 ? WB_ERR : rc;
}

const wb_figure wb_figure_expr = {"fig-expr", export_expr, 1};
