/* match.c - the two passes joined launch by launch (match.h). */
#include "harness/profile/match.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"

/* libstdc++'s demangler: the binary links C++ (Google Benchmark) anyway. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

void wb_kernel_short_name(const char *mangled, char *out, size_t len) {
    int status = -1;
    char *d = mangled[0] == '_' && mangled[1] == 'Z' ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    const char *s = status == 0 && d ? d : mangled;
    /* Keep depth-0 text before the parameter list, dropping <...> and {lambda...}; "(anonymous
     * namespace)::" is a scope, not the parameter list. */
    char buf[4096];
    size_t n = 0;
    int angle = 0, brace = 0;
    for (const char *p = s; *p && n + 16 < sizeof buf; p++) {
        if (*p == '<') angle++;
        else if (*p == '>') angle -= angle > 0;
        else if (*p == '{') brace++ == 0 && angle == 0 ? (void)(n += (size_t)snprintf(buf + n, sizeof buf - n, "{lambda}")) : (void)0;
        else if (*p == '}') brace -= brace > 0;
        else if (angle || brace) continue;
        else if (*p == '(' && !strncmp(p, "(anonymous namespace)::", 23)) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "(anon)::");
            p += 22;
        } else if (*p == '(') break;
        else buf[n++] = *p;
    }
    buf[n] = '\0';
    const char *word = strrchr(buf, ' ');
    snprintf(out, len, "%s", word && word[1] ? word + 1 : buf);
    if (!out[0]) snprintf(out, len, "%s", mangled);
    free(d);
}

/* Interned rows of p: kernels by (name, grid, block), ranges by path. */
typedef struct rows {
    wb_profile *p;
    int cap_k, cap_r;
    int64_t cap_l;
} rows;

static int same_shape(const int32_t *g1, const int32_t *b1, const int32_t *g2, const int32_t *b2) {
    return !memcmp(g1, g2, 3 * sizeof *g1) && !memcmp(b1, b2, 3 * sizeof *b1);
}

static int kernel_row(rows *w, const char *name, const int32_t *grid, const int32_t *block) {
    wb_profile *p = w->p;
    /* Linear over distinct kernels, newest first: a program has tens to hundreds of them, and
     * consecutive launches are mostly the same kernel. */
    for (int i = p->nkernels - 1; i >= 0; i--)
        if (same_shape(p->kernels[i].grid, p->kernels[i].block, grid, block) &&
            (int)strlen(name) == p->kernels[i].name_full_len && !strncmp(p->kernels[i].name, name, sizeof p->kernels[i].name - 1))
            return i;
    if (p->nkernels == w->cap_k) {
        int cap = w->cap_k ? 2 * w->cap_k : 64;
        wb_prof_kernel *k = realloc(p->kernels, (size_t)cap * sizeof *k);
        if (!k) return -1;
        p->kernels = k, w->cap_k = cap;
    }
    wb_prof_kernel *k = &p->kernels[p->nkernels];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->name_full_len = (int32_t)strlen(name);
    wb_kernel_short_name(name, k->demangled, sizeof k->demangled);
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    k->registers = k->smem_static = k->smem_dynamic = -1;
    wb_counters_clear(&k->c, "");
    return p->nkernels++;
}

static int range_row(rows *w, const char *path) {
    wb_profile *p = w->p;
    if (!path[0]) return -1;
    for (int i = p->nranges - 1; i >= 0; i--)
        if (!strncmp(p->ranges[i].path, path, sizeof p->ranges[i].path - 1)) return i;
    if (p->nranges == w->cap_r) {
        int cap = w->cap_r ? 2 * w->cap_r : 32;
        wb_prof_range *r = realloc(p->ranges, (size_t)cap * sizeof *r);
        if (!r) return -2;
        p->ranges = r, w->cap_r = cap;
    }
    wb_prof_range *r = &p->ranges[p->nranges];
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    wb_counters_clear(&r->c, "");
    return p->nranges++;
}

