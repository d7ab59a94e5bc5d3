/* probe.h - the probe family's kernels: a fact column's foreign keys probe a
 * dimension table and the dimension payload is summed over the matches
 * (SELECT SUM(d.val) FROM fact f JOIN dim d ON f.key = d.key, with a filter
 * on dim), plus the two builds. Sources: seed 001 section 4.3 (hash-table size
 * regimes), seed 002 section 3.3 (direct-mapped and 1-byte packed maps).
 *
 * Dimension rows are dense keys 0..D-1 with a value; a row the dimension
 * filter removes has value WB_PROBE_FILTERED, and a probe of its key is a
 * miss. The tables and the layouts the CPU verifier shares: */
#ifndef WB_KERNELS_PROBE_H
#define WB_KERNELS_PROBE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order, then the one plan-only op. */
#define WB_PROBE_VARIANT_LIST(X) \
    /* open addressing, multiplicative hash, linear probing, key compared; 8-byte
     * slots {key, value}: the general join. 2 x 8 / load factor bytes per dim row,
     * so it leaves L1 and L2 first; in DRAM one 64-byte access per probe (random
     * read roof), in L2 the L2 sector rate, plus hash and compare instructions */ \
    X(WB_PROBE_HASH, "hash", "open-addressing hash table, linear probing") \
    /* int32 array indexed by the dense key (SHADB, seed 002 3.3.0.1; Crystal's
     * public "hash join" is this too): one 4-byte load per probe. Key-stream DRAM
     * roof while the table fits L1/L2; random-read roof (4 + 64 B/probe) beyond */ \
    X(WB_PROBE_DIRECT, "direct", "int32 array indexed by the dense key") \
    /* one byte per key, filter and a 7-bit group value in one load, 0xFF = filtered
     * out (seed 002 3.3.0.2): 4x smaller than direct, so it stays L2-resident
     * (key-stream roof) up to 4x more rows */ \
    X(WB_PROBE_PACKED, "packed", "one byte per key: filter and group value") \
    /* insert the passing dim rows with a 64-bit atomicCAS per slot: random
     * read-modify-write roof (atomics at L2) once the table leaves L2 */ \
    X(WB_PROBE_BUILD_HASH, "build_hash", "hash table build, one atomicCAS per row") \
    /* table[key] = value, plain coalesced stores (dense sorted keys): streaming
     * roof, 8 B read + 4 B written per row */ \
    X(WB_PROBE_BUILD_DIRECT, "build_direct", "direct table build, coalesced stores") \
    /* the direct probe after a radix partition of the keys by table slice (their
     * high bits): histogram, scan, scatter, then the direct probe over the
     * partitioned keys, whose consecutive keys hit one L2-sized slice, with
     * tiles claimed in order so that the grid stays within a slice or two. The way
     * past the random-request wall: 16 B/probe of key traffic bought for L2
     * reuse (issue 17) */ \
    X(WB_PROBE_PARTITIONED, "partitioned", "direct probe after a radix partition by table slice") \
    /* the partitioned probe's partitioning alone (histogram, scan, scatter; no
     * probe), the twin of each partitioned point: one timed launch records one
     * time, so the probe's share of a partitioned point is its time less this
     * one's. Streaming roof: the keys read twice and written once, 12 B/key */ \
    X(WB_PROBE_PARTITION, "partition", "the partitioned probe's radix partition alone (no probe)")
typedef enum wb_probe_op {
    WB_PROBE_VARIANT_LIST(WB_VARIANT_ENUM)
    WB_PROBE_VARIANTS,
    WB_PROBE_BUILD_PACKED = WB_PROBE_VARIANTS /* not a point: builds the packed map in plan (plain stores) */
} wb_probe_op;

#define WB_PROBE_FILTERED (-1)   /* value of a filtered dim row, and a direct entry that never matches */
#define WB_PROBE_EMPTY_KEY (-1)  /* key half of an empty hash slot (a slot of all one bits) */
#define WB_PROBE_EMPTY_SLOT 0xFFFFFFFFFFFFFFFFull
#define WB_PROBE_PACKED_NONE 0xFF /* packed byte of a filtered row */
#define WB_PROBE_PACKED_MASK 0x7F /* packed byte of a passing row = value & mask (its "group value") */

