/* measure.h - the state of one `wallbench run` and the steps of one point,
 * in the order they run (nvbench's cold measurement):
 *   setup:  1 skip check, 2 data, 3 plan, 4 verify, 5 counter pass, 6 warm-up
 *   sample: 7 timed samples: with --reps R one per Google Benchmark
 *           iteration (R iterations); by default one iteration that samples
 *           until the noise rule stops (stopping.h) and reports the median
 *   finish: 8 SM clock, 9 summaries, 10 derived counters, 11 store + progress
 * Google Benchmark calls them through wb_measure_calls (gbench.h), so every
 * call of a benchmark becomes one row of /points. A failing point does not
 * end the run; a CUDA context broken by a sticky error does, once its row is
 * stored. */
#ifndef WB_MEASURE_H
#define WB_MEASURE_H

#include <stdint.h>

#include "harness/base/clock.h" /* wb_clock_s: the steps' host-side seconds */
#include "harness/gpu/counters.h"
#include "harness/gpu/device.h"
#include "harness/run/gbench.h"
#include "harness/base/point.h"
#include "harness/base/roof.h"
#include "harness/base/stopping.h"
#include "harness/base/wall.h"
#include "harness/store/store_h5.h"
#include "harness/run/sweep.h"
#include "harness/run/timing.h"

#define WB_CEILINGS_MAX 32
/* Data sets a counter batch may hold beside the current one. */
#define WB_DATA_AHEAD 3

typedef struct wb_ceiling {
    char variant[24];
    double gbps, gips; /* best over the variant's ok points; NaN until seen */
    wb_wall sized;     /* a variant with a table (table_bytes): best G requests/s by table size */
} wb_ceiling;

enum { WB_SPENT_DATA, WB_SPENT_VERIFY, WB_SPENT_COUNTERS, WB_SPENT_TIMING, WB_SPENT_N };
#define WB_SPENT_FAMILIES 16

/* Wall time of one family's points by step (WB_SPENT_*): where a run went. */
typedef struct wb_spent {
    const char *family; /* NULL: the run's total */
    int64_t points;
    double s[WB_SPENT_N];
} wb_spent;

typedef struct wb_run {
    /* set by run.c before the first point */
    int reps, warmup;              /* reps 0: noise-driven (rule) */
    wb_stop_rule rule;
    uint64_t seed;                 /* of the inputs: every family's data_create gets it */
    int ncu;                       /* --ncu: NVTX range around the timed launch only (ncu.h) */
    wb_device dev;
    wb_timing timing;
    wb_store *store;
    wb_counters_session *counters; /* NULL: counters off */
    char counters_off[96];         /* why counters are off, "" when on */
    wb_roof measured, l4, gh200;   /* measured: NaN until the ceiling family ran */
    int64_t total;                 /* benchmark calls expected (progress, ETA) */
    wb_run_point *pts;             /* every registered point, in run order (counter batches look ahead) */
    int npts;

    /* kept across points */
    int64_t done, ok, skipped, failed;
    double t0_s;
    wb_spent spent;                /* the whole run */
    wb_spent spent_by[WB_SPENT_FAMILIES]; /* per family, in run order */
    int nspent_by;
    int broken;                    /* 1: stop: no later point runs */
    char broken_msg[512];
    double *clocks;                /* SM clocks seen so far, for the typical clock */
    int nclocks, clocks_cap;
    wb_ceiling ceilings[WB_CEILINGS_MAX];
    int nceilings;
    wb_wall walls[2];              /* gather_word, gather_sector: best G requests/s by table size */
    const wb_family *cache_family; /* data shared by points with the same data axes */
    wb_point cache_point;
    void *cache_data;
    /* Data sets made ahead of their points for a counter batch over several
     * (measure_counters.c), taken over by step 2 when their points come. */
    struct wb_data_ahead {
        const wb_family *family;
        wb_point point;
        void *data;
    } ahead[WB_DATA_AHEAD];
    int nahead;
    double ahead_made_s;           /* wall time spent making them (data time, not counter pass) */
    wb_row *kept;                  /* stored rows with counters, re-derived at the end */
    int nkept, kept_cap;

    /* the call in progress */
    wb_run_point *cur;
    wb_row row;
    double *samples;               /* cap entries: reps, or rule.max_samples */
    double *sample_clock;          /* SM clock around each sample (lower of before/after), NaN unread */
    uint64_t *sample_events;       /* NVML clock-event reasons around each sample */
    unsigned char *sample_keep;    /* 0: throttled, left out of the median */
    int nsamples, cap;
    double clock_before;           /* last NVML reading, before the next sample */
    uint64_t events_before;
    int thermal_warned;            /* a failed thermal read was reported (once a run) */
    int others_before;             /* other processes on the GPU before the samples (NVML); -1 unread */
    int contended;                 /* points so far with other processes around their samples */
    void *data;
    int nvtx_open, store_row;
    double timing_t0_s;
} wb_run;

extern const wb_gb_calls wb_measure_calls;

/* Step 5 (measure_counters.c): the counters of r->row, from an earlier
 * point's batch or from a batch this point leads. A counter failure leaves
 * NaN with a note and a warning; WB_ERR only when the point cannot be
 * planned again after its batch. */
int wb_measure_counters(wb_run *r, wb_run_point *rp, wb_err *e);
/* The data of point q for a counter batch led by the current point: the
 * current data when q shares it, a data set made ahead for an earlier
 * batch, or a new one made now when a slot and the device's free memory
 * allow; NULL otherwise (q is left out of the batch), or when making it
 * failed (q's own step 2 then says why). */
void *wb_measure_data_for(wb_run *r, const wb_run_point *q);
/* After a plan, before the point's launches: the device state the plan asked
 * for (the L2 fetch granularity, wb_device_l2_fetch), its value in effect
 * written back into p. */
int wb_measure_apply_plan(wb_point *p, wb_err *e);

/* Zeroes r, sets the measured roof to NaN, allocates the sample arrays
 * (reps, or the default rule's max_samples when reps is 0). */
int wb_run_init(wb_run *r, int reps, int warmup, wb_err *e);
/* At the end: re-derives the counter columns of stored rows with the final
 * measured roof and rewrites the rows that change. */
int wb_run_rederive(wb_run *r, wb_err *e);
/* Frees the cached data and the run's arrays (not store, timing, counters). */
void wb_run_free(wb_run *r);
/* The one line of a finished point: "[done/total] name  median ms  rate
 * (GB/s, or G inst/s where the point moves no modelled bytes)  noise
 * (stddev / median)  ETA m:ss", or "skipped: why" / "FAILED: why". */
void wb_measure_line(const char *name, const wb_row *row, int status, const char *why, int64_t done, int64_t total,
                     double eta_s, char *buf, size_t len);

/* The family's entry of r->spent_by (created on first use), or NULL past
 * WB_SPENT_FAMILIES families: those count in r->spent only. */
wb_spent *wb_spent_of(wb_run *r, const char *family);
/* Adds seconds of step `what` (WB_SPENT_*) to the run's total and the family's entry. */
void wb_spent_add(wb_run *r, const char *family, int what, double seconds);
/* "<what>: N points: data .., verify .., counter pass .., timing pass .. (counter pass = X x timing pass)". */
void wb_spent_line(const wb_spent *b, const char *what, char *buf, size_t len);

#endif
