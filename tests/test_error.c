/* test_error.c - wb_err_prefix: the prefix before the message, and a message that no longer fits
 * ending in "..." rather than cut off silently. */
#include <string.h>

#include "harness/base/error.h"
#include "tests/check.h"

int main(void) {
    wb_err e;
    CHECK(wb_fail(&e, "bad %s", "input") == WB_ERR);
    wb_err_prefix(&e, "select/n=1024");
    CHECK(strcmp(e.msg, "select/n=1024: bad input") == 0);

    char longer[sizeof e.msg];
    memset(longer, 'x', sizeof longer - 1); /* a full message: no room left for the prefix */
    longer[sizeof longer - 1] = '\0';
    wb_fail(&e, "%s", longer);
    wb_err_prefix(&e, "point");
    const size_t n = strlen(e.msg);
    CHECK(n == sizeof e.msg - 1);
    CHECK(strncmp(e.msg, "point: xxx", 10) == 0);
    CHECK(strcmp(e.msg + n - 3, "...") == 0 && e.msg[n - 4] == 'x');

    /* A message that just fits keeps its end. */
    memset(longer, 'y', sizeof longer);
    longer[sizeof longer - 1 - strlen("p: ")] = '\0';
    wb_fail(&e, "%s", longer);
    wb_err_prefix(&e, "p");
    CHECK(strlen(e.msg) == sizeof e.msg - 1 && e.msg[sizeof e.msg - 2] == 'y');
    return TEST_DONE();
}
