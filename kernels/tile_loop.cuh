// tile_loop.cuh - the one tile loop of the suite, and where a thread's items
// sit in a tile. A tile is blockDim.x * ILP
// items (BT * IPT in tile.cuh's terms); a kernel handles each tile either
// full (all items exist: unguarded, vectorized where the layout allows) or as
// the one partial tile at the end (bounds checked: Crystal's BlockLoad
// habit), so the main path has no tail branch. Which one is a type,
// wb_full<F>, so that `if (full || i < n)` folds to nothing on the full path
// and `decltype(full)::value` is a template argument. Two walks:
// - wb_for_tiles: the block owns tiles grid-stride, so that the same kernel
//   runs with a grid that covers the input or with a persistent one
//   (transform, ceiling, probe, group-by);
// - wb_tile_at: one tile per block, a cover grid (select, scan).
// Indices are int64: n may exceed 2^31.
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
// stores, so that ILP accesses are in flight.
template <int ILP, typename Full, typename F>
__device__ __forceinline__ void wb_tile_items(int64_t base, int64_t n, Full full, F &&f) {
    const int64_t first = base + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ILP; k++) {
        const int64_t i = wb_tile_item(first, k);
        if (full || i < n) f(k, i);
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
