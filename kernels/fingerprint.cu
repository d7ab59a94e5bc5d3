// fingerprint.cu - an array's fingerprint on the GPU (see fingerprint.h).
#include "kernels/fingerprint.h"

#include "kernels/launch.cuh"
#include "kernels/tile_loop.cuh"

namespace {

constexpr int PRINT_BLOCK = 256, PRINT_BLOCKS_PER_SM = 8;

template <typename T>
__global__ void __launch_bounds__(PRINT_BLOCK) print_kernel(const T *x, int64_t n, int64_t first, unsigned long long *out) {
    unsigned long long sum = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        sum += wb_print_term((uint64_t)(first + i), (uint64_t)__ldcs(x + i));
    sum = wb_warp_sum(sum);
    if ((threadIdx.x & 31) == 0 && sum) atomicAdd(out, sum);
}

}  // namespace

extern "C" cudaError_t wb_print_gpu(const void *x, int64_t n, int elem, int64_t first, void *scratch, uint64_t *print,
                                    cudaStream_t s) {
    if (elem != 4 && elem != 8) return cudaErrorInvalidValue;
    unsigned long long *out = static_cast<unsigned long long *>(scratch), host = 0;
    int grid = 0;
    cudaError_t e = wb_helper_grid(n, PRINT_BLOCK, PRINT_BLOCKS_PER_SM, &grid);
    if (e == cudaSuccess) e = cudaMemsetAsync(out, 0, sizeof *out, s);
    if (e != cudaSuccess) return e;
    if (n > 0) {
        if (elem == 4) print_kernel<<<grid, PRINT_BLOCK, 0, s>>>(static_cast<const uint32_t *>(x), n, first, out);
        else print_kernel<<<grid, PRINT_BLOCK, 0, s>>>(static_cast<const unsigned long long *>(x), n, first, out);
        if ((e = wb_launched()) != cudaSuccess) return e;
    }
    if ((e = cudaMemcpyAsync(&host, out, sizeof host, cudaMemcpyDeviceToHost, s)) != cudaSuccess ||
        (e = cudaStreamSynchronize(s)) != cudaSuccess)
        return e;
    *print = host;
    return cudaSuccess;
}
