/* ssb.h - the ssb family's kernels: the data generator (ssb_gen.h's formulas,
 * one thread per row) and the 13 Star Schema Benchmark queries in five forms (wb_ssb_form).
 *
 * A query reaches the kernels as a wb_ssb_query: flight 1 is a filtered sum
 * over lineorder ranges (Q1.x filter lo_orderdate directly, as Crystal does);
 * flights 2-4 probe up to four dimensions in the given order, each through a
 * direct-mapped int32 map (indexed by the key; date by lo_orderdate -
 * 19920101) whose entry is -1 for a row the dimension filter removes and
 * otherwise that row's share of the dense group index (code x stride), so the
 * group of a fact row is the sum of its entries and the aggregate is one
 * 64-bit atomicAdd into out[group]. */
#ifndef WB_KERNELS_SSB_H
#define WB_KERNELS_SSB_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"
#include "kernels/ssb_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Query forms, in the order of micro/ssb.c's variant suffixes. */
typedef enum wb_ssb_form {
    WB_SSB_TILED,  /* Crystal (seed 001 section 5): one block per tile of block x ILP rows, striped
                      block-wide loads, each column after the first loaded only for rows still
                      flagged (BlockPredLoad), every dimension (date too) probed through its map,
                      flight 1 summed over the block, one atomic per block */
    WB_SSB_DIRECT, /* seed 002's lifted form: a persistent grid-stride loop, the first column read
                      with vector loads, the rest only for rows still passing (short-circuit), the
                      date join replaced by arithmetic on the yyyymmdd key (range test, year =
                      key / 10000), flight 1 summed per warp; flight 1's predicates run in stages over
                      all ILP items of a thread (each column's loads for the rows still passing issued
                      together: one dependent chain per row left flight 1 at 2.49 ms for Q1.1 at SF 100
                      on the H200 against the tiled form's 1.72) */
    WB_SSB_PACKED, /* direct plus seed 002's two lifted optimizations (section 4): 1-byte dimension maps
                      (the group code, 0xFF = filtered out: the 3 M-row customer map is 3 MB, not 12,
                      and stays in L2) and the group table privatized per block in shared memory (one
                      global atomic per group and block at the end); flight 1 as direct */
    WB_SSB_BITMAP, /* every dimension filter that fits shared memory as a bitmap, one bit a key (supplier
                      and part at SF 100: 25 + 175 KB; customer's 366 KB does not fit), so that these
                      probes run at the key stream's speed instead of the L2's random-request rate
                      (~150 G/s for maps of 1.4-3 M entries on the H200); the bitmaps first, most
                      selective first, then date arithmetic and the packed maps of the dimensions that
                      did not fit, in order of selectivity (micro/ssb_query.c); the group codes of a
                      bitmap dimension read from its packed map only for rows that passed every filter
                      (the first bitmap's: 4-bit codes in shared memory instead, carried by its rows
                      through the queues, where they fit and that filter passes 3% of the rows or more).
                      Persistent blocks of up to 1024 threads load the bitmaps once; a tile tests only the
                      first bitmap over its rows and queues the rows that pass in its warp's queue in shared
                      memory; the rest of the query runs over full batches of queued rows, 4 a lane, so a
                      dead row costs one load and one bit test; group table in shared memory (sm_90 on:
                      the bitmaps after the first may be spread over a thread-block cluster, see
                      wb_ssb_query.cluster). Flight 1 the
                      same way: the date range tested over every row, quantity, discount and price over
                      the queued rows */
    WB_SSB_COMPRESSED, /* the bitmap form's kernel reading lineorder bit-packed (wb_ssb_packed_columns,
                          kernels/ssb_pack.h): the first column's tile load decodes a lane's consecutive
                          items from the words that cover them, a batch's gathers decode single rows;
                          plans, bitmaps, queues and batches as the bitmap form's. Fewer bytes a row
                          (152 bits instead of 288 at SF 100) for a few instructions a value */
    WB_SSB_FORMS
} wb_ssb_form;

/* lineorder columns, in generation order. */
enum { WB_SSB_LO_ORDERDATE, WB_SSB_LO_CUSTKEY, WB_SSB_LO_PARTKEY, WB_SSB_LO_SUPPKEY, WB_SSB_LO_QUANTITY,
       WB_SSB_LO_EXTENDEDPRICE, WB_SSB_LO_DISCOUNT, WB_SSB_LO_REVENUE, WB_SSB_LO_SUPPLYCOST, WB_SSB_LO_COLUMNS };

/* Dimensions, and the lineorder column each joins on. */
enum { WB_SSB_DATE, WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_PART, WB_SSB_DIMS };

typedef struct wb_ssb_columns {
    int32_t *col[WB_SSB_LO_COLUMNS]; /* device, n each */
    int64_t n;
} wb_ssb_columns;

/* A lineorder column bit-packed (kernels/ssb_pack.h): row r is value - base
 * in the `width` bits at bit r x width of words. */
typedef struct wb_ssb_packed_column {
    const uint32_t *words; /* device, wb_ssb_pack_words(n, width) */
    int32_t base;
    int32_t width;         /* 1..32 */
} wb_ssb_packed_column;

/* The compressed form's columns: the nine by name, and the key column of
 * each probe in the query's probe order (the kernels index these by probe
 * position in unrolled loops, as wb_ssb_probe.key). */
typedef struct wb_ssb_packed_columns {
    wb_ssb_packed_column col[WB_SSB_LO_COLUMNS];
    wb_ssb_packed_column key[WB_SSB_DIMS];
    int64_t n;
} wb_ssb_packed_columns;

/* One dimension probe of a query, in probe order. The kernels index these by
 * probe position in unrolled loops, so that no pointer array is indexed at
 * run time (which would put it in local memory). */
