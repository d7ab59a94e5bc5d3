/* report_profile.c - what `wallbench report` adds on a profile file (rows.h):
 * seed 000's Tables 6-9 for one program, from its kernels (kernel = name +
 * launch shape) and again from its NVTX ranges, plus the top kernels and
 * ranges by time with the columns the paper discusses. The definitions are
 * report.c's (agg.h): bound = side of each ridge, split at 75% utilisation
 * of the bottleneck, IPC means weighted by time; the population is the
 * profile's timed rows with counters, weighted by their summed time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/textable.h"
#include "harness/tools/agg.h"
#include "harness/tools/limiter.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/report_profile.h"

typedef struct preport {
    wb_rtab_out *o;
    int top;
    const wb_profile *p;
    wb_prof_table t;     /* kernels or ranges */
    const wb_results *r; /* the same rows as results rows (rows.h) */
    wb_rtab_roofs roofs; /* the measured ridge (the view's kind), L4's and GH200's */
    const char *what;    /* "kernel" / "NVTX range" */
    const wb_results *suite; /* report --suite: the results file the rewrites table times; NULL */
} preport;

static int counted(const wb_row *x) {
    return wb_agg_is_op_point(x) && isfinite(x->c.inst_per_sector);
}

static void table6(const preport *rp, const wb_rtab_items *it) {
    double all = 0, with = 0;
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!wb_agg_is_op_point(x)) continue;
        all += x->m.time_median_ms;
        if (counted(x)) with += x->m.time_median_ms;
    }
    char agg[400];
    snprintf(agg, sizeof agg,
             "summed launch time of each %s with counters (%.1f%% of the timed kernel time); bound = side of each "
             "ridge; utilisation: DRAM = dram__throughput %% of peak, instructions = sm__inst_executed %% of the issue "
             "peak (time-weighted over the launches)",
             rp->what, all > 0 ? 100.0 * with / all : 0.0);
    char name[160];
    snprintf(name, sizeof name, "Table 6 (seed 000), per %s: share of time in memory- and compute-bound %ss, split at 75%% utilisation",
             rp->what, rp->what);
    wb_rtab_title(rp->o, name, agg);
    wb_textable t;
    wb_rtab_table6(&t, &rp->roofs, it);
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
    if (!isfinite(wb_roof_ridge(&rp->roofs.v.roof)))
        fprintf(rp->o->f, "%snote: the profile has no measured ceilings; the measured column is empty\n", rp->o->md ? "\n" : "  ");
}

static double metric(const wb_counters *c, const char *column) {
    int i = wb_metric_index(column);
    return i < 0 ? NAN : c->v[i];
}

/* The rows by time, largest first, with the columns of the paper's
 * discussion of its top kernels. */
