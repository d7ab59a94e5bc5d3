/* measure.c - the steps of one point (see measure.h for their order). */
#include "harness/base/grow.h"
#include "harness/run/measure.h"

#include <math.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/base/stats.h"
#include "harness/run/ncu.h"
#include "harness/base/roof_contract.h"

/* Memory left free beyond a point's declared bytes: the context, kernel
 * stacks and library workspaces need some, and an out-of-memory failure in
 * data_create would count as a failed point instead of a skipped one. */
#define WB_MEM_MARGIN_BYTES (64.0 * 1024 * 1024)

int wb_run_init(wb_run *r, int reps, int warmup, wb_err *e) {
    memset(r, 0, sizeof *r);
    r->reps = reps;
    r->warmup = warmup;
    r->rule = wb_stop_default;
    r->cap = reps > 0 ? reps : r->rule.max_samples;
    r->others_before = -1;
    snprintf(r->measured.name, sizeof r->measured.name, "measured");
    r->measured.inst_gips = r->measured.dram_gbps = NAN;
    r->samples = malloc((size_t)r->cap * sizeof *r->samples);
    r->sample_clock = malloc((size_t)r->cap * sizeof *r->sample_clock);
    r->sample_events = malloc((size_t)r->cap * sizeof *r->sample_events);
    r->sample_keep = malloc((size_t)r->cap);
    if (r->samples && r->sample_clock && r->sample_events && r->sample_keep) return WB_OK;
    wb_run_free(r);
    return wb_fail(e, "malloc(%d samples) failed", r->cap);
}

wb_spent *wb_spent_of(wb_run *r, const char *family) {
    for (int i = 0; i < r->nspent_by; i++)
        if (strcmp(r->spent_by[i].family, family) == 0) return &r->spent_by[i];
    if (r->nspent_by == WB_SPENT_FAMILIES) return NULL;
    wb_spent *b = &r->spent_by[r->nspent_by++];
    b->family = family;
    return b;
}

void wb_spent_add(wb_run *r, const char *family, int what, double seconds) {
    r->spent.s[what] += seconds;
    wb_spent *b = wb_spent_of(r, family);
    if (b) b->s[what] += seconds;
}

void wb_spent_line(const wb_spent *b, const char *what, char *buf, size_t len) {
    int at = snprintf(buf, len, "%s: %lld points: data %.1f s, verify %.1f s, counter pass %.1f s, timing pass %.1f s",
                      what, (long long)b->points, b->s[WB_SPENT_DATA], b->s[WB_SPENT_VERIFY],
                      b->s[WB_SPENT_COUNTERS], b->s[WB_SPENT_TIMING]);
    if (at >= 0 && (size_t)at < len && b->s[WB_SPENT_TIMING] > 0 && b->s[WB_SPENT_COUNTERS] > 0)
        snprintf(buf + at, len - (size_t)at, " (counter pass = %.2f x timing pass)",
                 b->s[WB_SPENT_COUNTERS] / b->s[WB_SPENT_TIMING]);
}

static void spend(wb_run *r, int what, double seconds) { wb_spent_add(r, r->cur->family->name, what, seconds); }

static void drop_cache(wb_run *r) {
    if (r->cache_data) r->cache_family->data_destroy(r->cache_data);
    r->cache_data = NULL;
    r->cache_family = NULL;
}

static void drop_ahead(wb_run *r) {
    for (int i = 0; i < r->nahead; i++) r->ahead[i].family->data_destroy(r->ahead[i].data);
    r->nahead = 0;
}

/* The slot of a data set made ahead for p, or -1. */
static int ahead_of(const wb_run *r, const wb_family *f, const wb_point *p) {
    for (int i = 0; i < r->nahead; i++)
        if (r->ahead[i].family == f && f->same_data(&r->ahead[i].point, p)) return i;
    return -1;
}

