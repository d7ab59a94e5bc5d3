/* test_agg.c - the time-weighted statistics behind seed 000 Tables 6-9 and
 * Figs 7-9 (agg.c) on inputs with known answers, the population rule
 * (operator points only), and the table number format (textable.c). */
#include <math.h>
#include <string.h>

#include "tests/check.h"
#include "harness/tools/agg.h"
#include "harness/base/metrics.h"
#include "harness/base/textable.h"

static void cdf(void) {
    /* 10 ms at 30%, 30 ms at 80%, one NaN and one zero weight left out */
    double v[4] = {30, 80, NAN, 50}, w[4] = {10, 30, 100, 0}, s[WB_AGG_CDF_STEPS];
    CHECK_NEAR(wb_agg_cdf(v, w, 4, s), 40, 1e-12);
    CHECK_NEAR(s[0], 100, 1e-12);
    CHECK_NEAR(s[30], 100, 1e-12);
    CHECK_NEAR(s[31], 75, 1e-12);
    CHECK_NEAR(s[80], 75, 1e-12);
    CHECK_NEAR(s[81], 0, 1e-12);
    double over[1] = {130}, one[1] = {1};
    wb_agg_cdf(over, one, 1, s); /* above 100% counts at every x */
    CHECK_NEAR(s[100], 100, 1e-12);
    CHECK(wb_agg_cdf(v + 2, w + 2, 1, s) == 0 && isnan(s[0]));
}

static void means(void) {
    double v[3] = {1, 4, NAN}, w[3] = {1, 1, 5}, mean, std;
    CHECK_NEAR(wb_agg_geomean(v, w, 3), 2, 1e-12);
    double w2[3] = {3, 1, 0};
    CHECK_NEAR(wb_agg_geomean(v, w2, 3), pow(4, 0.25), 1e-12); /* exp((3 ln 1 + ln 4) / 4) */
    wb_agg_mean_std(v, w2, 3, &mean, &std);
    CHECK_NEAR(mean, 1.75, 1e-12);
    CHECK_NEAR(std, sqrt((3 * 0.75 * 0.75 + 2.25 * 2.25) / 4), 1e-12);
    double none[1] = {NAN};
    wb_agg_mean_std(none, w, 1, &mean, &std);
    CHECK(isnan(mean) && isnan(std) && isnan(wb_agg_geomean(none, w, 1)));
}

static void points(void) {
    wb_row r;
    wb_row_init(&r);
    snprintf(r.p.family, sizeof r.p.family, "select");
    snprintf(r.m.status, sizeof r.m.status, "ok");
    r.m.time_median_ms = 2;
    CHECK(wb_agg_is_op_point(&r));
    snprintf(r.p.family, sizeof r.p.family, "ceiling");
    CHECK(!wb_agg_is_op_point(&r));
    snprintf(r.p.family, sizeof r.p.family, "select");
    snprintf(r.m.status, sizeof r.m.status, "skipped");
    CHECK(!wb_agg_is_op_point(&r));
    /* instruction utilisation: 500 G inst/s of 132 x 4 x 2.0 GHz = 1056 */
    wb_gpu_view v;
    wb_gpu_view_init(NULL, NULL, &v);
    v.sms = 132, v.smsp_per_sm = 4;
    r.c.gips = 500;
    r.c.v[wb_metric_index("sm_clock_hz")] = 2.0e9;
    CHECK_NEAR(wb_agg_inst_pct(&r, &v), 100.0 * 500 / 1056, 1e-9);
    r.c.v[wb_metric_index("sm_clock_hz")] = NAN; /* no counter clock: the NVML one */
    r.m.sm_clock_mhz = 1000;
    CHECK_NEAR(wb_agg_inst_pct(&r, &v), 100.0 * 500 / 528, 1e-9);
    r.c.v[wb_metric_index("sm_throughput_pct")] = 61; /* Nsight's own share wins when counted */
    CHECK_NEAR(wb_agg_inst_pct(&r, &v), 61, 1e-12);
    /* Table 8's rows: all three tiers known and below 75% */
    r.c.v[wb_metric_index("l1_throughput_pct")] = 10;
    r.c.v[wb_metric_index("l2_throughput_pct")] = 74.9;
    CHECK(!wb_agg_below_all_tiers(&r)); /* DRAM unknown */
    r.c.v[wb_metric_index("dram_throughput_pct")] = 20;
    CHECK(wb_agg_below_all_tiers(&r));
    r.c.v[wb_metric_index("l2_throughput_pct")] = 75;
    CHECK(!wb_agg_below_all_tiers(&r));
    /* bound against the file's roof, recomputed from the intensity */
    v.roof = (wb_roof){"m", 1030, 4300};
    r.c.inst_per_sector = 5;
    snprintf(r.c.bound, sizeof r.c.bound, "compute");
    CHECK(strcmp(wb_agg_bound(&r, &v), "memory") == 0);
    v.roof.inst_gips = NAN; /* no measured roof: the stored column */
    CHECK(strcmp(wb_agg_bound(&r, &v), "compute") == 0);
}

static void numbers(void) {
    char b[32];
    CHECK(strcmp(wb_textable_num(b, sizeof b, 4022, 0), "4,022") == 0);
    CHECK(strcmp(wb_textable_num(b, sizeof b, 1036.9, 0), "1,037") == 0);
    CHECK(strcmp(wb_textable_num(b, sizeof b, 1234567.25, 2), "1,234,567.25") == 0);
    CHECK(strcmp(wb_textable_num(b, sizeof b, 44.049, 1), "44.0") == 0);
    CHECK(strcmp(wb_textable_num(b, sizeof b, -300, 0), "-300") == 0);
    CHECK(strcmp(wb_textable_num(b, sizeof b, NAN, 1), "-") == 0);
}

int main(void) {
    cdf();
    means();
    points();
    numbers();
    return TEST_DONE();
}
