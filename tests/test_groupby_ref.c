/* test_groupby_ref.c - the group-by family's CPU side: the reference on a
 * hand-checked input, the generator (keys in range, full-range values, fused
 * reference equal to the textbook one, same rows run after run), the
 * Zipf sampler (exact alias probabilities, sane skew when drawn), and the
 * checks catching a wrong group, a missing, extra or misordered run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "micro/data.h"
#include "micro/exact.h"
#include "micro/groupby_gen.h"
#include "micro/keys.h"

static void test_reference_by_hand(void) {
    const int32_t keys[] = {0, 2, 2, 1, 0}, vals[] = {5, -3, 10, 7, 1};
    wb_groupby_ref r;
    wb_err e = {""};
    CHECK(wb_groupby_ref_alloc(&r, 4, &e) == WB_OK);
    wb_groupby_reference(keys, vals, 5, &r);
    CHECK(r.sum[0] == 6 && r.sum[1] == 7 && r.sum[2] == 7 && r.sum[3] == 0);
    CHECK(r.count[0] == 2 && r.count[1] == 1 && r.count[2] == 2 && r.count[3] == 0);
    CHECK(r.present == 3);
    /* Negative sums wrap as two's complement: -2^31 twice is -2^32. */
    const int32_t k2[] = {1, 1}, v2[] = {INT32_MIN, INT32_MIN};
    wb_groupby_reference(k2, v2, 2, &r);
    CHECK((int64_t)r.sum[1] == -4294967296LL);
    wb_groupby_ref_free(&r);
}

static void generate(int64_t n, int64_t groups, int zipf, int32_t **keys, int32_t **vals, wb_groupby_ref *ref) {
    wb_groupby_gen g = {n, groups, zipf, 77};
    wb_err e = {""};
    *keys = malloc((size_t)n * sizeof **keys);
    *vals = malloc((size_t)n * sizeof **vals);
    CHECK(wb_groupby_ref_alloc(ref, groups, &e) == WB_OK);
    CHECK(wb_groupby_generate(&g, *keys, *vals, ref, &e) == WB_OK);
}

static void test_generator(int zipf) {
    const int64_t n = 12 * WB_KEYS_CHUNK + 12345, groups = 1000; /* chunks for every worker */
    int32_t *k1, *v1, *k4, *v4;
    wb_groupby_ref r1, r4, plain;
    wb_err e = {""};
    /* One worker, then 3 and 4 (chunks land on other workers in another
     * order): the same rows and sums, whatever the threads did. */
    wb_par_set_workers(1);
    generate(n, groups, zipf, &k1, &v1, &r1);
    for (int workers = 3; workers <= 4; workers++) {
        wb_par_set_workers(workers);
        CHECK(wb_par_workers() == workers);
        generate(n, groups, zipf, &k4, &v4, &r4);
        CHECK(memcmp(k1, k4, (size_t)n * sizeof *k1) == 0);
        CHECK(memcmp(v1, v4, (size_t)n * sizeof *v1) == 0);
        CHECK(memcmp(r1.sum, r4.sum, (size_t)groups * sizeof *r1.sum) == 0);
        CHECK(memcmp(r1.count, r4.count, (size_t)groups * sizeof *r1.count) == 0 && r1.present == r4.present);
        if (workers < 4) free(k4), free(v4), wb_groupby_ref_free(&r4);
    }
    wb_par_set_workers(0);
    int64_t bad = 0;
    int32_t lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        bad += k1[i] < 0 || k1[i] >= groups;
        lo = v1[i] < lo ? v1[i] : lo;
        hi = v1[i] > hi ? v1[i] : hi;
    }
    CHECK(bad == 0);
    CHECK(lo < -(1 << 30) && hi > (1 << 30)); /* the whole int32 range */
    CHECK(wb_groupby_ref_alloc(&plain, groups, &e) == WB_OK);
    wb_groupby_reference(k1, v1, n, &plain);
    CHECK(memcmp(plain.sum, r1.sum, (size_t)groups * sizeof *r1.sum) == 0);
    CHECK(memcmp(plain.count, r1.count, (size_t)groups * sizeof *r1.count) == 0);
    CHECK(plain.present == r1.present && r1.present == groups);
    /* Skew: the largest group holds 1/H(1000) = 13.4% under Zipf, about 0.1% uniform. */
    int64_t top = 0;
    double h = 0;
    for (int64_t k = 0; k < groups; k++) {
        top = r1.count[k] > top ? r1.count[k] : top;
        h += 1.0 / (double)(k + 1);
    }
    if (zipf)
        CHECK_NEAR((double)top / (double)n, 1.0 / h, 0.002);
    else
        CHECK((double)top / (double)n < 0.0013);
    free(k1), free(v1), free(k4), free(v4);
    wb_groupby_ref_free(&r1), wb_groupby_ref_free(&r4), wb_groupby_ref_free(&plain);
}

