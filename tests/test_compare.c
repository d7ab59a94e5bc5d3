/* test_compare.c - `wallbench compare`, `wallbench project` and `project
 * --validate` on synthetic files: the axis columns match.h derives from the
 * schema, pairing (points in one file only listed), verdicts, hardware
 * ratios, the projected label, projected times against the model computed
 * here by hand, and the SM-scaling validation on rows that follow the model
 * exactly (error 0) or do not. */
#include <stdlib.h>

#include "tests/check.h"
#include "harness/commands.h"
#include "harness/tools/match.h"
#include "tests/synth_results.h"

#define OUT_LEN (1 << 18)
static char out[OUT_LEN];
static char dir[] = "/tmp/wb_test_compare_XXXXXX";

static const char *path_of(const char *name) { return synth_path(dir, name); }

/* 1 if word occurs in out between the first from and the following to
 * (the end of out when to is NULL or absent). */
static int section_has(const char *from, const char *to, const char *word) {
    const char *a = strstr(out, from);
    if (!a) return 0;
    const char *b = to ? strstr(a + 1, to) : NULL;
    const char *w = strstr(a, word);
    return w && (!b || w < b);
}

/* The line of out holding both a and b, checked for c. */
static int line_has(const char *a, const char *b, const char *c) {
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), l);
        if (strstr(line, a) && strstr(line, b)) return strstr(line, c) != NULL;
    }
    return 0;
}

static void expect(int got, int want, const char *needle, const char *what) {
    if (got != want || (needle && !strstr(out, needle))) {
        fprintf(stderr, "%s: exit %d (want %d), output %s '%s':\n%.4000s\n", what, got, want,
                needle && strstr(out, needle) ? "has" : "lacks", needle ? needle : "", out);
        wb_test_failures++;
    }
}

