/* test_profile_agg.c - wb_profile_aggregate on a hand-built profile
 * (tests/synth_profile.h): per kernel and per range sums, medians, shares,
 * time-weighted means, uncounted and untimed launches, the derived columns
 * against the measured, L4 and GH200 roofs; the spread of a kernel's counts over its launches;
 * attributes; bad indices. */
#include "tests/check.h"
#include "tests/synth_profile.h"

static double v(const wb_counters *c, const char *column) {
    return c->v[wb_metric_index(column)];
}

static void test_kernels(const wb_profile *p) {
    const wb_prof_kernel *g = &p->kernels[0], *c = &p->kernels[1], *s = &p->kernels[2];
    CHECK(g->launches == 4 && g->timed == 4 && g->counted == 4);
    CHECK_NEAR(g->total_ms, 10.0, 1e-12);
    CHECK_NEAR(g->median_ms, 2.5, 1e-12); /* 1, 2, 3, 4 */
    CHECK_NEAR(g->share_pct, 100.0 * 10 / 12, 1e-9);
    CHECK_NEAR(v(&g->c, "inst"), 4e6, 1e-6);
    CHECK_NEAR(v(&g->c, "dram_sectors_read"), 4e6, 1e-6);
    CHECK_NEAR(v(&g->c, "kernel_time_ms"), 10.0, 1e-12);           /* summed */
    CHECK_NEAR(v(&g->c, "dram_throughput_pct"), 74.0, 1e-9);       /* (2*80 + 4*60 + 3*90 + 1*70) / 10 */
    CHECK_NEAR(v(&g->c, "ipc"), 0.61, 1e-12);                      /* (2*.5 + 4*.7 + 3*.6 + 1*.5) / 10 */
    CHECK(isnan(v(&g->c, "l1_hit_pct")));                          /* no launch had it */
    CHECK_NEAR(g->c.inst_per_sector, 1.0, 1e-12);
    CHECK_NEAR(g->c.gips, 0.4, 1e-12);                             /* 4e6 inst in 10 ms */
    CHECK(strcmp(g->c.bound, "memory") == 0 && strcmp(g->c.bound_gh200, "memory") == 0);
    /* 74% < 75%: the memory stalls are latency stalls for the kernel as a whole */
    CHECK_NEAR(g->c.stall[1], 4.0, 1e-12);
    CHECK_NEAR(g->c.stall[0], 0.0, 1e-12);
    CHECK_NEAR(g->c.stall[2], 1.0, 1e-12);
    CHECK(g->c.launches == 4);

    /* one of two launches counted: counters are that launch's, time both */
    CHECK(c->launches == 2 && c->timed == 2 && c->counted == 1);
    CHECK_NEAR(c->total_ms, 2.0, 1e-12);
    CHECK_NEAR(c->median_ms, 1.0, 1e-12);
    CHECK_NEAR(v(&c->c, "inst"), 1e8, 1e-3);
    CHECK_NEAR(c->c.gips, 100.0, 1e-9); /* over the counted launch's 1 ms only */
    CHECK(strcmp(c->c.bound, "compute") == 0 && strcmp(c->c.bound_l4, "compute") == 0);
    CHECK_NEAR(c->c.roof_pct, 10.0, 1e-9); /* 100 of 1000 G inst/s */

    /* counted, never timed: no time, no share, gips over the counter pass's time */
    CHECK(s->launches == 1 && s->timed == 0 && s->counted == 1);
    CHECK(isnan(s->total_ms) && isnan(s->median_ms) && isnan(s->share_pct));
    CHECK_NEAR(s->c.gips, 1.0, 1e-12); /* 5e5 inst in 0.5 ms */

    double shares = 0;
    for (int k = 0; k < p->nkernels; k++)
        if (isfinite(p->kernels[k].share_pct)) shares += p->kernels[k].share_pct;
    CHECK_NEAR(shares, 100.0, 1e-9);
}

static double spread(const wb_prof_kernel *k, const char *count) {
    int s = wb_spread_index(count);
    return s >= 0 ? k->spread_pct[s] : -1;
}

/* <count>_spread_pct: (largest - smallest) / mean over the counted launches that have the count.
 * Gather's four launches alike: 0; made to differ (0.9e6 .. 1.1e6 instructions): 20%; its DRAM
 * reads missing on one launch (as --rotate leaves a column): over the other three; nothing written
 * (a mean of 0) and one counted launch (compute, sort): NaN. */
static void test_spread(void) {
    wb_profile p;
    synth_profile(&p);
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    CHECK(spread(&p.kernels[0], "inst") == 0.0 && spread(&p.kernels[0], "dram_sectors_read") == 0.0);
    CHECK(isnan(spread(&p.kernels[0], "dram_sectors_write")));
    CHECK(isnan(spread(&p.kernels[1], "inst")) && isnan(spread(&p.kernels[2], "inst")));
    wb_profile_free(&p);
    synth_profile(&p);
    const int inst = wb_metric_index("inst"), reads = wb_metric_index("dram_sectors_read");
    p.launches[0].c.v[inst] = 0.9e6, p.launches[1].c.v[inst] = 1.1e6;
    p.launches[1].c.v[reads] = 1.2e6, p.launches[3].c.v[reads] = NAN;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    CHECK_NEAR(spread(&p.kernels[0], "inst"), 20.0, 1e-9);
    CHECK_NEAR(spread(&p.kernels[0], "dram_sectors_read"), 100.0 * 0.2e6 / (3.2e6 / 3), 1e-9);
    wb_profile_free(&p);
}

