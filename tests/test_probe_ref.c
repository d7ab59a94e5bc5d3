/* test_probe_ref.c - the probe family's CPU side: the bijection behind exact
 * match rates, the generator (match rate exact, keys in range, fused
 * reference equal to the textbook one, same data run after run), the
 * reference on a hand-checked input, and the checks catching a wrong sum, a
 * wrong direct entry, and every way a hash table can be wrong. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "kernels/probe.h"
#include "micro/data.h"
#include "micro/keys.h"
#include "micro/parallel.h"
#include "micro/probe_gen.h"

static void test_bijection(void) {
    static const uint64_t sizes[] = {1, 2, 3, 1000, 65536, 100003};
    for (int s = 0; s < 6; s++) {
        uint64_t n = sizes[s];
        wb_bijection b;
        wb_bijection_init(&b, n, 42 + s);
        unsigned char *seen = calloc(n, 1);
        int ok = 1;
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = wb_bijection_fwd(&b, x);
            if (y >= n || seen[y] || wb_bijection_inv(&b, y) != x) ok = 0;
            if (y < n) seen[y] = 1;
        }
        CHECK(ok);
        free(seen);
    }
    /* Not the identity: a random-looking order. */
    wb_bijection b;
    wb_bijection_init(&b, 1000, 7);
    int fixed = 0;
    for (uint64_t x = 0; x < 1000; x++) fixed += wb_bijection_fwd(&b, x) == x;
    CHECK(fixed < 20);
}

/* Generates n fact keys over rows dimension rows at a match rate and checks
 * them against the textbook reference on the generated dimension. */
static void check_generated(int64_t n, int64_t rows, double match) {
    wb_probe_gen g;
    wb_err e = {""};
    CHECK(wb_probe_gen_init(&g, n, rows, match, 99, &e) == WB_OK);
    int32_t *keys = malloc((size_t)rows * sizeof *keys), *vals = malloc((size_t)rows * sizeof *vals);
    int32_t *fact = malloc((size_t)n * sizeof *fact), *fact2 = malloc((size_t)n * sizeof *fact2);
    wb_probe_gen_dim(&g, keys, vals);
    int64_t passing = 0, bad_keys = 0;
    for (int64_t k = 0; k < rows; k++) {
        passing += vals[k] >= 0;
        bad_keys += keys[k] != k || (vals[k] < 0 && vals[k] != WB_PROBE_FILTERED) || vals[k] >= (1 << 30);
    }
    CHECK(bad_keys == 0);
    CHECK(passing == g.passing);
    CHECK(passing == (match == 1 ? rows : llround(match * (double)rows)));

    wb_probe_ref fused, fused2, plain;
    wb_probe_gen_fact(&g, fact, &fused);
    wb_probe_gen_fact(&g, fact2, &fused2); /* again: the same keys and sums, whatever the threads did */
    CHECK(memcmp(fact, fact2, (size_t)n * sizeof *fact) == 0);
    CHECK(fused.sum == fused2.sum && fused.matches == fused2.matches);
    int64_t out_of_range = 0;
    for (int64_t i = 0; i < n; i++) out_of_range += fact[i] < 0 || fact[i] >= rows;
    CHECK(out_of_range == 0);
    wb_probe_reference(fact, n, vals, rows, &plain);
    CHECK(plain.matches == llround(match * (double)n)); /* exact, not just close */
    CHECK(fused.matches == plain.matches);
    CHECK(fused.sum == plain.sum);
    CHECK(fused.packed_sum == plain.packed_sum);
    free(keys), free(vals), free(fact), free(fact2);
}

static void test_generator(void) {
    check_generated(100003, 1000, 0.1);
    check_generated(100003, 1000, 0.5);
    check_generated(100003, 1000, 1);
    check_generated(3000017, 70001, 0.5); /* more than two chunks */
    check_generated(1, 1000, 0.5);
    wb_probe_gen g;
    wb_err e = {""};
    CHECK(wb_probe_gen_init(&g, 10, 0, 1, 1, &e) == WB_SKIP);
    CHECK(wb_probe_gen_init(&g, 10, 1, 0.5, 1, &e) == WB_SKIP);
    CHECK(wb_probe_gen_init(&g, 10, 100, 0, 1, &e) == WB_ERR);
    CHECK(wb_probe_gen_init(&g, 0, 0, 1, 1, &e) == WB_OK); /* an empty build */
}

