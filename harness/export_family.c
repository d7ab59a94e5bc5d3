/* export_family.c - tables for the suite's own pairs (plots/fig-select.gp,
 * fig-scan, fig-probe, fig-groupby, fig-expr, fig-transform,
 * fig-ilp-occupancy). A figure draws y over one axis x for each series; the
 * other axes are held fixed by one rule, written into each table's second
 * comment line: the largest n that has at least two x values, the most
 * frequent combination of the remaining data axes (dtype, layout,
 * selectivity, ...), and the fastest launch configuration (ILP, occupancy,
 * block, SM limit) unless the figure plots it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "export.h"

enum { AX_DTYPE = 1, AX_LAYOUT = 2, AX_SEL = 4, AX_ENTRIES = 8, AX_GROUPS = 16, AX_OPS = 32, AX_VEC = 64,
       AX_COLS = 128, AX_VARIANT_FIXED = 256, AX_LF = 512 };
/* AX_VEC in select, scan, expr: vector width follows ILP (4 B at ILP 1, 16 B
 * from ILP 4; library peers -1), a launch shape that must not split a pair;
 * AX_ENTRIES in scan: only the Q3.1-like join has a dimension table */

typedef struct slice {
    const char *family;
    double (*x)(const wb_row *r);                       /* NaN: not on the figure */
    void (*series)(const wb_row *r, char *buf, size_t len);
    unsigned axes;  /* AX_* plotted (x or series): left out of the fixed signature; AX_VARIANT_FIXED: hold the
                       variant at its most frequent value too */
} slice;

typedef struct pick {
    char series[48];
    int order; /* series in first-appearance order */
    double x;
    const wb_row *row;
} pick;

static void signature(const wb_row *r, unsigned axes, char *buf, size_t len) {
    const wb_point *p = &r->p;
    snprintf(buf, len, "dtype=%s layout=%s sel=%g entries=%lld groups=%lld ops=%d vec=%d cols=%d lf=%g match=%g warm=%d%s%s",
             axes & AX_DTYPE ? "*" : p->dtype, axes & AX_LAYOUT ? "*" : p->layout, axes & AX_SEL ? NAN : p->selectivity,
             axes & AX_ENTRIES ? -2LL : (long long)p->table_entries, axes & AX_GROUPS ? -2LL : (long long)p->groups,
             axes & AX_OPS ? -2 : p->expr_ops, axes & AX_VEC ? -2 : p->vector_bytes, axes & AX_COLS ? -2 : p->columns,
             axes & AX_LF ? -2.0 : p->load_factor, p->match_rate, p->warm_cache,
             axes & AX_VARIANT_FIXED ? " variant=" : "",
             axes & AX_VARIANT_FIXED ? p->variant : "");
}

static int candidate(const wb_row *r, const slice *s) {
    return strcmp(r->p.family, s->family) == 0 && strcmp(r->m.status, "ok") == 0 && isfinite(s->x(r)) &&
           r->m.time_median_ms > 0;
}

static int cmp_pick(const void *a, const void *b) {
    const pick *p = a, *q = b;
    if (p->order != q->order) return p->order - q->order;
    return p->x < q->x ? -1 : p->x > q->x;
}

/* The rows a figure draws (see the file comment); *sig receives the fixed
 * axes. Returns the pick count (0: the family has no usable row), -1 when
 * out of memory. */
