// tile_loop.cuh - the one tile loop of the suite, and where a thread's items
// sit in a tile. A tile is blockDim.x * ILP
// items (BT * IPT in tile.cuh's terms); a kernel handles each tile either
// full (all items exist: unguarded, vectorized where the layout allows) or as
// the one partial tile at the end (bounds checked: Crystal's BlockLoad
// habit), so the main path has no tail branch. Which one is a type,
// wb_full<F>, so that `if (full || i < n)` folds to nothing on the full path
// and `decltype(full)::value` is a template argument. The walks:
// - wb_for_tiles: the block owns tiles grid-stride, so that the same kernel
//   runs with a grid that covers the input or with a persistent one
//   (transform, ceiling, probe, group-by, ssb);
// - wb_for_tiles_tested: the same tiles, each testing at run time whether it
//   is full, for a body written once for both cases (expr);
// - wb_for_chunk_tiles: the tiles of one contiguous chunk per block, in
//   order, tested the same way (the probe's partition histogram and scatter);
// - wb_for_tiles_ahead: the same tiles, each one's loads issued while the
//   tile before it is processed (the ssb bitmap form's key stream);
// - wb_for_claimed_tiles: tiles claimed in order from one global counter,
//   so that the whole grid works on neighbouring tiles (the probe of
//   partitioned keys, whose table slice must stay in L2);
// - wb_tile_at: one tile per block, a cover grid (select, scan);
// - wb_for_block_tiles: every tile of a set by one block (resident sets that
//   each block reads whole: the L1 and shared-memory ceilings);
// - wb_for_grid_items: tiles of one item per thread, grid-stride, where a
//   thread's work is one item (generators, the instruction ceilings).
// Loops of a block over its shared tables (zeroing, merging) are not tiles
// and stay plain loops.
// Indices are int64 where n may exceed 2^31.
#pragma once

#include <cstdint>
#include <type_traits>

template <bool F>
using wb_full = std::integral_constant<bool, F>;

// Calls tile(base, wb_full<F>{}) for every tile of [0, n) this block owns;
// base is the tile's first item.
template <int ILP, typename Tile>
__device__ __forceinline__ void wb_for_tiles(int64_t n, Tile &&tile) {
    const int64_t span = (int64_t)blockDim.x * ILP;
    const int64_t stride = (int64_t)gridDim.x * span;
    int64_t base = (int64_t)blockIdx.x * span;
    for (; base + span <= n; base += stride) tile(base, wb_full<true>{});
    if (base < n) tile(base, wb_full<false>{});
}

// Calls tile(base, full) for every tile of span items of [0, n) this block
// owns, grid-stride; full (a bool) says whether all its items exist. One
// body serves both cases: cuDF's interpreter checks every row as cuDF does, and
// the compiled expression picks its path per tile (its instruction counts
// in the records come from this shape).
template <typename Tile>
__device__ __forceinline__ void wb_for_tiles_tested(int64_t n, int64_t span, Tile &&tile) {
    for (int64_t base = (int64_t)blockIdx.x * span; base < n; base += (int64_t)gridDim.x * span)
        tile(base, base + span <= n);
}

// Calls tile(base, full) for the tiles of span items of [begin, end) in
// order, all by this block, full (a bool) as in wb_for_tiles_tested: a block
// that owns one contiguous chunk of the input (the partition histogram and
// scatter, whose blocks each count and then write their own chunk, so that
// a block's keys of one partition land in one run). With begin a multiple of
// span and end either a multiple of it or n, only the input's last tile is
// partial.
template <typename Tile>
__device__ __forceinline__ void wb_for_chunk_tiles(int64_t begin, int64_t end, int64_t span, Tile &&tile) {
    for (int64_t base = begin; base < end; base += span) tile(base, base + span <= end);
}

// Calls tile(base, full, v) for the tiles wb_for_tiles walks, where v holds
// what load(base, full, v) read for that tile one trip earlier: the next
// tile's loads are in flight while this one is processed, so that a kernel
// whose tile work waits on other memory (the ssb bitmap form's queued
// batches) still keeps its input stream busy. full (a bool): all of the
// tile's items exist. V is a plain struct of register arrays.
template <int ILP, typename V, typename Load, typename Tile>
__device__ __forceinline__ void wb_for_tiles_ahead(int64_t n, Load &&load, Tile &&tile) {
    const int64_t span = (int64_t)blockDim.x * ILP;
    const int64_t stride = (int64_t)gridDim.x * span;
    int64_t base = (int64_t)blockIdx.x * span;
    V v{};
    if (base < n) load(base, base + span <= n, v);
    for (; base < n; base += stride) {
        V next{};
        if (base + stride < n) load(base + stride, base + stride + span <= n, next);
        tile(base, base + span <= n, v);
        v = next;
    }
}

