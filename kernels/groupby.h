/* groupby.h - the group-by family's kernels: SUM(val) GROUP BY key over int32
 * keys in [0, groups) and int32 values, 64-bit sums (two's complement, so
 * the unsigned atomics add signed values exactly). Sources: seed 002
 * 3.3.0.3 (shared-memory privatized group-by), seed 000 section 7
 * (libcudf's single_pass_shmem_aggs_kernel). */
#ifndef WB_KERNELS_GROUPBY_H
#define WB_KERNELS_GROUPBY_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order; names as in point names and the variant column. */
#define WB_GROUPBY_VARIANT_LIST(X) \
    /* one global atomicAdd per row into the result table (Crystal, SYCLDB): the
     * L2 atomic roof; with few groups every row queues on the same few addresses */ \
    X(WB_GROUPBY_GLOBAL, "global", "one global atomicAdd per row") \
    /* per-block privatized table in shared memory, one global atomic per non-zero
     * group per block at the end (SHADB, libcudf's shmem aggs): should reach the
     * read roof for its 8 B/row while the table fits; see wb_groupby_table */ \
    X(WB_GROUPBY_SHARED, "shared", "per-block table in shared memory, merged with one global atomic per group") \
    /* cub::DeviceRadixSort::SortPairs (all 32 key bits, CUB's default) then
     * cub::DeviceReduce::ReduceByKey: the peer a user would pick; several passes
     * over the rows, its own tuning, no ILP/occupancy axes */ \
    X(WB_GROUPBY_SORT, "sort", "CUB radix sort then reduce-by-key (library peer)")
typedef enum wb_groupby_variant { WB_GROUPBY_VARIANT_LIST(WB_VARIANT_ENUM) WB_GROUPBY_VARIANTS } wb_groupby_variant;

/* How private the shared variant's table is: the most private layout that
 * still fits the shared memory a block may use at full occupancy, because
 * contention on one shared address serialises a warp (64-bit shared
 * atomicAdd is a compare-and-swap loop on sm_90: ATOMS.CAST.SPIN.64). */
typedef enum wb_groupby_table {
    WB_GROUPBY_TABLE_REGS,   /* groups == 1: a register per thread, no atomics */
    WB_GROUPBY_TABLE_THREAD, /* a table per thread (plain read-modify-write, no atomics) */
    WB_GROUPBY_TABLE_WARP,   /* a table per warp: contention only inside a warp */
    WB_GROUPBY_TABLE_BLOCK,  /* one table per block */
    WB_GROUPBY_TABLE_GLOBAL, /* does not fit shared memory: the global variant runs instead */
    WB_GROUPBY_TABLES
} wb_groupby_table;

typedef struct wb_groupby_args {
    const int32_t *keys, *vals; /* n rows; keys in [0, groups) */
    int64_t n, groups;
    unsigned long long *result; /* global, shared: groups sums, zeroed by the caller, added atomically */
    /* sort: n sorted keys and values, then up to min(n, groups) runs */
    int32_t *sorted_keys, *sorted_vals, *unique_keys;
    long long *sums, *runs;     /* sums per run; runs: one count */
    void *temp;                 /* CUB temporary storage of temp_bytes */
    size_t temp_bytes;
} wb_groupby_args;

/* Completes l for a variant. global/shared: wb_plan_kernel with a
 * persistent grid and, for shared, the table's dynamic shared memory;
 * *table receives the shared layout (WB_GROUPBY_TABLE_GLOBAL when it fell
 * back; -1 for global and sort). sort: sets l->temp_bytes to the CUB
 * temporary storage of n rows and leaves the rest of l alone.
 * cudaErrorInvalidValue for an ILP outside {1, 2, 4, 8, 16}, a block that is
 * not a multiple of 32, groups outside [1, 2^31), or sort with n >= 2^31. */
cudaError_t wb_groupby_plan(wb_groupby_variant v, int64_t n, int64_t groups, wb_launch *l, int *table);

/* Enqueues the variant (the shared one with the layout plan chose) on s and
 * returns the first error; a planned grid of 0 launches nothing. */
cudaError_t wb_groupby_launch(wb_groupby_variant v, int table, const wb_launch *l, const wb_groupby_args *a,
                              cudaStream_t s);

/* Bytes of shared memory a table layout takes for a block, 0 for regs/global. */
size_t wb_groupby_table_bytes(int table, int block, int64_t groups);
/* "regs", "thread", "warp", "block", "global". */
const char *wb_groupby_table_name(int table);

#ifdef __cplusplus
}
#endif
#endif
