/* counters_derive.c - the part of the counter pass that does not depend on
 * CUPTI: the NaN state, the stall groups of seed 000 Fig 6 and the derived
 * roofline columns. harness/gpu/counters_cupti.c collects the raw values. */
#include "harness/base/counters_derive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/metrics.h"

/* Groups, in the order of wb_stall_groups[] (metrics.c). */
enum { G_MEM_THROUGHPUT, G_MEM_LATENCY, G_DEPENDENCY, G_SYNC, G_THROTTLE, G_OTHER, G_ISSUED, G_MEMORY };

/* Seed 000 (Fig 6) splits warp-cycles into memory (throughput / latency),
 * dependency, synchronisation, throttle, other and issued + ready. The
 * reasons (ncu's smsp__average_warps_issue_stalled_<reason>_per_issue_active)
 * map as follows, and why:
 * - memory: long_scoreboard (waiting for an L1TEX result: global, local,
 *   texture), lg_throttle / tex_throttle / mio_throttle (the queue to the
 *   memory pipes is full; MIO also carries shared memory, which lives in
 *   L1), drain (stores draining to memory after EXIT) and imc_miss (a miss
 *   in the constant cache fetches from L2/DRAM). A point whose DRAM, L2 or
 *   L1 throughput reached 75% of peak books them as throughput stalls,
 *   otherwise as latency stalls: the paper's rule, applied per point.
 * - dependency: wait (fixed-latency dependency) and short_scoreboard (result
 *   of a variable-latency MIO op such as shared-memory loads or MUFU): both
 *   are hidden by more ILP, which is how the paper's "dependency" is cured.
 * - sync: barrier (__syncthreads) and membar (memory fences).
 * - throttle: math_pipe_throttle (an execution pipe is busy) and
 *   dispatch_stall (the dispatcher cannot take the instruction).
 * - other: branch_resolving, no_instruction (instruction cache), misc and
 *   sleeping (nanosleep/yield): none of the paper's named causes.
 * - issued: selected (issued this cycle) and not_selected (ready, another
 *   warp issued): the paper's "issued + ready". */
static const struct {
    const char *reason;
    int group;
} stall_map[] = {
    {"long_scoreboard", G_MEMORY},   {"lg_throttle", G_MEMORY},       {"tex_throttle", G_MEMORY},
    {"mio_throttle", G_MEMORY},      {"drain", G_MEMORY},             {"imc_miss", G_MEMORY},
    {"wait", G_DEPENDENCY},          {"short_scoreboard", G_DEPENDENCY},
    {"barrier", G_SYNC},             {"membar", G_SYNC},
    {"math_pipe_throttle", G_THROTTLE}, {"dispatch_stall", G_THROTTLE},
    {"branch_resolving", G_OTHER},   {"no_instruction", G_OTHER},     {"misc", G_OTHER},
    {"sleeping", G_OTHER},
    {"selected", G_ISSUED},          {"not_selected", G_ISSUED},
};

/* Seed 000 Fig 6: a tier "saturated" above this share of its peak. */
#define WB_MEM_SATURATED_PCT 75.0
#define WB_STALL_PREFIX "stall_raw_"

static double col(const wb_counters *c, const char *column) {
    int i = wb_metric_index(column);
    return i >= 0 ? c->v[i] : NAN;
}

/* NaN + x = x, so that one reason unknown on a chip does not hide the rest;
 * the group stays NaN only when all its reasons are. */
static void add(double *sum, double x) {
    if (isnan(x)) return;
    *sum = isnan(*sum) ? x : *sum + x;
}

void wb_counters_clear(wb_counters *c, const char *note) {
    for (int i = 0; i < WB_METRICS_MAX; i++) c->v[i] = NAN;
    for (int i = 0; i < WB_STALL_GROUPS; i++) c->stall[i] = NAN;
    c->l1_sectors = c->inst_per_sector = c->gips = c->roof_pct = NAN;
    c->bound[0] = c->bound_l4[0] = c->bound_gh200[0] = '\0';
    c->launches = -1;
    snprintf(c->note, sizeof c->note, "%s", note ? note : "");
}

/* 1 if any of DRAM, L2, L1 reached the threshold, 0 if none did, -1 if all
 * three are unknown (the memory stalls then cannot be split). */
