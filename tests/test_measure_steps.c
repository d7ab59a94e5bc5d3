/* test_measure_steps.c - measure.c's steps of a point (measure.h) through a
 * mock family, without a GPU: this file stands in for the device layer
 * (timing.c, measure_counters.c, device memory, NVML, the Google Benchmark
 * shim), and tests/CMakeLists.txt compiles harness/run/measure.c into it.
 * Checked on the rows stored in a real results file: an ok point (median of
 * its samples, verified, one data set for the points that share data), the
 * two skip paths (device memory, plan) with their reasons, a mismatch that
 * fails with verified = 0, the one line per point, a family of ceilings
 * whose variant with the DRAM roof role sets the run's measured bandwidth
 * (and one of no role sets nothing), and a context broken by a sticky
 * error stopping the run: no later point runs or is stored; and the data
 * made ahead for a counter batch over several data sets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check.h"
#include "harness/run/measure.h"
#include "harness/run/ncu.h"

/* ---- the mock family: n is the datum, variant 1 verifies wrongly ---- */

enum { M_GOOD, M_WRONG, M_VARIANTS };
static const wb_variant mock_variants[] = {{"good", "verifies"}, {"wrong", "mismatches"}};
static int creates, destroys, launches, broken_after = -1;
static double fake_free_bytes = 1e12, fake_ms = 2.0;

static double mock_bytes(const wb_point *p) { return 8.0 * (double)p->n; }
static int mock_same(const wb_point *a, const wb_point *b) { return a->n == b->n; }
static int mock_create(const wb_point *p, uint64_t seed, void **data, wb_err *e) {
    (void)p, (void)e;
    creates++;
    *data = malloc(sizeof seed);
    memcpy(*data, &seed, sizeof seed);
    return WB_OK;
}
static void mock_destroy(void *d) { destroys++, free(d); }
static int mock_plan(void *d, wb_point *p, wb_err *e) {
    (void)d;
    if (p->groups == 7) return wb_skip(e, "seven groups do not fit the table");
    if (p->groups == 8) p->launch.l2_fetch_bytes = 32; /* asks for the L2's 32-byte fetch */
    p->bytes_model = 1e9; /* 1 GB: GB/s = 1000 / ms */
    p->items = (double)p->n;
    return WB_OK;
}
static int mock_reset(void *d, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    (void)d, (void)p, (void)poison, (void)s, (void)e;
    return WB_OK;
}
static int mock_launch(void *d, const wb_point *p, cudaStream_t s, wb_err *e) {
    (void)d, (void)p, (void)s, (void)e;
    launches++;
    return WB_OK;
}
static int mock_verify(void *d, const wb_point *p, wb_err *e) {
    (void)d;
    return p->variant_id == M_WRONG ? wb_fail(e, "1 mismatch: [3] got 4, expected 5") : WB_OK;
}
static int no_sweep(const wb_sink *s) { (void)s; return WB_OK; }

static const wb_family mock = {
    .name = "mock", .summary = "a family of the test", .variants = mock_variants, .nvariants = M_VARIANTS,
    .sweep = {no_sweep, no_sweep, no_sweep}, .device_bytes = mock_bytes, .same_data = mock_same,
    .data_create = mock_create, .data_destroy = mock_destroy, .plan = mock_plan, .reset = mock_reset,
    .launch = mock_launch, .verify = mock_verify,
};

/* A family of ceilings: variant 0 plays the DRAM roof's role (the name the
 * roof contract gives it), variant 1 none (and mismatches, as in mock). */
static const wb_variant ceiling_variants[] = {{WB_ROOF_DRAM_VARIANT, "the DRAM roof", WB_ROLE_DRAM},
                                              {"no_role", "a ceiling of its own"}};
static const wb_family mock_ceilings = {
    .name = "mock_ceilings", .summary = "ceilings of the test", .ceilings = 1, .variants = ceiling_variants,
    .nvariants = 2, .sweep = {no_sweep, no_sweep, no_sweep}, .device_bytes = mock_bytes, .same_data = mock_same,
    .data_create = mock_create, .data_destroy = mock_destroy, .plan = mock_plan, .reset = mock_reset,
    .launch = mock_launch, .verify = mock_verify,
};

/* ---- the device layer measure.c calls ---- */

