/* timing.c - the timing pass: CUPTI Activity records of every kernel
 * (CONCURRENT_KERNEL keeps kernels of different streams overlapping, as the
 * program runs them), written as K lines when CUPTI hands a buffer back. A
 * flush period makes CUPTI hand buffers back while the program runs, so that
 * a program that crashes (no atexit) loses at most the last period's kernels. */
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

#include "harness/profile/inject/inject.h"

#define BUFFER_BYTES (8u << 20)
#define FLUSH_PERIOD_MS 200

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
    if (!*buffer) wb_raw_error("activity buffer of %u bytes: out of host memory; kernels lost", BUFFER_BYTES);
}

static void write_kernel(const CUpti_ActivityKernel10 *k) {
    /* The whole name (a CUTLASS template's passes 4 KB): a graph node's kernel is known by its K
     * line's name alone, and a cut one would be a kernel of its own beside its launches' L name. */
    char small[1024], *name = small;
    size_t len = strlen(k->name ? k->name : "");
    if (len >= sizeof small && !(name = malloc(len + 1))) name = small, len = sizeof small - 1;
    memcpy(name, k->name ? k->name : "", len);
    name[len] = '\0';
    for (char *p = name; *p; p++)
        if (*p == '\t' || *p == '\n') *p = ' ';
    wb_raw_line("K\t%u\t%llu\t%llu\t%u\t%u\t%u\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%llu\t%s", k->correlationId,
                (unsigned long long)k->start, (unsigned long long)k->end, k->deviceId, k->streamId,
                (unsigned)k->registersPerThread, k->staticSharedMemory, k->dynamicSharedMemory, k->gridX, k->gridY,
                k->gridZ, k->blockX, k->blockY, k->blockZ, (unsigned long long)k->graphNodeId, name);
    if (name != small) free(name);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    CUptiResult r;
    while ((r = cuptiActivityGetNextRecord(buffer, valid, &rec)) == CUPTI_SUCCESS)
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            write_kernel((const CUpti_ActivityKernel10 *)rec);
    if (r != CUPTI_ERROR_MAX_LIMIT_REACHED) wb_raw_error("cuptiActivityGetNextRecord: %s", wb_inject_cupti_str(r));
    size_t dropped = 0;
    if ((r = cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped)) != CUPTI_SUCCESS)
        wb_raw_error("cuptiActivityGetNumDroppedRecords: %s (kernels CUPTI dropped, if any, are not known)",
                     wb_inject_cupti_str(r));
    else if (dropped)
        wb_raw_error("CUPTI dropped %zu activity records: those kernels are missing from the timing pass", dropped);
    free(buffer);
    wb_raw_lock();
    if (wb_inj.raw) fflush(wb_inj.raw);
    wb_raw_unlock();
}

int wb_timing_start(void) {
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r == CUPTI_SUCCESS) r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        wb_raw_error("CUPTI activity for kernels: %s; no kernel is timed", wb_inject_cupti_str(r));
        return -1;
    }
    if ((r = cuptiActivityFlushPeriod(FLUSH_PERIOD_MS)) != CUPTI_SUCCESS)
        wb_raw_error("cuptiActivityFlushPeriod: %s (a crash may lose more kernels)", wb_inject_cupti_str(r));
    return 0;
}

/* A context is being destroyed (cudaDeviceReset, cuCtxDestroy): the records CUPTI has completed are
 * handed back while it still exists. Not forced: a forced flush gives up the buffers of kernels
 * still running, in this context or another, whose records then never get their times. */
void wb_timing_context_ends(void) {
    CUptiResult r = cuptiActivityFlushAll(0);
    if (r != CUPTI_SUCCESS)
        wb_raw_error("cuptiActivityFlushAll as a context was destroyed: %s; its last kernels may be missing",
                     wb_inject_cupti_str(r));
}

void wb_timing_finish(void) {
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS) wb_raw_error("cuptiActivityFlushAll: %s; the last kernels may be missing", wb_inject_cupti_str(r));
}
