/* test_summary.c - `wallbench run --summary-json`: the object written for a
 * run state and the results file it wrote (synthetic: an ok point with a
 * low-clock warning, a skipped and a failed point): the file, the counts,
 * the failed and skipped points by name with their reasons, the measured
 * roof and a ceiling (NaN as null), the time split per family, the run's
 * warnings; python3's json module must parse it where python3 exists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/run/summary.h"

static char *slurp(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(void) {
    char dir[] = "/tmp/wb_summary_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    const char *h5 = synth_path(dir, "r.h5"), *js = synth_path(dir, "s.json");
    synth z;
    synth_open(&z, h5, "NVIDIA H200");
    wb_row a = synth_row("hashprobe", "ilp4", 12345, 0.5);
    snprintf(a.m.reason, sizeof a.m.reason, "warning: SM clock 1200 MHz below 90%% of the run's typical 1980 MHz");
    synth_put(&z, &a, NULL, 0);
    wb_row b = synth_row("select", "cub", 1 << 30, NAN);
    snprintf(b.m.status, sizeof b.m.status, "skipped");
    snprintf(b.m.reason, sizeof b.m.reason, "needs 9.00 GB of device memory, 1.00 GB available");
    synth_put(&z, &b, NULL, 0);
    wb_row c = synth_row("scan", "cub", 7, NAN);
    snprintf(c.m.status, sizeof c.m.status, "failed");
    snprintf(c.m.reason, sizeof c.m.reason, "verify: 1 of 7 mismatched; first: [3] got \"x\" expected 4");
    synth_put(&z, &c, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);

    static wb_run r; /* large: not on the stack */
    memset(&r, 0, sizeof r);
    snprintf(r.dev.name, sizeof r.dev.name, "NVIDIA H200");
    r.ok = r.skipped = r.failed = 1;
    r.done = 3;
    r.measured.inst_gips = 1030;
    r.measured.dram_gbps = NAN;
    r.nceilings = 1;
    snprintf(r.ceilings[0].variant, sizeof r.ceilings[0].variant, "inst_issue");
    r.ceilings[0].gbps = NAN;
    r.ceilings[0].gips = 1030;
    snprintf(r.counters_off, sizeof r.counters_off, "off (--ncu)");
    wb_spent_add(&r, "hashprobe", WB_SPENT_TIMING, 1.5);
    wb_spent_add(&r, "hashprobe", WB_SPENT_VERIFY, 0.25);
    wb_spent_add(&r, "scan", WB_SPENT_DATA, 2.0);
    wb_err e;
    CHECK(wb_summary_write(js, &r, h5, "wallbench run --ncu", 1, "", &e) == WB_OK);
    const char *s = slurp(js);
    CHECK(s != NULL);
    if (s) {
        CHECK(strstr(s, "\"results_file\":\"/tmp/wb_summary_") != NULL);
        CHECK(strstr(s, "\"exit_code\":1,\"error\":null") != NULL);
        CHECK(strstr(s, "\"points\":{\"ok\":1,\"skipped\":1,\"failed\":1,\"rows\":3}") != NULL);
        CHECK(strstr(s, "\"failed\":[{\"point\":\"scan/cub/int32/n:7/ilp:4/block:256/occupancy_target:1\",\"id\":2,"
                        "\"reason\":\"verify: 1 of 7 mismatched; first: [3] got \\\"x\\\" expected 4\"}]") != NULL);
        CHECK(strstr(s, "\"skipped\":[{\"point\":\"select/cub/") != NULL);
        CHECK(strstr(s, "\"measured_roof\":{\"inst_gips\":1030,\"dram_gbps\":null}") != NULL);
        CHECK(strstr(s, "\"ceilings\":{\"inst_issue\":{\"gbps\":null,\"gips\":1030}}") != NULL);
        CHECK(strstr(s, "\"hashprobe\":{\"points\":0,\"data_s\":0,\"verify_s\":0.25,\"counter_pass_s\":0,"
                        "\"timing_pass_s\":1.5}") != NULL);
        CHECK(strstr(s, "\"warnings\":[\"counters off (--ncu)\"]") != NULL);
        CHECK(strstr(s, "\"point_warnings\":[{\"point\":\"hashprobe/ilp4/") != NULL);
        if (wb_test_failures) fprintf(stderr, "%s\n", s);
    }
    if (system("command -v python3 >/dev/null 2>&1") == 0) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", js);
        CHECK(system(cmd) == 0);
    }
    /* Points timed while other processes held the GPU: a run warning too. */
    r.contended = 2;
    CHECK(wb_summary_write(js, &r, h5, "x", 0, "", &e) == WB_OK);
    s = slurp(js);
    CHECK(s && strstr(s, "\"warnings\":[\"counters off (--ncu)\",\"2 point(s) timed while other processes held the GPU "
                         "(other_processes > 0)\"]"));
    r.contended = 0;
    /* A run that failed before its results file existed. */
    CHECK(wb_summary_write(js, &r, "", "x", 1, "no point matches --benchmark_filter", &e) == WB_OK);
    s = slurp(js);
    CHECK(s && strstr(s, "\"results_file\":null") && strstr(s, "\"error\":\"no point matches --benchmark_filter\""));
    CHECK(s && strstr(s, "\"failed\":[]"));
    CHECK(wb_summary_write("/nonexistent/dir/s.json", &r, h5, "x", 0, "", &e) == WB_ERR);
    CHECK(strstr(e.msg, "--summary-json /nonexistent/dir/s.json: cannot write") != NULL);
    synth_remove_dir(dir);
    return TEST_DONE();
}
