/* test_profile_tools.c - report, roofline, export, project and compare on
 * synthetic profile files (tests/synth_profile.h, written through the
 * store), run in-process with their output captured: the top kernel named,
 * the per-bound shares summing to 100%, the projected total equal to the
 * model's, the compare ratios, the CSV/JSON tables and fig4's data; and the
 * refusals (a profile with a results file, a bad table). WB_SHOW=1 prints
 * every output; WB_KEEP=1 keeps the files; --write FILE writes the synthetic
 * profile alone (tests/sh_plots.sh renders fig4-profile from it). */
#include <math.h>
#include <sys/stat.h>

#include "harness/commands.h"
#include "harness/store/profile_h5.h"
#include "harness/tools/project.h"
#include "harness/tools/rows.h"
#include "tests/check.h"
#include "tests/synth_profile.h"
#include "tests/synth_results.h"

static char dir[256];
static char out[1 << 16];

static int run(int (*cmd)(int, char **), const char *a0, const char *a1, const char *a2, const char *a3,
               const char *a4, const char *a5) {
    char *argv[8] = {(char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL, NULL};
    int argc = 0;
    while (argv[argc]) argc++;
    int rc = synth_run(cmd, argc, argv, out, sizeof out);
    if (getenv("WB_SHOW")) printf("$ %s %s %s %s %s %s -> %d\n%s\n", a0, a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "",
                                  a4 ? a4 : "", a5 ? a5 : "", rc, out);
    return rc;
}

/* Writes the synthetic profile, aggregated against synth_roof; a second
 * "version" scales kernel 0's time by time_scale and its inst by inst_scale. */
static const char *write_profile(const char *name, double time_scale, double inst_scale, const char *uuid) {
    wb_profile p;
    synth_profile(&p);
    for (int64_t i = 0; i < p.nlaunches; i++)
        if (p.launches[i].kernel == 0) {
            p.launches[i].time_ms *= time_scale;
            p.launches[i].c.v[wb_metric_index("inst")] *= inst_scale;
        }
    if (inst_scale != 1) p.kernels[2].grid[0] = 128; /* the "new version" launches sort on another grid */
    wb_err e;
    wb_profile_attr_str(&p, "gpu_uuid", uuid, &e);
    const char *path = synth_path(dir, name);
    unlink(path);
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    CHECK(wb_profile_write(path, &p, &e) == WB_OK);
    wb_profile_free(&p);
    return path;
}

static void test_report(const char *path) {
    CHECK(run(wb_cmd_report, "report", path, NULL, NULL, NULL, NULL) == 0);
    CHECK(strstr(out, "Table 6") && strstr(out, "Table 7") && strstr(out, "Table 8") && strstr(out, "Table 9"));
    CHECK(strstr(out, "Top kernels by time") && strstr(out, "Top NVTX ranges by time"));
    /* gather has 10 of 12 ms: first row of the top table, 83.3% */
    const char *top = strstr(out, "Top kernels by time");
    const char *g = top ? strstr(top, "gather") : NULL, *c = top ? strstr(top, "compute") : NULL;
    CHECK(g && c && g < c);
    CHECK(strstr(out, "83.3%") && strstr(out, "16.7%"));
    /* Table 6, measured ridge 8: gather (memory, 74% < 75%) 10 ms, compute 2 ms */
    CHECK(strstr(out, "Memory bound") && strstr(out, "  memory bandwidth < 75%"));
    const char *t6 = strstr(out, "Memory bound");
    char line[256] = "";
    if (t6) sscanf(t6, "%255[^\n]", line);
    CHECK(strstr(line, "83.3%") != NULL);
    CHECK(strstr(out, "Q1/filter") != NULL);
    /* each pass's board, before the tables */
    const char *tb = strstr(out, "  timing pass board: undisturbed: 40 samples"), *t2 = strstr(out, "Table 2");
    CHECK(tb && t2 && tb < t2 && strstr(out, "  counter pass board: disturbed: 60 samples;"));
    CHECK(run(wb_cmd_report, "report", path, "--markdown", NULL, NULL, NULL) == 0);
    CHECK(strstr(out, "| gather") || strstr(out, "|gather"));
    CHECK(run(wb_cmd_report, "report", path, "--top", "0", NULL, NULL) == 2);
}

/* A profile of the one-pass core set has no DRAM throughput: Table 6's memory split is "-", not 0%. */
static void test_report_no_dram_pct(void) {
    wb_profile p;
    synth_profile(&p);
    for (int64_t i = 0; i < p.nlaunches; i++) p.launches[i].c.v[wb_metric_index("dram_throughput_pct")] = NAN;
    wb_err e;
    const char *path = synth_path(dir, "core-set.h5");
    unlink(path);
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK && wb_profile_write(path, &p, &e) == WB_OK);
    wb_profile_free(&p);
    CHECK(run(wb_cmd_report, "report", path, NULL, NULL, NULL, NULL) == 0);
    const char *m = strstr(out, "Memory bound"), *hi = strstr(out, "  memory bandwidth >= 75%");
    char line[256] = "", mem[256] = "";
    if (hi) sscanf(hi, "%255[^\n]", line);
    if (m) sscanf(m, "%255[^\n]", mem);
    CHECK(strstr(mem, "83.3%") != NULL);                   /* the bound itself still known */
    const char *cells = line + strlen("  memory bandwidth >= 75%");
    CHECK(hi && strchr(cells, '-') && !strchr(cells, '%')); /* its split not */
}

