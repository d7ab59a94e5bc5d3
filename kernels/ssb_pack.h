/* ssb_pack.h - the compressed lineorder columns of the ssb family's
 * `compressed` form: each column bit-packed at the width its domain needs
 * (frame of reference: value - the column's base, one base per column), row
 * r's w bits at bit r x w of a uint32 array (little-endian within and across
 * words), padded by WB_SSB_PACK_PAD words so that a decode may read a few
 * words past its rows' last (wb_ssb_pack_words). Plain C with __host__ __device__ under nvcc (ssb_gen.h's
 * convention): the GPU encoder computes each word with wb_ssb_packed_word,
 * the kernels decode with wb_ssb_unpack and wb_ssb_run_word/_load/_fifth/_decode, and the CPU
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

/* Words of n rows at width w, with WB_SSB_PACK_PAD words of padding: a
 * row's decode reads the word after its first, and a full tile's run of 4
 * rows always loads the 4 words from its first (wb_ssb_run_load), which for
 * a run at the column's end lie up to 3 words past the last row's word (at
 * widths below 8). A packed column holds at most WB_SSB_PACK_ROWS rows
 * (the decoders' index arithmetic). */
#define WB_SSB_PACK_ROWS 4294967296ll
#define WB_SSB_PACK_PAD 4
static inline WB_SSB_HD int64_t wb_ssb_pack_words(int64_t n, int w) { return (n * w + 31) / 32 + WB_SSB_PACK_PAD; }

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

/* The 32 bits at bit sh (0..32) of the pair (lo, hi): at 32, hi (the shift
 * clamps, as __funnelshift_rc does). */
static inline WB_SSB_HD uint32_t wb_ssb_pack_funnel(uint32_t lo, uint32_t hi, uint32_t sh) {
#ifdef __CUDA_ARCH__
    return __funnelshift_rc(lo, hi, sh);
#else
    return (uint32_t)(((uint64_t)hi << 32 | lo) >> (sh < 32 ? sh : 32));
#endif
}

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

/* Row r of a packed column (a batch's gather): two 32-bit loads (the padding
 * makes the second safe), a funnel shift, the mask, the base. r < 2^32
 * (wb_ssb_pack checks), so its bit r w is a 32 x 32-bit product (one
 * IMAD.WIDE.U32) and its word a funnel shift of the two halves, from which
 * the pointer is one more IMAD.WIDE.U32. The first version took the word as
 * (r / 32) w + (r % 32) w / 32 (7 instructions); before it, a 64-bit r x w
 * spilled 208 instead of 136 bytes a thread at ILP 8; written as
 * (uint32_t)(bit >> 5), nvcc made the byte offset in 64-bit shifts and
 * masks. In this form the ILP 8 kernels' spill stores fell from 136 bytes
 * to 0-4 (no clusters) and from 112 to 16 (clusters). */
static inline WB_SSB_HD int32_t wb_ssb_unpack(const uint32_t *words, int64_t r, int32_t base, int w) {
    const uint32_t r32 = (uint32_t)r, lo = r32 * (uint32_t)w; /* r < 2^32: bit r w = hi:lo */
#ifdef __CUDA_ARCH__
    const uint32_t word = __funnelshift_r(lo, __umulhi(r32, (uint32_t)w), 5);
#else
    const uint32_t word = (uint32_t)(((uint64_t)r32 * (uint32_t)w) >> 5);
#endif
    const uint32_t *p = words + word;
    return wb_ssb_pack_pick(WB_SSB_PACK_LOAD(p), WB_SSB_PACK_LOAD(p + 1), lo & 31u, wb_ssb_pack_mask(w), base);
}

