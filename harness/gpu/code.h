/* code.h - whether this build holds code for the device, checked at run
 * time instead of comparing one compiled architecture with the device's:
 * a build may carry several (CUDA_ARCHS="80;90;100;120"), or PTX only that
 * the driver JIT-compiles (CUDA_ARCHS=80-virtual). */
#ifndef WB_CODE_H
#define WB_CODE_H

#include <stddef.h>
#include "harness/base/error.h"
#include "harness/gpu/device.h"

/* The architecture list the kernels were built with, as CMake spelled it
 * ("90", "80-virtual;90", "80;86;89;90;100;120"). */
const char *wb_build_archs(void);

/* WB_OK with what the device runs in what ("sm_90 SASS", "compute_80 PTX,
 * JIT-compiled by the driver to sm_90"); WB_ERR with one sentence saying
 * which build to make when the binary holds no code for d. */
int wb_device_code(const wb_device *d, char *what, size_t len, wb_err *e);

/* 1 if the list holds SASS for architecture arch (x10): "90", "90-real",
 * "90a"; not "90-virtual". Public for tests. */
int wb_archs_have_sass(const char *archs, int arch);

#endif
