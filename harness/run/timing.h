/* timing.h - the measuring protocol of one point on the device, as named
 * steps (nvbench's cold measurement): verify on poisoned outputs, warm up,
 * then timed samples of reset, L2 flush, start event, launch, stop event,
 * sync. Only the launch lies between the events. Also owns the stream, the
 * event pair and the L2 flush buffer. Every function returns WB_OK or WB_ERR
 * with the failing call in e. */
#ifndef WB_TIMING_H
#define WB_TIMING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "harness/run/family.h"
#include "harness/gpu/device.h"
#include "harness/base/error.h"

typedef struct wb_timing {
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush_buf;     /* zeros, >= 2x the L2 size: reading it evicts every line */
    size_t flush_bytes;
    unsigned *flush_sink;
    int flush_grid, flush_block;
} wb_timing;

/* Creates the stream and events and allocates the flush buffer for d (the
 * current device). On WB_ERR nothing stays allocated. */
int wb_timing_open(const wb_device *d, wb_timing *t, wb_err *e);
/* Releases what open created; safe on a zeroed or half-opened t. */
void wb_timing_close(wb_timing *t);

/* Enqueues the L2 flush (a read of the flush buffer) on t->stream. */
int wb_timing_flush(wb_timing *t, wb_err *e);

/* Restores the point's state (reset, no poison), flushes L2 unless
 * p->warm_cache, and waits: the start state of every sample and every
 * counter replay. */
int wb_timing_prepare(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e);

/* One launch, its launch error, and a wait: a counter-pass replay. */
int wb_timing_launch(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e);

/* Step "verify": reset with poisoned outputs, launch, sync, launch error,
 * then the family's check. *verified = 1 on WB_OK; on WB_ERR 0 when the
 * output mismatched (report in e), -1 when a CUDA error came first. */
int wb_timing_verify(const wb_family *f, void *data, const wb_point *p, wb_timing *t, int *verified, wb_err *e);

/* Step "warm-up": `launches` times reset + flush + launch, then sync. */
int wb_timing_warmup(const wb_family *f, void *data, const wb_point *p, int launches, wb_timing *t, wb_err *e);

/* Step "sample": reset, flush (unless p->warm_cache), start event, launch,
 * stop event, sync; *ms = elapsed between the events. */
int wb_timing_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, double *ms, wb_err *e);

/* After an error: 1 if the CUDA context is broken by a sticky error (every
 * later call would fail too; reason in e), 0 if the run can go on. Clears a
 * non-sticky last error. */
int wb_timing_context_broken(wb_err *e);

#endif
