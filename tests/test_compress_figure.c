/* test_compress_figure.c - the compress family's figure on a synthetic file:
 * plain and frame-of-reference sums at widths 1..32 whose counted work sits
 * on a roof of 1030 G inst/s over 4300 GB/s at 95% of it, the plain scan
 * bandwidth-bound and the compressed one instruction-bound at small widths.
 * The table pairs each compressed point with the plain one of its width;
 * the measured speedup, the bytes ratio, the share of the roof and the L4
 * projection (where bandwidth is scarcer, so the speedup comes closer to the
 * bytes ratio) and which roof binds (limiter) are what the rows must hold. `test_compress_figure --write
 * PATH` only writes the file (tests/sh_plots.sh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/export.h"
#include "micro/family_figures.h"
#include "tests/check.h"
#include "tests/synth_results.h"

#define N ((int64_t)1 << 28)
#define DRAM 4300.0
#define GIPS 1030.0

/* A point whose counted work (inst warp instructions, bytes read) ran at 95%
 * of the roof. */
static wb_row point(const char *variant, int w, double bytes, double inst) {
    const double ms = fmax(bytes / (DRAM * 1e6), inst / (GIPS * 1e6)) / 0.95;
    wb_row r = synth_row("compress", variant, N, ms);
    snprintf(r.p.layout, sizeof r.p.layout, "uniform");
    r.p.bit_width = w;
    r.p.bytes_model = bytes;
    r.p.launch.ilp = 128;
    r.m.gbps_model = bytes / (ms * 1e6);
    synth_counters(&r, inst, bytes / 32, 0);
    return r;
}

static double plain_bytes(void) { return 4.0 * N; }
static double comp_bytes(int w) { return N * w / 8.0 + 16.0 * N / 4096; }

static int write_file(const char *path) {
    synth z;
    synth_open(&z, path, "NVIDIA H200");
    static const struct { const char *v; double gbps; } dram[] = {{"dram_read", DRAM}, {"dram_write", 4100}};
    for (int i = 0; i < 2; i++) {
        wb_row r = synth_row("ceiling", dram[i].v, 1 << 28, 1.0);
        r.p.bytes_model = dram[i].gbps * 1e6;
        r.m.gbps_model = dram[i].gbps;
        synth_put(&z, &r, NULL, 0);
    }
    wb_row c = synth_row("ceiling", "inst_issue", 1 << 24, 1.0);
    synth_metric(&c, "sm_clock_hz", 1.98e9);
    c.c.gips = GIPS;
    synth_put(&z, &c, NULL, 0);
    for (int w = 1; w <= 32; w++) {
        wb_row p = point("plain_sum", w, plain_bytes(), 4.0 * N / 32);
        wb_row f = point("for_sum", w, comp_bytes(w), 6.0 * N / 32);
        synth_put(&z, &p, NULL, 0);
        synth_put(&z, &f, NULL, 0);
    }
    return synth_close(&z);
}

/* Word col (1-based) of the data row whose bit width is w; "" if none. */
static void word(const char *path, int w, int col, char *out, size_t len) {
    FILE *f = fopen(path, "r");
    char line[1024];
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *save, *tok = strtok_r(line, " \n", &save);
        int k = 1, here = 0;
        while ((tok = strtok_r(NULL, " \n", &save))) {
            k++;
            if (k == 2) here = atoi(tok) == w;
            if (here && k == col) snprintf(out, len, "%s", tok);
        }
    }
    if (f) fclose(f);
}

/* Column col (1-based) of the data row whose bit width is w; NaN if none. */
static double cell(const char *path, int w, int col) {
    FILE *f = fopen(path, "r");
    char line[1024];
    double v = NAN;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *save, *tok = strtok_r(line, " \n", &save);
        double vals[16];
        int k = 0;
        while ((tok = strtok_r(NULL, " \n", &save)) && k < 16) vals[k++] = strtod(tok, NULL);
        if (k >= col - 1 && vals[0] == w) v = vals[col - 2];
    }
    if (f) fclose(f);
    return v;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_file(argv[2]) == WB_OK ? 0 : 1;
    char dir[] = "/tmp/wb_compress_figure_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    wb_err e = {""};
    CHECK(wb_micro_figures_add(&e) == WB_OK && write_file(synth_path(dir, "c.h5")) == WB_OK);
    wb_results r;
    wb_gpu_table t;
    CHECK(wb_gpu_table_load(NULL, &t, &e) == WB_OK && wb_results_open(synth_path(dir, "c.h5"), &r, &e) == WB_OK);
    int rows = -1;
    CHECK(wb_export_figure("compress", &r, NULL, &t, dir, &rows, &e) == WB_OK);
    CHECK(rows == 32);
    const char *dat = synth_path(dir, "fig-compress.dat");
    for (int w = 1; w <= 32; w++) {
        const double ratio = plain_bytes() / comp_bytes(w);
        CHECK_NEAR(cell(dat, w, 6), ratio, 1e-6 * ratio);
        const double tp = fmax(plain_bytes() / DRAM, 4.0 * N / 32 / GIPS),
                     tc = fmax(comp_bytes(w) / DRAM, 6.0 * N / 32 / GIPS);
        CHECK_NEAR(cell(dat, w, 3), tp / tc, 1e-6 * tp / tc);
        CHECK_NEAR(cell(dat, w, 9), 95.0, 1e-6);                /* the share of the roof */
        CHECK(cell(dat, w, 3) <= ratio * (1 + 1e-9));          /* never above the bytes ratio */
        const double l4 = cell(dat, w, 4), gh = cell(dat, w, 5);
        CHECK(isfinite(l4) && isfinite(gh));
        if (w <= 5) CHECK(l4 > cell(dat, w, 3) * 1.2); /* H200 instruction-bound, L4 much less so */
        CHECK(l4 <= ratio * (1 + 1e-9));
    }
    CHECK(cell(dat, 32, 3) < 1); /* at 32 bits the compressed scan only costs */
    /* the limiters: instructions bind the narrow compressed scan on this roof, never on L4's */
    char h200[16], l4[16], h200_wide[16];
    word(dat, 2, 12, h200, sizeof h200);
    word(dat, 2, 13, l4, sizeof l4);
    word(dat, 24, 12, h200_wide, sizeof h200_wide);
    CHECK(strcmp(h200, "inst") == 0 && strcmp(l4, "dram") == 0 && strcmp(h200_wide, "dram") == 0);
    wb_results_free(&r);
    wb_gpu_table_free(&t);
    synth_remove_dir(dir);
    return TEST_DONE();
}
