/* test_select_ref.c - the selection family's host side: the keyed bijection
 * and its exact selectivity, the CPU reference on hand-checked inputs, and the
 * comparison verify() runs catching a wrong count, order, multiset or a write
 * past the count; fill and reference the same on any worker count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "micro/exact.h"
#include "micro/fingerprint.h"
#include "micro/select_ref.h"
#include "tests/check.h"

static void test_perm_is_bijection(void) {
    static const int64_t sizes[] = {1, 2, 7, 8, 1000, 4097, 1000003};
    for (int t = 0; t < 7; t++) {
        int64_t n = sizes[t];
        unsigned char *hit = calloc((size_t)n, 1);
        wb_perm p;
        wb_perm_init(&p, (uint64_t)n, 42 + (uint64_t)t);
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++) {
            uint64_t r = wb_perm_at(&p, (uint64_t)i);
            if (r >= (uint64_t)n || hit[r]) bad++;
            else hit[r] = 1;
        }
        CHECK(bad == 0);
        free(hit);
    }
}

/* Members must be spread evenly, not clumped: per 4096-row window the count
 * stays within 6 binomial standard deviations of s * 4096. */
static void test_members_spread(void) {
    static const double sels[] = {0.01, 0.5, 0.9};
    const int64_t n = (int64_t)1 << 20, w = 4096;
    for (int t = 0; t < 3; t++) {
        wb_perm p;
        wb_perm_init(&p, (uint64_t)n, 7);
        int64_t k = wb_exact_k(n, sels[t]);
        double mean = sels[t] * (double)w, tol = 6 * sqrt((double)w * sels[t] * (1 - sels[t]));
        int64_t worst = 0;
        for (int64_t b = 0; b < n; b += w) {
            int64_t c = 0;
            for (int64_t i = b; i < b + w; i++) c += (int64_t)wb_perm_at(&p, (uint64_t)i) < k;
            double dev = fabs((double)c - mean);
            if (dev > tol) worst++;
        }
        CHECK(worst == 0);
    }
}

static void test_fill_is_exact(void) {
    static const int64_t sizes[] = {0, 1, 7, 4097, 1000003};
    static const double sels[] = {0, 0.01, 0.25, 0.5, 1};
    wb_err e;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++) {
            int64_t n = sizes[a];
            int32_t *x = malloc((size_t)(n ? n : 1) * sizeof *x), *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
            int64_t k = wb_select_fill(x, n, sels[b], 99, &e);
            CHECK(k == llround(sels[b] * (double)n));
            CHECK(wb_select_reference(x, n, (int32_t)k, ref, &e) == k);
            int64_t low = 0;
            for (int64_t i = 0; i < n; i++) low += x[i] < 0;
            CHECK(low == 0);
            wb_select_seen seen;
            CHECK(wb_select_seen_alloc(&seen, k, &e) == WB_OK);
            CHECK(wb_select_ref_is_permutation(ref, k, &seen, &e) == WB_OK);
            wb_select_seen_free(&seen);
            /* The expected output from the spec alone: the same values in the
             * same order, and the fingerprint of them with the poisoned tail. */
            wb_select_gen g;
            int32_t *from_spec = malloc((size_t)(n ? n : 1) * sizeof *from_spec);
            uint64_t print = 0;
            CHECK(wb_select_gen_of(n, sels[b], 99, &g, &e) == WB_OK && g.k == k);
            CHECK(wb_select_expected(&g, from_spec, &print, &e) == k && memcmp(from_spec, ref, (size_t)k * 4) == 0);
            for (int64_t j = k; j < n; j++) from_spec[j] = WB_SELECT_POISON;
            CHECK(print == wb_print_host(from_spec, n, 4, 0));
            free(from_spec);
            free(x);
            free(ref);
        }
    /* Seeded: the same seed gives the same data, another seed other data. */
    int32_t *x1 = malloc(4097 * sizeof *x1), *x2 = malloc(4097 * sizeof *x2);
    wb_select_fill(x1, 4097, 0.5, 5, &e);
    wb_select_fill(x2, 4097, 0.5, 5, &e);
    CHECK(memcmp(x1, x2, 4097 * sizeof *x1) == 0);
    wb_select_fill(x2, 4097, 0.5, 6, &e);
    CHECK(memcmp(x1, x2, 4097 * sizeof *x1) != 0);
    free(x1);
    free(x2);
    int32_t one;
    CHECK(wb_select_fill(&one, (int64_t)INT32_MAX + 1, 0.5, 1, &e) == -1);
}

static void test_reference_by_hand(void) {
    const int32_t x[] = {5, -3, 7, 2, 9, 6};
    int32_t ref[6] = {0};
    wb_err e;
    CHECK(wb_select_reference(x, 6, 6, ref, &e) == 3);
    CHECK(ref[0] == 5 && ref[1] == -3 && ref[2] == 2);
    CHECK(wb_select_reference(x, 6, -3, NULL, &e) == 0);
    CHECK(wb_select_reference(x, 6, 100, ref, &e) == 6);
    CHECK(memcmp(ref, x, sizeof x) == 0);
    CHECK(wb_select_reference(x, 0, 100, ref, &e) == 0);
}

static int compare(const int32_t *out, int64_t count, int ordered, wb_err *e) {
    static const int32_t ref[] = {2, 0, 3, 1};
    wb_select_seen seen;
    wb_select_seen_alloc(&seen, 4, e);
    int rc = wb_select_compare(out, 8, count, ref, 4, ordered, &seen, e);
    wb_select_seen_free(&seen);
    return rc;
}

