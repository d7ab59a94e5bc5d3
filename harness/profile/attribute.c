/* attribute.c - PM samples split among the kernels that ran in them (attribute.h).
 * Launches are walked in start order beside the samples in time order, an
 * active list holding those that may still overlap the current sample: one
 * pass over both, whatever the program's length. Splitting by overlap time is
 * the rule measured on the H200 (NOTES, 2026-12-04): within 5% (p95) of the
 * per-kernel counts for kernels of >= ~10 sampling intervals. Consecutive idle samples (no
 * kernel in them, none lost between them) become one row of /samples: a program that spends
 * seconds on the host (tpch_like.py at 60 M rows: 97.5% of 162,806 samples) would otherwise
 * write a row per 100 us of nothing. */
#include "harness/profile/attribute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/base/profile_agg.h"

typedef struct active {
    int64_t *row;    /* rows of p->launches */
    int n;
} active;

static const wb_prof_launch *order_launches; /* qsort's context */
static int by_start(const void *a, const void *b) {
    int64_t x = order_launches[*(const int64_t *)a].start_ns, y = order_launches[*(const int64_t *)b].start_ns;
    return (x > y) - (x < y);
}

/* The union of [lo[k], hi[k]) for k < n (n small: the kernels of one sample). */
static double union_ns(int64_t *lo, int64_t *hi, int n) {
    for (int i = 1; i < n; i++) /* insertion sort by lo */
        for (int j = i; j > 0 && lo[j] < lo[j - 1]; j--) {
            int64_t t = lo[j]; lo[j] = lo[j - 1]; lo[j - 1] = t;
            t = hi[j]; hi[j] = hi[j - 1]; hi[j - 1] = t;
        }
    double sum = 0;
    int64_t a = 0, b = -1;
    for (int i = 0; i < n; i++) {
        if (lo[i] > b) {
            if (b > a) sum += (double)(b - a);
            a = lo[i], b = hi[i];
        } else if (hi[i] > b) {
            b = hi[i];
        }
    }
    if (b > a) sum += (double)(b - a);
    return sum;
}

