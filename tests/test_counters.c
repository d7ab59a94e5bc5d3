/* test_counters.c - the counter module without a GPU: derived columns on
 * hand-made values, the stall groups of seed 000 Fig 6, and a survey of every
 * chip CUPTI's host API knows (it needs no GPU): which metrics each gives,
 * through which name, in how many replay passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/gpu/counters.h"
#include "harness/base/metrics.h"

static void set(wb_counters *c, const char *column, double v) {
    int i = wb_metric_index(column);
    CHECK(i >= 0);
    if (i >= 0) c->v[i] = v;
}

static wb_roof roof(const char *name, double inst_gips, double dram_gbps) {
    wb_roof r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.inst_gips = inst_gips;
    r.dram_gbps = dram_gbps;
    return r;
}

/* Ridges 44.0 (L4) and 8.3 (GH200), seed 000 Table 2, as exact roofs. */
static const double L4_GIPS = 440.0, L4_GBPS = 320.0;       /* 440 / (320 / 32) = 44.0 */
static const double GH_GIPS = 1037.5, GH_GBPS = 4000.0;     /* 1037.5 / (4000 / 32) = 8.3 */

static void derive_at(wb_counters *c, double inst, double rd, double wr, double ms, const wb_roof *m) {
    wb_roof l4 = roof("L4", L4_GIPS, L4_GBPS), gh = roof("GH200", GH_GIPS, GH_GBPS);
    wb_counters_clear(c, "");
    set(c, "inst", inst);
    set(c, "dram_sectors_read", rd);
    set(c, "dram_sectors_write", wr);
    set(c, "kernel_time_ms", ms);
    wb_counters_derive(c, NAN, m, &l4, &gh);
}

