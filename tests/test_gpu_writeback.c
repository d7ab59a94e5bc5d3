/* test_gpu_writeback.c - no write-back inside a read-only counted range
 * (issue 16): before every replay pass a set-up writes a buffer of twice the
 * L2 (dirty lines everywhere), then the harness's own L2 flush (timing.h)
 * and a sync run, as the counter pass does before each range. The range
 * holds a kernel that only reads (the flush kernel over another 1 GiB
 * buffer). Its DRAM write sectors must stay below 0.1% of its read sectors:
 * dirty lines of the set-up written back inside the range would be up to the
 * L2 size (60 MiB on an H200, 5.9% of the 1 GiB read).
 *
 * A second case frees a large freshly written buffer right before the range
 * (the driver zeroes freed memory in the background). It is printed, not
 * asserted: it says whether a family may free memory between its set-up and
 * a counted range (micro/probe.c's tables no longer do).
 * Exit 77 without a GPU or without counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/base/metrics.h"
#include "harness/gpu/counters.h"
#include "harness/gpu/device.h"
#include "harness/run/timing.h"
#include "kernels/flush.h"

#define READ_BYTES ((size_t)1 << 30)
#define FREED_BYTES ((size_t)4 << 30)
#define MAX_WRITE_SHARE 1e-3

typedef struct work {
    wb_timing t;
    void *dirty, *read;
    size_t dirty_bytes;
    unsigned *sink;
    int free_first; /* 1: the set-up also writes and frees FREED_BYTES */
} work;

/* Outside the range: dirty L2, optionally free a big buffer, flush, sync. */
static int setup_step(void *ctx, wb_err *e) {
    work *w = ctx;
    if (w->free_first) {
        void *big = NULL;
        if (WB_CUDA(e, cudaMalloc(&big, FREED_BYTES)) || WB_CUDA(e, cudaMemsetAsync(big, 0x3C, FREED_BYTES, w->t.stream)) ||
            WB_CUDA(e, cudaStreamSynchronize(w->t.stream)) || WB_CUDA(e, cudaFree(big)))
            return WB_ERR;
    }
    if (WB_CUDA(e, cudaMemsetAsync(w->dirty, 0xA5, w->dirty_bytes, w->t.stream)) || wb_timing_flush(&w->t, e))
        return WB_ERR;
    return WB_CUDA(e, cudaStreamSynchronize(w->t.stream));
}

/* Inside the range: reads READ_BYTES of zeros, writes nothing (the sink's
 * key never matches a zero buffer). */
static int read_step(void *ctx, wb_err *e) {
    work *w = ctx;
    return WB_CUDA(e, wb_flush_l2(w->read, READ_BYTES, w->sink, w->t.flush_grid, w->t.flush_block, w->t.stream));
}

static double metric(const wb_counters *c, const char *name) {
    int i = wb_metric_index(name);
    return i >= 0 ? c->v[i] : -1;
}

/* Counts one case; returns the write share of the read sectors (-1 on error). */
static double count_case(wb_counters_session *s, work *w, const char *label) {
    wb_counters c;
    wb_err e = {""};
    if (wb_counters_collect(s, setup_step, read_step, w, &c, &e) != WB_OK) {
        fprintf(stderr, "FAIL: %s: %s\n", label, e.msg);
        return -1;
    }
    double rd = metric(&c, "dram_sectors_read"), wr = metric(&c, "dram_sectors_write");
    double share = rd > 0 ? wr / rd : -1;
    printf("%-40s read %.0f sectors (%.3f GiB), write %.0f sectors: %.4f%% of the reads\n", label, rd,
           rd * 32 / (1 << 30), wr, 100 * share);
    return share;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    wb_device d;
    wb_err e = {""};
    if (wb_device_open(0, &d, &e) != WB_OK) return fprintf(stderr, "FAIL: %s\n", e.msg), 1;
    wb_counters_session *s = NULL;
    int rc = wb_counters_open(&d, WB_COUNTER_SET_ALL, &s, &e);
    if (rc == WB_SKIP) return printf("SKIP: counters: %s\n", e.msg), WB_TEST_SKIP;
    if (rc != WB_OK) return fprintf(stderr, "FAIL: counters: %s\n", e.msg), 1;
    if (wb_metric_index("dram_sectors_read") < 0 || wb_metric_index("dram_sectors_write") < 0)
        return printf("SKIP: this chip's metric set has no dram_sectors_read/write\n"), WB_TEST_SKIP;

    work w;
    memset(&w, 0, sizeof w);
    w.dirty_bytes = 2 * (size_t)d.l2_bytes;
    if (wb_timing_open(&d, &w.t, &e) != WB_OK) return fprintf(stderr, "FAIL: %s\n", e.msg), 1;
    if (WB_CUDA(&e, cudaMalloc(&w.dirty, w.dirty_bytes)) || WB_CUDA(&e, cudaMalloc(&w.read, READ_BYTES)) ||
        WB_CUDA(&e, cudaMalloc((void **)&w.sink, sizeof *w.sink)) || WB_CUDA(&e, cudaMemset(w.read, 0, READ_BYTES)) ||
        WB_CUDA(&e, cudaMemset(w.sink, 0, sizeof *w.sink)) || WB_CUDA(&e, cudaDeviceSynchronize())) {
        fprintf(stderr, "FAIL: %s\n", e.msg);
        return 1;
    }
    printf("L2 %lld B; set-up writes %zu B, then the harness flush (%zu B read); range reads %zu B\n",
           (long long)d.l2_bytes, w.dirty_bytes, w.t.flush_bytes, READ_BYTES);
    double share = count_case(s, &w, "dirty set-up, flush, sync");
    CHECK(share >= 0 && share < MAX_WRITE_SHARE);

    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && free_b > FREED_BYTES + ((size_t)1 << 30)) {
        w.free_first = 1;
        double freed = count_case(s, &w, "4 GiB written and freed, then the same");
        if (freed >= MAX_WRITE_SHARE)
            printf("NOTE: memory freed before a range is written inside it (driver scrub): families must not free "
                   "between set-up and a counted range\n");
    }
    cudaFree(w.dirty), cudaFree(w.read), cudaFree(w.sink);
    wb_timing_close(&w.t);
    wb_counters_close(s);
    return TEST_DONE();
}
