/* profile_agg.c - per-launch derived columns and the per-kernel and
 * per-NVTX-range rows of a profile (see profile_agg.h). */
#include "harness/base/profile_agg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/counters_derive.h"
#include "harness/base/gpus.h"
#include "harness/base/metrics.h"

/* A counter that adds up over launches (instructions, sectors, requests, GPU time);
 * the rest (rates, percentages, ipc, clocks, stall ratios) are averaged,
 * weighted by time. Told apart by unit, which metrics.c keeps exact. */
int wb_profile_metric_summed(int i) {
    static const char *const summed_units[] = {"warp inst", "sector", "request", "ms"};
    for (size_t k = 0; k < sizeof summed_units / sizeof summed_units[0]; k++)
        if (strcmp(wb_metrics[i].unit, summed_units[k]) == 0) return 1;
    return 0;
}

int wb_profile_launch_counted(const wb_prof_launch *l) {
    for (int i = 0; i < wb_n_metrics; i++)
        if (isfinite(l->c.v[i])) return 1;
    return 0;
}

/* The weight of a counted launch in a mean: its timed duration, else the
 * counter pass's own kernel time, else 1 (every launch alike). */
static double launch_weight(const wb_prof_launch *l) {
    if (isfinite(l->time_ms) && l->time_ms > 0) return l->time_ms;
    int kt = wb_metric_index("kernel_time_ms");
    if (kt >= 0 && isfinite(l->c.v[kt]) && l->c.v[kt] > 0) return l->c.v[kt];
    return 1.0;
}

const char *const wb_spread_metrics[WB_SPREAD_N] = {"inst", "dram_sectors_read", "dram_sectors_write"};

int wb_spread_index(const char *count) {
    for (int s = 0; s < WB_SPREAD_N; s++)
        if (!strcmp(wb_spread_metrics[s], count)) return s;
    return -1;
}

/* Running sums of one row (a kernel or a range). */
typedef struct acc {
    int64_t launches, timed, counted, counted_untimed;
    double total_ms, counted_ms;
    double sum[WB_METRICS_MAX], wsum[WB_METRICS_MAX], w[WB_METRICS_MAX];
    double lo[WB_METRICS_MAX], hi[WB_METRICS_MAX]; /* smallest and largest launch value */
    int64_t n[WB_METRICS_MAX]; /* counted launches that have the metric (--rotate: fewer than counted) */
} acc;

static void acc_init(acc *a) {
    memset(a, 0, sizeof *a);
}

/* (largest - smallest) / mean of metric i over the launches that have it, in %; NaN under two
 * launches or at a mean of 0. */
static double acc_spread(const acc *a, int i) {
    if (i < 0 || a->n[i] < 2) return NAN;
    double mean = a->sum[i] / (double)a->n[i];
    return mean != 0 ? 100.0 * (a->hi[i] - a->lo[i]) / fabs(mean) : NAN;
}

static void acc_add(acc *a, const wb_prof_launch *l) {
    a->launches++;
    int timed = isfinite(l->time_ms);
    if (timed) a->timed++, a->total_ms += l->time_ms;
    if (!wb_profile_launch_counted(l)) return;
    a->counted++;
    if (timed) a->counted_ms += l->time_ms;
    else a->counted_untimed++;
    double w = launch_weight(l);
    for (int i = 0; i < wb_n_metrics; i++) {
        double x = l->c.v[i];
        if (!isfinite(x)) continue;
        a->lo[i] = a->n[i] && a->lo[i] < x ? a->lo[i] : x;
        a->hi[i] = a->n[i] && a->hi[i] > x ? a->hi[i] : x;
        a->sum[i] += x;
        a->n[i]++;
        a->wsum[i] += w * x;
        a->w[i] += w;
    }
}

/* Counters of the row from its sums, then its groups and derived columns. A count that not every
 * counted launch has (--rotate counts each later launch with one group of the set) is the mean
 * over those that have it times the counted launches: exact for a kernel whose launches do the
 * same work, an estimate for a range of several kernels.
 * gips divides by the time of the counted launches when all were timed,
 * else (NaN) by their summed counter-pass kernel_time_ms. */