int64_t wb_device_mem_free(void) { return (int64_t)fake_free_bytes; }
/* The fake device's default L2 fetch granularity is 64 B; a plan's ask is granted as asked. */
int wb_device_l2_fetch(int bytes, wb_err *e) { (void)e; return bytes ? bytes : 64; }
double wb_nvml_sm_clock_mhz(const wb_device *d) { (void)d; return 1980; }
int wb_nvml_clock_events(const wb_device *d, uint64_t *bits) { (void)d; *bits = 0; return 0; } /* no throttling */
static int fake_others = 0; /* what NVML's process list says besides this run */
int wb_nvml_other_processes(const wb_device *d, char *why, size_t len) {
    (void)d, (void)why, (void)len;
    return fake_others;
}
int wb_nvml_thermal(const wb_device *d, wb_thermal *t, char *why, size_t len) { /* a board with no HBM sensor */
    (void)d;
    *t = (wb_thermal){61, NAN, 412.5};
    snprintf(why, len, "nvmlDeviceGetFieldValues(NVML_FI_DEV_MEMORY_TEMP): Not Supported");
    return 2;
}
int wb_timing_verify(const wb_family *f, void *data, const wb_point *p, wb_timing *t, int *verified, wb_err *e) {
    (void)t;
    if (f->reset(data, p, 1, NULL, e) != WB_OK || f->launch(data, p, NULL, e) != WB_OK) return *verified = -1, WB_ERR;
    int rc = f->verify(data, p, e);
    *verified = rc == WB_OK;
    return rc;
}
int wb_timing_warmup(const wb_family *f, void *data, const wb_point *p, int n, wb_timing *t, wb_err *e) {
    (void)t;
    for (int i = 0; i < n; i++)
        if (f->launch(data, p, NULL, e) != WB_OK) return WB_ERR;
    return WB_OK;
}
int wb_timing_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, double *ms, wb_err *e) {
    (void)t;
    if (broken_after >= 0 && launches >= broken_after) return wb_fail(e, "cudaEventSynchronize: an illegal memory access");
    *ms = fake_ms + 0.1 * (launches % 3); /* samples fake_ms, +0.1, +0.2, ... */
    return f->launch(data, p, NULL, e);
}
int wb_ncu_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, const char *name, double *ms,
                  wb_err *e) { /* --ncu (tests/test_ncu.c): off here */
    (void)f, (void)data, (void)p, (void)t, (void)name, (void)ms;
    return wb_fail(e, "--ncu is not part of this test");
}
int wb_timing_context_broken(wb_err *e) {
    if (broken_after < 0 || launches < broken_after) return 0;
    snprintf(e->msg, sizeof e->msg, "cudaErrorIllegalAddress (sticky)");
    return 1;
}
int wb_measure_counters(wb_run *r, wb_run_point *rp, wb_err *e) {
    (void)rp, (void)e;
    snprintf(r->row.c.note, sizeof r->row.c.note, "off (test)");
    return WB_OK;
}
static char last_line[1024];
void wb_gb_line(const char *line) { snprintf(last_line, sizeof last_line, "%s", line); }
void wb_gb_counter(wb_gb_state *st, const char *name, double value) { (void)st, (void)name, (void)value; }

/* ---- driving the steps as the shim does ---- */

static wb_run_point point(wb_run *r, int variant, int64_t n, int64_t groups) {
    wb_run_point rp;
    memset(&rp, 0, sizeof rp);
    rp.family = &mock;
    wb_point_init(&rp.p);
    snprintf(rp.p.family, sizeof rp.p.family, "mock");
    snprintf(rp.p.variant, sizeof rp.p.variant, "%s", mock_variants[variant].name);
    rp.p.variant_id = variant;
    rp.p.n = n;
    rp.p.groups = groups;
    wb_point_name(&rp.p, rp.name, sizeof rp.name);
    rp.run = r;
    rp.selected = 1;
    return rp;
}

/* One benchmark call: setup, the samples while setup succeeded, finish. */
static int call(wb_run_point *rp) {
    wb_err e = {""};
    int status = wb_measure_calls.setup(rp, 0, &e);
    for (int i = 0; status == WB_OK && i < rp->run->reps; i++) {
        double s;
        if (wb_measure_calls.sample(rp, i, &s, &e) != WB_OK) status = WB_ERR;
    }
    return wb_measure_calls.finish(rp, status, NULL, &e);
}

