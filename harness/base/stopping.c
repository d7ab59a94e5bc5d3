/* stopping.c - the noise-driven stopping rule and the throttle filter (see
 * stopping.h). */
#include "harness/base/stopping.h"

#include <math.h>
#include <stddef.h>

/* nvbench's defaults are 0.5% noise, 10 samples, 0.5 s measured, 15 s
 * timeout: sized for one benchmark, not for a sweep of ~1,500 points whose
 * timing passes took 40 s of the full sweep's 287 s at a fixed 10 samples
 * (record 0dafc16), with a budget of +30% of the sweep (86 s) for the rule.
 * - 0.5% noise and 10 samples: nvbench's. In that record the median point of
 *   >= 1 ms had 0.06% noise, so those stop at 10 samples as before; the
 *   repeatability target (medians of points >= 1 ms within 1% between runs)
 *   needs no more samples, it needs the noisy ones to go on.
 * - 5 ms measured instead of 0.5 s: 0.5 s per point alone would be ~720 s.
 *   5 ms gives the 6-100 us launches, whose noise (1.5-2.3% in that record)
 *   is launch jitter, 50-200 samples instead of 10.
 * - 200 samples, 1 s of wall time per point instead of 15 s: a point that
 *   never reaches 0.5% (short launches, contended atomics) costs at most
 *   ~20 ms (short) or 1 s (long, rare). Replaying the rule on the record's
 *   own samples (bootstrap; its measured per-sample overhead plus 0.03 ms
 *   of NVML) gives ~46 s of timing instead of 40 s: 986 points stop on
 *   noise, 177 on a plateau, 260 at the cap, 2 on the timeout.
 * - plateau over 20 samples within 10%: the noise estimate of n samples
 *   itself moves by ~1/sqrt(2n) (16% at 20), so a tighter band rarely ends a
 *   run that has settled, and a looser one ends runs still converging.
 * - a plateau also waits for cover_samples (the point's places, 127 for
 *   the contended outputs on the H200): one sample per place. That took the
 *   timing pass of the full sweep from 84.1 s to 118.0 s (repeats of 27456bd
 *   and 5280b51), and warp selection between two processes on one board
 *   from 1.0-4.2% apart to at most 0.55% (results/h200-places, in history: results/HISTORY.md). */
const wb_stop_rule wb_stop_default = {
    .max_noise = 0.005,
    .min_samples = 10,
    .min_time_ms = 5.0,
    .max_samples = 200,
    .timeout_s = 1.0,
    .plateau_window = 20,
    .plateau_rel = 0.10,
};

const char *wb_stop_name(wb_stop s) {
    switch (s) {
    case WB_STOP_NOISE: return "noise";
    case WB_STOP_PLATEAU: return "plateau";
    case WB_STOP_TIMEOUT: return "timeout";
    case WB_STOP_MAX_SAMPLES: return "max_samples";
    case WB_STOP_FIXED: return "fixed";
    default: return "";
    }
}

double wb_noise(const double *ms, const unsigned char *keep, int n) {
    double sum = 0, sq = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!keep || keep[i]) sum += ms[i], k++;
    if (k < 2) return NAN;
    const double mean = sum / k;
    for (int i = 0; i < n; i++)
        if (!keep || keep[i]) sq += (ms[i] - mean) * (ms[i] - mean);
    return mean > 0 ? sqrt(sq / (k - 1)) / mean : NAN;
}

wb_stop wb_stop_check(const wb_stop_rule *r, const double *ms, const unsigned char *keep, int n, double wall_s,
                      double *noise) {
    int kept = 0;
    double kept_ms = 0;
    for (int i = 0; i < n; i++)
        if (!keep || keep[i]) kept++, kept_ms += ms[i];
    *noise = wb_noise(ms, keep, n);
    const int enough = kept >= r->min_samples && kept_ms >= r->min_time_ms;
    if (enough && *noise <= r->max_noise) return WB_STOP_NOISE;
    if (enough && n >= r->min_samples + r->plateau_window && n >= r->cover_samples) {
        const double before = wb_noise(ms, keep, n - r->plateau_window);
        if (fabs(*noise - before) <= r->plateau_rel * *noise) return WB_STOP_PLATEAU;
    }
    if (n >= r->max_samples) return WB_STOP_MAX_SAMPLES;
    if (wall_s >= r->timeout_s && kept >= 1) return WB_STOP_TIMEOUT;
    return WB_STOP_MORE;
}

int wb_throttled(double clock_mhz, uint64_t reasons, double typical_mhz) {
    const int slow = !isnan(typical_mhz) && !isnan(clock_mhz) && clock_mhz < 0.9 * typical_mhz;
    return slow || (reasons & WB_THROTTLE_POWER_THERMAL) != 0;
}

int wb_throttle_filter(const double *clock_mhz, const uint64_t *reasons, int n, double typical_mhz,
                       unsigned char *keep) {
    int flagged = 0;
    for (int i = 0; i < n; i++) {
        keep[i] = !wb_throttled(clock_mhz ? clock_mhz[i] : NAN, reasons ? reasons[i] : 0, typical_mhz);
        flagged += !keep[i];
    }
    if (flagged == n)
        for (int i = 0; i < n; i++) keep[i] = 1;
    return flagged;
}
