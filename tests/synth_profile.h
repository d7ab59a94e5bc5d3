/* synth_profile.h - a small hand-built wb_profile (three kernels, two NVTX
 * ranges, seven launches: timed and counted, timed only, counted only) for
 * the aggregation, file and tool tests, with its numbers chosen so that the
 * expected sums, medians and means are easy to state. */
#ifndef WB_TEST_SYNTH_PROFILE_H
#define WB_TEST_SYNTH_PROFILE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/base/profile_agg.h"

/* The measured roof of the synthetic GPU: ridge 1000 / (4000 / 32) = 8. */
static const wb_roof synth_roof = {"measured", 1000.0, 4000.0};

static void sp_metric(wb_counters *c, const char *column, double v) {
    int i = wb_metric_index(column);
    if (i >= 0) c->v[i] = v;
}

static wb_prof_kernel sp_kernel(const char *name, const char *demangled, int grid, int block) {
    wb_prof_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "%s", name);
    snprintf(k.demangled, sizeof k.demangled, "%s", demangled);
    k.name_full_len = (int32_t)strlen(name);
    k.grid[0] = grid, k.grid[1] = k.grid[2] = 1;
    k.block[0] = block, k.block[1] = k.block[2] = 1;
    k.registers = 32, k.smem_static = 0, k.smem_dynamic = 1024;
    wb_counters_clear(&k.c, "");
    return k;
}

/* A launch of kernel k in range r, timed for ms (NaN: not timed); counted
 * when inst is finite (sectors read, none written; the throughput pcts). */
static wb_prof_launch sp_launch(const wb_profile *p, int64_t seq, int k, int r, double ms, double inst, double sectors,
                                double dram_pct, double ipc) {
    wb_prof_launch l;
    memset(&l, 0, sizeof l);
    l.seq = seq, l.kernel = k, l.range = r, l.device = 0, l.pid = 4242, l.stream = 7;
    for (int i = 0; i < 3; i++) l.grid[i] = p->kernels[k].grid[i], l.block[i] = p->kernels[k].block[i];
    l.registers = isfinite(ms) ? 32 : -1;
    l.smem_static = 0, l.smem_dynamic = 1024, l.api = WB_API_LAUNCH;
    l.start_ns = isfinite(ms) ? 1000000 * seq : -1;
    l.end_ns = isfinite(ms) ? l.start_ns + (int64_t)(ms * 1e6) : -1;
    l.time_ms = ms;
    l.match = isfinite(ms) && isfinite(inst) ? WB_MATCH_SEQUENCE : WB_MATCH_NONE;
    wb_counters_clear(&l.c, isfinite(inst) ? "" : "not counted");
    if (isfinite(inst)) {
        sp_metric(&l.c, "inst", inst);
        sp_metric(&l.c, "dram_sectors_read", sectors);
        sp_metric(&l.c, "dram_sectors_write", 0);
        sp_metric(&l.c, "l2_sectors", 2 * sectors);
        sp_metric(&l.c, "dram_throughput_pct", dram_pct);
        sp_metric(&l.c, "ipc", ipc);
        sp_metric(&l.c, "occupancy_achieved_pct", 50);
        sp_metric(&l.c, "l2_hit_pct", 40);
        sp_metric(&l.c, "kernel_time_ms", isfinite(ms) ? ms : 0.5);
        sp_metric(&l.c, "stall_raw_long_scoreboard", 4);
        sp_metric(&l.c, "stall_raw_wait", 1);
    }
    return l;
}

/* Kernels: 0 gather (memory bound: 1 inst/sector), 1 compute (1e4
 * inst/sector), 2 sort (counted, never timed). Ranges: 0 "Q1", 1
 * "Q1/filter". Launch 5 is outside any range; launch 4 timed, not counted. */
static void synth_profile(wb_profile *p) {
    memset(p, 0, sizeof *p);
    p->nkernels = 3;
    p->kernels = calloc(3, sizeof *p->kernels);
    p->kernels[0] = sp_kernel("_Z6gatherPKiPi", "gather", 1024, 256);
    p->kernels[1] = sp_kernel("_Z7computePf", "compute", 132, 128);
    p->kernels[2] = sp_kernel("_ZN3cub10DeviceSortEv", "cub::DeviceSort", 64, 512);
    p->nranges = 2;
    p->ranges = calloc(2, sizeof *p->ranges);
    snprintf(p->ranges[0].path, sizeof p->ranges[0].path, "Q1");
    snprintf(p->ranges[1].path, sizeof p->ranges[1].path, "Q1/filter");
    p->nlaunches = 7;
    p->launches = calloc(7, sizeof *p->launches);
    p->launches[0] = sp_launch(p, 0, 0, 0, 2.0, 1e6, 1e6, 80, 0.5);
    p->launches[1] = sp_launch(p, 1, 0, 1, 4.0, 1e6, 1e6, 60, 0.7);
    p->launches[2] = sp_launch(p, 2, 1, 1, 1.0, 1e8, 1e4, 5, 3.0);
    p->launches[3] = sp_launch(p, 3, 0, 1, 3.0, 1e6, 1e6, 90, 0.6);
    p->launches[4] = sp_launch(p, 4, 1, 0, 1.0, NAN, NAN, NAN, NAN);
    p->launches[5] = sp_launch(p, 5, 2, -1, NAN, 5e5, 1e3, 10, 1.0);
    p->launches[6] = sp_launch(p, 6, 0, 0, 1.0, 1e6, 1e6, 70, 0.5);
    wb_err e;
    wb_profile_attr_str(p, "gpu_name", "NVIDIA H200", &e);
    wb_profile_attr_str(p, "gpu_uuid", "GPU-synthetic-0001", &e);
    wb_profile_attr_str(p, "program_command", "python3 tpch.py --sf 1", &e);
    wb_profile_attr_str(p, "git_revision", "abc1234", &e);
    wb_profile_attr_str(p, "timing_pass_board", "undisturbed: 40 samples; no slowdown; no other process on it (by pid)", &e);
    wb_profile_attr_str(p, "counter_pass_board", "disturbed: 60 samples; no slowdown; 1 other process(es) held the GPU "
                        "in 12 of 60 samples (pid 4242)", &e);
    wb_profile_attr_num(p, "program_exit_code", 0, &e);
    wb_profile_attr_num(p, "sm_count", 132, &e);
}

#endif