static void test_derive(void) {
    wb_roof measured = roof("measured", 1000.0, 3200.0); /* ridge 10, 100 G sectors/s */
    wb_counters c;

    /* 2.5e9 inst over 2.5e8 sectors in 10 ms: x = 10, 250 G inst/s. */
    derive_at(&c, 2.5e9, 2.0e8, 0.5e8, 10.0, &measured);
    CHECK_NEAR(c.inst_per_sector, 10.0, 1e-12);
    CHECK_NEAR(c.gips, 250.0, 1e-9);
    CHECK_NEAR(c.roof_pct, 25.0, 1e-9); /* attainable at x = 10: min(1000, 10 * 100) = 1000 */
    CHECK(strcmp(c.bound, "compute") == 0);    /* at the measured ridge: compute side */
    CHECK(strcmp(c.bound_l4, "memory") == 0);  /* 10 < 44 */
    CHECK(strcmp(c.bound_gh200, "compute") == 0); /* 10 >= 8.3 */

    /* x = 5: memory everywhere; attainable 5 * 100 = 500 G inst/s. */
    derive_at(&c, 1.0e9, 1.0e8, 1.0e8, 4.0, &measured);
    CHECK_NEAR(c.inst_per_sector, 5.0, 1e-12);
    CHECK_NEAR(c.gips, 250.0, 1e-9);
    CHECK_NEAR(c.roof_pct, 50.0, 1e-9);
    CHECK(strcmp(c.bound, "memory") == 0 && strcmp(c.bound_l4, "memory") == 0 && strcmp(c.bound_gh200, "memory") == 0);

    /* On each reference ridge, and just below it. */
    derive_at(&c, 44.0e6, 1.0e6, 0.0, 1.0, &measured);
    CHECK(strcmp(c.bound_l4, "compute") == 0);
    derive_at(&c, 43.9e6, 1.0e6, 0.0, 1.0, &measured);
    CHECK(strcmp(c.bound_l4, "memory") == 0);
    derive_at(&c, 8.3e6, 1.0e6, 0.0, 1.0, &measured);
    CHECK(strcmp(c.bound_gh200, "compute") == 0);
    derive_at(&c, 8.2e6, 0.5e6, 0.5e6, 1.0, &measured);
    CHECK(strcmp(c.bound_gh200, "memory") == 0 && strcmp(c.bound_l4, "memory") == 0);

    /* No DRAM traffic at all: infinitely intense, the instruction ceiling. */
    derive_at(&c, 5.0e8, 0.0, 0.0, 1.0, &measured);
    CHECK(isinf(c.inst_per_sector) && c.inst_per_sector > 0);
    CHECK(strcmp(c.bound, "compute") == 0 && strcmp(c.bound_l4, "compute") == 0);
    CHECK_NEAR(c.roof_pct, 50.0, 1e-9); /* 500 G inst/s of 1000 */

    /* Nothing ran: 0 / 0 is no intensity. */
    derive_at(&c, 0.0, 0.0, 0.0, 1.0, &measured);
    CHECK(isnan(c.inst_per_sector) && strcmp(c.bound_l4, "") == 0 && strcmp(c.bound, "") == 0);
    CHECK_NEAR(c.gips, 0.0, 0.0);

    /* NaN inputs stay NaN and classify nothing. */
    derive_at(&c, NAN, 1.0e6, 1.0e6, 1.0, &measured);
    CHECK(isnan(c.inst_per_sector) && isnan(c.gips) && isnan(c.roof_pct));
    CHECK(strcmp(c.bound, "") == 0 && strcmp(c.bound_l4, "") == 0 && strcmp(c.bound_gh200, "") == 0);
    derive_at(&c, 1.0e6, NAN, 1.0e6, 1.0, &measured);
    CHECK(isnan(c.inst_per_sector) && strcmp(c.bound_gh200, "") == 0);
    CHECK_NEAR(c.gips, 1.0, 1e-12); /* the time is still known */
    CHECK(isnan(c.roof_pct));
    derive_at(&c, 1.0e6, 1.0e5, 0.0, NAN, &measured);
    CHECK(isnan(c.gips) && isnan(c.roof_pct));
    CHECK_NEAR(c.inst_per_sector, 10.0, 1e-12);
    derive_at(&c, 1.0e6, 1.0e5, 0.0, 0.0, &measured); /* zero time: no rate */
    CHECK(isnan(c.gips));

    /* A measured roof without ceilings yet: no measured bound, the reference bounds stay. */
    wb_roof none = roof("measured", NAN, NAN);
    derive_at(&c, 2.5e9, 2.0e8, 0.5e8, 10.0, &none);
    CHECK(strcmp(c.bound, "") == 0 && isnan(c.roof_pct));
    CHECK(strcmp(c.bound_l4, "memory") == 0 && strcmp(c.bound_gh200, "compute") == 0);
    CHECK_NEAR(c.gips, 250.0, 1e-9);
    wb_counters_clear(&c, "");
    set(&c, "inst", 1.0e6);
    set(&c, "dram_sectors_read", 1.0e5);
    set(&c, "dram_sectors_write", 0.0);
    wb_counters_derive(&c, NAN, NULL, NULL, NULL);
    CHECK(strcmp(c.bound, "") == 0 && strcmp(c.bound_l4, "") == 0 && strcmp(c.bound_gh200, "") == 0);
    CHECK(isnan(c.roof_pct));

    /* The timed median wins over the counter range's duration, which also
     * spans launch gaps; without it the range duration is the fallback. */
    set(&c, "kernel_time_ms", 10.0);
    wb_counters_derive(&c, 8.0, NULL, NULL, NULL);
    CHECK_NEAR(c.gips, 1.0e6 / 8.0e6, 1e-15);
    wb_counters_derive(&c, NAN, NULL, NULL, NULL);
    CHECK_NEAR(c.gips, 1.0e6 / 10.0e6, 1e-15);
    wb_counters_derive(&c, 0.0, NULL, NULL, NULL);
    CHECK_NEAR(c.gips, 1.0e6 / 10.0e6, 1e-15);
}

/* The expected grouping, written out independently of harness/base/counters_derive.c. */
static const struct {
    const char *reason, *group;
} expected_group[] = {
    {"long_scoreboard", "memory"}, {"lg_throttle", "memory"},   {"tex_throttle", "memory"},
    {"mio_throttle", "memory"},    {"drain", "memory"},         {"imc_miss", "memory"},
    {"wait", "dependency"},        {"short_scoreboard", "dependency"},
    {"barrier", "sync"},           {"membar", "sync"},
    {"math_pipe_throttle", "throttle"}, {"dispatch_stall", "throttle"},
    {"branch_resolving", "other"}, {"no_instruction", "other"}, {"misc", "other"}, {"sleeping", "other"},
    {"selected", "issued"},        {"not_selected", "issued"},
};

static int group_index(const char *name) {
    for (int g = 0; g < WB_STALL_GROUPS; g++)
        if (strcmp(wb_stall_groups[g], name) == 0) return g;
    return -1;
}