typedef struct wb_ssb_probe {
    int dim;                /* WB_SSB_DATE .. WB_SSB_PART */
    const int32_t *key;     /* the lineorder column it joins on (device) */
    const int32_t *map;     /* device map (see above); date: WB_SSB_DATE_SPAN entries */
    const uint8_t *packed;  /* the packed form's map: code = share / stride, or WB_SSB_PACKED_NONE */
    int32_t stride;         /* the dimension's stride in the group index */
    int codes;              /* bitmap form, first probe only: bits holds the key's 4-bit group code (nibble k % 8
                               of word k / 8; WB_SSB_CODE_NONE: filtered out), which its rows carry through
                               the queues: no late lookup */
    const uint32_t *bits;   /* bitmap form: the filter as bits (bit k of word k / 32: key k passes), padded to
                               WB_SSB_BITMAP_ALIGN words; NULL: probe the packed map */
    int32_t bits_words;     /* its words, a multiple of WB_SSB_BITMAP_ALIGN */
    int grouped;            /* whether the query groups by this dimension (bitmap form: look the code up late) */
} wb_ssb_probe;

#define WB_SSB_CODE_NONE 15 /* a 4-bit code: the key is filtered out */

#define WB_SSB_BITMAP_ALIGN 4 /* words: the bitmaps are copied to shared memory in 16-byte vectors */

typedef struct wb_ssb_query {
    int flight;                      /* 1..4; flight 4 sums lo_revenue - lo_supplycost, 2 and 3 lo_revenue */
    int32_t date_lo, date_hi;        /* lo_orderdate range (all flights) */
    int32_t qty_lo, qty_hi;          /* flight 1: lo_quantity range */
    int32_t disc_lo, disc_hi;        /* flight 1: lo_discount range */
    int nprobe;                      /* flights 2-4: dimensions probed, in this order */
    wb_ssb_probe probe[WB_SSB_DIMS];
    int32_t year_base;               /* date's share of the group: (year - base) x its stride */
    int date_last;                   /* bitmap form: the last probe is the date, tested with the measures */
    unsigned long long *out;         /* groups entries (flight 1: one), atomically added; zeroed by the caller */
    int64_t groups;
    int cluster;                     /* bitmap form: blocks per thread-block cluster (2, 4 or 8; sm_90 on); every
                                        bitmap after the first is spread over them (its word w held by block
                                        rank w % cluster at local word w / cluster) and tested over the
                                        SM-to-SM network (distributed shared memory) instead of the L2; 0 or 1:
                                        no cluster. Last, so that the other fields keep their offsets */
    int compact;                     /* bitmap form: a batch compacts the rows that pass its second probe (a
                                        bitmap tested in a batch) to one a lane before the rest of the query;
                                        0: every stage over the batch's 4 rows a lane */
} wb_ssb_query;

#define WB_SSB_PACKED_NONE 0xFF /* packed map entry of a filtered-out dimension row */

/* log2 of a cluster of 2, 4 or 8 blocks (0 below 2). */
static inline WB_SSB_HD int wb_ssb_cluster_lg(int cluster) {
    return cluster >= 8 ? 3 : cluster >= 4 ? 2 : cluster >= 2 ? 1 : 0;
}
/* A block's words of a bitmap of `words` words spread over 2^lg blocks (wb_ssb_query.cluster): every
 * 2^lg-th word, rounded up to 16 bytes, the same in every block so that offsets agree. The kernel lays
 * the bitmaps out by it, the family's plan counts their bytes by it. */
static inline WB_SSB_HD int32_t wb_ssb_spread_words(int32_t words, int lg) {
    return 4 * ((((words + (1 << lg) - 1) >> lg) + 3) / 4);
}

/* Fills the nine columns of c from (seed, row) on s. */
cudaError_t wb_ssb_generate(const wb_ssb_columns *c, const wb_ssb_sizes *z, uint64_t seed, cudaStream_t s);

/* Packs n values of src (device) at width w (1..32) as value - base into dst
 * (device, wb_ssb_pack_words(n, w) words), one thread a word; a value outside
 * [base, base + 2^w) sets *bad (device, an int the caller zeroes).
 * cudaErrorInvalidValue for n above WB_SSB_PACK_ROWS (2^32, SF 715). */
cudaError_t wb_ssb_pack(const int32_t *src, int64_t n, int32_t base, int w, uint32_t *dst, int *bad, cudaStream_t s);

/* Completes l (block, ilp, occupancy_target set) for query q over n rows:
 * tiled covers the rows with one block per tile, the others are persistent
 * (packed: groups x 8 bytes of shared memory, bitmap: plus the bitmaps).
 * cudaErrorInvalidValue for a shape that is not compiled (tiled: blocks 128,
 * 256, 512; bitmap, compressed: at most 1024 threads; compressed: ILP 4 and
 * 8; the others: ILP 1, 2, 4, 8, 16), a bitmap
 * on the date or unaligned, or shared memory beyond a block's. */
cudaError_t wb_ssb_plan(wb_ssb_form form, const wb_ssb_query *q, wb_launch *l, int64_t n);

/* Shared memory of the bitmap form's survivor queues at a launch shape (beside
 * its bitmaps and group table), with 4-byte entries that carry the first probe's
 * codes where `codes`: what a plan of its bitmaps must leave free. */
int64_t wb_ssb_bitmap_queue_bytes(int block, int ilp, int codes);

/* Enqueues the query's one kernel on s; a planned grid of 0 launches nothing.
 * The compressed form reads pc (the others c; either may be NULL where the
 * form does not read it). */
cudaError_t wb_ssb_launch(wb_ssb_form form, const wb_launch *l, const wb_ssb_columns *c,
                          const wb_ssb_packed_columns *pc, const wb_ssb_query *q, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
