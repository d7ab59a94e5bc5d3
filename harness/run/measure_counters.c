/* measure_counters.c - step 5 of a point (measure.h): its counters, in a
 * pass of their own, never inside timed samples; counted together with the
 * next points that share its data (counters.h's batches). */
#include <stdio.h>

#include "harness/run/measure.h"

/* A counter batch: the current point and the next selected points of its
 * data or of a few more data sets (made ahead, wb_measure_data_for), planned
 * copies of their points with their data. */
typedef struct batch_ctx {
    wb_run *r;
    const wb_family *f;
    int members;
    wb_point p[WB_COUNTERS_BATCH_MAX];
    wb_run_point *rp[WB_COUNTERS_BATCH_MAX];
    void *data[WB_COUNTERS_BATCH_MAX];
} batch_ctx;

/* A plan leaves state that belongs to its point (kernel attributes, scratch,
 * a built table, the L2 fetch granularity), so in a shared pass every member
 * is planned again before its range. */
static int member_prepare(void *ctx, int m, wb_err *e) {
    batch_ctx *b = ctx;
    if (b->members > 1 &&
        (b->f->plan(b->data[m], &b->p[m], e) != WB_OK || wb_measure_apply_plan(&b->p[m], e) != WB_OK))
        return WB_ERR;
    return wb_timing_prepare(b->f, b->data[m], &b->p[m], &b->r->timing, e);
}

static int member_launch(void *ctx, int m, wb_err *e) {
    batch_ctx *b = ctx;
    return wb_timing_launch(b->f, b->data[m], &b->p[m], &b->r->timing, e);
}

/* The current point, then the selected points after it that are not
 * counted yet, of its data or of up to WB_DATA_AHEAD more data sets, whose
 * data can be had and which plan. */
static void gather_batch(wb_run *r, wb_run_point *rp, batch_ctx *b) {
    b->r = r;
    b->f = rp->family;
    b->p[0] = r->row.p;
    b->rp[0] = rp;
    b->data[0] = r->data;
    b->members = 1;
    int idx[WB_COUNTERS_BATCH_MAX];
    const int n = wb_sweep_batch_after(r->pts, r->npts, rp->index, idx, WB_COUNTERS_BATCH_MAX - 1, 1 + WB_DATA_AHEAD);
    for (int i = 0; i < n; i++) {
        wb_run_point *q = &r->pts[idx[i]];
        void *data = wb_measure_data_for(r, q);
        if (!data) continue; /* no room, or its data failed: counted alone later */
        wb_point p = q->p;
        wb_err pe;
        if (rp->family->plan(data, &p, &pe) != WB_OK) continue; /* its own setup will say why */
        b->p[b->members] = p;
        b->rp[b->members] = q;
        b->data[b->members++] = data;
    }
}

/* A counter failure leaves NaN with its note and a warning; the point still
 * counts. A failed batch falls back to the current point alone. Returns
 * WB_ERR only when the point cannot be planned again afterwards. */
int wb_measure_counters(wb_run *r, wb_run_point *rp, wb_err *e) {
    wb_counters *c = &r->row.c;
    if (!r->counters) {
        snprintf(c->note, sizeof c->note, "%s", r->counters_off);
        return WB_OK;
    }
    if (rp->counted) { /* counted in an earlier point's batch */
        *c = rp->counted_c;
        r->row.m.counter_pass_ms = rp->counted_ms;
        rp->counted = 0;
        return WB_OK;
    }
    batch_ctx b;
    wb_counters out[WB_COUNTERS_BATCH_MAX];
    double t0 = wb_clock_s();
    const double made0 = r->ahead_made_s;
    gather_batch(r, rp, &b);
    wb_batch batch = {b.members, member_prepare, member_launch, &b};
    wb_err ce = {""};
    int failed = -1, rc = wb_counters_collect_batch(r->counters, &batch, out, &failed, &ce);
    if (rc != WB_OK && b.members > 1) {
        fprintf(stderr, "warning: %s: counters of a batch of %d points: %s; counting this point alone\n", rp->name,
                b.members, ce.msg);
        b.members = batch.members = 1;
        ce.msg[0] = '\0';
        rc = wb_counters_collect_batch(r->counters, &batch, out, &failed, &ce);
    }
    /* Data made ahead is data time: the lead point's set-up carries it, so
     * that the points' setup_ms still add up to the run's data and verify. */
    const double made_ms = (r->ahead_made_s - made0) * 1e3;
    const double ms = (wb_clock_s() - t0) * 1e3 - made_ms;
    r->row.m.setup_ms += made_ms;
    wb_spent_add(r, rp->family->name, WB_SPENT_COUNTERS, ms * 1e-3);
    *c = out[0];
    r->row.m.counter_pass_ms = ms / b.members;
    if (rc != WB_OK) {
        fprintf(stderr, "warning: %s: counters: %s\n", rp->name, ce.msg);
        if (!c->note[0]) snprintf(c->note, sizeof c->note, "%.*s", (int)sizeof c->note - 1, ce.msg);
    }
    for (int m = 1; rc == WB_OK && m < b.members; m++) {
        b.rp[m]->counted = 1;
        b.rp[m]->counted_c = out[m];
        b.rp[m]->counted_ms = ms / b.members;
    }
    /* The data and the device now hold the last member's state. */
    if (b.members == 1) return WB_OK;
    r->row.p.launch.l2_fetch_bytes = rp->p.launch.l2_fetch_bytes; /* the plan's ask again, not its value in effect */
    return rp->family->plan(r->data, &r->row.p, e) == WB_OK ? wb_measure_apply_plan(&r->row.p, e) : WB_ERR;
}
