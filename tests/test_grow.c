/* test_grow.c - the growable array: capacities double from the first, the
 * elements already in place survive every move, and a count below the
 * capacity allocates nothing. */
#include <stdint.h>
#include <stdlib.h>

#include "tests/check.h"
#include "harness/base/grow.h"

int main(void) {
    int64_t *v = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(wb_grow(&v, n, &cap, sizeof *v, 8) == 0);
        v[n++] = 3 * (int64_t)i + 1;
    }
    CHECK(cap == 1024);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= v[i] == 3 * (int64_t)i + 1;
    CHECK(ok);
    int64_t *before = v;
    CHECK(wb_grow(&v, 10, &cap, sizeof *v, 8) == 0 && v == before && cap == 1024);
    free(v);
    return TEST_DONE();
}