/* The axes are exactly wb_point's sweep-chosen fields, in schema order. */
static void test_axes(void) {
    static const char *const want[] = {"family", "variant", "dtype", "layout", "n", "ilp", "occupancy_target",
                                       "block", "sm_limit", "selectivity", "table_entries", "groups", "expr_ops",
                                       "vector_bytes", "columns", "load_factor", "match_rate", "partitions", "warm_cache",
                                       "bit_width"};
    const wb_column *axes[64];
    int n = wb_match_axes(axes, 64);
    CHECK(n == (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < n && i < (int)(sizeof want / sizeof want[0]); i++)
        if (strcmp(axes[i]->name, want[i]) != 0) {
            fprintf(stderr, "axis %d is %s, want %s\n", i, axes[i]->name, want[i]);
            wb_test_failures++;
        }
    wb_row a = synth_row("probe", "hash", 1000, 1.0), b = a;
    CHECK(wb_match_same(&a, &b, NULL)); /* NaN axes (selectivity, ...) equal NaN */
    b.p.launch.sm_limit = 8;
    CHECK(!wb_match_same(&a, &b, NULL) && wb_match_same(&a, &b, "sm_limit"));
    b = a;
    b.m.repetition = 1;
    CHECK(!wb_match_same(&a, &b, NULL));
    b = a;
    b.p.launch.grid = 99; /* planned, not chosen: no axis */
    b.m.time_median_ms = 5;
    CHECK(wb_match_same(&a, &b, NULL));
}

/* The H200-like source of project and compare: the two ceilings of its
 * measured roof (1000 G inst/s, 4000 GB/s), a memory-bound point, an
 * instruction-bound point, a point without counters and a host copy;
 * write_measured: the same points as measured on GPU gpu under profile. */
static void write_measured(const char *name, const char *gpu, const char *profile) {
    synth z;
    synth_open(&z, path_of(name), gpu);
    if (profile) synth_attr_str(&z, "profile", profile);
    synth_attr_str(&z, "gpu_uuid", "GPU-board-a");
    synth_attr_f64(&z, "smem_per_sm", 228 * 1024);
    wb_row r = synth_row("ceiling", "inst_issue", 1 << 20, 2.0);
    synth_counters(&r, 2e9, 1e3, 0); /* 1000 G inst/s */
    synth_put(&z, &r, NULL, 0);
    r = synth_row("ceiling", "dram_read", 1 << 28, 1.0);
    r.p.bytes_model = 4e9;
    r.m.gbps_model = 4000; /* the bandwidth ceiling */
    synth_counters(&r, 1e6, 1.25e8, 0);
    synth_put(&z, &r, NULL, 0);
    r = synth_row("ceiling", "h2d", 1 << 24, 30.0);
    synth_counters(&r, 0, 0, 8e6);
    synth_put(&z, &r, NULL, 0);
    double samples[10];
    /* memory-bound: 1e8 sectors = 3.2 GB: 0.8 ms at 4000 GB/s, measured 1.0 ms (efficiency 0.8) */
    r = synth_row("transform", "scalar", 1 << 28, 1.0);
    synth_counters(&r, 1e8, 6e7, 4e7);
    for (int i = 0; i < 10; i++) samples[i] = 1.0 + 0.01 * (i - 5);
    synth_put(&z, &r, samples, 10);
    /* instruction-bound: 4e9 inst = 4 ms at 1000 G inst/s, measured 5 ms */
    r = synth_row("expr", "interp", 1 << 26, 5.0);
    synth_counters(&r, 4e9, 1e7, 0);
    for (int i = 0; i < 10; i++) samples[i] = 5.0 + 0.02 * (i - 5);
    synth_put(&z, &r, samples, 10);
    r = synth_row("transform", "vec16", 1 << 28, 0.9); /* no counters */
    synth_put(&z, &r, NULL, 0);
    r = synth_row("transform", "cub", 1 << 20, 0.1); /* only in this file */
    synth_counters(&r, 1e6, 1e6, 0);
    synth_put(&z, &r, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
}

static void write_source(const char *name) { write_measured(name, "NVIDIA H200", NULL); }

static int run(int (*cmd)(int, char **), char **argv) {
    int argc = 0;
    while (argv[argc]) argc++;
    return synth_run(cmd, argc, argv, out, sizeof out);
}

static void test_project(void) {
    write_source("h200.h5");
    char *argv[] = {"project", (char *)path_of("h200.h5"), "--to", "l4", NULL};
    expect(run(wb_cmd_project, argv), 0, "projected 5 of 7 points", "project to l4");
    CHECK(strstr(out, "host link") && strstr(out, "no instruction count"));
    wb_results p;
    wb_err e;
    if (wb_results_open(path_of("h200-projected-l4.h5"), &p, &e) != WB_OK) {
        fprintf(stderr, "projected file: %s\n", e.msg);
        wb_test_failures++;
        return;
    }
    CHECK(p.nrows == 7);
    CHECK(wb_results_attr_f64(&p, "projected") == 1);
    /* Table 2's title says what the file is: a projection, not a measurement */
    char *roof[] = {"roofline", (char *)path_of("h200-projected-l4.h5"), NULL};
    expect(run(wb_cmd_roofline, roof), 0, "GPU comparison, projected (not measured): ", "a projection's Table 2 title");
    char *roof_src[] = {"roofline", (char *)path_of("h200.h5"), NULL};
    expect(run(wb_cmd_roofline, roof_src), 0, "GPU comparison, measured: ", "a measured file's Table 2 title");
    CHECK(strcmp(wb_results_attr(&p, "projected_to"), "l4") == 0);
    CHECK(strcmp(wb_results_attr(&p, "gpu_name"), "NVIDIA L4 (projected)") == 0);
    CHECK(strstr(wb_results_attr(&p, "projected_from"), "h200.h5") != NULL);
    CHECK_NEAR(wb_results_attr_f64(&p, "projected_inst_gips"), 413, 1e-9);
    CHECK_NEAR(wb_results_attr_f64(&p, "projected_dram_gbps"), 300, 1e-9);
    CHECK_NEAR(wb_results_attr_f64(&p, "projected_source_dram_gbps"), 4000, 1e-9);
    CHECK_NEAR(wb_results_attr_f64(&p, "sm_count"), 58, 1e-9);
    CHECK_NEAR(wb_results_attr_f64(&p, "smem_per_sm"), 100 * 1024, 1e-9); /* the target's, not the source's */
    /* memory-bound: 3.2 GB / 300 GB/s = 10.667 ms at the source's efficiency 0.8 -> 13.333 ms */
    const wb_row *m = &p.rows[3];
    CHECK_NEAR(m->m.time_median_ms, 3.2e9 / 300e9 * 1e3 / 0.8, 1e-9);
    CHECK_NEAR(m->m.gbps_model, m->p.bytes_model / (m->m.time_median_ms * 1e6), 1e-9);
    CHECK(p.sample_count[3] == 10);
    CHECK_NEAR(p.sample_ms[p.sample_start[3]], 0.95 * m->m.time_median_ms, 1e-9);
    CHECK(strcmp(m->c.bound, "memory") == 0);
    CHECK_NEAR(m->c.gips, 1e8 / (m->m.time_median_ms * 1e6), 1e-9); /* kernel time scaled with it */
    /* instruction-bound: 4e9 / 413 G = 9.685 ms at efficiency 0.8 */
    CHECK_NEAR(p.rows[4].m.time_median_ms, 4e9 / 413e9 * 1e3 / 0.8, 1e-9);
    CHECK(strcmp(p.rows[4].c.bound, "compute") == 0);
    /* the two ceilings project onto the target's reference roof */
    CHECK_NEAR(p.rows[0].c.gips, 413, 1e-6);
    CHECK_NEAR(p.rows[1].m.gbps_model, 300, 1e-6);
    CHECK(strcmp(p.rows[2].m.status, "skipped") == 0 && strstr(p.rows[2].m.reason, "host link"));
    CHECK(strcmp(p.rows[5].m.status, "skipped") == 0 && strstr(p.rows[5].m.reason, "not projected"));
    CHECK(p.sample_count[5] == 0 && isnan(p.rows[5].m.time_median_ms));
    wb_results_free(&p);

    expect(run(wb_cmd_project, argv), 2, "already exists", "a projection is never overwritten");
    char *again[] = {"project", (char *)path_of("h200-projected-l4.h5"), "--to", "gh200", NULL};
    expect(run(wb_cmd_project, again), 2, "is itself a projection", "projecting a projection");
    char *bad[] = {"project", (char *)path_of("h200.h5"), "--to", "nosuch", NULL};
    expect(run(wb_cmd_project, bad), 2, "unknown GPU profile 'nosuch'", "unknown profile");
}

/* A second "measured" file: the memory-bound point clearly slower, the
 * instruction-bound one the same, cub missing, one point of its own. */
static void write_other(const char *name, const char *command) {
    synth z;
    synth_open(&z, path_of(name), "NVIDIA H200");
    synth_attr_str(&z, "gpu_uuid", "GPU-board-b");
    synth_attr_str(&z, "command_line", command);
    double samples[10];
    wb_row r = synth_row("ceiling", "inst_issue", 1 << 20, 2.0);
    synth_counters(&r, 2e9, 1e3, 0);
    r.m.mem_temp_c = 41; /* HBM temperatures (schema 5); the first file has none */
    synth_put(&z, &r, NULL, 0);
    r = synth_row("ceiling", "dram_read", 1 << 28, 1.0);
    r.m.mem_temp_c = 42;
    r.m.gbps_model = 4000;
    synth_counters(&r, 1e6, 1.25e8, 0);
    synth_put(&z, &r, NULL, 0);
    r = synth_row("transform", "scalar", 1 << 28, 2.0);
    synth_counters(&r, 1e8, 6e7, 4e7);
    r.m.mem_temp_c = 55;
    for (int i = 0; i < 10; i++) samples[i] = 2.0 + 0.01 * (i - 5);
    synth_put(&z, &r, samples, 10);
    r = synth_row("expr", "interp", 1 << 26, 5.0);
    synth_counters(&r, 4e9, 1e7, 0);
    r.m.mem_temp_c = 44;
    for (int i = 0; i < 10; i++) samples[i] = 5.0 + 0.02 * (4 - i);
    synth_put(&z, &r, samples, 10);
    r = synth_row("transform", "gather_rand", 1 << 20, 3.0);
    synth_counters(&r, 1e6, 1e6, 0);
    synth_put(&z, &r, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
}

static void test_compare(void) {
    write_other("run2.h5", "wallbench run --sweep full --no-counters --out /tmp/b");
    write_other("run3.h5", "wallbench run --sweep full --out /tmp/c");
    write_other("run4.h5", "wallbench run --sweep full --no-counters --out /tmp/d");
    char *argv[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), "--points", NULL};
    int rc = run(wb_cmd_compare, argv);
    expect(rc, 0, "slower", "B's memory-bound point is slower");
    CHECK(line_has("scalar", "1.0000", "slower"));
    CHECK(line_has("interp", "5.0000", "same"));
    expect(rc, 0, "only in A", "points of A alone listed");
    expect(rc, 0, "gather_rand", "the point of B alone listed");
    expect(rc, 0, "cub", "cub listed");
    expect(rc, 0, "1.00x", "hardware ratios of one GPU");
    CHECK(!strstr(out, "PROJECTED"));

    char *proj[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("h200-projected-l4.h5"), "--markdown",
                    "--points", NULL};
    rc = run(wb_cmd_compare, proj);
    expect(rc, 0, "B: L4 (PROJECTED from H200)", "the projected side is labelled");
    expect(rc, 0, "no test (projected)", "no significance test against a projection");
    expect(rc, 0, "0.07x", "bandwidth ratio 300 / 4000 = 0.075 (markdown)");
    expect(rc, 0, "0.41x", "instruction ratio 413 / 1000");
    expect(rc, 0, "reference table (l4)", "B's numbers come from the reference table");
    expect(rc, 0, "| transform |", "markdown family table");
    /* transform/scalar follows the bandwidth ratio, expr/interp the instruction ratio */
    CHECK(section_has("### transform: per point", "### ", "bandwidth"));
    CHECK(section_has("### expr: per point", "### ", "instructions"));
    CHECK(!section_has("### expr: per point", "### ", "bandwidth"));

    /* --repeat: of the 4 points of >= 1 ms on both sides (inst_issue, dram_read, scalar, interp), scalar
     * moved 2x: 3 of 4 agree within 1%, and scalar heads the least repeatable with its 100% spread. */
    char *rep[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), "--repeat", NULL};
    rc = run(wb_cmd_compare, rep);
    expect(rc, 0, "repeatability: 3 of 4 points with both medians >= 1 ms agree within 1% (75.0%)", "repeat share");
    CHECK(line_has("2.0000", "100.00%", "transform/scalar"));
    CHECK(strstr(out, "the 4 least repeatable") != NULL);
    /* two boards: said, since repeatability is a property of one GPU; one board against itself: not */
    CHECK(strstr(out, "NOTE: not one GPU: A ran on GPU-board-a, B on GPU-board-b") != NULL);
    CHECK(!strstr(out, "HBM temperature after")); /* A has none: no summary */
    CHECK(!strstr(out, "not the same command")); /* A does not say its command: no claim */
    char *hbm[] = {"compare", (char *)path_of("run2.h5"), (char *)path_of("run2.h5"), "--repeat", NULL};
    rc = run(wb_cmd_compare, hbm);
    expect(rc, 0, "HBM temperature after the samples, 4 of these points: A median 43 C (41-55), B median 43 C (41-55); "
                  "B - A per point: median +0 C, +0 to +0", "both sides' HBM temperatures summarised");
    CHECK(strstr(out, "   55    55  transform/scalar") != NULL); /* the point's own temperatures, A and B */
    CHECK(!strstr(out, "not the same command")); /* one file against itself */
    char *cmds[] = {"compare", (char *)path_of("run2.h5"), (char *)path_of("run3.h5"), "--repeat", NULL};
    rc = run(wb_cmd_compare, cmds);
    expect(rc, 0, "NOTE: not the same command (--out and --shard aside): A ran `wallbench run --sweep full --no-counters`, "
                  "B `wallbench run --sweep full`", "a repeat without the record's counter pass is named");
    char *same[] = {"compare", (char *)path_of("run2.h5"), (char *)path_of("run4.h5"), "--repeat", NULL};
    rc = run(wb_cmd_compare, same);
    CHECK(!strstr(out, "not the same command")); /* only --out differs */
    char *self[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("h200.h5"), "--repeat", NULL};
    rc = run(wb_cmd_compare, self);
    expect(rc, 0, "repeatability:", "a file against itself");
    CHECK(!strstr(out, "NOTE: not one GPU"));

    char *fam[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), "--family", "expr", "--points",
                   NULL};
    rc = run(wb_cmd_compare, fam);
    expect(rc, 0, "expr: per point", "--family keeps its family");
    CHECK(!strstr(out, "transform: per point"));
    /* options the chosen table does not use are refused, not ignored */
    char *rep_points[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), "--repeat", "--points", NULL};
    expect(run(wb_cmd_compare, rep_points), 2, "--repeat lists the least repeatable points itself", "--repeat --points");
    char *fleet_me[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), (char *)path_of("run3.h5"),
                        "--min-effect", "2", NULL};
    expect(run(wb_cmd_compare, fleet_me), 2, "the fleet matrix has neither", "a fleet with --min-effect");
    char *none[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("run2.h5"), "--family", "probe", NULL};
    expect(run(wb_cmd_compare, none), 2, "no point of family 'probe'", "absent family");
    FILE *f = fopen(path_of("text.h5"), "w");
    if (f) fputs("text\n", f), fclose(f);
    char *foreign[] = {"compare", (char *)path_of("h200.h5"), (char *)path_of("text.h5"), NULL};
    expect(run(wb_cmd_compare, foreign), 2, "not an HDF5 file", "foreign file");
    synth z;
    synth_open(&z, path_of("empty.h5"), "NVIDIA H200");
    CHECK(synth_close(&z) == WB_OK);
    char *empty[] = {"compare", (char *)path_of("empty.h5"), (char *)path_of("run2.h5"), NULL};
    expect(run(wb_cmd_compare, empty), 2, "no points", "empty file");
    /* a point skipped in both files: matched, said of both, and counted as not measured, so that the
     * family row adds up (matched = faster + slower + same + no test + not measured) */
    for (int k = 0; k < 2; k++) {
        synth_open(&z, path_of(k ? "skip-b.h5" : "skip-a.h5"), "NVIDIA H200");
        double samples[10];
        for (int i = 0; i < 10; i++) samples[i] = 1.0 + 0.01 * (i - 5);
        wb_row r = synth_row("transform", "scalar", 1 << 20, 1.0);
        synth_put(&z, &r, samples, 10);
        r = synth_row("transform", "vec8", 1 << 20, NAN);
        snprintf(r.m.status, sizeof r.m.status, "skipped");
        synth_put(&z, &r, NULL, 0);
        CHECK(synth_close(&z) == WB_OK);
    }
    char *skip[] = {"compare", (char *)path_of("skip-a.h5"), (char *)path_of("skip-b.h5"), "--points", NULL};
    expect(run(wb_cmd_compare, skip), 0, "not measured", "the not-measured column");
    CHECK(line_has("vec8", "both skipped", "both skipped"));
    /* the family row: matched 2 = faster 0 + slower 0 + same 1 + no test 0 + not measured 1 */
    const char *row = strstr(out, "\ntransform ");
    int m = -1, oa, ob, fa, sl, sa, nt, nm = -1;
    double g, sp;
    CHECK(row && sscanf(row, " transform %d %d %d %lf %lfx %d %d %d %d %d", &m, &oa, &ob, &g, &sp, &fa, &sl, &sa, &nt, &nm) == 10);
    CHECK(m == 2 && fa == 0 && sl == 0 && sa == 1 && nt == 0 && nm == 1);
    if (m != 2 || nm != 1) fprintf(stderr, "the skipped-in-both family row:\n%s\n", out);
}

