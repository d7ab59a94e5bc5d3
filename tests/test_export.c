/* test_export.c - `wallbench export` on a synthetic results file written
 * through the store (store_h5.h): ceiling points, every operator family with
 * and without counters, a skipped point. Checks each figure's row count
 * against what the slicing rules must pick, that every table holds as many
 * data lines as reported, the skips (family absent, counters missing, no
 * second file), the projected label and the compare export.
 * `test_export --write PATH` only writes the synthetic file (used by
 * tests/sh_plots.sh to render every figure without a GPU). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/tools/ceilings.h"
#include "harness/tools/export.h"
#include "harness/base/metrics.h"
#include "harness/store/store_h5.h"
#include "micro/family_figures.h"

/* The synthetic file's measured roof (the ceilings() rows below agree with it). */
static const wb_roof measured_roof = {"measured", 1030, 4300};

/* Counters consistent with an intensity, a throughput and a time; shape
 * parameters vary with h so that the CDFs have spread. */
static void counters(synth *z, wb_row *r, double ips, double gips, int h) {
    double t = r->m.time_median_ms, inst = gips * 1e9 * t / 1e3, sectors = inst / ips;
    synth_metric(r, "inst", inst);
    synth_metric(r, "inst_issued", inst * 1.02);
    synth_metric(r, "dram_sectors_read", sectors * 0.6);
    synth_metric(r, "dram_sectors_write", sectors * 0.4);
    synth_metric(r, "ipc", gips / (132 * 1.98));
    synth_metric(r, "occupancy_achieved_pct", 20 + (h * 37) % 75);
    synth_metric(r, "dram_throughput_pct", fmin(99, 100.0 * sectors * 32 / (t * 1e6) / 4800));
    synth_metric(r, "l2_throughput_pct", 10 + (h * 23) % 80);
    synth_metric(r, "l1_throughput_pct", 5 + (h * 13) % 90);
    synth_metric(r, "l2_hit_pct", 30 + (h * 17) % 70);
    synth_metric(r, "l1_hit_pct", (h * 29) % 100);
    synth_metric(r, "sm_clock_hz", 1.98e9);
    synth_metric(r, "kernel_time_ms", t);
    for (int g = 0; g < WB_STALL_GROUPS; g++) r->c.stall[g] = 0.5 + (h + 3 * g) % 7;
    r->c.inst_per_sector = ips;
    r->c.gips = gips;
    r->c.launches = 1;
    snprintf(r->c.bound, sizeof r->c.bound, "%s", wb_roof_bound(&measured_roof, ips));
}

static void put(synth *z, wb_row *r) {
    r->m.gbps_model = isfinite(r->p.bytes_model) ? r->p.bytes_model / (r->m.time_median_ms * 1e6) : NAN;
    if (!r->m.status[0]) snprintf(r->m.status, sizeof r->m.status, "ok");
    synth_put(z, r, NULL, 3);
}

static wb_row op(const char *family, const char *variant, int64_t n, double time_ms) {
    wb_row r = synth_row(family, variant, n, time_ms);
    r.p.launch.occupancy_theoretical = 0.75;
    r.p.launch.waves = (double)n / (1 << 22);
    return r;
}

