/* stopping.h - when a point has enough timed samples (nvbench's "stdrel"
 * criterion), and which samples were taken while the GPU throttled. Pure
 * functions over a sample sequence, so that the rule is tested without a GPU
 * (tests/test_stopping.c); run/measure.c drives them.
 *
 * The rule: keep sampling until the relative standard deviation (stddev /
 * mean) of the kept samples is at most max_noise, once at least min_samples
 * were kept and min_time_ms of them was measured; stop earlier when the
 * noise has settled above the target (a plateau: over the last
 * plateau_window samples it changed by less than plateau_rel of itself),
 * when timeout_s of wall time has passed, or at max_samples. A plateau waits
 * for cover_samples: a point whose samples rotate an output over places
 * (micro/data.h) settles on a median over all of them, not over the first. */
#ifndef WB_STOPPING_H
#define WB_STOPPING_H

#include <stdint.h>

typedef enum {
    WB_STOP_MORE = 0,    /* keep sampling */
    WB_STOP_NOISE,       /* noise reached the target */
    WB_STOP_PLATEAU,     /* noise settled above the target */
    WB_STOP_TIMEOUT,     /* wall-time limit */
    WB_STOP_MAX_SAMPLES, /* sample cap */
    WB_STOP_FIXED,       /* --reps R: a fixed count, no rule */
} wb_stop;

typedef struct wb_stop_rule {
    double max_noise;   /* target relative stddev, a fraction (0.005 = 0.5%) */
    int min_samples;    /* kept samples before the noise may stop */
    double min_time_ms; /* summed kept sample time before the noise may stop */
    int max_samples;    /* hard cap on samples taken (kept or not) */
    double timeout_s;   /* wall time of the samples, checked after each */
    int plateau_window; /* samples over which a settled noise is judged */
    double plateau_rel; /* settled: |noise now - noise window ago| <= plateau_rel * noise now */
    int cover_samples;  /* samples before a plateau may stop (the point's places); 0: none */
} wb_stop_rule;

/* The sweep's defaults (the values and why: stopping.c). */
extern const wb_stop_rule wb_stop_default;

/* "noise", "plateau", "timeout", "max_samples", "fixed"; "" for MORE. */
const char *wb_stop_name(wb_stop s);

/* Relative standard deviation (sample stddev / mean) of the ms[i] with
 * keep[i] != 0 (keep NULL: all) among the first n; NaN for fewer than 2. */
double wb_noise(const double *ms, const unsigned char *keep, int n);

/* The decision after n samples: taken ms[0..n-1], keep[i] 0 for a sample
 * left out (throttled), wall_s since the first sample began. *noise gets the
 * noise of the kept samples (NaN below 2). */
wb_stop wb_stop_check(const wb_stop_rule *r, const double *ms, const unsigned char *keep, int n, double wall_s,
                      double *noise);

/* NVML clock-event (throttle) reasons that mean thermal or power limits:
 * SW power cap, HW slowdown, SW/HW thermal slowdown, HW power brake. */
#define WB_THROTTLE_POWER_THERMAL 0xECull

/* 1 when one sample counts as throttled (the rule below, no fallback). */
int wb_throttled(double clock_mhz, uint64_t reasons, double typical_mhz);

/* Flags the samples taken while throttled: SM clock under 90% of typical_mhz
 * (the run's median; NaN: clock not judged) or a reason bit of
 * WB_THROTTLE_POWER_THERMAL set. clock_mhz[i] NaN: not judged by clock.
 * keep[i] = 0 for a flagged sample, 1 otherwise; returns the flagged count.
 * When every sample would be flagged, all are kept (the median would
 * otherwise be empty) and the count is still returned. */
int wb_throttle_filter(const double *clock_mhz, const uint64_t *reasons, int n, double typical_mhz,
                       unsigned char *keep);

#endif
