/* cuda_check.h - the single CUDA error policy (cuda_check.c): every CUDA
 * runtime call of the GPU floor and above goes through WB_CUDA or
 * WB_CUDA_TRY and ends in a wb_err (harness/base/error.h). */
#ifndef WB_CUDA_CHECK_H
#define WB_CUDA_CHECK_H

#include "harness/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* code is a cudaError_t. Returns WB_OK for cudaSuccess; otherwise writes
 * "file:line: call: cudaErrorName (description)" into e and returns WB_ERR. */
int wb_cuda_check(int code, const char *call, const char *file, int line, wb_err *e);

#define WB_CUDA(e, call) wb_cuda_check((int)(call), #call, __FILE__, __LINE__, (e))
/* Returns from the enclosing int function on failure. */
#define WB_CUDA_TRY(e, call)                                  \
    do {                                                      \
        if (WB_CUDA((e), (call)) != WB_OK) return WB_ERR;     \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