static void ceilings(synth *z) {
    static const struct { const char *v; double gbps; } dram[] = {
        {"dram_read", 4300}, {"dram_write", 4100}, {"dram_copy", 4200}, {"memcpy", 4000}, {"l2_read", 12000}};
    for (int i = 0; i < 5; i++) {
        wb_row r = op("ceiling", dram[i].v, 1 << 28, 1.0);
        r.p.bytes_model = dram[i].gbps * 1e6;
        put(z, &r);
    }
    /* the random-access wall: 16 MiB (in L2) to 4 GiB; 1 GiB at 40 G req/s */
    for (int sh = 24; sh <= 32; sh += 2)
        for (int v = 0; v < 2; v++) {
            wb_row g = op("ceiling", v ? "gather_sector" : "gather_word", 1 << 28, 1.0);
            g.p.table_bytes = (double)(1LL << sh);
            g.p.items = (sh <= 24 ? 160e9 : 40e9 * (v ? 0.9 : 1)) * 1e-3; /* requests in the 1 ms median */
            put(z, &g);
        }
    /* global atomics: 140 G adds/s into 4 MiB (the L2 holds it), 36.5 into 64 MiB (it misses): the
     * fastest table is the L2's atomic rate fig-hierarchical draws, not the largest; the L2 counts
     * 1.5 RED requests per add (the H200's ratio), so the roof in the points' unit is 210 G req/s */
    for (int sh = 22; sh <= 26; sh += 4) {
        wb_row a = op("ceiling", "atom_global", 1 << 28, 1.0);
        a.p.table_bytes = (double)(1LL << sh);
        a.p.items = (sh == 26 ? 36.5e9 : 140e9) * 1e-3;
        synth_metric(&a, "l2_red_requests", 1.5 * a.p.items);
        synth_metric(&a, "l2_atom_requests", 0);
        put(z, &a);
    }
    wb_row r = op("ceiling", "inst_issue", 1 << 24, 1.0);
    synth_metric(&r, "sm_clock_hz", 1.98e9);
    r.c.gips = 1030;
    put(z, &r);
}

/* Every family the figures read; select at n = 2^20 has no counters. */
static void operators(synth *z) {
    const double sels[5] = {0, 0.25, 0.5, 0.75, 1};
    int h = 0;
    for (int v = 0; v < 2; v++)
        for (int big = 0; big < 2; big++)
            for (int s = 0; s < 5; s++)
                for (int ilp = 1; ilp <= 4; ilp *= 4, h++) {
                    wb_row r = op("select", v ? "pred" : "if", big ? 1 << 24 : 1 << 20, (big ? 8.0 : 0.5) / ilp + sels[s]);
                    r.p.selectivity = sels[s];
                    r.p.launch.ilp = ilp;
                    if (big) counters(z, &r, 2 + 3 * v + s, 300 + 50 * s, h);
                    put(z, &r);
                }
    for (int v = 0; v < 2; v++)
        for (int q = 0; q < 2; q++)
            for (int s = 0; s < 5; s++, h++) {
                wb_row r = op("scan", v ? "direct" : "tiled", 1 << 24, 5 + s * (v ? 1 : 0.2) + q);
                snprintf(r.p.layout, sizeof r.p.layout, "%s", q ? "q31" : "q11");
                r.p.selectivity = sels[s];
                counters(z, &r, 4 + s, 400, h);
                put(z, &r);
            }
    const char *pairs[4][3] = {{"probe", "hash", "direct"}, {"groupby", "shared", "global"}, {"expr", "interp", "compiled"}};
    for (int f = 0; f < 3; f++)
        for (int v = 0; v < 2; v++)
            for (int k = 0; k < (f == 0 ? 9 : f == 1 ? 7 : 5); k++, h++) {
                static const int64_t groups[7] = {1, 16, 56, 175, 1024, 65536, 1 << 20};
                wb_row r = op(pairs[f][0], pairs[f][1 + v], 1 << 24, 2.0 + k * (1 + v));
                if (f == 0) r.p.table_entries = (int64_t)1 << (10 + 2 * k);
                if (f == 0 && v == 0) r.p.load_factor = 0.5;
                if (f == 1) r.p.groups = groups[k];
                if (f == 1) r.p.fallback = v == 0 && k == 6; /* shared at 2^20 groups ran the global kernel */
                if (f == 2) r.p.expr_ops = 1 << k;
                counters(z, &r, f == 2 && v == 0 ? 6.0 * (1 << k) : 3 + k, 200 + 60 * k, h);
                if (f == 1 && v == 1) { /* the global group-by: one RED a row at the L2 */
                    synth_metric(&r, "l2_red_requests", (double)r.p.n);
                    synth_metric(&r, "l2_atom_requests", 0);
                }
                put(z, &r);
            }
    for (int v = 0; v < 2; v++)
        for (int ilp = 1; ilp <= 16; ilp *= 2)
            for (int o = 1; o <= 4; o *= 2, h++) {
                wb_row r = op("transform", v ? "vector" : "scalar", 1 << 26, 1.0 + 4.0 / (ilp * o) + (v ? 0 : 0.3));
                r.p.vector_bytes = v ? 16 : 4;
                r.p.launch.ilp = ilp;
                r.p.launch.occupancy_target = o / 4.0;
                counters(z, &r, 1.5, 250, h);
                put(z, &r);
            }
    /* ssb: 13 queries x 4 forms at SF 1 and 10 */
    static const char *const queries[13] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                            "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};
    for (int sf = 1; sf <= 10; sf *= 10)
        for (int q = 0; q < 13; q++)
            for (int v = 0; v < 4; v++, h++) {
                static const char *const forms[4] = {"tiled", "direct", "packed", "bitmap"};
                char name[24];
                snprintf(name, sizeof name, "%s_%s", queries[q], forms[v]);
                wb_row r = op("ssb", name, 6000000LL * sf, 0.3 * sf * (1 + 0.1 * q) * (1 - 0.1 * v));
                r.p.bytes_model = 16.0 * (double)r.p.n;
                /* SF 1 as a file before schema 6 writes it (the lookups in the note alone), SF 10 in the column */
                if (sf == 1) snprintf(r.p.note, sizeof r.p.note, "SF %d; %d rows pass; 1.5 M map lookups", sf, 100 + q);
                else r.p.lookups = 2.5e6, snprintf(r.p.note, sizeof r.p.note, "SF %d; %d rows pass", sf, 100 + q);
                counters(z, &r, 3 + 0.5 * q, 300, h);
                put(z, &r);
            }
    wb_row peer = op("transform", "cub", 1 << 26, 0.9);
    peer.p.launch.ilp = -1;
    peer.p.launch.block = -1;
    peer.p.launch.waves = NAN;
    put(z, &peer);
    wb_row skipped = op("groupby", "shared", 1 << 24, NAN);
    snprintf(skipped.m.status, sizeof skipped.m.status, "skipped");
    put(z, &skipped);
}

