/* inject.h - the injection library of `wallbench profile` (libwallbench_inject.so),
 * loaded into the profiled program by CUDA itself (CUDA_INJECTION64_PATH calls
 * InitializeInjection at cuInit). It runs one pass, named by WB_PROFILE_PASS:
 *   timing    every launch callback writes an L line, CUPTI Activity kernel
 *             records (start, end, registers, shared memory, stream) K lines
 *             (--sample's PM samples are the profiler's own: ../sampler.c);
 *   counters  the Range Profiler counts the selected launches (select.h), one
 *             range a launch, or the program's NVTX ranges or every N launches
 *             (WB_PROFILE_RANGES), with the counter set WB_PROFILE_SET (core:
 *             one pass, no replay), a batch at a time (counting.c), and writes
 *             C and U lines after each batch's decode.
 * Lines go to WB_PROFILE_RAW.<pid>.tsv (raw.c documents them); the driver
 * (harness/profile/) reads them. Nothing here may crash or stop the program:
 * a failure becomes an E line, and the pass carries on without what failed. */
#ifndef WB_INJECT_H
#define WB_INJECT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>
#include <cupti.h>

#include "harness/profile/select.h"

#define WB_RAW_VERSION 1
#define WB_NVTX_DEPTH 32
#define WB_NVTX_PATH 256

typedef enum { WB_PASS_TIMING, WB_PASS_COUNTERS } wb_pass;

typedef struct wb_inject {
    wb_pass pass;
    FILE *raw;               /* the pass's raw file, written under lock */
    pthread_mutex_t lock;
    CUpti_SubscriberHandle sub;
    int64_t seq;             /* launches seen, all threads, in callback order */
    wb_select select;        /* counter pass: which launches to count */
    int flush_l2;            /* counter pass: --cache-control all */
    int flush_empty;         /* WB_PROFILE_FLUSH=empty: the flushed L2 emptied too (discard), as ncu's */
    int batch;               /* Range Profiler ranges per batch (decode, then write): a counted launch
                              * takes 1-3 (itself, the L2 flush, the emptying kernel) */
    int set;                 /* counter pass: wb_counter_set (WB_PROFILE_SET) */
    wb_ranges ranges;        /* counter pass: WB_PROFILE_RANGES */
    int every;               /* launches per range with WB_RANGES_EVERY */
    int force_kernel_replay; /* WB_PROFILE_REPLAY=kernel: kernel replay even for one pass (to measure it) */
    int rotate;              /* WB_PROFILE_ROTATE=1 (--rotate): counter groups rotated over repeated launches */
    int rotate_hold;         /* WB_PROFILE_ROTATE_HOLD=N: a group kept for N launches, repeats and all (default 32) */
    int rotate_new_object;   /* a new profiler object a change of group (default; WB_PROFILE_ROTATE_NEW_OBJECT=0: not) */
    double serial_wait_s;    /* WB_PROFILE_SERIAL_WAIT_MS (tests; 10 s): counting.c's wait for another thread's launch */
    int forked;              /* this process is a child made by fork after cuInit: everything of ours off */
    int finishing;           /* finish() has begun (exit, fatal signal): it runs once */
    int finished;            /* finish() flushed the pass: callbacks after it do nothing */
} wb_inject;

extern wb_inject wb_inj;

/* wb_inj.lock around the raw file and the launch numbering (marks the thread as holding it). */
void wb_raw_lock(void);
void wb_raw_unlock(void);
/* One line of the raw file (fmt without the newline); thread safe. */
void wb_raw_line(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* An E line: what failed, so that the driver can say it; never stops the program. */
void wb_raw_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* CUPTI status as text for an E line. */
const char *wb_inject_cupti_str(CUptiResult r);

/* The "# device" line of the GPU dev; chip may be "" (inject.c). */
void wb_inject_write_device(CUdevice dev, const char *chip);

/* A launch as the callback sees it (API enter). */
typedef struct wb_launch_info {
    int64_t seq;
    uint32_t correlation;
    int api;                 /* wb_prof_api */
    const char *name;        /* CUPTI's symbol name; "" for a graph */
    unsigned grid[3], block[3], smem_dynamic;
    CUcontext ctx;
    CUstream stream;
    const char *nvtx;        /* the launching thread's range path */
} wb_launch_info;

/* The calling thread's NVTX range path, "" outside any range (nvtx.c). */
const char *wb_nvtx_path(void);

/* Timing pass (timing.c): activity buffers on; flushed at exit. */
int wb_timing_start(void);
void wb_timing_finish(void);
/* A CUDA context is being destroyed before exit (CUPTI's resource callback, the context still
 * alive): what each pass holds of it is saved now (timing.c: its activity records; counting.c:
 * the counted context's open batch, and the profiler object let go). */
void wb_timing_context_ends(void);
void wb_counting_context_ends(CUcontext ctx);
/* Counter pass (counting.c): at a selected launch's API enter (counts it), at
 * any other launch (stops the profiler so that it runs unprofiled), at exit. */
void wb_counting_enter(const wb_launch_info *l);
void wb_counting_unselected(void);
/* At the API exit of a counted launch: its wall time (CUPTI's replays happen inside the call);
 * closes an every:N range after its N-th launch. */
void wb_counting_left(void);
/* Counter pass, kernel mode: around every outermost launch call (enter ... exit), so that one
 * thread's launch call at a time runs (counting.c says why, and when it stops). */
void wb_counting_serial_begin(void);
void wb_counting_serial_end(void);
/* A stream capture begins (1, API enter) or has ended (0, API exit, or a failed begin). */
void wb_counting_capture(int begins);
/* nvtx ranges: the calling thread's outermost NVTX range opens (its name) or closes (NULL). */
void wb_counting_nvtx(const char *outermost);
/* nvtx and every:N ranges: every launch, first (sets the profiler up on its context). */
void wb_counting_first_launch(const wb_launch_info *l);
void wb_counting_finish(void);

#endif
