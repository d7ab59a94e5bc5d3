/* test_stats.c - the statistics of harness/base/stats.c on known inputs: the
 * median of odd and even counts (the middle pair, not its neighbour), min,
 * max, the sample (n - 1) standard deviation, empty inputs, and that the
 * caller's samples keep their order. */
#include <math.h>
#include <string.h>

#include "harness/base/stats.h"
#include "tests/check.h"

static void test_median(void) {
    const double odd[] = {3.0, 1.0, 2.0};
    CHECK_NEAR(wb_stats_median(odd, 3), 2.0, 0);
    const double one[] = {7.5};
    CHECK_NEAR(wb_stats_median(one, 1), 7.5, 0);
    /* Even: sorted {1, 2, 3, 10}: (2 + 3) / 2. Picking the pair one to the
     * right (3 + 10) / 2 = 6.5 or the upper middle alone (3) must fail. */
    const double even[] = {10.0, 1.0, 3.0, 2.0};
    CHECK_NEAR(wb_stats_median(even, 4), 2.5, 0);
    const double two[] = {4.0, 1.0};
    CHECK_NEAR(wb_stats_median(two, 2), 2.5, 0);
    /* Six samples with ties and a slow outlier, as timings look. */
    const double six[] = {1.25, 1.0, 9.0, 1.0, 1.5, 1.25};
    CHECK_NEAR(wb_stats_median(six, 6), 1.25, 0);
    const double eight[] = {8, 7, 6, 5, 4, 3, 2, 1};
    CHECK_NEAR(wb_stats_median(eight, 8), 4.5, 0);
}

static void test_min_max(void) {
    const double x[] = {2.5, -1.0, 7.0, 0.0};
    CHECK_NEAR(wb_stats_min(x, 4), -1.0, 0);
    CHECK_NEAR(wb_stats_max(x, 4), 7.0, 0);
    CHECK_NEAR(wb_stats_mean(x, 4), 2.125, 1e-15);
}

static void test_stddev(void) {
    /* Mean 5, squared deviations sum to 32: sample stddev sqrt(32/7), while
     * the population formula would give exactly 2. */
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    CHECK_NEAR(wb_stats_stddev(x, 8), sqrt(32.0 / 7.0), 1e-12);
    const double same[] = {3, 3, 3};
    CHECK_NEAR(wb_stats_stddev(same, 3), 0.0, 0);
    /* Large offset, small spread: a one-pass sum of squares loses it. */
    const double big[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
    CHECK_NEAR(wb_stats_stddev(big, 3), 1.0, 1e-6);
    const double single[] = {4.0};
    CHECK(isnan(wb_stats_stddev(single, 1)));
}

static void test_empty(void) {
    const double none[] = {0.0};
    CHECK(isnan(wb_stats_median(none, 0)));
    CHECK(isnan(wb_stats_min(none, 0)));
    CHECK(isnan(wb_stats_max(none, 0)));
    CHECK(isnan(wb_stats_mean(none, 0)));
    CHECK(isnan(wb_stats_stddev(none, 0)));
    CHECK(isnan(wb_stats_median(none, -3)));
    wb_summary s;
    wb_stats_summarize(none, 0, &s);
    CHECK(s.n == 0);
    CHECK(isnan(s.median) && isnan(s.min) && isnan(s.max) && isnan(s.stddev));
}

static void test_summary_keeps_order(void) {
    double x[] = {0.31, 0.29, 0.30, 0.35, 0.28};
    const double copy[] = {0.31, 0.29, 0.30, 0.35, 0.28};
    wb_summary s;
    wb_stats_summarize(x, 5, &s);
    CHECK(memcmp(x, copy, sizeof x) == 0);
    CHECK(s.n == 5);
    CHECK_NEAR(s.median, 0.30, 0);
    CHECK_NEAR(s.min, 0.28, 0);
    CHECK_NEAR(s.max, 0.35, 0);
    CHECK_NEAR(s.mean, 0.306, 1e-12);
}

int main(void) {
    test_median();
    test_min_max();
    test_stddev();
    test_empty();
    test_summary_keeps_order();
    return TEST_DONE();
}
