// tile.cuh - Crystal-style tile primitives. A block works on a tile of
// BT x IPT items that its threads hold in registers, IPT each; IPT is the
// suite's ILP axis. A kernel decides once per tile whether the tile is full
// (FULL = true: unguarded, vectorized loads) or the tail (guarded; wb_tile_at
// of tile_loop.cuh makes that choice), then reads
// like its query: load, predicate, and-predicate, count or sum, one atomic.
// Every primitive is a force-inlined template over type, block threads and
// items per thread; the block-wide ones say which barriers they contain.
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

#include "kernels/tile_loop.cuh"

// Where thread t's item i lives in its tile. Named for the data, not a
// library: Crystal calls its striped load "Direct", CUB calls blocked "DIRECT".
enum class wb_layout {
    striped,  // at i * BT + t: each item index is one coalesced warp access, one scalar load per item
    blocked,  // at t * IPT + i: a thread's items are consecutive, so thread order is input order
    vec       // striped vectors of V consecutive items, at (i / V * BT + t) * V + i % V: every warp
              // load is 32 x 16 contiguous bytes, IPT / V loads per thread
};

// How a predicate turns into a flag: the if vs pred pair of Crystal section 4.2.
// ptxas (CUDA 13.0, sm_90) if-converts the branch form into a predicated
// select: the select kernels of both forms have the same SASS instruction
// counts (nvdisasm), which is why seed 001 sees no difference on the GPU.
enum class wb_pred_form {
    branch,  // `if`: a data-dependent branch per element clears the flag
    flag     // `pred`: the comparison result is folded into the flag as 0/1, no branch
};

// Items per vector load: 16 bytes, or all of a thread's items when fewer.
template <typename T, int IPT>
constexpr int wb_vec_items() {
    return IPT * (int)sizeof(T) < 16 ? IPT : 16 / (int)sizeof(T);
}

// V items moved by one load instruction (ld.global.v4.u32 for 4 x int32).
template <typename T, int V>
struct alignas(sizeof(T) * V) wb_pack {
    T v[V];
};

template <wb_layout L, typename T, int BT, int IPT>
__device__ __forceinline__ int wb_tile_offset(int t, int i) {
    constexpr int V = wb_vec_items<T, IPT>();
    if constexpr (L == wb_layout::striped) return wb_striped_offset<1>(t, i, BT);
    else if constexpr (L == wb_layout::blocked) return t * IPT + i;
    else return wb_striped_offset<V>(t, i, BT);
}

// Loads this thread's items of the tile that starts at `tile`. FULL: all BT x
// IPT items exist; the blocked and vec layouts then use V-wide loads (tile must
// be aligned to V items, as a cudaMalloc'd column at a tile boundary is).
// Otherwise only the first `valid` items of the tile are read and the others
// are set to T{}, so predicates may look at them without reading garbage.
template <wb_layout L, int BT, int IPT, bool FULL, typename T>
__device__ __forceinline__ void wb_tile_load(const T *tile, int valid, T (&items)[IPT]) {
    const int t = threadIdx.x;
    if constexpr (FULL && L != wb_layout::striped) {
        constexpr int V = wb_vec_items<T, IPT>();
#pragma unroll
        for (int j = 0; j < IPT / V; j++) {
            const wb_pack<T, V> p =
                *reinterpret_cast<const wb_pack<T, V> *>(tile + wb_tile_offset<L, T, BT, IPT>(t, j * V));
#pragma unroll
            for (int k = 0; k < V; k++) items[j * V + k] = p.v[k];
        }
    } else {
#pragma unroll
        for (int i = 0; i < IPT; i++) {
            const int o = wb_tile_offset<L, T, BT, IPT>(t, i);
            items[i] = (FULL || o < valid) ? tile[o] : T{};
        }
    }
}

// Flags start as "this item exists": all ones in a full tile.
template <wb_layout L, typename T, int BT, int IPT, bool FULL>
__device__ __forceinline__ void wb_tile_flags_init(int valid, int (&flags)[IPT]) {
#pragma unroll
    for (int i = 0; i < IPT; i++) flags[i] = FULL || wb_tile_offset<L, T, BT, IPT>(threadIdx.x, i) < valid;
}

// flags[i] = flags[i] AND op(items[i]). The two forms differ in one line.
template <wb_pred_form F, typename T, int IPT, typename Op>
__device__ __forceinline__ void wb_tile_pred_and(const T (&items)[IPT], int (&flags)[IPT], Op op) {
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        if constexpr (F == wb_pred_form::branch) { if (!op(items[i])) flags[i] = 0; }
        else flags[i] &= (int)op(items[i]);
    }
}

template <int IPT>
__device__ __forceinline__ int wb_tile_count(const int (&flags)[IPT]) {
    int c = 0;
#pragma unroll
    for (int i = 0; i < IPT; i++) c += flags[i];
    return c;
}

