/* test_point.c - wb_point_init's "not applicable" values (-1 and NaN, never
 * 0), wb_row_init's NaN measurements, and wb_point_name: the Google
 * Benchmark name, NVTX range and error prefix of every point. */
#include <math.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/point.h"

static void test_init(void) {
    wb_point p;
    memset(&p, 0x5a, sizeof p); /* init must set every field, not rely on zeroed memory */
    wb_point_init(&p);
    CHECK(p.family[0] == '\0' && p.variant[0] == '\0' && p.dtype[0] == '\0' && p.layout[0] == '\0');
    CHECK(p.note[0] == '\0');
    CHECK(p.variant_id == -1);
    CHECK(p.n == -1);
    CHECK(isnan(p.selectivity));
    CHECK(p.table_entries == -1);
    CHECK(p.groups == -1);
    CHECK(p.expr_ops == -1);
    CHECK(p.vector_bytes == -1);
    CHECK(p.columns == -1);
    CHECK(isnan(p.load_factor));
    CHECK(isnan(p.match_rate));
    CHECK(p.warm_cache == 0);
    CHECK(p.launch.block == -1 && p.launch.ilp == -1 && p.launch.grid == -1);
    CHECK(p.launch.smem_bytes == -1 && p.launch.regs == -1 && p.launch.blocks_per_sm == -1);
    CHECK(isnan(p.launch.occupancy_target));
    CHECK(isnan(p.launch.occupancy_theoretical));
    CHECK(isnan(p.launch.waves));
    CHECK(p.launch.sm_limit == 0);
    CHECK(isnan(p.bytes_model));
    CHECK(isnan(p.items));
}

static void test_row_init(void) {
    wb_row r;
    memset(&r, 0x5a, sizeof r);
    wb_row_init(&r);
    CHECK(r.p.n == -1);
    CHECK(r.m.id == -1);
    CHECK(r.m.verified == -1);
    CHECK(r.m.status[0] == '\0' && r.m.reason[0] == '\0');
    CHECK(isnan(r.m.time_median_ms) && isnan(r.m.time_min_ms) && isnan(r.m.time_max_ms));
    CHECK(isnan(r.m.time_stddev_ms) && isnan(r.m.gbps_model) && isnan(r.m.sm_clock_mhz));
    CHECK(isnan(r.m.timing_pass_ms) && isnan(r.m.counter_pass_ms));
    CHECK(r.c.launches == -1);
    for (int i = 0; i < WB_METRICS_MAX; i++) CHECK(isnan(r.c.v[i]));
    for (int i = 0; i < WB_STALL_GROUPS; i++) CHECK(isnan(r.c.stall[i]));
    CHECK(isnan(r.c.inst_per_sector) && isnan(r.c.gips) && isnan(r.c.roof_pct));
    CHECK(r.c.bound[0] == '\0' && r.c.note[0] == '\0');
}

static wb_point transform_point(void) {
    wb_point p;
    wb_point_init(&p);
    strcpy(p.family, "transform");
    strcpy(p.variant, "scalar");
    strcpy(p.dtype, "int32");
    p.n = 1000003;
    p.launch.ilp = 4;
    p.launch.block = 256;
    p.launch.occupancy_target = 0.5;
    return p;
}

static void test_name(void) {
    char buf[256];
    wb_point p = transform_point();
    CHECK(wb_point_name(&p, buf, sizeof buf) == buf);
    CHECK(strcmp(buf, "transform/scalar/int32/n:1000003/ilp:4/block:256/occupancy_target:0.5") == 0);

    /* Axes that do not apply stay out of the name; those that do follow,
     * under their /points column names (harness/base/axes.h). */
    wb_point q;
    wb_point_init(&q);
    strcpy(q.family, "probe");
    strcpy(q.variant, "hash");
    strcpy(q.layout, "zipf");
    q.n = 0;
    q.selectivity = 0.25;
    q.table_entries = 1024;
    q.load_factor = 0.5;
    q.match_rate = 1;
    q.warm_cache = 1;
    wb_point_name(&q, buf, sizeof buf);
    CHECK(strcmp(buf, "probe/hash/zipf/n:0/selectivity:0.25/table_entries:1024/load_factor:0.5/match_rate:1/warm_cache:1") == 0);

    wb_point g;
    wb_point_init(&g);
    strcpy(g.family, "groupby");
    strcpy(g.variant, "shared");
    g.n = 1LL << 33; /* beyond 32 bits */
    g.groups = 64;
    g.expr_ops = 3;
    g.vector_bytes = 16;
    g.columns = 2;
    g.launch.sm_limit = 8;
    wb_point_name(&g, buf, sizeof buf);
    CHECK(strcmp(buf, "groupby/shared/n:8589934592/sm_limit:8/groups:64/expr_ops:3/vector_bytes:16/columns:2") == 0);

    /* Two points differing in one axis get different names (results and
     * filters depend on it). */
    char a[256], b[256];
    wb_point p2 = transform_point();
    p2.launch.occupancy_target = 0.25;
    CHECK(strcmp(wb_point_name(&p, a, sizeof a), wb_point_name(&p2, b, sizeof b)) != 0);
}

static void test_name_truncates(void) {
    wb_point p = transform_point();
    char buf[40];
    memset(buf, 'x', sizeof buf);
    wb_point_name(&p, buf, 12);
    CHECK(memchr(buf, '\0', 12) != NULL);
    CHECK(strcmp(buf, "transform/s") == 0);
    CHECK(buf[12] == 'x'); /* nothing written past len */
    wb_point_name(&p, buf, 24);
    CHECK(strlen(buf) == 23 && buf[24] == 'x');
}

int main(void) {
    test_init();
    test_row_init();
    test_name();
    test_name_truncates();
    return TEST_DONE();
}