static void test_reference_by_hand(void) {
    const int32_t dim[] = {200, WB_PROBE_FILTERED, 30, 7};
    const int32_t fact[] = {0, 1, 2, 2, 3, 4, -1};
    wb_probe_ref r;
    wb_probe_reference(fact, 7, dim, 4, &r);
    CHECK(r.matches == 4);
    CHECK(r.sum == 200 + 30 + 30 + 7);
    CHECK(r.packed_sum == (200 & 0x7F) + 30 + 30 + 7);
}

static void test_check_sums(void) {
    wb_err e = {""};
    CHECK(wb_probe_check_sums(267, 4, 267, 4, &e) == WB_OK);
    CHECK(wb_probe_check_sums(266, 4, 267, 4, &e) == WB_ERR);
    CHECK(strstr(e.msg, "1 of 2") != NULL);
    CHECK(wb_probe_check_sums(267, 5, 267, 4, &e) == WB_ERR);
}

static void test_check_direct(void) {
    wb_probe_gen g;
    wb_err e = {""};
    CHECK(wb_probe_gen_init(&g, 0, 5000, 0.5, 3, &e) == WB_OK);
    int32_t *keys = malloc(5000 * sizeof *keys), *vals = malloc(5000 * sizeof *vals);
    wb_probe_gen_dim(&g, keys, vals);
    CHECK(wb_probe_check_direct(vals, &g, &e) == WB_OK);
    vals[4321] ^= 1;
    CHECK(wb_probe_check_direct(vals, &g, &e) == WB_ERR);
    CHECK(strstr(e.msg, "1 of 5000") != NULL);
    free(keys), free(vals);
}

/* Builds the table a correct CAS build gives (one of them), on the CPU. */
static void cpu_build(uint64_t *slots, int64_t nslots, const int32_t *vals, int64_t rows) {
    for (int64_t p = 0; p < nslots; p++) slots[p] = WB_PROBE_EMPTY_SLOT;
    for (int64_t k = 0; k < rows; k++) {
        if (vals[k] < 0) continue;
        uint64_t p = wb_probe_home((int32_t)k, (uint64_t)nslots);
        while (slots[p] != WB_PROBE_EMPTY_SLOT) p = p + 1 == (uint64_t)nslots ? 0 : p + 1;
        slots[p] = wb_probe_slot((int32_t)k, vals[k]);
    }
}

static int64_t find_slot(const uint64_t *slots, int64_t nslots, int at_home, int next_empty) {
    for (int64_t p = 0; p + 2 < nslots; p++) {
        if (slots[p] == WB_PROBE_EMPTY_SLOT) continue;
        int32_t k = (int32_t)(uint32_t)slots[p];
        if (at_home && wb_probe_home(k, (uint64_t)nslots) != (uint64_t)p) continue;
        if (next_empty && (slots[p + 1] != WB_PROBE_EMPTY_SLOT || slots[p + 2] != WB_PROBE_EMPTY_SLOT)) continue;
        return p;
    }
    return -1;
}

