/* test_toy_figure.c - the toy family's figure on a synthetic file;
 * `test_toy_figure --write PATH` only writes that file (tests/sh_plots.sh). */
#include <string.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/tools/export.h"
#include "micro/family_figures.h"

static int write_file(const char *path) {
    synth z;
    synth_open(&z, path, "NVIDIA H200");
    for (int v = 0; v < 2; v++)
        for (int g = 1; g <= 64; g *= 4) {
            wb_row r = synth_row("toy", v ? "wide" : "plain", 1 << 24, 1.0 + g * 0.01 + v);
            r.p.groups = g;
            synth_put(&z, &r, NULL, 0);
        }
    return synth_close(&z);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_file(argv[2]) == WB_OK ? 0 : 1;
    char dir[] = "/tmp/wb_toy_figure_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    wb_err e = {""};
    CHECK(wb_micro_figures_add(&e) == WB_OK && write_file(synth_path(dir, "toy.h5")) == WB_OK);
    wb_results r;
    wb_gpu_table t;
    CHECK(wb_gpu_table_load(NULL, &t, &e) == WB_OK && wb_results_open(synth_path(dir, "toy.h5"), &r, &e) == WB_OK);
    int rows = -1;
    CHECK(wb_export_figure("toy", &r, NULL, &t, dir, &rows, &e) == WB_OK && rows == 8);
    wb_results_free(&r);
    wb_gpu_table_free(&t);
    synth_remove_dir(dir);
    return TEST_DONE();
}
