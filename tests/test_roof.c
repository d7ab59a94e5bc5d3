/* test_roof.c - the roofline arithmetic (roof.c) against seed 000 Table 2
 * and Fig 1, and the reference GPU table loader (gpus.c): the shipped table's
 * numbers, matching device names to profiles, and the loader's errors on bad
 * files (each message names the file and the line). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check.h"
#include "harness/base/gpus.h"
#include "harness/base/roof.h"

static void arithmetic(void) {
    CHECK_NEAR(wb_roof_inst_gips(58, 4, 1.78), 413, 0.5); /* L4: 58 x 4 x 1.78 GHz */
    CHECK_NEAR(wb_roof_inst_gips(132, 4, 1.964), 1037, 0.5);
    CHECK(isnan(wb_roof_inst_gips(0, 4, 1.78)) && isnan(wb_roof_inst_gips(58, 4, NAN)));
    wb_roof l4 = {"L4", 413, 300}, gh200 = {"GH200", 1037, 4022};
    CHECK_NEAR(wb_roof_ridge(&l4), 44.0, 0.06);   /* 413 / (300 / 32) */
    CHECK_NEAR(wb_roof_ridge(&gh200), 8.3, 0.06); /* 1037 / (4022 / 32) */
    /* attainable: bandwidth-limited left of the ridge, the ceiling right of it */
    CHECK_NEAR(wb_roof_attainable(&l4, 10), 10 * 300 / 32.0, 1e-9);
    CHECK_NEAR(wb_roof_attainable(&l4, 100), 413, 1e-9);
    CHECK_NEAR(wb_roof_attainable(&l4, wb_roof_ridge(&l4)), 413, 1e-9);
    CHECK(strcmp(wb_roof_bound(&l4, 43.9), "memory") == 0);
    CHECK(strcmp(wb_roof_bound(&l4, 44.1), "compute") == 0);
    CHECK(strcmp(wb_roof_bound(&l4, wb_roof_ridge(&l4)), "compute") == 0);
    /* one point, two GPUs: memory-bound on the L4, compute-bound on the GH200 */
    CHECK(strcmp(wb_roof_bound(&l4, 20), "memory") == 0 && strcmp(wb_roof_bound(&gh200, 20), "compute") == 0);
    /* NaN: no intensity, or a roof without a ceiling, classifies nothing */
    wb_roof half = {"no ceiling", NAN, 4800}, zero = {"zero", 0, 300};
    CHECK(isnan(wb_roof_attainable(&l4, NAN)) && wb_roof_bound(&l4, NAN)[0] == '\0');
    CHECK(isnan(wb_roof_ridge(&half)) && isnan(wb_roof_attainable(&half, 5)) && wb_roof_bound(&half, 5)[0] == '\0');
    CHECK(isnan(wb_roof_ridge(&zero)) && wb_roof_bound(&zero, 5)[0] == '\0');
}

static void shipped_table(void) {
    wb_gpu_table t;
    wb_err e = {""};
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "load: %s\n", e.msg);
        CHECK(0);
        return;
    }
    const wb_gpu_ref *l4 = wb_gpu_table_find(&t, "l4"), *gh = wb_gpu_table_find(&t, "gh200"),
                     *p100 = wb_gpu_table_find(&t, "p100"), *rubin = wb_gpu_table_find(&t, "rubin");
    CHECK(l4 && gh && p100 && rubin);
    if (l4 && gh && p100 && rubin) {
        CHECK(l4->sms == 58 && l4->threads_per_sm == 1536 && gh->sms == 132);
        CHECK_NEAR(l4->inst_gips, 413, 0.5);
        CHECK_NEAR(gh->inst_gips, 1037, 0.5);
        CHECK_NEAR(l4->ridge, 44.0, 0.05);
        CHECK_NEAR(gh->ridge, 8.3, 0.05);
        CHECK_NEAR(gh->dram_gbps / l4->dram_gbps, 13.4, 0.05); /* seed 000 Table 1 */
        CHECK_NEAR(gh->inst_gips / l4->inst_gips, 2.51, 0.01);
        /* Fig 1: Rubin over P100 ~30x bandwidth, ~5.4x SMs x 4 SMSP x clock */
        CHECK_NEAR(rubin->dram_gbps / p100->dram_gbps, 30.1, 0.1);
        CHECK_NEAR(wb_roof_inst_gips(rubin->sms, 4, rubin->boost_clock_ghz) /
                       wb_roof_inst_gips(p100->sms, 4, p100->boost_clock_ghz), 5.4, 0.1);
        CHECK(p100->arch == 60 && rubin->arch == -1 && l4->arch == 89);
        CHECK_NEAR(l4->smem_per_sm_kib, 100, 0);
        CHECK(isnan(rubin->base_clock_ghz) && rubin->threads_per_sm == -1);
    }
    /* Matching by whole words: tests/test_gpus.c. */
    char buf[512];
    wb_gpu_table_profiles(&t, buf, sizeof buf);
    CHECK(strstr(buf, " l4 ") && strstr(buf, " gh200 ") && !strstr(buf, "rubin"));
    wb_gpu_table_free(&t);
}

