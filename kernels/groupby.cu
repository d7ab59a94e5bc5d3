// groupby.cu - the group-by kernels (see groupby.h): global atomics, the
// shared-memory privatized table in four layouts, and CUB sort + reduce-by-key.
#include "kernels/groupby.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>

#include "kernels/grid_tile.cuh"
#include "kernels/launch.cuh"

namespace {

__device__ __forceinline__ unsigned long long widen(int32_t v) { return (unsigned long long)(long long)v; }

template <int ILP>
__global__ void global_kernel(wb_groupby_args a) {
    using T = wb_grid_tile<ILP>;
    wb_for_tiles<ILP>(a.n, [&](int64_t base, auto full) {
        constexpr bool F = decltype(full)::value;
        int32_t k[ILP], v[ILP];
        T::template load<F>(a.keys, base, a.n, k);
        T::template load<F>(a.vals, base, a.n, v);
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (T::template valid<F>(base, j, a.n)) atomicAdd(a.result + k[j], widen(v[j]));
    });
}

// sm_90 has no native 64-bit shared-memory add: atomicAdd on an unsigned long
// long in shared memory compiles to a compare-and-swap spin loop
// (ATOMS.CAST.SPIN.64 in the CUDA 13.0 SASS), which held the warp-table
// group-by at about half the read ceiling. The atomic tables therefore keep a
// group's 64-bit sum as two 32-bit words updated with native ATOMS.ADD: the
// low word, and the high word, which takes the low word's carry minus one
// for a negative value (its sign extension, -2^32). Exact modulo 2^64, like
// the reference; the high word is touched only when that difference is
// nonzero (about a quarter of random values).
__device__ __forceinline__ void add_split(unsigned *lo, unsigned *hi, int32_t v) {
    const unsigned u = (unsigned)v;
    const unsigned old = atomicAdd(lo, u);
    const unsigned delta = (old + u < u ? 1u : 0u) - (v < 0 ? 1u : 0u);
    if (delta) atomicAdd(hi, delta);
}

// The privatized table lives at the start of the dynamic shared memory (the
// rest, if any, is occupancy padding). Layout by TABLE:
//   THREAD: tab[g * blockDim.x + thread] - a thread's column, conflict-free,
//           plain 64-bit read-modify-write
//   WARP:   low words at w32[warp * 2G + g], high words at w32[warp * 2G + G + g]
//   BLOCK:  low words at w32[g], high words at w32[G + g]
template <int ILP, int TABLE>
__global__ void shared_kernel(wb_groupby_args a) {
    using T = wb_grid_tile<ILP>;
    extern __shared__ unsigned long long tab[];
    unsigned *w32 = reinterpret_cast<unsigned *>(tab);
    const int G = (int)a.groups, B = blockDim.x, t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = B >> 5;
    const int entries = TABLE == WB_GROUPBY_TABLE_THREAD ? B * G
                        : TABLE == WB_GROUPBY_TABLE_WARP ? warps * G
                        : TABLE == WB_GROUPBY_TABLE_BLOCK ? G
                                                          : 0;
    for (int i = t; i < entries; i += B) tab[i] = 0;
    __syncthreads();

    unsigned long long reg = 0;
    unsigned *lo = w32 + (TABLE == WB_GROUPBY_TABLE_WARP ? warp * 2 * G : 0), *hi = lo + G;
    wb_for_tiles<ILP>(a.n, [&](int64_t base, auto full) {
        constexpr bool F = decltype(full)::value;
        int32_t k[ILP], v[ILP];
        T::template load<F>(a.keys, base, a.n, k);
        T::template load<F>(a.vals, base, a.n, v);
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            if (!T::template valid<F>(base, j, a.n)) continue;
            if constexpr (TABLE == WB_GROUPBY_TABLE_REGS)
                reg += k[j] == 0 ? widen(v[j]) : 0;  // G == 1: every key is 0
            else if constexpr (TABLE == WB_GROUPBY_TABLE_THREAD)
                tab[k[j] * B + t] += widen(v[j]);
            else
                add_split(lo + k[j], hi + k[j], v[j]);
        }
    });
    __syncthreads();