/* Every raw reason gets 2^k, so each group's sum names its members exactly. */
static double fill_stalls(wb_counters *c, double expect[WB_STALL_GROUPS], double *memory) {
    double total = 0.0, bit = 1.0;
    for (int g = 0; g < WB_STALL_GROUPS; g++) expect[g] = 0.0;
    *memory = 0.0;
    for (int i = 0; i < wb_n_metrics; i++) {
        if (strncmp(wb_metrics[i].column, "stall_raw_", 10) != 0) continue;
        const char *reason = wb_metrics[i].column + 10, *group = NULL;
        for (size_t k = 0; k < sizeof expected_group / sizeof expected_group[0]; k++)
            if (strcmp(expected_group[k].reason, reason) == 0) group = expected_group[k].group;
        if (!group) {
            fprintf(stderr, "stall reason %s has no group in this test (and maybe none in counters_derive.c)\n", reason);
            wb_test_failures++;
            continue;
        }
        c->v[i] = bit;
        total += bit;
        if (strcmp(group, "memory") == 0)
            *memory += bit;
        else if (group_index(group) >= 0)
            expect[group_index(group)] += bit;
        bit *= 2.0;
    }
    return total;
}

static void test_stalls(void) {
    const int thr = group_index("mem_throughput"), lat = group_index("mem_latency");
    CHECK(thr >= 0 && lat >= 0 && group_index("dependency") >= 0 && group_index("sync") >= 0 &&
          group_index("throttle") >= 0 && group_index("other") >= 0 && group_index("issued") >= 0);
    const double pct[][3] = {/* dram, l2, l1 throughput %; saturated? */
                             {80.0, 10.0, 10.0}, {10.0, 74.9, 10.0}, {NAN, NAN, 75.0}, {NAN, 20.0, NAN}};
    const int saturated[] = {1, 0, 1, 0};
    for (int t = 0; t < 4; t++) {
        wb_counters c;
        double expect[WB_STALL_GROUPS], memory;
        wb_counters_clear(&c, "");
        double total = fill_stalls(&c, expect, &memory);
        set(&c, "dram_throughput_pct", pct[t][0]);
        set(&c, "l2_throughput_pct", pct[t][1]);
        set(&c, "l1_throughput_pct", pct[t][2]);
        set(&c, "l1_sectors_ld", 300.0);
        set(&c, "l1_sectors_st", 12.0);
        wb_counters_group(&c);
        expect[thr] = saturated[t] ? memory : 0.0;
        expect[lat] = saturated[t] ? 0.0 : memory;
        double sum = 0.0;
        for (int g = 0; g < WB_STALL_GROUPS; g++) {
            CHECK_NEAR(c.stall[g], expect[g], 0.0);
            sum += c.stall[g];
        }
        CHECK_NEAR(sum, total, 0.0); /* every reason in exactly one group */
        CHECK(memory > 0.0);
        CHECK_NEAR(c.l1_sectors, 312.0, 0.0);
    }

    /* No throughput known: the memory stalls cannot be split, the rest can. */
    wb_counters c;
    double expect[WB_STALL_GROUPS], memory;
    wb_counters_clear(&c, "");
    fill_stalls(&c, expect, &memory);
    wb_counters_group(&c);
    CHECK(isnan(c.stall[thr]) && isnan(c.stall[lat]));
    CHECK_NEAR(c.stall[group_index("issued")], expect[group_index("issued")], 0.0);
    CHECK(isnan(c.l1_sectors));

    /* A reason unknown on a chip (NaN) drops out; a group of NaN only is NaN. */
    wb_counters_clear(&c, "");
    set(&c, "stall_raw_wait", 2.0);
    set(&c, "dram_throughput_pct", 1.0);
    wb_counters_group(&c);
    CHECK_NEAR(c.stall[group_index("dependency")], 2.0, 0.0);
    CHECK(isnan(c.stall[group_index("sync")]) && isnan(c.stall[thr]) && isnan(c.stall[lat]));
}

static void test_metric_table(void) {
    CHECK(wb_n_metrics <= WB_METRICS_MAX);
    for (int i = 0; i < wb_n_metrics; i++)
        for (int j = i + 1; j < wb_n_metrics; j++) CHECK(strcmp(wb_metrics[i].column, wb_metrics[j].column) != 0);
}

/* The columns every chip must give: the instruction roofline's two axes. */
static const char *const required[] = {"inst", "dram_sectors_read", "dram_sectors_write"};

/* Every chip CUPTI's host API knows (no GPU needed): the roofline columns
 * exist, the set fits WB_PASS_BUDGET passes (a chip over it gets a smaller
 * set), and the record's chips (GH100 for the H200, AD104 for the L4) lose
 * no metric at all. */