void *wb_measure_data_for(wb_run *r, const wb_run_point *q) {
    const wb_family *f = q->family;
    if (r->cache_data && r->cache_family == f && f->same_data(&r->cache_point, &q->p)) return r->cache_data;
    const int i = ahead_of(r, f, &q->p);
    if (i >= 0) return r->ahead[i].data;
    const int64_t free_b = wb_device_mem_free();
    if (r->nahead == WB_DATA_AHEAD || free_b < 0 || f->device_bytes(&q->p) + WB_MEM_MARGIN_BYTES > (double)free_b)
        return NULL;
    void *d = NULL;
    wb_err e;
    const double t0 = wb_clock_s();
    const int rc = f->data_create(&q->p, r->seed, &d, &e);
    wb_spent_add(r, f->name, WB_SPENT_DATA, wb_clock_s() - t0);
    r->ahead_made_s += wb_clock_s() - t0;
    if (rc != WB_OK) return NULL;
    r->ahead[r->nahead++] = (struct wb_data_ahead){f, q->p, d};
    return d;
}

void wb_run_free(wb_run *r) {
    drop_cache(r);
    drop_ahead(r);
    free(r->samples);
    free(r->sample_clock);
    free(r->sample_events);
    free(r->sample_keep);
    free(r->clocks);
    free(r->kept);
    r->samples = r->clocks = r->sample_clock = NULL;
    r->sample_events = NULL;
    r->sample_keep = NULL;
    r->kept = NULL;
}

/* ---- setup: steps 1-6 ---- */

/* 1: skip, with the reason kept in the row, a point whose bytes do not fit;
 * the cached data and the data made ahead count as available since step 2
 * frees or reuses them. */
static int step_skip_check(wb_run *r, const wb_run_point *rp, wb_err *e) {
    double need = rp->family->device_bytes(&rp->p);
    int64_t free_b = wb_device_mem_free();
    if (free_b < 0) return wb_fail(e, "cudaMemGetInfo failed");
    double avail = (double)free_b + (r->cache_data ? r->cache_family->device_bytes(&r->cache_point) : 0);
    for (int i = 0; i < r->nahead; i++) avail += r->ahead[i].family->device_bytes(&r->ahead[i].point);
    if (need + WB_MEM_MARGIN_BYTES > avail)
        return wb_skip(e, "needs %.2f GB of device memory, %.2f GB available", need / 1e9, avail / 1e9);
    return WB_OK;
}

/* 2: reuse the inputs while the family says the data axes agree. */
static int step_data(wb_run *r, const wb_run_point *rp, wb_err *e) {
    const wb_family *f = rp->family;
    if (r->cache_data && r->cache_family == f && f->same_data(&r->cache_point, &rp->p)) {
        r->data = r->cache_data;
        return WB_OK;
    }
    drop_cache(r);
    const int i = ahead_of(r, f, &rp->p);
    if (i >= 0) { /* made for a counter batch: taken over */
        r->cache_family = f;
        r->cache_point = r->ahead[i].point;
        r->cache_data = r->data = r->ahead[i].data;
        r->ahead[i] = r->ahead[--r->nahead];
        return WB_OK;
    }
    drop_ahead(r); /* the batches that wanted them are behind; step 1 counted their memory as free */
    void *d = NULL;
    int rc = f->data_create(&rp->p, r->seed, &d, e);
    if (rc != WB_OK) return rc;
    r->cache_family = f;
    r->cache_point = rp->p;
    r->cache_data = r->data = d;
    return WB_OK;
}

int wb_measure_apply_plan(wb_point *p, wb_err *e) {
    const int bytes = wb_device_l2_fetch(p->launch.l2_fetch_bytes, e);
    if (bytes < 0) return WB_ERR;
    p->launch.l2_fetch_bytes = bytes;
    return WB_OK;
}

