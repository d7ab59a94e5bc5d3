/* ncu.h - the timed sample of `wallbench run --ncu`: an NVTX push/pop range
 * named like the point around the one timed launch and nothing else (no
 * reset, no L2 flush, no verification inside), so that
 *   ncu --nvtx --nvtx-include "<point name>/" wallbench run --ncu ...
 * profiles exactly the point's own kernels, once. The range calls go
 * through wb_range_push/pop, which a test can record without a GPU. */
#ifndef WB_NCU_H
#define WB_NCU_H

#include "harness/run/timing.h"

/* Records every push (name) and pop (NULL) instead of only calling NVTX; NULL: off. */
typedef void (*wb_range_recorder)(void *ctx, const char *name);
void wb_range_record(wb_range_recorder fn, void *ctx);
void wb_range_push(const char *name);
void wb_range_pop(void);

/* One sample as steps, so the order is testable without a device:
 * prepare (reset + flush + wait, outside the range), then inside the range
 * start event + launch + stop event, then wait and read the time. */
typedef struct wb_ncu_steps {
    int (*prepare)(void *ctx, wb_err *e);
    int (*timed_launch)(void *ctx, wb_err *e);
    int (*elapsed)(void *ctx, double *ms, wb_err *e);
} wb_ncu_steps;
int wb_ncu_sample_steps(const wb_ncu_steps *s, void *ctx, const char *name, double *ms, wb_err *e);

/* The real steps on t: the sample of --ncu mode. */
int wb_ncu_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, const char *name, double *ms,
                  wb_err *e);

#endif