/* Rows on k SMs: transform/scalar follows the model exactly (its time is
 * max(inst, bytes) on the k-SM roof over the base's efficiency); expr/interp
 * is 20% slower than projected at k = 16, where the bandwidth is unmeasured. */
static void test_validate(void) {
    synth z;
    synth_open(&z, path_of("sms.h5"), "NVIDIA H200");
    wb_row r = synth_row("ceiling", "inst_issue", 1 << 20, 2.0);
    synth_counters(&r, 2.64e9, 1e3, 0); /* 1320 G inst/s: 10 per SM */
    synth_put(&z, &r, NULL, 0);
    static const int ks[] = {0, 8, 132};
    static const double bw[] = {4000, 400, 3600};
    for (int i = 0; i < 3; i++) {
        r = synth_row("ceiling", "dram_read", 1 << 28, 1.0);
        r.p.launch.sm_limit = ks[i];
        r.m.gbps_model = bw[i];
        synth_counters(&r, 1e6, 1.25e8, 0);
        synth_put(&z, &r, NULL, 0);
    }
    /* transform: 3.2 GB, memory-bound at every k; efficiency 0.5 against 3600 GB/s at k = 132 */
    static const int tk[] = {132, 8};
    static const double tbw[] = {3600, 400};
    for (int i = 0; i < 2; i++) {
        r = synth_row("transform", "scalar", 1 << 28, 3.2e9 / (tbw[i] * 1e9) * 1e3 / 0.5);
        r.p.launch.sm_limit = tk[i];
        synth_counters(&r, 1e8, 6e7, 4e7);
        synth_put(&z, &r, NULL, 0);
    }
    /* expr: 1.32e10 inst, instruction-bound; 10 ms on all SMs at 1320 G inst/s; on 16 SMs 82.5 ms by the model */
    r = synth_row("expr", "interp", 1 << 26, 10.0);
    r.p.launch.sm_limit = 132;
    synth_counters(&r, 1.32e10, 1e6, 0);
    synth_put(&z, &r, NULL, 0);
    r = synth_row("expr", "interp", 1 << 26, 82.5 * 1.2);
    r.p.launch.sm_limit = 16;
    synth_counters(&r, 1.32e10, 1e6, 0);
    synth_put(&z, &r, NULL, 0);
    r = synth_row("expr", "compiled", 1 << 26, 1.0); /* no base */
    r.p.launch.sm_limit = 8;
    synth_counters(&r, 1e8, 1e6, 0);
    synth_put(&z, &r, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);

    char *argv[] = {"project", "--validate", (char *)path_of("sms.h5"), NULL};
    int rc = run(wb_cmd_project, argv);
    expect(rc, 0, "+0.0%", "a row that follows the model");
    expect(rc, 0, "-16.7%", "a row 20% slower than projected");
    expect(rc, 0, "2 row(s) compared; 1 with the bandwidth measured at k: mean |error| 0.0%", "summary");
    expect(rc, 0, "1 row(s) without a base", "the row without a base");
    expect(rc, 0, "one block/SM", "the base kind");
    /* the limiter model (issue 49 item 4): transform at 45% of the full GPU's bandwidth is latency-bound
     * there, a range up to the SM ratio (132/8) that holds its 9x; expr at the issue roof scales by
     * 132/16, the same -16.7% */
    expect(rc, 0, "latency", "the transform base's limiter");
    expect(rc, 0, "in range", "a measured time inside the limiter's range");
    expect(rc, 0, "limiter model over those: 0 point estimate(s); 1 range(s), 1 holding the measured time", "the limiter model's summary");
    char *plain[] = {"project", "--validate", (char *)path_of("h200.h5"), NULL};
    expect(run(wb_cmd_project, plain), 2, "no ok row with sm_limit > 0", "a file without SM-scaling rows");
}

