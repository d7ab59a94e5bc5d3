/* ssb_gen.h - the Star Schema Benchmark data of the ssb family, as formulas:
 * every value is a function of (seed, row), so the GPU fills 600 M rows in
 * one kernel and the CPU reference recomputes the same values without a copy.
 * Plain C with __host__ __device__ under nvcc.
 *
 * Cardinalities (SSB specification, O'Neil et al. 2009, section 2): SF =
 * lineorder rows / 6,000,000 (the suite's n axis; any n works, odd ones too);
 * customer 30,000 x SF, supplier 2,000 x SF, part 200,000 x (1 + floor(log2
 * SF)) for SF >= 1 (200,000 x SF below), date 2,556 days from 1992-01-01.
 * Rows are at least 1.
 *
 * Distributions (dbgen's): lo_orderdate uniform over the 2,406 order days
 * 1992-01-01 .. 1998-08-02 (the end date less 151 days); lo_custkey,
 * lo_partkey, lo_suppkey uniform over their dimension's keys (1-based);
 * lo_quantity uniform 1..50; lo_discount uniform 0..10; lo_extendedprice =
 * lo_quantity x p_retailprice(partkey) in cents, with dbgen's retail price
 * 90000 + (partkey / 10) mod 20001 + 100 (partkey mod 1000); lo_revenue =
 * extendedprice (100 - discount) / 100; lo_supplycost = 6 p_retailprice / 10.
 * Lines are drawn independently (no order groups: no query looks at orders).
 *
 * Strings are dense ints, as in Crystal: c_city / s_city 0..249 uniform,
 * nation = city / 10 (the 25 TPC-H nations in name order), region = the
 * nation's TPC-H region (0 AFRICA, 1 AMERICA, 2 ASIA, 3 EUROPE, 4 MIDDLE
 * EAST); p_brand1 0..999 uniform, p_category = brand / 40, p_mfgr = category
 * / 5, so 'MFGR#m' = m - 1, 'MFGR#mc' = 5 (m - 1) + c - 1 and 'MFGR#mcb' =
 * 40 category + b - 1 ('MFGR#2221' = 260). Dates are yyyymmdd ints. */
#ifndef WB_KERNELS_SSB_GEN_H
#define WB_KERNELS_SSB_GEN_H

#include <stdint.h>

#include "kernels/splitmix.h"

#ifdef __CUDACC__
#define WB_SSB_HD __host__ __device__
#else
#define WB_SSB_HD
#endif

#define WB_SSB_ROWS_PER_SF 6000000.0
#define WB_SSB_DAYS 2556        /* rows of the date table: 1992-01-01 .. 1998-12-30 */
#define WB_SSB_ORDER_DAYS 2406  /* lo_orderdate's range: 1992-01-01 .. 1998-08-02 */
#define WB_SSB_FIRST_DATE 19920101
#define WB_SSB_DATE_SPAN (19981231 - WB_SSB_FIRST_DATE + 1) /* entries of a map indexed by datekey - first */
#define WB_SSB_CITIES 250
#define WB_SSB_NATIONS 25
#define WB_SSB_REGIONS 5
#define WB_SSB_BRANDS 1000
#define WB_SSB_CATEGORIES 25
#define WB_SSB_MFGRS 5

/* Column salts of the hash (one stream per column). */
enum { WB_SSB_H_DATE, WB_SSB_H_CUST, WB_SSB_H_PART, WB_SSB_H_SUPP, WB_SSB_H_QTY, WB_SSB_H_DISC,
       WB_SSB_H_CCITY, WB_SSB_H_SCITY, WB_SSB_H_BRAND };

typedef struct wb_ssb_sizes {
    int64_t lineorder, customer, supplier, part; /* date: WB_SSB_DAYS */
} wb_ssb_sizes;

static inline WB_SSB_HD uint64_t wb_ssb_hash(uint64_t seed, int salt, uint64_t row) {
    return wb_splitmix(seed ^ ((uint64_t)(salt + 1) * 0xD6E8FEB86659FD93ull) ^ (row * WB_GOLDEN_GAMMA));
}
/* Uniform in [0, m), m < 2^32: multiply-high of the top 32 bits. */
static inline WB_SSB_HD int32_t wb_ssb_below(uint64_t seed, int salt, uint64_t row, int64_t m) {
    return (int32_t)(((wb_ssb_hash(seed, salt, row) >> 32) * (uint64_t)m) >> 32);
}

