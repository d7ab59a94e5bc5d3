/* ssb_pack.h - the compressed lineorder columns of the ssb family's
 * `compressed` form: each column bit-packed at the width its domain needs
 * (frame of reference: value - the column's base, one base per column), row
 * r's w bits at bit r x w of a uint32 array (little-endian within and across
 * words), padded by one word so that a row's decode may always read the word
 * after its first. Plain C with __host__ __device__ under nvcc (ssb_gen.h's
 * convention): the GPU encoder computes each word with wb_ssb_packed_word,
 * the kernels decode with wb_ssb_unpack and wb_ssb_run_load/_decode, and the CPU
 * tests check the round trip through the same functions.
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

/* Words of n rows at width w, with the one word of padding. A packed column
 * holds at most WB_SSB_PACK_ROWS rows (wb_ssb_unpack's index arithmetic). */
#define WB_SSB_PACK_ROWS 4294967296ll
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

/* The decoders below are the GPU kernels' own (kernels/ssb.cu calls them),
 * so the CPU tests check the code the compressed form runs. On the GPU a
 * word is a streaming load (read once) and a row comes out of its two words
 * by a funnel shift. */
#ifdef __CUDA_ARCH__
#define WB_SSB_PACK_LOAD(p) __ldcs(p)
#define WB_SSB_PACK_UNROLL _Pragma("unroll")
#else
#define WB_SSB_PACK_LOAD(p) (*(p))
#define WB_SSB_PACK_UNROLL
#endif

/* The row at bit sh of the pair (lo, hi), w bits (mask), plus the base
 * (modulo 2^32, as the encoder subtracted it). */
static inline WB_SSB_HD int32_t wb_ssb_pack_pick(uint32_t lo, uint32_t hi, uint32_t sh, uint32_t mask, int32_t base) {
#ifdef __CUDA_ARCH__
    const uint32_t x = __funnelshift_r(lo, hi, sh);
#else
    const uint32_t x = (uint32_t)(((uint64_t)hi << 32 | lo) >> sh);
#endif
    return (int32_t)((x & mask) + (uint32_t)base);
}

/* Row r of a packed column: two 32-bit loads (the padding word makes the
 * second safe), a funnel shift, the mask, the base. The word index in 32-bit
 * arithmetic (r = 32 (r / 32) + r % 32; so r < 2^32, which wb_ssb_pack
 * checks): against a 64-bit product, ptxas spilled 208 instead of 136 bytes a
 * thread in the compressed kernels' 4-row batches at ILP 8. */
static inline WB_SSB_HD int32_t wb_ssb_unpack(const uint32_t *words, int64_t r, int32_t base, int w) {
    const uint32_t low = ((uint32_t)r & 31u) * (uint32_t)w;
    const uint32_t *p = words + ((uint32_t)(r >> 5) * (uint32_t)w + (low >> 5));
    return wb_ssb_pack_pick(WB_SSB_PACK_LOAD(p), WB_SSB_PACK_LOAD(p + 1), low & 31u, wb_ssb_pack_mask(w), base);
}

/* A lane's run of 4 consecutive rows from r0 in a tile of the compressed
 * form (grid_tile.cuh's 16-byte layout: 4 consecutive rows a vector), in two
 * steps, so that a tile's words can be loaded one tile ahead and decoded
 * when the tile runs. wb_ssb_run_load loads the words that cover the run's
 * first `count` rows (0 to 4: a partial tile's run may end early), at most 5,
 * each once (not twice a row), the rest 0; wb_ssb_run_decode makes the 4
 * rows of them (rows past count are not meaningful), each from its two words
 * picked by selects, since an index into a register array at run time would
 * put it in local memory. */
#define WB_SSB_PACK_RUN 4
static inline WB_SSB_HD void wb_ssb_run_load(const uint32_t *words, int64_t r0, int w, int count,
                                             uint32_t wd[WB_SSB_PACK_RUN + 1]) {
    const uint64_t bit = (uint64_t)r0 * (uint32_t)w;
    const uint32_t *p = words + (bit >> 5);
    const uint32_t need = count > 0 ? (((uint32_t)bit & 31u) + (uint32_t)count * (uint32_t)w + 31u) >> 5 : 0u;
    WB_SSB_PACK_UNROLL
    for (int k = 0; k <= WB_SSB_PACK_RUN; k++) wd[k] = (uint32_t)k < need ? WB_SSB_PACK_LOAD(p + k) : 0u;
}
static inline WB_SSB_HD void wb_ssb_run_decode(const uint32_t wd[WB_SSB_PACK_RUN + 1], int64_t r0, int32_t base, int w,
                                               int32_t *v) {
    const uint32_t uw = (uint32_t)w, mask = wb_ssb_pack_mask(w), sh = ((uint32_t)r0 * uw) & 31u;
    WB_SSB_PACK_UNROLL
    for (int i = 0; i < WB_SSB_PACK_RUN; i++) {
        const uint32_t at = sh + (uint32_t)i * uw, k = at >> 5; /* k <= i */
        uint32_t lo = wd[0], hi = wd[1];
        WB_SSB_PACK_UNROLL
        for (int m = 1; m <= i; m++)
            if (k == (uint32_t)m) lo = wd[m], hi = wd[m + 1];
        v[i] = wb_ssb_pack_pick(lo, hi, at & 31u, mask, base);
    }
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
