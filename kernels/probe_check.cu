// probe_check.cu - the partitioned keys' summary on the GPU (see probe_check.h).
#include "kernels/probe_check.h"

#include "kernels/launch.cuh"
#include "kernels/tile_loop.cuh"

namespace {

constexpr int CHECK_BLOCK = 256, CHECK_BLOCKS_PER_SM = 8;
// Keys per warp task: consecutive, so that a warp's keys mostly share one
// partition (one run) and its sums go out as one atomic per task and border.
constexpr int64_t SEG = 32 * 64;

__global__ void __launch_bounds__(CHECK_BLOCK)
    summary_kernel(const int32_t *__restrict__ keys, int64_t n, int partitions, int shift,
                   const long long *__restrict__ start, unsigned long long *out) {
    unsigned long long *count = out + 2, *print = out + 2 + partitions;
    const int lane = threadIdx.x & 31;
    const int64_t warps = (int64_t)gridDim.x * (CHECK_BLOCK / 32);
    const int64_t tasks = (n + SEG - 1) / SEG;
    unsigned long long misplaced = 0, first = ~0ull;
    for (int64_t t = (int64_t)blockIdx.x * (CHECK_BLOCK / 32) + threadIdx.x / 32; t < tasks; t += warps) {
        const int64_t base = t * SEG, end = base + SEG < n ? base + SEG : n;
        unsigned cur = 0xFFFFFFFFu; // the partition the lanes' sums hold (warp-uniform)
        unsigned long long c = 0, f = 0;
        for (int64_t at = base; at < end; at += 32) { // end - at is warp-uniform
            const int64_t i = at + lane;
            const bool valid = i < end;
            const int32_t key = valid ? __ldcs(keys + i) : 0;
            const unsigned p = (unsigned)key >> shift;
            const bool in = valid && key >= 0 && p < (unsigned)partitions;
            if (valid && (!in || i < start[p] || i >= start[p + 1])) {
                misplaced++;
                if ((unsigned long long)i < first) first = (unsigned long long)i;
            }
            const unsigned lead = __shfl_sync(0xFFFFFFFFu, in ? p : 0xFFFFFFFFu, 0);
            if (lead != cur && lead != 0xFFFFFFFFu) { // the run changed: flush the sums
                c = wb_warp_sum(c), f = wb_warp_sum(f);
                if (lane == 0 && cur != 0xFFFFFFFFu && c) atomicAdd(count + cur, c), atomicAdd(print + cur, f);
                c = 0, f = 0, cur = lead;
            }
            if (in) {
                const unsigned long long m = wb_probe_key_mix(key);
                if (p == cur) c++, f += m;
                else atomicAdd(count + p, 1ull), atomicAdd(print + p, m);
            }
        }
        c = wb_warp_sum(c), f = wb_warp_sum(f);
        if (lane == 0 && cur != 0xFFFFFFFFu && c) atomicAdd(count + cur, c), atomicAdd(print + cur, f);
    }
    misplaced = wb_warp_sum(misplaced);
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long g = __shfl_down_sync(0xFFFFFFFFu, first, o);
        first = g < first ? g : first;
    }
    if (lane == 0 && misplaced) atomicAdd(out, misplaced), atomicMin(out + 1, first);
}

}  // namespace

extern "C" size_t wb_probe_parts_check_bytes(int partitions) {
    return (wb_probe_parts_summary_words(partitions > 0 ? partitions : 0) + (size_t)(partitions > 0 ? partitions : 0) +
            1) * sizeof(unsigned long long);
}

extern "C" cudaError_t wb_probe_parts_check(const int32_t *keys, int64_t n, int partitions, int shift,
                                            const int64_t *start, void *scratch, uint64_t *summary,
                                            cudaStream_t s) {
    if (partitions < 1 || shift < 0 || shift > 31 || n < 0) return cudaErrorInvalidValue;
    const size_t words = wb_probe_parts_summary_words(partitions);
    unsigned long long *out = static_cast<unsigned long long *>(scratch);
    long long *d_start = reinterpret_cast<long long *>(out + words);
    cudaError_t c;
    if ((c = cudaMemsetAsync(out, 0, words * sizeof *out, s)) != cudaSuccess ||
        (c = cudaMemsetAsync(out + 1, 0xFF, sizeof *out, s)) != cudaSuccess ||
        (c = cudaMemcpyAsync(d_start, start, ((size_t)partitions + 1) * sizeof *d_start, cudaMemcpyHostToDevice, s)) !=
            cudaSuccess)
        return c;
    if (n > 0) {
        int grid = 0; /* a warp a task of SEG keys */
        if ((c = wb_helper_grid((n + SEG - 1) / SEG, CHECK_BLOCK / 32, CHECK_BLOCKS_PER_SM, &grid)) != cudaSuccess)
            return c;
        summary_kernel<<<grid, CHECK_BLOCK, 0, s>>>(keys, n, partitions, shift, d_start, out);
        if ((c = cudaGetLastError()) != cudaSuccess) return c;
    }
    if ((c = cudaMemcpyAsync(summary, out, words * sizeof *out, cudaMemcpyDeviceToHost, s)) != cudaSuccess) return c;
    return cudaStreamSynchronize(s);
}
