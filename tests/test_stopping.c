/* test_stopping.c - the noise-driven stopping rule and the throttle filter
 * (harness/base/stopping.h) over sample sequences with known answers. */
#include <math.h>
#include <stdint.h>

#include "tests/check.h"
#include "harness/base/stopping.h"

static const wb_stop_rule rule = {.max_noise = 0.005, .min_samples = 10, .min_time_ms = 5.0, .max_samples = 200,
                                  .timeout_s = 1.0, .plateau_window = 20, .plateau_rel = 0.10};

/* Feeds ms[] one sample at a time (wall = ms summed + per-sample overhead)
 * until the rule stops; returns the reason, *taken the samples used. */
static wb_stop feed(const double *ms, int n, double overhead_s, int *taken, double *noise) {
    double wall = 0;
    for (int i = 1; i <= n; i++) {
        wall += ms[i - 1] * 1e-3 + overhead_s;
        wb_stop s = wb_stop_check(&rule, ms, NULL, i, wall, noise);
        if (s != WB_STOP_MORE) {
            *taken = i;
            return s;
        }
    }
    *taken = n;
    return WB_STOP_MORE;
}

/* x_i = base * (1 + amp * u_i), u_i in [-1, 1] from a fixed LCG: known noise. */
static void series(double *ms, int n, double base, double amp, uint32_t seed) {
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        ms[i] = base * (1 + amp * ((seed >> 8) / (double)(1u << 24) * 2 - 1));
    }
}

int main(void) {
    double ms[400], noise;
    int taken;

    /* wb_noise: stddev / mean, keep mask honoured, NaN below 2 samples. */
    double two[] = {1.0, 3.0, 100.0};
    unsigned char keep2[] = {1, 1, 0};
    CHECK_NEAR(wb_noise(two, keep2, 3), sqrt(2.0) / 2.0, 1e-12);
    CHECK(isnan(wb_noise(two, NULL, 1)));

    /* A quiet 2 ms point: 0.1% noise; stops on noise at the minimum count. */
    series(ms, 400, 2.0, 0.002, 1);
    CHECK(feed(ms, 400, 1e-4, &taken, &noise) == WB_STOP_NOISE);
    CHECK(taken == rule.min_samples);
    CHECK(noise < 0.005);

    /* A quiet 10 us point must first reach 5 ms of measured time: 500
     * samples > the cap of 200, so the cap stops it, not the noise. */
    series(ms, 400, 0.01, 0.002, 2);
    CHECK(feed(ms, 400, 1e-4, &taken, &noise) == WB_STOP_MAX_SAMPLES);
    CHECK(taken == rule.max_samples);
    /* ... and a 0.1 ms one stops on noise at exactly 50 samples (5 ms). */
    for (int i = 0; i < 400; i++) ms[i] = 0.1 * (1 + 0.001 * (i % 2 ? 1 : -1));
    CHECK(feed(ms, 400, 1e-4, &taken, &noise) == WB_STOP_NOISE);
    CHECK(taken == 50 || taken == 51); /* 5 ms, up to the rounding of the sum */

    /* Stationary 3% noise (uniform +-5.2%) never reaches 0.5%: the noise
     * settles and the plateau stops it, after min_samples + window and
     * before the cap. */
    series(ms, 400, 1.0, 0.052, 3);
    wb_stop s = feed(ms, 400, 1e-4, &taken, &noise);
    CHECK(s == WB_STOP_PLATEAU);
    CHECK(taken >= rule.min_samples + rule.plateau_window && taken < rule.max_samples);
    CHECK(noise > 0.02 && noise < 0.04);

    /* The same point rotating an output over 127 places: the plateau waits
     * for one sample per place; the noise stop does not (a quiet point's
     * places do not matter). */
    wb_stop_rule placed = rule;
    placed.cover_samples = 127;
    double wall = 0;
    for (taken = 1; taken <= 400; taken++) {
        wall += ms[taken - 1] * 1e-3 + 1e-4;
        if ((s = wb_stop_check(&placed, ms, NULL, taken, wall, &noise)) != WB_STOP_MORE) break;
    }
    CHECK(s == WB_STOP_PLATEAU && taken >= 127 && taken < rule.max_samples);
    series(ms, 400, 2.0, 0.002, 1);
    CHECK(wb_stop_check(&placed, ms, NULL, rule.min_samples, 0.0, &noise) == WB_STOP_NOISE);
    series(ms, 400, 1.0, 0.052, 3);

    /* Noise that keeps growing (a drifting point) is no plateau: a ramp of
     * slow 40 ms samples runs into the 1 s timeout. */
    for (int i = 0; i < 400; i++) ms[i] = 40.0 * (1 + 0.01 * i);
    CHECK(feed(ms, 400, 1e-4, &taken, &noise) == WB_STOP_TIMEOUT);
    CHECK(taken < rule.min_samples + rule.plateau_window);

    /* Left-out samples do not count toward the minimum: with every other
     * sample dropped, 10 kept samples need 19 taken. */
    unsigned char keep[400];
    series(ms, 400, 2.0, 0.002, 4);
    for (int i = 0; i < 400; i++) keep[i] = (unsigned char)(i % 2 == 0);
    CHECK(wb_stop_check(&rule, ms, keep, 18, 0.0, &noise) == WB_STOP_MORE);
    CHECK(wb_stop_check(&rule, ms, keep, 19, 0.0, &noise) == WB_STOP_NOISE);
    /* An outlier left out no longer inflates the noise. */
    ms[1] = 20.0;
    CHECK(wb_stop_check(&rule, ms, NULL, 19, 0.0, &noise) == WB_STOP_MORE);
    CHECK(noise > 0.5);
    CHECK(wb_stop_check(&rule, ms, keep, 19, 0.0, &noise) == WB_STOP_NOISE);

    /* Throttle filter: under 90% of the typical clock, or a power/thermal
     * reason; idle or application-clock bits alone are no throttling. */
    double clk[] = {1980, 1700, 1790, NAN, 1980, 1980};
    uint64_t why[] = {0x0, 0x0, 0x0, 0x0, 0x4 /* SW power cap */, 0x1 | 0x2 /* idle, app clocks */};
    unsigned char k[6];
    CHECK(wb_throttle_filter(clk, why, 6, 1980, k) == 2);
    CHECK(k[0] && !k[1] && k[2] && k[3] && !k[4] && k[5]);
    /* 0x20, 0x40 (thermal), 0x8 (HW slowdown), 0x80 (power brake) flag too. */
    uint64_t hot[] = {0x20, 0x40, 0x8, 0x80, 0x0, 0x0};
    CHECK(wb_throttle_filter(clk, hot, 6, NAN, k) == 4);
    CHECK(!k[0] && !k[1] && !k[2] && !k[3] && k[4] && k[5]);
    /* All flagged: all kept (a median of nothing is no answer), still counted. */
    double low[] = {1000, 1000};
    CHECK(wb_throttle_filter(low, NULL, 2, 1980, k) == 2);
    CHECK(k[0] && k[1]);

    CHECK(wb_stop_name(WB_STOP_PLATEAU)[0] == 'p' && wb_stop_name(WB_STOP_MORE)[0] == '\0');
    return TEST_DONE();
}
