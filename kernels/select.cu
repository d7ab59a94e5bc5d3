// select.cu - SELECT y FROM R WHERE y < v (see select.h). One persistent
// streaming kernel template covers the atomic and warp compactions, one
// block-per-tile kernel the tile compaction, one two-pass template
// three_kernel's count and write passes. The if/pred choice is the
// wb_pred_form template parameter of all three, used in one line (tile.cuh's
// wb_tile_pred_and). Layers: tile.cuh primitives -> __device__ compaction
// steps -> thin __global__ kernels -> select_impl (plan, launch) -> extern "C".
#include "kernels/select.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include "kernels/launch.cuh"
#include "kernels/tile.cuh"
#include "kernels/tile_dispatch.cuh"

namespace {

enum class wb_compact { three_kernel, atomic, warp, tile };

struct wb_less {
    int v;
    __host__ __device__ __forceinline__ bool operator()(const int &x) const { return x < v; }
};

struct select_args {
    const int *in;
    long long n;
    int v;
    int *out;
    unsigned long long *count;
    int *counts;         // three_kernel: survivors per thread
    long long *offsets;  // three_kernel: exclusive prefix sum of counts
    unsigned spread;     // always 0; see compact_atomic
};

// Shared memory of the tile compaction: the tile's output base, the warp
// totals of the block scan, then the padded run of survivors.
constexpr int kTotalsOffset = 16;
constexpr int kRunOffset = kTotalsOffset + 32 * (int)sizeof(int);

template <int BT, int IPT>
constexpr int tile_smem_bytes() { return kRunOffset + wb_run_words(BT * IPT) * (int)sizeof(int); }

// One global atomic per survivor. ptxas rewrites atomicAdd(p, 1) on an address
// it can prove warp-uniform into one atomic per warp (VOTEU.ANY + FLO + POPC
// around a single ATOMG in the sm_90 SASS of CUDA 13.0, also for inline-PTX
// atom). An offset it cannot prove zero (spread is 0 at run time) keeps one
// ATOMG per survivor, which is what this variant exists to measure.
template <int IPT>
__device__ __forceinline__ void compact_atomic(const select_args &a, const int (&items)[IPT], const int (&flags)[IPT]) {
    unsigned long long *slot = a.count + (threadIdx.x & a.spread);
#pragma unroll
    for (int i = 0; i < IPT; i++)
        if (flags[i]) a.out[atomicAdd(slot, 1ULL)] = items[i];
}

// One atomic per warp per tile; ballot/popc give each survivor its slot, so
// the warp's survivors of one item index land contiguously.
template <int IPT>
__device__ __forceinline__ void compact_warp(const select_args &a, const int (&items)[IPT], const int (&flags)[IPT]) {
    unsigned ballot[IPT];
    int total = 0;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        ballot[i] = __ballot_sync(0xffffffffu, flags[i]);
        total += __popc(ballot[i]);
    }
    if (total == 0) return;  // warp-uniform
    const int lane = threadIdx.x & 31;
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(a.count, (unsigned long long)total);
    base = __shfl_sync(0xffffffffu, base, 0);
    const unsigned before = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        if (flags[i]) a.out[base + __popc(ballot[i] & before)] = items[i];
        base += __popc(ballot[i]);
    }
}

template <int BT, int IPT>
__device__ __forceinline__ void load_tile_at(const int *in, long long n, long long tile, int (&items)[IPT]) {
    constexpr int TILE = BT * IPT;
    wb_tile_at<TILE>(n, tile * TILE, [&](int valid, auto full) {
        wb_tile_load<wb_layout::vec, BT, IPT, decltype(full)::value>(in + tile * TILE, valid, items);
    });
}

template <wb_pred_form F, wb_compact C, int BT, int IPT, bool FULL>
__device__ __forceinline__ void stream_tile(const select_args &a, int valid, const int (&items)[IPT]) {
    int flags[IPT];
    wb_tile_flags_init<wb_layout::vec, int, BT, IPT, FULL>(valid, flags);
    wb_tile_pred_and<F>(items, flags, wb_less{a.v});
    if constexpr (C == wb_compact::atomic) compact_atomic(a, items, flags);
    else compact_warp(a, items, flags);
}