static int pick_rows(const wb_export *x, const slice *s, pick **out, char *sig, size_t siglen) {
    const wb_results *res = x->r;
    int64_t n_best = -1;
    int best_xs = 0;
    for (int64_t i = 0; i < res->nrows; i++) { /* largest n with two x values */
        const wb_row *a = &res->rows[i];
        if (!candidate(a, s)) continue;
        int xs = 1;
        for (int64_t j = 0; j < res->nrows && xs < 2; j++)
            if (candidate(&res->rows[j], s) && res->rows[j].p.n == a->p.n && s->x(&res->rows[j]) != s->x(a)) xs = 2;
        if (xs > best_xs || (xs == best_xs && a->p.n > n_best)) n_best = a->p.n, best_xs = xs;
    }
    *out = NULL;
    if (best_xs == 0) return 0;
    /* most frequent signature at that n; signatures computed once per row */
    char (*sigs)[256] = malloc((size_t)(res->nrows + 1) * sizeof *sigs);
    if (!sigs) return -1;
    int best_count = 0, best_i = -1;
    for (int64_t i = 0; i < res->nrows; i++) {
        sigs[i][0] = '\0';
        if (candidate(&res->rows[i], s) && res->rows[i].p.n == n_best) signature(&res->rows[i], s->axes, sigs[i], 256);
    }
    for (int64_t i = 0; i < res->nrows; i++) {
        if (!sigs[i][0]) continue;
        int count = 0;
        for (int64_t j = 0; j < res->nrows; j++) count += sigs[j][0] && strcmp(sigs[i], sigs[j]) == 0;
        if (count > best_count) best_count = count, best_i = (int)i;
    }
    snprintf(sig, siglen, "n=%lld %s", (long long)n_best, sigs[best_i]);
    pick *p = malloc((size_t)best_count * sizeof *p);
    if (!p) return free(sigs), -1;
    int np = 0, nseries = 0;
    for (int64_t i = 0; i < res->nrows; i++) {
        const wb_row *r = &res->rows[i];
        if (!sigs[i][0] || strcmp(sigs[i], sigs[best_i]) != 0) continue;
        pick c = {"", -1, s->x(r), r};
        s->series(r, c.series, sizeof c.series);
        int k = 0;
        for (; k < np; k++) {
            if (strcmp(p[k].series, c.series) != 0) continue;
            c.order = p[k].order;
            if (p[k].x == c.x) break;
        }
        if (c.order < 0) c.order = nseries++;
        if (k < np) {
            if (r->m.time_median_ms < p[k].row->m.time_median_ms) p[k].row = r; /* fastest launch shape */
        } else p[np++] = c;
    }
    free(sigs);
    qsort(p, (size_t)np, sizeof *p, cmp_pick);
    *out = p;
    return np;
}

/* Opens the main table with its slice line, or sets rc. */
static FILE *open_sliced(wb_export *x, const char *part, const char *columns, const char *sig, wb_err *e) {
    FILE *f = wb_export_open(x, part, columns, e);
    if (f) fprintf(f, "# fixed: %s; fastest launch shape per point\n", sig);
    return f;
}

static void block_break(FILE *f, const pick *p, int i) {
    if (i && p[i].order != p[i - 1].order) wb_export_block_end(f);
}

static void series_variant(const wb_row *r, char *buf, size_t len) { snprintf(buf, len, "%s", r->p.variant); }
static double x_sel(const wb_row *r) { return r->p.selectivity; }

/* pick_rows with the absent case as WB_SKIP; *n = picks. */
static int picks(wb_export *x, const slice *s, pick **p, int *n, char *sig, size_t len, wb_err *e) {
    *n = pick_rows(x, s, p, sig, len);
    if (*n < 0) return wb_fail(e, "out of memory");
    if (*n == 0) return wb_skip(e, "no ok point of family '%s' with its x axis in this file", s->family);
    return WB_OK;
}

/* Sorted distinct x values of the picks; returns the count. */
static int distinct_x(const pick *p, int n, double *out) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < m && out[j] != p[i].x) j++;
        if (j < m) continue;
        for (j = m++; j > 0 && out[j - 1] > p[i].x; j--) out[j] = out[j - 1];
        out[j] = p[i].x;
    }
    return m;
}

