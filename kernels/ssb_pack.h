/* ssb_pack.h - the compressed lineorder columns of the ssb family's
 * `compressed` form: each column bit-packed at the width its domain needs
 * (frame of reference: value - the column's base, one base per column), row
 * r's w bits at bit r x w of a uint32 array (little-endian within and across
 * words), padded by one word so that a row's decode may always read the word
 * after its first. Plain C with __host__ __device__ under nvcc (ssb_gen.h's
 * convention): the GPU encoder computes each word with wb_ssb_packed_word,
 * the CPU tests check the round trip with the same functions.
 *
 * Domains come from the generator's formulas (ssb_gen.h), not from a pass
 * over the data: every value of a column lies in wb_ssb_column_range, which
 * tests/test_ssb_pack.c checks against generated rows; the encoder flags a
 * value outside it (a generator change that broke the range fails the data
 * set instead of packing a wrong value). */
#ifndef WB_KERNELS_SSB_PACK_H
#define WB_KERNELS_SSB_PACK_H

#include <stdint.h>

#include "kernels/ssb.h"
#include "kernels/ssb_gen.h"

/* Bits of the range [lo, hi] as value - lo: at least 1, at most 32. */
static inline WB_SSB_HD int wb_ssb_pack_width(int32_t lo, int32_t hi) {
    uint32_t span = (uint32_t)hi - (uint32_t)lo;
    int w = 1;
    while (w < 32 && (span >> w) != 0) w++;
    return w;
}

/* Words of n rows at width w, with the one word of padding. */
static inline WB_SSB_HD int64_t wb_ssb_pack_words(int64_t n, int w) { return (n * w + 31) / 32 + 1; }

/* The low w bits (w 1..32). */
static inline WB_SSB_HD uint32_t wb_ssb_pack_mask(int w) { return 0xffffffffu >> (32 - w); }

/* Word k of the packing of v[0..n) at width w and base: the bits of every row
 * that overlaps it (rows past n and the padding are 0). One thread a word on
 * the GPU: no two threads write the same word. */
static inline WB_SSB_HD uint32_t wb_ssb_packed_word(const int32_t *v, int64_t n, int32_t base, int w, int64_t k) {
    const int64_t first_bit = 32 * k;
    int64_t r = first_bit / w;
    uint32_t word = 0;
    for (; r < n && r * w < first_bit + 32; r++) {
        const uint32_t x = ((uint32_t)v[r] - (uint32_t)base) & wb_ssb_pack_mask(w);
        const int64_t at = r * w - first_bit; /* -31 .. 31 */
        word |= at >= 0 ? x << at : x >> -at;
    }
    return word;
}

/* Row r of a packed column (the device kernels decode with the same
 * arithmetic: two 32-bit loads, a funnel shift, the mask, the base; modulo
 * 2^32, as the encoder subtracts the base). */
static inline WB_SSB_HD int32_t wb_ssb_unpack(const uint32_t *words, int64_t r, int32_t base, int w) {
    const uint64_t bit = (uint64_t)r * (uint64_t)w;
    const uint64_t pair = (uint64_t)words[bit >> 5] | (uint64_t)words[(bit >> 5) + 1] << 32;
    return (int32_t)(((uint32_t)(pair >> (bit & 31)) & wb_ssb_pack_mask(w)) + (uint32_t)base);
}

/* Every value of lineorder column col (WB_SSB_LO_*, kernels/ssb.h) at sizes
 * z lies in [*lo, *hi], from ssb_gen.h's formulas: dates from 1992-01-01 to
 * the last order day, keys 1-based up to their dimension's rows, quantity
 * 1-50, discount 0-10, and the prices from dbgen's retail price, whose
 * largest value over parts 1..P is at most 90000 + min(20000, P / 10) +
 * 100 min(999, P). Returns 0 for an unknown column. */
static inline WB_SSB_HD int wb_ssb_column_range(int col, const wb_ssb_sizes *z, int32_t *lo, int32_t *hi) {
    const int64_t p = z->part;
    const int32_t price_hi = 90000 + (int32_t)(p / 10 < 20000 ? p / 10 : 20000) + 100 * (int32_t)(p < 999 ? p : 999);
    switch (col) {
    case WB_SSB_LO_ORDERDATE: *lo = WB_SSB_FIRST_DATE, *hi = wb_ssb_datekey(WB_SSB_ORDER_DAYS - 1, 0); return 1;
    case WB_SSB_LO_CUSTKEY: *lo = 1, *hi = (int32_t)z->customer; return 1;
    case WB_SSB_LO_PARTKEY: *lo = 1, *hi = (int32_t)z->part; return 1;
    case WB_SSB_LO_SUPPKEY: *lo = 1, *hi = (int32_t)z->supplier; return 1;
    case WB_SSB_LO_QUANTITY: *lo = 1, *hi = 50; return 1;
    case WB_SSB_LO_EXTENDEDPRICE: *lo = 90000, *hi = 50 * price_hi; return 1;
    case WB_SSB_LO_DISCOUNT: *lo = 0, *hi = 10; return 1;
    case WB_SSB_LO_REVENUE: *lo = 90000 * 90 / 100, *hi = 50 * price_hi; return 1;
    case WB_SSB_LO_SUPPLYCOST: *lo = 6 * 90000 / 10, *hi = 6 * price_hi / 10; return 1;
    default: return 0;
    }
}

#endif
