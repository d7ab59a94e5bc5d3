/* select.h - SELECT y FROM R WHERE y < v on int32, nine ways: how the
 * predicate becomes a flag (if: a branch per element; pred: a branch-free 0/1
 * flag) times how survivors find their output slot, plus CUB as the peer.
 * Input order is kept by *_three_kernel and cub; the others write the same
 * multiset in any order. Plan first (sizes, scratch), then launch: launch only
 * enqueues. Model bytes of every variant: 4n read + 4 * count written. */
#ifndef WB_SELECT_H
#define WB_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order; names as in point names and the variant column. */
#define WB_SELECT_VARIANT_LIST(X) \
    /* Crystal Fig 4a: count per thread, a device-wide prefix sum over the
     * counts, a second pass that re-reads the input and writes at the offsets.
     * Keeps input order. Reads the input twice and moves 24 bytes per thread
     * of counts and offsets (write, scan, read): at ILP 4, 14n + 4sn bytes
     * for the model's 4n + 4sn, so 1.8-3.5x the model time on the DRAM roof. */ \
    X(WB_SELECT_IF_THREE_KERNEL, "if_three_kernel", "count, prefix sum, write pass; branch on the predicate") \
    X(WB_SELECT_PRED_THREE_KERNEL, "pred_three_kernel", "count, prefix sum, write pass; predicated") \
    /* One global atomicAdd per selected element on one counter: bound by the
     * L2's same-address atomic rate, not by DRAM, and slower as s grows. */ \
    X(WB_SELECT_IF_ATOMIC, "if_atomic", "one global atomic per survivor; branch") \
    X(WB_SELECT_PRED_ATOMIC, "pred_atomic", "one global atomic per survivor; predicated") \
    /* One atomicAdd per warp per tile, slots from ballot/popc: atomics cut
     * 32 x IPT-fold; near the bandwidth roof until the per-warp atomic rate
     * binds. */ \
    X(WB_SELECT_IF_WARP, "if_warp", "one atomic per warp per tile (ballot/popc); branch") \
    X(WB_SELECT_PRED_WARP, "pred_warp", "one atomic per warp per tile (ballot/popc); predicated") \
    /* Crystal Fig 4b/6, one block per tile: one block-wide scan and one
     * atomicAdd per tile, survivors shuffled into a contiguous run in shared
     * memory, stored coalesced: should sit on the model 4n/Br + 4sn/Bw. */ \
    X(WB_SELECT_IF_TILE, "if_tile", "Crystal tile: block scan, one atomic per tile, coalesced run; branch") \
    X(WB_SELECT_PRED_TILE, "pred_tile", "Crystal tile: block scan, one atomic per tile, coalesced run; predicated") \
    /* cub::DeviceSelect::If, order-preserving single pass (decoupled
     * look-back): the library peer for the tile variants. */ \
    X(WB_SELECT_CUB, "cub", "cub::DeviceSelect::If (library peer)")
typedef enum wb_select_variant { WB_SELECT_VARIANT_LIST(WB_VARIANT_ENUM) WB_SELECT_VARIANTS } wb_select_variant;

/* 1 if the variant writes its output in input order. */
int wb_select_keeps_order(int variant);

typedef struct wb_select_io {
    const int32_t *in;
    int64_t n;
    int32_t v;                   /* select in[i] < v */
    int32_t *out;                /* n slots; the first *count hold the result */
    unsigned long long *count;   /* selected count; 0 before each launch (the atomic variants add to it) */
    void *temp;                  /* scratch of wb_select_plan's temp size */
    size_t temp_bytes;
} wb_select_io;

/* Completes l for variant on n items (grid, smem with occupancy padding,
 * regs, blocks per SM, occupancy, waves; cub leaves them as they are) and sets
 * l->temp_bytes. l->block and l->ilp must be a compiled shape
 * (tile_shape.h) except for cub. Returns the first CUDA error. */
cudaError_t wb_select_plan(int variant, wb_launch *l, int64_t n);

/* Enqueues the variant on s; nothing when n is 0. Returns the launch error. */
cudaError_t wb_select_launch(int variant, const wb_launch *l, const wb_select_io *io, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
