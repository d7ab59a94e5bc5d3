/* test_gpu_sampling.c - the noise-driven sampling end to end on the GPU:
 * `wallbench run` of the transform family's test sweep with the default rule
 * (no --reps), then every ok row of its file must obey the rule it records:
 * samples_taken matches its /samples, at least 10 kept samples, a stop
 * reason of the rule, the recorded noise recomputed from the kept samples'
 * count, and a "noise" stop at <= 0.5% after >= 5 ms of measured time;
 * throttled samples counted (>= 0) and never more than were taken; where
 * NVML loads, the GPU temperature and power read after the samples are
 * plausible (HBM temperature too, or NaN on a board without that sensor).
 * Exit 77 without a GPU. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/stopping.h"
#include "harness/gpu/device.h"
#include "harness/store/store_h5.h"

static int newest_h5(const char *dir, char *out, size_t len) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int found = 0;
    char best[256] = "";
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".h5") == 0 && strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof best, "%s", e->d_name), found = 1;
    }
    closedir(d);
    if (found) snprintf(out, len, "%s/%s", dir, best);
    return found;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    const char *wb = getenv("WB_WALLBENCH"), *build = getenv("WB_BUILD_DIR");
    if (!wb || !build) return fprintf(stderr, "FAIL: WB_WALLBENCH and WB_BUILD_DIR must be set (CTest sets them)\n"), 1;
    char dir[1024], cmd[4096], path[1400];
    snprintf(dir, sizeof dir, "%s/test-results/sampling", build);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && '%s' run --family transform --sweep test --warmup 1 "
             "--no-counters --out '%s'", dir, dir, wb, dir);
    int rc = system(cmd);
    CHECK(rc == 0);
    if (!newest_h5(dir, path, sizeof path)) return fprintf(stderr, "FAIL: no results file in %s\n", dir), 1;
    wb_results r;
    wb_err e = {""};
    if (wb_results_open(path, &r, &e) != WB_OK) return fprintf(stderr, "FAIL: %s\n", e.msg), 1;
    const wb_stop_rule *rule = &wb_stop_default;
    int checked = 0;
    const int nvml = wb_nvml_status()[0] == '\0';
    if (!nvml) printf("NVML unavailable (%s): thermal columns not checked\n", wb_nvml_status());
    for (int64_t i = 0; i < r.nrows; i++) {
        const wb_row *w = &r.rows[i];
        if (strcmp(w->m.status, "ok") != 0) continue;
        checked++;
        const int n = r.sample_count[i];
        const double *ms = r.sample_ms + r.sample_start[i];
        double sum = 0;
        for (int k = 0; k < n; k++) sum += ms[k];
        const int kept = n - w->m.throttled;
        int bad = w->m.samples_taken != n || w->m.throttled < 0 || w->m.throttled > n || n > rule->max_samples;
        bad |= strcmp(w->m.stop, "noise") && strcmp(w->m.stop, "plateau") && strcmp(w->m.stop, "timeout") &&
               strcmp(w->m.stop, "max_samples");
        bad |= strcmp(w->m.stop, "timeout") != 0 && kept < rule->min_samples;
        bad |= !strcmp(w->m.stop, "noise") && (!(w->m.noise <= rule->max_noise) || sum < rule->min_time_ms * 0.999);
        bad |= !isfinite(w->m.noise) && n >= 2;
        if (nvml) {
            const double g = w->m.gpu_temp_c, hbm = w->m.mem_temp_c, pw = w->m.power_w;
            bad |= !(g > 5 && g < 120) || !(pw > 1 && pw < 5000) || (!isnan(hbm) && !(hbm > 5 && hbm < 120));
            if (i == 0) printf("row 0: GPU %.0f C, HBM %.0f C, %.1f W\n", g, hbm, pw);
        }
        if (bad)
            fprintf(stderr, "FAIL: row %lld (%s/%s n=%lld): %d samples in /samples, samples_taken %d, throttled %d, "
                    "stop '%s', noise %g, %.3f ms measured; GPU %g C, HBM %g C, %g W\n", (long long)i, w->p.family,
                    w->p.variant, (long long)w->p.n, n, w->m.samples_taken, w->m.throttled, w->m.stop, w->m.noise, sum,
                    w->m.gpu_temp_c, w->m.mem_temp_c, w->m.power_w);
        CHECK(!bad);
    }
    printf("%d ok rows of %s follow the stopping rule\n", checked, path);
    CHECK(checked > 0);
    wb_results_free(&r);
    return TEST_DONE();
}
