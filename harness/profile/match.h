/* match.h - joins the two passes of `wallbench profile` into one wb_profile.
 * Per process (the passes' processes paired in pid order), the timing pass's
 * selected launches and the counter pass's counted ones are compared by
 * (kernel name, grid, block) in launch order: equal sequences match position
 * by position; otherwise (a program that is not deterministic) the k-th
 * launch of a kernel in one pass matches the k-th launch of the same kernel
 * (name and launch shape) in the other, and a note says where the sequences
 * first differed. A graph launch's kernel nodes are timed (their activity
 * records) and never counted. Either pass may be absent. */
#ifndef WB_PROFILE_MATCH_H
#define WB_PROFILE_MATCH_H

#include "harness/base/error.h"
#include "harness/base/profile.h"
#include "harness/profile/raw.h"
#include "harness/profile/select.h"

typedef struct wb_match_stats {
    int processes;                 /* paired processes */
    int64_t timed, counted, both;  /* launches with a time, with counters, with both */
    int64_t unmatched_timing, unmatched_counters;
    int64_t graph_nodes;           /* kernels of graph launches: timed, not counted */
    int64_t not_counted;           /* selected in the counter pass but left uncounted (N lines or cut short) */
    int by_kernel;                 /* 1: some process fell back to per-kernel matching */
    char note[512];                /* what the matching did, for the file and the console */
} wb_match_stats;

/* timing[0..nt) and counters[0..nc) are the passes' raw files (either count
 * may be 0); sel is the selection (reset and applied to the timing pass's
 * launches as the injected program applied it to the counter pass's). Fills
 * p->launches, p->kernels (name, demangled, shape, registers, smem) and
 * p->ranges (path); aggregation is the caller's. */
int wb_match_passes(wb_raw *timing, int nt, wb_raw *counters, int nc, wb_select *sel, wb_profile *p,
                    wb_match_stats *st, wb_err *e);

/* The readable short form of a kernel name: demangled, without return type,
 * template arguments and parameters ("cub::DeviceReduceKernel"). */
void wb_kernel_short_name(const char *mangled, char *out, size_t len);

#endif
