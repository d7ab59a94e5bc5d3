/* cuda_check.c - the single CUDA error policy (cuda_check.h). */
#include <cuda_runtime_api.h>

#include "harness/gpu/cuda_check.h"

int wb_cuda_check(int code, const char *call, const char *file, int line, wb_err *e) {
    if (code == (int)cudaSuccess) return WB_OK;
    cudaError_t c = (cudaError_t)code;
    return wb_fail(e, "%s:%d: %s: %s (%s)", file, line, call, cudaGetErrorName(c), cudaGetErrorString(c));
}