/* A lane's run of 4 consecutive rows from r0 in a tile of the compressed
 * form (grid_tile.cuh's 16-byte layout: 4 consecutive rows a vector), in
 * steps, so that a tile's words can be loaded one tile ahead and decoded
 * when the tile runs: wb_ssb_run_load loads the 4 words from the run's first
 * a tile ahead; wb_ssb_run_fifth the fifth, which only runs above 24 bits
 * reach, when the tile runs (so that the words held over the tile before
 * are 4 a run, 8 registers at ILP 8 as the plain keys, not 5); and
 * wb_ssb_run_decode makes the run's 4 rows of the 5.
 *
 * In a tile whose first row is a multiple of 32 (every tile: block x ILP
 * rows, block a multiple of 32) the run's bit offset within its first word,
 * sh = 4 t w mod 32 for thread t, is the thread's alone: the tile's base and
 * the 4 x block rows between a thread's runs are whole words at any width.
 * wb_ssb_run_word gives the first word in 32-bit arithmetic from the tile's
 * base, the run (0 or 1 up to ILP 8), the block and the thread, instead of a
 * 64-bit product of the row and the width. */
#define WB_SSB_PACK_RUN 4
static inline WB_SSB_HD uint32_t wb_ssb_run_word(int64_t base, int run, uint32_t block, uint32_t t, uint32_t w,
                                                 uint32_t *sh) {
    const uint32_t lead = 4u * t * w;
    *sh = lead & 31u;
    return (uint32_t)(base >> 5) * w + (uint32_t)run * (block / 8u) * w + (lead >> 5);
}

/* The 4 words from a run's first, p, unguarded (any = 0: a run past the
 * column's end in the partial tile, zeros): the padding makes them safe for
 * any run that starts before the column's end. No count to compare against
 * a row's position. */
static inline WB_SSB_HD void wb_ssb_run_load(const uint32_t *p, int any, uint32_t wd[WB_SSB_PACK_RUN]) {
    WB_SSB_PACK_UNROLL
    for (int k = 0; k < WB_SSB_PACK_RUN; k++) wd[k] = any ? WB_SSB_PACK_LOAD(p + k) : 0u;
}

/* The run's fifth word where its 4 w bits from sh reach it (sh + 4 w > 128,
 * so w > 24: tested first, the same in every lane), else 0. */
static inline WB_SSB_HD uint32_t wb_ssb_run_fifth(const uint32_t *p, uint32_t sh, int w) {
    return (uint32_t)w > 24u && sh + WB_SSB_PACK_RUN * (uint32_t)w > 32u * WB_SSB_PACK_RUN
               ? WB_SSB_PACK_LOAD(p + WB_SSB_PACK_RUN)
               : 0u;
}

/* a where m is all ones, b where it is 0: one LOP3 with m in a uniform
 * register (inline PTX: written in C, nvcc turned it back into a SEL after
 * a PLOP3 that copied the width's uniform predicate, in every tile). */
static inline WB_SSB_HD uint32_t wb_ssb_pack_either(uint32_t m, uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm("lop3.b32 %0, %1, %2, %3, 0xE4;" : "=r"(d) : "r"(a), "r"(b), "r"(m));
    return d;
#else
    return (a & m) | (b & ~m);
#endif
}

/* Row bits at s (0..32) of the pair (lo, hi): w bits (mask), plus the base
 * (modulo 2^32, as the encoder subtracted it). */
static inline WB_SSB_HD uint32_t wb_ssb_run_row(uint32_t lo, uint32_t hi, uint32_t s, uint32_t mask, uint32_t b) {
    return (wb_ssb_pack_funnel(lo, hi, s) & mask) + b;
}

/* A run's first step: its 4 w bits realigned to bit 0 of a[0..3] (one
 * funnel shift a word, by the thread's sh), then rows 0 and 1 (row 1 a
 * funnel shift by w, clamped: at w = 32 it is a[1]). */
static inline WB_SSB_HD void wb_ssb_run_head(const uint32_t wd[WB_SSB_PACK_RUN + 1], uint32_t sh, uint32_t w,
                                             uint32_t mask, uint32_t b, uint32_t a[WB_SSB_PACK_RUN], int32_t *v) {
    WB_SSB_PACK_UNROLL
    for (int k = 0; k < WB_SSB_PACK_RUN; k++) a[k] = wb_ssb_pack_funnel(wd[k], wd[k + 1], sh);
    v[0] = (int32_t)((a[0] & mask) + b);
    v[1] = (int32_t)wb_ssb_run_row(a[0], a[1], w, mask, b);
}

