/* test_ssb_pack.c - the compressed form's packed columns (kernels/ssb_pack.h):
 * the round trip at every width 1-32 over sizes that are no multiple of 32 or
 * of a tile, through the kernels' own decoders (a row, and a tile's run of
 * 4 rows, its words loaded unguarded into the padding), a full tile's run
 * addresses, the width rule, the columns' ranges against generated rows (and
 * that the data need every bit of the width), and the bytes model over
 * packed columns. */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "kernels/ssb_pack.h"
#include "micro/ssb_query.h"

/* Packs v[0..n) at width w and base word by word (as the GPU encoder does,
 * one word a thread) and checks every row and every run of 4, the padding
 * and the bits past the last row. */
static void round_trip(const int32_t *v, int64_t n, int32_t base, int w) {
    const int64_t words = wb_ssb_pack_words(n, w);
    CHECK(words == (n * w + 31) / 32 + 4);
    uint32_t *p = malloc((size_t)words * sizeof *p);
    if (!p) {
        CHECK(!"malloc");
        return;
    }
    for (int64_t k = 0; k < words; k++) p[k] = wb_ssb_packed_word(v, n, base, w, k);
    int bad = 0;
    for (int64_t r = 0; r < n; r++) bad += wb_ssb_unpack(p, r, base, w) != v[r];
    CHECK(bad == 0);
    /* the tile load's runs of 4 rows from every first row (every bit offset
     * in a word), cut short at the column's end as in a partial tile: the 4
     * words from the first unguarded, the fifth where the run reaches it,
     * every word loaded inside the column (the last runs read into the
     * padding), and a run past the end loading nothing */
    for (int64_t r0 = 0; r0 < n; r0++) {
        const int count = n - r0 < WB_SSB_PACK_RUN ? (int)(n - r0) : WB_SSB_PACK_RUN;
        const uint32_t sh = (uint32_t)((r0 * w) & 31);
        const int64_t first = (r0 * w) / 32, last = ((r0 + count) * w - 1) / 32 - first;
        const int fifth = sh + WB_SSB_PACK_RUN * (uint32_t)w > 32 * WB_SSB_PACK_RUN; /* its 4 rows reach word 4 */
        bad += fifth != (w > 24 && ((r0 + WB_SSB_PACK_RUN) * w - 1) / 32 - first == WB_SSB_PACK_RUN);
        bad += last > 3 && !fifth;
        bad += first + WB_SSB_PACK_RUN - 1 + fifth >= words;
        uint32_t wd[WB_SSB_PACK_RUN + 1];
        int32_t run[WB_SSB_PACK_RUN];
        wb_ssb_run_load(p + first, 1, wd);
        wd[WB_SSB_PACK_RUN] = wb_ssb_run_fifth(p + first, sh, w);
        if (!fifth) bad += wd[WB_SSB_PACK_RUN] != 0;
        wb_ssb_run_decode(wd, sh, base, w, run);
        for (int i = 0; i < count; i++) bad += run[i] != v[r0 + i];
        /* the kernel's decode at w <= 24, the pairs of rows 2 and 3 given (at every width here) */
        int k2, k3;
        wb_ssb_run_pairs(w, &k2, &k3);
        wb_ssb_run_decode_in(wd, sh, base, w, k2, k3, run);
        for (int i = 0; i < count; i++) bad += run[i] != v[r0 + i];
    }
    uint32_t none[WB_SSB_PACK_RUN] = {1, 1, 1, 1};
    wb_ssb_run_load(NULL, 0, none);
    bad += (none[0] | none[1] | none[2] | none[3]) != 0;
    CHECK(bad == 0);
    for (int k = 1; k <= 4; k++) CHECK(p[words - k] == 0); /* the padding words */
    const int64_t used = n * w;
    if (used % 32) CHECK((p[used / 32] >> (used % 32)) == 0); /* nothing past the last row */
    free(p);
}

static uint64_t next(uint64_t *s) { return *s = wb_splitmix(*s + WB_GOLDEN_GAMMA); }

/* A full tile's first word and bit offset of each thread's run in 32-bit
 * arithmetic (wb_ssb_run_word) equal the row's bit r0 x w at every width, in
 * blocks of 32 to 1024 threads at ILP 4 and 8, up to the last tile of a
 * 2^32-row column (r0 = base + run x 4 x block + 4 t: grid_tile.cuh). */