static void test_check_hash(void) {
    const int64_t rows = 20000;
    wb_probe_gen g;
    wb_err e = {""};
    CHECK(wb_probe_gen_init(&g, 0, rows, 0.5, 5, &e) == WB_OK);
    int32_t *keys = malloc(rows * sizeof *keys), *vals = malloc(rows * sizeof *vals);
    wb_probe_gen_dim(&g, keys, vals);
    int64_t nslots = wb_probe_hash_slots(rows, 0.5);
    uint64_t *slots = malloc((size_t)nslots * sizeof *slots);
    cpu_build(slots, nslots, vals, rows);
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_OK);

    int64_t p = find_slot(slots, nslots, 0, 0);
    uint64_t saved = slots[p];
    slots[p] += 1ull << 32; /* wrong value */
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    slots[p] = WB_PROBE_EMPTY_SLOT; /* key lost */
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    slots[p] = saved;

    /* A duplicate: the same key again in the empty slot ending its cluster. */
    int64_t q = p;
    while (slots[q] != WB_PROBE_EMPTY_SLOT) q = q + 1 == nslots ? 0 : q + 1;
    slots[q] = saved;
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    slots[q] = WB_PROBE_EMPTY_SLOT;

    /* Unreachable: a key at its home with empty slots after it, moved two on. */
    p = find_slot(slots, nslots, 1, 1);
    CHECK(p >= 0);
    slots[p + 2] = slots[p];
    slots[p] = WB_PROBE_EMPTY_SLOT;
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    CHECK(strstr(e.msg, "reachable") != NULL);
    CHECK(strstr(e.msg, ": 1 of") != NULL);

    /* A key twice and another lost, so the count is right: the walk to the
     * second copy meets the first. The lost key sits at its home with an
     * empty slot after it, so no other walk passes its slot. */
    cpu_build(slots, nslots, vals, rows);
    int64_t lost = find_slot(slots, nslots, 1, 1);
    slots[lost] = WB_PROBE_EMPTY_SLOT;
    for (p = 0; slots[p] == WB_PROBE_EMPTY_SLOT;) p++;
    for (q = p; slots[q] != WB_PROBE_EMPTY_SLOT;) q = q + 1 == nslots ? 0 : q + 1;
    slots[q] = slots[p];
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    CHECK(strstr(e.msg, ": 1 of") != NULL);

    /* A filtered row inserted. */
    cpu_build(slots, nslots, vals, rows);
    int64_t filtered = 0;
    while (vals[filtered] >= 0) filtered++;
    q = (int64_t)wb_probe_home((int32_t)filtered, (uint64_t)nslots);
    while (slots[q] != WB_PROBE_EMPTY_SLOT) q = q + 1 == nslots ? 0 : q + 1;
    slots[q] = wb_probe_slot((int32_t)filtered, 12345);
    CHECK(wb_probe_check_hash(slots, nslots, &g, &e) == WB_ERR);
    CHECK(strstr(e.msg, "filtered") != NULL);
    free(keys), free(vals), free(slots);
}

static void test_hash_slots(void) {
    CHECK(wb_probe_hash_slots(1000, 0.5) == 2000);
    CHECK(wb_probe_hash_slots(3, 0.7) == 5);
    CHECK(wb_probe_hash_slots(0, 0.5) == 0);
    CHECK(wb_probe_home(123, 1) == 0);
    CHECK(wb_probe_home(-1, 1000) < 1000);
}

/* A partition by hand: keys of n over parts partitions (key >> shift),
 * grouped by a stable counting sort, then reversed within each run (order
 * within a partition is free). */
static void partition_by_hand(const int32_t *keys, int32_t *out, int64_t n, int parts, int shift) {
    int64_t start[65] = {0}, at[64];
    for (int64_t i = 0; i < n; i++) start[(keys[i] >> shift) + 1]++;
    for (int p = 0; p < parts; p++) start[p + 1] += start[p], at[p] = start[p + 1];
    for (int64_t i = 0; i < n; i++) out[--at[keys[i] >> shift]] = keys[i];
}

static int parts_ok(const int32_t *got, const int32_t *keys, int64_t n, int parts, int shift) {
    wb_err e = {""};
    return wb_probe_check_parts(got, keys, n, parts, shift, &e) == WB_OK;
}

/* wb_probe_check_parts: a right partition passes in any order within a run
 * and on every worker count; a key moved across a border, a key replaced by
 * another of its partition (the run's multiset), a key lost to poison, a
 * key twice and a fact key of no partition fail. Empty partitions, 0 and 1
 * key. */
