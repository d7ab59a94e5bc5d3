/* check.h - the tests' assert: prints file, line and the failed expression,
 * counts failures, and never aborts so that one run reports every failure. */
#ifndef WB_TEST_CHECK_H
#define WB_TEST_CHECK_H

#include <stdio.h>

static int wb_test_failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            wb_test_failures++;                                                     \
        }                                                                           \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                          \
    do {                                                                                               \
        double a_ = (a), b_ = (b);                                                                     \
        if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol))) {                                                 \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.10g, %s = %.10g\n", __FILE__, __LINE__, #a, \
                    a_, #b, b_);                                                                       \
            wb_test_failures++;                                                                        \
        }                                                                                              \
    } while (0)

/* Exit code for CTest: 0 pass, 1 fail. Skips use WB_TEST_SKIP (77). */
#define WB_TEST_SKIP 77
#define TEST_DONE() (wb_test_failures ? (fprintf(stderr, "%d check(s) failed\n", wb_test_failures), 1) : 0)

#endif
