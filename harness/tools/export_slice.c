/* export_slice.c - the row picking and table writing of the family figures
 * (export_slice.h). A figure draws y over one axis x for each series; the
 * other axes are held fixed by one rule, written into each table's second
 * comment line: the largest n that has at least two x values, the most
 * frequent combination of the remaining data axes (dtype, layout,
 * selectivity, ...), and the launch shape (ILP, occupancy, block, SM limit)
 * of the export's rule (shape.h: the fastest per point, or a fixed one)
 * unless the figure plots it. */
#include "harness/tools/export_slice.h"

#include "harness/tools/agg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void signature(const wb_row *r, unsigned axes, char *buf, size_t len) {
    const wb_point *p = &r->p;
    int at = snprintf(buf, len, "dtype=%s layout=%s", axes & AX_DTYPE ? "*" : p->dtype, axes & AX_LAYOUT ? "*" : p->layout);
#define SIGNATURE_AXIS(column, type, na, unit, desc, since)                                                            \
    if (at >= 0 && (size_t)at < len)                                                                           \
        at += axes & AX(column) ? snprintf(buf + at, len - (size_t)at, " " #column "=*")                         \
                                : snprintf(buf + at, len - (size_t)at, " " #column "=%.15g", (double)p->column);
    WB_POINT_AXES(SIGNATURE_AXIS)
    if (axes & AX_VARIANT_FIXED && at >= 0 && (size_t)at < len) snprintf(buf + at, len - (size_t)at, " variant=%s", p->variant);
}

static int candidate(const wb_row *r, const slice *s, const wb_shape *sh) {
    return strcmp(r->p.family, s->family) == 0 && wb_shape_match(sh, r) && strcmp(r->m.status, "ok") == 0 && isfinite(s->x(r)) &&
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
int wb_pick_rows(const wb_export *x, const slice *s, pick **out, char *sig, size_t siglen) {
    const wb_results *res = x->r;
    int64_t n_best = -1;
    int best_xs = 0;
    wb_shape rule = x->shape; /* what the figure plots is not held fixed */
    if (s->axes & AX_ILP) rule.ilp = -1;
    if (s->axes & AX_OCC) rule.occ = NAN;
    const wb_shape *sh = &rule;
    for (int64_t i = 0; i < res->nrows; i++) { /* largest n with two x values (or the slice's n) */
        const wb_row *a = &res->rows[i];
        if (!candidate(a, s, sh) || (s->n > 0 && a->p.n != s->n)) continue;
        int xs = 1;
        for (int64_t j = 0; j < res->nrows && xs < 2; j++)
            if (candidate(&res->rows[j], s, sh) && res->rows[j].p.n == a->p.n && s->x(&res->rows[j]) != s->x(a)) xs = 2;
        if (xs > best_xs || (xs == best_xs && a->p.n > n_best)) n_best = a->p.n, best_xs = xs;
    }
    *out = NULL;
    if (best_xs == 0) return 0;
    /* most frequent signature at that n; signatures computed once per row */
    char (*sigs)[320] = malloc((size_t)(res->nrows + 1) * sizeof *sigs);
    if (!sigs) return -1;
    int best_count = 0, best_i = -1;
    for (int64_t i = 0; i < res->nrows; i++) {
        sigs[i][0] = '\0';
        if (candidate(&res->rows[i], s, sh) && res->rows[i].p.n == n_best)
            signature(&res->rows[i], s->axes, sigs[i], sizeof sigs[i]);
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
FILE *wb_open_sliced(wb_export *x, const char *part, const char *columns, const char *sig, wb_err *e) {
    FILE *f = wb_export_open(x, part, columns, e);
    char shape[96];
    if (f) fprintf(f, "# fixed: %s; %s\n", sig, wb_shape_text(&x->shape, shape, sizeof shape));
    return f;
}

void wb_block_break(FILE *f, const pick *p, int i) {
    if (i && p[i].order != p[i - 1].order) wb_export_block_end(f);
}


/* pick_rows with the absent case as WB_SKIP; *n = picks. */
int wb_picks(wb_export *x, const slice *s, pick **p, int *n, char *sig, size_t len, wb_err *e) {
    *n = wb_pick_rows(x, s, p, sig, len);
    if (*n < 0) return wb_fail(e, "out of memory");
    if (*n == 0) return wb_skip(e, "no ok point of family '%s' with its x axis in this file", s->family);
    return WB_OK;
}

/* Sorted distinct x values of the picks; returns the count. */
int wb_distinct_x(const pick *p, int n, double *out) {
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

void wb_row_out(FILE *f, const char *series, const double *v, int k) {
    wb_export_str(f, series);
    for (int i = 0; i < k; i++) wb_export_num(f, v[i]);
    fputc('\n', f);
}

int wb_export_table(wb_export *x, const table *t, const void *ctx, wb_err *e) {
    pick *p;
    char sig[320];
    int n, rc = wb_picks(x, &t->s, &p, &n, sig, sizeof sig, e);
    if (rc != WB_OK) return rc;
    FILE *f = wb_open_sliced(x, "", t->columns, sig, e);
    if (f && t->note) fprintf(f, "# %s\n", t->note);
    for (int i = 0; f && i < n; i++) {
        double v[8];
        wb_block_break(f, p, i);
        wb_row_out(f, p[i].series, v, t->row(ctx, &p[i], v));
    }
    if (f && t->tail) t->tail(f, x, p, n, ctx);
    x->rows = n;
    free(p);
    return f ? wb_export_close(f, x, "", e) : WB_ERR;
}


/* "4/8/16" from the distinct values of one launch axis over a series. */
static void distinct_ints(const pick *p, int n, int order, int which, char *buf, size_t len) {
    int seen[32], ns = 0, at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (p[i].order != order) continue;
        const wb_launch *l = &p[i].row->p.launch;
        int v = which == 0 ? l->ilp : which == 1 ? l->block : (int)lround(100 * l->occupancy_target);
        int k = 0;
        while (k < ns && seen[k] != v) k++;
        if (k < ns || ns == 32) continue;
        seen[ns++] = v;
    }
    for (int a = 0; a < ns; a++) /* ascending */
        for (int b = a + 1; b < ns; b++)
            if (seen[b] < seen[a]) { int t = seen[a]; seen[a] = seen[b]; seen[b] = t; }
    for (int k = 0; k < ns && at >= 0 && (size_t)at < len; k++)
        at += which == 2 ? snprintf(buf + at, len - (size_t)at, "%s%g", k ? "/" : "", seen[k] / 100.0)
                         : snprintf(buf + at, len - (size_t)at, "%s%d", k ? "/" : "", seen[k]);
}

int wb_export_series_shapes(wb_export *x, const pick *p, int n, wb_err *e) {
    FILE *f = wb_export_open(x, "-shapes", "series shape", e);
    if (!f) return WB_ERR;
    for (int i = 0; i < n; i++) {
        if (i && p[i].order == p[i - 1].order) continue;
        char ilp[64], block[64], occ[64], text[224];
        distinct_ints(p, n, p[i].order, 0, ilp, sizeof ilp);
        distinct_ints(p, n, p[i].order, 1, block, sizeof block);
        distinct_ints(p, n, p[i].order, 2, occ, sizeof occ);
        if (p[i].row->p.launch.ilp < 0) snprintf(text, sizeof text, "library peer, its own launch");
        else snprintf(text, sizeof text, "ILP %s, block %s, occupancy %s", ilp, block, occ);
        wb_export_str(f, p[i].series);
        fputc(' ', f);
        wb_export_str(f, text);
        fputc('\n', f);
    }
    return wb_export_close(f, x, "-shapes", e);
}

void wb_series_variant(const wb_row *r, char *buf, size_t len) { snprintf(buf, len, "%s", r->p.variant); }

double wb_row_dram_mb(const wb_row *r) {
    return (wb_agg_metric(r, "dram_sectors_read") + wb_agg_metric(r, "dram_sectors_write")) * 32.0 / 1e6;
}

double wb_row_ns_per_item(const wb_row *r) {
    double items = isfinite(r->p.items) && r->p.items > 0 ? r->p.items : (double)r->p.n;
    return items > 0 ? r->m.time_median_ms * 1e6 / items : NAN;
}