/* Two points of 10 samples each, the second `shift` slower than in the first
 * file and tightly sampled, so that the test finds even 0.5% significant;
 * the attributes a run records, to tell the sides apart. */
static void write_small(const char *name, double shift, const char *sweep, const char *rev, const char *uuid) {
    synth z;
    synth_open(&z, path_of(name), "NVIDIA H200");
    synth_attr_str(&z, "sweep", sweep);
    synth_attr_str(&z, "git_revision", rev);
    synth_attr_str(&z, "gpu_uuid", uuid);
    synth_attr_str(&z, "command_line", "wallbench run --sweep quick --out results/h200");
    double samples[10];
    for (int k = 0; k < 2; k++) {
        const double base = k ? 2.0 * (1 + shift) : 1.0;
        wb_row r = synth_row("transform", k ? "vec16" : "scalar", 1 << 24, base);
        r.m.other_processes = strstr(name, "contended") && k ? 1 : 0; /* timed beside another process */
        for (int i = 0; i < 10; i++) samples[i] = base * (1 + 0.0001 * (i - 5));
        synth_put(&z, &r, samples, 10);
    }
    if (!strcmp(sweep, "full")) { /* a point the quick sweep lacks */
        wb_row r = synth_row("expr", "interp", 1 << 26, 5.0);
        synth_put(&z, &r, NULL, 0);
    }
    CHECK(synth_close(&z) == WB_OK);
}