static int setup(void *ctx, int repetition, wb_err *e) {
    wb_run_point *rp = ctx;
    wb_run *r = rp->run;
    const wb_family *f = rp->family;
    if (r->t0_s == 0) r->t0_s = wb_clock_s();
    r->cur = rp;
    wb_row_init(&r->row);
    r->row.p = rp->p;
    r->row.m.repetition = repetition;
    r->row.m.reps = r->reps;
    r->nsamples = 0;
    r->clock_before = NAN;
    r->events_before = 0;
    r->data = NULL;
    r->nvtx_open = 0;
    r->store_row = !r->broken;
    if (r->broken) return wb_fail(e, "not run: %s", r->broken_msg);
    int rc;
    double t0 = wb_clock_s();
    if ((rc = step_skip_check(r, rp, e)) == WB_OK) rc = step_data(r, rp, e);
    double t1 = wb_clock_s();
    spend(r, WB_SPENT_DATA, t1 - t0);
    r->row.p.places = 0; /* plan sets it where a reset moves an output */
    r->row.p.fallback = 0; /* and this where the variant falls back */
    if (rc != WB_OK || (rc = f->plan(r->data, &r->row.p, e)) != WB_OK ||
        (rc = wb_measure_apply_plan(&r->row.p, e)) != WB_OK) /* 3: plan */
        return rc;
    /* Every launch of the point inside one range, for nsys/ncu --nvtx filters;
     * with --ncu the range holds the timed launch alone (sample). */
    if (!r->ncu) {
        nvtxRangePushA(rp->name);
        r->nvtx_open = 1;
    }
    rc = wb_timing_verify(f, r->data, &r->row.p, &r->timing, &r->row.m.verified, e); /* 4 */
    spend(r, WB_SPENT_VERIFY, wb_clock_s() - t1);
    r->row.m.setup_ms = (wb_clock_s() - t0) * 1e3;
    if (rc != WB_OK || wb_measure_counters(r, rp, e) != WB_OK) return WB_ERR; /* 5 */
    r->timing_t0_s = wb_clock_s();
    return wb_timing_warmup(f, r->data, &r->row.p, r->warmup, &r->timing, e); /* 6 */
}

/* ---- 7: timed samples ---- */

/* The run's typical SM clock: the median of the points' clocks so far (NaN
 * before the first point with a clock). */
static double typical_clock(const wb_run *r) { return r->nclocks ? wb_stats_median(r->clocks, r->nclocks) : NAN; }

/* One sample, with NVML read (never set) after it: the sample's clock is the
 * lower of the readings before and after it, its reasons both ORed. A
 * sample under 90% of the typical clock or with a power/thermal reason is
 * left out of the median (kept 0), here provisionally and again in finish
 * against the final typical clock. */
static int one_sample(wb_run *r, const char *name, double *ms, wb_err *e) {
    if (r->nsamples >= r->cap) return wb_fail(e, "sample %d beyond the cap of %d", r->nsamples, r->cap);
    if (isnan(r->clock_before)) {
        r->clock_before = wb_nvml_sm_clock_mhz(&r->dev);
        (void)wb_nvml_clock_events(&r->dev, &r->events_before);
    }
    if ((r->ncu ? wb_ncu_sample(r->cur->family, r->data, &r->row.p, &r->timing, name, ms, e)
                : wb_timing_sample(r->cur->family, r->data, &r->row.p, &r->timing, ms, e)) != WB_OK)
        return WB_ERR;
    const double after = wb_nvml_sm_clock_mhz(&r->dev);
    uint64_t ev = 0;
    (void)wb_nvml_clock_events(&r->dev, &ev);
    const int i = r->nsamples++;
    r->samples[i] = *ms;
    r->sample_clock[i] = isnan(after) || after > r->clock_before ? r->clock_before : after;
    r->sample_events[i] = r->events_before | ev;
    r->sample_keep[i] = !wb_throttled(r->sample_clock[i], r->sample_events[i], typical_clock(r));
    r->clock_before = after;
    r->events_before = ev;
    return WB_OK;
}

/* Median of the kept samples (all when none is kept). */
static double kept_median(wb_run *r) {
    double *k = malloc((size_t)r->nsamples * sizeof *k);
    if (!k) return NAN;
    int n = 0;
    for (int i = 0; i < r->nsamples; i++)
        if (r->sample_keep[i]) k[n++] = r->samples[i];
    double m = n ? wb_stats_median(k, n) : wb_stats_median(r->samples, r->nsamples);
    free(k);
    return m;
}

