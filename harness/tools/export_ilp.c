/* export_ilp.c - plots/fig-ilp-occupancy.gp: for every family that swept
 * ILP and occupancy together, items per second over occupancy, one series
 * per ILP, the variant held at the family's most swept one. Family-blind:
 * the families come from the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

static double x_occ(const wb_row *r) {
    return r->p.launch.ilp > 0 && r->p.launch.occupancy_target > 0 ? 100.0 * r->p.launch.occupancy_target : NAN;
}
static void series_ilp(const wb_row *r, char *buf, size_t len) { snprintf(buf, len, "ilp%d", r->p.launch.ilp); }
static double items_per_s(const wb_row *r) {
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    return items / (r->m.time_median_ms * 1e6);
}

/* One table per family (-<family>: blocks per ILP over occupancy) and the
 * main table listing the families; the variant is held at the family's most
 * swept one. */
static int ilp_family(wb_export *x, FILE *list, const char *family, wb_err *e) {
    slice s = {family, x_occ, series_ilp, AX_VARIANT_FIXED | AX_ILP | AX_OCC};
    pick *p;
    char sig[320], part[40];
    int n = wb_pick_rows(x, &s, &p, sig, sizeof sig);
    if (n < 0) return wb_fail(e, "out of memory");
    double *xs = malloc((size_t)(n + 1) * sizeof *xs);
    int nx = xs ? wb_distinct_x(p, n, xs) : 0;
    free(xs);
    if (nx < 2) return free(p), WB_OK; /* one occupancy: nothing to draw a line over */
    double best = 0;
    for (int i = 0; i < n; i++) best = fmax(best, items_per_s(p[i].row));
    snprintf(part, sizeof part, "-%s", family);
    FILE *f = wb_open_sliced(x, part, "series occupancy_pct gitems_per_s pct_of_best ilp", sig, e);
    for (int i = 0; f && i < n; i++) {
        wb_block_break(f, p, i);
        double g = items_per_s(p[i].row), v[4] = {p[i].x, g, 100.0 * g / best, p[i].row->p.launch.ilp};
        wb_row_out(f, p[i].series, v, 4);
    }
    if (f) fprintf(list, "%s %s %d\n", family, p[0].row->p.variant, n);
    x->rows += n;
    free(p);
    return f ? wb_export_close(f, x, part, e) : WB_ERR;
}

int wb_export_ilp_occupancy(wb_export *x, wb_err *e) {
    FILE *list = wb_export_open(x, "", "family variant points", e);
    if (!list) return WB_ERR;
    char done[32][16];
    int nd = 0, rc = WB_OK;
    for (int64_t i = 0; rc == WB_OK && i < x->r->nrows && nd < 32; i++) {
        const wb_row *r = &x->r->rows[i];
        int k = 0;
        while (k < nd && strcmp(done[k], r->p.family) != 0) k++;
        if (k < nd || !wb_agg_is_op_point(r) || isnan(x_occ(r))) continue;
        snprintf(done[nd++], sizeof done[0], "%s", r->p.family);
        rc = ilp_family(x, list, r->p.family, e);
    }
    int rc_close = wb_export_close(list, x, "", e);
    if (rc == WB_OK) rc = rc_close;
    if (rc == WB_OK && x->rows == 0) rc = wb_skip(e, "no family swept ILP and occupancy together");
    return rc;
}
