/* select_figure.c - the select family's figure (plots/fig-select.gp): time
 * and GB/s over selectivity per variant, with Crystal's bandwidth model
 * drawn from the file's DRAM read and write ceilings, and the launch shapes
 * each series was drawn at (-shapes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "select"

static double x_sel(const wb_row *r) { return r->p.selectivity; }

static double elem_bytes(const char *dtype) {
    if (strcmp(dtype, "int32") == 0 || strcmp(dtype, "float") == 0) return 4;
    if (strcmp(dtype, "int64") == 0 || strcmp(dtype, "double") == 0) return 8;
    return NAN;
}

/* Crystal's bandwidth model of selection (guide section 4.2): read every
 * element once at Br, write the selected ones at Bw: 4N/Br + 4sN/Bw. */
static void select_model(FILE *f, const wb_export *x, const pick *p, int n) {
    double br = x->v.dram_read_gbps, bw = x->v.dram_write_gbps, es = elem_bytes(p[0].row->p.dtype);
    double items = (double)p[0].row->p.n, *xs = malloc((size_t)n * sizeof *xs);
    if (!xs || !isfinite(br) || !isfinite(bw) || !isfinite(es)) {
        fprintf(f, "# no model series: needs the dram_read and dram_write ceilings and a 4- or 8-byte dtype\n");
        free(xs);
        return;
    }
    wb_export_block_end(f);
    int m = wb_distinct_x(p, n, xs);
    for (int i = 0; i < m; i++) {
        double v[4] = {xs[i], es * items / (br * 1e6) + es * xs[i] * items / (bw * 1e6), NAN, items};
        wb_row_out(f, "model", v, 4);
    }
    free(xs);
}

static void select_tail(FILE *f, wb_export *x, const pick *p, int n, const void *ctx) {
    (void)ctx;
    select_model(f, x, p, n);
    wb_err e;
    if (wb_export_series_shapes(x, p, n, &e) != WB_OK) fprintf(f, "# no -shapes table: %s\n", e.msg);
}

static int select_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = pk->row->m.gbps_model, v[3] = (double)pk->row->p.n;
    return 4;
}

static int export_select(wb_export *x, wb_err *e) {
    table t = {{FAMILY, x_sel, wb_series_variant, AX(selectivity) | AX(vector_bytes)}, "series selectivity time_ms gbps n",
               select_row, select_tail, NULL};
    return wb_export_table(x, &t, NULL, e);
}

const wb_figure wb_figure_select = {"fig-select", export_select, 1};
