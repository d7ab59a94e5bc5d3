/* toy.h - the toy family of tests/gpu_family_recipe.sh: out[i] = in[i] % m. */
#ifndef WB_KERNELS_TOY_H
#define WB_KERNELS_TOY_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"
#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WB_TOY_VARIANT_LIST(X) \
    X(WB_TOY_PLAIN, "plain", "one item per thread") \
    X(WB_TOY_WIDE, "wide", "four items per thread in flight")
typedef enum wb_toy_variant { WB_TOY_VARIANT_LIST(WB_VARIANT_ENUM) WB_TOY_VARIANTS } wb_toy_variant;

cudaError_t wb_toy_plan(wb_launch *l, int64_t n);
cudaError_t wb_toy_launch(const wb_launch *l, const int32_t *in, int32_t *out, int64_t n, int32_t m, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
