/* export_family.c - tables for the suite's own pairs (plots/fig-select.gp,
 * fig-scan, fig-probe, fig-groupby, fig-expr, fig-transform,
 * fig-ilp-occupancy): per figure, its slice of the rows (export_slice.h), its
 * columns and what follows the rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

static void series_variant(const wb_row *r, char *buf, size_t len) { snprintf(buf, len, "%s", r->p.variant); }
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

int wb_export_select(wb_export *x, wb_err *e) {
    table t = {{"select", x_sel, series_variant, AX(selectivity) | AX(vector_bytes)}, "series selectivity time_ms gbps n",
               select_row, select_tail, NULL};
    return wb_export_table(x, &t, NULL, e);
}

static void series_scan(const wb_row *r, char *buf, size_t len) {
    int at = snprintf(buf, len, "%s", r->p.variant);
    if (r->p.layout[0] && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/%s", r->p.layout);
    if (r->p.columns > 0 && at >= 0 && (size_t)at < len) snprintf(buf + at, len - (size_t)at, "/c%d", r->p.columns);
}

static double dram_mb(const wb_row *r) {
    return (wb_agg_metric(r, "dram_sectors_read") + wb_agg_metric(r, "dram_sectors_write")) * 32.0 / 1e6;
}

static int scan_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = dram_mb(pk->row), v[3] = pk->row->p.bytes_model / 1e6;
    return 4;
}

int wb_export_scan(wb_export *x, wb_err *e) {
    table t = {{"scan", x_sel, series_scan,
                AX(selectivity) | AX_LAYOUT | AX(columns) | AX(table_entries) | AX(vector_bytes)},
               "series selectivity time_ms dram_mb model_mb", scan_row, NULL, NULL};
    return wb_export_table(x, &t, NULL, e);
}

/* the build variants time the table build, not the probe: not on the figure */
static double x_entries(const wb_row *r) {
    return r->p.table_entries > 0 && strncmp(r->p.variant, "build_", 6) != 0 ? (double)r->p.table_entries : NAN;
}
/* only hash tables have a load factor (direct-mapped ones have NaN): it names
 * the series instead of splitting the slice */
static void series_probe(const wb_row *r, char *buf, size_t len) {
    if (isfinite(r->p.load_factor)) snprintf(buf, len, "%s/lf%g", r->p.variant, r->p.load_factor);
    else snprintf(buf, len, "%s", r->p.variant);
}
static double per_item_ns(const wb_row *r) {
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    return items > 0 ? r->m.time_median_ms * 1e6 / items : NAN;
}

/* Where a table of 8-byte entries (4-byte key, 4-byte value) stops fitting
 * shared memory and L2: the regime borders of the probe figure. */
static int probe_levels(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-levels", "level entries", e);
    if (!f) return WB_ERR;
    double smem = wb_results_attr_f64(x->r, "smem_per_sm");
    if (smem > 0) fprintf(f, "shared_memory_per_SM %.6g\n", smem / 8.0);
    if (x->v.l2_mib > 0) fprintf(f, "L2 %.6g\n", x->v.l2_mib * 1024.0 * 1024.0 / 8.0);
    return wb_export_close(f, x, "-levels", e);
}

static int probe_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = per_item_ns(pk->row), v[2] = pk->row->m.time_median_ms;
    v[3] = wb_agg_metric(pk->row, "l2_hit_pct");
    return 4;
}

int wb_export_probe(wb_export *x, wb_err *e) {
    table t = {{"probe", x_entries, series_probe, AX(table_entries) | AX(load_factor)},
               "series table_entries ns_per_probe time_ms l2_hit_pct", probe_row, NULL, NULL};
    int rc = wb_export_table(x, &t, NULL, e);
    return rc == WB_OK ? probe_levels(x, e) : rc;
}

static double x_groups(const wb_row *r) { return r->p.groups > 0 ? (double)r->p.groups : NAN; }

/* fallback = 1: a shared-memory point whose table did not fit and ran the
 * global-atomic kernel instead (micro/groupby.c notes it "fell back"). */
static int groupby_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = per_item_ns(pk->row);
    v[3] = strncmp(pk->row->p.note, "fell back", 9) == 0;
    return 4;
}

int wb_export_groupby(wb_export *x, wb_err *e) {
    table t = {{"groupby", x_groups, series_variant, AX(groups)}, "series groups time_ms ns_per_row fallback", groupby_row,
               NULL, NULL};
    return wb_export_table(x, &t, NULL, e);
}

static double x_ops(const wb_row *r) { return r->p.expr_ops > 0 ? r->p.expr_ops : NAN; }

static int expr_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    const wb_row *r = pk->row;
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    v[0] = pk->x, v[1] = r->m.time_median_ms, v[2] = wb_agg_metric(r, "inst") / items;
    v[3] = r->c.inst_per_sector, v[4] = r->c.gips;
    return 5;
}

int wb_export_expr(wb_export *x, wb_err *e) {
    table t = {{"expr", x_ops, series_variant, AX(expr_ops) | AX(vector_bytes)},
               "series expr_ops time_ms inst_per_item inst_per_sector gips", expr_row, NULL, NULL};
    int rc = wb_export_table(x, &t, NULL, e);
    return rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0 ? WB_ERR : rc;
}

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
    slice s = {"transform", x_peer, series_vec, AX(vector_bytes), p[0].row->p.n}; /* at the series' n, not the peer's largest */
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

int wb_export_transform(wb_export *x, wb_err *e) {
    double ceiling = x->v.dram_copy_gbps;
    const char *which = "ceiling: dram_copy";
    if (!(ceiling > 0)) ceiling = x->v.dram_read_gbps, which = "ceiling: dram_read (no dram_copy ceiling)";
    if (!(ceiling > 0)) return wb_skip(e, "the file has no DRAM ceiling (run the ceiling family)");
    table t = {{"transform", x_ilp, series_vec, AX(vector_bytes) | AX_ILP}, "series ilp pct_of_ceiling gbps ceiling_gbps peer n",
               transform_row, transform_peers, which};
    return wb_export_table(x, &t, &ceiling, e);
}

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