static void test_run_word(void) {
    static const uint32_t blocks[] = {32, 96, 1024};
    int bad = 0, runs = 0;
    for (int w = 1; w <= 32; w++)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (int ilp = 4; ilp <= 8; ilp += 4) {
                const int64_t span = (int64_t)blocks[b] * ilp, tiles = WB_SSB_PACK_ROWS / span;
                const int64_t some[] = {0, 1, 7, 12345, tiles / 2 + 3, tiles - 1};
                for (size_t i = 0; i < sizeof some / sizeof some[0]; i++)
                    for (uint32_t t = 0; t < blocks[b]; t += t < 40 ? 1 : 37)
                        for (int run = 0; run < ilp / WB_SSB_PACK_RUN; run++) {
                            const int64_t base = some[i] * span, r0 = base + (int64_t)run * 4 * blocks[b] + 4 * (int64_t)t;
                            uint32_t sh;
                            const uint32_t word = wb_ssb_run_word(base, run, blocks[b], t, (uint32_t)w, &sh);
                            bad += (int64_t)word != (r0 * w) >> 5 || sh != (uint32_t)((r0 * w) & 31);
                            runs++;
                        }
            }
    CHECK(bad == 0);
    CHECK(runs > 10000);
}

static void test_round_trip(void) {
    /* 1024 threads x ILP 4 is the compressed form's tile: sizes around it and 32 */
    static const int64_t ns[] = {1, 2, 31, 33, 63, 97, 1000, 4095, 4097, 12289 + 7};
    enum { MOST = 12296 };
    int32_t *v = malloc(MOST * sizeof *v);
    if (!v) {
        CHECK(!"malloc");
        return;
    }
    uint64_t s = 42;
    for (int w = 1; w <= 32; w++) {
        const uint32_t mask = wb_ssb_pack_mask(w);
        CHECK(w == 32 ? mask == 0xffffffffu : mask == (1u << w) - 1);
        /* a negative base, and one whose top values wrap past INT32_MAX at w 31-32 (modulo 2^32) */
        const int32_t bases[2] = {w == 32 ? INT32_MIN : -(int32_t)(mask / 2) - 7, 19920101};
        for (int b = 0; b < 2; b++) {
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                const int64_t n = ns[i];
                for (int64_t r = 0; r < n; r++) {
                    /* the extremes of the width, then random values */
                    const uint32_t off = r % 5 == 0 ? 0 : r % 5 == 1 ? mask : (uint32_t)next(&s) & mask;
                    v[r] = (int32_t)((uint32_t)bases[b] + off);
                }
                round_trip(v, n, bases[b], w);
            }
        }
    }
    free(v);
}

/* The pairs of rows 2 and 3 that the kernel's branch on the width fixes:
 * (0, 0) below 11 bits, (0, 1) to 15, (1, 1) to 21, (1, 2) to 24. */
static void test_run_pairs(void) {
    for (int w = 1; w <= 24; w++) {
        int k2, k3;
        wb_ssb_run_pairs(w, &k2, &k3);
        CHECK(k2 == (w <= 15 ? 0 : 1));
        CHECK(k3 == (w <= 10 ? 0 : w <= 21 ? 1 : 2));
    }
}

static void test_width_rule(void) {
    CHECK(wb_ssb_pack_width(0, 0) == 1);
    CHECK(wb_ssb_pack_width(0, 1) == 1);
    CHECK(wb_ssb_pack_width(0, 2) == 2);
    CHECK(wb_ssb_pack_width(5, 5 + 255) == 8);
    CHECK(wb_ssb_pack_width(5, 5 + 256) == 9);
    CHECK(wb_ssb_pack_width(-10, 10) == 5);
    CHECK(wb_ssb_pack_width(INT32_MIN, INT32_MAX) == 32);
    CHECK(wb_ssb_pack_width(INT32_MIN, -1) == 31);
    CHECK(wb_ssb_pack_width(INT32_MIN, 0) == 32);
    /* SF 100: the widths docs/ssb.md states, 152 bits a row */
    const wb_ssb_sizes z = wb_ssb_sizes_of(600000000);
    static const int want[WB_SSB_LO_COLUMNS] = {16, 22, 21, 18, 6, 24, 4, 24, 17};
    int sum = 0;
    for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) {
        int32_t lo, hi;
        CHECK(wb_ssb_column_range(c, &z, &lo, &hi));
        CHECK(wb_ssb_pack_width(lo, hi) == want[c]);
        sum += wb_ssb_pack_width(lo, hi);
    }
    CHECK(sum == 152);
    int32_t lo, hi;
    CHECK(!wb_ssb_column_range(WB_SSB_LO_COLUMNS, &z, &lo, &hi));
}