/* Data made ahead for a counter batch over several data sets
 * (wb_measure_data_for): made once, found again, none past the slots or the
 * device's free memory, and taken over by its point's own step 2 instead of
 * being made twice; the rest freed when another data set is made. */
static void test_data_ahead(const char *dir) {
    char path[96];
    snprintf(path, sizeof path, "%s/ahead.h5", dir);
    broken_after = -1; /* a healthy context again */
    wb_run r;
    wb_err e = {""};
    CHECK(wb_run_init(&r, 3, 0, &e) == WB_OK);
    r.total = 2;
    CHECK(wb_store_create(path, &r.store, &e) == WB_OK && wb_store_attr_str(r.store, "git_rev", "test", &e) == WB_OK);
    snprintf(r.counters_off, sizeof r.counters_off, "off (test)");
    wb_run_point first = point(&r, M_GOOD, 100, -1), next = point(&r, M_GOOD, 200, -1);
    const int made = creates, gone = destroys;
    CHECK(call(&first) == WB_OK && creates == made + 1);
    CHECK(wb_measure_data_for(&r, &first) == r.cache_data); /* its own data */
    void *ahead = wb_measure_data_for(&r, &next);
    CHECK(ahead && creates == made + 2 && r.nahead == 1);
    CHECK(wb_measure_data_for(&r, &next) == ahead && creates == made + 2); /* found, not made again */
    for (int64_t n = 300; n < 300 + 10 * WB_DATA_AHEAD; n += 10) {
        wb_run_point q = point(&r, M_GOOD, n, -1);
        (void)wb_measure_data_for(&r, &q);
    }
    CHECK(r.nahead == WB_DATA_AHEAD && creates == made + 1 + WB_DATA_AHEAD); /* no more than the slots */
    const double had = fake_free_bytes;
    fake_free_bytes = 1000; /* the device is full: nothing is made */
    wb_run_point big = point(&r, M_GOOD, 10000, -1);
    CHECK(wb_measure_data_for(&r, &big) == NULL);
    fake_free_bytes = had;
    CHECK(call(&next) == WB_OK && r.cache_data == ahead && creates == made + 1 + WB_DATA_AHEAD);
    CHECK(r.nahead == WB_DATA_AHEAD - 1 && destroys == gone + 1); /* the first point's data freed */
    wb_store *st = r.store;
    r.store = NULL;
    CHECK(wb_store_close(st, &e) == WB_OK);
    wb_run_free(&r);
    CHECK(destroys == creates);
    unlink(path);
}

