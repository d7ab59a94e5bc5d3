/* test_export_added.c - a family's figure needs no edit of the harness: a
 * family "toy" the harness has never heard of defines its figure exactly as
 * docs/adding-a-family.md writes it (the recipe's micro/toy_figure.c: a
 * slice of its rows through export_slice.h, a wb_figure), adds it, and `wallbench
 * export` finds it by name and by its word, writes its table from a
 * synthetic file, and refuses a second figure of the same name. The same
 * figure added twice changes nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/tools/export_slice.h"

/* The figure of the guide's toy family (tests/family_recipe/micro/toy_figure.c,
 * what docs/adding-a-family.md shows), compiled into this test as it is. */
#include "tests/family_recipe/micro/toy_figure.c"

static const wb_figure other_toy = {"fig-toy", export_toy, 1};

/* Data lines of DIR/fig-toy.dat, and the sum of its time column. */
static int toy_lines(const char *dir, double *time_sum) {
    char line[256];
    FILE *f = fopen(synth_path(dir, "fig-toy.dat"), "r");
    if (!f) return -1;
    int n = 0;
    *time_sum = 0;
    while (fgets(line, sizeof line, f)) {
        char series[48];
        double g, t;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%47s %lf %lf", series, &g, &t) == 3) *time_sum += t;
        n++;
    }
    fclose(f);
    return n;
}

int main(void) {
    char dir[] = "/tmp/wb_test_export_added_XXXXXX";
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    wb_err e = {""};
    CHECK(wb_export_resolve("toy") == NULL);
    CHECK(wb_export_add(&wb_figure_toy, &e) == WB_OK);
    CHECK(wb_export_add(&wb_figure_toy, &e) == WB_OK); /* again: no change */
    CHECK(wb_export_add(&other_toy, &e) == WB_ERR && strstr(e.msg, "'fig-toy' is added twice"));
    CHECK(wb_export_resolve("toy") && strcmp(wb_export_resolve("toy"), "fig-toy") == 0);
    CHECK(wb_export_resolve("fig-toy") && strcmp(wb_export_resolve("fig-toy"), "fig-toy") == 0);

    /* two variants over four group counts; a row of another family and a failed one stay out */
    synth z;
    const char *path = synth_path(dir, "toy.h5");
    synth_open(&z, path, "NVIDIA H200");
    for (int v = 0; v < 2; v++)
        for (int k = 0; k < 4; k++) {
            wb_row r = synth_row("toy", v ? "fast" : "plain", 1 << 20, 1.0 + k + 10 * v);
            r.p.groups = (int64_t)1 << (2 * k);
            synth_put(&z, &r, NULL, 0);
        }
    wb_row stranger = synth_row("nottoy", "plain", 1 << 20, 100);
    stranger.p.groups = 4;
    synth_put(&z, &stranger, NULL, 0);
    wb_row failed = synth_row("toy", "plain", 1 << 20, 1000);
    failed.p.groups = 2;
    snprintf(failed.m.status, sizeof failed.m.status, "failed");
    synth_put(&z, &failed, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);

    wb_results r;
    wb_gpu_table t;
    e.msg[0] = '\0';
    CHECK(wb_gpu_table_load(NULL, &t, &e) == WB_OK && wb_results_open(path, &r, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    int rows = -1;
    CHECK(wb_export_figure("toy", &r, NULL, &t, dir, &rows, &e) == WB_OK);
    double sum = 0;
    CHECK(rows == 8 && toy_lines(dir, &sum) == 8);
    CHECK(fabs(sum - (4 * 1.0 + 6 + 4 * 11.0 + 6)) < 1e-9); /* 1..4 and 11..14 ms */
    struct stat st;
    CHECK(stat(synth_path(dir, "fig-toy-info.dat"), &st) == 0);

    /* without a results file the figure is refused, as every figure that needs one */
    CHECK(wb_export_figure("toy", NULL, NULL, &t, dir, &rows, &e) == WB_ERR && strstr(e.msg, "needs a results file"));
    wb_results_free(&r);
    wb_gpu_table_free(&t);
    synth_remove_dir(dir);
    return TEST_DONE();
}