/* Two GPU models: said in the first line, with the hardware ratios, before
 * the sides and the family verdicts; one model under two profiles' names
 * (GPU=gh200 on an H200) is a GPU profile note, not two GPUs. */
static void test_compare_gpus(void) {
    write_measured("run-h200.h5", "NVIDIA H200", "h200");
    write_measured("run-l4.h5", "NVIDIA L4", "l4");
    write_measured("run-gh200.h5", "NVIDIA H200", "gh200");
    char *two[] = {"compare", (char *)path_of("run-h200.h5"), (char *)path_of("run-l4.h5"), NULL};
    int rc = run(wb_cmd_compare, two);
    expect(rc, 0, "B faster", "two GPUs");
    CHECK(strncmp(out, "TWO GPUs: A NVIDIA H200, B NVIDIA L4: B/A DRAM bandwidth 1x, instruction throughput 1x", 85) == 0);
    CHECK(strstr(out, "NOTE: GPU model differs: A NVIDIA H200, B NVIDIA L4") != NULL);
    CHECK(!strstr(out, "GPU profile differs")); /* the model says it */
    CHECK(section_has("TWO GPUs", "summary per family", "A = ")); /* the sides after the GPUs */
    char *named[] = {"compare", (char *)path_of("run-h200.h5"), (char *)path_of("run-gh200.h5"), NULL};
    expect(run(wb_cmd_compare, named), 0, "NOTE: GPU profile differs: A h200, B gh200: one GPU model", "gh200 on an H200");
    CHECK(!strstr(out, "TWO GPUs"));
}