static int sample(void *ctx, int index, double *seconds, wb_err *e) {
    wb_run_point *rp = ctx;
    wb_run *r = rp->run;
    double ms = 0;
    /* Who else holds the GPU, before the first sample and again after the
     * last (step_clock): another process's kernels would share the SMs and
     * the memory with ours while we time them. */
    if (index == 0) r->others_before = wb_nvml_other_processes(&r->dev, NULL, 0);
    if (r->reps > 0) { /* --reps R: Google Benchmark's iterations are the samples */
        if (index >= r->reps) return wb_fail(e, "sample %d beyond --reps %d", index, r->reps);
        if (one_sample(r, rp->name, &ms, e) != WB_OK) return WB_ERR;
        *seconds = ms * 1e-3;
        snprintf(r->row.m.stop, sizeof r->row.m.stop, "%s", wb_stop_name(WB_STOP_FIXED));
        return WB_OK;
    }
    /* One iteration: samples until the rule stops; its time is their median. */
    const double t0 = wb_clock_s();
    wb_stop why = WB_STOP_MORE;
    wb_stop_rule rule = r->rule;
    rule.cover_samples = r->row.p.places;
    while (why == WB_STOP_MORE) {
        if (one_sample(r, rp->name, &ms, e) != WB_OK) return WB_ERR;
        why = wb_stop_check(&rule, r->samples, r->sample_keep, r->nsamples, wb_clock_s() - t0, &r->row.m.noise);
    }
    snprintf(r->row.m.stop, sizeof r->row.m.stop, "%s", wb_stop_name(why));
    *seconds = kept_median(r) * 1e-3;
    return WB_OK;
}

/* ---- finish: steps 8-11 ---- */

/* 8: the SM clock right after the samples, against the run's typical clock
 * (median of the clocks seen so far, this one included); the temperatures
 * and power then, so that a reader can tell whether two runs of a point
 * saw the board in another state (compare --repeat prints them). */
static void step_clock(wb_run *r) {
    wb_timed *m = &r->row.m;
    double *c = malloc((size_t)(r->nsamples ? r->nsamples : 1) * sizeof *c);
    int n = 0;
    uint64_t events = 0;
    for (int i = 0; c && i < r->nsamples; i++) {
        if (!isnan(r->sample_clock[i])) c[n++] = r->sample_clock[i];
        events |= r->sample_events[i];
    }
    m->sm_clock_mhz = n ? wb_stats_median(c, n) : NAN;
    free(c);
    m->samples_taken = r->nsamples;
    wb_thermal th;
    char thermal_why[256];
    (void)wb_nvml_thermal(&r->dev, &th, thermal_why, sizeof thermal_why); /* NaN where unread: metadata */
    if (thermal_why[0] && !r->thermal_warned) {
        fprintf(stderr, "warning: %s: %s; its thermal columns stay NaN (reported once a run)\n", r->cur->name,
                thermal_why);
        r->thermal_warned = 1;
    }
    m->gpu_temp_c = th.gpu_temp_c, m->mem_temp_c = th.mem_temp_c, m->power_w = th.power_w;
    const int after = wb_nvml_other_processes(&r->dev, NULL, 0), before = r->others_before;
    m->other_processes = before > after ? before : after; /* -1 only when neither was read */
    m->clock_events = isnan(m->sm_clock_mhz) && !events ? -1 : (int64_t)events;
    if (!isnan(m->sm_clock_mhz) && wb_grow(&r->clocks, r->nclocks, &r->clocks_cap, sizeof *r->clocks, 64) == 0)
        r->clocks[r->nclocks++] = m->sm_clock_mhz;
    const double typical = typical_clock(r);
    /* Every sample judged again against the final typical clock. */
    m->throttled = wb_throttle_filter(r->sample_clock, r->sample_events, r->nsamples, typical, r->sample_keep);
    char why[256] = "";
    if (!isnan(m->sm_clock_mhz) && m->sm_clock_mhz < 0.9 * typical) {
        snprintf(why, sizeof why, "SM clock %.0f MHz below 90%% of the run's typical %.0f MHz", m->sm_clock_mhz, typical);
        m->clock_low = 1;
    } else if (m->throttled > 0) {
        snprintf(why, sizeof why, "%d of %d samples throttled (clock-event reasons 0x%llx)%s", m->throttled,
                 r->nsamples, (unsigned long long)events, m->throttled == r->nsamples ? ": all kept" : ", left out");
    }
    if (m->other_processes > 0) {
        const size_t used = strlen(why);
        snprintf(why + used, sizeof why - used, "%s%d other process(es) held the GPU around the samples: times may be "
                 "contended", used ? "; " : "", m->other_processes);
        r->contended++;
    }
    if (why[0]) {
        snprintf(m->reason, sizeof m->reason, "warning: %s", why);
        fprintf(stderr, "warning: %s: %s\n", r->cur->name, why);
    }
}

