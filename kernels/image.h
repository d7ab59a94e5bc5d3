/* image.h - which code of this binary the device runs. Every kernel of
 * kernels/ is compiled for the same architecture list, so one probe kernel
 * answers for all of them: the driver picks SASS built for the device's
 * compute capability, else JIT-compiles the newest PTX not newer than the
 * device, else has nothing to run. */
#ifndef WB_IMAGE_H
#define WB_IMAGE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaFuncGetAttributes on the probe kernel for the current device:
 * cudaErrorNoKernelImageForDevice when the binary holds no code it can run;
 * else *binary_version is the SASS architecture the kernel runs as (x10,
 * e.g. 90, also after a JIT) and *ptx_version the PTX version it was
 * compiled from (x10). Whether the driver JIT-compiled it follows from the
 * build's architecture list (harness/gpu/code.c). */
cudaError_t wb_kernels_image(int *binary_version, int *ptx_version);

#ifdef __cplusplus
}
#endif
#endif
