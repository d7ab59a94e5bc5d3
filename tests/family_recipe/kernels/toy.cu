// toy.cu - the toy family's kernel, in the one tile vocabulary.
#include "kernels/launch.cuh"
#include "kernels/tile_dispatch.cuh"
#include "kernels/tile_loop.cuh"
#include "kernels/toy.h"

namespace {
template <int ILP>
__global__ void toy_kernel(const int32_t *in, int32_t *out, int64_t n, int32_t m) {
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        int32_t v[ILP];
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { v[k] = in[i]; });
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { out[i] = v[k] % m; });
    });
}
using kernel_fn = void (*)(const int32_t *, int32_t *, int64_t, int32_t);
kernel_fn pick(int ilp) {
    return wb_with_ilp(ilp, (kernel_fn) nullptr, [](auto i) -> kernel_fn { return toy_kernel<decltype(i)::value>; });
}
}  // namespace

extern "C" cudaError_t wb_toy_plan(wb_launch *l, int64_t n) {
    kernel_fn k = pick(l->ilp);
    if (!k) return cudaErrorInvalidValue;
    return wb_plan_kernel(k, l, n, (int64_t)l->block * l->ilp, wb_grid_mode::cover, 0);
}

extern "C" cudaError_t wb_toy_launch(const wb_launch *l, const int32_t *in, int32_t *out, int64_t n, int32_t m,
                                     cudaStream_t s) {
    kernel_fn k = pick(l->ilp);
    if (!k) return cudaErrorInvalidValue;
    if (l->grid == 0) return cudaSuccess;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(in, out, n, m);
    return wb_launched();
}