static void test_compare_catches(void) {
    wb_err e;
    const int32_t same[8] = {2, 0, 3, 1, -1, -1, -1, -1}, shuffled[8] = {1, 3, 0, 2, -1, -1, -1, -1},
                  dup[8] = {2, 2, 3, 1, -1, -1, -1, -1}, range[8] = {2, 0, 3, 4, -1, -1, -1, -1},
                  past[8] = {2, 0, 3, 1, -1, -1, 7, -1}, extra[8] = {2, 0, 3, 1, 1, -1, -1, -1};
    CHECK(compare(same, 4, 1, &e) == WB_OK);
    CHECK(compare(same, 4, 0, &e) == WB_OK);
    CHECK(compare(shuffled, 4, 0, &e) == WB_OK);
    CHECK(compare(shuffled, 4, 1, &e) == WB_ERR);
    CHECK(strstr(e.msg, "in order") != NULL);
    CHECK(compare(dup, 4, 0, &e) == WB_ERR);
    CHECK(strstr(e.msg, "absent") != NULL); /* 0 never came */
    CHECK(compare(range, 4, 0, &e) == WB_ERR);
    CHECK(compare(past, 4, 0, &e) == WB_ERR);
    CHECK(strstr(e.msg, "[6]") != NULL);
    CHECK(compare(past, 4, 1, &e) == WB_ERR);
    CHECK(compare(same, 3, 1, &e) == WB_ERR); /* count short: slot 3 is not poison either */
    CHECK(strstr(e.msg, "selected count 3, expected 4") != NULL);
    CHECK(compare(extra, 5, 0, &e) == WB_ERR);
    CHECK(compare(extra, 5, 1, &e) == WB_ERR);
    CHECK(compare(same, 1000, 0, &e) == WB_ERR); /* a garbage count larger than the buffer */
}

/* The fill and the reference byte for byte the same on 1, 2, 3 and 7
 * workers, and the reference the plain serial loop it replaces (one branch
 * per row), at sizes that end inside a chunk (2^20 rows) and inside the
 * reference's 256-row block. */
static void test_same_on_any_workers(void) {
    static const int64_t sizes[] = {1, 255, 257, 1048575, 1048577, 3000017};
    static const int workers[] = {1, 2, 3, 7};
    const int64_t most = 3000017;
    wb_err e;
    int32_t *x0 = malloc((size_t)most * sizeof *x0), *x = malloc((size_t)most * sizeof *x);
    int32_t *want = malloc((size_t)most * sizeof *want), *ref = malloc((size_t)most * sizeof *ref);
    for (int a = 0; a < 6; a++) {
        const int64_t n = sizes[a];
        wb_par_set_workers(1);
        const int64_t k = wb_select_fill(x0, n, 0.5, 23, &e);
        int64_t kk = 0;
        for (int64_t i = 0; i < n; i++)
            if (x0[i] < k) want[kk++] = x0[i];
        CHECK(kk == k);
        for (int w = 0; w < 4; w++) {
            wb_par_set_workers(workers[w]);
            CHECK(wb_select_fill(x, n, 0.5, 23, &e) == k);
            CHECK(memcmp(x, x0, (size_t)n * sizeof *x) == 0);
            memset(ref, 0x7F, (size_t)n * sizeof *ref);
            CHECK(wb_select_reference(x, n, (int32_t)k, ref, &e) == k);
            CHECK(memcmp(ref, want, (size_t)k * sizeof *ref) == 0);
            CHECK(k == n || ref[k] == 0x7F7F7F7F); /* nothing written past the k selected */
        }
    }
    wb_par_set_workers(0);
    free(x0), free(x), free(want), free(ref);
}

/* At a size where the parallel pass splits into chunks: a shuffled correct
 * output passes as a multiset, one changed value does not. */
static void test_compare_large(void) {
    const int64_t n = 3000017;
    wb_err e;
    int32_t *x = malloc((size_t)n * sizeof *x), *ref = malloc((size_t)n * sizeof *ref), *out = malloc((size_t)n * sizeof *out);
    int64_t k = wb_select_fill(x, n, 0.4, 11, &e);
    CHECK(wb_select_reference(x, n, (int32_t)k, ref, &e) == k);
    for (int64_t j = 0; j < n; j++) out[j] = j < k ? ref[k - 1 - j] : WB_SELECT_POISON;
    wb_select_seen seen;
    CHECK(wb_select_seen_alloc(&seen, k, &e) == WB_OK);
    CHECK(wb_select_compare(out, n, k, ref, k, 0, &seen, &e) == WB_OK);
    CHECK(wb_select_compare(out, n, k, ref, k, 1, &seen, &e) == WB_ERR);
    out[k / 2] = out[k / 3];
    CHECK(wb_select_compare(out, n, k, ref, k, 0, &seen, &e) == WB_ERR);
    CHECK(strstr(e.msg, "2 of") != NULL); /* the duplicate and the value it replaced */
    /* A duplicate in the last rows of the first chunk (2^20 rows), caught on
     * every worker count. */
    out[k / 2] = ref[k - 1 - k / 2];
    out[(1 << 20) - 3] = out[5];
    static const int workers[] = {1, 2, 3, 7};
    for (int w = 0; w < 4; w++) {
        wb_par_set_workers(workers[w]);
        CHECK(wb_select_compare(out, n, k, ref, k, 0, &seen, &e) == WB_ERR);
        CHECK(strstr(e.msg, "2 of") != NULL);
    }
    wb_par_set_workers(0);
    wb_select_seen_free(&seen);
    free(x);
    free(ref);
    free(out);
}

int main(void) {
    test_perm_is_bijection();
    test_members_spread();
    test_fill_is_exact();
    test_reference_by_hand();
    test_compare_catches();
    test_same_on_any_workers();
    test_compare_large();
    return TEST_DONE();
}
