/* code.c - does this build hold code for the device (see code.h)? */
#include "harness/gpu/code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/image.h"

#ifndef WB_CUDA_ARCHS
#define WB_CUDA_ARCHS "90"
#endif

const char *wb_build_archs(void) { return WB_CUDA_ARCHS; }

int wb_archs_have_sass(const char *archs, int arch) {
    for (const char *p = archs; *p;) {
        char *end;
        long n = strtol(p, &end, 10);
        size_t len = strcspn(p, ",;");
        const char *suffix = end;
        while (*suffix == 'a' || *suffix == 'f') suffix++;
        size_t rest = len - (size_t)(suffix - p);
        int sass = end != p && (rest == 0 || (rest == 5 && strncmp(suffix, "-real", 5) == 0));
        if (sass && n == arch) return 1;
        p += len;
        if (*p) p++;
    }
    return 0;
}

int wb_device_code(const wb_device *d, char *what, size_t len, wb_err *e) {
    int cc = d->cc_major * 10 + d->cc_minor, bin = 0, ptx = 0;
    cudaError_t c = wb_kernels_image(&bin, &ptx);
    if (c == cudaErrorNoKernelImageForDevice || c == cudaErrorInvalidKernelImage)
        return wb_fail(e, "this wallbench was built for CUDA_ARCHS=\"%s\" and holds no code %s (sm_%d) can run: "
                          "rebuild with make build GPU=auto, or add %d to CUDA_ARCHS", wb_build_archs(), d->name, cc, cc);
    if (c != cudaSuccess)
        return wb_fail(e, "cudaFuncGetAttributes(wb_image_probe): %s (%s)", cudaGetErrorName(c), cudaGetErrorString(c));
    if (wb_archs_have_sass(wb_build_archs(), bin))
        snprintf(what, len, "sm_%d SASS", bin);
    else
        snprintf(what, len, "compute_%d PTX, JIT-compiled by the driver to sm_%d", ptx, bin);
    return WB_OK;
}