/* Region of nation 0..24 (ALGERIA .. UNITED STATES), as a 2-bit-per-nation
 * table: AFRICA 0 ALGERIA ETHIOPIA KENYA MOROCCO MOZAMBIQUE, AMERICA 1
 * ARGENTINA BRAZIL CANADA PERU UNITED STATES, ASIA 2 INDIA INDONESIA JAPAN
 * CHINA VIETNAM, EUROPE 3 FRANCE GERMANY ROMANIA RUSSIA UNITED KINGDOM,
 * MIDDLE EAST 4 EGYPT IRAN IRAQ JORDAN SAUDI ARABIA. */
static inline WB_SSB_HD int32_t wb_ssb_region_of(int32_t nation) {
    switch (nation) {
    case 0: case 5: case 14: case 15: case 16: return 0;
    case 1: case 2: case 3: case 17: case 24: return 1;
    case 8: case 9: case 12: case 18: case 21: return 2;
    case 6: case 7: case 19: case 22: case 23: return 3;
    default: return 4;
    }
}

/* Days since 1992-01-01 -> yyyymmdd, and the day of year (1-based). */
static inline WB_SSB_HD int wb_ssb_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static inline WB_SSB_HD int32_t wb_ssb_datekey(int32_t day, int32_t *day_of_year) {
    int y = 1992;
    while (day >= 365 + wb_ssb_leap(y)) day -= 365 + wb_ssb_leap(y), y++;
    if (day_of_year) *day_of_year = day + 1;
    int m = 1;
    for (;;) {
        int len = m == 2 ? 28 + wb_ssb_leap(y) : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
        if (day < len) break;
        day -= len, m++;
    }
    return y * 10000 + m * 100 + day + 1;
}
/* dbgen's d_weeknuminyear: week 1 is days 1-6, then 7 days each (day of year / 7 + 1). */
static inline WB_SSB_HD int32_t wb_ssb_week(int32_t day_of_year) { return day_of_year / 7 + 1; }

static inline WB_SSB_HD int32_t wb_ssb_retailprice(int32_t partkey) {
    return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

/* One lineorder row: the nine columns the 13 queries read. */
typedef struct wb_ssb_line {
    int32_t orderdate, custkey, partkey, suppkey, quantity, extendedprice, discount, revenue, supplycost;
} wb_ssb_line;

static inline WB_SSB_HD wb_ssb_line wb_ssb_line_at(uint64_t seed, const wb_ssb_sizes *z, int64_t row) {
    wb_ssb_line l;
    l.orderdate = wb_ssb_datekey(wb_ssb_below(seed, WB_SSB_H_DATE, (uint64_t)row, WB_SSB_ORDER_DAYS), 0);
    l.custkey = 1 + wb_ssb_below(seed, WB_SSB_H_CUST, (uint64_t)row, z->customer);
    l.partkey = 1 + wb_ssb_below(seed, WB_SSB_H_PART, (uint64_t)row, z->part);
    l.suppkey = 1 + wb_ssb_below(seed, WB_SSB_H_SUPP, (uint64_t)row, z->supplier);
    l.quantity = 1 + wb_ssb_below(seed, WB_SSB_H_QTY, (uint64_t)row, 50);
    l.discount = wb_ssb_below(seed, WB_SSB_H_DISC, (uint64_t)row, 11);
    int32_t price = wb_ssb_retailprice(l.partkey);
    l.extendedprice = l.quantity * price;
    l.revenue = (int32_t)((int64_t)l.extendedprice * (100 - l.discount) / 100);
    l.supplycost = 6 * price / 10;
    return l;
}

/* Dimension attributes of a 1-based key: the city (customer, supplier) or
 * brand (part) is drawn; coarser levels follow from it. */
static inline WB_SSB_HD int32_t wb_ssb_c_city(uint64_t seed, int32_t key) {
    return wb_ssb_below(seed, WB_SSB_H_CCITY, (uint64_t)key, WB_SSB_CITIES);
}
static inline WB_SSB_HD int32_t wb_ssb_s_city(uint64_t seed, int32_t key) {
    return wb_ssb_below(seed, WB_SSB_H_SCITY, (uint64_t)key, WB_SSB_CITIES);
}
static inline WB_SSB_HD int32_t wb_ssb_p_brand(uint64_t seed, int32_t key) {
    return wb_ssb_below(seed, WB_SSB_H_BRAND, (uint64_t)key, WB_SSB_BRANDS);
}

#endif
