/* raw.h - what one profiled process wrote in one pass (the lines that
 * harness/profile/inject/inject.c documents), read back by the driver. */
#ifndef WB_PROFILE_RAW_H
#define WB_PROFILE_RAW_H

#include <stdint.h>

#include "harness/base/error.h"
#include "harness/base/point.h"

typedef struct wb_raw_launch {
    int64_t seq;
    uint32_t corr;
    int api, selected;
    int32_t grid[3], block[3], smem_dynamic;
    int name;                 /* index into wb_raw.strings */
    int nvtx;                 /* index into wb_raw.strings */
    /* timing pass: the kernel record of this launch (K line), -1 if none */
    int kernel_rec;
    /* counter pass: counters (NaN unless a C line came), or why not (index into strings, -1) */
    double v[WB_METRICS_MAX];
    int counted, not_counted_why;
    double flush_writes;      /* counter pass, F line: DRAM sectors our flush before it wrote back; NaN */
    double written_after;     /* the next counted launch's flush_writes: the dirty lines this one left; NaN */
    int group;                /* --rotate: the group its C line's batch held ("# batch" line), -1 the whole set;
                               * WB_RAW_GROUP_UNKNOWN without such a line (other modes, files before 2026-12-05) */
} wb_raw_launch;

#define WB_RAW_GROUP_UNKNOWN (-3)

typedef struct wb_raw_kernel {  /* a K line */
    uint32_t corr;
    int64_t start_ns, end_ns;
    int32_t device, registers, smem_static, smem_dynamic;
    int64_t stream;
    int32_t grid[3], block[3];
    uint64_t graph_node;
    int name;                 /* index into strings */
    int launch;               /* the L line with its correlation id, -1: a graph's node */
} wb_raw_kernel;

typedef struct wb_raw_urange { /* a U line: one user range of the counter pass */
    int64_t first_seq, last_seq, launches;
    int name;                 /* index into strings */
    double v[WB_METRICS_MAX];
} wb_raw_urange;

typedef struct wb_raw_sample { /* an S line: one PM sample (--sample: the profiler's sampling.<pid>.tsv) */
    int64_t start_ns, end_ns;
    double v[WB_METRICS_MAX];
} wb_raw_sample;

typedef struct wb_raw {
    char path[1024];
    char pass[16];            /* "timing" or "counters" */
    int pid, ppid, ended;     /* ended: the "# end" line came (exit, or a fatal signal's handler) */
    int signal;               /* "# signal N": the pass was saved from a fatal signal */
    int metric_col[WB_METRICS_MAX]; /* C line value k -> wb_metrics[] row */
    int nmetrics, passes;
    char cache[16];           /* counter pass: "all" or "none" */
    double cost[5];           /* counter pass "# cost": seconds in counted launches, batch ends, flushes, batch configs, CUPTI's Starts */
    long long rotation[7];    /* counter pass "# rotation" (--rotate): groups, launches replayed, launches
                               * counted in one pass, kernel shapes, changes of group, the launches a group
                               * was held (WB_PROFILE_ROTATE_HOLD), profiler objects made again at a change
                               * (WB_PROFILE_ROTATE_NEW_OBJECT; the last three since 2026-12-05); all 0 without it */
    double rotation_new_object_s; /* in those objects' Disable and Enable */
    int col_group[WB_METRICS_MAX]; /* "# groups" (--rotate): the group of "# metrics" column k, -2 every group's
                                    * (the core rows), -1 none; ngroup_cols 0 without the line */
    int ngroup_cols;
    int batch_group;          /* the group of the last "# batch" line, WB_RAW_GROUP_UNKNOWN before one */
    char mode[160];           /* counter pass "# mode" line: set, ranges, replay, flush */
    wb_raw_urange *uranges;   /* U lines */
    int nuranges, cap_uranges;
    wb_raw_sample *samples;   /* S lines, in time order */
    int nsamples, cap_samples;
    long long sample_ns;      /* "# sampling" line: the interval; 0 without --sample */
    double go_wait_s;         /* timing pass "# waited": its first CUDA call's wait for --sample's start; -1 none */
    char device[512];         /* "# device" line: ordinal, name, uuid, cc, sms, driver, chip (tabs) */
    wb_raw_launch *launches;  /* in seq order */
    int nlaunches, cap_launches;
    wb_raw_kernel *kernels;
    int nkernels, cap_kernels;
    int untimed_records;      /* K lines that end before they start or have no start (a record cut off): not kept */
    char **strings;           /* interned names, NVTX paths and reasons */
    int nstrings, cap_strings;
    char **errors;            /* E lines */
    int nerrors, cap_errors;
} wb_raw;

/* Reads one raw file. A malformed line fails with the file and line number. */
int wb_raw_read(const char *path, wb_raw *r, wb_err *e);
void wb_raw_free(wb_raw *r);
const char *wb_raw_str(const wb_raw *r, int i);

#endif