// Persistent blocks walk the tiles block-stride; the next tile's loads are
// issued before the current tile is compacted, so every thread keeps IPT
// loads in flight through the compaction.
template <wb_pred_form F, wb_compact C, int BT, int IPT>
__global__ void __launch_bounds__(BT) select_stream(select_args a) {
    constexpr int TILE = BT * IPT;
    const long long tiles = (a.n + TILE - 1) / TILE;
    long long t = blockIdx.x;
    if (t >= tiles) return;
    int cur[IPT], nxt[IPT] = {};
    load_tile_at<BT, IPT>(a.in, a.n, t, cur);
    for (; t < tiles; t += gridDim.x) {
        if (t + gridDim.x < tiles) load_tile_at<BT, IPT>(a.in, a.n, t + gridDim.x, nxt);
        wb_tile_at<TILE>(a.n, t * TILE,
                         [&](int valid, auto full) { stream_tile<F, C, BT, IPT, decltype(full)::value>(a, valid, cur); });
#pragma unroll
        for (int i = 0; i < IPT; i++) cur[i] = nxt[i];
    }
}

// Crystal Fig 6: block-wide exclusive scan of per-thread counts, one atomic
// per tile for the output base, survivors scattered into a run in shared
// memory, stored coalesced. Two barriers, one when nothing survives.
template <wb_pred_form F, int BT, int IPT, bool FULL>
__device__ __forceinline__ void compact_tile(const select_args &a, long long begin, int valid, unsigned char *smem) {
    int items[IPT], flags[IPT];
    wb_tile_load<wb_layout::vec, BT, IPT, FULL>(a.in + begin, valid, items);
    wb_tile_flags_init<wb_layout::vec, int, BT, IPT, FULL>(valid, flags);
    wb_tile_pred_and<F>(items, flags, wb_less{a.v});
    unsigned long long *base = reinterpret_cast<unsigned long long *>(smem);
    int *run = reinterpret_cast<int *>(smem + kRunOffset);
    int total;
    int at = wb_block_exclusive_sum<BT>(wb_tile_count(flags), reinterpret_cast<int *>(smem + kTotalsOffset), total);
    if (!total) return;  // block-uniform
    if (threadIdx.x == 0) *base = atomicAdd(a.count, (unsigned long long)total);
#pragma unroll
    for (int i = 0; i < IPT; i++)
        if (flags[i]) run[wb_run_slot(at++)] = items[i];
    __syncthreads();
    wb_block_store_run<BT>(run, total, a.out + *base);
}

// One block per tile (cover grid): the atomic's round trip is hidden by the
// other blocks on the SM. A persistent form that kept each tile's run until
// the block's next tile was 1.01-1.51x the model time at 2^28
// (results/h200/20261130T001236Z-f9ac739.h5), this one is 1.00-1.09x
// (20261130T011431Z-0dafc16.h5); it needs resident blocks, so at 25-50%
// occupancy it is the slower of the two. The bound caps registers at 40 (46
// at ILP 16 without it): three blocks of 512 or six of 256 per SM, not two or five.
template <wb_pred_form F, int BT, int IPT>
__global__ void __launch_bounds__(BT, 1536 / BT) select_tile(select_args a) {
    constexpr int TILE = BT * IPT;
    extern __shared__ __align__(16) unsigned char wb_smem[];
    const long long begin = (long long)blockIdx.x * TILE;
    wb_tile_at<TILE>(a.n, begin,
                     [&](int valid, auto full) { compact_tile<F, BT, IPT, decltype(full)::value>(a, begin, valid, wb_smem); });
}

// three_kernel's passes: one block per tile, blocked layout so that thread
// order is input order. WRITE = false counts survivors per thread; WRITE =
// true re-reads the tile and writes them at the scanned offsets.
template <wb_pred_form F, int BT, int IPT, bool WRITE, bool FULL>
__device__ __forceinline__ void pass_tile(const select_args &a, long long begin, int valid) {
    int items[IPT], flags[IPT];
    wb_tile_load<wb_layout::blocked, BT, IPT, FULL>(a.in + begin, valid, items);
    wb_tile_flags_init<wb_layout::blocked, int, BT, IPT, FULL>(valid, flags);
    wb_tile_pred_and<F>(items, flags, wb_less{a.v});
    const long long thread = (long long)blockIdx.x * BT + threadIdx.x;
    if constexpr (!WRITE) {
        a.counts[thread] = wb_tile_count(flags);
    } else {
        long long at = a.offsets[thread];
#pragma unroll
        for (int i = 0; i < IPT; i++)
            if (flags[i]) a.out[at++] = items[i];
        if (thread == (long long)gridDim.x * BT - 1) *a.count = (unsigned long long)at;
    }
}

