/* test_compare_fleet.c - `wallbench compare` of three files (a fleet):
 * per family the matrix of speedups of every pair, each cell the two-file
 * compare's geometric mean, reciprocal across the diagonal. */
#include <string.h>

#include "check.h"
#include "harness/commands.h"
#include "synth_results.h"

/* A file of one GPU: two select points and one probe point whose times are
 * base times scaled by slow (probe by probe_slow). */
static void gpu_file(const char *path, const char *gpu, double slow, double probe_slow, double gbps) {
    synth z;
    synth_open(&z, path, gpu);
    wb_row c = synth_row("ceiling", "dram_read", 1 << 28, 1.0);
    c.m.gbps_model = gbps;
    synth_put(&z, &c, NULL, 0);
    wb_row a = synth_row("select", "branch", 1000, 1.0 * slow), b = synth_row("select", "branch", 2000, 4.0 * slow);
    wb_row p = synth_row("probe", "direct", 1000, 2.0 * probe_slow);
    synth_put(&z, &a, NULL, 0);
    synth_put(&z, &b, NULL, 0);
    synth_put(&z, &p, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
}

/* The row of the matrix titled title that starts with "i: " (as printed). */
static const char *matrix_row(const char *out, const char *title, const char *row) {
    const char *t = strstr(out, title);
    return t ? strstr(t, row) : NULL;
}

int main(void) {
    char dir[] = "/tmp/wb_test_fleet_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    const char *l4 = synth_path(dir, "l4.h5"), *h100 = synth_path(dir, "h100.h5"), *h200 = synth_path(dir, "h200.h5");
    gpu_file(l4, "NVIDIA L4", 4.0, 8.0, 250);
    gpu_file(h100, "NVIDIA H100 80GB HBM3", 2.0, 2.0, 3000);
    gpu_file(h200, "NVIDIA H200", 1.0, 1.0, 4000);
    static char out[1 << 16];
    char *argv[] = {"compare", (char *)l4, (char *)h100, (char *)h200, NULL};
    int rc = synth_run(wb_cmd_compare, 4, argv, out, sizeof out);
    CHECK(rc == 0);
    const char *sel = matrix_row(out, "select: speedup", "\n1: L4");
    const char *probe = matrix_row(out, "probe: speedup", "\n1: L4");
    const char *probe3 = matrix_row(out, "probe: speedup", "\n3: H200");
    const char *bw = matrix_row(out, "Mem. bandwidth", "\n1: L4");
    CHECK(sel && probe && probe3 && bw);
    if (sel) {
        /* L4 row: itself 1.00x, H100 2.00x faster, H200 4.00x faster. */
        const char *eol = strchr(sel + 1, '\n');
        CHECK(strstr(sel, "1.00x") && strstr(sel, "1.00x") < eol);
        CHECK(strstr(sel, "2.00x") && strstr(sel, "2.00x") < eol);
        CHECK(strstr(sel, "4.00x") && strstr(sel, "4.00x") < eol);
    }
    if (probe) CHECK(strstr(probe, "8.00x") && strstr(probe, "8.00x") < strchr(probe + 1, '\n'));
    if (probe3) CHECK(strstr(probe3, "0.13x") && strstr(probe3, "0.13x") < strchr(probe3 + 1, '\n')); /* 1/8 */
    if (bw) CHECK(strstr(bw, "16.00x") && strstr(bw, "16.00x") < strchr(bw + 1, '\n'));             /* profiles' DRAM bandwidths, H200 over L4 */
    CHECK(strstr(out, "all operator families") != NULL);
    if (wb_test_failures) fprintf(stderr, "%s\n", out);

    /* Two files stay the two-file compare; a missing one is refused. */
    char *two[] = {"compare", (char *)l4, (char *)h200, NULL};
    CHECK(synth_run(wb_cmd_compare, 3, two, out, sizeof out) == 0 && strstr(out, "B over A"));
    char *bad[] = {"compare", (char *)l4, (char *)h200, (char *)synth_path(dir, "none.h5"), NULL};
    CHECK(synth_run(wb_cmd_compare, 4, bad, out, sizeof out) == 2 && strstr(out, "none.h5"));
    synth_remove_dir(dir);
    return TEST_DONE();
}