static wb_prof_launch *new_launch(rows *w, int pid) {
    wb_profile *p = w->p;
    if (p->nlaunches == w->cap_l) {
        int64_t cap = w->cap_l ? 2 * w->cap_l : 1024;
        wb_prof_launch *l = realloc(p->launches, (size_t)cap * sizeof *l);
        if (!l) return NULL;
        p->launches = l, w->cap_l = cap;
    }
    wb_prof_launch *l = &p->launches[p->nlaunches++];
    memset(l, 0, sizeof *l);
    l->pid = pid;
    l->kernel = l->range = -1;
    l->device = l->registers = l->smem_static = l->smem_dynamic = -1;
    l->stream = l->start_ns = l->end_ns = -1;
    l->time_ms = l->dram_sectors_write_after = NAN;
    wb_counters_clear(&l->c, "");
    return l;
}

/* One side's launches that take part in matching, in order (indices into r->launches). */
typedef struct side {
    const wb_raw *r;
    int *idx;
    int n;
    int *partner; /* index into the other side's idx, -1 */
} side;

static int launch_key_eq(const side *a, int i, const side *b, int j) {
    const wb_raw_launch *x = &a->r->launches[a->idx[i]], *y = &b->r->launches[b->idx[j]];
    return same_shape(x->grid, x->block, y->grid, y->block) &&
           !strcmp(wb_raw_str(a->r, x->name), wb_raw_str(b->r, y->name));
}

/* Per kernel: the k-th occurrence in a matches the k-th in b. Quadratic in the worst case over
 * distinct kernels only: each a launch scans b from the last match of its kernel onwards. */
static void match_by_kernel(side *a, side *b) {
    int *next = calloc((size_t)(a->n ? a->n : 1), sizeof *next); /* per a launch: where to resume in b */
    if (!next) return;
    for (int i = 0; i < a->n; i++) {
        int from = 0;
        for (int k = i - 1; k >= 0; k--) /* the previous launch of the same kernel in a */
            if (launch_key_eq(a, k, a, i)) {
                from = next[k];
                break;
            }
        int j = from;
        while (j < b->n && (b->partner[j] >= 0 || !launch_key_eq(a, i, b, j))) j++;
        next[i] = j < b->n ? j + 1 : b->n;
        if (j < b->n) a->partner[i] = j, b->partner[j] = i;
    }
    free(next);
}

/* Matches one process's sides; returns 1 when the sequences were equal. */
static int match_sides(side *t, side *c, char *first_diff, size_t len) {
    for (int i = 0; i < t->n; i++) t->partner[i] = -1;
    for (int j = 0; j < c->n; j++) c->partner[j] = -1;
    int i = 0;
    while (i < t->n && i < c->n && launch_key_eq(t, i, c, i)) i++;
    if (i == t->n && i == c->n) {
        for (int k = 0; k < i; k++) t->partner[k] = k, c->partner[k] = k;
        return 1;
    }
    snprintf(first_diff, len, "at selected launch %d: %s in the timing pass, %s in the counter pass", i,
             i < t->n ? wb_raw_str(t->r, t->r->launches[t->idx[i]].name) : "(end)",
             i < c->n ? wb_raw_str(c->r, c->r->launches[c->idx[i]].name) : "(end)");
    match_by_kernel(t, c);
    return 0;
}

static void fill_from_timing(wb_prof_launch *l, const wb_raw *r, const wb_raw_launch *x) {
    l->seq = x->seq;
    l->api = x->api;
    memcpy(l->grid, x->grid, sizeof l->grid);
    memcpy(l->block, x->block, sizeof l->block);
    l->smem_dynamic = x->smem_dynamic;
    if (x->kernel_rec < 0) return;
    const wb_raw_kernel *k = &r->kernels[x->kernel_rec];
    l->device = k->device, l->stream = k->stream, l->registers = k->registers;
    l->smem_static = k->smem_static, l->smem_dynamic = k->smem_dynamic;
    l->start_ns = k->start_ns, l->end_ns = k->end_ns;
    l->time_ms = 1e-6 * (double)(k->end_ns - k->start_ns);
}