static void test_chip_survey(void) {
    const char *const *chips = NULL;
    int nchips = 0;
    wb_err e = {""};
    if (wb_counters_chips(&chips, &nchips, &e) != WB_OK) {
        fprintf(stderr, "cuptiProfilerHostGetSupportedChips: %s\n", e.msg);
        wb_test_failures++;
        return;
    }
    CHECK(nchips >= 8);
    int seen_gh100 = 0, seen_gb202 = 0;
    printf("CUPTI host survey of %d metrics, pass budget %d:\n", wb_n_metrics, WB_PASS_BUDGET);
    for (int c = 0; c < nchips; c++) {
        wb_counters_plan_info p;
        /* Xavier (sm_72): listed, but CUDA 13.0's host API refuses it
         * (CUPTI_ERROR_NOT_SUPPORTED), and CUDA 13 builds nothing for it. */
        if (strcmp(chips[c], "GV11B") == 0 && wb_counters_plan(chips[c], WB_COUNTER_SET_ALL, &p, &e) != WB_OK) {
            printf("  %-8s not profiled by this CUPTI's host API: %s\n", chips[c], e.msg);
            continue;
        }
        if (wb_counters_plan(chips[c], WB_COUNTER_SET_ALL, &p, &e) != WB_OK) {
            fprintf(stderr, "wb_counters_plan(%s): %s\n", chips[c], e.msg);
            wb_test_failures++;
            continue;
        }
        char nan_cols[600] = "", fallback[200] = "";
        for (int i = 0; i < wb_n_metrics; i++) {
            size_t at = strlen(nan_cols), ft = strlen(fallback);
            if (!p.used[i]) snprintf(nan_cols + at, sizeof nan_cols - at, " %s", wb_metrics[i].column);
            else if (p.used[i] != wb_metrics[i].ncu) snprintf(fallback + ft, sizeof fallback - ft, " %s=%s", wb_metrics[i].column, p.used[i]);
        }
        printf("  %-8s %2d passes (whole set %2d), %d metric(s) unknown, %d left out%s%s%s%s\n", chips[c], p.passes,
               p.full_passes, p.missing, p.left_out, fallback[0] ? "; fallbacks:" : "", fallback,
               nan_cols[0] ? "; NaN:" : "", nan_cols);
        for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
            int i = wb_metric_index(required[r]);
            if (i < 0 || !p.used[i]) {
                fprintf(stderr, "%s: column %s has no metric the chip knows\n", chips[c], required[r]);
                wb_test_failures++;
            }
        }
        if (p.passes < 1 || p.passes > WB_PASS_BUDGET) {
            fprintf(stderr, "%s: %d passes, over the budget of %d even after leaving out the extras\n", chips[c], p.passes,
                    WB_PASS_BUDGET);
            wb_test_failures++;
        }
        CHECK(p.left_out == 0 || p.full_passes > WB_PASS_BUDGET);
        if (strcmp(chips[c], "GH100") == 0 || strcmp(chips[c], "AD104") == 0) {
            seen_gh100 += strcmp(chips[c], "GH100") == 0;
            CHECK(p.missing == 0 && p.left_out == 0 && p.passes == p.full_passes);
        }
        if (strcmp(chips[c], "GB202") == 0) {
            /* The fallback this survey found (NOTES: GB202 has dram__sectors_op_*). */
            seen_gb202 = 1;
            int rd = wb_metric_index("dram_sectors_read");
            CHECK(rd >= 0 && p.used[rd] && strcmp(p.used[rd], "dram__sectors_op_read.sum") == 0);
        }
        /* The roofline set: every row without an extra rank that the whole
         * set has, in no more passes; every extra row NaN, saying why. */
        wb_counters_plan_info r;
        if (wb_counters_plan(chips[c], WB_COUNTER_SET_ROOFLINE, &r, &e) != WB_OK) {
            fprintf(stderr, "wb_counters_plan(%s, roofline): %s\n", chips[c], e.msg);
            wb_test_failures++;
            continue;
        }
        printf("  %-8s roofline set: %d passes\n", chips[c], r.passes);
        CHECK(r.set == WB_COUNTER_SET_ROOFLINE && r.passes >= 1 && r.passes <= p.passes);
        for (int i = 0; i < wb_n_metrics; i++) {
            char buf[240];
            if (wb_metrics[i].extra) { /* a row the chip lacks says that instead */
                CHECK(!r.used[i] && (r.why[i][0] && strstr(r.why[i], "has no") ? 1 : strstr(wb_counters_column_source(&r, i, buf, sizeof buf), "roofline") != NULL));
            } else {
                CHECK((r.used[i] != NULL) == (p.used[i] != NULL));
            }
        }
        if (strcmp(chips[c], "GH100") == 0) CHECK(r.passes < p.passes); /* what the set is for */
        /* The core set (wallbench profile's default): its rows only, one pass where NOTES measured
         * one (GH100, AD104, GA100, GB100); every other row NaN, saying why. */
        wb_counters_plan_info k1;
        if (wb_counters_plan(chips[c], WB_COUNTER_SET_CORE, &k1, &e) != WB_OK) {
            fprintf(stderr, "wb_counters_plan(%s, core): %s\n", chips[c], e.msg);
            wb_test_failures++;
            continue;
        }
        printf("  %-8s core set: %d pass(es)\n", chips[c], k1.passes);
        CHECK(k1.set == WB_COUNTER_SET_CORE && k1.passes >= 1 && k1.passes <= r.passes);
        for (int i = 0; i < wb_n_metrics; i++)
            CHECK(wb_metric_is_core(i) ? (k1.used[i] != NULL) == (p.used[i] != NULL) : k1.used[i] == NULL);
        if (!strcmp(chips[c], "GH100") || !strcmp(chips[c], "AD104") || !strcmp(chips[c], "GA100") ||
            !strcmp(chips[c], "GB100"))
            CHECK(k1.passes == 1 && k1.used[wb_metric_index("l2_atom_requests")] &&
                  k1.used[wb_metric_index("l2_red_requests")]); /* the limiter's atomics, in the one pass */
        /* --rotate's groups of the whole set: each one pass, together every collected row (or
         * a row that needs more than one pass alone, left out), the core rows in group 0 where
         * the core set is one pass: every launch keeps its roofline. On GH100 at least three rows
         * need several passes even alone (the L2 hit rate, the L2 and L1 throughputs: maxima over
         * many units): --rotate leaves them to the kernel's first launch (replayed). */
        int group[WB_METRICS_MAX];
        int ng = wb_counters_groups(chips[c], WB_COUNTER_SET_ALL, group, &e);
        CHECK(ng >= 1 && ng >= p.passes - 1);
        int left = 0;
        for (int i = 0; i < wb_n_metrics; i++) {
            CHECK(p.used[i] ? group[i] >= WB_GROUP_EVERY && group[i] < ng : group[i] == -1);
            if (p.used[i] && wb_metric_is_core(i) && k1.passes == 1) CHECK(group[i] == WB_GROUP_EVERY);
            left += p.used[i] && group[i] == -1;
        }
        for (int g = 0; g < ng; g++) {
            int rows = 0;
            for (int i = 0; i < wb_n_metrics; i++) rows += group[i] == g;
            CHECK(rows > 0);
        }
        printf("  %-8s rotation: %d one-pass groups of the whole set (%d passes), %d row(s) left out\n", chips[c], ng,
               p.passes, left);
        if (!strcmp(chips[c], "GH100"))
            CHECK(left >= 3 && ng >= 2 && group[wb_metric_index("l2_hit_pct")] == -1 &&
                  group[wb_metric_index("inst")] == WB_GROUP_EVERY);
        /* /columns' text for a NaN column says why. */
        for (int i = 0; i < wb_n_metrics; i++) {
            char buf[240];
            wb_counters_column_source(&p, i, buf, sizeof buf);
            CHECK(p.used[i] ? strstr(buf, p.used[i]) != NULL : strstr(buf, "NaN") != NULL);
        }
    }
    CHECK(seen_gh100 && seen_gb202);
    wb_counters_plan_info p;
    CHECK(wb_counters_plan("NO_SUCH_CHIP", WB_COUNTER_SET_ALL, &p, &e) == WB_ERR && e.msg[0]);
}

static int no_step(void *ctx, wb_err *e) {
    (void)ctx, (void)e;
    return WB_ERR; /* never called without a session */
}

static void test_no_session(void) {
    wb_counters c;
    wb_counters_clear(&c, "");
    c.v[0] = 1.0;
    c.launches = 3;
    wb_err e = {""};
    CHECK(wb_counters_collect(NULL, no_step, no_step, NULL, &c, &e) == WB_SKIP);
    for (int i = 0; i < WB_METRICS_MAX; i++) CHECK(isnan(c.v[i]));
    CHECK(c.launches == -1 && strcmp(c.note, "counters off") == 0);
    CHECK(wb_counters_passes(NULL) == 0 && wb_counters_summary(NULL)[0] && !wb_counters_profiling(NULL));
    wb_counters_close(NULL);
}

int main(void) {
    test_derive();
    test_stalls();
    test_metric_table();
    test_chip_survey();
    test_no_session();
    return TEST_DONE();
}