/* 9: median/min/max/stddev and noise of the kept samples (every sample
 * when all were throttled); the bytes model over the median. */
static void step_summaries(wb_run *r) {
    wb_summary s;
    int n = 0;
    for (int i = 0; i < r->nsamples; i++)
        if (r->sample_keep[i]) n++;
    double *k = n && n < r->nsamples ? malloc((size_t)n * sizeof *k) : NULL;
    for (int i = 0, j = 0; k && i < r->nsamples; i++)
        if (r->sample_keep[i]) k[j++] = r->samples[i];
    wb_stats_summarize(k ? k : r->samples, k ? n : r->nsamples, &s);
    free(k);
    r->row.m.noise = wb_noise(r->samples, r->sample_keep, r->nsamples);
    wb_timed *m = &r->row.m;
    m->time_median_ms = s.median;
    m->time_min_ms = s.min;
    m->time_max_ms = s.max;
    m->time_stddev_ms = s.stddev;
    m->gbps_model = s.median > 0 ? r->row.p.bytes_model / (s.median * 1e-3) / 1e9 : NAN;
}

/* Stores a ceiling measured by row as the /ceilings row (name, size, unit),
 * with the point and launch shape that reached it. */
static int store_ceiling(wb_run *r, const wb_row *row, double size_bytes, const char *unit, double value, wb_err *e) {
    wb_ceiling_entry c;
    memset(&c, 0, sizeof c);
    const wb_launch *l = &row->p.launch;
    snprintf(c.name, sizeof c.name, "%s", row->p.variant);
    snprintf(c.unit, sizeof c.unit, "%s", unit);
    wb_point_name(&row->p, c.kernel, sizeof c.kernel);
    snprintf(c.launch, sizeof c.launch, "grid %d x block %d, ilp %d, %d blocks/SM", l->grid, l->block, l->ilp,
             l->blocks_per_sm);
    c.size_bytes = size_bytes;
    c.value = value;
    return wb_store_ceiling(r->store, &c, e);
}

/* The roof role of the point's variant (wb_variant.role); none outside a
 * family of ceilings. */
static wb_roof_role role_of(const wb_run *r) {
    const wb_family *f = r->cur->family;
    const int v = r->row.p.variant_id;
    return f->ceilings && v >= 0 && v < f->nvariants ? f->variants[v].role : WB_ROLE_NONE;
}

/* In a family of ceilings (wb_family.ceilings): every variant's best goes
 * into /ceilings, and the best ok points of the ceilings whose role is the
 * instruction or the DRAM ceiling make the measured roof. */
/* The run's best values of the point's ceiling variant; NULL when the table is full. */
static wb_ceiling *ceiling_of(wb_run *r) {
    const wb_row *row = &r->row;
    for (int i = 0; i < r->nceilings; i++)
        if (strcmp(r->ceilings[i].variant, row->p.variant) == 0) return &r->ceilings[i];
    if (r->nceilings == WB_CEILINGS_MAX) return NULL;
    wb_ceiling *c = &r->ceilings[r->nceilings++];
    snprintf(c->variant, sizeof c->variant, "%s", row->p.variant);
    c->gbps = c->gips = NAN;
    wb_wall_init(&c->sized);
    return c;
}

