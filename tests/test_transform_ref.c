/* test_transform_ref.c - the CPU side of the transform and ceiling
 * families: inputs, the random map, the references, and the checks that
 * verify runs on downloaded outputs (a wrong, missing or stray write must be
 * caught; a correct output must pass), all of them the same on 1 or many
 * threads at sizes spanning several chunks. No GPU needed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "micro/ceiling_ref.h"
#include "micro/exact.h"
#include "micro/transform_ref.h"
#include "tests/check.h"

static void test_op(void) {
    CHECK(wb_transform_op_i32(3, 2, 1) == 7);
    CHECK(wb_transform_op_i32(INT32_MAX, 2, 1) == -1); /* wraps, no signed overflow */
    /* Fused: a*x rounds to 1 in two steps, so a*x + b would give 0. */
    const double a = 1 + 0x1p-30, x = 1 - 0x1p-30;
    CHECK(wb_transform_op_f64(x, a, -1.0) == -0x1p-60);
}

static void test_perm(void) {
    static const int64_t ns[] = {0, 1, 2, 3, 1000, 12345, 65536};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        const int64_t n = ns[t];
        wb_perm q;
        wb_perm_init(&q, (uint64_t)(n), 42 + (uint64_t)t);
        char *seen = calloc((size_t)n + 1, 1);
        int64_t bad = 0, runs = 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t j = (int64_t)wb_perm_at(&q, (uint64_t)(i));
            if (j < 0 || j >= n || seen[j]++) bad++;
            if (i > 0 && j == (int64_t)wb_perm_at(&q, (uint64_t)(i - 1)) + 1) runs++;
        }
        CHECK(bad == 0);
        if (n >= 1000) CHECK(runs < n / 100); /* scattered, not a shifted identity */
        free(seen);
    }
}

static void test_inputs(void) {
    int32_t a, b;
    double af, bf;
    wb_transform_constants(7, &a, &b, &af, &bf);
    CHECK(a != 0 && a % 2 == 0 && b % 2 != 0);
    CHECK(af >= 0.5 && af < 2 && bf >= -1 && bf < 1);
    int distinct = 0;
    for (int j = 1; j < 100; j++) {
        distinct += wb_transform_input_i32(7, j) != wb_transform_input_i32(7, j - 1);
        double v = wb_transform_input_f64(7, j);
        CHECK(v >= -1 && v < 1);
        CHECK(wb_transform_op_i32(wb_transform_input_i32(7, j), a, b) % 2 != 0); /* never the even poison */
    }
    CHECK(distinct == 99);
    CHECK(wb_transform_input_f64(7, 5) == wb_transform_input_f64(7, 5));
    CHECK(wb_transform_input_f64(7, 5) != wb_transform_input_f64(8, 5));
}

/* The gather reference equals the identity reference read through the map. */
static void test_reference(void) {
    enum { N = 4099 };
    static int32_t map[N], ref_i[N], gat_i[N];
    static double ref_d[N], gat_d[N];
    wb_perm q;
    wb_perm_init(&q, (uint64_t)(N), 3);
    for (int i = 0; i < N; i++) map[i] = (int32_t)(int64_t)wb_perm_at(&q, (uint64_t)(i));
    wb_transform_reference(WB_TRANSFORM_I32, 11, NULL, N, 6, 5, 0, 0, ref_i);
    wb_transform_reference(WB_TRANSFORM_I32, 11, map, N, 6, 5, 0, 0, gat_i);
    wb_transform_reference(WB_TRANSFORM_F64, 11, NULL, N, 0, 0, 1.25, 0.5, ref_d);
    wb_transform_reference(WB_TRANSFORM_F64, 11, map, N, 0, 0, 1.25, 0.5, gat_d);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += ref_i[i] != wb_transform_op_i32(wb_transform_input_i32(11, i), 6, 5);
        bad += gat_i[i] != ref_i[map[i]] || gat_d[i] != ref_d[map[i]];
        bad += ref_d[i] != fma(1.25, wb_transform_input_f64(11, i), 0.5);
    }
    CHECK(bad == 0);
}

/* An output allocation as verify downloads it: guard, outputs, guard. */
static void fill_image(wb_transform_dtype dt, unsigned char *img, int64_t lead, int64_t n, int64_t total,
                       const void *expected) {
    const int esz = wb_transform_esz(dt);
    memset(img, wb_transform_poison_byte(dt), (size_t)(total * esz));
    memcpy(img + lead * esz, expected, (size_t)(n * esz));
}

