/* limiter.c - the limiter rule and its time splits (limiter.h). */
#include "harness/tools/limiter.h"

#include <math.h>
#include <stddef.h>

#include "harness/base/metrics.h"

static double dram_ceiling(const wb_gpu_view *v) { return v->dram_read_gbps; }
static double l2_ceiling(const wb_gpu_view *v) { return v->l2_read_gbps; }
static double issue_ceiling(const wb_gpu_view *v) { return v->inst_gips; }
static double atomic_ceiling(const wb_gpu_view *v) { return v->atomic_greqs; }

/* A resource: the counters summed into its traffic (the first present list wins), what one
 * counts (bytes of a sector, one warp instruction, one L2 request) and the measured ceiling it
 * is read against (GB/s, G warp inst/s, G req/s). Atomics: the L2's requests of ATOM and RED
 * against the atom_global ceiling at its fastest table in the same counted requests
 * (wb_ceiling_atomics; a global atomic per selected row keeps the L2's atomic unit busy while DRAM moves
 * 57 GB/s). Not here yet: the host link, shared memory (inst_shared_atom is counted, but the
 * ceiling family's atom_shared rate is per request, not per warp instruction). Nsight's L2
 * throughput % of peak is no stand-in: every DRAM sector crosses the L2, so it named streaming
 * kernels at the DRAM roof L2-bound. */
static const struct resource {
    const char *name;
    const char *counters[2][3]; /* alternatives, each NULL-ended */
    double unit;
    double (*ceiling)(const wb_gpu_view *v);
} resources[WB_LIM_RESOURCES] = {
    [WB_LIM_DRAM] = {"DRAM", {{"dram_sectors_read", "dram_sectors_write", NULL}}, 32.0, dram_ceiling},
    [WB_LIM_L2] = {"L2", {{"l2_sectors", NULL}}, 32.0, l2_ceiling},
    [WB_LIM_ISSUE] = {"issue", {{"inst_issued", NULL}, {"inst", NULL}}, 1.0, issue_ceiling},
    [WB_LIM_ATOMICS] = {"atomics", {{"l2_atom_requests", "l2_red_requests", NULL}}, 1.0, atomic_ceiling},
};

static double traffic(const wb_counters *c, const struct resource *r) {
    for (int a = 0; a < 2 && r->counters[a][0]; a++) {
        double sum = 0;
        int ok = 1;
        for (int k = 0; r->counters[a][k] && ok; k++) {
            int m = wb_metric_index(r->counters[a][k]);
            ok = m >= 0 && isfinite(c->v[m]);
            if (ok) sum += c->v[m];
        }
        if (ok) return sum * r->unit;
    }
    return NAN;
}

void wb_limit_of(const wb_counters *c, double time_ms, const wb_gpu_view *v, wb_limit *out) {
    double best = -1;
    out->cls = WB_LIM_UNKNOWN;
    out->at_roofs_ms = NAN;
    for (int i = 0; i < WB_LIM_RESOURCES; i++) {
        double ceil = resources[i].ceiling(v), amount = traffic(c, &resources[i]);
        out->roof_ms[i] = ceil > 0 ? 1e3 * amount / (1e9 * ceil) : NAN;
        out->pct[i] = time_ms > 0 ? 100.0 * out->roof_ms[i] / time_ms : NAN;
        if (isfinite(out->pct[i]) && out->pct[i] > best) best = out->pct[i], out->cls = i;
        if (isfinite(out->roof_ms[i]) && !(out->roof_ms[i] <= out->at_roofs_ms)) out->at_roofs_ms = out->roof_ms[i];
    }
    if (out->cls != WB_LIM_UNKNOWN && best < WB_LIMIT_MIN_PCT) out->cls = WB_LIM_LATENCY;
    out->bytes_roof_ms = out->roof_ms[WB_LIM_DRAM];
}

const char *wb_limit_class_name(int cls) {
    if (cls >= 0 && cls < WB_LIM_RESOURCES) return resources[cls].name;
    return cls == WB_LIM_LATENCY ? "latency" : cls == WB_LIM_UNKNOWN ? "unknown" : "?";
}