/* Writes the synthetic file; full = 0: ceiling rows without counters only;
 * compare_with: the attribute, or NULL. */
static int write_synthetic(const char *path, int full, int projected, const char *compare_with, wb_err *e) {
    synth z = {NULL, {""}, WB_OK};
    if (wb_store_create(path, &z.s, e) != WB_OK) return WB_ERR;
    wb_store_attr_str(z.s, "gpu_name", "NVIDIA H200", &z.e);
    wb_store_attr_f64(z.s, "sm_count", 132, &z.e);
    wb_store_attr_f64(z.s, "l2_bytes", 50.0 * 1024 * 1024, &z.e);
    wb_store_attr_f64(z.s, "projected", projected, &z.e);
    if (compare_with) wb_store_attr_str(z.s, "compare_with", compare_with, &z.e);
    if (full) ceilings(&z), operators(&z);
    else {
        wb_row r = op("ceiling", "dram_read", 1 << 28, 1.0);
        put(&z, &r);
    }
    int rc = wb_store_close(z.s, e);
    if (z.rc != WB_OK) *e = z.e;
    return z.rc == WB_OK ? rc : WB_ERR;
}

static int data_lines(const char *dir, const char *name, const char *part) {
    char path[600], line[512];
    snprintf(path, sizeof path, "%s/%s%s.dat", dir, name, part);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && line[0] != '\n') n++;
    fclose(f);
    return n;
}

/* Sum of column col (0-based, whitespace-separated) over the data lines. */
static double column_sum(const char *dir, const char *name, const char *part, int col) {
    char path[600], line[512];
    snprintf(path, sizeof path, "%s/%s%s.dat", dir, name, part);
    FILE *f = fopen(path, "r");
    if (!f) return NAN;
    double sum = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tok = strtok(line, " \t\n");
        for (int i = 0; tok && i < col; i++) tok = strtok(NULL, " \t\n");
        sum += tok ? atof(tok) : NAN;
    }
    fclose(f);
    return sum;
}

