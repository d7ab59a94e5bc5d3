/* test_limiter.c - the limiter rule of issue 49 (harness/tools/limiter.h): the
 * resource with the highest share of its measured ceiling, latency under 50%,
 * unknown without counters or ceilings; instructions issued, else executed;
 * a resource whose ceiling the file lacks never wins; the time at each roof
 * and at the roofs (the longest); atomics (the L2's ATOM + RED requests
 * against the atom_global ceiling) only where both are known; the time at its bytes' roof (DRAM
 * sectors read + written x 32 B at the DRAM read ceiling, NaN without either); time splits and their
 * table rows (shares of the group's time, its time at the roofs and the headroom, its time at its
 * bytes' roof and the bytes' headroom, each over the rows that have one). */
#include <math.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/metrics.h"
#include "harness/tools/limiter.h"

static void counters(wb_counters *c, double rd, double wr, double l2, double issued, double inst) {
    memset(c, 0, sizeof *c);
    for (int m = 0; m < WB_METRICS_MAX; m++) c->v[m] = NAN; /* the atomics' counters too: not counted */
    c->v[wb_metric_index("dram_sectors_read")] = rd;
    c->v[wb_metric_index("dram_sectors_write")] = wr;
    c->v[wb_metric_index("l2_sectors")] = l2;
    c->v[wb_metric_index("inst_issued")] = issued;
    c->v[wb_metric_index("inst")] = inst;
}