/* Every generated value lies in its column's range, and the first 1 M rows
 * already need the range's width (the formulas give no bit too many). */
static void test_ranges(void) {
    static const int64_t sizes[] = {60011, 6000000, 600000000};
    for (int i = 0; i < 3; i++) {
        const wb_ssb_sizes z = wb_ssb_sizes_of(sizes[i]);
        int32_t lo[WB_SSB_LO_COLUMNS], hi[WB_SSB_LO_COLUMNS], mn[WB_SSB_LO_COLUMNS], mx[WB_SSB_LO_COLUMNS];
        for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) wb_ssb_column_range(c, &z, &lo[c], &hi[c]), mn[c] = INT32_MAX, mx[c] = INT32_MIN;
        const int64_t rows = z.lineorder < 1000000 ? z.lineorder : 1000000;
        for (int64_t r = 0; r < rows; r++) {
            const wb_ssb_line l = wb_ssb_line_at(7, &z, r);
            const int32_t v[WB_SSB_LO_COLUMNS] = {l.orderdate, l.custkey,  l.partkey, l.suppkey,   l.quantity,
                                                  l.extendedprice, l.discount, l.revenue, l.supplycost};
            for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) {
                if (v[c] < mn[c]) mn[c] = v[c];
                if (v[c] > mx[c]) mx[c] = v[c];
            }
        }
        for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) {
            CHECK(mn[c] >= lo[c] && mx[c] <= hi[c]);
            if (z.lineorder > 60011) CHECK(wb_ssb_pack_width(mn[c], mx[c]) == wb_ssb_pack_width(lo[c], hi[c]));
        }
    }
}

/* The bytes model over packed columns: with every row passing, each column
 * read is read whole at its width; at 32 bits a column it is the plain model. */
static void test_bytes_model(void) {
    const wb_ssb_sizes z = wb_ssb_sizes_of(6000000);
    const wb_ssb_spec *q = &wb_ssb_specs[0]; /* Q1.1: date, quantity, discount, then the price */
    wb_ssb_answer a;
    memset(&a, 0, sizeof a);
    wb_ssb_layout_of(q, &a.layout);
    a.nstages = 4;
    for (int k = 0; k < 4; k++) a.stage[k] = 6000000;
    int bits[WB_SSB_LO_COLUMNS], plain[WB_SSB_LO_COLUMNS];
    for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) {
        int32_t lo, hi;
        wb_ssb_column_range(c, &z, &lo, &hi);
        bits[c] = wb_ssb_pack_width(lo, hi);
        plain[c] = 32;
    }
    double lookups = -1;
    const double packed = wb_ssb_bytes_model_bits(q, &a, &z, bits, &lookups);
    CHECK_NEAR(packed, (16 + 6 + 4 + 24) / 8.0 * 6e6 + 8.0 * (double)a.layout.groups, 1e-3);
    CHECK(lookups == 0);
    CHECK_NEAR(wb_ssb_bytes_model_bits(q, &a, &z, plain, &lookups), wb_ssb_bytes_model(q, &a, &z, &lookups), 1e-6);
    CHECK_NEAR(wb_ssb_bytes_model(q, &a, &z, &lookups), 16 * 6e6 + 8.0 * (double)a.layout.groups, 1e-3);
    /* half the rows pass the date: quantity's sectors at 1 - (1/2)^(256/6) of its bytes */
    a.stage[1] = a.stage[2] = a.stage[3] = 3000000;
    const double half = wb_ssb_bytes_model_bits(q, &a, &z, bits, &lookups);
    CHECK(half < packed);
    CHECK(half > packed - 0.5 * 6e6 * (6 + 4 + 24) / 8.0 - 1); /* a packed sector holds tens of rows: nearly all read */
}

int main(void) {
    test_round_trip();
    test_run_word();
    test_run_pairs();
    test_width_rule();
    test_ranges();
    test_bytes_model();
    return TEST_DONE();
}