// Inclusive prefix sum over the first WIDTH lanes of a warp (all lanes call,
// converged). Each step adds under the predicate the shuffle itself returns
// (whether lane - d exists), as CUB's warp scan does: with __shfl_up_sync and
// a test of the lane, nvcc issued a compare and a select beside every
// shuffle, 10 of the ~195 instructions a warp issued per tile in SSB's bitmap
// scan (SF 100 on the H200: the 13 queries 13.88 -> 13.79 ms, Q3.2 -3%;
// ssb-pair-pred-886f345.tgz in results/h200-issue31/, restored as
// results/HISTORY.md says).
template <int WIDTH = 32>
__device__ __forceinline__ int wb_warp_inclusive_sum(int x) {
#pragma unroll
    for (int d = 1; d < WIDTH; d <<= 1)
        asm("{ .reg .s32 r0; .reg .pred p;\n\t"
            "shfl.sync.up.b32 r0|p, %1, %2, 0, -1;\n\t"
            "@p add.s32 r0, r0, %1;\n\t"
            "mov.s32 %0, r0; }"
            : "=r"(x)
            : "r"(x), "r"(d));
    return x;
}

// Exclusive prefix sum over a converged warp, and the warp's total.
__device__ __forceinline__ int wb_warp_exclusive_sum(int x, int &total) {
    const int incl = wb_warp_inclusive_sum(x);
    total = __shfl_sync(0xffffffffu, incl, 31);
    return incl - x;
}

// Exclusive prefix sum of x over the block, in thread order; every thread also
// gets the block total. One __syncthreads. warp_totals holds BT / 32 ints and
// must not be written again until every thread has passed a later barrier
// (or use another buffer, as a loop over tiles alternating two does).
template <int BT>
__device__ __forceinline__ int wb_block_exclusive_sum(int x, int *warp_totals, int &total) {
    constexpr int NW = BT / 32;
    static_assert(BT % 32 == 0 && NW <= 32, "block of whole warps, at most 1024 threads");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int incl = wb_warp_inclusive_sum(x);
    if (lane == 31) warp_totals[warp] = incl;
    __syncthreads();
    // Every warp scans the warp totals itself: no second barrier.
    const int wt = lane < NW ? warp_totals[lane] : 0;
    const int wincl = wb_warp_inclusive_sum<NW>(wt);
    total = __shfl_sync(0xffffffffu, wincl, NW - 1);
    return __shfl_sync(0xffffffffu, wincl - wt, warp) + incl - x;
}

// Sum of x over the block (wb_warp_sum, tile_loop.cuh), valid in thread 0 only. One __syncthreads;
// warp_sums holds BT / 32 values.
template <int BT, typename T>
__device__ __forceinline__ T wb_block_sum(T x, T *warp_sums) {
    constexpr int NW = BT / 32;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    x = wb_warp_sum(x);
    if (lane == 0) warp_sums[warp] = x;
    __syncthreads();
    T total = 0;
    if (warp == 0) total = wb_warp_sum(lane < NW ? warp_sums[lane] : T{});
    return total;
}

// A run compacted in shared memory holds its item p at wb_run_slot(p): one pad
// word after every 32. A thread-major scatter puts thread t's survivors near
// t * IPT * s, a 16-way bank conflict at IPT 16 and s = 1 without the pad (the
// H200's select there: L1 81% busy and 1.66x the model time unpadded in
// results/h200/20261130T001236Z-f9ac739.h5, 33% and 1.10x in 20261130T011431Z-0dafc16.h5).
__device__ __forceinline__ int wb_run_slot(int p) { return p + (p >> 5); }
constexpr int wb_run_words(int items) { return items + items / 32; }

// Copies the first count items of a padded run to dst, striped over the block:
// 16-byte stores over the part of dst that is 16-byte aligned, scalar stores
// for the at most 3 items before and 3 after it (threads 0-5; BT >= 32).
template <int BT>
__device__ __forceinline__ void wb_block_store_run(const int *run, int count, int *dst) {
    const int head = min(count, (int)(((16u - ((unsigned)(uintptr_t)dst & 15u)) & 15u) / sizeof(int)));
    const int quads = (count - head) / 4;
    const int tail = head + 4 * quads;
    const int t = threadIdx.x;
    if (t < head) dst[t] = run[wb_run_slot(t)];
    else if (t - head < count - tail) dst[tail + t - head] = run[wb_run_slot(tail + t - head)];
    int4 *body = reinterpret_cast<int4 *>(dst + head);
    for (int q = t; q < quads; q += BT) {
        const int p = head + 4 * q;
        body[q] = make_int4(run[wb_run_slot(p)], run[wb_run_slot(p + 1)], run[wb_run_slot(p + 2)], run[wb_run_slot(p + 3)]);
    }
}