static void top_table(const preport *rp) {
    int32_t *order = wb_profile_by_time(rp->p, rp->t);
    if (!order) {
        fprintf(stderr, "wallbench report: out of memory\n");
        return;
    }
    int64_t n = wb_prof_rows(rp->p, rp->t);
    char name[96], agg[300];
    snprintf(name, sizeof name, "Top %ss by time", rp->what);
    snprintf(agg, sizeof agg,
             "per %s: launches, summed time and its share of the timed kernel time; counters over its counted "
             "launches (counts summed, rates time-weighted); stalls in warp-cycles per issued instruction (Fig 6 groups)",
             rp->what);
    wb_rtab_title(rp->o, name, agg);
    static const char *const heads[] = {"#",        "Name",     "Launches", "Total ms", "Share", "Inst/sector",
                                        "IPC",      "Occ. %",   "L1 hit %", "L2 hit %", "Mem. thr.", "Mem. lat.",
                                        "Dep.",     "Sync",     "Throttle", "Other",   "Issued",   "Bound"};
    const int ncol = (int)(sizeof heads / sizeof heads[0]);
    wb_textable t;
    wb_textable_init(&t, ncol);
    int h = wb_textable_add(&t);
    for (int c = 0; c < ncol; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    int shown = 0;
    double left_ms = 0;
    int64_t left = 0;
    for (int64_t j = 0; j < n; j++) {
        const int32_t i = order[j];
        const wb_counters *c;
        int64_t launches;
        double total, share;
        char label[48];
        if (rp->t == WB_PT_KERNELS) {
            const wb_prof_kernel *k = &rp->p->kernels[i];
            wb_profile_kernel_label_in(rp->p, i, label, sizeof label);
            c = &k->c, launches = k->launches, total = k->total_ms, share = k->share_pct;
        } else {
            const wb_prof_range *g = &rp->p->ranges[i];
            snprintf(label, sizeof label, "%.47s", g->path);
            c = &g->c, launches = g->launches, total = g->total_ms, share = g->share_pct;
        }
        if (shown >= rp->top) {
            left++;
            if (isfinite(total)) left_ms += total;
            continue;
        }
        shown++;
        int row = wb_textable_add(&t);
        wb_textable_set_unit(&t, row, 0, i, 0, ""); /* counts and indices print without separators */
        wb_textable_set(&t, row, 1, "%s", label);
        wb_textable_set_unit(&t, row, 2, (double)launches, 0, "");
        wb_textable_set_num(&t, row, 3, total, 3);
        wb_textable_set_unit(&t, row, 4, share, 1, "%");
        wb_textable_set_num(&t, row, 5, c->inst_per_sector, 2);
        wb_textable_set_num(&t, row, 6, metric(c, "ipc"), 2);
        wb_textable_set_num(&t, row, 7, metric(c, "occupancy_achieved_pct"), 0);
        wb_textable_set_num(&t, row, 8, metric(c, "l1_hit_pct"), 0);
        wb_textable_set_num(&t, row, 9, metric(c, "l2_hit_pct"), 0);
        for (int g = 0; g < WB_STALL_GROUPS; g++) wb_textable_set_num(&t, row, 10 + g, c->stall[g], 2);
        wb_textable_set(&t, row, 17, "%s", c->bound[0] ? c->bound : "-");
    }
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
    if (left)
        fprintf(rp->o->f, "%s%lld more %ss (%.3f ms) not shown (--top)\n", rp->o->md ? "\n" : "  ", (long long)left, rp->what,
                left_ms);
    free(order);
}

static void table7(const preport *rp, const wb_rtab_items *it) {
    char name[96];
    snprintf(name, sizeof name, "Table 7 (seed 000), per %s: geometric mean IPC by bound", rp->what);
    wb_rtab_title(rp->o, name, "time-weighted geometric mean of ipc (warp inst per active SM cycle)");
    wb_textable t;
    wb_rtab_table7(&t, &rp->roofs, it, "", "All");
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
}

static void table8(const preport *rp, const wb_rtab_items *it) {
    char name[120];
    snprintf(name, sizeof name, "Table 8 (seed 000), per %s: share of time reaching IPC 50/75/100%% of peak", rp->what);
    wb_rtab_title(rp->o, name, "time of rows below 75% of L1, L2 and DRAM throughput; scaled = ipc x 100 / achieved occupancy %, "
                    "capped at the peak");
    wb_textable t;
    int n;
    wb_rtab_table8(&t, &rp->roofs, it, &n);
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
}

static int same_name(const wb_row *x, const wb_row *first) { return strcmp(x->p.note, first->p.note) == 0; }

/* Table 9 groups by the readable name (all launch shapes of a function
 * together), as the paper groups by operator, in the order of each name's
 * largest row; Sum counts every timed row, the means the counted ones. */
static void table9(const preport *rp, const wb_rtab_items *it) {
    char name[120];
    snprintf(name, sizeof name, "Table 9 (seed 000), per %s name: share of time, memory bandwidth and IPC",
             rp->t == WB_PT_KERNELS ? "kernel" : "NVTX range");
    wb_rtab_title(rp->o, name, "# = rows (kernel: launch shapes) with counters, Sum = share of the timed kernel time, Mem.% and "
                    "IPC = time-weighted mean+-std over those rows");
    int32_t *order = wb_profile_by_time(rp->p, rp->t);
    if (!order) return;
    int64_t n = rp->r->nrows;
    wb_textable t;
    wb_rtab_table9_init(&t, "Name");
    double all = 0;
    for (int64_t i = 0; i < n; i++)
        if (wb_agg_is_op_point(&rp->r->rows[i])) all += rp->r->rows[i].m.time_median_ms;
    int shown = 0;
    for (int64_t j = 0; j < n && shown < rp->top; j++) {
        const wb_row *first = &rp->r->rows[order[j]];
        int seen = 0; /* a name already printed with a larger row */
        for (int64_t q = 0; q < j && !seen; q++) seen = same_name(&rp->r->rows[order[q]], first);
        if (seen || !wb_agg_is_op_point(first)) continue;
        double sum = 0;
        for (int64_t i = 0; i < n; i++) {
            const wb_row *x = &rp->r->rows[i];
            if (wb_agg_is_op_point(x) && same_name(x, first)) sum += x->m.time_median_ms;
        }
        char label[48];
        snprintf(label, sizeof label, "%.47s", first->p.note);
        wb_rtab_table9_row(&t, it, label, first, same_name, sum, all);
        shown++;
    }
    wb_rtab_table9_row(&t, it, "Total", NULL, NULL, all, all);
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
    free(order);
}

static int by_total(const void *a, const void *b) {
    const wb_limit_split *x = *(wb_limit_split *const *)a, *y = *(wb_limit_split *const *)b;
    return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

/* One limiter table: the top groups by time, then the program's total. */
static void limiter_table(const preport *rp, const char *title, const char *first, const char *word, wb_limit_split *split, int n,
                          const char *(*label)(const wb_profile *p, int i), const wb_limit_split *all) {
    wb_limit_split **order = malloc(((size_t)n + 1) * sizeof *order);
    if (!order) return (void)fprintf(stderr, "wallbench report: out of memory for the limiter table\n");
    for (int i = 0; i < n; i++) order[i] = &split[i];
    qsort(order, (size_t)n, sizeof *order, by_total);
    char agg[900];
    snprintf(agg, sizeof agg,
             "timed launch time (ms) per %s, split by each launch's limiter: " WB_LIMIT_RESOURCES_TEXT
             "; latency: none reaches %.0f%%, or what binds has no ceiling here (atomics contended on a few "
             "words); unknown: not counted, or no ceiling; %s; the top %d, then the program",
             word, WB_LIMIT_MIN_PCT, WB_LIMIT_ROOFS_TEXT, rp->top);
    wb_rtab_title(rp->o, title, agg);
    wb_textable t;
    wb_limit_table_init(&t, first);
    for (int k = 0; k < n && k < rp->top && order[k]->total > 0; k++) wb_limit_table_row(&t, label(rp->p, (int)(order[k] - split)), order[k]);
    wb_limit_table_row(&t, "Program", all);
    wb_rtab_emit(rp->o, &t);
    wb_textable_free(&t);
    free(order);
}

static const char *kernel_label(const wb_profile *p, int i) {
    static char buf[64]; /* the table copies it */
    return wb_profile_kernel_label_in(p, i, buf, sizeof buf);
}
static const char *range_label(const wb_profile *p, int i) { return i < p->nranges ? p->ranges[i].path : "(outside any range)"; }

/* The limiter of every timed launch (limiter.h), its time split per kernel and per NVTX range:
 * both tables add the same launches, so their Program rows are one total. */
static int limiters(const preport *rp) {
    const wb_profile *p = rp->p;
    if (!p->launches) return 0;
    wb_limit_split *k = calloc((size_t)p->nkernels + 1, sizeof *k), *g = calloc((size_t)p->nranges + 2, sizeof *g), all = {{0}};
    if (!k || !g) return free(k), free(g), fprintf(stderr, "wallbench report: out of memory\n"), 2;
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (!(l->time_ms > 0)) continue;
        wb_limit lim;
        wb_limit_of(&l->c, l->time_ms, &rp->roofs.v, &lim);
        if (l->kernel >= 0 && l->kernel < p->nkernels) wb_limit_add_row(&k[l->kernel], &lim, l->time_ms);
        wb_limit_add_row(&g[l->range >= 0 && l->range < p->nranges ? l->range : p->nranges], &lim, l->time_ms);
        wb_limit_add_row(&all, &lim, l->time_ms);
    }
    limiter_table(rp, "Limiter (issue 49), per kernel: share of time by the resource nearest its measured ceiling", "Kernel", "kernel",
                  k, p->nkernels, kernel_label, &all);
    int rc = wb_report_rewrites(rp->o, p, &rp->roofs.v, rp->top, rp->suite); /* under the per-kernel table */
    if (rc == 0 && p->nranges)
        limiter_table(rp, "Limiter (issue 49), per NVTX range: the same launches by range", "NVTX range", "NVTX range", g, p->nranges + 1,
                      range_label, &all);
    free(k), free(g);
    return rc;
}

static int tables(preport *rp, const wb_gpu_table *gt, int with_table2) {
    wb_err e = {""};
    wb_rtab_roofs_init(&rp->roofs, rp->r, gt, NULL);
    if (with_table2 && wb_rtab_table2(rp->o, rp->r, gt, &e) != WB_OK)
        return fprintf(stderr, "wallbench report: %s\n", e.msg), 2;
    const char *src = wb_profile_attr(rp->p, "ceilings_source");
    if (with_table2) /* Table 2 says where a results file's ceilings come from; a profile's: */
        fprintf(rp->o->f, "%sThe measured column of this profile: ceilings from %s.\n", rp->o->md ? "\n" : "",
                src ? src : "an unrecorded source");
    wb_rtab_items with; /* the rows with counters: the population of Tables 6-9 */
    if (wb_rtab_items_init(&with, rp->r, counted) != WB_OK) return fprintf(stderr, "wallbench report: out of memory\n"), 2;
    table6(rp, &with);
    top_table(rp);
    table7(rp, &with);
    table8(rp, &with);
    table9(rp, &with);
    wb_rtab_items_free(&with);
    return 0;
}

/* The DRAM writes the counted ranges missed (schema 6, L2 flushed): what the flush after each counted
 * launch wrote back, against what its range counted. A kernel whose output fits in the L2 leaves most
 * of it dirty there; per-kernel counts (ncu's too) hold only what reached DRAM inside the range. */
static void writes_after(const wb_rtab_out *o, const wb_profile *p) {
    const int w = wb_metric_index("dram_sectors_write");
    double inside = 0, after = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (isnan(l->dram_sectors_write_after) || isnan(l->c.v[w])) continue;
        inside += l->c.v[w], after += l->dram_sectors_write_after, n++;
    }
    if (n == 0 || inside + after <= 0) return;
    fprintf(o->f, "%sDRAM writes: %.0f sectors inside the %lld counted launches' ranges, %.0f written back after them "
                  "(%.1f%%: lines the kernels left dirty in the L2; per-kernel counts, ncu's too, hold what reached DRAM "
                  "inside the range: /launches' dram_sectors_write_after)\n",
            o->md ? "\n" : "  ", inside, (long long)n, after, 100.0 * after / (inside + after));
}