static void acc_counters(const acc *a, wb_counters *c, const wb_roof *measured, const wb_roof *l4,
                         const wb_roof *gh200) {
    wb_counters_clear(c, a->counted ? "" : "no launch counted");
    if (!a->counted) return;
    for (int i = 0; i < wb_n_metrics; i++) {
        if (a->w[i] <= 0) continue;
        c->v[i] = !wb_profile_metric_summed(i) ? a->wsum[i] / a->w[i]
                  : a->n[i] < a->counted    ? a->sum[i] * (double)a->counted / (double)a->n[i]
                                            : a->sum[i];
    }
    c->launches = (int)(a->counted < 2147483647 ? a->counted : 2147483647);
    wb_counters_group(c);
    double ms = a->counted_untimed == 0 ? a->counted_ms : NAN;
    wb_counters_derive(c, ms, measured, l4, gh200);
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median of the timed launches of each kernel, in one pass over a scratch
 * array grouped by kernel (counting sort: no per-kernel allocation). */
static int kernel_medians(wb_profile *p, wb_err *e) {
    int64_t *start = calloc((size_t)p->nkernels + 1, sizeof *start);
    double *t = malloc(((size_t)p->nlaunches + 1) * sizeof *t);
    int64_t *fill = calloc((size_t)p->nkernels + 1, sizeof *fill);
    if (!start || !t || !fill) {
        free(start), free(t), free(fill);
        return wb_fail(e, "profile: kernel medians: out of memory (%lld launches)", (long long)p->nlaunches);
    }
    for (int64_t i = 0; i < p->nlaunches; i++)
        if (isfinite(p->launches[i].time_ms)) start[p->launches[i].kernel + 1]++;
    for (int32_t k = 0; k < p->nkernels; k++) start[k + 1] += start[k];
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (isfinite(l->time_ms)) t[start[l->kernel] + fill[l->kernel]++] = l->time_ms;
    }
    for (int32_t k = 0; k < p->nkernels; k++) {
        int64_t n = start[k + 1] - start[k];
        double *v = t + start[k];
        p->kernels[k].median_ms = NAN;
        if (n == 0) continue;
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        p->kernels[k].median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }
    free(start), free(t), free(fill);
    return WB_OK;
}

static double share(double part, double whole) {
    return whole > 0 ? 100.0 * part / whole : NAN;
}

/* A counted range's kernel time (its launches' timed times) and derived columns: its instruction
 * rate over that kernel time, as a kernel's (the range's own GPU duration holds the gaps). */
static void spans_aggregate(wb_profile *p, const wb_roof *measured, const wb_roof *l4, const wb_roof *gh200) {
    for (int32_t s = 0; s < p->nspans; s++) {
        wb_prof_span *x = &p->spans[s];
        double ms = 0;
        int64_t timed = 0;
        for (int64_t i = 0; i < p->nlaunches; i++) {
            const wb_prof_launch *l = &p->launches[i];
            if (l->seq >= x->first_seq && l->seq <= x->last_seq && isfinite(l->time_ms)) ms += l->time_ms, timed++;
        }
        x->kernel_ms = timed ? ms : NAN;
        x->c.launches = x->launches;
        wb_counters_group(&x->c);
        wb_counters_derive(&x->c, x->kernel_ms, measured, l4, gh200);
    }
}

int wb_profile_aggregate_with(wb_profile *p, const wb_roof *measured, const wb_roof *l4, const wb_roof *gh200,
                              wb_err *e) {
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (l->kernel < 0 || l->kernel >= p->nkernels)
            return wb_fail(e, "profile: launch %lld (seq %lld): kernel %d, but the profile has %d kernels",
                           (long long)i, (long long)l->seq, l->kernel, p->nkernels);
        if (l->range < -1 || l->range >= p->nranges)
            return wb_fail(e, "profile: launch %lld (seq %lld): range %d, but the profile has %d ranges",
                           (long long)i, (long long)l->seq, l->range, p->nranges);
    }
    p->ceiling_inst_gips = measured ? measured->inst_gips : NAN;
    p->ceiling_dram_gbps = measured ? measured->dram_gbps : NAN;

    acc *ka = malloc(((size_t)p->nkernels + 1) * sizeof *ka);
    acc *ra = malloc(((size_t)p->nranges + 1) * sizeof *ra);
    if (!ka || !ra) {
        free(ka), free(ra);
        return wb_fail(e, "profile: aggregate: out of memory (%d kernels, %d ranges)", p->nkernels, p->nranges);
    }
    for (int32_t k = 0; k < p->nkernels; k++) acc_init(&ka[k]);
    for (int32_t r = 0; r < p->nranges; r++) acc_init(&ra[r]);

    double all_ms = 0;
    for (int64_t i = 0; i < p->nlaunches; i++) {
        wb_prof_launch *l = &p->launches[i];
        if (wb_profile_launch_counted(l)) {
            l->c.launches = 1;
            wb_counters_group(&l->c);
            wb_counters_derive(&l->c, l->time_ms, measured, l4, gh200);
        } else {
            char note[sizeof l->c.note]; /* clear writes the note it is given into the same field */
            snprintf(note, sizeof note, "%s", l->c.note[0] ? l->c.note : "not counted");
            wb_counters_clear(&l->c, note);
        }
        if (isfinite(l->time_ms)) all_ms += l->time_ms;
        acc_add(&ka[l->kernel], l);
        if (l->range >= 0) acc_add(&ra[l->range], l);
    }
    for (int32_t k = 0; k < p->nkernels; k++) {
        wb_prof_kernel *x = &p->kernels[k];
        x->launches = ka[k].launches;
        x->timed = ka[k].timed;
        x->counted = ka[k].counted;
        x->total_ms = ka[k].timed ? ka[k].total_ms : NAN;
        x->share_pct = ka[k].timed ? share(ka[k].total_ms, all_ms) : NAN;
        for (int s = 0; s < WB_SPREAD_N; s++) x->spread_pct[s] = acc_spread(&ka[k], wb_metric_index(wb_spread_metrics[s]));
        acc_counters(&ka[k], &x->c, measured, l4, gh200);
    }
    for (int32_t r = 0; r < p->nranges; r++) {
        wb_prof_range *x = &p->ranges[r];
        x->launches = ra[r].launches;
        x->counted = ra[r].counted;
        x->total_ms = ra[r].timed ? ra[r].total_ms : NAN;
        x->share_pct = ra[r].timed ? share(ra[r].total_ms, all_ms) : NAN;
        acc_counters(&ra[r], &x->c, measured, l4, gh200);
    }
    free(ka), free(ra);
    spans_aggregate(p, measured, l4, gh200);
    for (int64_t s = 0; s < p->nsamples; s++) { /* a sample's rate: over its own length */
        wb_prof_sample *x = &p->samples[s];
        x->c.launches = x->kernels;
        wb_counters_group(&x->c);
        wb_counters_derive(&x->c, 1e-6 * (double)(x->end_ns - x->start_ns), measured, l4, gh200);
    }
    return kernel_medians(p, e);
}

