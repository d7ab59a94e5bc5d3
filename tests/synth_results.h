/* synth_results.h - small synthetic results files for the compare, check
 * and project tests (test_check.c, test_compare.c), written through the
 * store like a run writes them, and a way to run a command in-process with
 * its stdout and stderr captured. */
#ifndef WB_TEST_SYNTH_RESULTS_H
#define WB_TEST_SYNTH_RESULTS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check.h"
#include "harness/base/metrics.h"
#include "harness/store/store_h5.h"

typedef struct synth {
    wb_store *s;
    wb_err e;
    int rc;
} synth;

static void synth_attr_str(synth *z, const char *name, const char *value) {
    if (z->rc == WB_OK) z->rc = wb_store_attr_str(z->s, name, value, &z->e);
}

static void synth_attr_f64(synth *z, const char *name, double value) {
    if (z->rc == WB_OK) z->rc = wb_store_attr_f64(z->s, name, value, &z->e);
}

/* A new file at path (removed first) from a GPU of this name with 132 SMs. */
static void synth_open(synth *z, const char *path, const char *gpu_name) {
    unlink(path);
    z->e.msg[0] = '\0';
    z->rc = wb_store_create(path, &z->s, &z->e);
    synth_attr_str(z, "gpu_name", gpu_name);
    synth_attr_f64(z, "sm_count", 132);
    synth_attr_f64(z, "projected", 0);
}

static wb_row synth_row(const char *family, const char *variant, int64_t n, double time_ms) {
    wb_row r;
    wb_row_init(&r);
    snprintf(r.p.family, sizeof r.p.family, "%s", family);
    snprintf(r.p.variant, sizeof r.p.variant, "%s", variant);
    snprintf(r.p.dtype, sizeof r.p.dtype, "int32");
    r.p.n = n;
    r.p.items = (double)n;
    r.p.bytes_model = 8.0 * (double)n;
    r.p.launch.block = 256;
    r.p.launch.ilp = 4;
    r.p.launch.occupancy_target = 1.0;
    r.m.time_median_ms = time_ms;
    r.m.gbps_model = r.p.bytes_model / (time_ms * 1e6);
    snprintf(r.m.status, sizeof r.m.status, "ok");
    return r;
}

static void synth_metric(wb_row *r, const char *column, double v) {
    int i = wb_metric_index(column);
    if (i >= 0) r->c.v[i] = v;
}

/* Counters of a point that ran its kernels for its whole median time. */
static void synth_counters(wb_row *r, double inst, double sectors_read, double sectors_write) {
    synth_metric(r, "inst", inst);
    synth_metric(r, "dram_sectors_read", sectors_read);
    synth_metric(r, "dram_sectors_write", sectors_write);
    synth_metric(r, "kernel_time_ms", r->m.time_median_ms);
    r->c.inst_per_sector = inst / (sectors_read + sectors_write);
    r->c.gips = inst / (r->m.time_median_ms * 1e6);
    r->c.launches = 1;
}

/* Appends r with samples (NULL: three around the median). */
static void synth_put(synth *z, wb_row *r, const double *samples, int n) {
    double three[3] = {r->m.time_median_ms * 0.99, r->m.time_median_ms, r->m.time_median_ms * 1.01};
    if (!samples) samples = three, n = 3;
    r->m.reps = n;
    if (z->rc == WB_OK) z->rc = wb_store_append(z->s, r, samples, n, &z->e);
}

static int synth_close(synth *z) {
    wb_err e;
    int rc = wb_store_close(z->s, &e);
    if (z->rc != WB_OK) fprintf(stderr, "synthetic file: %s\n", z->e.msg);
    return z->rc == WB_OK ? rc : z->rc;
}

/* Runs cmd(argc, argv) with stdout and stderr going into out (both, in
 * order, cut to len); returns its exit code, or -100 if capturing failed. */
static int synth_run(int (*cmd)(int, char **), int argc, char **argv, char *out, size_t len) {
    FILE *tmp = tmpfile();
    if (!tmp) return -100;
    fflush(stdout);
    fflush(stderr);
    int keep_out = dup(1), keep_err = dup(2);
    dup2(fileno(tmp), 1);
    dup2(fileno(tmp), 2);
    int rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(keep_out, 1);
    dup2(keep_err, 2);
    close(keep_out);
    close(keep_err);
    rewind(tmp);
    size_t got = fread(out, 1, len - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
    return rc;
}

/* Removes the test's scratch folder, but keeps it for inspection when a
 * check failed. */
/* dir/name in one of eight rotating buffers, so that a call may hold a few. */
static const char *synth_path(const char *dir, const char *name) {
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void synth_remove_dir(const char *dir) {
    if (wb_test_failures) return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

#endif
