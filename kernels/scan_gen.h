/* scan_gen.h - the scan family's inputs and reference on the GPU: the
 * columns of micro/scan_ref.c's wb_scan_fill bit for bit, and its CPU
 * reference's sum, row and sector counts, from a plain per-sector kernel.
 * Not measured: inputs only. At 2^28 rows a data set took ~1.6 s of host
 * fill, reference and pageable upload on 16 cores (c019eac); here it takes
 * milliseconds and the host never holds the columns. Why it can: each row
 * makes a fixed number of draws from its chunk's stream (counter-based
 * splitmix64, micro/data.h), so row i's draws are known without the rows
 * before it, and membership is wb_perm_at (kernels/perm.h) per row.
 * tests/test_gpu_scan_gen.c holds both to the host. */
#ifndef WB_SCAN_GEN_H
#define WB_SCAN_GEN_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/perm.h"
#include "kernels/scan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One data set, as micro/scan_ref.c's fill defines it (it fills this in:
 * wb_scan_gen_of): row i is a member iff wb_perm_at(perm, i) < k; its draws
 * come from stream wb_chunk_seed(seed, i / chunk), draws_per_row of them,
 * in column order; a member's orderdate lies in [q.date_lo, q.date_hi], a
 * non-member's in [date_min, date_max] outside it. */
typedef struct wb_scan_gen {
    int shape;             /* WB_SCAN_Q11 or WB_SCAN_Q31 */
    int64_t n, k, chunk;   /* rows, members, rows per chunk stream */
    int64_t dim_entries;   /* q3.1: the dimension's size */
    wb_scan_query q;
    wb_perm perm;
    uint64_t seed;
    int32_t date_min, date_max, price_min, regions;
    uint64_t price_span;
    uint64_t dim_stream;   /* q3.1: dim_region[e] is draw e of this stream */
} wb_scan_gen;

/* Enqueues on s the columns of g into device memory: col[0] orderdate, then
 * q1.1's discount, quantity, extendedprice or q3.1's custkey, revenue (n
 * int32 each), and q3.1's dim_region (dim_entries int32). Returns the launch
 * error; cudaErrorInvalidValue when the dates outside the range are empty
 * (a non-member would then draw nothing, and its draws could not be
 * located). */
cudaError_t wb_scan_gen_gpu(const wb_scan_gen *g, int32_t *const col[4], int32_t *dim_region, cudaStream_t s);

/* What the CPU reference (micro/scan_ref.h, wb_scan_reference) counts. */
typedef struct wb_scan_gen_ref {
    long long sum;
    int64_t rows_first, rows_all, need[3], dim_sectors;
} wb_scan_gen_ref;

/* Scratch bytes wb_scan_ref_gpu needs for a dimension of dim_entries. */
size_t wb_scan_ref_gpu_scratch(int64_t dim_entries);
/* The reference of columns col (as wb_scan_gen_gpu lays them out) under q,
 * computed on s and copied to *out (s synchronised). scratch: device memory
 * of wb_scan_ref_gpu_scratch bytes. */
cudaError_t wb_scan_ref_gpu(int shape, int64_t n, const wb_scan_query *q, const int32_t *const col[4],
                            const int32_t *dim_region, int64_t dim_entries, void *scratch, wb_scan_gen_ref *out,
                            cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
