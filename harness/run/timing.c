/* timing.c - the per-point protocol steps on the device (see timing.h). */
#include "harness/run/timing.h"

#include <string.h>

#include "kernels/flush.h"
#include "harness/gpu/cuda_check.h"

int wb_timing_open(const wb_device *d, wb_timing *t, wb_err *e) {
    memset(t, 0, sizeof *t);
    /* 8x L2, whole MiB. Twice the cache was not enough: after a 4 GiB
     * write, a read of 2x L2 left 0.43 MB of dirty lines that a read-only
     * kernel then wrote back (ncu, dram__sectors_write), 8x L2 left 52 KB,
     * the level a read-only kernel shows with no writes before it (H200,
     * 2026-12-01, tests/hw/writeback.cu and writeback-h200.txt). The
     * replacement policy keeps some old lines against a stream; 0.1 ms a
     * sample on the H200. */
    size_t l2 = d->l2_bytes > 0 ? (size_t)d->l2_bytes : (size_t)64 << 20;
    t->flush_bytes = (8 * l2 + ((size_t)1 << 20) - 1) & ~(((size_t)1 << 20) - 1);
    t->flush_block = 256;
    t->flush_grid = d->sms * (d->max_threads_per_sm > 0 ? d->max_threads_per_sm / t->flush_block : 1);
    if (t->flush_grid < 1) t->flush_grid = 1;
    if (WB_CUDA(e, cudaStreamCreate(&t->stream)) || WB_CUDA(e, cudaEventCreate(&t->start)) ||
        WB_CUDA(e, cudaEventCreate(&t->stop)) || WB_CUDA(e, cudaMalloc(&t->flush_buf, t->flush_bytes)) ||
        WB_CUDA(e, cudaMalloc((void **)&t->flush_sink, sizeof *t->flush_sink)) ||
        WB_CUDA(e, cudaMemset(t->flush_buf, 0, t->flush_bytes)) ||
        WB_CUDA(e, cudaMemset(t->flush_sink, 0, sizeof *t->flush_sink)) || WB_CUDA(e, cudaDeviceSynchronize())) {
        wb_timing_close(t);
        return WB_ERR;
    }
    return WB_OK;
}

void wb_timing_close(wb_timing *t) {
    /* Teardown: errors here change nothing the caller could act on. */
    if (t->flush_sink) (void)cudaFree(t->flush_sink);
    if (t->flush_buf) (void)cudaFree(t->flush_buf);
    if (t->stop) (void)cudaEventDestroy(t->stop);
    if (t->start) (void)cudaEventDestroy(t->start);
    if (t->stream) (void)cudaStreamDestroy(t->stream);
    memset(t, 0, sizeof *t);
}

int wb_timing_flush(wb_timing *t, wb_err *e) {
    return WB_CUDA(e, wb_flush_l2(t->flush_buf, t->flush_bytes, t->flush_sink, t->flush_grid, t->flush_block, t->stream));
}

/* The family's launch, then the launch error it may not have returned. */
static int launch(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e) {
    if (f->launch(data, p, t->stream, e) != WB_OK) return WB_ERR;
    return WB_CUDA(e, cudaGetLastError());
}

/* reset (no poison) + flush unless the point measures a warm cache. */
static int restore(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e) {
    if (f->reset(data, p, 0, t->stream, e) != WB_OK) return WB_ERR;
    return p->warm_cache ? WB_OK : wb_timing_flush(t, e);
}

int wb_timing_prepare(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e) {
    if (restore(f, data, p, t, e) != WB_OK) return WB_ERR;
    return WB_CUDA(e, cudaStreamSynchronize(t->stream));
}

int wb_timing_launch(const wb_family *f, void *data, const wb_point *p, wb_timing *t, wb_err *e) {
    if (launch(f, data, p, t, e) != WB_OK) return WB_ERR;
    return WB_CUDA(e, cudaStreamSynchronize(t->stream));
}

int wb_timing_verify(const wb_family *f, void *data, const wb_point *p, wb_timing *t, int *verified, wb_err *e) {
    *verified = -1;
    if (f->reset(data, p, 1, t->stream, e) != WB_OK || launch(f, data, p, t, e) != WB_OK ||
        WB_CUDA(e, cudaStreamSynchronize(t->stream)) || WB_CUDA(e, cudaGetLastError()))
        return WB_ERR;
    if (f->verify(data, p, e) != WB_OK) {
        *verified = 0;
        return WB_ERR;
    }
    *verified = 1;
    return WB_OK;
}

int wb_timing_warmup(const wb_family *f, void *data, const wb_point *p, int launches, wb_timing *t, wb_err *e) {
    for (int i = 0; i < launches; i++)
        if (restore(f, data, p, t, e) != WB_OK || launch(f, data, p, t, e) != WB_OK) return WB_ERR;
    return WB_CUDA(e, cudaStreamSynchronize(t->stream));
}

int wb_timing_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, double *ms, wb_err *e) {
    float elapsed = 0;
    *ms = 0;
    /* Enqueued behind the flush, the start event fires when the flush ends,
     * so the host's launch latency hides behind it instead of being timed. */
    if (restore(f, data, p, t, e) != WB_OK || WB_CUDA(e, cudaEventRecord(t->start, t->stream)) ||
        launch(f, data, p, t, e) != WB_OK || WB_CUDA(e, cudaEventRecord(t->stop, t->stream)) ||
        WB_CUDA(e, cudaEventSynchronize(t->stop)) || WB_CUDA(e, cudaEventElapsedTime(&elapsed, t->start, t->stop)))
        return WB_ERR;
    *ms = elapsed;
    return WB_OK;
}

int wb_timing_context_broken(wb_err *e) {
    (void)cudaGetLastError();
    if (cudaDeviceSynchronize() == cudaSuccess) return 0;
    (void)cudaGetLastError();
    cudaError_t c = cudaDeviceSynchronize();
    if (c == cudaSuccess) return 0;
    wb_fail(e, "the CUDA context is unusable after a sticky error: %s (%s)", cudaGetErrorName(c), cudaGetErrorString(c));
    return 1;
}