static void row_out(FILE *f, const char *series, const double *v, int k) {
    wb_export_str(f, series);
    for (int i = 0; i < k; i++) wb_export_num(f, v[i]);
    fputc('\n', f);
}

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
    int m = distinct_x(p, n, xs);
    for (int i = 0; i < m; i++) {
        double v[4] = {xs[i], es * items / (br * 1e6) + es * xs[i] * items / (bw * 1e6), NAN, items};
        row_out(f, "model", v, 4);
    }
    free(xs);
}

int wb_export_select(wb_export *x, wb_err *e) {
    slice s = {"select", x_sel, series_variant, AX_SEL | AX_VEC};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series selectivity time_ms gbps n", sig, e);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double v[4] = {p[i].x, p[i].row->m.time_median_ms, p[i].row->m.gbps_model, (double)p[i].row->p.n};
        row_out(f, p[i].series, v, 4);
    }
    if (f) select_model(f, x, p, n);
    x->rows = n;
    free(p);
    return f ? wb_export_close(f, x, "", e) : WB_ERR;
}

static void series_scan(const wb_row *r, char *buf, size_t len) {
    int at = snprintf(buf, len, "%s", r->p.variant);
    if (r->p.layout[0] && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/%s", r->p.layout);
    if (r->p.columns > 0 && at >= 0 && (size_t)at < len) snprintf(buf + at, len - (size_t)at, "/c%d", r->p.columns);
}

static double dram_mb(const wb_row *r) {
    return (wb_agg_metric(r, "dram_sectors_read") + wb_agg_metric(r, "dram_sectors_write")) * 32.0 / 1e6;
}

int wb_export_scan(wb_export *x, wb_err *e) {
    slice s = {"scan", x_sel, series_scan, AX_SEL | AX_LAYOUT | AX_COLS | AX_ENTRIES | AX_VEC};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series selectivity time_ms dram_mb model_mb", sig, e);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double v[4] = {p[i].x, p[i].row->m.time_median_ms, dram_mb(p[i].row), p[i].row->p.bytes_model / 1e6};
        row_out(f, p[i].series, v, 4);
    }
    x->rows = n;
    free(p);
    return f ? wb_export_close(f, x, "", e) : WB_ERR;
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

int wb_export_probe(wb_export *x, wb_err *e) {
    slice s = {"probe", x_entries, series_probe, AX_ENTRIES | AX_LF};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series table_entries ns_per_probe time_ms l2_hit_pct", sig, e);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double v[4] = {p[i].x, per_item_ns(p[i].row), p[i].row->m.time_median_ms, wb_agg_metric(p[i].row, "l2_hit_pct")};
        row_out(f, p[i].series, v, 4);
    }
    x->rows = n;
    free(p);
    rc = f ? wb_export_close(f, x, "", e) : WB_ERR;
    return rc == WB_OK ? probe_levels(x, e) : rc;
}

static double x_groups(const wb_row *r) { return r->p.groups > 0 ? (double)r->p.groups : NAN; }

int wb_export_groupby(wb_export *x, wb_err *e) {
    slice s = {"groupby", x_groups, series_variant, AX_GROUPS};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series groups time_ms ns_per_row", sig, e);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double v[3] = {p[i].x, p[i].row->m.time_median_ms, per_item_ns(p[i].row)};
        row_out(f, p[i].series, v, 3);
    }
    x->rows = n;
    free(p);
    return f ? wb_export_close(f, x, "", e) : WB_ERR;
}

static double x_ops(const wb_row *r) { return r->p.expr_ops > 0 ? r->p.expr_ops : NAN; }

int wb_export_expr(wb_export *x, wb_err *e) {
    slice s = {"expr", x_ops, series_variant, AX_OPS | AX_VEC};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series expr_ops time_ms inst_per_item inst_per_sector gips", sig, e);
    for (int i = 0; f && i < n; i++) {
        const wb_row *r = p[i].row;
        double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
        block_break(f, p, i);
        double v[5] = {p[i].x, r->m.time_median_ms, wb_agg_metric(r, "inst") / items, r->c.inst_per_sector, r->c.gips};
        row_out(f, p[i].series, v, 5);
    }
    x->rows = n;
    free(p);
    rc = f ? wb_export_close(f, x, "", e) : WB_ERR;
    return rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0 ? WB_ERR : rc;
}