int wb_report_profile(wb_rtab_out *o, wb_rows *rows, const wb_gpu_table *gt, int top, const wb_results *suite) {
    const wb_profile *p = &rows->p;
    preport rp = {o, top, p, WB_PT_KERNELS, &rows->r, {{{0}}}, "kernel", suite};
    const char *src = wb_profile_attr(p, "ceilings_source");
    FILE *f = o->f;
    fprintf(f, o->md ? "*Profile %s*\n\n" : "profile %s\n", rows->path);
    wb_profile_describe(f, rows->path, p, o->md ? "- " : "  ");
    fprintf(f, "%s%lld launches, %d kernels (name + launch shape), %d NVTX ranges; ceilings: %s\n", o->md ? "\n" : "  ",
            (long long)p->nlaunches, p->nkernels, p->nranges, src ? src : "none recorded");
    /* the board while each pass ran (profiles since 2026-12-05): disturbed or not, said before any number */
    static const char *const boards[][2] = {{"timing_pass_board", "timing pass"}, {"counter_pass_board", "counter pass"}};
    for (int i = 0; i < 2; i++) {
        const char *b = wb_profile_attr(p, boards[i][0]);
        if (b) fprintf(f, "%s%s board: %s\n", o->md ? "\n" : "  ", boards[i][1], b);
    }
    /* --rotate (profiles since 2026-12-05): which of the groups' columns came back, said before a
     * table shows one of them NaN */
    const char *rot = wb_profile_attr(p, "counter_rotation_columns");
    if (rot) fprintf(f, "%s--rotate, each group column's launches with a value / launches that held its group: %s\n",
                     o->md ? "\n" : "  ", rot);
    writes_after(o, p);
    fputc('\n', f);
    int rc = tables(&rp, gt, 1);
    if (rc == 0) rc = limiters(&rp);
    if (rc == 0 && p->nranges > 0) {
        if ((rc = wb_rows_view("report", rows, WB_PT_RANGES)) != 0) return rc;
        rp.t = WB_PT_RANGES, rp.what = "NVTX range", rp.r = &rows->r;
        fprintf(f, "%s\nPer NVTX range (each row: the launches whose innermost range stack is exactly that path)\n",
                o->md ? "\n---\n" : "");
        rc = tables(&rp, gt, 0);
    } else if (rc == 0) {
        fprintf(f, "%sno NVTX ranges in this profile: no per-range tables\n", o->md ? "\n" : "\n  ");
    }
    return rc;
}
