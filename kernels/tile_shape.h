/* tile_shape.h - the (block, ILP) shapes the tiled kernels are compiled for
 * (kernels/tile_dispatch.cuh): blocks of 128, 256, 512 threads, 1, 2, 4, 8,
 * 16 items per thread. Plain C so that micro/ can skip other shapes before
 * planning. */
#ifndef WB_TILE_SHAPE_H
#define WB_TILE_SHAPE_H

static inline int wb_tile_shape_ok(int block, int ilp) {
    return (block == 128 || block == 256 || block == 512) &&
           (ilp == 1 || ilp == 2 || ilp == 4 || ilp == 8 || ilp == 16);
}

#endif