static const char *header =
    "profile\tmodel\tmatch\tarch\tsms\tsmsp_per_sm\tthreads_per_sm\tbase_clock_ghz\tboost_clock_ghz\t"
    "measured_clock_ghz\tinst_gips\tdram_gbps\tridge\tl2_mib\tsmem_per_sm_kib\tmem_gib\tsource\n";

/* Loads a temp file made of header + body; returns the rc, message in e. */
static int load_text(const char *body, int with_header, wb_gpu_table *t, wb_err *e, char *path) {
    strcpy(path, "/tmp/wb_test_gpus_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) return WB_ERR;
    fprintf(f, "# comment line\n\n%s%s", with_header ? header : "", body);
    fclose(f);
    int rc = wb_gpu_table_load(path, t, e);
    unlink(path);
    return rc;
}

static void expect_error(const char *body, int with_header, const char *line, const char *what) {
    wb_gpu_table t;
    wb_err e = {""};
    char path[64], where[96];
    CHECK(load_text(body, with_header, &t, &e, path) == WB_ERR);
    snprintf(where, sizeof where, "%s%s", path, line);
    if (!strstr(e.msg, where) || !strstr(e.msg, what)) fprintf(stderr, "unexpected message: %s\n", e.msg);
    CHECK(strstr(e.msg, where) != NULL && strstr(e.msg, what) != NULL);
    CHECK(t.rows == NULL && t.n == 0);
}

static void loader(void) {
    wb_gpu_table t;
    wb_err e = {""};
    char path[64];
    /* "-" fields, and inst_gips / ridge derived when "-" */
    CHECK(load_text("x1\tModel X\tX1\t-\t10\t4\t-\t-\t2.0\t-\t-\t320\t-\t-\t-\t-\tmade up\n", 1, &t, &e, path) == WB_OK);
    if (t.n == 1) {
        CHECK(t.rows[0].arch == -1 && t.rows[0].threads_per_sm == -1 && isnan(t.rows[0].base_clock_ghz));
        CHECK_NEAR(t.rows[0].inst_gips, 80, 1e-9);
        CHECK_NEAR(t.rows[0].ridge, 8, 1e-9);
        CHECK(strcmp(t.rows[0].model, "Model X") == 0);
    }
    CHECK(t.n == 1);
    wb_gpu_table_free(&t);
    const char *good = "x1\tX\tX1\t90\t10\t4\t2048\t-\t2.0\t-\t80\t320\t8.0\t-\t-\t-\tsrc\n";
    char body[512];
    snprintf(body, sizeof body, "%sx2\tY\tY\t90\t10\t4\n", good); /* file line 5 */
    expect_error(body, 1, ":5:", "6 columns, expected 17");
    expect_error("x1\tX\tX1\t90\tmany\t4\t2048\t-\t2.0\t-\t80\t320\t8.0\t-\t-\t-\tsrc\n", 1, ":4:", "column sms");
    expect_error("x1\tX\tX1\t90\t10\t4\t2048\t-\t2.0\t-\t80\t32O\t8.0\t-\t-\t-\tsrc\n", 1, ":4:", "column dram_gbps");
    expect_error("x1\tX\tX1\t90\t10\t4\t2048\t-\t2.0\t-\t99\t320\t-\t-\t-\t-\tsrc\n", 1, ":4:", "inst_gips 99 disagrees");
    expect_error("x1\tX\tX1\t90\t10\t4\t2048\t-\t2.0\t-\t80\t320\t9.0\t-\t-\t-\tsrc\n", 1, ":4:", "ridge 9 disagrees");
    snprintf(body, sizeof body, "%s%s", good, good);
    expect_error(body, 1, ":5:", "appears twice");
    expect_error(good, 0, ":3:", "header column 1 is 'x1'");
    expect_error("", 1, "", "no GPU rows");
    CHECK(wb_gpu_table_load("/nonexistent/gpus.tsv", &t, &e) == WB_ERR && strstr(e.msg, "/nonexistent/gpus.tsv"));
}

int main(void) {
    arithmetic();
    shipped_table();
    loader();
    return TEST_DONE();
}
