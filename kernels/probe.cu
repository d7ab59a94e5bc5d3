// probe.cu - probe and build kernels of the probe family (see probe.h). One
// kernel template over the op and the ILP; each thread first issues all its
// ILP table reads and only then consumes them, so ILP independent random
// loads are in flight per thread: what a DRAM-resident table needs (Little's
// law: the random-read roof needs tens of thousands of probes in flight).
#include "kernels/probe.h"

#include "kernels/grid_tile.cuh"
#include "kernels/launch.cuh"

namespace {

__device__ __forceinline__ uint64_t next_slot(uint64_t pos, uint64_t slots) { return pos + 1 == slots ? 0 : pos + 1; }

// Sums of one thread, added per warp at the end (a few thousand atomics per launch).
struct probe_sums {
    unsigned long long sum = 0, matches = 0;
    __device__ __forceinline__ void add(unsigned v) { sum += v, matches++; }
};

template <wb_probe_op OP, int ILP, bool Full>
__device__ __forceinline__ void probe_tile(const wb_probe_args &a, int64_t base, probe_sums &s) {
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP];
    T::template load<Full>(a.fact_keys, base, a.n, k);
    if constexpr (OP == WB_PROBE_DIRECT) {
        const int32_t *table = static_cast<const int32_t *>(a.table);
        int32_t v[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++)
            v[j] = T::template valid<Full>(base, j, a.n) ? __ldg(table + k[j]) : WB_PROBE_FILTERED;
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (v[j] >= 0) s.add((unsigned)v[j]);
    } else if constexpr (OP == WB_PROBE_PACKED) {
        const uint8_t *table = static_cast<const uint8_t *>(a.table);
        unsigned g[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++)
            g[j] = T::template valid<Full>(base, j, a.n) ? __ldg(table + k[j]) : WB_PROBE_PACKED_NONE;
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (g[j] != WB_PROBE_PACKED_NONE) s.add(g[j]);
    } else {
        static_assert(OP == WB_PROBE_HASH, "probe ops: hash, direct, packed");
        const unsigned long long *slots = static_cast<const unsigned long long *>(a.table);
        const uint64_t nslots = (uint64_t)a.slots;
        uint64_t pos[ILP];
        unsigned long long slot[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            pos[j] = wb_probe_home(k[j], nslots);
            slot[j] = T::template valid<Full>(base, j, a.n) ? __ldg(slots + pos[j]) : WB_PROBE_EMPTY_SLOT;
        }
        // Walk each chain until the key or an empty slot; the load factor is
        // below 1, so an empty slot exists and every walk ends.
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            for (;;) {
                int32_t key = (int32_t)(uint32_t)slot[j];
                if (key == k[j]) {
                    s.add((unsigned)(slot[j] >> 32));
                    break;
                }
                if (key == WB_PROBE_EMPTY_KEY) break;
                pos[j] = next_slot(pos[j], nslots);
                slot[j] = __ldg(slots + pos[j]);
            }
        }
    }
}

