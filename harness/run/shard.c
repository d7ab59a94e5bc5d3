/* shard.c - one shard of a sweep (see shard.h). */
#include "harness/run/shard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int is_ceiling(const wb_run_point *p) {
    return strcmp(p->family->name, WB_SHARD_CEILING_FAMILY) == 0;
}

static double pass_ms(const wb_row *r) {
    double t = 0;
    if (isfinite(r->m.timing_pass_ms)) t += r->m.timing_pass_ms;
    if (isfinite(r->m.counter_pass_ms)) t += r->m.counter_pass_ms;
    if (isfinite(r->m.setup_ms)) t += r->m.setup_ms; /* schema 3 on: data + verification */
    return t;
}

typedef struct named {
    char name[sizeof ((wb_run_point *)0)->name];
    double ms;
} named;

static int by_name(const void *a, const void *b) {
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

int wb_shard_costs(const wb_run_point *pts, int n, const char *cost_path, double *cost, char *source, size_t len,
                   wb_err *e) {
    for (int i = 0; i < n; i++) cost[i] = pts[i].family->device_bytes(&pts[i].p);
    if (!cost_path) {
        snprintf(source, len, "device bytes of each point (no --shard-cost file)");
        return WB_OK;
    }
    wb_results r;
    if (wb_results_open(cost_path, &r, e) != WB_OK) return WB_ERR;
    double *ms = malloc((size_t)(n > 0 ? n : 1) * sizeof *ms);
    if (!ms) {
        wb_results_free(&r);
        return wb_fail(e, "out of host memory reading --shard-cost %s", cost_path);
    }
    /* The file's points by name (wb_point_name: every axis the sweep
     * chooses), sorted; a sweep point takes the pass time of its name. */
    named *byname = malloc((size_t)(r.nrows > 0 ? r.nrows : 1) * sizeof *byname);
    if (!byname) {
        free(ms);
        wb_results_free(&r);
        return wb_fail(e, "out of host memory reading --shard-cost %s", cost_path);
    }
    int64_t nn = 0;
    for (int64_t k = 0; k < r.nrows; k++) {
        if (r.rows[k].m.repetition != 0) continue;
        wb_point_name(&r.rows[k].p, byname[nn].name, sizeof byname[nn].name);
        byname[nn++].ms = pass_ms(&r.rows[k]);
    }
    qsort(byname, (size_t)nn, sizeof *byname, by_name);
    double sum_ms = 0, sum_bytes = 0;
    int found = 0;
    for (int i = 0; i < n; i++) {
        named key;
        snprintf(key.name, sizeof key.name, "%s", pts[i].name);
        const named *hit = nn ? bsearch(&key, byname, (size_t)nn, sizeof *byname, by_name) : NULL;
        ms[i] = hit && isfinite(hit->ms) && hit->ms > 0 ? hit->ms : NAN;
        if (isfinite(ms[i])) {
            found++;
            sum_ms += ms[i];
            sum_bytes += cost[i];
        }
    }
    free(byname);
    wb_results_free(&r);
    double ms_per_byte = sum_bytes > 0 && sum_ms > 0 ? sum_ms / sum_bytes : 0;
    if (!found || ms_per_byte <= 0) {
        free(ms);
        return wb_fail(e, "--shard-cost %s has none of this sweep's points with a measured pass time", cost_path);
    }
    for (int i = 0; i < n; i++) cost[i] = isfinite(ms[i]) ? ms[i] : cost[i] * ms_per_byte;
    free(ms);
    snprintf(source, len, "pass and set-up times of %.100s (%d of %d points; the rest by bytes)", cost_path, found, n);
    return WB_OK;
}

typedef struct piece {
    int first, last; /* [first, last] in run order, one family, shared data */
    double cost;
} piece;

static int heavier_first(const void *a, const void *b) {
    const piece *x = a, *y = b;
    if (x->cost != y->cost) return x->cost > y->cost ? -1 : 1;
    return x->first - y->first;
}

void wb_shard_assign(const wb_run_point *pts, int n, const double *cost, int count, int *shard_of) {
    piece *pc = malloc((size_t)(n > 0 ? n : 1) * sizeof *pc);
    double *load = calloc((size_t)count, sizeof *load);
    double total = 0;
    for (int i = 0; i < n; i++)
        if (!is_ceiling(&pts[i])) total += cost[i];
    const double share = total / count;
    int np = 0;
    for (int i = 0; i < n; i++) {
        shard_of[i] = -1;
        if (is_ceiling(&pts[i]) || !pc) continue;
        /* A point joins the open piece when it shares that piece's data and
         * the piece stays within one shard's share. */
        piece *open = np ? &pc[np - 1] : NULL;
        const wb_run_point *lead = open ? &pts[open->first] : NULL;
        if (open && open->last == i - 1 && lead->family == pts[i].family &&
            lead->family->same_data(&lead->p, &pts[i].p) && open->cost + cost[i] <= share) {
            open->last = i;
            open->cost += cost[i];
        } else {
            pc[np++] = (piece){i, i, cost[i]};
        }
    }
    if (!pc || !load) { /* no memory for balancing: round robin is still disjoint and covering */
        for (int i = 0, k = 0; i < n; i++)
            if (!is_ceiling(&pts[i])) shard_of[i] = k++ % count;
        free(pc);
        free(load);
        return;
    }
    qsort(pc, (size_t)np, sizeof *pc, heavier_first);
    for (int k = 0; k < np; k++) {
        int best = 0;
        for (int s = 1; s < count; s++)
            if (load[s] < load[best]) best = s;
        load[best] += pc[k].cost;
        for (int i = pc[k].first; i <= pc[k].last; i++) shard_of[i] = best;
    }
    free(pc);
    free(load);
}

void wb_shard_fingerprint(const wb_run_point *pts, int n, char out[17]) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++)
        for (const unsigned char *c = (const unsigned char *)pts[i].name;; c++) {
            h = (h ^ *c) * 1099511628211ULL; /* the NUL too: it separates the names */
            if (!*c) break;
        }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int wb_shard_select(wb_run_point *pts, int *n, const char *cost_path, wb_shard *sh, wb_err *e) {
    wb_shard_fingerprint(pts, *n, sh->fingerprint);
    sh->points = *n;
    sh->ceilings = 0;
    for (int i = 0; i < *n; i++) sh->ceilings += is_ceiling(&pts[i]);
    sh->counts[0] = '\0';
    sh->cost_source[0] = '\0';
    if (!sh->count) return WB_OK;
    double *cost = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *cost);
    int *shard_of = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *shard_of);
    int *per = calloc((size_t)sh->count, sizeof *per);
    int rc = WB_ERR;
    if (!cost || !shard_of || !per) {
        wb_fail(e, "out of host memory sharding %d points", *n);
        goto out;
    }
    if (wb_shard_costs(pts, *n, cost_path, cost, sh->cost_source, sizeof sh->cost_source, e) != WB_OK) goto out;
    wb_shard_assign(pts, *n, cost, sh->count, shard_of);
    int kept = 0;
    for (int i = 0; i < *n; i++) {
        if (shard_of[i] >= 0) per[shard_of[i]]++;
        if (shard_of[i] < 0 || shard_of[i] == sh->index - 1) pts[kept++] = pts[i];
    }
    size_t at = 0;
    for (int s = 0; s < sh->count && at < sizeof sh->counts; s++)
        at += (size_t)snprintf(sh->counts + at, sizeof sh->counts - at, "%s%d", s ? "," : "", per[s]);
    if (at >= sizeof sh->counts) {
        wb_fail(e, "--shard count %d is too large to record (at most a few hundred shards)", sh->count);
        goto out;
    }
    if (kept == sh->ceilings) {
        wb_fail(e, "shard %d/%d gets no point of this sweep (%d points beside the ceilings): use fewer shards",
                sh->index, sh->count, *n - sh->ceilings);
        goto out;
    }
    *n = kept;
    sh->points = kept;
    rc = WB_OK;
out:
    free(cost);
    free(shard_of);
    free(per);
    return rc;
}

int wb_shard_write_attrs(wb_store *s, const wb_shard *sh, wb_err *e) {
    if (wb_store_attr_str(s, "sweep_fingerprint", sh->fingerprint, e) != WB_OK) return WB_ERR;
    if (!sh->count) return WB_OK;
    char spec[32];
    snprintf(spec, sizeof spec, "%d/%d", sh->index, sh->count);
    if (wb_store_attr_str(s, "shard", spec, e) != WB_OK || wb_store_attr_f64(s, "shard_count", sh->count, e) != WB_OK ||
        wb_store_attr_f64(s, "shard_points", sh->points, e) != WB_OK ||
        wb_store_attr_f64(s, "shard_ceiling_points", sh->ceilings, e) != WB_OK ||
        wb_store_attr_str(s, "shard_counts", sh->counts, e) != WB_OK ||
        wb_store_attr_str(s, "shard_cost", sh->cost_source, e) != WB_OK)
        return WB_ERR;
    return WB_OK;
}