int main(void) {
    wb_gpu_view v;
    wb_gpu_view_init(NULL, NULL, &v);
    v.dram_read_gbps = 4000, v.l2_read_gbps = 8000, v.inst_gips = 1000;
    wb_counters c;
    wb_limit l;
    /* 1 ms: 93.75e6 sectors x 32 B = 3,000 GB/s, 75% of 4,000 */
    counters(&c, 60e6, 33.75e6, 100e6, 100e6, 100e6);
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_DRAM && fabs(l.pct[WB_LIM_DRAM] - 75.0) < 1e-9);
    CHECK(fabs(l.pct[WB_LIM_L2] - 40.0) < 1e-9 && fabs(l.pct[WB_LIM_ISSUE] - 10.0) < 1e-9);
    CHECK(fabs(l.roof_ms[WB_LIM_DRAM] - 0.75) < 1e-12 && fabs(l.roof_ms[WB_LIM_ISSUE] - 0.1) < 1e-12);
    CHECK(fabs(l.at_roofs_ms - 0.75) < 1e-12);
    counters(&c, 30e6, 0, 50e6, 600e6, 500e6); /* issue 60%, DRAM 24% */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_ISSUE && fabs(l.pct[WB_LIM_ISSUE] - 60.0) < 1e-9);
    counters(&c, 30e6, 0, 50e6, NAN, 550e6); /* no inst_issued: executed instead */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_ISSUE && fabs(l.pct[WB_LIM_ISSUE] - 55.0) < 1e-9);
    counters(&c, 30e6, 0, 200e6, 400e6, 400e6); /* the highest share is the L2's 80% */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_L2);
    counters(&c, 1e6, 1e6, 2e6, 49e6, 49e6); /* 49% at most: latency */
    wb_limit_of(&c, 0.1, &v, &l);
    CHECK(l.cls == WB_LIM_LATENCY && fabs(l.pct[WB_LIM_ISSUE] - 49.0) < 1e-9);
    counters(&c, NAN, NAN, NAN, NAN, NAN);
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_UNKNOWN && !strcmp(wb_limit_class_name(l.cls), "unknown"));
    counters(&c, 60e6, 33.75e6, 100e6, 100e6, 100e6);
    wb_limit_of(&c, 0.0, &v, &l); /* no time */
    CHECK(l.cls == WB_LIM_UNKNOWN);
    v.l2_read_gbps = NAN; /* a file without the L2 ceiling: L2 never wins */
    counters(&c, 30e6, 0, 200e6, 400e6, 400e6);
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(!isfinite(l.pct[WB_LIM_L2]) && l.cls == WB_LIM_LATENCY && fabs(l.at_roofs_ms - 0.4) < 1e-12);
    v.l2_read_gbps = 8000;

    /* The bytes' roof: 100e6 + 25e6 sectors x 32 B = 4 GB at 4,000 GB/s = 1 ms, of an issue-bound
     * 4 ms row whose 2e9 instructions take 2 ms at 1,000 G/s: at the roofs 2 ms, its bytes' roof 1. */
    counters(&c, 100e6, 25e6, 150e6, 2000e6, 2000e6);
    wb_limit_of(&c, 4.0, &v, &l);
    CHECK(l.cls == WB_LIM_ISSUE && fabs(l.at_roofs_ms - 2.0) < 1e-12 && fabs(l.bytes_roof_ms - 1.0) < 1e-12);
    counters(&c, 1000, 0, 1000, 10, 10); /* 1,000 sectors: 32,000 B at 4,000 GB/s = 8e-6 ms */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(fabs(l.bytes_roof_ms - 8e-6) < 1e-18);
    counters(&c, 100e6, NAN, 150e6, 2000e6, 2000e6); /* writes not counted: no bytes' roof */
    wb_limit_of(&c, 4.0, &v, &l);
    CHECK(!isfinite(l.bytes_roof_ms) && fabs(l.at_roofs_ms - 2.0) < 1e-12);
    v.dram_read_gbps = NAN; /* no DRAM ceiling: none either, the other roofs kept */
    counters(&c, 100e6, 25e6, 150e6, 2000e6, 2000e6);
    wb_limit_of(&c, 4.0, &v, &l);
    CHECK(!isfinite(l.bytes_roof_ms) && fabs(l.at_roofs_ms - 2.0) < 1e-12 && l.cls == WB_LIM_ISSUE);
    v.dram_read_gbps = 4000;

    /* Atomics: L2 requests of ATOM + RED against the atom_global ceiling (G req/s). */
    v.l2_read_gbps = 8000, v.atomic_greqs = 50; /* 50 G req/s */
    counters(&c, 1e6, 0, 4e6, 10e6, 10e6);      /* DRAM 0.8%, L2 1.6%, issue 1% of 1 ms */
    c.v[wb_metric_index("l2_atom_requests")] = 10e6;
    c.v[wb_metric_index("l2_red_requests")] = 30e6; /* 40e6 in 1 ms: 40 G/s, 80% */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_ATOMICS && fabs(l.pct[WB_LIM_ATOMICS] - 80.0) < 1e-9 && !strcmp(wb_limit_class_name(l.cls), "atomics"));
    CHECK(fabs(l.roof_ms[WB_LIM_ATOMICS] - 0.8) < 1e-12 && fabs(l.at_roofs_ms - 0.8) < 1e-12);
    c.v[wb_metric_index("l2_red_requests")] = NAN; /* one of the two not counted: no atomics share */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(!isfinite(l.pct[WB_LIM_ATOMICS]) && l.cls == WB_LIM_LATENCY);
    c.v[wb_metric_index("l2_red_requests")] = 30e6;
    v.atomic_greqs = NAN; /* a file without the atomics ceiling: atomics never wins */
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(!isfinite(l.pct[WB_LIM_ATOMICS]) && l.cls == WB_LIM_LATENCY);
    v.atomic_greqs = 50;
    counters(&c, 60e6, 33.75e6, 100e6, 100e6, 100e6); /* DRAM 75% beats atomics 20% */
    c.v[wb_metric_index("l2_atom_requests")] = 0, c.v[wb_metric_index("l2_red_requests")] = 10e6;
    wb_limit_of(&c, 1.0, &v, &l);
    CHECK(l.cls == WB_LIM_DRAM && fabs(l.pct[WB_LIM_ATOMICS] - 20.0) < 1e-9);

    wb_limit_split s;
    memset(&s, 0, sizeof s);
    wb_limit rowlim = {{0}, WB_LIM_DRAM, {0}, 1.5, 1.2};
    wb_limit_add_row(&s, &rowlim, 3.0); /* 3 ms that would take 1.5 at the roofs, 1.2 at its bytes' roof */
    wb_limit nobytes = {{0}, WB_LIM_ISSUE, {0}, 0.5, NAN};
    wb_limit_add_row(&s, &nobytes, 1.0); /* 1 ms, 0.5 at the roofs, its bytes not counted */
    wb_limit_add(&s, WB_LIM_LATENCY, 1.0);
    wb_limit_add(&s, WB_LIM_ISSUE, NAN); /* not timed: not counted */
    wb_limit_add(&s, 99, 5.0);
    CHECK(s.total == 5.0 && s.ms[WB_LIM_DRAM] == 3.0 && s.ms[WB_LIM_LATENCY] == 1.0 && s.ms[WB_LIM_ISSUE] == 1.0);
    CHECK(s.covered_ms == 4.0 && s.at_roofs_ms == 2.0 && s.bytes_covered_ms == 3.0 && s.bytes_roof_ms == 1.2);
    wb_textable t;
    wb_limit_table_init(&t, "Family");
    wb_limit_table_row(&t, "scan", &s);
    wb_limit_split none;
    memset(&none, 0, sizeof none);
    wb_limit zero = {{0}, WB_LIM_L2, {0}, 0.25, 0.0}; /* no DRAM bytes: no bytes' headroom */
    wb_limit_add_row(&none, &zero, 1.0);
    wb_limit_table_row(&t, "l2", &none);
    CHECK(t.nrows == 3 && t.ncols == 6 + WB_LIM_CLASSES);
    FILE *f = tmpfile();
    if (f) {
        wb_textable_csv(f, &t);
        rewind(f);
        char buf[1024] = "";
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        CHECK(strstr(buf, "DRAM %") && strstr(buf, "atomics %") && strstr(buf, "\"Headroom (x)\",\"At its bytes' roof (ms)\",\"Bytes headroom (x)\"\n"));
        /* 5 ms: 60% DRAM, 20% issue, 20% latency; 4 covered take 2.0 at the roofs (2.0x), 3 covered 1.2 at their bytes' roof (2.5x) */
        CHECK(strstr(buf, "\"scan\",\"5.000\",\"60.0\",\"0.0\",\"20.0\",\"0.0\",\"20.0\",\"0.0\",\"2.000\",\"2.0\",\"1.200\",\"2.5\"\n"));
        CHECK(strstr(buf, "\"l2\",\"1.000\",\"0.0\",\"100.0\",\"0.0\",\"0.0\",\"0.0\",\"0.0\",\"0.250\",\"4.0\",\"0.000\",\"-\"\n"));
        fclose(f);
    }
    wb_textable_free(&t);
    return TEST_DONE();
}