// Calls tile(base, wb_full<F>{}) for the tiles of [0, n) that this block
// claims: CLAIM tiles at a time, in order, from *next (zero at launch), so
// that at any moment the grid works on about grid x CLAIM neighbouring
// tiles. A grid-stride walk lets blocks drift apart over hundreds of trips
// (2^28 partitioned keys: every probe of a 4 MiB slice missed L2, DRAM 17.9
// GB as for unpartitioned keys, record 47c0bec); claims keep the window
// narrow. One global atomic and two barriers per claim.
template <int ILP, int CLAIM, typename Tile>
__device__ __forceinline__ void wb_for_claimed_tiles(int64_t n, unsigned long long *next, Tile &&tile) {
    __shared__ unsigned long long claimed;
    const int64_t span = (int64_t)blockDim.x * ILP;
    const unsigned long long tiles = (unsigned long long)((n + span - 1) / span);
    for (;;) {
        if (threadIdx.x == 0) claimed = atomicAdd(next, (unsigned long long)CLAIM);
        __syncthreads();
        const unsigned long long first = claimed;
        __syncthreads(); /* every thread has read it before the next claim */
        if (first >= tiles) return;
        for (unsigned long long t = first; t < first + CLAIM && t < tiles; t++) {
            const int64_t base = (int64_t)t * span;
            if (base + span <= n) tile(base, wb_full<true>{});
            else tile(base, wb_full<false>{});
        }
    }
}

// Calls tile(base, wb_full<true>{}) for every tile of [0, n) in order, all
// by this block: n must be a multiple of blockDim.x * ILP (the caller's plan
// checks), so that no tile is partial.
template <int ILP, typename Tile>
__device__ __forceinline__ void wb_for_block_tiles(int64_t n, Tile &&tile) {
    // Walks the thread's first item, not the tile base: the same test, as
    // tiles are full, and the L1 and shared ceilings' code of the records.
    for (int64_t first = threadIdx.x; first < n; first += (int64_t)blockDim.x * ILP)
        tile(first - threadIdx.x, wb_full<true>{});
}

// Calls f(i) for i in [0, n), one item per thread per trip, grid-stride.
template <typename I, typename F>
__device__ __forceinline__ void wb_for_grid_items(I n, F &&f) {
    const I stride = (I)gridDim.x * blockDim.x;
    for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}

// Returns tile(valid, wb_full<F>{}) for the tile of TILE items at begin of
// [0, n): valid = TILE when it is full, the items left otherwise.
template <int TILE, typename Tile>
__device__ __forceinline__ auto wb_tile_at(long long n, long long begin, Tile &&tile) {
    const long long left = n - begin;
    return left >= TILE ? tile(TILE, wb_full<true>{}) : tile((int)left, wb_full<false>{});
}

// Where thread t's item k sits in a tile of bt threads striped by vectors of
// V consecutive items: vector k / V of the thread, element k % V of it. V = 1
// is the striped layout (k * bt + t): every warp access is contiguous. The
// block-wide tiles (tile.cuh, bt = BT at compile time) and the grid-stride
// ones (grid_tile.cuh, bt = blockDim.x) both place items with it.
template <int V, typename I>
__device__ __forceinline__ I wb_striped_offset(I t, int k, I bt) {
    return ((I)(k / V) * bt + t) * V + k % V;
}

// Striped items: a thread's k-th item in the tile where its first item is
// `first` (= base + threadIdx.x).
__device__ __forceinline__ int64_t wb_tile_item(int64_t first, int k) { return first + (int64_t)k * blockDim.x; }

// Calls f(k, i) for each of this thread's ILP striped items i of the tile
// at base that exist (all of them in a full tile), k in order. A kernel that
// loads all before storing any calls it twice: first the loads, then the
// stores, so that ILP accesses are in flight. ROLLED keeps one copy of a
// large f (the interpreter).
template <int ILP, bool ROLLED = false, typename Full, typename F>
__device__ __forceinline__ void wb_tile_items(int64_t base, int64_t n, Full full, F &&f) {
    const int64_t first = base + threadIdx.x;
    if constexpr (ROLLED) {
#pragma unroll 1
        for (int k = 0; k < ILP; k++) {
            const int64_t i = wb_tile_item(first, k);
            if (full || i < n) f(k, i);
        }
    } else {
#pragma unroll
        for (int k = 0; k < ILP; k++) {
            const int64_t i = wb_tile_item(first, k);
            if (full || i < n) f(k, i);
        }
    }
}

// Sum over a converged warp by butterfly: every lane gets the total. The one
// warp reduction of kernels/ (block sums, per-warp atomics).
template <typename T>
__device__ __forceinline__ T wb_warp_sum(T x) {
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
    return x;
}
