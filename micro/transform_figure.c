/* transform_figure.c - the transform family's figure
 * (plots/fig-transform.gp): share of the copy ceiling over ILP per variant
 * and access width, the library peer drawn flat across the ILP range. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "transform"

static double x_ilp(const wb_row *r) { return r->p.launch.ilp > 0 ? r->p.launch.ilp : NAN; }
static double x_peer(const wb_row *r) { return r->p.launch.ilp > 0 ? NAN : 0.0; }
static void series_vec(const wb_row *r, char *buf, size_t len) {
    if (r->p.vector_bytes > 0) snprintf(buf, len, "%s/%dB", r->p.variant, r->p.vector_bytes);
    else snprintf(buf, len, "%s", r->p.variant);
}

/* Library peers have no ILP axis: their best point is drawn across the ILP
 * range as a flat line (peer = 1). ctx: the ceiling in GB/s. */
static void transform_peers(FILE *f, wb_export *x, const pick *p, int n, const void *ctx) {
    const double ceiling = *(const double *)ctx;
    slice s = {FAMILY, x_peer, series_vec, AX(vector_bytes), p[0].row->p.n}; /* at the series' n, not the peer's largest */
    pick *q;
    char sig[320];
    double *xs = malloc((size_t)n * sizeof *xs);
    int m = xs ? wb_distinct_x(p, n, xs) : 0, nq = m ? wb_pick_rows(x, &s, &q, sig, sizeof sig) : 0;
    for (int i = 0; i < nq; i++) {
        wb_export_block_end(f);
        for (int k = 0; k < m; k++) {
            double v[6] = {xs[k], 100.0 * q[i].row->m.gbps_model / ceiling, q[i].row->m.gbps_model, ceiling, 1,
                           (double)q[i].row->p.n};
            wb_row_out(f, q[i].series, v, 6);
        }
    }
    if (nq > 0) free(q);
    free(xs);
}

static int transform_row(const void *ctx, const pick *pk, double *v) {
    const double ceiling = *(const double *)ctx;
    v[0] = pk->x, v[1] = 100.0 * pk->row->m.gbps_model / ceiling, v[2] = pk->row->m.gbps_model, v[3] = ceiling, v[4] = 0;
    v[5] = (double)pk->row->p.n;
    return 6;
}

static int export_transform(wb_export *x, wb_err *e) {
    double ceiling = x->v.dram_copy_gbps;
    const char *which = "ceiling: dram_copy";
    if (!(ceiling > 0)) ceiling = x->v.dram_read_gbps, which = "ceiling: dram_read (no dram_copy ceiling)";
    if (!(ceiling > 0)) return wb_skip(e, "the file has no DRAM ceiling (run the ceiling family)");
    table t = {{FAMILY, x_ilp, series_vec, AX(vector_bytes) | AX_ILP}, "series ilp pct_of_ceiling gbps ceiling_gbps peer n",
               transform_row, transform_peers, which};
    return wb_export_table(x, &t, &ceiling, e);
}

const wb_figure wb_figure_transform = {"fig-transform", export_transform, 1};
