/* test_expr_stream.c - the expression family's inputs from fill specs and
 * its streamed reference: wb_fill_host_range of wb_expr_fill_spec gives
 * wb_expr_fill's values from any row on (odd starts and lengths, across
 * chunk boundaries, every dtype); wb_expr_check_stream passes the output of
 * wb_expr_eval on those columns and reports a damaged one exactly as
 * wb_expr_compare against that reference does (count, indices, the same
 * report text), also when checked in stretches. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "micro/expr_plan.h"
#include "tests/check.h"

#define FILL_CHUNK ((int64_t)1 << 20) /* expr_plan.c's WB_EXPR_FILL_CHUNK: the test crosses it */

static void check_spec_matches_fill(int type) {
    const int64_t n = 3 * FILL_CHUNK + 12345; /* odd, four chunks */
    const size_t elem = (size_t)wb_expr_type_bytes(type);
    unsigned char *whole = malloc((size_t)n * elem), *part = malloc((size_t)n * elem);
    CHECK(whole && part);
    if (!whole || !part) return;
    const uint64_t seed = 0xC0FFEEull + (uint64_t)type;
    wb_expr_fill(type, whole, n, seed);
    wb_fill_spec f;
    wb_expr_fill_spec(type, seed, &f);
    CHECK(wb_fill_elem_bytes(&f) == (int)elem);
    /* whole column, then odd stretches, one across each chunk boundary */
    wb_fill_host_range(&f, part, 0, n);
    CHECK(memcmp(whole, part, (size_t)n * elem) == 0);
    const int64_t starts[] = {0, 1, FILL_CHUNK - 7, 2 * FILL_CHUNK - 1, n - 3};
    const int64_t lens[] = {1, 999, 20, 2, 3};
    for (int k = 0; k < 5; k++) {
        memset(part, 0, (size_t)lens[k] * elem);
        wb_fill_host_range(&f, part, starts[k], lens[k]);
        CHECK(memcmp(whole + (size_t)starts[k] * elem, part, (size_t)lens[k] * elem) == 0);
    }
    /* another seed gives other values */
    wb_fill_spec g = f;
    g.seed ^= 1;
    wb_fill_host_range(&g, part, 0, 64);
    CHECK(memcmp(whole, part, 64 * elem) != 0);
    free(whole);
    free(part);
}

static void check_stream(int type, int shape, int ops, int columns) {
    const int64_t n = FILL_CHUNK + 4097; /* crosses a fill chunk, odd */
    const size_t elem = (size_t)wb_expr_type_bytes(type);
    wb_expr_plan p;
    wb_err e;
    CHECK(wb_expr_plan_build(&p, type, shape, ops, columns, 99 + (uint64_t)ops, &e) == WB_OK);
    void *cols[WB_EXPR_MAX_COLUMNS] = {NULL};
    wb_fill_spec specs[WB_EXPR_MAX_COLUMNS];
    for (int c = 0; c < p.n_columns; c++) {
        cols[c] = malloc((size_t)n * elem);
        wb_expr_fill(type, cols[c], n, 1000 + (uint64_t)c);
        wb_expr_fill_spec(type, 1000 + (uint64_t)c, &specs[c]);
    }
    unsigned char *ref = malloc((size_t)n * elem), *got = malloc((size_t)n * elem);
    wb_expr_eval(&p, (const void *const *)cols, ref, n);
    memcpy(got, ref, (size_t)n * elem);
    wb_mismatches m;
    wb_mismatch_init(&m);
    CHECK(wb_expr_check_stream(&p, specs, got, 0, n, &m) == 0 && m.total == 0);
    /* damage three elements, one the last */
    const int64_t at[] = {5, FILL_CHUNK + 1, n - 1};
    for (int k = 0; k < 3; k++) got[(size_t)at[k] * elem] ^= 0x10;
    wb_mismatches want, stream, parts;
    wb_mismatch_init(&want);
    wb_mismatch_init(&stream);
    wb_mismatch_init(&parts);
    CHECK(wb_expr_compare(type, got, ref, n, 0, &want) == 3);
    CHECK(wb_expr_check_stream(&p, specs, got, 0, n, &stream) == 3);
    CHECK(stream.total == 3 && strcmp(stream.text, want.text) == 0);
    /* in stretches, as verify reads the output back */
    const int64_t stretch = 300007;
    for (int64_t lo = 0; lo < n; lo += stretch)
        wb_expr_check_stream(&p, specs, got + (size_t)lo * elem, lo, n - lo < stretch ? n - lo : stretch, &parts);
    CHECK(parts.total == 3 && strcmp(parts.text, want.text) == 0);
    /* a wrong input spec is caught */
    wb_fill_spec other[WB_EXPR_MAX_COLUMNS];
    memcpy(other, specs, sizeof other);
    other[0].seed ^= 2;
    wb_mismatch_init(&m);
    CHECK(wb_expr_check_stream(&p, other, ref, 0, 4096, &m) > 0);
    for (int c = 0; c < p.n_columns; c++) free(cols[c]);
    free(ref);
    free(got);
}

int main(void) {
    for (int type = WB_EXPR_INT32; type <= WB_EXPR_F64; type++) {
        check_spec_matches_fill(type);
        check_stream(type, 0, 8, 2);
        check_stream(type, 1, 32, 4);
        check_stream(type, 0, 1, 1);
    }
    return TEST_DONE();
}