static void test_roofline(const char *path) {
    CHECK(run(wb_cmd_roofline, "roofline", path, NULL, NULL, NULL, NULL) == 0);
    CHECK(strstr(out, "L4") && strstr(out, "GH200"));
    const char *k = strstr(out, "Kernels (name + launch shape)");
    CHECK(k != NULL);
    const char *g = strstr(out, "gather"), *c = strstr(out, "compute");
    CHECK(g && c && g < c);
    /* compute: 100 G inst/s of the 1000 instruction roof, 10% */
    CHECK(strstr(out, "10.0") != NULL);
}

static int read_text(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    return (int)n;
}

static void test_export(const char *path) {
    const char *fig = synth_path(dir, "fig");
    CHECK(run(wb_cmd_export, "export", path, "--fig", "fig4", "--out", fig) == 0);
    CHECK(strstr(out, "fig4-profile: 2 rows") != NULL);
    char text[4096];
    CHECK(read_text(synth_path(fig, "fig4-profile.dat"), text, sizeof text) > 0);
    CHECK(strstr(text, "gather") && strstr(text, "cub::DeviceSort") == NULL); /* sort was never timed */
    CHECK(read_text(synth_path(fig, "fig4-profile-roofs.dat"), text, sizeof text) > 0);
    CHECK(strstr(text, "L4") && strstr(text, "GH200") && strstr(text, "measured"));
    CHECK(read_text(synth_path(fig, "fig4-profile-info.dat"), text, sizeof text) > 0);
    CHECK(strstr(text, "H200") && strstr(text, "abc1234") && strstr(text, "tpch.py"));
    /* lib-common.gp reads column 5 as the board: the program comes after the revision */
    CHECK(strstr(text, "board revision program") && strstr(text, "abc1234") < strstr(text, "tpch.py"));
    CHECK(read_text(synth_path(fig, "fig4-profile-shares.dat"), text, sizeof text) > 0);
    CHECK(strstr(text, "83.33") != NULL);

    const char *csv = synth_path(dir, "kernels.csv");
    CHECK(run(wb_cmd_export, "export", path, "--table", "kernels", "--format", "csv") == 0);
    CHECK(strncmp(out, "kernel_id,name,demangled", 24) == 0);
    /* the header is the column names, as for results files (units: the JSON form, /columns) */
    CHECK(strstr(out, ",inst,") && !strstr(out, "inst[") && strstr(out, "\"gather\"") && strstr(out, "bound_gh200"));
    CHECK(run(wb_cmd_export, "export", path, "--table", "kernels", "--out", "somewhere") == 2); /* --out is a folder */
    char *argv[] = {"export", (char *)path, "--table", "launches", "--format", "json", "-o", (char *)csv, NULL};
    CHECK(synth_run(wb_cmd_export, 8, argv, out, sizeof out) == 0);
    static char json[1 << 16];
    CHECK(read_text(csv, json, sizeof json) > 0);
    CHECK(strstr(json, "\"table\":\"launches\"") && strstr(json, "\"seq\":6") && strstr(json, "\"time_ms\":null"));
    CHECK(run(wb_cmd_export, "export", path, "--table", "points", "--format", "csv") == 2);
    CHECK(strstr(out, "launches, kernels, ranges, counted_ranges or samples"));
    CHECK(run(wb_cmd_export, "export", path, "--fig", "fig6", NULL, NULL) == 2);
}