static int memory_saturated(const wb_counters *c) {
    static const char *const tiers[] = {"dram_throughput_pct", "l2_throughput_pct", "l1_throughput_pct"};
    int known = 0;
    for (size_t i = 0; i < sizeof tiers / sizeof tiers[0]; i++) {
        double pct = col(c, tiers[i]);
        if (isnan(pct)) continue;
        known = 1;
        if (pct >= WB_MEM_SATURATED_PCT) return 1;
    }
    return known ? 0 : -1;
}

void wb_counters_group(wb_counters *c) {
    c->l1_sectors = col(c, "l1_sectors_ld") + col(c, "l1_sectors_st");

    double sum[G_MEMORY + 1];
    for (int g = 0; g <= G_MEMORY; g++) sum[g] = NAN;
    for (int i = 0; i < wb_n_metrics; i++) {
        const char *name = wb_metrics[i].column;
        if (strncmp(name, WB_STALL_PREFIX, strlen(WB_STALL_PREFIX)) != 0) continue;
        const char *reason = name + strlen(WB_STALL_PREFIX);
        for (size_t k = 0; k < sizeof stall_map / sizeof stall_map[0]; k++)
            if (strcmp(stall_map[k].reason, reason) == 0) add(&sum[stall_map[k].group], c->v[i]);
    }
    for (int g = 0; g < WB_STALL_GROUPS; g++) c->stall[g] = sum[g];

    int saturated = memory_saturated(c);
    if (saturated < 0 || isnan(sum[G_MEMORY])) {
        c->stall[G_MEM_THROUGHPUT] = c->stall[G_MEM_LATENCY] = NAN;
    } else {
        c->stall[G_MEM_THROUGHPUT] = saturated ? sum[G_MEMORY] : 0.0;
        c->stall[G_MEM_LATENCY] = saturated ? 0.0 : sum[G_MEMORY];
    }
}

/* "" unless the roof has a ridge: a file without ceilings must not carry
 * bounds that look measured. */
static void bound_of(char *dst, size_t len, const wb_roof *r, double x) {
    const char *b = (r && isfinite(wb_roof_ridge(r))) ? wb_roof_bound(r, x) : "";
    snprintf(dst, len, "%s", b);
}

/* wb_roof_attainable at +inf intensity: the instruction ceiling, min(inst, inf). */
static double attainable(const wb_roof *r, double x) {
    if (!r) return NAN;
    if (isinf(x) && x > 0) return isfinite(wb_roof_ridge(r)) ? r->inst_gips : NAN;
    return wb_roof_attainable(r, x);
}

void wb_counters_derive(wb_counters *c, double time_ms, const wb_roof *measured, const wb_roof *l4,
                        const wb_roof *gh200) {
    double inst = col(c, "inst");
    double sectors = col(c, "dram_sectors_read") + col(c, "dram_sectors_write");
    /* The timed median, not the counter range's duration: a CUPTI user range
     * also spans launch and synchronisation gaps (70 us on a 2.3 ms kernel on
     * the H200, 3%), which would understate every point's rate. */
    double ms = isfinite(time_ms) && time_ms > 0 ? time_ms : col(c, "kernel_time_ms");

    c->inst_per_sector = NAN;
    if (isfinite(inst) && isfinite(sectors) && inst >= 0 && sectors >= 0) {
        if (sectors > 0)
            c->inst_per_sector = inst / sectors;
        else if (inst > 0)
            c->inst_per_sector = INFINITY;  /* everything came from caches */
    }
    /* warp instructions per ns = G inst/s; ms * 1e6 = ns */
    c->gips = (isfinite(inst) && inst >= 0 && isfinite(ms) && ms > 0) ? inst / (ms * 1e6) : NAN;

    double roof = attainable(measured, c->inst_per_sector);
    c->roof_pct = (isfinite(c->gips) && isfinite(roof) && roof > 0) ? 100.0 * c->gips / roof : NAN;

    bound_of(c->bound, sizeof c->bound, measured, c->inst_per_sector);
    bound_of(c->bound_l4, sizeof c->bound_l4, l4, c->inst_per_sector);
    bound_of(c->bound_gh200, sizeof c->bound_gh200, gh200, c->inst_per_sector);
}