static int track_ceiling(wb_run *r, wb_err *e) {
    const wb_row *row = &r->row;
    if (!r->cur->family->ceilings) return WB_OK;
    wb_ceiling *c = ceiling_of(r);
    if (!c) return WB_OK;
    if (!isnan(row->m.gbps_model) && (isnan(c->gbps) || row->m.gbps_model > c->gbps)) {
        c->gbps = row->m.gbps_model;
        if (store_ceiling(r, row, NAN, "GB/s", c->gbps, e) != WB_OK) return WB_ERR;
    }
    if (!isnan(row->c.gips) && (isnan(c->gips) || row->c.gips > c->gips)) {
        c->gips = row->c.gips;
        if (store_ceiling(r, row, NAN, "G inst/s", c->gips, e) != WB_OK) return WB_ERR;
    }
    if (role_of(r) == WB_ROLE_INST) r->measured.inst_gips = c->gips;
    if (role_of(r) == WB_ROLE_DRAM) r->measured.dram_gbps = c->gbps;
    return WB_OK;
}

/* The random-access wall: a gather ceiling point adds its rate at its table
 * size; any other point that reads a table at random gets its rate as a
 * share of the word wall. Every ceiling point with a table (the gathers, the
 * atomics) keeps its variant's best rate at that size as a /ceilings row in
 * G req/s (items per second: requests, atomics). */
static int track_wall(wb_run *r, wb_err *e) {
    wb_row *row = &r->row;
    const double t = row->p.table_bytes, s = row->m.time_median_ms * 1e-3;
    if (!(isfinite(t) && s > 0)) return WB_OK;
    const double greqs = row->p.items / s / 1e9;
    if (!r->cur->family->ceilings) {
        row->m.gather_greqs = wb_wall_at(&r->walls[0], t);
        row->m.gather_pct = 100 * greqs / row->m.gather_greqs;
        return WB_OK;
    }
    const int k = role_of(r) == WB_ROLE_GATHER_SECTOR ? 1 : role_of(r) == WB_ROLE_GATHER_WORD ? 0 : -1;
    if (k >= 0) wb_wall_add(&r->walls[k], t, greqs);
    wb_ceiling *c = ceiling_of(r);
    if (!c || !wb_wall_add(&c->sized, t, greqs)) return WB_OK;
    return store_ceiling(r, row, t, "G req/s", greqs, e);
}

static void keep_row(wb_run *r) {
    if (r->row.c.launches < 0) return; /* no counter pass: nothing to derive */
    if (wb_grow(&r->kept, r->nkept, &r->kept_cap, sizeof *r->kept, 64) != 0) return;
    r->kept[r->nkept++] = r->row;
}

void wb_measure_line(const char *name, const wb_row *row, int status, const char *why, int64_t done, int64_t total,
                     double eta_s, char *buf, size_t len) {
    char what[sizeof ((wb_err *)0)->msg + 64];
    const wb_timed *m = &row->m;
    if (status == WB_OK) {
        char rate[32] = "", noise[24] = "";
        if (isfinite(m->gbps_model) && m->gbps_model > 0) snprintf(rate, sizeof rate, "  %.1f GB/s", m->gbps_model);
        else if (isfinite(row->c.gips)) snprintf(rate, sizeof rate, "  %.1f G inst/s", row->c.gips);
        if (m->time_median_ms > 0 && isfinite(m->time_stddev_ms))
            snprintf(noise, sizeof noise, "  noise %.1f%%", 100 * m->time_stddev_ms / m->time_median_ms);
        snprintf(what, sizeof what, "%.4g ms%s%s", m->time_median_ms, rate, noise);
    } else {
        snprintf(what, sizeof what, "%s: %s", status == WB_SKIP ? "skipped" : "FAILED", why);
    }
    long eta = isfinite(eta_s) && eta_s > 0 ? (long)(eta_s + 0.5) : 0;
    snprintf(buf, len, "[%lld/%lld] %s  %s  ETA %ld:%02ld", (long long)done, (long long)total, name, what, eta / 60,
             eta % 60);
}

/* The point's one line (wb_gb_line: stdout, or stderr beside Google
 * Benchmark's JSON), and its values as user counters for that JSON: the
 * stored median and every sample. */