template <wb_pred_form F, int BT, int IPT, bool WRITE>
__global__ void __launch_bounds__(BT) select_pass(select_args a) {
    constexpr int TILE = BT * IPT;
    const long long begin = (long long)blockIdx.x * TILE;
    wb_tile_at<TILE>(a.n, begin,
                     [&](int valid, auto full) { pass_tile<F, BT, IPT, WRITE, decltype(full)::value>(a, begin, valid); });
}

size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }

// three_kernel scratch: [counts, int32 per thread][offsets, int64 per thread][CUB scan temp].
size_t three_kernel_cub_offset(long long threads) {
    return align256((size_t)threads * sizeof(int)) + align256((size_t)threads * sizeof(long long));
}

cudaError_t scan_counts(void *temp, size_t &bytes, const int *counts, long long *offsets, long long threads,
                        cudaStream_t s) {
    if (threads <= 0x7fffffffLL)
        return cub::DeviceScan::ExclusiveScan(temp, bytes, counts, offsets, ::cuda::std::plus<>{}, 0LL, (int)threads, s);
    return cub::DeviceScan::ExclusiveScan(temp, bytes, counts, offsets, ::cuda::std::plus<>{}, 0LL, threads, s);
}

cudaError_t cub_select(void *temp, size_t &bytes, const select_args &a, cudaStream_t s) {
    if (a.n <= 0x7fffffffLL)
        return cub::DeviceSelect::If(temp, bytes, a.in, a.out, a.count, (int)a.n, wb_less{a.v}, s);
    return cub::DeviceSelect::If(temp, bytes, a.in, a.out, a.count, a.n, wb_less{a.v}, s);
}

select_args args_of(const wb_select_io *io) {
    return select_args{io->in, (long long)io->n, io->v, io->out, io->count, nullptr, nullptr, 0u};
}

template <wb_pred_form F, wb_compact C, int BT, int IPT>
struct select_impl {
    static constexpr int TILE = BT * IPT;

    static cudaError_t plan(wb_launch *l, long long n) {
        l->temp_bytes = 0;
        if constexpr (C == wb_compact::tile) {
            return wb_plan_kernel(select_tile<F, BT, IPT>, l, n, TILE, wb_grid_mode::cover, tile_smem_bytes<BT, IPT>());
        } else if constexpr (C != wb_compact::three_kernel) {
            return wb_plan_kernel(select_stream<F, C, BT, IPT>, l, n, TILE, wb_grid_mode::persistent, 0);
        } else {
            // Both passes launch with one shared-memory size (the larger, so the
            // occupancy target holds for both); l keeps the write pass's numbers.
            wb_launch count_l = *l;
            cudaError_t e = wb_plan_kernel(select_pass<F, BT, IPT, true>, l, n, TILE, wb_grid_mode::cover, 0);
            if (e == cudaSuccess)
                e = wb_plan_kernel(select_pass<F, BT, IPT, false>, &count_l, n, TILE, wb_grid_mode::cover, 0);
            if (e != cudaSuccess) return e;
            if (count_l.smem_bytes > l->smem_bytes) l->smem_bytes = count_l.smem_bytes;
            if (l->smem_bytes > 48 * 1024) {
                e = cudaFuncSetAttribute(select_pass<F, BT, IPT, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         l->smem_bytes);
                if (e == cudaSuccess)
                    e = cudaFuncSetAttribute(select_pass<F, BT, IPT, false>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, l->smem_bytes);
                if (e != cudaSuccess) return e;
            }
            const long long threads = (long long)l->grid * BT;
            size_t cub_bytes = 0;
            if (threads > 0 && (e = scan_counts(nullptr, cub_bytes, nullptr, nullptr, threads, 0)) != cudaSuccess)
                return e;
            l->temp_bytes = three_kernel_cub_offset(threads) + cub_bytes;
            return cudaSuccess;
        }
    }