template <wb_probe_op OP, int ILP, bool Full>
__device__ __forceinline__ void build_tile(const wb_probe_args &a, int64_t base) {
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP], v[ILP];
    T::template load<Full>(a.dim_keys, base, a.dim_rows, k);
    T::template load<Full>(a.dim_vals, base, a.dim_rows, v);
    if constexpr (OP == WB_PROBE_BUILD_DIRECT) {
        int32_t *table = static_cast<int32_t *>(a.table);
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (T::template valid<Full>(base, j, a.dim_rows)) table[k[j]] = v[j];
    } else if constexpr (OP == WB_PROBE_BUILD_PACKED) {
        uint8_t *table = static_cast<uint8_t *>(a.table);
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (T::template valid<Full>(base, j, a.dim_rows))
                table[k[j]] = v[j] >= 0 ? (uint8_t)(v[j] & WB_PROBE_PACKED_MASK) : (uint8_t)WB_PROBE_PACKED_NONE;
    } else {
        static_assert(OP == WB_PROBE_BUILD_HASH, "build ops: hash, direct, packed");
        unsigned long long *slots = static_cast<unsigned long long *>(a.table);
        const uint64_t nslots = (uint64_t)a.slots;
        bool todo[ILP];
        uint64_t pos[ILP];
        unsigned long long old[ILP];
        // First CAS of every item back to back (independent), then the
        // collision walks: one slot's CAS at a time, as linear probing needs.
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            todo[j] = T::template valid<Full>(base, j, a.dim_rows) && v[j] >= 0;
            pos[j] = wb_probe_home(k[j], nslots);
            old[j] = todo[j] ? atomicCAS(slots + pos[j], WB_PROBE_EMPTY_SLOT, wb_probe_slot(k[j], v[j]))
                             : WB_PROBE_EMPTY_SLOT;
        }
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            // Stop at the slot we took, or at the key already there (insert-if-absent).
            while (todo[j] && old[j] != WB_PROBE_EMPTY_SLOT && (int32_t)(uint32_t)old[j] != k[j]) {
                pos[j] = next_slot(pos[j], nslots);
                old[j] = atomicCAS(slots + pos[j], WB_PROBE_EMPTY_SLOT, wb_probe_slot(k[j], v[j]));
            }
        }
    }
}

template <wb_probe_op OP, int ILP>
__global__ void probe_kernel(wb_probe_args a) {
    if constexpr (OP == WB_PROBE_HASH || OP == WB_PROBE_DIRECT || OP == WB_PROBE_PACKED) {
        probe_sums s;
        wb_for_tiles<ILP>(a.n,
                          [&](int64_t base, auto full) { probe_tile<OP, ILP, decltype(full)::value>(a, base, s); });
        unsigned long long sum = wb_warp_sum(s.sum), matches = wb_warp_sum(s.matches);
        if ((threadIdx.x & 31) == 0 && matches) {
            atomicAdd(&a.out[0], sum);
            atomicAdd(&a.out[1], matches);
        }
    } else {
        wb_for_tiles<ILP>(a.dim_rows,
                          [&](int64_t base, auto full) { build_tile<OP, ILP, decltype(full)::value>(a, base); });
    }
}

using probe_kernel_t = void (*)(wb_probe_args);

template <wb_probe_op OP>
probe_kernel_t pick(int ilp) {
    return wb_with_ilp(ilp, (probe_kernel_t)nullptr,
                       [](auto i) -> probe_kernel_t { return probe_kernel<OP, decltype(i)::value>; });
}

probe_kernel_t kernel_of(wb_probe_op op, int ilp) {
    switch (op) {
    case WB_PROBE_HASH: return pick<WB_PROBE_HASH>(ilp);
    case WB_PROBE_DIRECT: return pick<WB_PROBE_DIRECT>(ilp);
    case WB_PROBE_PACKED: return pick<WB_PROBE_PACKED>(ilp);
    case WB_PROBE_BUILD_HASH: return pick<WB_PROBE_BUILD_HASH>(ilp);
    case WB_PROBE_BUILD_DIRECT: return pick<WB_PROBE_BUILD_DIRECT>(ilp);
    case WB_PROBE_BUILD_PACKED: return pick<WB_PROBE_BUILD_PACKED>(ilp);
    }
    return nullptr;
}

}  // namespace

extern "C" cudaError_t wb_probe_plan(wb_probe_op op, wb_launch *l, int64_t items) {
    probe_kernel_t k = kernel_of(op, l->ilp);
    if (!k || l->block < 32 || l->block % 32 != 0) return cudaErrorInvalidValue;
    return wb_plan_kernel(k, l, items, (int64_t)l->block * l->ilp, wb_grid_mode::persistent, 0);
}

extern "C" cudaError_t wb_probe_launch(wb_probe_op op, const wb_launch *l, const wb_probe_args *a, cudaStream_t s) {
    probe_kernel_t k = kernel_of(op, l->ilp);
    if (!k) return cudaErrorInvalidValue;
    if (l->grid <= 0) return cudaSuccess;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(*a);
    return wb_launched();
}
