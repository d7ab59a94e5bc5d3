/* test_expr_stream.c - the expression family's inputs from fill specs and
 * its streamed reference: wb_fill_host_range of wb_expr_fill_spec gives
 * wb_expr_fill's values from any row on (odd starts and lengths, across
 * chunk boundaries, every dtype); wb_expr_check_stream passes the output of
 * wb_expr_eval on those columns and reports a damaged one exactly as
 * wb_expr_compare against that reference does (count, indices, the same
 * report text), also when checked in stretches. Salt 0 specs give the
 * chunked fills of data.h (wb_chunk_seed per chunk). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "micro/exact.h"
#include "micro/expr_plan.h"
#include "micro/fingerprint.h"
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

/* Salt 0: the chunked fills of data.h with wb_chunk_seed (exact.h), which
 * other families use: the same values from the spec. */
static void check_spec_matches_data_fills(void) {
    const int64_t chunk = 4099, n = 5 * chunk + 17;
    int32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    double *x = malloc((size_t)n * 8), *y = malloc((size_t)n * 8);
    CHECK(a && b && x && y);
    if (!a || !b || !x || !y) return;
    for (int64_t c = 0; c * chunk < n; c++) {
        const int64_t len = n - c * chunk < chunk ? n - c * chunk : chunk;
        wb_fill_i32(a + c * chunk, (size_t)len, -7, 1000000, wb_chunk_seed(31, c));
        wb_fill_f64(x + c * chunk, (size_t)len, -3.5, 12.25, wb_chunk_seed(32, c));
    }
    wb_fill_spec fi = {.type = WB_FILL_I32, .seed = 31, .chunk = chunk, .lo = -7, .span = 1000008};
    wb_fill_spec fd = {.type = WB_FILL_F64, .seed = 32, .chunk = chunk, .dlo = -3.5, .dhi = 12.25};
    wb_fill_host_range(&fi, b, 0, n);
    wb_fill_host_range(&fd, y, 0, n);
    CHECK(memcmp(a, b, (size_t)n * 4) == 0 && memcmp(x, y, (size_t)n * 8) == 0);
    wb_fill_host_range(&fi, b, chunk - 2, 5); /* across a boundary */
    CHECK(memcmp(a + chunk - 2, b, 5 * 4) == 0);
    free(a), free(b), free(x), free(y);
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
    uint64_t print = 0, print_parts = 0;
    CHECK(wb_expr_check_stream(&p, specs, got, 0, n, &m, &print) == 0 && m.total == 0);
    /* the reference's fingerprint, whole and in stretches, is the one of its output */
    for (int64_t lo = 0; lo < n; lo += 300007)
        wb_expr_check_stream(&p, specs, got + (size_t)lo * elem, lo, n - lo < 300007 ? n - lo : 300007, &m, &print_parts);
    CHECK(print == wb_print_host(ref, n, (int)elem, 0) && print_parts == print && m.total == 0);
    /* damage three elements, one the last */
    const int64_t at[] = {5, FILL_CHUNK + 1, n - 1};
    for (int k = 0; k < 3; k++) got[(size_t)at[k] * elem] ^= 0x10;
    wb_mismatches want, stream, parts;
    wb_mismatch_init(&want);
    wb_mismatch_init(&stream);
    wb_mismatch_init(&parts);
    CHECK(wb_expr_compare(type, got, ref, n, 0, &want) == 3);
    CHECK(wb_expr_check_stream(&p, specs, got, 0, n, &stream, NULL) == 3);
    CHECK(stream.total == 3 && strcmp(stream.text, want.text) == 0);
    /* in stretches, as verify reads the output back */
    const int64_t stretch = 300007;
    for (int64_t lo = 0; lo < n; lo += stretch)
        wb_expr_check_stream(&p, specs, got + (size_t)lo * elem, lo, n - lo < stretch ? n - lo : stretch, &parts, NULL);
    CHECK(parts.total == 3 && strcmp(parts.text, want.text) == 0);
    /* a wrong input spec is caught */
    wb_fill_spec other[WB_EXPR_MAX_COLUMNS];
    memcpy(other, specs, sizeof other);
    other[0].seed ^= 2;
    wb_mismatch_init(&m);
    CHECK(wb_expr_check_stream(&p, other, ref, 0, 4096, &m, NULL) > 0);
    for (int c = 0; c < p.n_columns; c++) free(cols[c]);
    free(ref);
    free(got);
}

int main(void) {
    check_spec_matches_data_fills();
    for (int type = WB_EXPR_INT32; type <= WB_EXPR_F64; type++) {
        check_spec_matches_fill(type);
        check_stream(type, 0, 8, 2);
        check_stream(type, 1, 32, 4);
        check_stream(type, 0, 1, 1);
    }
    return TEST_DONE();
}