/* The run's 4 rows from its words, sh its bit offset in wd[0] (rows past a
 * short run's count are not meaningful). After the realignment
 * (wb_ssb_run_head) row i lies at bit i w of a, at an offset that depends
 * on the width alone, which is the same in every lane and every tile: rows
 * 2 and 3 a funnel shift of the pair that holds them, picked by masks of the
 * width (two and four bitwise selects), not by the thread's offset (the
 * first version picked each row's two words among the five by that offset:
 * 14 selects and their compares for 4 rows). The kernel runs this one above
 * 24 bits; below, wb_ssb_run_decode_in. */
static inline WB_SSB_HD void wb_ssb_run_decode(const uint32_t wd[WB_SSB_PACK_RUN + 1], uint32_t sh, int32_t base,
                                               int w, int32_t *v) {
    const uint32_t uw = (uint32_t)w, mask = wb_ssb_pack_mask(w), b = (uint32_t)base;
    uint32_t a[WB_SSB_PACK_RUN];
    wb_ssb_run_head(wd, sh, uw, mask, b, a, v);
    /* row 2 at bit 2w (2..64): in (a[1], a[2]) from 32 on; row 3 at 3w
     * (3..96): in (a[2], a[3]) from 64, (a[1], a[2]) from 32; the shift
     * past the pair's first word clamps at 32 (w = 16 and 32) */
    const uint32_t at2 = 2u * uw, at3 = 3u * uw;
    const uint32_t two = 0u - (uint32_t)(at2 >= 32u), hi3 = 0u - (uint32_t)(at3 >= 64u), mid3 = 0u - (uint32_t)(at3 >= 32u);
    v[2] = (int32_t)wb_ssb_run_row(wb_ssb_pack_either(two, a[1], a[0]), wb_ssb_pack_either(two, a[2], a[1]),
                                   at2 - (two & 32u), mask, b);
    const uint32_t lo3 = wb_ssb_pack_either(hi3, a[2], wb_ssb_pack_either(mid3, a[1], a[0]));
    const uint32_t up3 = wb_ssb_pack_either(hi3, a[3], wb_ssb_pack_either(mid3, a[2], a[1]));
    v[3] = (int32_t)wb_ssb_run_row(lo3, up3, at3 - (hi3 & 32u) - (mid3 & 32u), mask, b);
}

/* The decode where the pairs that hold rows 2 and 3 are given: (a[k2],
 * a[k2 + 1]) and (a[k3], a[k3 + 1]), k2 = 2w / 32 and k3 = 3w / 32
 * (wb_ssb_run_pairs). With k2 and k3 constants at the call, as the kernel's
 * branch on the width makes them, the decode has no selects, and only the
 * words it reads are realigned (2 below 11 bits, 3 below 22). Always
 * inlined: k2 and k3 index a[]. */
#define WB_SSB_PACK_INLINE __attribute__((always_inline))
static inline WB_SSB_HD WB_SSB_PACK_INLINE void wb_ssb_run_decode_in(const uint32_t wd[WB_SSB_PACK_RUN + 1],
                                                                    uint32_t sh, int32_t base, int w, int k2, int k3,
                                                                    int32_t *v) {
    const uint32_t uw = (uint32_t)w, mask = wb_ssb_pack_mask(w), b = (uint32_t)base;
    uint32_t a[WB_SSB_PACK_RUN];
    wb_ssb_run_head(wd, sh, uw, mask, b, a, v);
    v[2] = (int32_t)wb_ssb_run_row(a[k2], a[k2 + 1], 2u * uw - 32u * (uint32_t)k2, mask, b);
    v[3] = (int32_t)wb_ssb_run_row(a[k3], a[k3 + 1], 3u * uw - 32u * (uint32_t)k3, mask, b);
}

/* k2 = 2w / 32 and k3 = 3w / 32 of width w (1..32). */
static inline WB_SSB_HD void wb_ssb_run_pairs(int w, int *k2, int *k3) {
    *k2 = (2 * w) >> 5;
    *k3 = (3 * w) >> 5;
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
