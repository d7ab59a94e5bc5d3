/* test_ncu.c - the NVTX ranges of `wallbench run --ncu` without a GPU: the
 * sample's steps run with stand-ins behind the same calls, and the range
 * calls (wb_range_push/pop, which also call NVTX) are recorded. For every
 * point: exactly one push, named like the point, then the timed launch,
 * then the pop; reset + L2 flush (prepare) before the push, the wait for
 * the stop event after the pop; a failing launch still pops (no later
 * range nests in it); a failing prepare opens no range. */
#include <string.h>

#include "tests/check.h"
#include "harness/run/ncu.h"

typedef struct trace {
    char ev[64][80];
    int n, depth, fail_prepare, fail_launch;
} trace;

static void rec(trace *t, const char *what) {
    if (t->n < 64) snprintf(t->ev[t->n++], sizeof t->ev[0], "%s", what);
}

static void on_range(void *ctx, const char *name) {
    trace *t = ctx;
    char buf[80];
    snprintf(buf, sizeof buf, name ? "push %s" : "pop", name);
    rec(t, buf);
    t->depth += name ? 1 : -1;
}

static int prepare(void *ctx, wb_err *e) {
    trace *t = ctx;
    rec(t, t->depth ? "prepare IN RANGE" : "prepare");
    return t->fail_prepare ? wb_fail(e, "prepare failed") : WB_OK;
}

static int timed_launch(void *ctx, wb_err *e) {
    trace *t = ctx;
    rec(t, t->depth == 1 ? "launch" : "launch OUTSIDE ONE RANGE");
    return t->fail_launch ? wb_fail(e, "launch failed") : WB_OK;
}

static int elapsed(void *ctx, double *ms, wb_err *e) {
    trace *t = ctx;
    (void)e;
    rec(t, t->depth ? "wait IN RANGE" : "wait");
    *ms = 0.25;
    return WB_OK;
}

static const wb_ncu_steps steps = {prepare, timed_launch, elapsed};

static void expect(const trace *t, const char *const *want, int n) {
    CHECK(t->n == n);
    for (int i = 0; i < n && i < t->n; i++) {
        if (strcmp(t->ev[i], want[i])) fprintf(stderr, "event %d: '%s', expected '%s'\n", i, t->ev[i], want[i]);
        CHECK(!strcmp(t->ev[i], want[i]));
    }
    CHECK(t->depth == 0);
}

int main(void) {
    static const char *const names[] = {"hashprobe/scalar/int32/uniform/n:12345/ilp:1/block:256/occ:1",
                                        "select/if_tile/int32/uniform/n:1/ilp:4/block:256/occ:1/sel:0.5"};
    trace t = {0};
    wb_range_record(on_range, &t);
    wb_err e;
    double ms = -1;
    for (int p = 0; p < 2; p++) CHECK(wb_ncu_sample_steps(&steps, &t, names[p], &ms, &e) == WB_OK && ms == 0.25);
    const char *two[] = {"prepare", "push hashprobe/scalar/int32/uniform/n:12345/ilp:1/block:256/occ:1", "launch", "pop",
                         "wait",    "prepare", "push select/if_tile/int32/uniform/n:1/ilp:4/block:256/occ:1/sel:0.5",
                         "launch",  "pop",     "wait"};
    expect(&t, two, 10);

    trace f = {.fail_launch = 1};
    wb_range_record(on_range, &f);
    CHECK(wb_ncu_sample_steps(&steps, &f, names[0], &ms, &e) == WB_ERR && strstr(e.msg, "launch failed"));
    const char *failed_launch[] = {"prepare", "push hashprobe/scalar/int32/uniform/n:12345/ilp:1/block:256/occ:1",
                                   "launch", "pop"};
    expect(&f, failed_launch, 4);

    trace g = {.fail_prepare = 1};
    wb_range_record(on_range, &g);
    CHECK(wb_ncu_sample_steps(&steps, &g, names[0], &ms, &e) == WB_ERR && strstr(e.msg, "prepare failed"));
    const char *failed_prepare[] = {"prepare"};
    expect(&g, failed_prepare, 1);
    wb_range_record(NULL, NULL);
    return TEST_DONE();
}
