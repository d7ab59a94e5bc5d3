/* fake_cuda.c - a CUDA driver of our own (soname libcuda.so.1) for tests/test_inject_fake.c: the
 * calls the injection library makes, answered as one GPU ("Fake H200", 132 SMs, a 1 MB L2) would,
 * and cuLaunchKernel (the injection's own L2 flush) running at once as a kernel of
 * FAKE_FLUSH_INST instructions (fake_cupti.c). */
#include <string.h>

#include <cuda.h>

#include "tests/fake_cuda/fake.h"

static int context_object, module_object, function_object;
static __thread CUcontext current = (CUcontext)&context_object, pushed_over; /* one push deep */

CUresult CUDAAPI cuCtxGetDevice(CUdevice *d) {
    *d = 0;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *c) {
    *c = current;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice d) {
    (void)d;
    strncpy(name, "Fake H200", (size_t)len - 1);
    name[len - 1] = '\0';
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *u, CUdevice d) {
    (void)d;
    memset(u->bytes, 0xab, sizeof u->bytes);
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? 9
         : a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT     ? 132
         : a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE            ? 1 << 20
                                                             : 0;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDriverGetVersion(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st) {
    (void)s;
    *st = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadData(CUmodule *m, const void *image) {
    (void)image;
    *m = (CUmodule)&module_object;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    (void)m, (void)name;
    *f = (CUfunction)&function_object;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *p, size_t bytes) {
    (void)bytes;
    *p = (CUdeviceptr)0x1000;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD32(CUdeviceptr p, unsigned v, size_t n) {
    (void)p, (void)v, (void)n;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSynchronize(void) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamSynchronize(CUstream s) {
    (void)s;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                unsigned smem, CUstream s, void **args, void **extra) {
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)s, (void)args, (void)extra;
    fake_kernel_ran_in(current, 0, FAKE_FLUSH_INST); /* the injection's flush: no launch callback (ours) */
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxCreate(CUcontext *c, CUctxCreateParams *params, unsigned flags, CUdevice d) {
    static int own;
    (void)params, (void)flags, (void)d;
    *c = (CUcontext)&own;
    pushed_over = current, current = *c; /* made current, as the driver does */
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxDestroy(CUcontext c) {
    (void)c;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxPushCurrent(CUcontext c) {
    pushed_over = current, current = c;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxPopCurrent(CUcontext *c) {
    *c = current;
    if (pushed_over) current = pushed_over, pushed_over = NULL;
    return CUDA_SUCCESS;
}
