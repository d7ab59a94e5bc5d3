/* agg.c - time-weighted aggregation over points (see agg.h). */
#include "harness/tools/agg.h"

#include <math.h>
#include <string.h>

#include "harness/base/metrics.h"
#include "harness/base/roof_contract.h"

int wb_agg_is_op_point(const wb_row *r) {
    return strcmp(r->m.status, "ok") == 0 && strcmp(r->p.family, WB_CEILING_FAMILY) != 0 && isfinite(r->m.time_median_ms) &&
           r->m.time_median_ms > 0;
}

double wb_agg_metric(const wb_row *r, const char *column) {
    int i = wb_metric_index(column);
    return i < 0 ? NAN : r->c.v[i];
}

double wb_agg_clock_ghz(const wb_row *r, const wb_gpu_view *v) {
    double hz = wb_agg_metric(r, "sm_clock_hz");
    if (isfinite(hz) && hz > 0) return hz / 1e9;
    if (isfinite(r->m.sm_clock_mhz) && r->m.sm_clock_mhz > 0) return r->m.sm_clock_mhz / 1e3;
    return v ? v->clock_ghz : NAN;
}

double wb_agg_inst_pct(const wb_row *r, const wb_gpu_view *v) {
    double pct = wb_agg_metric(r, "sm_throughput_pct");
    if (isfinite(pct)) return pct;
    if (!v) return NAN;
    double peak = wb_roof_inst_gips(v->sms, v->smsp_per_sm, wb_agg_clock_ghz(r, v));
    if (!isfinite(peak) || !isfinite(r->c.gips)) return NAN;
    return 100.0 * r->c.gips / peak;
}

double wb_agg_mem_pct(const wb_row *r) { return wb_agg_metric(r, "dram_throughput_pct"); }

const char *wb_agg_bound(const wb_row *r, const wb_gpu_view *v) {
    const char *b = v ? wb_roof_bound(&v->roof, r->c.inst_per_sector) : "";
    if (!*b && (!v || isnan(wb_roof_ridge(&v->roof)))) b = r->c.bound;
    return b;
}

int wb_agg_below_all_tiers(const wb_row *r) {
    static const char *const tiers[] = {"l1_throughput_pct", "l2_throughput_pct", "dram_throughput_pct"};
    for (int i = 0; i < 3; i++) {
        double pct = wb_agg_metric(r, tiers[i]);
        if (!isfinite(pct) || pct >= WB_AGG_SATURATED_PCT) return 0;
    }
    return 1;
}

double wb_agg_cdf(const double *v, const double *w, int n, double share[WB_AGG_CDF_STEPS]) {
    double total = 0, at[WB_AGG_CDF_STEPS] = {0};
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i]) || !(w[i] > 0)) continue;
        total += w[i];
        /* counts toward every x <= v; values past 100% count at every x */
        int top = v[i] >= WB_AGG_CDF_STEPS - 1 ? WB_AGG_CDF_STEPS - 1 : (int)floor(v[i]);
        for (int x = 0; x <= top; x++) at[x] += w[i];
    }
    for (int x = 0; x < WB_AGG_CDF_STEPS; x++) share[x] = total > 0 ? 100.0 * at[x] / total : NAN;
    return total;
}

void wb_agg_mean_std(const double *v, const double *w, int n, double *mean, double *std) {
    double sw = 0, swv = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && w[i] > 0) sw += w[i], swv += w[i] * v[i];
    *mean = *std = NAN;
    if (!(sw > 0)) return;
    *mean = swv / sw;
    double ss = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && w[i] > 0) ss += w[i] * (v[i] - *mean) * (v[i] - *mean);
    *std = sqrt(ss / sw);
}

double wb_agg_geomean(const double *v, const double *w, int n) {
    double sw = 0, swl = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0 && w[i] > 0) sw += w[i], swl += w[i] * log(v[i]);
    return sw > 0 ? exp(swl / sw) : NAN;
}