typedef struct wb_probe_args {
    const int32_t *fact_keys; /* n foreign keys, each in [0, dim_rows) */
    int64_t n;
    const int32_t *dim_keys;  /* dim_rows keys (0..dim_rows-1) and values (>= 0, or WB_PROBE_FILTERED) */
    const int32_t *dim_vals;
    int64_t dim_rows;
    void *table;              /* hash: uint64 slots[slots], key in the low half, value in the high half;
                                 direct: int32[dim_rows]; packed: uint8[dim_rows] */
    int64_t slots;            /* hash slots, > dim_rows and < 2^32 */
    unsigned long long *out;  /* probes: [0] sum of values over matches, [1] matches; atomically added */
    const struct wb_probe_parts *parts; /* partitioned: its plan and scratch; NULL otherwise */
} wb_probe_args;

/* The partitioned probe's plan: partitions (a power of two, 2..4096) by
 * key >> shift; the histogram and scatter kernels run the same grid, block b
 * owning keys [b * chunk, (b + 1) * chunk) (chunk a multiple of their tile),
 * so that a scan of the per-block counts in partition-major order gives
 * every block its own start in every partition and neither kernel needs a
 * global atomic. Its scratch (carved from one allocation of l->temp_bytes by
 * wb_probe_parts_bind): the partitioned keys, the counts and starts
 * (partitions x grid, entry p * grid + b) and the device scan's storage. */
typedef struct wb_probe_parts {
    int partitions, shift;
    int grid;            /* blocks of the histogram and the scatter */
    int64_t chunk;       /* keys per block */
    int hist_smem, scatter_smem;
    size_t scan_bytes;   /* cub::DeviceScan's temporary storage */
    int32_t *keys;
    unsigned *counts, *starts;
    void *scan_temp;
    unsigned long long *next_tile; /* the probe's tile counter (tile_loop.cuh's claimed walk), zeroed by the histogram */
} wb_probe_parts;

#define WB_PROBE_PARTS_MAX 4096

#ifdef __CUDACC__
#define WB_PROBE_HD __host__ __device__
#else
#define WB_PROBE_HD
#endif

/* Home slot of a key: Fibonacci (multiplicative) hash, range-reduced by a
 * multiply-high so that any slot count works and the load factor is exact. */
static inline WB_PROBE_HD uint64_t wb_probe_home(int32_t key, uint64_t slots) {
    return ((uint64_t)((uint32_t)key * 0x9E3779B1u) * slots) >> 32;
}
static inline WB_PROBE_HD uint64_t wb_probe_slot(int32_t key, int32_t val) {
    return ((uint64_t)(uint32_t)val << 32) | (uint32_t)key;
}

/* Completes l (block, ilp, occupancy_target set by the caller) through
 * wb_plan_kernel with a persistent grid over `items` (fact rows for probes,
 * dim rows for builds). cudaErrorInvalidValue for an ILP outside
 * {1, 2, 4, 8, 16} or a block that is not a multiple of 32. */
cudaError_t wb_probe_plan(wb_probe_op op, wb_launch *l, int64_t items);

/* The partitioned probe and its partition alone: plans the direct probe over
 * n keys into l (as wb_probe_plan; the partition alone launches the same
 * partition and not the probe) and the partition kernels into pp, and sets
 * l->temp_bytes.
 * cudaErrorInvalidValue for partitions outside 2..WB_PROBE_PARTS_MAX or not
 * a power of two, n >= 2^31, or a block wb_probe_plan refuses. */
cudaError_t wb_probe_parts_plan(wb_launch *l, int64_t n, int64_t dim_rows, int partitions, wb_probe_parts *pp);
/* Points pp's scratch into temp (l->temp_bytes bytes) for n keys. */
void wb_probe_parts_bind(wb_probe_parts *pp, void *temp, int64_t n);

/* Enqueues op on s and returns the launch error; a planned grid of 0
 * launches nothing. Probes add into a->out, which the caller zeroes; the
 * hash build needs every slot empty (all one bits) first. The partition
 * alone writes a->parts->keys and leaves a->out alone. */
cudaError_t wb_probe_launch(wb_probe_op op, const wb_launch *l, const wb_probe_args *a, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