    static cudaError_t launch(const wb_launch *l, const wb_select_io *io, cudaStream_t s) {
        select_args a = args_of(io);
        if constexpr (C == wb_compact::tile) {
            select_tile<F, BT, IPT><<<l->grid, BT, l->smem_bytes, s>>>(a);
            return wb_launched();
        } else if constexpr (C != wb_compact::three_kernel) {
            select_stream<F, C, BT, IPT><<<l->grid, BT, l->smem_bytes, s>>>(a);
            return wb_launched();
        } else {
            const long long threads = (long long)l->grid * BT;
            const size_t cub_at = three_kernel_cub_offset(threads);
            if (io->temp_bytes < cub_at) return cudaErrorInvalidValue;
            char *temp = static_cast<char *>(io->temp);
            a.counts = reinterpret_cast<int *>(temp);
            a.offsets = reinterpret_cast<long long *>(temp + align256((size_t)threads * sizeof(int)));
            select_pass<F, BT, IPT, false><<<l->grid, BT, l->smem_bytes, s>>>(a);
            cudaError_t e = wb_launched();
            size_t cub_bytes = io->temp_bytes - cub_at;
            if (e == cudaSuccess) e = scan_counts(temp + cub_at, cub_bytes, a.counts, a.offsets, threads, s);
            if (e != cudaSuccess) return e;
            select_pass<F, BT, IPT, true><<<l->grid, BT, l->smem_bytes, s>>>(a);
            return wb_launched();
        }
    }
};

template <wb_pred_form F, wb_compact C, typename Fn>
cudaError_t with_shape(const wb_launch *l, Fn &fn) {
    return wb_dispatch_tile(l->block, l->ilp, [&](auto bt, auto ipt) {
        return fn(select_impl<F, C, decltype(bt)::value, decltype(ipt)::value>{});
    });
}

// The one dispatch point from the variant enum to the template parameters.
template <typename Fn>
cudaError_t with_variant(int variant, const wb_launch *l, Fn &&fn) {
    using P = wb_pred_form;
    using K = wb_compact;
    switch (variant) {
    case WB_SELECT_IF_THREE_KERNEL: return with_shape<P::branch, K::three_kernel>(l, fn);
    case WB_SELECT_PRED_THREE_KERNEL: return with_shape<P::flag, K::three_kernel>(l, fn);
    case WB_SELECT_IF_ATOMIC: return with_shape<P::branch, K::atomic>(l, fn);
    case WB_SELECT_PRED_ATOMIC: return with_shape<P::flag, K::atomic>(l, fn);
    case WB_SELECT_IF_WARP: return with_shape<P::branch, K::warp>(l, fn);
    case WB_SELECT_PRED_WARP: return with_shape<P::flag, K::warp>(l, fn);
    case WB_SELECT_IF_TILE: return with_shape<P::branch, K::tile>(l, fn);
    case WB_SELECT_PRED_TILE: return with_shape<P::flag, K::tile>(l, fn);
    default: return cudaErrorInvalidValue;
    }
}

}  // namespace

extern "C" int wb_select_keeps_order(int variant) {
    return variant == WB_SELECT_IF_THREE_KERNEL || variant == WB_SELECT_PRED_THREE_KERNEL || variant == WB_SELECT_CUB;
}

extern "C" cudaError_t wb_select_plan(int variant, wb_launch *l, int64_t n) {
    if (variant == WB_SELECT_CUB) {
        select_args a{nullptr, (long long)n, 0, nullptr, nullptr, nullptr, nullptr, 0u};
        size_t bytes = 0;
        cudaError_t e = cub_select(nullptr, bytes, a, 0);
        l->temp_bytes = bytes;
        return e;
    }
    return with_variant(variant, l, [&](auto impl) { return decltype(impl)::plan(l, (long long)n); });
}

extern "C" cudaError_t wb_select_launch(int variant, const wb_launch *l, const wb_select_io *io, cudaStream_t s) {
    if (io->n <= 0) return cudaSuccess;
    if (variant == WB_SELECT_CUB) {
        size_t bytes = io->temp_bytes;
        return cub_select(io->temp, bytes, args_of(io), s);
    }
    return with_variant(variant, l, [&](auto impl) { return decltype(impl)::launch(l, io, s); });
}
