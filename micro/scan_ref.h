/* scan_ref.h - host side of the scan family: SSB-shaped columns whose first
 * predicate (orderdate) passes an exact share of rows, the CPU reference sum,
 * and the 32-byte sectors the direct variant must read, counted from the data.
 * Plain C with no GPU calls, so tests/test_scan_ref.c exercises all of it. */
#ifndef WB_SCAN_REF_H
#define WB_SCAN_REF_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/scan.h"
#include "kernels/scan_gen.h"

/* SSB constants: Q1.1 is d_year = 1993, discount 1..3, quantity < 25;
 * Q3.1's one lookup keeps customers of region 2 of 5 ("ASIA"). */
extern const wb_scan_query wb_scan_ssb;

/* SSB's lineorder : customer ratio (6,000,000 : 30,000 rows per scale factor). */
int64_t wb_scan_dim_entries(int64_t n);

/* Host columns of n rows; the shape's unused columns are NULL. */
typedef struct wb_scan_cols {
    int shape;
    int64_t n;
    int32_t *orderdate;
    int32_t *discount, *quantity, *extendedprice; /* q1.1 */
    int32_t *custkey, *revenue;                   /* q3.1 */
    int32_t *dim_region;                          /* q3.1, dim_entries values */
    int64_t dim_entries;
} wb_scan_cols;

/* What the query must return and what the variants must read. Sectors are
 * 32 bytes, the DRAM access granularity: a column starts 256-byte aligned, so
 * row i lies in sector i / 8 of its column. */
typedef struct wb_scan_expect {
    long long sum;        /* the query's result */
    int64_t rows_first;   /* rows passing orderdate: exactly round(s n) */
    int64_t rows_all;     /* rows passing every predicate */
    int64_t sectors;      /* sectors of one whole column: ceil(n / 8) */
    int64_t need[3];      /* sectors of the 2nd, 3rd (and q1.1's 4th) column
                           * holding a row that still passes before that
                           * column: what direct must load */
    int64_t dim_sectors;  /* q3.1: distinct dimension sectors the lookups touch */
} wb_scan_expect;

/* Fills c's columns (allocated by the caller, n rows; dim_region
 * dim_entries values): exactly wb_exact_k(n, s) rows get an orderdate in
 * [q->date_lo, q->date_hi], chosen by the keyed bijection; the rest get dates
 * in 1992..1998 outside it; discount 0..10, quantity 1..50, prices and revenue
 * 80,000..10,490,000, custkey uniform over the dimension, regions 0..4. */
void wb_scan_fill(wb_scan_cols *c, const wb_scan_query *q, double s, uint64_t seed);
/* The same data set as a spec for the GPU fill (kernels/scan_gen.h), which
 * makes the columns wb_scan_fill would. */
void wb_scan_gen_of(int shape, int64_t n, int64_t dim_entries, const wb_scan_query *q, double s, uint64_t seed,
                    wb_scan_gen *g);

/* The CPU reference: sum, row counts and sector counts of c under q. WB_OK,
 * or WB_ERR when its scratch cannot be allocated. */
int wb_scan_reference(const wb_scan_cols *c, const wb_scan_query *q, wb_scan_expect *x, wb_err *e);

/* 1 for the variants that load a later column only where a row still passes. */
static inline int wb_scan_skips_loads(int variant) {
    return variant == WB_SCAN_DIRECT || variant == WB_SCAN_DIRECT_SECTOR;
}

/* Bytes the variant must move: tiled and direct_noskip every referenced
 * column once, direct the sectors in x->need; q3.1 adds the dimension sectors
 * its lookups touch (all variants look up only rows that passed orderdate). */
double wb_scan_bytes_model(const wb_scan_expect *x, int shape, int variant);

/* WB_OK if the device's sum equals the reference, else WB_ERR naming both. */
int wb_scan_compare(long long got, long long expected, wb_err *e);

#endif