static void test_project(const char *path) {
    CHECK(run(wb_cmd_project, "project", path, "--to", "l4", NULL, NULL) == 0);
    CHECK(strstr(out, "NVIDIA L4") && strstr(out, "Total (2 kernels projected)"));
    /* the model, kernel by kernel, summed: what the table's total must say */
    wb_profile p;
    wb_err e;
    CHECK(wb_profile_read(path, &p, &e) == WB_OK);
    wb_gpu_table t;
    CHECK(wb_gpu_table_load(NULL, &t, &e) == WB_OK);
    wb_roof l4 = {"L4", t.n ? wb_gpu_table_find(&t, "l4")->inst_gips : NAN, wb_gpu_table_find(&t, "l4")->dram_gbps};
    double total = 0;
    for (int k = 0; k < 2; k++) {
        wb_row r;
        wb_row_init(&r);
        snprintf(r.m.status, sizeof r.m.status, "ok");
        r.m.time_median_ms = p.kernels[k].total_ms;
        r.c = p.kernels[k].c;
        const char *why;
        total += wb_project_time_ms(&r, &synth_roof, &l4, &why);
    }
    char want[64];
    snprintf(want, sizeof want, "%.3f", total);
    const char *line = strstr(out, "Total (2 kernels projected)");
    CHECK(line && strstr(line, want));
    CHECK(strstr(out, "1 kernels not projected") && strstr(out, "cub::DeviceSort"));
    /* issue 49's limiter model beside it: every timed launch scaled by its limiter's ratio, a
     * range where the target has no counterpart; low <= high, over the timed time */
    const char *lim = strstr(out, "by limiter (issue 49)");
    double measured = NAN, lo = NAN, hi = NAN;
    CHECK(strstr(out, "By limiter ms (low)") && lim && (lim = strstr(lim, "Of ")) &&
          sscanf(lim, "Of %lf ms measured: %lf to %lf ms on l4", &measured, &lo, &hi) == 3);
    CHECK(measured > 0 && lo > 0 && lo <= hi);

    const char *proj = synth_path(dir, "p-l4.h5");
    unlink(proj);
    CHECK(run(wb_cmd_project, "project", path, "--to", "l4", "-o", proj) == 0);
    wb_profile q;
    CHECK(wb_profile_read(proj, &q, &e) == WB_OK);
    CHECK(wb_profile_attr_f64(&q, "projected") == 1 && strstr(wb_profile_attr(&q, "gpu_name"), "L4 (projected)"));
    double sum = 0;
    for (int k = 0; k < q.nkernels; k++)
        if (isfinite(q.kernels[k].total_ms)) sum += q.kernels[k].total_ms;
    CHECK_NEAR(sum, total, 1e-9 * total);
    CHECK(q.ceiling_inst_gips == l4.inst_gips);
    CHECK(run(wb_cmd_project, "project", proj, "--to", "h200", NULL, NULL) == 2 && strstr(out, "itself a projection"));
    CHECK(run(wb_cmd_report, "report", proj, NULL, NULL, NULL, NULL) == 0 && strstr(out, "projected"));
    CHECK(run(wb_cmd_project, "project", path, "--to", "nosuchgpu", NULL, NULL) == 2 && strstr(out, "unknown GPU"));
    wb_profile_free(&q);
    wb_profile_free(&p);
    wb_gpu_table_free(&t);
}

static void test_compare(const char *a, const char *b, const char *results) {
    CHECK(run(wb_cmd_compare, "compare", a, b, NULL, NULL, NULL) == 0);
    CHECK(strstr(out, "A: ") && strstr(out, "B: ") && strstr(out, "GPU-synthetic-0002"));
    /* gather: B twice as slow, 1.5x the instructions, same sectors */
    const char *g = strstr(out, "gather");
    char line[256] = "";
    if (g) sscanf(g, "%255[^\n]", line);
    CHECK(strstr(line, "2.000") && strstr(line, "1.500") && strstr(line, "1.000"));
    CHECK(strstr(out, "Total of 2 matched"));
    CHECK(strstr(out, "only in A") && strstr(out, "only in B") && strstr(out, "128x1x1/512x1x1"));
    CHECK(run(wb_cmd_compare, "compare", a, results, NULL, NULL, NULL) == 2);
    CHECK(strstr(out, "is not a profile file"));
}