static void fill_counters(wb_prof_launch *l, const wb_raw *c, const wb_raw_launch *x) {
    if (!x->counted) { /* the counter pass's reason (its N line), into the launch's counter_note */
        if (x->not_counted_why >= 0) snprintf(l->c.note, sizeof l->c.note, "%s", wb_raw_str(c, x->not_counted_why));
        return;
    }
    for (int k = 0; k < WB_METRICS_MAX; k++) l->c.v[k] = x->v[k];
    l->dram_sectors_write_after = x->written_after;
    wb_counters_group(&l->c);
}

/* The launch's kernel and range rows, kernel registers/smem from its first timed launch. */
static int place(rows *w, wb_prof_launch *l, const char *name, const char *nvtx) {
    if ((l->kernel = kernel_row(w, name, l->grid, l->block)) < 0) return -1;
    if ((l->range = range_row(w, nvtx)) == -2) return -1;
    wb_prof_kernel *k = &w->p->kernels[l->kernel];
    if (k->registers < 0 && l->registers >= 0)
        k->registers = l->registers, k->smem_static = l->smem_static, k->smem_dynamic = l->smem_dynamic;
    return 0;
}

static int process(rows *w, wb_raw *t, wb_raw *c, wb_select *sel, wb_match_stats *st, wb_err *e) {
    side ts = {t, NULL, 0, NULL}, cs = {c, NULL, 0, NULL};
    int nt = t ? t->nlaunches : 0, nc = c ? c->nlaunches : 0;
    ts.idx = malloc((size_t)(nt + 1) * sizeof(int)), ts.partner = malloc((size_t)(nt + 1) * sizeof(int));
    cs.idx = malloc((size_t)(nc + 1) * sizeof(int)), cs.partner = malloc((size_t)(nc + 1) * sizeof(int));
    int rc = WB_OK;
    if (!ts.idx || !ts.partner || !cs.idx || !cs.partner) {
        rc = wb_fail(e, "matching the passes: out of host memory");
        goto out;
    }
    sel->matched = 0; /* the selection as the injected program applied it, from the start */
    for (int i = 0; i < nt; i++) {
        const wb_raw_launch *x = &t->launches[i];
        if (x->api != WB_API_GRAPH && wb_select_take(sel, wb_raw_str(t, x->name), wb_raw_str(t, x->nvtx))) ts.idx[ts.n++] = i;
    }
    for (int j = 0; j < nc; j++)
        if (c->launches[j].selected && c->launches[j].api != WB_API_GRAPH) cs.idx[cs.n++] = j;
    char diff[400] = "";
    if (t && c && !match_sides(&ts, &cs, diff, sizeof diff)) {
        st->by_kernel = 1;
        if (!st->note[0])
            snprintf(st->note, sizeof st->note,
                     "the passes launched different sequences (pid %d vs %d, %s): matched per kernel (name and launch shape)",
                     t->pid, c->pid, diff);
    }
    /* Timing order first (program order with times), then counted launches without a partner. */
    for (int i = 0; i < ts.n && rc == WB_OK; i++) {
        const wb_raw_launch *x = &t->launches[ts.idx[i]];
        wb_prof_launch *l = new_launch(w, t->pid);
        if (!l) { rc = wb_fail(e, "out of host memory"); break; }
        fill_from_timing(l, t, x);
        if (l->start_ns >= 0) st->timed++;
        int j = c ? ts.partner[i] : -1;
        if (j >= 0) {
            const wb_raw_launch *y = &c->launches[cs.idx[j]];
            fill_counters(l, c, y);
            l->match = diff[0] ? WB_MATCH_KERNEL : WB_MATCH_SEQUENCE;
            if (y->counted) st->counted++, st->both += l->start_ns >= 0;
            else st->not_counted++;
        } else if (c) {
            st->unmatched_timing++;
        }
        if (place(w, l, wb_raw_str(t, x->name), wb_raw_str(t, x->nvtx)) != 0) rc = wb_fail(e, "out of host memory");
    }
    for (int j = 0; j < cs.n && rc == WB_OK; j++) {
        if (t && cs.partner[j] >= 0) continue;
        const wb_raw_launch *y = &c->launches[cs.idx[j]];
        wb_prof_launch *l = new_launch(w, c->pid);
        if (!l) { rc = wb_fail(e, "out of host memory"); break; }
        l->seq = y->seq, l->api = y->api;
        memcpy(l->grid, y->grid, sizeof l->grid);
        memcpy(l->block, y->block, sizeof l->block);
        l->smem_dynamic = y->smem_dynamic;
        fill_counters(l, c, y);
        if (y->counted) st->counted++;
        else st->not_counted++;
        if (t) st->unmatched_counters++;
        else l->time_ms = l->c.v[wb_metric_index("kernel_time_ms")]; /* counters only: the replayed duration */
        if (place(w, l, wb_raw_str(c, y->name), wb_raw_str(c, y->nvtx)) != 0) rc = wb_fail(e, "out of host memory");
    }
    /* Graph nodes: activity records joined to no launch line, each under its graph launch (a few). */
    int ngraph = 0;
    for (int i = 0; t && i < nt; i++) ngraph += t->launches[i].api == WB_API_GRAPH;
    for (int k = 0; t && k < t->nkernels && rc == WB_OK; k++) {
        const wb_raw_kernel *g = &t->kernels[k];
        if (g->launch >= 0) continue;
        wb_prof_launch *l = new_launch(w, t->pid);
        if (!l) { rc = wb_fail(e, "out of host memory"); break; }
        l->api = WB_API_GRAPH;
        l->seq = -1;
        for (int i = 0, seen = 0; i < nt && seen < ngraph; i++) /* the graph launch it came from */
            if (t->launches[i].api == WB_API_GRAPH && (seen++, t->launches[i].corr == g->corr)) {
                l->seq = t->launches[i].seq;
                break;
            }
        memcpy(l->grid, g->grid, sizeof l->grid);
        memcpy(l->block, g->block, sizeof l->block);
        l->device = g->device, l->stream = g->stream, l->registers = g->registers;
        l->smem_static = g->smem_static, l->smem_dynamic = g->smem_dynamic;
        l->start_ns = g->start_ns, l->end_ns = g->end_ns;
        l->time_ms = 1e-6 * (double)(g->end_ns - g->start_ns);
        snprintf(l->c.note, sizeof l->c.note, "a graph's node: counted only inside --ranges nvtx or every:N ranges");
        st->graph_nodes++, st->timed++;
        if (place(w, l, wb_raw_str(t, g->name), "") != 0) rc = wb_fail(e, "out of host memory");
    }
out:
    free(ts.idx), free(ts.partner), free(cs.idx), free(cs.partner);
    return rc;
}

