/* counters.h - hardware counters for one point, in a pass of their own
 * (never inside timed samples). counters_cupti.c collects them with the CUPTI
 * Range Profiler (one user range per point, user replay), counters_host.c is
 * its host half (config image, passes, evaluation);
 * harness/base/counters_derive.h holds what does not depend on CUPTI: the
 * NaN state, the stall groups and the derived roofline columns. Without a session (CUPTI refused, or
 * --no-counters) collect leaves the counters NaN with a note, so that the run
 * loop has one code path. */
#ifndef WB_COUNTERS_H
#define WB_COUNTERS_H

#include "harness/gpu/device.h"
#include "harness/base/error.h"
#include "harness/base/point.h"
#include "harness/base/roof.h"
#include "harness/base/counters_derive.h"

typedef struct wb_counters_session wb_counters_session;

/* A step of a replay pass; returns WB_OK or WB_ERR. */
typedef int (*wb_pass_step)(void *ctx, wb_err *e);

/* Points counted together: one range each in every pass, so that the fixed
 * costs are paid once per batch. The largest is the batch's first Start
 * after Enable, ~0.2 s on the H200: the default run at 4a8b068 spent 21.7 s
 * of its 23.0 s of Start in the first Starts of 103 batches (the run's last
 * log line splits them); a later pass's Start costs ~20 ms. */
#define WB_COUNTERS_BATCH_MAX 32
typedef int (*wb_member_step)(void *ctx, int member, wb_err *e);
typedef struct wb_batch {
    int members;            /* 1 to WB_COUNTERS_BATCH_MAX */
    wb_member_step prepare; /* outside the ranges: put the device in the member's start state */
    wb_member_step launch;  /* inside the member's range: its kernel(s), nothing else */
    void *ctx;
} wb_batch;

/* Which rows of wb_metrics[] a session counts. ALL: every one the chip
 * knows, cut to WB_PASS_BUDGET passes (6 on GH100). ROOFLINE: the rows with
 * no `extra` rank (instructions, DRAM/L2/L1 sectors, hit rates, occupancy,
 * clock, time: what the roofline, the bound and the instructions per sector
 * need), in 2 passes on GH100 and AD104 against 6 (test_counters prints
 * every chip's); the stall reasons and L1/L2 throughput stay NaN,
 * and /columns says why. The quick sweep's default: CUPTI's Start and Stop
 * cost ~60 ms a pass whatever the kernel, so the passes were two thirds of
 * the default run's counter pass. */
/* CORE: the rows of wb_core_metrics[] alone (instructions executed and issued, DRAM sectors read
 * and written, L2 sectors, clock, time), one pass on GH100, AD104, GA100 and GB100: what a
 * roofline point needs and nothing that costs a replay. `wallbench profile`'s default, where a
 * replay per launch (and its memory restores) cost more than the program. */
typedef enum { WB_COUNTER_SET_ALL, WB_COUNTER_SET_ROOFLINE, WB_COUNTER_SET_CORE } wb_counter_set;
/* "all", "roofline", "core". */
const char *wb_counter_set_name(wb_counter_set set);
/* Parses a name of wb_counter_set_name; WB_ERR with the sentence in e. */
int wb_counter_set_parse(const char *name, wb_counter_set *set, wb_err *e);

/* Opens a session for the current device. Returns WB_OK, or WB_SKIP with the
 * reason in e (no permission, unsupported GPU, libnvperf_host not found):
 * the caller then runs without counters and warns once. *s is NULL on skip. */
int wb_counters_open(const wb_device *d, wb_counter_set set, wb_counters_session **s, wb_err *e);

/* Collects every metric of wb_metrics[] for one point: for each replay pass
 * calls reset(ctx) outside the profiled range, then launch(ctx) inside it;
 * all kernels of one launch() are summed into the point. Fills out->v,
 * out->launches, out->l1_sectors and out->stall; leaves derived columns to
 * wb_counters_derive. On WB_ERR, out is left all-NaN with out->note set.
 * s == NULL: out all-NaN, note "counters off", returns WB_SKIP. */
int wb_counters_collect(wb_counters_session *s, wb_pass_step reset, wb_pass_step launch, void *ctx,
                        wb_counters *out, wb_err *e);

/* The same for b->members points at once, out[m] for member m; each pass
 * runs prepare(m) then launch(m) in m's range for every member in order. On
 * WB_ERR every out[m] is NaN with the note, and *failed names the member
 * whose step failed (-1: CUPTI itself failed). */
int wb_counters_collect_batch(wb_counters_session *s, const wb_batch *b, wb_counters *out, int *failed, wb_err *e);

void wb_counters_close(wb_counters_session *s);

/* 1 while a profiler object exists (inside a collection only): timed
 * samples must never run then (counters_cupti.c says what it costs them). */
int wb_counters_profiling(const wb_counters_session *s);
/* Replay passes the session's metric set needs (one reset + launch each). */
int wb_counters_passes(const wb_counters_session *s);
/* One line for the run log: chip, metrics accepted, passes, launch counting. */
const char *wb_counters_summary(const wb_counters_session *s);
/* Where the counter pass spent its wall time so far: setup, reset, CUPTI's
 * Start, the ranges, CUPTI's Stop, decode (one line into buf). */
void wb_counters_cost(const wb_counters_session *s, char *buf, size_t len);

/* Replay passes a point's counter set may take. The timing pass launches a
 * point 12 times (--warmup 2, --reps 10) and issue 3 allows the counter pass
 * 3x that time; each pass replays the point once, so more than 8 passes
 * leave no room for CUPTI's own cost per pass. A chip where the whole set
 * needs more gets a smaller set: the extra metrics (stall reasons) are left
 * out from the end of wb_metrics[] until it fits. */
#define WB_PASS_BUDGET 8

/* What one chip makes of wb_metrics[] (CUPTI's host API, no GPU needed). */
typedef struct wb_counters_plan_info {
    int passes;                        /* of the set collected */
    int full_passes;                   /* of every metric the chip knows */
    int missing;                       /* rows no name of which the chip knows */
    wb_counter_set set;                /* the set asked for */
    int left_out;                      /* extra rows left out: the roofline set, or WB_PASS_BUDGET */
    const char *used[WB_METRICS_MAX];  /* name collected per row of wb_metrics[]; NULL: NaN column */
    char why[WB_METRICS_MAX][112];     /* for a NULL used[i]: why the column is NaN */
} wb_counters_plan_info;

/* Without a GPU: the plan of a set of wb_metrics[] for a chip name ("GH100", "GB202"). */
int wb_counters_plan(const char *chip, wb_counter_set set, wb_counters_plan_info *plan, wb_err *e);
/* The rotation groups of `set` on chip (offline): group[i] per row of
 * wb_metrics[] (-1: not collected, or more than one pass alone; WB_GROUP_EVERY:
 * in every group, the core rows where they fit one pass), each group one pass
 * (wallbench profile --rotate). Returns the number of groups, or -1 with e. */
#define WB_GROUP_EVERY (-2)
int wb_counters_groups(const char *chip, wb_counter_set set, int *group, wb_err *e);
/* The chips CUPTI's host API knows (cuptiProfilerHostGetSupportedChips);
 * *names stays valid while the process runs. */
int wb_counters_chips(const char *const **names, int *n, wb_err *e);
/* The session's plan (NULL without a session). */
const wb_counters_plan_info *wb_counters_session_plan(const wb_counters_session *s);
/* For /columns: the metric row i was collected with, or why it is NaN. */
const char *wb_counters_column_source(const wb_counters_plan_info *p, int i, char *buf, size_t len);

#endif