static void test_ranges(const wb_profile *p) {
    const wb_prof_range *q1 = &p->ranges[0], *f = &p->ranges[1];
    /* exactly the stack: Q1 holds launches 0, 4, 6, not its child's */
    CHECK(q1->launches == 3 && q1->counted == 2);
    CHECK_NEAR(q1->total_ms, 4.0, 1e-12);
    CHECK_NEAR(q1->share_pct, 100.0 * 4 / 12, 1e-9);
    CHECK_NEAR(v(&q1->c, "inst"), 2e6, 1e-6);
    CHECK(f->launches == 3 && f->counted == 3);
    CHECK_NEAR(f->total_ms, 8.0, 1e-12);
    CHECK_NEAR(v(&f->c, "inst"), 1.02e8, 1e-3);
    CHECK_NEAR(v(&f->c, "dram_sectors_read"), 2.01e6, 1e-6);
    CHECK_NEAR(f->c.gips, 1.02e8 / 8e6, 1e-9);
}

static void test_launches(const wb_profile *p) {
    const wb_prof_launch *l0 = &p->launches[0], *l4 = &p->launches[4];
    CHECK_NEAR(l0->c.inst_per_sector, 1.0, 1e-12);
    CHECK_NEAR(l0->c.gips, 0.5, 1e-12); /* 1e6 in 2 ms */
    CHECK(strcmp(l0->c.bound, "memory") == 0);
    CHECK_NEAR(l0->c.stall[0], 4.0, 1e-12); /* 80%: throughput stalls for this launch */
    CHECK(l0->c.launches == 1);
    CHECK(isnan(l4->c.inst_per_sector) && isnan(l4->c.gips) && l4->c.bound[0] == '\0');
    CHECK(strcmp(l4->c.note, "not counted") == 0);
}

static void test_no_roof(void) {
    wb_profile p;
    synth_profile(&p);
    wb_roof none = {"measured", NAN, NAN};
    wb_err e;
    CHECK(wb_profile_aggregate_with(&p, &none, NULL, NULL, &e) == WB_OK);
    CHECK(p.kernels[0].c.bound[0] == '\0' && p.kernels[0].c.bound_l4[0] == '\0');
    CHECK(isnan(p.kernels[0].c.roof_pct));
    CHECK_NEAR(p.kernels[0].c.gips, 0.4, 1e-12); /* needs no roof */
    CHECK(isnan(p.ceiling_inst_gips));
    wb_profile_free(&p);
    CHECK(p.launches == NULL && p.nlaunches == 0);
}

static void test_bad_index(void) {
    wb_profile p;
    synth_profile(&p);
    p.launches[3].kernel = 7;
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_ERR);
    CHECK(strstr(e.msg, "seq 3") && strstr(e.msg, "kernel 7"));
    p.launches[3].kernel = 0;
    p.launches[2].range = 2;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_ERR);
    CHECK(strstr(e.msg, "range 2"));
    wb_profile_free(&p);
}

static void test_attrs(void) {
    wb_profile p;
    memset(&p, 0, sizeof p);
    wb_err e;
    CHECK(wb_profile_attr_str(&p, "gpu_name", "NVIDIA L4", &e) == WB_OK);
    CHECK(wb_profile_attr_num(&p, "exit_code", 3, &e) == WB_OK);
    CHECK(wb_profile_attr_str(&p, "gpu_name", "NVIDIA H200", &e) == WB_OK); /* replaces */
    CHECK(p.nattrs == 2);
    CHECK(strcmp(wb_profile_attr(&p, "gpu_name"), "NVIDIA H200") == 0);
    CHECK(wb_profile_attr_f64(&p, "exit_code") == 3.0);
    CHECK(isnan(wb_profile_attr_f64(&p, "gpu_name")) && wb_profile_attr(&p, "nope") == NULL);
    char longname[80];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(wb_profile_attr_num(&p, longname, 1, &e) == WB_ERR && strstr(e.msg, "longer than"));
    static char longvalue[3000];
    memset(longvalue, 'x', sizeof longvalue - 1);
    CHECK(wb_profile_attr_str(&p, "command_line", longvalue, &e) == WB_OK);
    const char *cut = wb_profile_attr(&p, "command_line");
    CHECK(strlen(cut) == 1023 && strstr(cut, "xxx ... [cut: 2999 characters]") != NULL);
    wb_profile_free(&p);
}

int main(void) {
    setenv("WB_GPUS", WB_SOURCE_DIR "/harness/gpus.tsv", 0);
    wb_profile p;
    synth_profile(&p);
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    CHECK(p.ceiling_inst_gips == 1000.0 && p.ceiling_dram_gbps == 4000.0);
    test_kernels(&p);
    test_ranges(&p);
    test_launches(&p);
    wb_profile_free(&p);
    test_spread();
    test_no_roof();
    test_bad_index();
    test_attrs();
    return TEST_DONE();
}