int wb_attribute_samples(wb_profile *p, const wb_raw *r, wb_sample_stats *st, wb_err *e) {
    if (r->nsamples <= 1) return WB_OK; /* the first sample spans the time since Start: dropped */
    int64_t nl = 0;
    int64_t *rows = malloc(((size_t)p->nlaunches + 1) * sizeof *rows);
    double *weight = calloc((size_t)p->nlaunches + 1, sizeof *weight);
    unsigned char *mine = calloc((size_t)p->nlaunches + 1, 1); /* gets the split: no counters of its own */
    active act = {malloc(((size_t)p->nlaunches + 1) * sizeof(int64_t)), 0};
    int64_t *lo = malloc(((size_t)p->nlaunches + 1) * sizeof *lo), *hi = malloc(((size_t)p->nlaunches + 1) * sizeof *hi);
    wb_prof_sample *grown = realloc(p->samples, ((size_t)p->nsamples + (size_t)r->nsamples) * sizeof *p->samples);
    if (grown) p->samples = grown;
    if (!rows || !weight || !mine || !act.row || !lo || !hi || !grown) {
        free(rows), free(weight), free(mine), free(act.row), free(lo), free(hi);
        return wb_fail(e, "sampled timeline: out of host memory (%lld launches, %d samples)", (long long)p->nlaunches,
                       r->nsamples);
    }
    for (int64_t i = 0; i < p->nlaunches; i++) {
        wb_prof_launch *l = &p->launches[i];
        if ((r->pid && l->pid != r->pid) || l->start_ns < 0 || l->end_ns <= l->start_ns) continue;
        rows[nl++] = i;
        if (!wb_profile_launch_counted(l)) {
            mine[i] = 1;
            for (int m = 0; m < wb_n_metrics; m++) l->c.v[m] = NAN;
        }
    }
    order_launches = p->launches;
    qsort(rows, (size_t)nl, sizeof *rows, by_start);
    int64_t next = 0;
    double sampled_ns = 0, idle_ns = 0, interval = r->sample_ns > 0 ? (double)r->sample_ns : 0;
    int64_t prev_end = -1;
    for (int s = 1; s < r->nsamples; s++) {
        const wb_raw_sample *x = &r->samples[s];
        if (interval > 0 && prev_end >= 0 && (double)(x->start_ns - prev_end) > 1.5 * interval)
            st->gaps++, st->gap_ms += 1e-6 * (double)(x->start_ns - prev_end);
        prev_end = x->end_ns;
        while (next < nl && p->launches[rows[next]].start_ns < x->end_ns) act.row[act.n++] = rows[next++];
        int keep = 0; /* drop launches that ended before this sample: samples come in time order */
        for (int k = 0; k < act.n; k++)
            if (p->launches[act.row[k]].end_ns > x->start_ns) act.row[keep++] = act.row[k];
        act.n = keep;
        /* the launches overlapping it, once: their overlaps, total and the one with the most */
        double total = 0, best = 0;
        int n = 0, most = -1;
        for (int k = 0; k < act.n; k++) {
            const wb_prof_launch *l = &p->launches[act.row[k]];
            int64_t a = l->start_ns > x->start_ns ? l->start_ns : x->start_ns;
            int64_t b = l->end_ns < x->end_ns ? l->end_ns : x->end_ns;
            if (b <= a) continue;
            lo[n] = a, hi[n] = b, n++;
            total += (double)(b - a);
            if ((double)(b - a) > best) best = (double)(b - a), most = (int)act.row[k];
        }
        wb_prof_sample *prev = p->nsamples ? &p->samples[p->nsamples - 1] : NULL;
        if (n == 0 && prev && prev->kernels == 0 && prev->end_ns == x->start_ns && s > 1) { /* merged into prev */
            double a = (double)(prev->end_ns - prev->start_ns), b = (double)(x->end_ns - x->start_ns);
            for (int m = 0; m < wb_n_metrics; m++) {
                if (!strcmp(wb_metrics[m].column, "kernel_time_ms")) continue;
                prev->c.v[m] = wb_profile_metric_summed(m) ? prev->c.v[m] + x->v[m] : (a * prev->c.v[m] + b * x->v[m]) / (a + b);
            }
            prev->end_ns = x->end_ns;
            sampled_ns += b, idle_ns += b;
            continue;
        }
        wb_prof_sample *out = &p->samples[p->nsamples++];
        memset(out, 0, sizeof *out);
        out->pid = r->pid, out->start_ns = x->start_ns, out->end_ns = x->end_ns, out->launch = most;
        wb_counters_clear(&out->c, "");
        for (int m = 0; m < wb_n_metrics; m++) out->c.v[m] = x->v[m];
        out->kernels = n;
        out->busy_ns = n ? union_ns(lo, hi, n) : 0;
        double len = (double)(x->end_ns - x->start_ns);
        sampled_ns += len, idle_ns += len - out->busy_ns;
        if (out->launch >= 0) {
            const wb_prof_launch *top = &p->launches[out->launch];
            if (top->range >= 0 && top->range < p->nranges)
                snprintf(out->nvtx, sizeof out->nvtx, "%.127s", p->ranges[top->range].path);
        }
        for (int k = 0; k < act.n && total > 0; k++) {
            int64_t i = act.row[k];
            wb_prof_launch *l = &p->launches[i];
            int64_t a = l->start_ns > x->start_ns ? l->start_ns : x->start_ns;
            int64_t b = l->end_ns < x->end_ns ? l->end_ns : x->end_ns;
            if (b <= a || !mine[i]) continue;
            double ov = (double)(b - a), share = ov / total;
            for (int m = 0; m < wb_n_metrics; m++) {
                if (!isfinite(x->v[m]) || !strcmp(wb_metrics[m].column, "kernel_time_ms")) continue;
                double add = wb_profile_metric_summed(m) ? share * x->v[m] : ov * x->v[m]; /* a rate: weighted */
                l->c.v[m] = isfinite(l->c.v[m]) ? l->c.v[m] + add : add;
            }
            weight[i] += ov;
        }
    }
    for (int64_t k = 0; k < nl; k++) {
        int64_t i = rows[k];
        wb_prof_launch *l = &p->launches[i];
        if (!mine[i] || weight[i] <= 0) continue;
        for (int m = 0; m < wb_n_metrics; m++)
            if (isfinite(l->c.v[m]) && !wb_profile_metric_summed(m)) l->c.v[m] /= weight[i];
        snprintf(l->c.note, sizeof l->c.note, "sampled: PM samples split by overlap time");
        st->attributed++;
    }
    st->samples += r->nsamples - 1;
    st->idle_pct = sampled_ns > 0 ? 100.0 * idle_ns / sampled_ns : NAN;
    free(rows), free(weight), free(mine), free(act.row), free(lo), free(hi);
    return WB_OK;
}