int wb_profile_aggregate(wb_profile *p, const wb_roof *measured, wb_err *e) {
    wb_gpu_table t = {0};
    wb_err ignored;
    wb_roof l4 = {"L4", NAN, NAN}, gh200 = {"GH200", NAN, NAN};
    if (wb_gpu_table_load(NULL, &t, &ignored) == WB_OK) {
        const wb_gpu_ref *a = wb_gpu_table_find(&t, "l4"), *b = wb_gpu_table_find(&t, "gh200");
        if (a) l4.inst_gips = a->inst_gips, l4.dram_gbps = a->dram_gbps;
        if (b) gh200.inst_gips = b->inst_gips, gh200.dram_gbps = b->dram_gbps;
        wb_gpu_table_free(&t);
    }
    return wb_profile_aggregate_with(p, measured, &l4, &gh200, e);
}

void wb_profile_free(wb_profile *p) {
    if (!p) return;
    free(p->launches);
    free(p->kernels);
    free(p->ranges);
    free(p->spans);
    free(p->samples);
    free(p->attrs);
    memset(p, 0, sizeof *p);
    p->ceiling_inst_gips = p->ceiling_dram_gbps = NAN;
}

static wb_prof_attr *attr_slot(wb_profile *p, const char *name, wb_err *e) {
    if (strlen(name) >= sizeof p->attrs[0].name) {
        wb_fail(e, "profile attribute '%s': name longer than %zu characters", name, sizeof p->attrs[0].name - 1);
        return NULL;
    }
    for (int32_t i = 0; i < p->nattrs; i++)
        if (strcmp(p->attrs[i].name, name) == 0) return &p->attrs[i];
    wb_prof_attr *a = realloc(p->attrs, ((size_t)p->nattrs + 1) * sizeof *a);
    if (!a) {
        wb_fail(e, "profile attribute '%s': out of memory", name);
        return NULL;
    }
    p->attrs = a;
    wb_prof_attr *x = &p->attrs[p->nattrs++];
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    return x;
}

int wb_profile_attr_str(wb_profile *p, const char *name, const char *value, wb_err *e) {
    wb_prof_attr *a = attr_slot(p, name, e);
    if (!a) return WB_ERR;
    /* A longer value (a long command line, an environment) is cut and says
     * so at its end, rather than failing a profile that has already run. */
    size_t n = strlen(value);
    snprintf(a->value, sizeof a->value, "%s", value);
    if (n >= sizeof a->value) {
        char tail[48];
        int k = snprintf(tail, sizeof tail, " ... [cut: %zu characters]", n);
        memcpy(a->value + sizeof a->value - 1 - k, tail, (size_t)k + 1);
    }
    a->is_number = 0;
    return WB_OK;
}

int wb_profile_attr_num(wb_profile *p, const char *name, double value, wb_err *e) {
    wb_prof_attr *a = attr_slot(p, name, e);
    if (!a) return WB_ERR;
    snprintf(a->value, sizeof a->value, "%.17g", value);
    a->is_number = 1;
    return WB_OK;
}

const char *wb_profile_attr(const wb_profile *p, const char *name) {
    for (int32_t i = 0; i < p->nattrs; i++)
        if (strcmp(p->attrs[i].name, name) == 0) return p->attrs[i].value;
    return NULL;
}

double wb_profile_attr_f64(const wb_profile *p, const char *name) {
    for (int32_t i = 0; i < p->nattrs; i++)
        if (strcmp(p->attrs[i].name, name) == 0) {
            if (!p->attrs[i].is_number) return NAN;
            return strtod(p->attrs[i].value, NULL);
        }
    return NAN;
}
