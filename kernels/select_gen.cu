// select_gen.cu - the selection family's input on the GPU (see select_gen.h).
#include "kernels/select_gen.h"

#include <climits>

#include "kernels/launch.cuh"
#include "kernels/splitmix.h"

namespace {

constexpr int GEN_BLOCK = 256, GEN_BLOCKS_PER_SM = 8;

__global__ void __launch_bounds__(GEN_BLOCK) gen_kernel(wb_select_gen g, int32_t *x) {
    const uint64_t span = (uint64_t)INT_MAX - (uint64_t)g.k + 1;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t r = wb_perm_at(&g.perm, (uint64_t)i);
        const uint64_t z = wb_stream_draw(wb_chunk_stream(g.seed, (uint64_t)(i / g.chunk)), (uint64_t)(i % g.chunk));
        x[i] = (int32_t)((int64_t)r < g.k ? (int64_t)r : g.k + (int64_t)wb_mulhi(z, span));
    }
}

}  // namespace

extern "C" cudaError_t wb_select_gen_gpu(const wb_select_gen *g, int32_t *x, cudaStream_t s) {
    if (g->chunk < 1 || g->k < 0 || g->k > g->n) return cudaErrorInvalidValue;
    if (g->n == 0) return cudaSuccess;
    int grid = 0;
    const cudaError_t c = wb_helper_grid(g->n, GEN_BLOCK, GEN_BLOCKS_PER_SM, &grid);
    if (c != cudaSuccess) return c;
    gen_kernel<<<grid, GEN_BLOCK, 0, s>>>(*g, x);
    return wb_launched();
}