static int64_t check_split(wb_transform_dtype dt, const unsigned char *img, int64_t lead, int64_t n, int64_t total,
                           const void *expected, int64_t split) {
    const int esz = wb_transform_esz(dt);
    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_transform_check_chunk(dt, img, 0, split, lead, n, expected, &m);
    wb_transform_check_chunk(dt, img + split * esz, split, total - split, lead, n, expected, &m);
    return m.total;
}

static void test_check(wb_transform_dtype dt) {
    enum { N = 1000, LEAD = 5, TOTAL = N + LEAD + 4 };
    const int esz = wb_transform_esz(dt);
    static double expected_store[N];
    void *expected = expected_store;
    wb_transform_reference(dt, 9, NULL, N, 6, 5, 1.5, 0.25, expected);
    static unsigned char img[TOTAL * 8];

    fill_image(dt, img, LEAD, N, TOTAL, expected);
    CHECK(check_split(dt, img, LEAD, N, TOTAL, expected, 333) == 0);

    img[(LEAD + 500) * esz] ^= 1; /* a wrong value */
    CHECK(check_split(dt, img, LEAD, N, TOTAL, expected, 333) == 1);

    fill_image(dt, img, LEAD, N, TOTAL, expected);
    memset(img + (LEAD + 999) * esz, wb_transform_poison_byte(dt), (size_t)esz); /* never written */
    memcpy(img + (LEAD - 1) * esz, expected, (size_t)esz);                       /* written before out */
    memcpy(img + (LEAD + N) * esz, expected, (size_t)esz);                       /* written past the end */
    CHECK(check_split(dt, img, LEAD, N, TOTAL, expected, 700) == 3);

    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_transform_check_chunk(dt, img, 0, TOTAL, LEAD, N, expected, &m);
    wb_err e;
    e.msg[0] = 0;
    CHECK(wb_mismatch_finish(&m, TOTAL, "test output", &e) == WB_ERR);
    CHECK(strstr(e.msg, "3 of") != NULL && strstr(e.msg, "[-1]") != NULL);
}


/* At sizes spanning several chunks: the parallel fills give each element's
 * value, the map is a permutation, and nothing depends on the workers. */
static void test_parallel_data(void) {
    const int64_t n = 5 * ((int64_t)1 << 20) + 12345;
    int32_t *map = malloc(sizeof *map * (size_t)n), *map1 = malloc(sizeof *map1 * (size_t)n);
    int32_t *in = malloc(sizeof *in * (size_t)n), *ref = malloc(sizeof *ref * (size_t)n);
    int32_t *ref1 = malloc(sizeof *ref1 * (size_t)n);
    double *ind = malloc(sizeof *ind * (size_t)n);
    char *seen = calloc((size_t)n, 1);
    CHECK(map && map1 && in && ref && ref1 && ind && seen);
    if (!map || !map1 || !in || !ref || !ref1 || !ind || !seen) goto done;
    wb_perm q;
    wb_perm_init(&q, (uint64_t)(n), 21);
    wb_par_set_workers(1);
    wb_transform_fill_map(map1, n, &q);
    wb_transform_reference(WB_TRANSFORM_I32, 8, map1, n, 6, 5, 0, 0, ref1);
    wb_par_set_workers(3);
    wb_transform_fill_map(map, n, &q);
    wb_transform_reference(WB_TRANSFORM_I32, 8, map, n, 6, 5, 0, 0, ref);
    wb_par_set_workers(0);
    CHECK(memcmp(map, map1, sizeof *map * (size_t)n) == 0 && memcmp(ref, ref1, sizeof *ref * (size_t)n) == 0);
    int64_t bad = 0, fixed = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t j = map[i];
        bad += j < 0 || j >= n || seen[j]++ || j != (int64_t)wb_perm_at(&q, (uint64_t)(i));
        fixed += j == i;
        bad += ref[i] != wb_transform_op_i32(wb_transform_input_i32(8, j), 6, 5);
    }
    CHECK(bad == 0 && fixed < 100);
    wb_transform_fill_map(map, n, NULL);
    wb_transform_fill_input(WB_TRANSFORM_I32, 8, in, n);
    wb_transform_fill_input(WB_TRANSFORM_F64, 8, ind, n);
    bad = 0;
    int64_t repeats = 0;
    for (int64_t i = 0; i < n; i++) {
        bad += map[i] != i || in[i] != wb_transform_input_i32(8, i) || ind[i] != wb_transform_input_f64(8, i);
        repeats += i > 0 && in[i] == in[i - 1];
    }
    CHECK(bad == 0 && repeats < 10);