static int by_pid(const void *a, const void *b) {
    const wb_raw *x = a, *y = b;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

int wb_match_passes(wb_raw *timing, int nt, wb_raw *counters, int nc, wb_select *sel, wb_profile *p,
                    wb_match_stats *st, wb_err *e) {
    memset(st, 0, sizeof *st);
    rows w = {p, 0, 0, 0};
    qsort(timing, (size_t)nt, sizeof *timing, by_pid);
    qsort(counters, (size_t)nc, sizeof *counters, by_pid);
    int n = nt > nc ? nt : nc;
    for (int i = 0; i < n; i++)
        if (process(&w, i < nt ? &timing[i] : NULL, i < nc ? &counters[i] : NULL, sel, st, e) != WB_OK) return WB_ERR;
    st->processes = n;
    if (nt && nc && nt != nc)
        snprintf(st->note + strlen(st->note), sizeof st->note - strlen(st->note),
                 "%sthe timing pass ran %d process(es) with CUDA, the counter pass %d: paired in pid order",
                 st->note[0] ? "; " : "", nt, nc);
    if (!st->note[0])
        snprintf(st->note, sizeof st->note, "%s",
                 nt && nc ? "launch by launch: both passes launched the same sequence (name, grid, block)"
                          : nt ? "timing pass only" : "counter pass only");
    return WB_OK;
}
