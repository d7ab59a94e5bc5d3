// fill.cu - random input columns on the GPU (see fill.h).
#include "kernels/fill.h"

#include "kernels/launch.cuh"
#include "kernels/splitmix.h"

namespace {

constexpr int FILL_BLOCK = 256, FILL_BLOCKS_PER_SM = 8;


// Draw `draw` (0-based) of the stream of row `row`'s chunk.
__device__ __forceinline__ uint64_t draw_of(const wb_fill_spec &f, int64_t row) {
    const uint64_t c = (uint64_t)(row / f.chunk), j = (uint64_t)(row % f.chunk);
    return wb_stream_draw(wb_chunk_stream(f.seed, c + f.chunk_salt), j);
}

__global__ void __launch_bounds__(FILL_BLOCK) fill_kernel(wb_fill_spec f, void *x, int64_t first, int64_t n) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t z = draw_of(f, first + i);
        if (f.type == WB_FILL_F64) {
            // wb_rng_unit, then lo + (hi - lo) * u with no contraction, as the host rounds
            const double u = __dmul_rn((double)(z >> 11), 1.0 / 9007199254740992.0);
            static_cast<double *>(x)[i] = __dadd_rn(f.dlo, __dmul_rn(__dadd_rn(f.dhi, -f.dlo), u));
        } else {
            const uint64_t v = (uint64_t)f.lo + (f.span ? wb_mulhi(z, f.span) : 0);
            if (f.type == WB_FILL_I32) static_cast<int32_t *>(x)[i] = (int32_t)v;
            else static_cast<int64_t *>(x)[i] = (int64_t)v;
        }
    }
}

}  // namespace

extern "C" cudaError_t wb_fill_gpu(const wb_fill_spec *spec, void *x, int64_t first, int64_t n, cudaStream_t s) {
    if (n <= 0) return cudaSuccess;
    if (spec->chunk <= 0 || spec->type < WB_FILL_I32 || spec->type > WB_FILL_F64) return cudaErrorInvalidValue;
    int grid = 0;
    const cudaError_t c = wb_helper_grid(n, FILL_BLOCK, FILL_BLOCKS_PER_SM, &grid);
    if (c != cudaSuccess) return c;
    fill_kernel<<<grid, FILL_BLOCK, 0, s>>>(*spec, x, first, n);
    return wb_launched();
}