done:
    free(map), free(map1), free(in), free(ref), free(ref1), free(ind), free(seen);
}

/* The report of a check spanning many check chunks is the one an element by
 * element pass gives, on 1 or many workers: same total, same first shown. */
static void test_parallel_check(wb_transform_dtype dt) {
    const int64_t n = 3 * ((int64_t)1 << 20) + 7, lead = 9, total = n + lead + 13;
    const int esz = wb_transform_esz(dt);
    void *expected = malloc((size_t)(n * esz));
    unsigned char *img = malloc((size_t)(total * esz));
    CHECK(expected && img);
    if (!expected || !img) goto done;
    wb_transform_reference(dt, 4, NULL, n, 6, 5, 1.5, 0.25, expected);
    fill_image(dt, img, lead, n, total, expected);
    for (int64_t i = n - 5; i > 0; i -= 123457) img[(lead + i) * esz] ^= 2; /* wrong values, in many chunks */
    memcpy(img + (total - 1) * esz, expected, (size_t)esz);                  /* a stray write in the last guard */
    wb_mismatches plain, par;
    wb_mismatch_init(&plain);
    for (int64_t k = 0; k < total; k++) wb_transform_check_chunk(dt, img + k * esz, k, 1, lead, n, expected, &plain);
    CHECK(plain.total == (n - 5 + 123456) / 123457 + 1 && plain.shown == WB_MISMATCH_SHOW);
    static const int workers[] = {1, 2, 5};
    for (int w = 0; w < 3; w++) {
        wb_par_set_workers(workers[w]);
        wb_mismatch_init(&par);
        const int64_t stage = 1000003; /* as verify: stage by stage into one report */
        for (int64_t f = 0; f < total; f += stage)
            wb_transform_check_chunk(dt, img + f * esz, f, total - f < stage ? total - f : stage, lead, n, expected,
                                     &par);
        CHECK(par.total == plain.total && par.shown == plain.shown && strcmp(par.text, plain.text) == 0);
    }
    wb_par_set_workers(0);
done:
    free(expected);
    free(img);
}

/* ---- ceiling ---- */

/* The instruction kernels' arithmetic restated from its specification in
 * ceiling.h, written independently of the shared functions. */
static uint32_t spec_issue(uint32_t tid, uint32_t seed, int turns) {
    const uint32_t m = (seed * 0x27D4EB2Fu) | 1u;
    uint32_t x[4];
    x[0] = tid * 0x9E3779B1u + seed;
    x[1] = x[0] ^ 0x85EBCA6Bu, x[2] = x[0] + 0xC2B2AE35u, x[3] = ~x[0];
    for (int i = 0; i < turns * 8; i++)
        for (int j = 0; j < 4; j++) x[j] = x[j] * m + (x[j] >> 7);
    return (x[0] ^ x[1] ^ x[2] ^ x[3] ^ tid) | 1u;
}

static uint32_t spec_alu(uint32_t tid, uint32_t seed, int turns) {
    const uint32_t k[4] = {seed | 1u, seed ^ 0x68E31DA4u, seed + 0xB5297A4Du, ~seed};
    uint32_t y[4] = {tid ^ seed, tid + seed, ~tid ^ seed, tid * 0x9E3779B1u};
    for (int i = 0; i < turns * 8; i++)
        for (int j = 0; j < 4; j++) y[j] = (y[j] ^ k[j]) + y[(j + 1) % 4] + k[(j + 1) % 4];
    return (y[0] ^ y[1] ^ y[2] ^ y[3]) | 1u;
}

static uint32_t spec_fma(uint32_t tid, uint32_t seed, int turns) {
    const float a = 0.5f + (float)(seed & 0xFFFFu) / 262144.0f;
    uint32_t r = 0;
    for (int j = 0; j < 8; j++) {
        const uint32_t u = (tid * 0x9E3779B1u + (uint32_t)j * 0x85EBCA6Bu + seed) >> 8;
        const float b = (float)(u | 1u) / 16777216.0f;
        float f = (float)u / 16777216.0f;
        for (int i = 0; i < turns * 8; i++) f = fmaf(f, a, b);
        if (turns > 0) CHECK(isfinite(f) && f >= b); /* normal: never below its b >= 2^-24 */
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        r ^= bits * (2u * (uint32_t)j + 1u);
    }
    return r | 1u;
}

