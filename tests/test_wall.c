/* test_wall.c - the random-access wall (harness/base/wall.c): best rate per
 * table size, log-log interpolation, no extrapolation; and the gather
 * ceiling's CPU reference (micro/ceiling_ref.c) against a plain loop over a
 * table held in memory, with slots that stay inside the table and cover it;
 * the hierarchical roofline's intensities (harness/base/counters_derive.c). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "harness/base/metrics.h"
#include "harness/base/wall.h"
#include "harness/gpu/counters.h"
#include "micro/ceiling_ref.h"

static void test_wall(void) {
    wb_wall w;
    wb_wall_init(&w);
    CHECK(isnan(wb_wall_at(&w, 1 << 20))); /* nothing measured */
    CHECK(wb_wall_add(&w, 1 << 30, 40) == 1);
    CHECK(wb_wall_add(&w, 1 << 24, 160) == 1);
    CHECK(wb_wall_add(&w, 1 << 30, 30) == 0); /* slower: the best stays */
    CHECK(wb_wall_add(&w, 1 << 30, 42) == 1);
    CHECK(wb_wall_add(&w, NAN, 50) == 0 && wb_wall_add(&w, 1 << 26, 0) == 0 && wb_wall_add(&w, -1, 5) == 0);
    CHECK(w.n == 2 && w.bytes[0] == 1 << 24 && w.bytes[1] == 1 << 30);
    CHECK_NEAR(wb_wall_at(&w, 1 << 30), 42, 1e-12);
    CHECK_NEAR(wb_wall_at(&w, 1 << 24), 160, 1e-12);
    /* halfway in log size: the geometric mean of the rates */
    CHECK_NEAR(wb_wall_at(&w, 1 << 27), sqrt(160.0 * 42.0), 1e-9);
    CHECK(isnan(wb_wall_at(&w, 1 << 23)) && isnan(wb_wall_at(&w, (double)(1LL << 31))));
    CHECK(wb_wall_add(&w, 1 << 27, 100) == 1 && w.n == 3 && w.bytes[1] == 1 << 27);
    CHECK_NEAR(wb_wall_at(&w, 1 << 27), 100, 1e-12);
    for (int i = 0; i < WB_WALL_MAX + 5; i++) wb_wall_add(&w, 1e3 + i, 1);
    CHECK(w.n == WB_WALL_MAX); /* full: the rest is ignored, nothing overflows */
}

static void test_gather_ref(void) {
    const uint64_t words = 8 * 1001; /* a table that is not a power of two */
    const uint32_t seed = 0x1234567u;
    uint32_t *table = malloc(words * sizeof *table);
    int *seen = calloc(words / 8, sizeof *seen);
    CHECK(table && seen);
    if (!table || !seen) return;
    for (uint64_t j = 0; j < words; j++) table[j] = wb_ceiling_gather_word(j, seed);
    for (int64_t n = 0; n <= 100003; n += 100003) { /* 0 and an odd count across chunks */
        uint32_t word = 0, sector = 0;
        for (int64_t r = 0; r < n; r++) {
            const uint64_t w = wb_ceiling_gather_slot((uint64_t)r, seed, words), s = wb_ceiling_gather_slot((uint64_t)r, seed, words / 8);
            CHECK(w < words && s < words / 8);
            word += table[w];
            for (int k = 0; k < 8; k++) sector += table[8 * s + k];
            seen[s]++;
        }
        CHECK(wb_ceiling_gather_ref(0, n, words, seed) == word);
        CHECK(wb_ceiling_gather_ref(1, n, words, seed) == sector);
    }
    /* ~100 requests per sector: every sector is read, none far more than its share */
    int lo = 1 << 30, hi = 0;
    for (uint64_t s = 0; s < words / 8; s++) lo = seen[s] < lo ? seen[s] : lo, hi = seen[s] > hi ? seen[s] : hi;
    CHECK(lo > 50 && hi < 160);
    /* another seed reads other words */
    CHECK(wb_ceiling_gather_ref(0, 1000, words, seed) != wb_ceiling_gather_ref(0, 1000, words, seed + 1));
    free(table);
    free(seen);
}

static void set(wb_counters *c, const char *column, double v) {
    int i = wb_metric_index(column);
    CHECK(i >= 0);
    if (i >= 0) c->v[i] = v;
}

static void test_hierarchical(void) {
    wb_roof none = {"", NAN, NAN};
    wb_counters c;
    wb_counters_clear(&c, "");
    set(&c, "inst", 6e9);
    set(&c, "l1_sectors_ld", 2e9);
    set(&c, "l1_sectors_st", 1e9);
    set(&c, "l2_sectors", 1.5e9);
    set(&c, "dram_sectors_read", 5e8);
    set(&c, "dram_sectors_write", 1e8);
    wb_counters_group(&c);
    wb_counters_derive(&c, 2.0, &none, &none, &none);
    CHECK_NEAR(c.inst_per_l1_sector, 2.0, 1e-12);
    CHECK_NEAR(c.inst_per_l2_sector, 4.0, 1e-12);
    CHECK_NEAR(c.inst_per_sector, 10.0, 1e-12);
    set(&c, "l2_sectors", 0); /* no L2 traffic: no intensity, not infinity */
    wb_counters_derive(&c, 2.0, &none, &none, &none);
    CHECK(isnan(c.inst_per_l2_sector));
}

int main(void) {
    test_wall();
    test_hierarchical();
    test_gather_ref();
    return TEST_DONE();
}
