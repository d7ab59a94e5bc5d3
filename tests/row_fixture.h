/* row_fixture.h - deterministic rows for the HDF5 tests (test_store_h5.c,
 * test_crash.c). Every schema column gets a value derived from the row number
 * and the column's index, cycling through the edge values a store must keep
 * exactly: NaN, infinities, -0.0, -1, extreme integers (counts: NaN, 0, 2^53), empty strings, and
 * strings that fill their whole buffer with no NUL (stored cut by one byte). */
#ifndef WB_TEST_ROW_FIXTURE_H
#define WB_TEST_ROW_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/point.h"
#include "harness/store/schema.h"

static void fixture_fill(wb_row *r, int64_t k, int expected) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    wb_row_init(r);
    for (int i = 0; i < n; i++) {
        char *f = (char *)r + c[i].offset;
        int64_t m = k + i;
        switch (c[i].type) {
        case WB_COL_I32: {
            int32_t v[4] = {-1, (int32_t)(k * 1000 + i), INT32_MAX - i, INT32_MIN + i};
            /* 0 is the field's "does not apply" (the file's -1): -1 is not a field value */
            if (c[i].enc == WB_ENC_ZERO_NA) v[0] = 0, v[3] = 7;
            memcpy(f, &v[m % 4], sizeof(int32_t));
            break;
        }
        case WB_COL_I64: {
            int64_t v[4] = {-1, ((int64_t)1 << 40) + k * 977 + i, INT64_MAX - i, INT64_MIN + k};
            memcpy(f, &v[m % 4], sizeof(int64_t));
            break;
        }
        case WB_COL_F64: {
            if (c[i].count) { /* a whole count or NaN (not counted): an int64 in the file, -1 for NaN */
                double w[4] = {NAN, (double)(k * 1000 + i), 0.0, 9007199254740992.0 /* 2^53 */};
                memcpy(f, &w[m % 4], sizeof(double));
                break;
            }
            double v[6] = {NAN, k * 1.25 + i / 7.0, -1.0, INFINITY, -0.0, -1e300 / (double)(k + 1)};
            /* percent in the file: values that x100 and /100 give back bit for bit */
            if (c[i].enc == WB_ENC_PCT) v[1] = (double)(k + i) * 0.25, v[5] = -3.5;
            memcpy(f, &v[m % 6], sizeof(double));
            break;
        }
        case WB_COL_STR:
            memset(f, 0, c[i].size);
            if (m % 3 == 1) snprintf(f, c[i].size, "c%dr%lld", i, (long long)k);
            /* A full buffer without NUL: the store keeps size - 1 bytes. */
            if (m % 3 == 2) {
                for (size_t b = 0; b < c[i].size; b++) f[b] = (char)('a' + (b + (size_t)m) % 26);
                if (expected) f[c[i].size - 1] = '\0';
            }
            break;
        }
    }
    /* The store numbers rows itself and names them after their point; what
     * the caller leaves in id and name is ignored. */
    r->m.id = expected ? k : 12345;
    if (expected) wb_point_name(&r->p, r->name, sizeof r->name);
}

/* Row k as the caller hands it to the store / as the store must give it back. */
static void fixture_row(wb_row *r, int64_t k) { fixture_fill(r, k, 0); }
static void fixture_expect(wb_row *r, int64_t k) { fixture_fill(r, k, 1); }

static int fixture_nsamples(int64_t k) { return (int)(k % 4); }
static double fixture_sample(int64_t k, int rep) { return (double)k * 10.0 + rep + 0.25; }

/* Compares got with want column by column (numbers bit for bit, so NaN and
 * -0.0 count); prints each difference under label. Returns the count. */
static int fixture_diff(const wb_row *got, const wb_row *want, const char *label) {
    int n, bad = 0;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++) {
        const char *g = (const char *)got + c[i].offset, *w = (const char *)want + c[i].offset;
        int same = c[i].type == WB_COL_STR ? memchr(g, '\0', c[i].size) && strcmp(g, w) == 0
                                           : memcmp(g, w, c[i].size) == 0;
        if (!same) {
            fprintf(stderr, "%s: column %s differs (got %.17g / \"%.*s\", want %.17g / \"%.*s\")\n", label,
                    c[i].name, wb_row_get(got, &c[i]), c[i].type == WB_COL_STR ? (int)c[i].size : 0, g,
                    wb_row_get(want, &c[i]), c[i].type == WB_COL_STR ? (int)c[i].size : 0, w);
            bad++;
        }
    }
    if (got->p.variant_id != -1) {
        fprintf(stderr, "%s: variant_id (not a column) is %d, want the init value -1\n", label, got->p.variant_id);
        bad++;
    }
    return bad;
}

#endif
