/* scan.h - an SSB-shaped scan with a filtered 64-bit SUM, three ways (seed
 * 002 section 3.2, Table 2): Crystal's tile model, SHADB's direct grid-stride
 * kernel that skips the loads of rows already filtered out, and direct with
 * every load. Two query shapes:
 *   q1.1: SUM(extendedprice * discount) WHERE orderdate in [lo, hi]
 *         AND discount BETWEEN disc_lo AND disc_hi AND quantity < qty_below
 *   q3.1: SUM(revenue) WHERE orderdate in [lo, hi]
 *         AND dim_region[custkey] = region  (one dense-key dimension lookup)
 * Plan first, then launch: launch only enqueues. */
#ifndef WB_SCAN_H
#define WB_SCAN_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order; names as in point names and the variant column. */
#define WB_SCAN_VARIANT_LIST(X) \
    /* Crystal: one block per tile of ILP x block rows, every referenced
     * column loaded for the whole tile, flags, masked sum, block reduce, one
     * atomic per block. Moves every column at any selectivity: DRAM roof at
     * all referenced columns. */ \
    X(WB_SCAN_TILED, "tiled", "Crystal tiles: every column loaded for the whole tile") \
    /* SHADB: persistent grid-stride threads (grid = occupancy x SMs), 16-byte
     * loads of orderdate, each later column loaded 16 bytes at a time only
     * where a row of that vector still passes, register accumulator, one
     * atomic per block. DRAM roof at the sectors it must touch, which shrink
     * with the selectivity. */ \
    X(WB_SCAN_DIRECT, "direct", "SHADB grid-stride: later columns loaded only where a row still passes") \
    /* direct, but loading every column for every row: separates skipping
     * loads from tiling. Same bytes, and so the same roof, as tiled. */ \
    X(WB_SCAN_DIRECT_NOSKIP, "direct_noskip", "direct loading every column for every row") \
    /* direct's kernel with the L2 fetching single 32-byte sectors on a miss
     * (cudaLimitMaxL2FetchGranularity = 32, set by the family's plan; the
     * H200's default is 64). direct's sparse later columns then cost the
     * sectors they need instead of 64-byte pairs. */ \
    X(WB_SCAN_DIRECT_SECTOR, "direct_sector", "direct with 32-byte L2 fetches")
typedef enum wb_scan_variant { WB_SCAN_VARIANT_LIST(WB_VARIANT_ENUM) WB_SCAN_VARIANTS } wb_scan_variant;

typedef enum wb_scan_shape { WB_SCAN_Q11, WB_SCAN_Q31, WB_SCAN_SHAPES } wb_scan_shape;

/* The predicates' constants. */
typedef struct wb_scan_query {
    int32_t date_lo, date_hi; /* orderdate in [date_lo, date_hi] */
    int32_t disc_lo, disc_hi; /* q1.1: discount in [disc_lo, disc_hi] */
    int32_t qty_below;        /* q1.1: quantity < qty_below */
    int32_t region;           /* q3.1: dim_region[custkey] == region */
} wb_scan_query;

typedef struct wb_scan_io {
    int64_t n;                                          /* fact rows */
    const int32_t *orderdate;                           /* both shapes */
    const int32_t *discount, *quantity, *extendedprice; /* q1.1 */
    const int32_t *custkey, *revenue;                   /* q3.1 */
    const int32_t *dim_region;                          /* q3.1: indexed by custkey (dense keys) */
    wb_scan_query q;
    unsigned long long *sum; /* int64 result, two's complement; 0 before each launch */
} wb_scan_io;

/* Completes l for (variant, shape) on n rows: grid (tiled: one block per
 * tile; direct: resident blocks x SMs, fewer for small n), smem with occupancy
 * padding, regs, blocks per SM, occupancy, waves; temp_bytes = 0. l->block
 * and l->ilp must be a compiled shape (tile_shape.h). */
cudaError_t wb_scan_plan(int variant, int shape, wb_launch *l, int64_t n);

/* Enqueues the kernel on s; nothing when n is 0. Returns the launch error. */
cudaError_t wb_scan_launch(int variant, int shape, const wb_launch *l, const wb_scan_io *io, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
