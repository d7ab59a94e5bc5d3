/* test_check.c - `wallbench check` and what it stands on: the Mann-Whitney
 * U test on known values, the thresholds parser's errors (file:line, exit
 * 2), a synthetic file against itself (exit 0), a file with no point of the
 * baseline's (exit 2: nothing would be checked), synthetic regressions (exit
 * 1, every violation listed), the most specific rule winning, and foreign or
 * damaged files (exit 2). */
#include <hdf5.h>
#include <stdlib.h>

#include "tests/check.h"
#include "harness/commands.h"
#include "harness/base/mwu.h"
#include "tests/synth_results.h"

#define OUT_LEN 65536
static char out[OUT_LEN];
static char dir[] = "/tmp/wb_test_check_XXXXXX";

static const char *path_of(const char *name) { return synth_path(dir, name); }

/* The p-values of scipy.stats.mannwhitneyu(x, y, alternative="two-sided")
 * (scipy 1.17.1, method "auto"), computed for this test with python3 + scipy;
 * the first three and "two each" take the exact path, the rest the normal
 * approximation with tie correction. */
static void test_mwu(void) {
    static const double x1[] = {1.1, 2.3, 0.5, 4.0, 3.3}, y1[] = {5.5, 6.1, 2.0, 7.7, 8.8, 9.9};
    static const double x2[] = {1, 2, 3}, y2[] = {4, 5, 6};
    static const double x3[] = {3.0, 1.0, 2.0};
    static const double x5[] = {1, 2, 2, 3}, y5[] = {2, 3, 4, 4, 5};
    static const double x6[] = {1, 1, 1, 1, 1}, y6[] = {1, 1, 1, 1, 1, 1};
    static const double x8[] = {1, 2}, y8[] = {3, 4};
    double y3[100], x4[20], y4[25], x7[30], y7[30];
    for (int i = 0; i < 100; i++) y3[i] = i * 0.37 + 0.1;
    for (int i = 0; i < 20; i++) x4[i] = (i * 7 % 13) + 0.5 * (i % 3);
    for (int i = 0; i < 25; i++) y4[i] = (i * 5 % 11) + 1.0 + 0.5 * (i % 2);
    for (int i = 0; i < 30; i++) x7[i] = 1.0 + 0.001 * i, y7[i] = 1.0105 + 0.001 * i;
    struct { const double *x; int nx; const double *y; int ny; double u1, p; int exact; } c[] = {
        {x1, 5, y1, 6, 3.0, 0.030303030303030304, 1},
        {x2, 3, y2, 3, 0.0, 0.1, 1},
        {x3, 3, y3, 100, 17.0, 0.0026802223340552218, 1},
        {x4, 20, y4, 25, 232.5, 0.6975232496059758, 0},
        {x5, 4, y5, 5, 2.5, 0.07854585095119067, 0},
        {x6, 5, y6, 6, 15.0, 1.0, 0},
        {x7, 30, y7, 30, 190.0, 0.00012477053789099933, 0},
        {x8, 2, y8, 2, 0.0, 0.3333333333333333, 1},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        wb_mwu u;
        CHECK(wb_mwu_test(c[i].x, c[i].nx, c[i].y, c[i].ny, &u) == 0);
        CHECK_NEAR(u.u1, c[i].u1, 1e-12);
        CHECK_NEAR(u.p, c[i].p, 1e-12 + 1e-9 * c[i].p);
        CHECK(u.exact == c[i].exact);
    }
    wb_mwu u;
    double nan_sample[2] = {1, NAN};
    CHECK(wb_mwu_test(x1, 0, y1, 6, &u) == -1 && isnan(u.p));
    CHECK(wb_mwu_test(nan_sample, 2, y1, 6, &u) == -1);
}

/* Baseline-like file: four points with counters; scale multiplies the
 * time of point time_at and the instructions of point inst_at (-1: none);
 * drop leaves point drop out; nan_at loses its instruction count. */
typedef struct variation {
    int time_at, inst_at, drop, nan_at;
    double time_scale, inst_scale;
    const char *gpu;
} variation;

static void write_file(const char *name, variation v) {
    static const struct { const char *family, *variant; double ms, inst; } pts[] = {
        {"transform", "scalar", 2.0, 4e7}, {"transform", "vec16", 1.0, 1e7},
        {"select", "if_atomic", 3.0, 9e7},  {"select", "if_atomic", 0.01, 2e5},
    };
    synth z;
    synth_open(&z, path_of(name), v.gpu ? v.gpu : "NVIDIA H200");
    for (int i = 0; i < 4; i++) {
        if (i == v.drop) continue;
        wb_row r = synth_row(pts[i].family, pts[i].variant, i == 3 ? 4096 : (int64_t)1 << 24, pts[i].ms);
        if (i == v.time_at) r.m.time_median_ms *= v.time_scale;
        synth_counters(&r, pts[i].inst * (i == v.inst_at ? v.inst_scale : 1), 2e6, 1e6);
        if (i == v.nan_at) synth_metric(&r, "inst", NAN);
        synth_put(&z, &r, NULL, 0);
    }
    CHECK(synth_close(&z) == WB_OK);
}