    // One global atomic per group per block, skipped where the block's sum is
    // 0 (an empty group, or one whose values cancel: adding 0 changes nothing).
    if constexpr (TABLE == WB_GROUPBY_TABLE_REGS) {
        unsigned long long s = wb_warp_sum(reg);
        if (lane == 0 && s) atomicAdd(a.result, s);
    } else if constexpr (TABLE == WB_GROUPBY_TABLE_THREAD) {
        for (int g = warp; g < G; g += warps) {
            unsigned long long s = 0;
            for (int i = lane; i < B; i += 32) s += tab[g * B + i];
            s = wb_warp_sum(s);
            if (lane == 0 && s) atomicAdd(a.result + g, s);
        }
    } else {
        const int copies = TABLE == WB_GROUPBY_TABLE_WARP ? warps : 1;
        for (int g = t; g < G; g += B) {
            unsigned long long s = 0;
            for (int c = 0; c < copies; c++)
                s += (unsigned long long)w32[c * 2 * G + G + g] << 32 | w32[c * 2 * G + g];
            if (s) atomicAdd(a.result + g, s);
        }
    }
}

using gb_kernel_t = void (*)(wb_groupby_args);

template <int TABLE>
gb_kernel_t pick_shared(int ilp) {
    return wb_with_ilp(ilp, (gb_kernel_t)nullptr, [](auto i) -> gb_kernel_t { return shared_kernel<decltype(i)::value, TABLE>; });
}

gb_kernel_t kernel_of(wb_groupby_variant v, int table, int ilp) {
    if (v == WB_GROUPBY_GLOBAL || (v == WB_GROUPBY_SHARED && table == WB_GROUPBY_TABLE_GLOBAL))
        return wb_with_ilp(ilp, (gb_kernel_t)nullptr, [](auto i) -> gb_kernel_t { return global_kernel<decltype(i)::value>; });
    if (v != WB_GROUPBY_SHARED) return nullptr;
    switch (table) {
    case WB_GROUPBY_TABLE_REGS: return pick_shared<WB_GROUPBY_TABLE_REGS>(ilp);
    case WB_GROUPBY_TABLE_THREAD: return pick_shared<WB_GROUPBY_TABLE_THREAD>(ilp);
    case WB_GROUPBY_TABLE_WARP: return pick_shared<WB_GROUPBY_TABLE_WARP>(ilp);
    case WB_GROUPBY_TABLE_BLOCK: return pick_shared<WB_GROUPBY_TABLE_BLOCK>(ilp);
    default: return nullptr;
    }
}

// The most private layout whose table still lets the target number of
// blocks share an SM (the same count wb_plan_kernel aims for).
int choose_table(int64_t groups, const wb_launch *l, const wb_device_limits &d) {
    if (groups == 1) return WB_GROUPBY_TABLE_REGS;
    double target = l->occupancy_target > 0 && l->occupancy_target <= 1 ? l->occupancy_target : 1.0;
    int blocks = (int)(target * d.max_threads_per_sm / l->block + 1e-9);
    if (blocks < 1) blocks = 1;
    long per_block = (long)d.smem_per_sm / blocks - d.smem_reserved_per_block;
    size_t budget = per_block > 0 ? (size_t)per_block : 0;
    if (wb_groupby_table_bytes(WB_GROUPBY_TABLE_THREAD, l->block, groups) <= budget) return WB_GROUPBY_TABLE_THREAD;
    if (wb_groupby_table_bytes(WB_GROUPBY_TABLE_WARP, l->block, groups) <= budget) return WB_GROUPBY_TABLE_WARP;
    if (wb_groupby_table_bytes(WB_GROUPBY_TABLE_BLOCK, l->block, groups) <= (size_t)d.smem_optin_per_block)
        return WB_GROUPBY_TABLE_BLOCK;
    return WB_GROUPBY_TABLE_GLOBAL;
}

