/* toy_figure.c - the toy family's figure, as docs/adding-a-family.md writes it
 * for foo (tests/test_export_added.c compiles it in as well). */
#include <math.h>

#include "harness/tools/export_slice.h"

static double x_groups(const wb_row *r) { return r->p.groups > 0 ? (double)r->p.groups : NAN; }
static int row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms;
    return 2;
}
static int export_toy(wb_export *x, wb_err *e) {
    table t = {{"toy", x_groups, wb_series_variant, AX(groups)}, "series groups time_ms", row, NULL, NULL};
    return wb_export_table(x, &t, NULL, e);
}
const wb_figure wb_figure_toy = {"fig-toy", export_toy, 1};
