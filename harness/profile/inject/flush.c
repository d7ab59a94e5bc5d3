/* flush.c - the counter pass's L2 flush before a counted launch (flush.h). */
#include "harness/profile/inject/flush.h"

#include "harness/profile/inject/flush_ptx.h"
#include "harness/profile/inject/inject.h"

int wb_flush_setup(wb_flusher *f, CUdevice dev, int own_context) {
    wb_flusher fl = {0};
    int l2 = 0, sms = 0;
    if (cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev) != CUDA_SUCCESS || l2 <= 0) l2 = 64 << 20;
    if (cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) != CUDA_SUCCESS || sms <= 0) sms = 32;
    fl.words = 2ull * (unsigned long long)l2 / 4;
    fl.blocks = 4u * (unsigned)sms;
    CUmodule mod;
    CUcontext prev = NULL;
    CUresult r = CUDA_SUCCESS;
    const char *step = "cuCtxCreate";
    if (own_context) r = cuCtxCreate(&fl.ctx, NULL, 0, dev);
    if (r == CUDA_SUCCESS) step = "cuModuleLoadData", r = cuModuleLoadData(&mod, flush_ptx);
    if (r == CUDA_SUCCESS) step = "cuModuleGetFunction", r = cuModuleGetFunction(&fl.fn, mod, "wb_l2_flush");
    if (r == CUDA_SUCCESS && wb_inj.flush_empty) {
        CUmodule dm;
        step = "cuModuleLoadData (discard.global.L2)", r = cuModuleLoadData(&dm, discard_ptx);
        if (r == CUDA_SUCCESS) step = "cuModuleGetFunction", r = cuModuleGetFunction(&fl.empty, dm, "wb_l2_empty");
    }
    if (r == CUDA_SUCCESS) step = "cuMemAlloc", r = cuMemAlloc(&fl.buf, fl.words * 4 + 4);
    if (r == CUDA_SUCCESS) step = "cuMemsetD32", r = cuMemsetD32(fl.buf, 0, fl.words + 1);
    if (r == CUDA_SUCCESS && !own_context) step = "cuCtxSynchronize", r = cuCtxSynchronize(); /* the memset done */
    CUresult pr;
    if (fl.ctx && (pr = cuCtxPopCurrent(&prev)) != CUDA_SUCCESS) /* cuCtxCreate made it current: back to the program's */
        wb_raw_error("L2 flush: cuCtxPopCurrent after cuCtxCreate: CUDA error %d (the program's context may not be current)", (int)pr);
    if (r != CUDA_SUCCESS) {
        wb_raw_error("L2 flush: %s: CUDA error %d; counting with the caches as the program left them", step, (int)r);
        wb_raw_line("# cache none (the flush could not be set up)");
        fl.fn = NULL;
    }
    *f = fl;
    return 0;
}

int wb_flush_l2(const wb_flusher *f, int64_t seq, CUstream stream) {
    wb_flusher fl = *f; /* a copy: cuLaunchKernel takes its arguments' addresses */
    if (!fl.fn) return -1;
    CUdeviceptr sink = fl.buf + fl.words * 4;
    unsigned long long lines = fl.words * 4 / 128;
    void *args[] = {&fl.buf, &fl.words, &sink}, *eargs[] = {&fl.buf, &lines};
    CUresult r;
    if (!fl.ctx) {
        r = cuLaunchKernel(fl.fn, fl.blocks, 1, 1, 256, 1, 1, 0, stream, args, NULL);
        if (r == CUDA_SUCCESS && fl.empty) r = cuLaunchKernel(fl.empty, fl.blocks, 1, 1, 256, 1, 1, 0, stream, eargs, NULL);
        if (r != CUDA_SUCCESS) wb_raw_error("L2 flush before launch %lld: CUDA error %d", (long long)seq, (int)r);
        return r == CUDA_SUCCESS ? 1 + !!fl.empty : -1;
    }
    /* The program's earlier work must be done before the flush evicts its lines. */
    if ((r = cuStreamSynchronize(stream)) != CUDA_SUCCESS) {
        wb_raw_error("L2 flush before launch %lld: cuStreamSynchronize: CUDA error %d; not flushed", (long long)seq, (int)r);
        return -1;
    }
    CUcontext prev = NULL;
    if ((r = cuCtxPushCurrent(fl.ctx)) != CUDA_SUCCESS) { /* nothing pushed: nothing to pop */
        wb_raw_error("L2 flush before launch %lld: cuCtxPushCurrent: CUDA error %d; not flushed", (long long)seq, (int)r);
        return -1;
    }
    r = cuLaunchKernel(fl.fn, fl.blocks, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
    if (r == CUDA_SUCCESS && fl.empty) r = cuLaunchKernel(fl.empty, fl.blocks, 1, 1, 256, 1, 1, 0, NULL, eargs, NULL);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS) wb_raw_error("L2 flush before launch %lld: CUDA error %d", (long long)seq, (int)r);
    if ((r = cuCtxPopCurrent(&prev)) != CUDA_SUCCESS)
        wb_raw_error("L2 flush before launch %lld: cuCtxPopCurrent: CUDA error %d (the program's context may not be "
                     "current)", (long long)seq, (int)r);
    return -1;
}

void wb_flush_release(wb_flusher *f) {
    CUresult r;
    if (f->ctx && (r = cuCtxDestroy(f->ctx)) != CUDA_SUCCESS)
        wb_raw_error("cuCtxDestroy (the flush's context) at exit: CUDA error %d", (int)r);
    f->ctx = NULL, f->fn = f->empty = NULL;
}