// ReduceByKey accumulates in the value type: widen the int32 values so the
// sums are 64-bit like the other variants'.
struct widen_op {
    __host__ __device__ long long operator()(int32_t v) const { return v; }
};

// An int row count, as users pass it (and CUB's 32-bit offsets); plan refuses n >= 2^31.
cudaError_t sort_reduce(const wb_groupby_args *a, size_t *temp_bytes, cudaStream_t s) {
    const int n = (int)a->n;
    size_t bytes = *temp_bytes;
    cudaError_t e = cub::DeviceRadixSort::SortPairs(a->temp, bytes, a->keys, a->sorted_keys, a->vals, a->sorted_vals,
                                                    n, 0, 32, s);
    if (e != cudaSuccess) return e;
    size_t reduce_bytes = *temp_bytes;
    e = cub::DeviceReduce::ReduceByKey(a->temp, reduce_bytes, a->sorted_keys, a->unique_keys,
                                       thrust::make_transform_iterator(a->sorted_vals, widen_op{}), a->sums, a->runs,
                                       cuda::std::plus<>{}, n, s);
    if (!a->temp) *temp_bytes = bytes > reduce_bytes ? bytes : reduce_bytes;
    return e;
}

}  // namespace

extern "C" size_t wb_groupby_table_bytes(int table, int block, int64_t groups) {
    size_t g = (size_t)groups * sizeof(unsigned long long);
    switch (table) {
    case WB_GROUPBY_TABLE_THREAD: return g * (size_t)block;
    case WB_GROUPBY_TABLE_WARP: return g * (size_t)(block / 32);
    case WB_GROUPBY_TABLE_BLOCK: return g;
    default: return 0;
    }
}

extern "C" const char *wb_groupby_table_name(int table) {
    static const char *const names[] = {"regs", "thread", "warp", "block", "global"};
    return table >= 0 && table < WB_GROUPBY_TABLES ? names[table] : "none";
}

extern "C" cudaError_t wb_groupby_plan(wb_groupby_variant v, int64_t n, int64_t groups, wb_launch *l, int *table) {
    *table = -1;
    if (groups < 1 || groups > INT32_MAX || n < 0) return cudaErrorInvalidValue;
    if (v == WB_GROUPBY_SORT) {
        if (n > INT32_MAX) return cudaErrorInvalidValue;
        // Size query only: CUB reads no pointer when temp is NULL.
        wb_groupby_args a = {};
        a.n = n;
        l->temp_bytes = 0;
        return sort_reduce(&a, &l->temp_bytes, 0);
    }
    if (l->block < 32 || l->block % 32 != 0) return cudaErrorInvalidValue;
    int tab = -1;
    size_t smem = 0;
    if (v == WB_GROUPBY_SHARED) {
        wb_device_limits d;
        cudaError_t e = wb_device_limits_get(&d);
        if (e != cudaSuccess) return e;
        tab = choose_table(groups, l, d);
        smem = wb_groupby_table_bytes(tab, l->block, groups);
    }
    gb_kernel_t k = kernel_of(v, tab, l->ilp);
    if (!k) return cudaErrorInvalidValue;
    cudaError_t e = wb_plan_kernel(k, l, n, (int64_t)l->block * l->ilp, wb_grid_mode::persistent, (int)smem);
    if (e == cudaSuccess) *table = tab;
    return e;
}

extern "C" cudaError_t wb_groupby_launch(wb_groupby_variant v, int table, const wb_launch *l,
                                         const wb_groupby_args *a, cudaStream_t s) {
    if (v == WB_GROUPBY_SORT) {
        if (!a->temp) return cudaErrorInvalidValue;
        size_t bytes = a->temp_bytes;
        return sort_reduce(a, &bytes, s);
    }
    gb_kernel_t k = kernel_of(v, table, l->ilp);
    if (!k) return cudaErrorInvalidValue;
    if (l->grid <= 0) return cudaSuccess;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(*a);
    return wb_launched();
}