static int check(const char *now, const char *base, const char *thr) {
    char *argv[] = {"check", (char *)path_of(now), "--baseline", (char *)path_of(base), "--thresholds",
                    (char *)path_of(thr), NULL};
    return synth_run(wb_cmd_check, 6, argv, out, sizeof out);
}

static void write_text(const char *name, const char *text) {
    FILE *f = fopen(path_of(name), "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void expect(int got, int want, const char *needle, const char *what) {
    if (got != want || !strstr(out, needle)) {
        fprintf(stderr, "%s: exit %d (want %d), output %s '%s':\n%s\n", what, got, want,
                strstr(out, needle) ? "has" : "lacks", needle, out);
        wb_test_failures++;
    }
}

static void test_check_files(void) {
    const variation same = {-1, -1, -1, -1, 1, 1, NULL};
    write_file("base.h5", same);
    write_file("same.h5", same);
    write_text("thr.txt", "# defaults\ntime_median_ms +10% min_ms=0.05\ntime_median_ms +30%\n\ninst +1%  # tight\n"
                          "dram_sectors_read +3%\n");
    expect(check("same.h5", "base.h5", "thr.txt"), 0, "within thresholds", "file against itself");
    /* one path twice passes whatever it holds: refused, said */
    expect(check("base.h5", "base.h5", "thr.txt"), 2, "are one file", "identical paths");
    CHECK(!strstr(out, "within thresholds"));
    /* a run that stopped before its first point compares nothing: refused too, not a pass */
    synth z;
    synth_open(&z, path_of("empty.h5"), "NVIDIA H200");
    CHECK(synth_close(&z) == WB_OK);
    expect(check("empty.h5", "base.h5", "thr.txt"), 2, "has no point of BASE", "no point in common");
    CHECK(!strstr(out, "within thresholds"));

    write_file("slow.h5", (variation){0, 2, -1, -1, 1.2, 1.02, NULL});
    int rc = check("slow.h5", "base.h5", "thr.txt");
    expect(rc, 1, "2 violation(s)", "time +20% and inst +2%");
    expect(rc, 1, "+20.00%", "time violation listed");
    expect(rc, 1, "+2.00%", "inst violation listed");
    expect(rc, 1, "line 2", "the time rule's line");
    expect(rc, 1, "line 5", "the inst rule's line");

    /* 0.01 ms point: +20% is within the 30% rule that covers short points */
    write_file("short.h5", (variation){3, -1, -1, -1, 1.2, 1, NULL});
    expect(check("short.h5", "base.h5", "thr.txt"), 0, "within thresholds", "short point under its own rule");
    /* the most specific rule wins: transform may take 25% more */
    write_text("thr_family.txt", "time_median_ms +10%\ntime_median_ms +25% family=transform\n"
                                 "time_median_ms +5% family=transform variant=vec16\n");
    write_file("t20.h5", (variation){0, -1, -1, -1, 1.2, 1, NULL});
    expect(check("t20.h5", "base.h5", "thr_family.txt"), 0, "within", "family rule beats the general one");
    write_file("v20.h5", (variation){1, -1, -1, -1, 1.07, 1, NULL});
    expect(check("v20.h5", "base.h5", "thr_family.txt"), 1, "line 3", "variant rule beats the family one");
    write_file("s20.h5", (variation){2, -1, -1, -1, 1.2, 1, NULL});
    expect(check("s20.h5", "base.h5", "thr_family.txt"), 1, "line 1", "other families take the general rule");
    /* downward rules: less time is a regression only if a rule says so */
    write_text("thr_down.txt", "time_median_ms -5%\n");
    write_file("fast.h5", (variation){0, -1, -1, -1, 0.5, 1, NULL});
    expect(check("fast.h5", "base.h5", "thr.txt"), 0, "within", "faster passes an upward rule");
    expect(check("fast.h5", "base.h5", "thr_down.txt"), 1, "-50.00%", "faster fails a downward rule");

    write_file("missing.h5", (variation){-1, -1, 1, -1, 1, 1, NULL});
    expect(check("missing.h5", "base.h5", "thr.txt"), 0, "1 baseline points not in NEW (counted apart",
           "a point the baseline has is missing: counted apart by default");
    expect(check("missing.h5", "base.h5", "thr.txt"), 0, "did the run stop early?", "and named as odd");
    char *strict[] = {"check", (char *)path_of("missing.h5"), "--baseline", (char *)path_of("base.h5"),
                      "--thresholds", (char *)path_of("thr.txt"), "--all-points", NULL};
    expect(synth_run(wb_cmd_check, 7, strict, out, sizeof out), 1, "missing in NEW",
           "--all-points: a point the baseline has is missing");
    expect(check("base.h5", "missing.h5", "thr.txt"), 0, "1 points only in NEW", "an extra point is not a violation");
    write_file("nan.h5", (variation){-1, -1, -1, 0, 1, 1, NULL});
    expect(check("nan.h5", "base.h5", "thr.txt"), 1, "NaN on one side", "a lost count is reported");
    write_file("other_gpu.h5", (variation){-1, -1, -1, -1, 1, 1, "NVIDIA L4"});
    expect(check("other_gpu.h5", "base.h5", "thr.txt"), 2, "a baseline holds for its own GPU", "another GPU");
}

static void test_bad_thresholds(void) {
    static const struct { const char *text, *needle; } bad[] = {
        {"# ok\ntime_median_ms +10%\nnosuch +1%\n", "thr_bad.txt:3: unknown metric 'nosuch'"},
        {"family +1%\n", ":1: unknown metric 'family'"},
        {"n +1%\n", ":1: unknown metric 'n'"},
        {"inst 10\n", ":1: bad percent '10'"},
        {"\ninst +x%\n", ":2: bad percent '+x%'"},
        {"inst +-5%\n", ":1: bad percent '+-5%'"},
        {"inst 5%%\n", ":1: bad percent '5%%'"},
        {"inst +1% colour=red\n", ":1: unknown key 'colour'"},
        {"inst +1% family\n", ":1: 'family' is not key=value"},
        {"inst +1% family=nosuch\n", ":1: unknown family 'nosuch' (no row of the baseline"},
        {"inst +1% family=scan\n", ":1: unknown family 'scan'"}, /* a real family the baseline lacks */
        {"inst +1% family=select variant=scalar\n", ":1: unknown variant 'scalar' of family select"},
        {"inst +1% min_ms=-1\n", ":1: min_ms=-1 is not a non-negative number"},
        {"inst +1% family=select family=select\n", ":1: key 'family' given twice"},
        {"inst +1%\ninst 2%\n", ":2: repeats the rule of line 1"},
        {"inst\n", ":1: expected '<metric>"},
        {"# nothing\n\n", "no rules"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text("thr_bad.txt", bad[i].text);
        char what[64];
        snprintf(what, sizeof what, "bad thresholds case %zu", i);
        expect(check("base.h5", "base.h5", "thr_bad.txt"), 2, bad[i].needle, what);
    }
    expect(check("base.h5", "base.h5", "no_such_thresholds.txt"), 2, "cannot open the thresholds file", "no file");
    /* upward and downward rules of one selector coexist */
    write_text("thr_both.txt", "inst +1%\ninst -1%\n");
    expect(check("same.h5", "base.h5", "thr_both.txt"), 0, "within", "+ and - rules together");
}

static void test_bad_files(void) {
    write_text("text.h5", "not an HDF5 file\n");
    expect(check("text.h5", "base.h5", "thr.txt"), 2, "not an HDF5 file", "a text file");
    expect(check("base.h5", "text.h5", "thr.txt"), 2, "not an HDF5 file", "a text baseline");
    /* an HDF5 file of someone else's */
    hid_t f = H5Fcreate(path_of("foreign.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    if (f >= 0) H5Fclose(f);
    expect(check("foreign.h5", "base.h5", "thr.txt"), 2, "not a wallbench results file", "a foreign HDF5 file");
    /* a damaged copy: the first half of a results file */
    FILE *in = fopen(path_of("base.h5"), "rb"), *cut = fopen(path_of("cut.h5"), "wb");
    CHECK(in && cut);
    if (in && cut) {
        static char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, in);
        fwrite(buf, 1, n / 2, cut);
    }
    if (in) fclose(in);
    if (cut) fclose(cut);
    CHECK(check("cut.h5", "base.h5", "thr.txt") == 2);
    expect(check("nosuch.h5", "base.h5", "thr.txt"), 2, "cannot read", "a missing file");
    char *argv[] = {"check", (char *)path_of("base.h5"), NULL};
    expect(synth_run(wb_cmd_check, 2, argv, out, sizeof out), 2, "usage: wallbench check", "no --baseline");
}

/* Another sweep on another board (the case of `make run` against a full
 * baseline): said in the first lines, the common points checked, the rest
 * counted apart; a slower common point still fails. */
static void write_sweep(const char *name, const char *sweep, const char *uuid, int npoints, double slow) {
    const int contended = strstr(name, "contended") != NULL; /* its second point timed beside another process */
    synth z;
    synth_open(&z, path_of(name), "NVIDIA H200");
    synth_attr_str(&z, "sweep", sweep);
    synth_attr_str(&z, "gpu_uuid", uuid);
    synth_attr_str(&z, "git_revision", "47c0bec");
    for (int i = 0; i < npoints; i++) {
        wb_row r = synth_row("transform", i % 2 ? "vec16" : "scalar", (int64_t)1 << (20 + i), 1.0 + i);
        if (i == 1) r.m.time_median_ms *= slow;
        r.m.other_processes = contended && i == 1 ? 1 : 0;
        synth_counters(&r, 1e7, 2e6, 1e6);
        synth_put(&z, &r, NULL, 0);
    }
    CHECK(synth_close(&z) == WB_OK);
}

static void test_check_sweeps(void) {
    write_sweep("full.h5", "full", "GPU-aaaaaaaa-0000-0000-0000-000000000000", 4, 1);
    write_sweep("quick.h5", "quick", "GPU-bbbbbbbb-0000-0000-0000-000000000000", 2, 1);
    write_sweep("quick_slow.h5", "quick", "GPU-bbbbbbbb-0000-0000-0000-000000000000", 2, 1.5);
    write_text("thr_sweep.txt", "time_median_ms +10%\n");
    int rc = check("quick.h5", "full.h5", "thr_sweep.txt");
    expect(rc, 0, "NOTE: sweep differs: BASE full, NEW quick: checked the 2 points both hold; 2 baseline points not "
                  "in NEW counted apart", "another sweep said first");
    expect(rc, 0, "NOTE: board differs: BASE GPU-aaaaaaaa", "another board said");
    expect(rc, 0, "check NEW = ", "NEW named");
    CHECK(strstr(out, "board GPU-bbbbbbbb, revision 47c0bec, sweep quick") != NULL);
    CHECK(strstr(out, "NOTE: sweep differs") < strstr(out, "within thresholds"));
    CHECK(!strstr(out, "stop early"));
    CHECK(!strstr(out, "contended"));
    write_sweep("quick_contended.h5", "quick", "GPU-bbbbbbbb-0000-0000-0000-000000000000", 2, 1.5);
    expect(check("quick_contended.h5", "full.h5", "thr_sweep.txt"), 1,
           "NOTE: contended: 1 checked point(s) of NEW and 0 of BASE were timed while other processes held the GPU",
           "a point timed beside another process is named");
    expect(check("quick_slow.h5", "full.h5", "thr_sweep.txt"), 1, "1 violation(s)", "a common point 50% slower");

    /* --json and --csv: the same facts for scripts, no prose */
    char *json[] = {"check", (char *)path_of("quick_slow.h5"), "--baseline", (char *)path_of("full.h5"),
                    "--thresholds", (char *)path_of("thr_sweep.txt"), "--json", NULL};
    rc = synth_run(wb_cmd_check, 7, json, out, sizeof out);
    expect(rc, 1, "\"mismatches\":[{\"kind\":\"sweep\",\"baseline\":\"full\",\"new\":\"quick\",\"action\":"
                  "\"checked the 2 points both hold", "--json: the sweep mismatch and what was done");
    expect(rc, 1, "\"common_points\":2,", "--json: the common points");
    expect(rc, 1, "\"baseline_points_not_in_new\":2,", "--json: the rest counted apart");
    expect(rc, 1, "\"metric\":\"time_median_ms\"", "--json: the violation");
    expect(rc, 1, "\"exit_code\":1}", "--json: the exit code");
    CHECK(out[0] == '{' && !strstr(out, "NOTE:"));
    char *csv[] = {"check", (char *)path_of("quick_slow.h5"), "--baseline", (char *)path_of("full.h5"),
                   "--thresholds", (char *)path_of("thr_sweep.txt"), "--csv", NULL};
    rc = synth_run(wb_cmd_check, 7, csv, out, sizeof out);
    expect(rc, 1, "point,family,variant,metric,baseline,new,change_pct,allowed_pct,rule_line\n\"transform/vec16/",
           "--csv: the header, then the violating point");
    expect(rc, 1, ",time_median_ms,2,3,50,+10,1\n", "--csv: its values, change and rule");
}

int main(void) {
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_mwu();
    test_check_files();
    test_check_sweeps();
    test_bad_thresholds();
    test_bad_files();
    synth_remove_dir(dir);
    return TEST_DONE();
}
