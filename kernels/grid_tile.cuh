// grid_tile.cuh - the tile layout of the probe and group-by kernels: a
// persistent grid walks tiles of blockDim.x * ILP int32 items grid-stride
// (wb_for_tiles, tile_loop.cuh), and each thread reads its ILP items with the
// widest vector the ILP allows
// (16-byte loads when ILP is a multiple of 4: the group-by target needs them,
// issue 6). Items are striped by vector, so each vector load of a warp is
// one contiguous 512-byte run. Full tiles take an unguarded path; only the
// one partial tile at the end checks bounds. Indices are int64.
//
// The streaming kernels walk the same tiles with striped scalar items
// (wb_tile_items); this header adds the vector layout, from the same offset
// function as tile.cuh's block tiles (wb_striped_offset).
#pragma once

#include <cstdint>
#include <type_traits>
#include <cuda_runtime.h>

#include "kernels/tile_dispatch.cuh"
#include "kernels/tile_loop.cuh"

template <int ILP>
struct wb_grid_tile {
    static_assert(ILP == 1 || ILP == 2 || ILP == 4 || ILP == 8 || ILP == 16, "ILP is 1, 2, 4, 8 or 16");
    static constexpr int vec = ILP % 4 == 0 ? 4 : (ILP % 2 == 0 ? 2 : 1);

    // Index of this thread's item j in the tile that starts at base: vector
    // j / vec of the thread, element j % vec of that vector (tile_loop.cuh's
    // striped offset, tile.cuh's wb_layout::vec with the run-time block).
    static __device__ __forceinline__ int64_t index(int64_t base, int j) {
        return base + wb_striped_offset<vec>((int64_t)threadIdx.x, j, (int64_t)blockDim.x);
    }

    // Streaming (evict-first) loads of this thread's items: the inputs are
    // read once, and must not evict the tables the kernels reuse from L1/L2.
    // Past the end (partial tile) items read as 0 and must be masked by valid().
    template <bool Full>
    static __device__ __forceinline__ void load(const int32_t *__restrict__ x, int64_t base, int64_t n,
                                                int32_t (&v)[ILP]) {
        if constexpr (Full) {
#pragma unroll
            for (int j = 0; j < ILP; j += vec) {
                const int32_t *p = x + index(base, j);
                if constexpr (vec == 4) {
                    int4 q = __ldcs(reinterpret_cast<const int4 *>(p));
                    v[j] = q.x, v[j + 1] = q.y, v[j + 2] = q.z, v[j + 3] = q.w;
                } else if constexpr (vec == 2) {
                    int2 q = __ldcs(reinterpret_cast<const int2 *>(p));
                    v[j] = q.x, v[j + 1] = q.y;
                } else {
                    v[j] = __ldcs(p);
                }
            }
        } else {
#pragma unroll
            for (int j = 0; j < ILP; j++) {
                int64_t i = index(base, j);
                v[j] = i < n ? __ldcs(x + i) : 0;
            }
        }
    }

    template <bool Full>
    static __device__ __forceinline__ bool valid(int64_t base, int j, int64_t n) {
        return Full || index(base, j) < n;
    }
};
