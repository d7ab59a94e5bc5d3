/* metrics.c - the hardware-counter table (see metrics.h). Every metric name
 * exists for GH100 and AD104, and every chip CUPTI's host API knows (GV100 ..
 * GB202) gives inst and the DRAM sectors, through a fallback name where it
 * spells them otherwise (tests/test_counters.c walks them all). The set costs 6
 * replay passes on GH100 and AD104 (CUPTI host API, CUDA 13.0); the counter
 * pass replays the point once per pass, so each added metric is weighed
 * against that: ncu's sm__throughput alone needed 8 of the 14 passes the
 * first table took. The 18 stall reasons alone need 5 (about three a pass),
 * and no cheaper L1/L2 throughput metric brings the whole set below 6. On
 * the H200 a pass costs about 33 ms of CUPTI work whatever the kernel
 * (2026-11-29), which is what the counter pass costs. */
#include "harness/base/metrics.h"

#include <string.h>

#define STALL(reason)                                                                   \
    { "stall_raw_" #reason, "smsp__average_warps_issue_stalled_" #reason "_per_issue_active.ratio", \
      "warp-cycles/issue", 1.0, "warps stalled on " #reason " per issued instruction", {NULL}, 1 }

const wb_metric wb_metrics[] = {
    {"inst", "smsp__inst_executed.sum", "warp inst", 1.0, "warp instructions executed"},
    {"inst_issued", "smsp__inst_issued.sum", "warp inst", 1.0, "warp instructions issued (replays included)"},
    /* GB20x spell them dram__sectors_op_*. The integrated chips (GA10B, GB10B, GB20B) have no dram__
     * unit: their DRAM is system memory behind the L2, so reads are the L2's read misses to it and
     * writes the sectors written to it at the L2 (an upper bound: the L2 may merge them). */
    {"dram_sectors_read", "dram__sectors_read.sum", "sector", 1.0, "32-byte DRAM sectors read",
     {"dram__sectors_op_read.sum", "lts__t_sectors_aperture_sysmem_op_read_lookup_miss.sum"}},
    {"dram_sectors_write", "dram__sectors_write.sum", "sector", 1.0, "32-byte DRAM sectors written",
     {"dram__sectors_op_write.sum", "lts__t_sectors_aperture_sysmem_op_write.sum"}},
    {"l2_sectors", "lts__t_sectors.sum", "sector", 1.0, "L2 sectors accessed (all clients)"},
    /* Atomics (issue 49 item 1): what the limiter's `atomics` resource reads against the atom_global
     * ceiling. In the core set's one pass on GH100, AD104, GA100 and GB100, and the whole set stays 6
     * passes on GH100 and AD104 (CUPTI host API, CUDA 13.0, offline). Left out:
     * smsp__inst_executed_op_shared_atom.sum (one pass more for the whole set, a core set that
     * crowds --rotate's groups: 21 rows left out on GH100), smsp__sass_* (a second core pass);
     * smsp__inst_executed_op_global_atom.sum is no metric there. Results schema 10, profile 4. */
    {"l2_atom_requests", "lts__t_requests_op_atom.sum", "request", 1.0,
     "L2 requests of global atomics with a return value (ATOM)", {NULL}, 0, 10, 4},
    {"l2_red_requests", "lts__t_requests_op_red.sum", "request", 1.0,
     "L2 requests of global reductions, atomics whose return value is unused (RED)", {NULL}, 0, 10, 4},
    {"l1_sectors_ld", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", 1.0, "global load sectors at L1"},
    {"l1_sectors_st", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sector", 1.0, "global store sectors at L1"},
    /* Above 100% (to 101.1%) on 11 of record c2dfc31's 2,001 points, all kernels that read next to
     * nothing (the dram_write, fma, int_alu, inst_issue and h2d ceilings): their few sectors do not
     * balance CUPTI's hit and lookup counts. */
    {"l2_hit_pct", "lts__t_sector_hit_rate.pct", "%", 1.0,
     "L2 sector hit rate; a kernel that reads next to nothing can show up to ~101%"},
    {"l1_hit_pct", "l1tex__t_sector_hit_rate.pct", "%", 1.0, "L1 sector hit rate"},
    {"occupancy_achieved_pct", "sm__warps_active.avg.pct_of_peak_sustained_active", "%", 1.0,
     "achieved occupancy: active warps over the SM's maximum"},
    {"ipc", "sm__inst_executed.avg.per_cycle_active", "inst/cycle", 1.0, "warp instructions per SM per active cycle"},
    /* Instruction throughput (seed 000 Fig 8's fourth resource): warp instructions over the SMs' issue peak
     * (one per SMSP-cycle). ncu's sm__throughput (max over every pipe) would cost 8 more passes. */
    {"sm_throughput_pct", "sm__inst_executed.avg.pct_of_peak_sustained_elapsed", "%", 1.0,
     "instruction throughput: warp instructions executed over the issue peak, elapsed cycles"},
    {"dram_throughput_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", 1.0, "DRAM throughput, share of peak"},
    /* 9 replay passes alone on GA100, 15 on GV100 (L2), 3 and 10 (L1): left out there first, L2 before L1. */
    {"l2_throughput_pct", "lts__throughput.avg.pct_of_peak_sustained_elapsed", "%", 1.0, "L2 throughput, share of peak",
     {NULL}, 3},
    {"l1_throughput_pct", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed", "%", 1.0, "L1 throughput, share of peak",
     {NULL}, 2},
    {"sm_clock_hz", "sm__cycles_elapsed.avg.per_second", "Hz", 1.0, "SM clock during the kernels"},
    {"kernel_time_ms", "gpu__time_duration.sum", "ms", 1e-6,
     "GPU duration of the point's profiled range (all its launches, gaps between them included)"},
    /* Stall reasons common to GH100 and AD104 (gmma is Hopper-only and our kernels issue no wgmma). */
    STALL(barrier),
    STALL(branch_resolving),
    STALL(dispatch_stall),
    STALL(drain),
    STALL(imc_miss),
    STALL(lg_throttle),
    STALL(long_scoreboard),
    STALL(math_pipe_throttle),
    STALL(membar),
    STALL(mio_throttle),
    STALL(misc),
    STALL(no_instruction),
    STALL(not_selected),
    STALL(selected),
    STALL(short_scoreboard),
    STALL(sleeping),
    STALL(tex_throttle),
    STALL(wait),
};
const int wb_n_metrics = (int)(sizeof wb_metrics / sizeof wb_metrics[0]);

const char *const wb_stall_groups[] = {"mem_throughput", "mem_latency", "dependency", "sync",
                                       "throttle",       "other",       "issued"};

/* One pass on GH100, AD104, GA100, GB100 (CUPTI host API, CUDA 13.0; test_counters checks every
 * chip): inst_issued, the L2 sectors and the atomics ride along free, an L1 or hit-rate row costs a
 * second pass. */
const char *const wb_core_metrics[] = {"inst",       "inst_issued",      "dram_sectors_read", "dram_sectors_write",
                                       "l2_sectors", "l2_atom_requests", "l2_red_requests",
                                       "sm_clock_hz", "kernel_time_ms",   NULL};

int wb_metric_is_core(int i) {
    for (int k = 0; wb_core_metrics[k]; k++)
        if (i >= 0 && i < wb_n_metrics && !strcmp(wb_metrics[i].column, wb_core_metrics[k])) return 1;
    return 0;
}

int wb_unit_is_count(const char *unit) {
    static const char *const counts[] = {"warp inst", "sector", "request"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (unit && !strcmp(unit, counts[i])) return 1;
    return 0;
}

int wb_metric_index(const char *column) {
    for (int i = 0; i < wb_n_metrics; i++)
        if (strcmp(wb_metrics[i].column, column) == 0) return i;
    return -1;
}
