/* export_cdf.c - seed 000 Figs 7, 8 and 9: the share of time (operator
 * points' time_median_ms, agg.h) at which a quantity is at least x percent,
 * for x = 0..100. One block per curve: series x_pct time_share_pct. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export.h"

/* A block; blocks after the first start with the separator, so that no
 * empty block trails the table. */
static void cdf_block(FILE *f, const char *series, const double share[WB_AGG_CDF_STEPS], int first) {
    if (!first) wb_export_block_end(f);
    for (int x = 0; x < WB_AGG_CDF_STEPS; x++) {
        wb_export_str(f, series);
        wb_export_num(f, x);
        wb_export_num(f, share[x]);
        fputc('\n', f);
    }
}

/* Per operator point: value (NaN = unknown) and time; returns the count. */
typedef double (*value_fn)(const wb_row *r, const wb_gpu_view *v);
static int gather(const wb_export *x, value_fn fn, double *v, double *w) {
    int n = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        if (!wb_agg_is_op_point(r)) continue;
        v[n] = fn(r, &x->v);
        w[n++] = r->m.time_median_ms;
    }
    return n;
}

/* Writes one CDF block per value function; skips with reason when all are empty. */
static int cdf_figure(wb_export *x, const char *const *names, const value_fn *fns, int k, const char *absent, wb_err *e) {
    double *v = malloc((size_t)(x->r->nrows + 1) * sizeof *v), *w = malloc((size_t)(x->r->nrows + 1) * sizeof *w);
    double share[WB_AGG_CDF_STEPS];
    int rc = WB_OK, any = 0;
    FILE *f = NULL;
    if (!v || !w) rc = wb_fail(e, "out of memory");
    for (int s = 0; rc == WB_OK && s < k; s++) {
        int n = gather(x, fns[s], v, w);
        if (!(wb_agg_cdf(v, w, n, share) > 0)) continue;
        if (!f && !(f = wb_export_open(x, "", "series x_pct time_share_pct", e))) rc = WB_ERR;
        if (f) cdf_block(f, names[s], share, !any), any = 1, x->rows += WB_AGG_CDF_STEPS;
    }
    if (f && rc == WB_OK) rc = wb_export_close(f, x, "", e);
    else if (f) fclose(f);
    if (rc == WB_OK && !any) rc = wb_skip(e, "%s", absent);
    free(v);
    free(w);
    return rc;
}

static double occ_achieved(const wb_row *r, const wb_gpu_view *v) { (void)v; return wb_agg_metric(r, "occupancy_achieved_pct"); }
static double occ_theory(const wb_row *r, const wb_gpu_view *v) { (void)v; return 100.0 * r->p.launch.occupancy_theoretical; }

int wb_export_fig7(wb_export *x, wb_err *e) {
    static const char *const names[] = {"achieved", "theoretical"};
    static const value_fn fns[] = {occ_achieved, occ_theory};
    return cdf_figure(x, names, fns, 2, "no operator point has achieved or theoretical occupancy", e);
}

static double hit_l1(const wb_row *r, const wb_gpu_view *v) { (void)v; return wb_agg_metric(r, "l1_hit_pct"); }
static double hit_l2(const wb_row *r, const wb_gpu_view *v) { (void)v; return wb_agg_metric(r, "l2_hit_pct"); }
static double hit_max(const wb_row *r, const wb_gpu_view *v) { return fmax(hit_l1(r, v), hit_l2(r, v)); }

int wb_export_fig9(wb_export *x, wb_err *e) {
    static const char *const names[] = {"L2", "L1", "max"};
    static const value_fn fns[] = {hit_l2, hit_l1, hit_max};
    return cdf_figure(x, names, fns, 3, "no operator point has L1 or L2 hit ratios (counters)", e);
}

/* Fig 8's four resources, in %: DRAM, L2 and L1 throughput (Nsight share of
 * peak) and instruction throughput (agg.h); 0 when any is unknown. */
static int saturation(const wb_row *r, const wb_gpu_view *v, double s[4]) {
    s[0] = wb_agg_mem_pct(r);
    s[1] = wb_agg_metric(r, "l2_throughput_pct");
    s[2] = wb_agg_metric(r, "l1_throughput_pct");
    s[3] = wb_agg_inst_pct(r, v);
    for (int k = 0; k < 4; k++)
        if (!isfinite(s[k]) || s[k] < 0) return 0;
    return 1;
}

/* Measured panel, and the "latency hidden" panel: IPC (and with it every
 * resource's use) scaled by k = 100 / max until one resource reaches 100%,
 * the point's time divided by k; the summary holds the resulting speedup. */
int wb_export_fig8(wb_export *x, wb_err *e) {
    static const char *const res[5] = {"DRAM", "L2", "L1", "inst", "max"};
    int64_t cap = x->r->nrows + 1;
    double *v = malloc((size_t)(10 * cap) * sizeof *v), *w = malloc((size_t)(2 * cap) * sizeof *w);
    if (!v || !w) {
        free(v), free(w);
        return wb_fail(e, "out of memory");
    }
    int n = 0;
    double time = 0, time_hidden = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        double s[4];
        if (!wb_agg_is_op_point(r) || !saturation(r, &x->v, s)) continue;
        double max = fmax(fmax(s[0], s[1]), fmax(s[2], s[3]));
        if (!(max > 0)) continue;
        double k = max < 100.0 ? 100.0 / max : 1.0;
        for (int q = 0; q < 4; q++) v[q * cap + n] = s[q], v[(5 + q) * cap + n] = s[q] * k;
        v[4 * cap + n] = max;
        v[9 * cap + n] = max * k;
        w[n] = r->m.time_median_ms;
        w[cap + n] = r->m.time_median_ms / k;
        time += w[n], time_hidden += w[cap + n];
        n++;
    }
    int rc = WB_OK;
    FILE *f = NULL;
    if (!n) rc = wb_skip(e, "no operator point has DRAM, L2, L1 throughput and instruction counters");
    else if (!(f = wb_export_open(x, "", "series x_pct time_share_pct", e))) rc = WB_ERR;
    for (int panel = 0; f && panel < 2; panel++)
        for (int q = 0; q < 5; q++) {
            double share[WB_AGG_CDF_STEPS];
            char name[32];
            wb_agg_cdf(v + (5 * panel + q) * cap, w + panel * cap, n, share);
            snprintf(name, sizeof name, "%s/%s", panel ? "hidden" : "measured", res[q]);
            cdf_block(f, name, share, panel == 0 && q == 0);
            x->rows += WB_AGG_CDF_STEPS;
        }
    if (f) rc = wb_export_close(f, x, "", e);
    if (rc == WB_OK && (f = wb_export_open(x, "-summary", "panel time_ms speedup points", e))) {
        fprintf(f, "measured %.6g 1 %d\nhidden %.6g %.6g %d\n", time, n, time_hidden, time / time_hidden, n);
        rc = wb_export_close(f, x, "-summary", e);
    } else if (rc == WB_OK) rc = WB_ERR;
    free(v);
    free(w);
    return rc;
}
