/* profile.h - the data model of `wallbench profile -- CMD`: another program's
 * kernel launches, timed by one pass (CUPTI Activity records) and counted by
 * another (CUPTI Range Profiler, auto range, kernel replay), matched launch by
 * launch, then summed per kernel (name + launch shape) and per NVTX range.
 * Nothing here needs CUDA or HDF5: the driver (harness/profile/) fills it, the
 * store (harness/store/profile_h5.c) writes and reads it, the tools read it.
 * Integers that do not apply are -1, reals NaN, never 0. */
#ifndef WB_PROFILE_H
#define WB_PROFILE_H

#include <stdint.h>

#include "harness/base/error.h"
#include "harness/base/point.h" /* wb_counters, WB_METRICS_MAX */

/* Version of the profile file layout (file_kind "wallbench-profile"). */
/* 2: /counted_ranges (--ranges nvtx, every:N) and /samples (--sample); version 1 files read with none.
 * 3: counts (instructions, sectors: wb_pcol.count) as int64, -1 not counted (doubles, NaN, before).
 * 4: the atomics' counters (l2_atom_requests, l2_red_requests); older files read them NaN.
 * 5: /kernels' <count>_spread_pct (wb_spread_metrics); older files read them NaN.
 * 6: /launches' dram_sectors_write_after; older files read it NaN. */
#define WB_PROFILE_SCHEMA_VERSION 6
#define WB_PROFILE_SCHEMA_COUNTS 3
#define WB_PROFILE_FILE_KIND "wallbench-profile"

/* How a launch's two passes were joined (wb_prof_launch.match). */
typedef enum {
    WB_MATCH_NONE = 0,     /* only one pass ran, or this launch has no partner */
    WB_MATCH_SEQUENCE = 1, /* same position in equal sequences (name, grid, block) */
    WB_MATCH_KERNEL = 2    /* sequences differed: k-th launch of the same kernel in each pass */
} wb_match_kind;

/* One kernel launch of the profiled program, in launch order. */
typedef struct wb_prof_launch {
    int64_t seq;            /* position in the program's launch order (0-based, all threads) */
    int32_t kernel;         /* row of wb_profile.kernels */
    int32_t range;          /* row of wb_profile.ranges: the NVTX stack at launch; -1 outside any */
    int32_t device;         /* CUDA device ordinal */
    int32_t pid;            /* process that launched it (forked children have their own) */
    int64_t stream;         /* CUPTI stream id; -1 unknown */
    int32_t grid[3], block[3];
    int32_t registers;      /* per thread; -1 when not timed */
    int32_t smem_static, smem_dynamic; /* bytes per block; -1 unknown */
    int32_t api;            /* wb_prof_api */
    int64_t start_ns, end_ns; /* GPU timestamps of the timing pass; -1 when not timed */
    double time_ms;         /* end - start; NaN when not timed */
    int32_t match;          /* wb_match_kind */
    wb_counters c;          /* counter pass (c.v by wb_metrics[] row), derived columns; NaN when not counted */
    /* counter pass, L2 flushed (--cache-control all): DRAM sectors the flush before the process's next
     * counted launch wrote back, the dirty lines this launch left in the L2 (and whatever ran between:
     * copies, memsets, launches not counted); NaN without that flush. A kernel's writes that are still
     * in the L2 when its range ends reach DRAM later, outside any range (docs/profiling-measured.md). */
    double dram_sectors_write_after;
} wb_prof_launch;

/* Launch API the program used (launches through a graph are kernels of a node). */
typedef enum {
    WB_API_LAUNCH = 0,      /* cuLaunchKernel (and the runtime's launches, which call it) */
    WB_API_LAUNCH_EX = 1,   /* cuLaunchKernelEx (clusters, attributes) */
    WB_API_COOPERATIVE = 2, /* cuLaunchCooperativeKernel */
    WB_API_GRAPH = 3        /* a kernel node of cuGraphLaunch: timed, not counted (kernel replay cannot) */
} wb_prof_api;

/* The counts whose spread over a kernel's counted launches /kernels holds, as <count>_spread_pct
 * (profile_agg.c): how far one launch stands for the others, which is what --rotate assumes of a
 * column it counted on some launches only. */
#define WB_SPREAD_N 3
extern const char *const wb_spread_metrics[WB_SPREAD_N];
/* The place of a count in wb_spread_metrics[], or -1. */
int wb_spread_index(const char *count);

/* A kernel: name and launch shape; its launches summed. */
typedef struct wb_prof_kernel {
    char name[512];         /* mangled name as CUPTI gives it, cut to fit (name_full_len says) */
    char demangled[256];    /* short readable form: the function name without templates and arguments */
    int32_t name_full_len;  /* strlen of the whole name */
    int32_t grid[3], block[3];
    int32_t registers, smem_static, smem_dynamic;
    int64_t launches, timed, counted;
    double total_ms, median_ms, share_pct; /* share of the timed kernel time of the program */
    double spread_pct[WB_SPREAD_N]; /* (largest - smallest) / mean of wb_spread_metrics[k] over the counted
                             * launches that have it, in %; NaN under two */
    wb_counters c;          /* counters summed over counted launches (rates and percentages:
                             * time-weighted means), derived columns from the sums */
} wb_prof_kernel;

/* An NVTX range stack ("Q1/filter"), as Valk's operators. */
typedef struct wb_prof_range {
    char path[256];         /* the pushed names from outermost to innermost, '/'-joined */
    int64_t launches, counted;
    double total_ms, share_pct;
    wb_counters c;          /* as for kernels */
} wb_prof_range;

/* A range the counter pass counted as a whole (--ranges nvtx: an outermost NVTX range; every:N:
 * N launches), its kernels run as the program ran them: counts are the range's, not its kernels'. */
typedef struct wb_prof_span {
    char name[256];         /* the NVTX range's name, or "launches from <seq>" */
    int64_t first_seq, last_seq, launches; /* the launches it spans (seq of /launches), their number */
    double kernel_ms;       /* timed kernel time of those launches (timing pass); NaN without one */
    wb_counters c;          /* its counts; kernel_time_ms is the range's GPU duration (gaps included) */
} wb_prof_span;

/* One PM sample of the sampled timeline (--sample): the whole GPU over [start_ns, end_ns). */
typedef struct wb_prof_sample {
    int32_t pid;            /* the process whose pass took it */
    int64_t start_ns, end_ns; /* on the clock of /launches' start_ns and end_ns */
    double busy_ns;         /* time inside it during which some kernel of the process ran */
    int32_t kernels;        /* kernels that ran inside it */
    int32_t launch;         /* row of /launches with the most time inside it; -1: none (idle) */
    char nvtx[128];         /* that launch's NVTX path ("" idle or outside any range) */
    wb_counters c;          /* its counts; derived columns over the sample's length */
} wb_prof_sample;

typedef struct wb_prof_attr {
    char name[64];
    char value[1024];
    int is_number;
} wb_prof_attr;

typedef struct wb_profile {
    wb_prof_launch *launches;
    int64_t nlaunches;
    wb_prof_kernel *kernels;
    int32_t nkernels;
    wb_prof_range *ranges;
    int32_t nranges;
    wb_prof_span *spans;    /* /counted_ranges */
    int32_t nspans;
    wb_prof_sample *samples; /* /samples */
    int64_t nsamples;
    wb_prof_attr *attrs;    /* provenance, ceilings, pass costs, match notes (root attributes) */
    int32_t nattrs;
    /* The roof the derived columns were computed against (attributes too). */
    double ceiling_inst_gips, ceiling_dram_gbps;
} wb_profile;

#endif