void wb_limit_add(wb_limit_split *s, int cls, double ms) {
    if (!(ms > 0) || cls < 0 || cls >= WB_LIM_CLASSES) return;
    s->ms[cls] += ms;
    s->total += ms;
}

void wb_limit_add_row(wb_limit_split *s, const wb_limit *l, double ms) {
    wb_limit_add(s, l->cls, ms);
    if (ms > 0 && isfinite(l->at_roofs_ms)) s->at_roofs_ms += l->at_roofs_ms, s->covered_ms += ms;
    if (ms > 0 && isfinite(l->bytes_roof_ms)) s->bytes_roof_ms += l->bytes_roof_ms, s->bytes_covered_ms += ms;
}

void wb_limit_table_init(wb_textable *t, const char *first) {
    wb_textable_init(t, 6 + WB_LIM_CLASSES);
    int row = wb_textable_add(t);
    wb_textable_set(t, row, 0, "%s", first);
    wb_textable_set(t, row, 1, "Time (ms)");
    for (int k = 0; k < WB_LIM_CLASSES; k++) wb_textable_set(t, row, 2 + k, "%s %%", wb_limit_class_name(k));
    wb_textable_set(t, row, 2 + WB_LIM_CLASSES, "At the roofs (ms)");
    wb_textable_set(t, row, 3 + WB_LIM_CLASSES, "Headroom (x)");
    wb_textable_set(t, row, 4 + WB_LIM_CLASSES, "At its bytes' roof (ms)");
    wb_textable_set(t, row, 5 + WB_LIM_CLASSES, "Bytes headroom (x)");
}

void wb_limit_table_row(wb_textable *t, const char *label, const wb_limit_split *s) {
    int row = wb_textable_add(t);
    wb_textable_set(t, row, 0, "%s", label);
    wb_textable_set_num(t, row, 1, s->total, 3);
    for (int k = 0; k < WB_LIM_CLASSES; k++)
        wb_textable_set_num(t, row, 2 + k, s->total > 0 ? 100.0 * s->ms[k] / s->total : NAN, 1);
    wb_textable_set_num(t, row, 2 + WB_LIM_CLASSES, s->covered_ms > 0 ? s->at_roofs_ms : NAN, 3);
    wb_textable_set_num(t, row, 3 + WB_LIM_CLASSES, s->at_roofs_ms > 0 ? s->covered_ms / s->at_roofs_ms : NAN, 1);
    wb_textable_set_num(t, row, 4 + WB_LIM_CLASSES, s->bytes_covered_ms > 0 ? s->bytes_roof_ms : NAN, 3);
    wb_textable_set_num(t, row, 5 + WB_LIM_CLASSES, s->bytes_roof_ms > 0 ? s->bytes_covered_ms / s->bytes_roof_ms : NAN, 1);
}

void wb_limit_ratio(int cls, const wb_limit_scale *s, double fallback, double *lo, double *hi) {
    const double clk = s->clock_from / s->clock_to,
                 chip = s->sms_from > 0 && s->sms_to > 0 ? (s->sms_from * s->clock_from) / (s->sms_to * s->clock_to) : NAN,
                 dram = s->dram_from / s->dram_to, issue = s->inst_from / s->inst_to;
    switch (cls) {
    case WB_LIM_DRAM: *lo = *hi = dram; break;
    case WB_LIM_ISSUE: *lo = *hi = issue; break;
    case WB_LIM_L2: *lo = fmin(chip, dram), *hi = fmax(chip, dram); break;
    /* Atomics: the L2's atomic units follow its slices and clock, which no gpus.tsv row gives; the
     * range spans the clock alone and clock x SMs, as for latency. */
    case WB_LIM_ATOMICS:
    case WB_LIM_LATENCY: *lo = fmin(clk, chip), *hi = fmax(clk, chip); break;
    default: *lo = *hi = fallback;
    }
}
