// select_check.cu - the unordered check of select outputs (see select_check.h).
#include "kernels/select_check.h"

#include "kernels/launch.cuh"

#include "kernels/tile_loop.cuh"

namespace {

constexpr int CHECK_BLOCK = 256, CHECK_BLOCKS_PER_SM = 8;

size_t bitmap_words(int64_t k) { return (size_t)((k + 31) / 32); }

// One slot per thread per trip; a value marks its bit with atomicOr and
// counts as bad when the bit was already set (a duplicate). Bad slots are
// summed per warp, one atomic per warp that found any.
__global__ void __launch_bounds__(CHECK_BLOCK) check_kernel(const int32_t *__restrict__ out, int64_t n, int64_t count,
                                                            int64_t k, int32_t poison, uint32_t *bits,
                                                            unsigned long long *bad) {
    unsigned long long mine = 0;
    wb_for_grid_items(n, [&](int64_t i) {
        const int32_t x = __ldcs(out + i);
        if (i >= count) {
            mine += x != poison;
        } else if (x < 0 || x >= k) {
            mine++;
        } else {
            const uint32_t b = 1u << (x & 31);
            mine += (atomicOr(bits + (x >> 5), b) & b) != 0;
        }
    });
    mine = wb_warp_sum(mine);
    if ((threadIdx.x & 31) == 0 && mine) atomicAdd(bad, mine);
}

}  // namespace

extern "C" size_t wb_select_check_bytes(int64_t k) {
    return sizeof(unsigned long long) + bitmap_words(k) * sizeof(uint32_t);
}

extern "C" cudaError_t wb_select_check_unordered(const int32_t *out, int64_t n, int64_t count, int64_t k,
                                                 int32_t poison, void *scratch, unsigned long long **bad,
                                                 cudaStream_t s) {
    *bad = static_cast<unsigned long long *>(scratch);
    uint32_t *bits = reinterpret_cast<uint32_t *>(*bad + 1);
    cudaError_t c = cudaMemsetAsync(scratch, 0, wb_select_check_bytes(k), s);
    if (c != cudaSuccess || n <= 0) return c;
    int grid = 0;
    if ((c = wb_helper_grid(n, CHECK_BLOCK, CHECK_BLOCKS_PER_SM, &grid)) != cudaSuccess) return c;
    check_kernel<<<grid, CHECK_BLOCK, 0, s>>>(out, n, count < 0 ? 0 : count, k, poison, bits, *bad);
    return cudaGetLastError();
}
