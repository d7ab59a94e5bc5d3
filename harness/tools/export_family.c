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

/* Bytes a probe variant's table holds per dimension row: direct 4, packed
 * 1, hash 8 / load factor (16 at 0.5); for files without table_bytes. */
static double probe_entry_bytes(const wb_row *r) {
    if (strcmp(r->p.variant, "packed") == 0) return 1;
    if (strcmp(r->p.variant, "hash") == 0) return r->p.load_factor > 0 ? 8 / r->p.load_factor : NAN;
    return 4;
}
/* x: the table's bytes, so that variants of 1-, 4- and 16-byte entries meet
 * the same cache borders and the same gather ceiling. The build variants
 * time the table build, not the probe: not on the figure. */
static double x_table_bytes(const wb_row *r) {
    if (!(r->p.table_entries > 0) || strncmp(r->p.variant, "build_", 6) == 0) return NAN;
    return isfinite(r->p.table_bytes) ? r->p.table_bytes : (double)r->p.table_entries * probe_entry_bytes(r);
}
/* only hash tables have a load factor (direct-mapped ones have NaN): it names
 * the series instead of splitting the slice; the bytes a row takes follow */
static void series_probe(const wb_row *r, char *buf, size_t len) {
    const double eb = probe_entry_bytes(r);
    if (isfinite(r->p.load_factor)) snprintf(buf, len, "%s/lf%g (%.3g B/row)", r->p.variant, r->p.load_factor, eb);
    else snprintf(buf, len, "%s (%.3g B/row)", r->p.variant, eb);
}
static double per_item_ns(const wb_row *r) {
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    return items > 0 ? r->m.time_median_ms * 1e6 / items : NAN;
}

/* Where a table stops fitting shared memory and L2 (bytes; the label gives
 * the shared memory in 4-byte words too): the regime borders. */
static int probe_levels(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-levels", "level bytes", e);
    if (!f) return WB_ERR;
    double smem = wb_results_attr_f64(x->r, "smem_per_sm");
    if (smem > 0) {
        char label[64];
        snprintf(label, sizeof label, "shared memory per SM (%.0fK words)", smem / 4 / 1024);
        wb_export_str(f, label);
        fprintf(f, " %.6g\n", smem);
    }
    if (x->v.l2_mib > 0) fprintf(f, "L2 %.6g\n", x->v.l2_mib * 1024.0 * 1024.0);
    return wb_export_close(f, x, "-levels", e);
}

/* The gather ceilings of the same file by table size: the wall the probes
 * meet once the table leaves L2. */
static int probe_wall(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-gather", "table_bytes gather_word_greqs gather_sector_greqs", e);
    if (!f) return WB_ERR;
    wb_wall w[2];
    wb_gather_wall(x->r, "gather_word", &w[0]);
    wb_gather_wall(x->r, "gather_sector", &w[1]);
    for (int i = 0; i < w[0].n; i++) {
        wb_export_num(f, w[0].bytes[i]);
        wb_export_num(f, w[0].greqs[i]);
        wb_export_num(f, wb_wall_at(&w[1], w[0].bytes[i]));
        fputc('\n', f);
    }
    if (!w[0].n) fprintf(f, "# no gather_word ceiling in this file\n");
    return wb_export_close(f, x, "-gather", e);
}

static int probe_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    const double ns = per_item_ns(pk->row);
    v[0] = pk->x, v[1] = ns > 0 ? 1 / ns : NAN, v[2] = pk->row->m.time_median_ms;
    v[3] = wb_agg_metric(pk->row, "l2_hit_pct");
    v[4] = pk->row->m.gather_pct;
    return 5;
}

int wb_export_probe(wb_export *x, wb_err *e) {
    table t = {{"probe", x_table_bytes, series_probe, AX(table_entries) | AX(load_factor) | AX(partitions)},
               "series table_bytes gprobes_per_s time_ms l2_hit_pct gather_pct", probe_row, NULL, NULL};
    int rc = wb_export_table(x, &t, NULL, e);
    if (rc == WB_OK) rc = probe_levels(x, e);
    return rc == WB_OK ? probe_wall(x, e) : rc;
}

static double x_groups(const wb_row *r) { return r->p.groups > 0 ? (double)r->p.groups : NAN; }

/* fallback = 1: a shared-memory point whose table did not fit and ran the
 * global-atomic kernel instead (micro/groupby.c notes it "fell back").
 * read_ms: the point's model bytes at the file's DRAM read ceiling, the
 * floor the figure judges the kernels against (NaN without that ceiling). */
static int groupby_row(const void *ctx, const pick *pk, double *v) {
    const wb_export *x = ctx;
    v[0] = pk->x, v[1] = pk->row->m.time_median_ms, v[2] = per_item_ns(pk->row);
    v[3] = strncmp(pk->row->p.note, "fell back", 9) == 0;
    v[4] = pk->row->p.bytes_model / (x->v.dram_read_gbps * 1e6);
    return 5;
}

int wb_export_groupby(wb_export *x, wb_err *e) {
    table t = {{"groupby", x_groups, series_variant, AX(groups)}, "series groups time_ms ns_per_row fallback read_ms",
               groupby_row, NULL, NULL};
    return wb_export_table(x, &t, x, e);
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