static void test_zipf(void) {
    wb_zipf z;
    wb_err e = {""};
    const int64_t n = 100;
    CHECK(wb_zipf_init(&z, n, 1.0, 5, &e) == WB_OK);
    /* Exact: the alias table's probability of each rank equals 1/(r+1)/H(n). */
    double h = 0, worst = 0;
    for (int64_t r = 0; r < n; r++) h += 1.0 / (double)(r + 1);
    for (int64_t r = 0; r < n; r++) {
        double p = (double)z.threshold[r] / 4294967296.0;
        for (int64_t c = 0; c < n; c++)
            if (z.alias[c] == r && c != r) p += 1.0 - (double)z.threshold[c] / 4294967296.0;
        p /= (double)n;
        worst = fmax(worst, fabs(p - 1.0 / (double)(r + 1) / h));
    }
    CHECK(worst < 1e-9);
    /* Drawn: rank 1 and rank 10 at their frequencies, every key in range. */
    int64_t *count = calloc((size_t)n, sizeof *count);
    uint64_t s = 11;
    int bad = 0;
    const int draws = 1000000;
    for (int i = 0; i < draws; i++) {
        int32_t k = wb_zipf_draw(&z, wb_rng_next(&s));
        if (k < 0 || k >= n)
            bad++;
        else
            count[k]++;
    }
    CHECK(bad == 0);
    CHECK_NEAR((double)count[z.key[0]] / draws, 1.0 / h, 0.003);
    CHECK_NEAR((double)count[z.key[9]] / draws, 0.1 / h, 0.001);
    free(count);
    wb_zipf_free(&z);
}

/* The rank -> key map is a permutation, scattered, and the same on 1 or 3
 * threads, at a size of several key-map tasks. */
static void test_zipf_keys(void) {
    const int64_t n = 200003;
    wb_zipf z1, z3;
    wb_err e = {""};
    wb_par_set_workers(1);
    CHECK(wb_zipf_init(&z1, n, 0.8, 13, &e) == WB_OK);
    wb_par_set_workers(3);
    CHECK(wb_zipf_init(&z3, n, 0.8, 13, &e) == WB_OK);
    wb_par_set_workers(0);
    CHECK(memcmp(z1.key, z3.key, sizeof *z1.key * (size_t)n) == 0);
    char *seen = calloc((size_t)n, 1);
    int64_t bad = 0, fixed = 0, near = 0;
    for (int64_t r = 0; r < n; r++) {
        int32_t k = z1.key[r];
        bad += k < 0 || k >= n || seen[k]++;
        fixed += k == r;
        near += r > 0 && (k == z1.key[r - 1] + 1 || k == z1.key[r - 1] - 1);
    }
    CHECK(bad == 0 && fixed < 10 && near < 10);
    CHECK(z1.key[0] != 0 || z1.key[1] != 1); /* the hot keys are not the first ones */
    free(seen);
    wb_zipf_free(&z1);
    wb_zipf_free(&z3);
}

static void test_checks(void) {
    const int32_t keys[] = {0, 2, 2, 0}, vals[] = {5, -3, 10, 1};
    wb_groupby_ref r;
    wb_err e = {""};
    CHECK(wb_groupby_ref_alloc(&r, 3, &e) == WB_OK);
    wb_groupby_reference(keys, vals, 4, &r); /* sums {6, 0, 7}, group 1 empty */
    unsigned long long table[3] = {6, 0, 7};
    CHECK(wb_groupby_check_table(table, &r, &e) == WB_OK);
    table[2] = 8;
    CHECK(wb_groupby_check_table(table, &r, &e) == WB_ERR);
    CHECK(strstr(e.msg, "1 of 3") != NULL);

    int32_t run_keys[3] = {0, 2, 1};
    long long run_sums[3] = {6, 7, 0};
    CHECK(wb_groupby_check_runs(run_keys, run_sums, 2, &r, &e) == WB_OK);
    CHECK(wb_groupby_check_runs(run_keys, run_sums, 1, &r, &e) == WB_ERR);  /* a run missing */
    CHECK(wb_groupby_check_runs(run_keys, run_sums, 3, &r, &e) == WB_ERR);  /* an empty group as a run */
    run_sums[1] = 8;
    CHECK(wb_groupby_check_runs(run_keys, run_sums, 2, &r, &e) == WB_ERR);  /* wrong sum */
    run_sums[1] = 7;
    run_keys[0] = 2, run_keys[1] = 0, run_sums[0] = 7, run_sums[1] = 6;
    CHECK(wb_groupby_check_runs(run_keys, run_sums, 2, &r, &e) == WB_ERR);  /* out of order */
    CHECK(wb_groupby_check_runs(run_keys, run_sums, -1, &r, &e) == WB_ERR); /* poisoned count */
    wb_groupby_ref_free(&r);
}

int main(void) {
    test_reference_by_hand();
    test_generator(0);
    test_generator(1);
    test_zipf();
    test_zipf_keys();
    test_checks();
    return TEST_DONE();
}