/* The one reader (rows.h): a profile's kernels and ranges and a results
 * file's points through the same call, the kind and a row's word as data;
 * a profile's rows carry its counters and its measured roof. */
static void test_rows(const char *profile, const char *results) {
    wb_rows x;
    wb_profile p;
    wb_err e;
    CHECK(wb_profile_read_summary(profile, &p, &e) == WB_OK);
    CHECK(wb_rows_open("test", profile, &x) == 0);
    CHECK(x.kind == WB_ROWS_PROFILE && !strcmp(x.what, "kernel") && x.r.nrows == p.nkernels && p.nkernels > 0);
    for (int32_t i = 0; i < p.nkernels && i < x.r.nrows; i++) {
        CHECK(x.r.rows[i].m.time_median_ms == p.kernels[i].total_ms || isnan(p.kernels[i].total_ms));
        CHECK(x.r.rows[i].c.inst_per_sector == p.kernels[i].c.inst_per_sector ||
              isnan(p.kernels[i].c.inst_per_sector));
    }
    CHECK(wb_results_attr_f64(&x.r, "ceiling_inst_issue_gips") == synth_roof.inst_gips);
    CHECK(wb_rows_view("test", &x, WB_PT_RANGES) == 0);
    CHECK(!strcmp(x.what, "NVTX range") && x.r.nrows == p.nranges && p.nranges > 0);
    wb_rows_free(&x);
    wb_profile_free(&p);
    CHECK(wb_rows_open("test", results, &x) == 0);
    CHECK(x.kind == WB_ROWS_RESULTS && !strcmp(x.what, "point") && x.r.nrows == 1);
    CHECK(!strcmp(x.r.rows[0].p.family, "select"));
    CHECK(run(wb_cmd_report, "report", results, "--top", "3", NULL, NULL) == 2 && strstr(out, "--top is for a profile"));
    CHECK(run(wb_cmd_report, "report", profile, "--shape", "fastest", NULL, NULL) == 2 &&
          strstr(out, "--shape is for a results file"));
    CHECK(wb_rows_view("test", &x, WB_PT_KERNELS) == 2); /* a results file has no kernels */
    wb_rows_free(&x);
    CHECK(wb_rows_open("test", synth_path(dir, "missing.h5"), &x) == 2);
    /* report --help shows both usages */
    CHECK(run(wb_cmd_report, "report", "--help", NULL, NULL, NULL, NULL) == 0);
    CHECK(strstr(out, "report RESULTS.h5") && strstr(out, "report PROFILE.h5"));
}

/* --write FILE: the synthetic profile alone, for tests/sh_plots.sh to render. */
static int write_only(const char *path) {
    wb_profile p;
    synth_profile(&p);
    wb_err e;
    unlink(path);
    int rc = wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK && wb_profile_write(path, &p, &e) == WB_OK;
    if (!rc) fprintf(stderr, "test_profile_tools --write: %s\n", e.msg);
    wb_profile_free(&p);
    return rc ? 0 : 1;
}

int main(int argc, char **argv) {
    setenv("WB_GPUS", WB_SOURCE_DIR "/harness/gpus.tsv", 0);
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_only(argv[2]);
    snprintf(dir, sizeof dir, "%s/test_profile_tools.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    /* synth_path's buffers rotate: the paths used throughout are copied */
    static char a[512], b[512], res[512];
    snprintf(a, sizeof a, "%s", write_profile("a.h5", 1.0, 1.0, "GPU-synthetic-0001"));
    snprintf(b, sizeof b, "%s", write_profile("b.h5", 2.0, 1.5, "GPU-synthetic-0002"));
    snprintf(res, sizeof res, "%s", synth_path(dir, "results.h5"));
    synth z;
    synth_open(&z, res, "NVIDIA H200");
    wb_row r = synth_row("select", "branch", 1 << 20, 1.0);
    synth_put(&z, &r, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
    test_report(a);
    test_report_no_dram_pct();
    test_roofline(a);
    test_export(a);
    test_project(a);
    test_compare(a, b, res);
    test_rows(a, res);
    if (getenv("WB_KEEP")) printf("kept %s\n", dir); /* e.g. to render a.h5 with plots/render.sh */
    else synth_remove_dir(dir);
    return TEST_DONE();
}