static void test_inst(void) {
    static const uint32_t tids[] = {0, 1, 31, 32, 4095, 270335, 1081343};
    static const int turns[] = {0, 1, 3, 64};
    for (size_t i = 0; i < sizeof tids / sizeof tids[0]; i++)
        for (size_t t = 0; t < 4; t++) {
            const uint32_t seed = 0xC0DE1234u + (uint32_t)t;
            uint32_t issue = wb_ceiling_inst_ref(WB_CEILING_INST_ISSUE, tids[i], seed, turns[t]);
            uint32_t alu = wb_ceiling_inst_ref(WB_CEILING_INT_ALU, tids[i], seed, turns[t]);
            uint32_t fm = wb_ceiling_inst_ref(WB_CEILING_FMA, tids[i], seed, turns[t]);
            CHECK(issue == spec_issue(tids[i], seed, turns[t]));
            CHECK(alu == spec_alu(tids[i], seed, turns[t]));
            CHECK(fm == spec_fma(tids[i], seed, turns[t]));
            CHECK((issue & 1) && (alu & 1) && (fm & 1)); /* odd: never the poison */
        }
    /* Neighbouring ids differ even after the quick sweep's 1024 turns (the
     * steps are bijections), so an output stored at the wrong id is caught. */
    int same = 0;
    for (uint32_t tid = 1; tid < 16; tid++)
        same += wb_ceiling_inst_issue(tid, 5, 1024) == wb_ceiling_inst_issue(tid - 1, 5, 1024) ||
                wb_ceiling_fma(tid, 5, 1024) == wb_ceiling_fma(tid - 1, 5, 1024) ||
                wb_ceiling_int_alu(tid, 5, 1024) == wb_ceiling_int_alu(tid - 1, 5, 1024);
    CHECK(same == 0);
}

/* Source words must be odd and never repeat their neighbour; returns 1 if
 * so, with their wrapping sum in *sum. */
static int words_ok(const uint32_t *w, int64_t n, uint32_t *sum) {
    int64_t even = 0, repeats = 0;
    *sum = 0;
    for (int64_t j = 0; j < n; j++) {
        *sum += w[j];
        even += (w[j] & 1) == 0;
        repeats += j > 0 && w[j] == w[j - 1];
    }
    return even == 0 && repeats == 0;
}

static void test_words(void) {
    enum { W = 4001 };
    static uint32_t w[W], got[W];
    wb_ceiling_fill_words(w, W, 77);
    uint32_t sum = 0;
    CHECK(words_ok(w, W, &sum));
    CHECK(wb_ceiling_word_sum(w, W) == sum);

    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_ceiling_check_words(w, 0, W, w, 0, &m);
    CHECK(m.total == 0);
    memcpy(got, w, sizeof got);
    got[17] ^= 4;
    memset(got + 3000, WB_CEILING_POISON, 8);
    wb_ceiling_check_words(got, 0, 2000, w, 0, &m);
    wb_ceiling_check_words(got + 2000, 2000, W - 2000, w, 0, &m);
    CHECK(m.total == 3);

    for (int j = 0; j < W; j++) got[j] = wb_ceiling_pattern((uint64_t)j + 100, 9);
    wb_mismatch_init(&m);
    wb_ceiling_check_words(got, 100, W, NULL, 9, &m);
    CHECK(m.total == 0);
    got[W - 1] = 0x01010101u * WB_CEILING_POISON;
    wb_ceiling_check_words(got, 100, W, NULL, 9, &m);
    CHECK(m.total == 1);
    CHECK((wb_ceiling_pattern(12345, 0) & 1) && (wb_ceiling_pattern(12346, 0xFFFFFFFEu) & 1));
}

/* verify's check of inst outputs: an unwritten output or a wrong sampled
 * one is caught, in whichever download chunk it falls. */
static void test_inst_check(void) {
    enum { N = 5000 };
    static uint32_t out[N], ref[4096];
    static int64_t ids[4096];
    const int ns = wb_ceiling_sample(N, 4096, ids);
    for (uint32_t t = 0; t < N; t++) out[t] = wb_ceiling_inst_ref(WB_CEILING_INT_ALU, t, 3, 2);
    for (int i = 0; i < ns; i++) ref[i] = out[ids[i]];
    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_ceiling_check_inst(out, 0, 2500, ids, ref, ns, &m);
    wb_ceiling_check_inst(out + 2500, 2500, N - 2500, ids, ref, ns, &m);
    CHECK(m.total == 0);
    out[ids[100]] ^= 2;                                       /* a sampled output wrong */
    memset(out + 4321, WB_CEILING_POISON, sizeof out[0]);    /* an output never written */
    wb_ceiling_check_inst(out, 0, 2500, ids, ref, ns, &m);
    wb_ceiling_check_inst(out + 2500, 2500, N - 2500, ids, ref, ns, &m);
    int sampled = 0; /* 4321 may itself be a sampled id: then it mismatches twice */
    for (int i = 0; i < ns; i++) sampled += ids[i] == 4321;
    CHECK(m.total == 2 + sampled);
}