int main(void) {
    char dir[] = "/tmp/wb_test_measure_XXXXXX", path[64];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/run.h5", dir);
    wb_run r;
    wb_err e = {""};
    CHECK(wb_run_init(&r, 5, 1, &e) == WB_OK);
    r.seed = 42;
    r.total = 7;
    CHECK(wb_store_create(path, &r.store, &e) == WB_OK && wb_store_attr_str(r.store, "git_rev", "test", &e) == WB_OK);
    snprintf(r.counters_off, sizeof r.counters_off, "off (test)");

    wb_run_point pts[6] = {point(&r, M_GOOD, 1000, -1), point(&r, M_GOOD, 1000, 8), point(&r, M_GOOD, 1000, 7),
                           point(&r, M_GOOD, 1LL << 40, -1), point(&r, M_WRONG, 1000, -1),
                           point(&r, M_GOOD, 2000, -1)};
    CHECK(call(&pts[0]) == WB_OK);
    CHECK(creates == 1 && memcmp(r.cache_data, &r.seed, sizeof r.seed) == 0); /* the run's seed reached the data */
    CHECK(strstr(last_line, "[1/7] mock/good/n:1000  2.1 ms  476.2 GB/s  noise ") && strstr(last_line, "ETA "));
    fake_others = 2; /* two other processes hold the GPU around this point's samples */
    CHECK(call(&pts[1]) == WB_OK && creates == 1); /* same data: reused */
    fake_others = 0;
    CHECK(r.contended == 1);
    CHECK(call(&pts[2]) == WB_SKIP && strstr(last_line, "skipped: seven groups"));
    CHECK(call(&pts[3]) == WB_SKIP && strstr(last_line, "needs 8796.09 GB of device memory"));
    CHECK(call(&pts[4]) == WB_ERR && strstr(last_line, "FAILED: 1 mismatch"));
    CHECK(r.ok == 2 && r.skipped == 2 && r.failed == 1 && !r.broken);

    /* The DRAM roof of the run comes from the ceiling whose role it is: not before, not from a mock point. */
    CHECK(isnan(r.measured.dram_gbps));
    wb_run_point roof = point(&r, 0, 1000, -1);
    roof.family = &mock_ceilings;
    snprintf(roof.p.family, sizeof roof.p.family, "%s", mock_ceilings.name);
    snprintf(roof.p.variant, sizeof roof.p.variant, "%s", ceiling_variants[0].name);
    wb_point_name(&roof.p, roof.name, sizeof roof.name);
    CHECK(call(&roof) == WB_OK && r.ok == 3);
    CHECK_NEAR(r.measured.dram_gbps, 1000 / 2.1, 1e-6);
    CHECK(isnan(r.measured.inst_gips));

    broken_after = launches + 2; /* after the next point's verify and warm-up, a sticky error */
    int created = creates;
    CHECK(call(&pts[5]) == WB_ERR && r.broken && strstr(r.broken_msg, "stopped after mock/good/n:2000"));
    wb_run_point later = point(&r, M_GOOD, 3000, -1);
    const int before = launches;
    CHECK(call(&later) == WB_ERR && launches == before && creates == created + 1); /* not run, not stored */

    wb_store *s = r.store;
    r.store = NULL;
    CHECK(wb_store_close(s, &e) == WB_OK);
    wb_run_free(&r);
    CHECK(destroys == creates);

    wb_results res;
    CHECK(wb_results_open(path, &res, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    CHECK(res.nrows == 7);
    if (res.nrows == 7) {
        const wb_row *w = res.rows;
        CHECK(!strcmp(w[0].m.status, "ok") && w[0].m.verified == 1 && w[0].m.reps == 5);
        CHECK_NEAR(w[0].m.time_median_ms, 2.1, 1e-9); /* of 2.0 .. 2.2 */
        CHECK_NEAR(w[0].m.gbps_model, 1000 / 2.1, 1e-6);
        CHECK(res.sample_count[0] == 5);
        CHECK(!strcmp(w[2].m.status, "skipped") && !strcmp(w[2].m.reason, "seven groups do not fit the table"));
        CHECK(!strcmp(w[3].m.status, "skipped") && strstr(w[3].m.reason, "of device memory"));
        CHECK(!strcmp(w[4].m.status, "failed") && w[4].m.verified == 0 && strstr(w[4].m.reason, "mismatch"));
        CHECK(!strcmp(w[6].m.status, "failed") && strstr(w[6].m.reason, "illegal memory access"));
        CHECK(!strcmp(w[5].p.family, "mock_ceilings") && !strcmp(w[5].m.status, "ok"));
        CHECK_NEAR(wb_results_attr_f64(&res, "ceiling_dram_read_gbps"), 1000 / 2.1, 1e-6); /* its best, kept */
        CHECK(!strcmp(w[0].c.note, "off (test)"));
        CHECK(w[0].m.gpu_temp_c == 61 && isnan(w[0].m.mem_temp_c) && w[0].m.power_w == 412.5); /* stored as read */
        CHECK(isnan(w[2].m.gpu_temp_c)); /* a skipped point took no samples: nothing read */
        /* contention: recorded and warned where other processes held the GPU, 0 where none, -1 unread */
        CHECK(w[0].m.other_processes == 0 && !strstr(w[0].m.reason, "other process"));
        CHECK(w[1].m.other_processes == 2 &&
              strstr(w[1].m.reason, "warning: 2 other process(es) held the GPU around the samples"));
        CHECK(w[2].m.other_processes == -1);
        /* The L2 fetch granularity in effect: the plan's ask (32), else the device default (64), also
         * for the point after one that asked. */
        CHECK(w[0].p.launch.l2_fetch_bytes == 64 && w[1].p.launch.l2_fetch_bytes == 32);
        CHECK(w[5].p.launch.l2_fetch_bytes == 64);
    }
    wb_results_free(&res);
    unlink(path);
    test_data_ahead(dir);
    rmdir(dir);
    return TEST_DONE();
}