/* What compare says before its numbers (each side, every mismatch and what
 * it did), the summary first and the per-point tables only with --points,
 * and the minimum effect: a significant 0.5% is "same" under the default
 * 1%, "slower" with --min-effect 0. */
static void test_compare_sides(void) {
    const char *board = "GPU-4efdb731-3ff6-4e85-1351-08e141718328";
    write_small("quick-a.h5", 0, "quick", "47c0bec", board);
    write_small("quick-b.h5", 0.005, "quick", "47c0bec", board);
    write_small("full-c.h5", 0.005, "full", "9acbaeb", "GPU-f82cdc86-0000-0000-0000-000000000000");
    char *same[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), NULL};
    int rc = run(wb_cmd_compare, same);
    expect(rc, 0, "quick-a.h5 (NVIDIA H200, board GPU-4efdb731, revision 47c0bec, sweep quick): measured",
           "A named by file, GPU, board, revision and sweep");
    expect(rc, 0, "same schema, sweep, board, GPU model and profile, build and command", "no mismatch said as such");
    expect(rc, 0, "(1 such point(s))", "the 0.5% point counted as under the minimum effect");
    CHECK(line_has("transform", "1.002", "1.00x")); /* geomean of 1.000 and 1.005 */
    CHECK(strstr(out, "summary per family") && strstr(out, "--points") && !strstr(out, "transform: per point"));
    char *pts[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--points", NULL};
    rc = run(wb_cmd_compare, pts);
    CHECK(line_has("vec16", "same (<min)", "1.005"));
    CHECK(strstr(out, "summary per family") < strstr(out, "transform: per point")); /* summary first */
    char *zero[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--points",
                    "--min-effect", "0", NULL};
    rc = run(wb_cmd_compare, zero);
    CHECK(line_has("vec16", "slower", "1.005"));
    CHECK(strstr(out, "(0 such point(s))") != NULL);
    char *bad[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--min-effect", "x", NULL};
    expect(run(wb_cmd_compare, bad), 2, "bad --min-effect 'x'", "a bad minimum effect");

    char *other[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("full-c.h5"), NULL};
    rc = run(wb_cmd_compare, other);
    expect(rc, 0, "NOTE: sweep differs: A quick, B full: compared on the 2 points both measured; 0 only in A, 1 only "
                  "in B, counted apart", "another sweep: said, with what was compared");
    expect(rc, 0, "NOTE: board differs: A GPU-4efdb731-3ff6-4e85-1351-08e141718328, B GPU-f82cdc86", "another board");
    expect(rc, 0, "NOTE: build differs: A 47c0bec, B 9acbaeb: differences include the code's", "another build");
    CHECK(!strstr(out, "command differs")); /* only --out would differ: the same command */
    /* the mismatch lines come before the numbers */
    CHECK(strstr(out, "NOTE: sweep differs") < strstr(out, "summary per family"));

    /* --json and --csv: the same facts for scripts, no prose */
    char *json[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("full-c.h5"), "--json", NULL};
    rc = run(wb_cmd_compare, json);
    expect(rc, 0, "\"mismatches\":[{\"kind\":\"sweep\",\"a\":\"quick\",\"b\":\"full\",\"action\":\"compared on the 2 "
                  "points both measured", "--json: the sweep mismatch");
    expect(rc, 0, "{\"family\":\"transform\",\"matched\":2,\"only_a\":0,\"only_b\":0,\"b_faster\":0,\"b_slower\":0,"
                  "\"same\":2,\"same_under_min_effect\":1,", "--json: the family summary");
    expect(rc, 0, "\"verdict\":\"same\"", "--json: a point's verdict");
    CHECK(out[0] == '{' && !strstr(out, "NOTE:"));
    char *csv[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--csv", NULL};
    rc = run(wb_cmd_compare, csv);
    expect(rc, 0, "point,family,variant,a_ms,b_ms,b_over_a,verdict,p\n\"transform/scalar/", "--csv: header, then points");
    CHECK(line_has("transform/vec16", ",2,2.0", ",same,")); /* A 2 ms, B 2.01 ms: under the minimum effect */
    /* --repeat names the points timed while other processes held the GPU */
    write_small("quick-contended.h5", 0.005, "quick", "47c0bec", board);
    char *rep[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-contended.h5"), "--repeat", NULL};
    expect(run(wb_cmd_compare, rep), 0, "NOTE: contended: 0 point(s) of A and 1 of B were timed while other processes",
           "--repeat: contended points named");
    char *rep0[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--repeat", NULL};
    run(wb_cmd_compare, rep0);
    CHECK(!strstr(out, "contended"));
    char *both[] = {"compare", (char *)path_of("quick-a.h5"), (char *)path_of("quick-b.h5"), "--csv", "--repeat", NULL};
    expect(run(wb_cmd_compare, both), 2, "--json and --csv compare two files", "--csv with --repeat");
}

int main(void) {
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_axes();
    test_project();
    test_compare();
    test_compare_sides();
    test_compare_gpus();
    test_validate();
    synth_remove_dir(dir);
    return TEST_DONE();
}