/* Source words over several fill chunks: odd, random, the same on 1 or 3
 * workers, summed exactly; the checks report as an element by element pass. */
static void test_parallel_words(void) {
    const int64_t n = 3 * ((int64_t)1 << 20) + 3; /* odd: the last chunk ends on a single word */
    uint32_t *w = malloc(sizeof *w * (size_t)n), *w1 = malloc(sizeof *w1 * (size_t)n);
    CHECK(w && w1);
    if (!w || !w1) goto done;
    wb_par_set_workers(1);
    wb_ceiling_fill_words(w1, n, 99);
    const uint32_t sum1 = wb_ceiling_word_sum(w1, n);
    wb_par_set_workers(3);
    wb_ceiling_fill_words(w, n, 99);
    const uint32_t sum3 = wb_ceiling_word_sum(w, n);
    wb_par_set_workers(0);
    CHECK(memcmp(w, w1, sizeof *w * (size_t)n) == 0);
    uint32_t sum = 0;
    CHECK(words_ok(w, n, &sum) && sum == sum1 && sum == sum3);
    CHECK(memcmp(w, w + ((int64_t)1 << 20), 64) != 0); /* chunks draw from different streams */
    wb_ceiling_fill_words(w1, n, 100);
    CHECK(memcmp(w, w1, 64) != 0);

    memcpy(w1, w, sizeof *w * (size_t)n);
    for (int64_t j = n - 1; j > 0; j -= 99991) w1[j] ^= 6;
    wb_mismatches plain, par;
    wb_mismatch_init(&plain);
    for (int64_t j = 0; j < n; j++) wb_ceiling_check_words(w1 + j, j, 1, w, 0, &plain);
    CHECK(plain.total > WB_MISMATCH_SHOW);
    for (int k = 1; k <= 4; k += 3) {
        wb_par_set_workers(k);
        wb_mismatch_init(&par);
        wb_ceiling_check_words(w1, 0, n, w, 0, &par);
        CHECK(par.total == plain.total && strcmp(par.text, plain.text) == 0);
    }
    /* inst outputs: unwritten ones (poison) in many chunks, then the sample */
    static int64_t ids[4096];
    static uint32_t ref[4096];
    const int ns = wb_ceiling_sample(n, 4096, ids);
    for (int i = 0; i < ns; i++) ref[i] = w[ids[i]];
    for (int64_t j = 7; j < n; j += 250007) w[j] = 0x01010101u * WB_CEILING_POISON;
    w[ids[5]] ^= 2;
    wb_mismatch_init(&plain);
    for (int64_t j = 0; j < n; j++) wb_ceiling_check_inst(w + j, j, 1, ids, ref, 0, &plain);
    for (int i = 0; i < ns; i++) wb_ceiling_check_inst(w + ids[i], ids[i], 1, ids + i, ref + i, 1, &plain);
    CHECK(plain.total == 14);
    for (int k = 1; k <= 4; k += 3) {
        wb_par_set_workers(k);
        wb_mismatch_init(&par);
        wb_ceiling_check_inst(w, 0, n, ids, ref, ns, &par);
        CHECK(par.total == plain.total && strcmp(par.text, plain.text) == 0);
    }
    wb_par_set_workers(0);
done:
    free(w), free(w1);
}

static void test_sample(void) {
    static int64_t ids[4096];
    CHECK(wb_ceiling_sample(10, 4096, ids) == 10 && ids[0] == 0 && ids[9] == 9);
    const int64_t n = 1081344;
    CHECK(wb_ceiling_sample(n, 4096, ids) == 4096);
    int increasing = 1;
    for (int i = 1; i < 4096; i++) increasing &= ids[i] > ids[i - 1];
    CHECK(increasing && ids[0] == 0 && ids[4095] == n - 1);
}

int main(void) {
    test_op();
    test_perm();
    test_inputs();
    test_reference();
    test_check(WB_TRANSFORM_I32);
    test_check(WB_TRANSFORM_F64);
    test_parallel_data();
    test_parallel_check(WB_TRANSFORM_I32);
    test_parallel_check(WB_TRANSFORM_F64);
    test_inst();
    test_words();
    test_inst_check();
    test_parallel_words();
    test_sample();
    return TEST_DONE();
}
