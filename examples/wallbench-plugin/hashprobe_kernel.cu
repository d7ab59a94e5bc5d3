// hashprobe_kernel.cu - the example plugin's CUDA: a linear-probing hash
// probe. ILP 4 gives each thread four independent probe chains, which is
// the one difference between the two variants.
#include <cuda_runtime.h>

#include "hashprobe_kernel.h"
#include "kernels/launch.cuh"

template <int ILP>
__global__ void hashprobe_kernel(const uint32_t *__restrict__ keys, const int32_t *__restrict__ vals, uint32_t mask,
                                 const uint32_t *__restrict__ probe, int32_t *__restrict__ out, int64_t n) {
    const int64_t base = (int64_t)blockIdx.x * blockDim.x * ILP + threadIdx.x;
#pragma unroll
    for (int j = 0; j < ILP; j++) {
        const int64_t i = base + (int64_t)j * blockDim.x;
        if (i >= n) continue;  // the last tile: n need not be a multiple of block * ILP
        const uint32_t k = probe[i];
        uint32_t s = hashprobe_hash(k) & mask;
        int32_t r = HASHPROBE_MISS;
        for (;;) {
            const uint32_t t = keys[s];
            if (t == k) {
                r = vals[s];
                break;
            }
            if (t == HASHPROBE_EMPTY) break;
            s = (s + 1) & mask;
        }
        out[i] = r;
    }
}

extern "C" int hashprobe_plan(wb_launch *l, int64_t n) {
    const int64_t per_block = (int64_t)l->block * l->ilp;
    return l->ilp == 4 ? wb_plan_kernel(hashprobe_kernel<4>, l, n, per_block, wb_grid_mode::cover, 0)
                       : wb_plan_kernel(hashprobe_kernel<1>, l, n, per_block, wb_grid_mode::cover, 0);
}

extern "C" int hashprobe_launch(const wb_launch *l, const uint32_t *keys, const int32_t *vals, uint32_t capacity,
                                const uint32_t *probe, int32_t *out, int64_t n, void *stream) {
    if (l->grid == 0) return cudaSuccess;  // n = 0: nothing to probe
    cudaStream_t s = (cudaStream_t)stream;
    if (l->ilp == 4)
        hashprobe_kernel<4><<<l->grid, l->block, l->smem_bytes, s>>>(keys, vals, capacity - 1, probe, out, n);
    else
        hashprobe_kernel<1><<<l->grid, l->block, l->smem_bytes, s>>>(keys, vals, capacity - 1, probe, out, n);
    return cudaGetLastError();
}