static void test_check_parts(void) {
    const int64_t n = 100003;
    const int parts = 64, shift = 10; /* keys < 2^16; the top partitions stay empty */
    int32_t *keys = malloc((size_t)n * sizeof *keys), *got = malloc((size_t)n * sizeof *got);
    uint64_t s = 31;
    for (int64_t i = 0; i < n; i++) keys[i] = (int32_t)wb_rng_below(&s, 50000);
    partition_by_hand(keys, got, n, parts, shift);
    CHECK(parts_ok(got, keys, n, parts, shift));
    wb_par_set_workers(1);
    CHECK(parts_ok(got, keys, n, parts, shift));
    wb_par_set_workers(0);
    CHECK(parts_ok(got, keys, 0, parts, shift));
    partition_by_hand(keys, got, 1, parts, shift);
    CHECK(parts_ok(got, keys, 1, parts, shift));
    partition_by_hand(keys, got, n, parts, shift);

    /* The border between the runs of partitions 0 and 1: swap its two sides. */
    int64_t border = 0;
    while ((got[border] >> shift) == 0) border++;
    int32_t t = got[border - 1];
    got[border - 1] = got[border], got[border] = t;
    CHECK(!parts_ok(got, keys, n, parts, shift));
    got[border] = got[border - 1], got[border - 1] = t;
    CHECK(parts_ok(got, keys, n, parts, shift));

    /* Another key of the same partition: positions fine, multiset not. */
    const int64_t at = n / 2;
    const int32_t was = got[at];
    got[at] = (was & 1) ? was - 1 : was + 1;
    CHECK(!parts_ok(got, keys, n, parts, shift));
    got[at] = -1; /* poison */
    CHECK(!parts_ok(got, keys, n, parts, shift));
    /* A neighbour twice (in place of another key of the same partition). */
    const int32_t twice = got[at + 1] != was ? got[at + 1] : got[at - 1];
    got[at] = twice;
    if (twice != was && (twice >> shift) == (was >> shift)) CHECK(!parts_ok(got, keys, n, parts, shift));
    got[at] = was;
    CHECK(parts_ok(got, keys, n, parts, shift));

    /* A fact key of no partition is refused as input. */
    keys[7] = 1 << 20;
    wb_err e = {""};
    CHECK(wb_probe_check_parts(got, keys, n, parts, shift, &e) == WB_ERR && strstr(e.msg, "fact keys outside"));
    free(keys), free(got);
}

/* The check without host columns (probe_gen.h, wb_probe_parts_*): the
 * reference's runs, counts and fingerprints from fine buckets, the summary
 * the GPU computes (here its host twin, which test_gpu_probe_parts holds the
 * kernel to) and the comparison. It passes exactly where the host check
 * does on the same cases: a right partition in any order; a key moved across
 * a border, another key of the same partition, a poisoned key and a key
 * twice fail. */
static int summary_ok(const int32_t *got, const int32_t *keys, int64_t n, int parts, int shift, int fine_shift) {
    wb_probe_fine *fine = malloc(sizeof *fine);
    int64_t count[64], start[65];
    uint64_t print[64], summary[2 + 2 * 64];
    wb_err e = {""};
    CHECK(wb_probe_fine_of(keys, n, fine_shift, fine, &e) == WB_OK);
    int rc = wb_probe_parts_ref(fine, n, parts, shift, count, print, start, &e);
    free(fine);
    if (rc != WB_OK) return -1;
    wb_probe_parts_summary_host(got, n, parts, shift, start, summary);
    return wb_probe_parts_compare(summary, n, parts, count, print, start, &e) == WB_OK;
}