static void progress(wb_run *r, int status, const char *why, wb_gb_state *st) {
    double el = wb_clock_s() - r->t0_s;
    int64_t total = r->total > r->done ? r->total : r->done;
    char line[sizeof ((wb_err *)0)->msg + 512];
    const double eta_s = el / (double)r->done * (double)(total - r->done);
    wb_measure_line(r->cur->name, &r->row, status, why, r->done, total, eta_s, line, sizeof line);
    wb_gb_line(line);
    if (status != WB_OK) return;
    wb_gb_counter(st, "median_ms", r->row.m.time_median_ms);
    if (isfinite(r->row.m.gbps_model)) wb_gb_counter(st, "GB/s", r->row.m.gbps_model);
    if (isfinite(r->row.c.gips)) wb_gb_counter(st, "G inst/s", r->row.c.gips);
    for (int i = 0; i < r->nsamples; i++) {
        char key[32];
        snprintf(key, sizeof key, "sample_%03d_ms", i);
        wb_gb_counter(st, key, r->samples[i]);
    }
}

static int finish(void *ctx, int status, wb_gb_state *st, wb_err *e) {
    wb_run_point *rp = ctx;
    wb_run *r = rp->run;
    wb_row *row = &r->row;
    if (r->nvtx_open) nvtxRangePop();
    r->nvtx_open = 0;
    rp->counted = 0; /* a repetition counts again */
    if (!r->store_row) return status;
    if (status == WB_OK) {
        row->m.timing_pass_ms = (wb_clock_s() - r->timing_t0_s) * 1e3;
        spend(r, WB_SPENT_TIMING, row->m.timing_pass_ms * 1e-3);
        step_clock(r);
        step_summaries(r);
        wb_counters_derive(&row->c, row->m.time_median_ms, &r->measured, &r->l4, &r->gh200); /* 10 */
        snprintf(row->m.status, sizeof row->m.status, "ok");
        status = track_ceiling(r, e);
        if (status == WB_OK) status = track_wall(r, e);
    }
    if (status != WB_OK) {
        snprintf(row->m.status, sizeof row->m.status, "%s", status == WB_SKIP ? "skipped" : "failed");
        snprintf(row->m.reason, sizeof row->m.reason, "%.*s", (int)sizeof row->m.reason - 1, e->msg);
    }
    if (status == WB_ERR) {
        drop_cache(r); /* the data may be what went wrong */
        wb_err be;
        if (wb_timing_context_broken(&be)) {
            r->broken = 1;
            snprintf(r->broken_msg, sizeof r->broken_msg, "stopped after %.255s: %.200s", rp->name, be.msg);
        }
    }
    wb_err se;
    if (wb_store_append(r->store, row, r->samples, r->nsamples, &se) != WB_OK) { /* 11 */
        r->broken = 1;
        snprintf(r->broken_msg, sizeof r->broken_msg, "results file: %.280s", se.msg);
        fprintf(stderr, "error: %s: %s\n", rp->name, se.msg);
        if (status != WB_ERR) *e = se;
        status = WB_ERR;
    } else if (status == WB_OK) {
        keep_row(r);
    }
    r->done++;
    r->spent.points++;
    wb_spent *b = wb_spent_of(r, rp->family->name);
    if (b) b->points++;
    if (status == WB_OK) r->ok++;
    else if (status == WB_SKIP) r->skipped++;
    else r->failed++;
    progress(r, status, e->msg, st); /* the whole reason: the row keeps only its start */
    return status;
}

const wb_gb_calls wb_measure_calls = {setup, sample, finish};

/* ---- end of run ---- */

static int same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

int wb_run_rederive(wb_run *r, wb_err *e) {
    for (int i = 0; i < r->nkept; i++) {
        wb_row *k = &r->kept[i];
        wb_counters c = k->c;
        wb_counters_derive(&c, k->m.time_median_ms, &r->measured, &r->l4, &r->gh200);
        if (same(c.inst_per_sector, k->c.inst_per_sector) && same(c.gips, k->c.gips) && same(c.roof_pct, k->c.roof_pct) &&
            !strcmp(c.bound, k->c.bound) && !strcmp(c.bound_l4, k->c.bound_l4) && !strcmp(c.bound_gh200, k->c.bound_gh200))
            continue;
        k->c = c;
        if (wb_store_update(r->store, k, e) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}