static int export_rows(const char *fig, const wb_results *r, const wb_results *o, const wb_gpu_table *t,
                       const char *dir, int expect_rc) {
    wb_err e = {""};
    int rows = -1, rc = wb_export_figure(fig, r, o, t, dir, &rows, &e);
    if (rc != expect_rc) fprintf(stderr, "%s: rc %d (want %d): %s\n", fig, rc, expect_rc, e.msg);
    CHECK(rc == expect_rc);
    if (rc == WB_SKIP) CHECK(e.msg[0] != '\0');
    return rc == WB_OK ? rows : -1;
}

int main(int argc, char **argv) {
    wb_err e = {""};
    if (wb_micro_figures_add(&e) != WB_OK) return fprintf(stderr, "figures: %s\n", e.msg), 1;
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        /* sh_plots.sh renders fig-compare too: the file compares with itself */
        const char *slash = strrchr(argv[2], '/');
        if (write_synthetic(argv[2], 1, 0, slash ? slash + 1 : argv[2], &e) == WB_OK) return 0;
        fprintf(stderr, "test_export: %s\n", e.msg);
        return 1;
    }
    char dir[] = "/tmp/wb_test_export_XXXXXX", path[600], bare[600], out[500];
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    snprintf(path, sizeof path, "%s/synthetic.h5", dir);
    snprintf(bare, sizeof bare, "%s/bare.h5", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    CHECK(mkdir(out, 0777) == 0);
    wb_gpu_table t;
    wb_results r, b;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK || write_synthetic(path, 1, 0, NULL, &e) != WB_OK ||
        write_synthetic(bare, 0, 1, NULL, &e) != WB_OK || wb_results_open(path, &r, &e) != WB_OK ||
        wb_results_open(bare, &b, &e) != WB_OK) {
        fprintf(stderr, "setup: %s\n", e.msg);
        return 1;
    }
    static const struct { const char *fig; int rows; } want[] = {
        {"fig1-gpu-trends", 7}, {"fig2-roofline", 4}, {"fig4-roofline-points", 216}, {"fig5-undersaturation", 13},
        {"fig7-occupancy", 202}, {"fig8-saturation", 1010}, {"fig9-hit-ratio", 303}, {"fig-select", 10},
        {"fig-scan", 20}, {"fig-probe", 18}, {"fig-groupby", 14}, {"fig-expr", 10}, {"fig-transform", 10},
        {"fig-ilp-occupancy", 15}, {"fig-ssb", 52}, {"fig6-stalls", -1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int rows = export_rows(want[i].fig, &r, NULL, &t, out, WB_OK);
        if (want[i].rows >= 0 && rows != want[i].rows) fprintf(stderr, "%s: %d rows, want %d\n", want[i].fig, rows, want[i].rows);
        CHECK(want[i].rows < 0 ? rows >= 2 : rows == want[i].rows);
        int lines = data_lines(out, want[i].fig, "");
        /* select adds its model series; transform its library peer drawn across the ILP range */
        int extra = strcmp(want[i].fig, "fig-select") == 0 ? 5 : strcmp(want[i].fig, "fig-transform") == 0 ? 5 : 0;
        if (strcmp(want[i].fig, "fig-ilp-occupancy") == 0) lines = data_lines(out, want[i].fig, "-transform");
        CHECK(lines == rows + extra);
    }
    CHECK(data_lines(out, "fig4-roofline-points", "-roofs") == 4);
    CHECK(data_lines(out, "fig4-roofline-points", "-shares") == 3);
    CHECK(data_lines(out, "fig-probe", "-levels") == 1);
    CHECK(data_lines(out, "fig-probe", "-gather") == 5); /* the wall at the five table sizes */
    CHECK(data_lines(out, "fig2-roofline", "-gather") == 2); /* word and sector roofs at 1 GiB */
    CHECK(data_lines(out, "fig-ilp-occupancy", "") == 1); /* select sweeps ILP at one occupancy only */
    CHECK(data_lines(out, "fig8-saturation", "-summary") == 2);
    CHECK(data_lines(out, "fig-ssb", "-table") == 104); /* both scale factors */
    CHECK(data_lines(out, "fig-ssb", "-sums") == 2);
    /* the facts: lookups from the column (SF 10) or, in files before it, the note (SF 1); one fallback */
    CHECK(fabs(column_sum(out, "fig-ssb", "-table", 11) - (52 * 1.5 + 52 * 2.5)) < 1e-9);
    CHECK(column_sum(out, "fig-groupby", "", 4) == 1);

    /* fig-hierarchical: the atomic intensity (inst / (ATOM + RED)) of the 7 global group-by rows
     * alone, and the atom_global roof at its fastest table, in counted requests (1.5 x 140) */
    CHECK(export_rows("fig-hierarchical", &r, NULL, &t, out, WB_OK) > 0);
    {
        char hp[600], hl[512];
        int atomic_rows = 0, bad = 0, roof = 0;
        snprintf(hp, sizeof hp, "%s/fig-hierarchical.dat", out);
        FILE *h = fopen(hp, "r");
        while (h && fgets(hl, sizeof hl, h)) {
            char fam[64], var[64], a[7][32];
            if (hl[0] == '#' || sscanf(hl, "%63s %63s %31s %31s %31s %31s %31s", fam, var, a[0], a[1], a[2], a[3], a[4]) != 7)
                continue;
            const int has = strcmp(a[4], "NaN") != 0, want = !strcmp(fam, "groupby") && !strcmp(var, "global");
            atomic_rows += has;
            bad += has != want || (has && !(strtod(a[4], NULL) > 0));
        }
        if (h) fclose(h);
        snprintf(hp, sizeof hp, "%s/fig-hierarchical-roofs.dat", out);
        h = fopen(hp, "r");
        while (h && fgets(hl, sizeof hl, h)) roof += !strcmp(hl, "atom_global atomic 210\n");
        if (h) fclose(h);
        CHECK(atomic_rows == 7 && bad == 0);
        CHECK(roof == 1);
    }
    { /* the limiter's unit: counted requests where the ceiling's counter pass has them, else adds */
        int counted = -1;
        CHECK(fabs(wb_ceiling_atomics(&r, &counted) - 210) < 1e-6 && counted == 1);
        const int red = wb_metric_index("l2_red_requests");
        for (int64_t i = 0; i < r.nrows; i++)
            if (!strcmp(r.rows[i].p.variant, "atom_global")) r.rows[i].c.v[red] = NAN;
        CHECK(fabs(wb_ceiling_atomics(&r, &counted) - 140) < 1e-6 && counted == 0);
    }

    /* compare: without a second file it is absent; against itself every speedup is 1 */
    export_rows("fig-compare", &r, NULL, &t, out, WB_SKIP);
    CHECK(export_rows("fig-compare", &r, &r, &t, out, WB_OK) == 216);
    CHECK(data_lines(out, "fig-compare", "-ratios") == 1);

    /* the bare file: ceiling row without counters, projected */
    CHECK(export_rows("fig2-roofline", &b, NULL, &t, out, WB_OK) == 3);
    static const char *const absent[] = {"fig4-roofline-points", "fig6-stalls", "fig7-occupancy", "fig8-saturation",
                                          "fig9-hit-ratio", "fig-select", "fig-ilp-occupancy", "fig-transform",
                                          "fig-ssb"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) export_rows(absent[i], &b, NULL, &t, out, WB_SKIP);
    char info[600], line[256] = "";
    snprintf(info, sizeof info, "%s/fig2-roofline-info.dat", out);
    FILE *f = fopen(info, "r");
    CHECK(f && fgets(line, sizeof line, f) && fgets(line, sizeof line, f));
    CHECK(strstr(line, "H200 projected bare") != NULL);
    if (f) fclose(f);

    CHECK(wb_export_resolve("fig4") && strcmp(wb_export_resolve("fig4"), "fig4-roofline-points") == 0);
    CHECK(wb_export_resolve("select") && strcmp(wb_export_resolve("select"), "fig-select") == 0);
    CHECK(wb_export_resolve("fig") == NULL);
    export_rows("fig-nothing", &r, NULL, &t, out, WB_ERR);
    export_rows("fig-select", NULL, NULL, &t, out, WB_ERR);

    wb_results_free(&r);
    wb_results_free(&b);
    wb_gpu_table_free(&t);
    if (!wb_test_failures) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    }
    return TEST_DONE();
}