static void test_check_parts_summary(void) {
    const int64_t n = 100003;
    const int parts = 64, shift = 10, fine = wb_probe_fine_shift(50000); /* 4: 2^12 buckets of 16 keys */
    CHECK(fine == 4 && wb_probe_fine_shift(4096) == 0 && wb_probe_fine_shift(1000) == 0 &&
          wb_probe_fine_shift(1 << 28) == 16 && wb_probe_fine_shift((1 << 28) + 1) == 17);
    int32_t *keys = malloc((size_t)n * sizeof *keys), *got = malloc((size_t)n * sizeof *got);
    uint64_t s = 31;
    for (int64_t i = 0; i < n; i++) keys[i] = (int32_t)wb_rng_below(&s, 50000);
    partition_by_hand(keys, got, n, parts, shift);
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 1);
    CHECK(summary_ok(got, keys, n, parts, shift, shift) == 1); /* buckets as coarse as the partitions */
    CHECK(summary_ok(got, keys, 0, parts, shift, fine) == 1);
    partition_by_hand(keys, got, 1, parts, shift);
    CHECK(summary_ok(got, keys, 1, parts, shift, fine) == 1);
    partition_by_hand(keys, got, n, parts, shift);
    CHECK(summary_ok(got, keys, n, parts, shift, shift + 1) == -1); /* buckets coarser than the partitions */

    /* Moved across the border between partitions 0 and 1. */
    int64_t border = 0;
    while ((got[border] >> shift) == 0) border++;
    int32_t t = got[border - 1];
    got[border - 1] = got[border], got[border] = t;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 0);
    CHECK(!parts_ok(got, keys, n, parts, shift));
    got[border] = got[border - 1], got[border - 1] = t;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 1);
    /* One key moved across a border in place of another (one run a key
     * short, the next one over): positions. */
    const int32_t moved = got[border];
    got[border] = got[border - 1];
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 0);
    got[border] = moved;

    /* Replaced by another key of its partition; poisoned; a neighbour twice. */
    const int64_t at = n / 2;
    const int32_t was = got[at];
    got[at] = (was & 1) ? was - 1 : was + 1;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 0);
    got[at] = -1;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 0);
    const int32_t twice = got[at + 1] != was ? got[at + 1] : got[at - 1];
    got[at] = twice;
    CHECK(twice != was && (twice >> shift) == (was >> shift));
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 0);
    CHECK(!parts_ok(got, keys, n, parts, shift));
    got[at] = was;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == 1);

    /* A fact key of no partition is refused as input. */
    keys[7] = 1 << 20;
    CHECK(summary_ok(got, keys, n, parts, shift, fine) == -1);
    free(keys), free(got);
}

/* The fine buckets of generated fact keys: the same on any worker count,
 * every key in one, summing to the reference's per-partition counts of a
 * serial pass. */
static void test_fine_buckets(void) {
    static const int64_t rows[] = {1000, 3000017, 1 << 13};
    for (int r = 0; r < 3; r++) {
        wb_probe_gen g;
        wb_err e = {""};
        CHECK(wb_probe_gen_init(&g, 2100007, rows[r], r == 1 ? 0.5 : 1, 0xf1e + (uint64_t)r, &e) == WB_OK);
        int32_t *fact = malloc((size_t)g.n * sizeof *fact);
        wb_probe_fine *a = malloc(sizeof *a), *b = malloc(sizeof *b);
        wb_probe_ref ref;
        const int fs = wb_probe_fine_shift(rows[r]);
        wb_probe_gen_fact(&g, fact, &ref);
        wb_par_set_workers(1);
        CHECK(wb_probe_fine_of(fact, g.n, fs, b, &e) == WB_OK);
        wb_par_set_workers(0);
        CHECK(wb_probe_fine_of(fact, g.n, fs, a, &e) == WB_OK);
        CHECK(a->shift == fs && a->outside == 0);
        CHECK(memcmp(a->count, b->count, sizeof a->count) == 0 && memcmp(a->print, b->print, sizeof a->print) == 0);
        int64_t want[16] = {0}, count[16], start[17];
        uint64_t print[16];
        const int shift = fs + 8; /* 16 partitions at most */
        for (int64_t i = 0; i < g.n; i++) want[fact[i] >> shift]++;
        CHECK(wb_probe_parts_ref(a, g.n, 16, shift, count, print, start, &e) == WB_OK);
        CHECK(memcmp(want, count, sizeof want) == 0 && start[16] == g.n);
        free(fact), free(a), free(b);
    }
}

int main(void) {
    test_bijection();
    test_generator();
    test_reference_by_hand();
    test_check_sums();
    test_check_direct();
    test_check_hash();
    test_hash_slots();
    test_check_parts();
    test_check_parts_summary();
    test_fine_buckets();
    return TEST_DONE();
}
