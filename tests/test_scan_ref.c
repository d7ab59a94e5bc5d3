/* test_scan_ref.c - the scan family's host side: the first predicate passes
 * exactly round(s n) rows and the others pass at SSB's rates; the reference
 * sum, row and sector counts and the byte model on hand-checked inputs; the
 * comparison catches a wrong sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "micro/exact.h"
#include "micro/scan_ref.h"
#include "tests/check.h"

typedef struct host_cols {
    wb_scan_cols c;
    int32_t *mem[5];
} host_cols;

static void cols_alloc(host_cols *h, int shape, int64_t n) {
    memset(h, 0, sizeof *h);
    h->c.shape = shape;
    h->c.n = n;
    for (int i = 0; i < 4; i++) h->mem[i] = calloc((size_t)(n ? n : 1), sizeof(int32_t));
    h->c.orderdate = h->mem[0];
    if (shape == WB_SCAN_Q11) {
        h->c.discount = h->mem[1], h->c.quantity = h->mem[2], h->c.extendedprice = h->mem[3];
    } else {
        h->c.custkey = h->mem[1], h->c.revenue = h->mem[2];
        h->c.dim_entries = wb_scan_dim_entries(n);
        h->mem[4] = calloc((size_t)h->c.dim_entries, sizeof(int32_t));
        h->c.dim_region = h->mem[4];
    }
}

static void cols_free(host_cols *h) {
    for (int i = 0; i < 5; i++) free(h->mem[i]);
}

static void test_fill_exact_first_predicate(void) {
    static const int64_t sizes[] = {0, 1, 7, 4097, 1000003};
    static const double sels[] = {0, 0.01, 0.5, 1};
    wb_err e;
    for (int sh = 0; sh < WB_SCAN_SHAPES; sh++)
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 4; b++) {
                host_cols h;
                cols_alloc(&h, sh, sizes[a]);
                wb_scan_fill(&h.c, &wb_scan_ssb, sels[b], 17);
                wb_scan_expect x;
                CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &x, &e) == WB_OK);
                CHECK(x.rows_first == wb_exact_k(sizes[a], sels[b]));
                CHECK(x.sectors == (sizes[a] + 7) / 8);
                int64_t bad = 0;
                for (int64_t i = 0; i < sizes[a]; i++) {
                    int32_t d = h.c.orderdate[i];
                    bad += d < 19920101 || d > 19981231;
                    if (sh == WB_SCAN_Q31) bad += h.c.custkey[i] < 0 || h.c.custkey[i] >= h.c.dim_entries;
                }
                CHECK(bad == 0);
                cols_free(&h);
            }
}

/* The later predicates pass at SSB's rates: discount 3/11 x quantity 24/50
 * for q1.1, region 1/5 for q3.1; and a seed reproduces the data. */
static void test_fill_rates(void) {
    wb_err e;
    host_cols h;
    wb_scan_expect x, y;
    cols_alloc(&h, WB_SCAN_Q11, 1000003);
    wb_scan_fill(&h.c, &wb_scan_ssb, 1.0, 3);
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &x, &e) == WB_OK);
    CHECK_NEAR((double)x.rows_all / (double)x.rows_first, 3.0 / 11 * 24.0 / 50, 0.003);
    /* At s = 1 discount is needed everywhere; quantity in 1 - (8/11)^8 of sectors. */
    CHECK(x.need[0] == x.sectors);
    CHECK_NEAR((double)x.need[1] / (double)x.sectors, 1 - pow(8.0 / 11, 8), 0.003);
    wb_scan_fill(&h.c, &wb_scan_ssb, 1.0, 3);
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &y, &e) == WB_OK);
    CHECK(x.sum == y.sum && x.need[2] == y.need[2]);
    wb_scan_fill(&h.c, &wb_scan_ssb, 1.0, 4);
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &y, &e) == WB_OK);
    CHECK(x.sum != y.sum);
    cols_free(&h);
    cols_alloc(&h, WB_SCAN_Q31, 1000003);
    wb_scan_fill(&h.c, &wb_scan_ssb, 0.5, 3);
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &x, &e) == WB_OK);
    CHECK_NEAR((double)x.rows_all / (double)x.rows_first, 0.2, 0.02);
    cols_free(&h);
}

