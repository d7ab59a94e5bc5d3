/* sweep.c - the points of a run (see sweep.h). */
#include "harness/base/grow.h"
#include "harness/run/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

static const char *const kind_names[] = {"test", "quick", "full"};

int wb_sweep_kind_parse(const char *s, wb_sweep_kind *k, wb_err *e) {
    for (int i = 0; i < 3; i++)
        if (strcmp(s, kind_names[i]) == 0) {
            *k = (wb_sweep_kind)i;
            return WB_OK;
        }
    return wb_fail(e, "unknown sweep '%s'; valid: test quick full", s);
}

const char *wb_sweep_kind_name(wb_sweep_kind k) {
    return (unsigned)k < 3 ? kind_names[k] : "?";
}

/* Calls fn(item) for each comma-separated item of list (empty items are
 * errors); stops at the first failure. */
static int each_item(const char *list, const char *what, int (*fn)(const char *item, void *ctx, wb_err *e), void *ctx,
                     wb_err *e) {
    const char *at = list;
    for (;;) {
        const char *end = strchr(at, ',');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        char item[64];
        if (len == 0 || len >= sizeof item) return wb_fail(e, "bad %s list '%s'", what, list);
        memcpy(item, at, len);
        item[len] = '\0';
        if (fn(item, ctx, e) != WB_OK) return WB_ERR;
        if (!end) return WB_OK;
        at = end + 1;
    }
}

static const char *family_names(char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; wb_registry_at(i) && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s ", wb_registry_at(i)->name);
    if (at < len) snprintf(buf + at, len - at, "all");
    return buf;
}

static int add_family(const char *name, void *ctx, wb_err *e) {
    wb_selection *s = ctx;
    char names[256];
    if (strcmp(name, "all") == 0) {
        s->nfamilies = 0;
        for (int i = 0; wb_registry_at(i) && i < WB_SWEEP_MAX_NAMES; i++) s->families[s->nfamilies++] = wb_registry_at(i);
        return WB_OK;
    }
    const wb_family *f = wb_family_find(name);
    if (!f) return wb_fail(e, "unknown family '%s'; valid: %s", name, family_names(names, sizeof names));
    for (int i = 0; i < s->nfamilies; i++)
        if (s->families[i] == f) return WB_OK;
    if (s->nfamilies == WB_SWEEP_MAX_NAMES) return wb_fail(e, "too many families");
    s->families[s->nfamilies++] = f;
    return WB_OK;
}

static int add_variant(const char *name, void *ctx, wb_err *e) {
    wb_selection *s = ctx;
    for (int i = 0; i < s->nfamilies; i++)
        if (wb_family_variant(s->families[i], name) >= 0) {
            if (s->nvariants == WB_SWEEP_MAX_NAMES) return wb_fail(e, "too many variants");
            snprintf(s->variants[s->nvariants++], sizeof s->variants[0], "%.*s", (int)sizeof s->variants[0] - 1, name);
            return WB_OK;
        }
    char valid[1024];
    size_t at = 0;
    valid[0] = '\0';
    for (int i = 0; i < s->nfamilies && at < sizeof valid; i++) {
        at += (size_t)snprintf(valid + at, sizeof valid - at, "%s%s:", i ? "; " : "", s->families[i]->name);
        for (int v = 0; v < s->families[i]->nvariants && at < sizeof valid; v++)
            at += (size_t)snprintf(valid + at, sizeof valid - at, " %s", s->families[i]->variants[v].name);
    }
    return wb_fail(e, "unknown variant '%s'; valid variants of the chosen families: %s", name, valid);
}

/* A size: decimal digits, or 2^K. */
static int add_size(const char *item, void *ctx, wb_err *e) {
    wb_selection *s = ctx;
    long long v = -1;
    char *end = NULL;
    errno = 0;
    if (strncmp(item, "2^", 2) == 0) {
        long k = strtol(item + 2, &end, 10);
        if (end != item + 2 && !*end && k >= 0 && k <= 62) v = 1LL << k;
    } else if (item[0] >= '0' && item[0] <= '9') {
        v = strtoll(item, &end, 10);
        if (*end || errno) v = -1;
    }
    if (v < 0)
        return wb_fail(e, "bad --n value '%s': expected element counts >= 0 such as 1000003 or 2^28, comma-separated",
                       item);
    if (s->nsizes == WB_SWEEP_MAX_NAMES) return wb_fail(e, "too many --n values (at most %d)", WB_SWEEP_MAX_NAMES);
    s->sizes[s->nsizes++] = v;
    return WB_OK;
}