static double x_ilp(const wb_row *r) { return r->p.launch.ilp > 0 ? r->p.launch.ilp : NAN; }
static double x_peer(const wb_row *r) { return r->p.launch.ilp > 0 ? NAN : 0.0; }
static void series_vec(const wb_row *r, char *buf, size_t len) {
    if (r->p.vector_bytes > 0) snprintf(buf, len, "%s/%dB", r->p.variant, r->p.vector_bytes);
    else snprintf(buf, len, "%s", r->p.variant);
}

/* Library peers have no ILP axis: their best point is drawn across the ILP
 * range as a flat line (peer = 1). */
static void transform_peers(FILE *f, wb_export *x, const pick *p, int n, double ceiling) {
    slice s = {"transform", x_peer, series_vec, AX_VEC};
    pick *q;
    char sig[320];
    double *xs = malloc((size_t)n * sizeof *xs);
    int m = xs ? distinct_x(p, n, xs) : 0, nq = m ? pick_rows(x, &s, &q, sig, sizeof sig) : 0;
    for (int i = 0; i < nq; i++) {
        wb_export_block_end(f);
        for (int k = 0; k < m; k++) {
            double v[5] = {xs[k], 100.0 * q[i].row->m.gbps_model / ceiling, q[i].row->m.gbps_model, ceiling, 1};
            row_out(f, q[i].series, v, 5);
        }
    }
    if (nq > 0) free(q);
    free(xs);
}

int wb_export_transform(wb_export *x, wb_err *e) {
    double ceiling = x->v.dram_copy_gbps;
    const char *which = "dram_copy";
    if (!(ceiling > 0)) ceiling = x->v.dram_read_gbps, which = "dram_read (no dram_copy ceiling)";
    if (!(ceiling > 0)) return wb_skip(e, "the file has no DRAM ceiling (run the ceiling family)");
    slice s = {"transform", x_ilp, series_vec, AX_VEC};
    pick *p;
    char sig[320];
    int n, rc = picks(x, &s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = open_sliced(x, "", "series ilp pct_of_ceiling gbps ceiling_gbps peer", sig, e);
    if (f) fprintf(f, "# ceiling: %s\n", which);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double v[5] = {p[i].x, 100.0 * p[i].row->m.gbps_model / ceiling, p[i].row->m.gbps_model, ceiling, 0};
        row_out(f, p[i].series, v, 5);
    }
    if (f) transform_peers(f, x, p, n, ceiling);
    x->rows = n;
    free(p);
    return f ? wb_export_close(f, x, "", e) : WB_ERR;
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
    slice s = {family, x_occ, series_ilp, AX_VARIANT_FIXED};
    pick *p;
    char sig[320], part[40];
    int n = pick_rows(x, &s, &p, sig, sizeof sig);
    if (n < 0) return wb_fail(e, "out of memory");
    double *xs = malloc((size_t)(n + 1) * sizeof *xs);
    int nx = xs ? distinct_x(p, n, xs) : 0;
    free(xs);
    if (nx < 2) return free(p), WB_OK; /* one occupancy: nothing to draw a line over */
    double best = 0;
    for (int i = 0; i < n; i++) best = fmax(best, items_per_s(p[i].row));
    snprintf(part, sizeof part, "-%s", family);
    FILE *f = open_sliced(x, part, "series occupancy_pct gitems_per_s pct_of_best ilp", sig, e);
    for (int i = 0; f && i < n; i++) {
        block_break(f, p, i);
        double g = items_per_s(p[i].row), v[4] = {p[i].x, g, 100.0 * g / best, p[i].row->p.launch.ilp};
        row_out(f, p[i].series, v, 4);
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
