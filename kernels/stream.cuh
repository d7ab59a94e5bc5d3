// stream.cuh - the tile loop of the streaming kernels (transform, ceiling):
// a block owns tiles of blockDim.x * ILP items, striped (thread t handles
// items t, t + blockDim.x, ...), and walks them grid-stride so that the same
// kernel runs with a grid that covers the input or with a persistent one.
// Full tiles take an unguarded path; only the one partial tile at the end
// checks bounds (Crystal's BlockLoad habit), so the main loop has no tail
// branch. Indices are int64: n may exceed 2^31.
#pragma once

#include <cstdint>

// Whether a tile is full, as a type: `if (full || i < n)` folds to nothing
// on the full path.
template <bool Full>
struct wb_full_tile {
    __host__ __device__ constexpr operator bool() const { return Full; }
};

// Calls tile(first, full) for every tile of [0, n) this block owns; first is
// this thread's first item, its others are first + k * blockDim.x, k < ILP.
template <int ILP, typename Tile>
__device__ __forceinline__ void wb_for_tiles(int64_t n, Tile &&tile) {
    const int64_t span = (int64_t)blockDim.x * ILP;
    const int64_t stride = (int64_t)gridDim.x * span;
    int64_t base = (int64_t)blockIdx.x * span;
    for (; base + span <= n; base += stride) tile(base + threadIdx.x, wb_full_tile<true>{});
    if (base < n) tile(base + threadIdx.x, wb_full_tile<false>{});
}

// Index of a thread's k-th item in the tile that starts at its item `first`.
__device__ __forceinline__ int64_t wb_tile_item(int64_t first, int k) { return first + (int64_t)k * blockDim.x; }