int wb_selection_parse(const char *families, const char *variants, const char *sizes, wb_selection *s, wb_err *e) {
    memset(s, 0, sizeof *s);
    if (each_item(families ? families : "all", "--family", add_family, s, e) != WB_OK) return WB_ERR;
    if (variants && each_item(variants, "--variant", add_variant, s, e) != WB_OK) return WB_ERR;
    if (sizes && each_item(sizes, "--n", add_size, s, e) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* ---- points ---- */

typedef struct collect {
    wb_point *pts;
    int n, cap;
} collect;

static int collect_add(void *ctx, const wb_point *p) {
    collect *c = ctx;
    if (wb_grow(&c->pts, c->n, &c->cap, sizeof *c->pts, 256) != 0) return WB_ERR;
    c->pts[c->n++] = *p;
    return WB_OK;
}

static int variant_chosen(const wb_selection *s, const char *variant) {
    if (!s->nvariants) return 1;
    for (int i = 0; i < s->nvariants; i++)
        if (strcmp(s->variants[i], variant) == 0) return 1;
    return 0;
}

typedef struct point_list {
    wb_run_point *v;
    int n, cap;
} point_list;

/* Appends p unless a point of the same name is already in [from, n): --n
 * maps points that differed only in size onto the same point. */
static int list_add(point_list *l, int from, const wb_family *f, const wb_point *p) {
    wb_run_point rp = {f, *p, "", NULL};
    wb_point_name(p, rp.name, sizeof rp.name);
    for (int i = from; i < l->n; i++)
        if (strcmp(l->v[i].name, rp.name) == 0) return WB_OK;
    if (wb_grow(&l->v, l->n, &l->cap, sizeof *l->v, 256) != 0) return WB_ERR;
    l->v[l->n++] = rp;
    return WB_OK;
}

/* The full sweep contains the quick sweep, point for point, so that every
 * number quoted from a quick run can be recomputed from a record (a full
 * run); tests/test_sweep_contains.c checks it for every profile. A quick
 * point the full sweep lacks goes right after the last full point of its
 * data (same_data), where the run still holds that data. */
static int add_quick_points(const wb_family *f, const wb_device *d, collect *c) {
    collect q = {NULL, 0, 0};
    wb_sink quick = {f, d, collect_add, &q};
    if (f->sweep[WB_SWEEP_QUICK](&quick) != WB_OK) {
        free(q.pts);
        return WB_ERR;
    }
    char a[256], b[256];
    int rc = WB_OK;
    for (int i = 0; i < q.n && rc == WB_OK; i++) {
        wb_point_name(&q.pts[i], a, sizeof a);
        int found = 0, after = c->n - 1;
        for (int j = 0; j < c->n && !found; j++) {
            wb_point_name(&c->pts[j], b, sizeof b);
            found = strcmp(a, b) == 0;
        }
        if (found) continue;
        for (int j = c->n - 1; j >= 0; j--)
            if (f->same_data(&c->pts[j], &q.pts[i])) {
                after = j;
                break;
            }
        if ((rc = collect_add(c, &q.pts[i])) != WB_OK) break;
        memmove(&c->pts[after + 2], &c->pts[after + 1], (size_t)(c->n - 2 - after) * sizeof *c->pts);
        c->pts[after + 1] = q.pts[i];
    }
    free(q.pts);
    return rc;
}

int wb_sweep_points(const wb_selection *s, wb_sweep_kind k, const wb_device *d, wb_run_point **pts, int *n,
                    wb_err *e) {
    point_list l = {NULL, 0, 0};
    *pts = NULL;
    *n = 0;
    for (int fi = 0; fi < s->nfamilies; fi++) {
        const wb_family *f = s->families[fi];
        collect c = {NULL, 0, 0};
        wb_sink sink = {f, d, collect_add, &c};
        if (f->sweep[k](&sink) != WB_OK || (k == WB_SWEEP_FULL && add_quick_points(f, d, &c) != WB_OK)) {
            free(c.pts);
            free(l.v);
            return wb_fail(e, "family %s: its %s sweep failed (out of memory?)", f->name, wb_sweep_kind_name(k));
        }
        int from = l.n, rc = WB_OK;
        int rounds = s->nsizes ? s->nsizes : 1;
        for (int r = 0; r < rounds && rc == WB_OK; r++)
            for (int i = 0; i < c.n && rc == WB_OK; i++) {
                if (!variant_chosen(s, c.pts[i].variant)) continue;
                wb_point p = c.pts[i];
                if (s->nsizes) p.n = s->sizes[r];
                rc = list_add(&l, from, f, &p);
            }
        free(c.pts);
        if (rc != WB_OK) {
            free(l.v);
            return wb_fail(e, "out of memory listing the points of %s", f->name);
        }
    }
    if (l.n == 0) {
        free(l.v);
        return wb_fail(e, "the chosen families and variants give no point in the %s sweep", wb_sweep_kind_name(k));
    }
    *pts = l.v;
    *n = l.n;
    return WB_OK;
}

int wb_sweep_check_sizes(const wb_selection *s, const wb_run_point *pts, int n, const wb_device *d, wb_err *e) {
    for (int si = 0; si < s->nsizes; si++) {
        double least = -1;
        const char *least_name = "";
        for (int i = 0; i < n; i++) {
            if (pts[i].p.n != s->sizes[si]) continue;
            double need = pts[i].family->device_bytes(&pts[i].p);
            if (need <= (double)d->mem_total_bytes) {
                least = -1;
                break;
            }
            if (least < 0 || need < least) {
                least = need;
                least_name = pts[i].name;
            }
        }
        if (least >= 0)
            return wb_fail(e, "--n %lld does not fit this GPU: even %s needs %.1f GB of device memory, %s has %.1f GB",
                           (long long)s->sizes[si], least_name, least / 1e9, d->name, d->mem_total_bytes / 1e9);
    }
    return WB_OK;
}

void wb_sweep_nominal_device(const wb_gpu_ref *g, wb_device *d) {
    memset(d, 0, sizeof *d);
    d->ordinal = -1;
    snprintf(d->name, sizeof d->name, "%s", g->model);
    d->cc_major = g->arch / 10;
    d->cc_minor = g->arch % 10;
    d->sms = g->sms;
    d->l2_bytes = (int64_t)(g->l2_mib * 1048576.0);
    d->mem_total_bytes = (int64_t)(g->mem_gib * 1073741824.0);
    d->max_threads_per_sm = g->threads_per_sm;
    d->smem_per_sm = isfinite(g->smem_per_sm_kib) ? (int)(g->smem_per_sm_kib * 1024) : -1;
    d->sm_clock_max_mhz = g->boost_clock_ghz * 1000.0;
    d->mem_clock_mhz = -1;
    d->mem_bus_bits = -1;
    d->driver_version = d->runtime_version = -1;
}

int wb_sm_steps(const wb_device *d, int ks[WB_SM_STEPS]) {
    int sms = d->sms > 0 ? d->sms : 1, n = 0;
    for (int shift = 4; shift >= 0; shift--) {
        int k = sms >> shift;
        if (k >= 1 && (n == 0 || k > ks[n - 1])) ks[n++] = k;
    }
    return n;
}

int wb_sweep_batch_after(const wb_run_point *pts, int npts, int from, int *idx, int max, int data_sets) {
    const wb_run_point *lead = &pts[from];
    int n = 0, reps[WB_BATCH_DATA_SETS_MAX], nreps = 1;
    reps[0] = from;
    if (data_sets > WB_BATCH_DATA_SETS_MAX) data_sets = WB_BATCH_DATA_SETS_MAX;
    for (int j = from + 1; j < npts && n < max; j++) {
        const wb_run_point *q = &pts[j];
        if (!q->selected || q->counted) continue;
        if (q->family != lead->family) break;
        /* A point of a data set the batch has, or of the next new one while
         * it may take more; a point of yet another data set is passed over,
         * not an end: the points after it may still join. */
        int k = 0;
        while (k < nreps && !lead->family->same_data(&pts[reps[k]].p, &q->p)) k++;
        if (k == nreps) {
            if (nreps >= data_sets) continue;
            reps[nreps++] = j;
        }
        idx[n++] = j;
    }
    return n;
}