/* 20 rows in 3 sectors (8, 8, 4): sector 0 fails orderdate everywhere;
 * row 9 passes orderdate but not discount; row 17 passes all (2 x 1000);
 * row 18 fails quantity. */
static void test_q11_by_hand(void) {
    wb_err e;
    host_cols h;
    cols_alloc(&h, WB_SCAN_Q11, 20);
    for (int i = 0; i < 20; i++) {
        h.c.orderdate[i] = 19940505;
        h.c.discount[i] = 2;
        h.c.quantity[i] = 10;
        h.c.extendedprice[i] = 500 + i;
    }
    h.c.orderdate[9] = 19930101, h.c.discount[9] = 0;
    h.c.orderdate[17] = 19931231, h.c.extendedprice[17] = 1000;
    h.c.orderdate[18] = 19930615, h.c.discount[18] = 3, h.c.quantity[18] = 25;
    wb_scan_expect x;
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &x, &e) == WB_OK);
    CHECK(x.sum == 2000);
    CHECK(x.rows_first == 3 && x.rows_all == 1);
    CHECK(x.sectors == 3);
    CHECK(x.need[0] == 2 && x.need[1] == 1 && x.need[2] == 1);
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q11, WB_SCAN_TILED) == 4 * 3 * 32);
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q11, WB_SCAN_DIRECT_NOSKIP) == 4 * 3 * 32);
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q11, WB_SCAN_DIRECT) == 32 * (3 + 2 + 1 + 1));
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q11, WB_SCAN_DIRECT_SECTOR) == 32 * (3 + 2 + 1 + 1));
    cols_free(&h);
}

/* 10 rows, 16 customers, of which 3 and 12 are in region 2: rows 0, 1, 9
 * pass orderdate with keys 3, 5, 12; rows 0 and 9 pass the lookup. */
static void test_q31_by_hand(void) {
    wb_err e;
    host_cols h;
    cols_alloc(&h, WB_SCAN_Q31, 10);
    free(h.mem[4]);
    h.c.dim_entries = 16;
    h.mem[4] = h.c.dim_region = calloc(16, sizeof(int32_t));
    h.c.dim_region[3] = h.c.dim_region[12] = 2;
    for (int i = 0; i < 10; i++) {
        h.c.orderdate[i] = 19920301;
        h.c.custkey[i] = 3; /* would pass the lookup, but these rows fail orderdate */
        h.c.revenue[i] = 1000 * i;
    }
    h.c.orderdate[0] = 19930101, h.c.custkey[0] = 3, h.c.revenue[0] = 100;
    h.c.orderdate[1] = 19930202, h.c.custkey[1] = 5;
    h.c.orderdate[9] = 19931231, h.c.custkey[9] = 12, h.c.revenue[9] = 7;
    wb_scan_expect x;
    CHECK(wb_scan_reference(&h.c, &wb_scan_ssb, &x, &e) == WB_OK);
    CHECK(x.sum == 107);
    CHECK(x.rows_first == 3 && x.rows_all == 2);
    CHECK(x.sectors == 2 && x.need[0] == 2 && x.need[1] == 2 && x.need[2] == 0);
    CHECK(x.dim_sectors == 2);
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q31, WB_SCAN_TILED) == 32 * (3 * 2 + 2));
    CHECK(wb_scan_bytes_model(&x, WB_SCAN_Q31, WB_SCAN_DIRECT) == 32 * (2 + 2 + 2 + 2));
    cols_free(&h);
}

static void test_compare(void) {
    wb_err e;
    CHECK(wb_scan_compare(123456789012LL, 123456789012LL, &e) == WB_OK);
    CHECK(wb_scan_compare(0, 0, &e) == WB_OK);
    CHECK(wb_scan_compare(123456789013LL, 123456789012LL, &e) == WB_ERR);
    CHECK(strstr(e.msg, "got 123456789013 expected 123456789012") != NULL);
    CHECK(wb_scan_compare(-5, 5, &e) == WB_ERR);
}

int main(void) {
    test_fill_exact_first_predicate();
    test_fill_rates();
    test_q11_by_hand();
    test_q31_by_hand();
    test_compare();
    return TEST_DONE();
}
