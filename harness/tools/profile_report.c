/* profile_report.c - `wallbench report PROFILE.h5 [--markdown] [--top N]`:
 * seed 000's Tables 6-9 for one program, from its kernels (kernel = name +
 * launch shape) and again from its NVTX ranges, plus the top kernels and
 * ranges by time with the columns the paper discusses. The definitions are
 * report.c's (agg.h): bound = side of each ridge, split at 75% utilisation
 * of the bottleneck, IPC means weighted by time; the population is the
 * profile's timed rows with counters, weighted by their summed time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/textable.h"
#include "harness/tools/agg.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/roofline.h"

typedef struct preport {
    FILE *f;
    int md, top;
    const char *path;
    const wb_profile *p;
    wb_prof_table t;    /* kernels or ranges */
    const wb_results *r; /* the same rows as results rows (profile_tools.h) */
    wb_gpu_view v;
    wb_roof l4, gh200;
    const char *what;   /* "kernel" / "NVTX range" */
    double l4_ridge, gh200_ridge; /* as the paper prints them (gpus.tsv) */
} preport;

static void title(const preport *rp, const char *name, const char *aggregated) {
    if (rp->md) fprintf(rp->f, "\n**%s**\n\n*Aggregated: %s*\n\n", name, aggregated);
    else fprintf(rp->f, "\n%s\n  aggregated: %s\n", name, aggregated);
}

static void share_cell(wb_textable *t, int row, int col, double part, double whole) {
    if (whole > 0) wb_textable_set(t, row, col, "%.1f%%", 100.0 * part / whole);
    else wb_textable_set(t, row, col, "-");
}

static const char *bound_of(const preport *rp, const wb_row *x, int which) {
    if (which == 0) return wb_agg_bound(x, &rp->v);
    return wb_roof_bound(which == 1 ? &rp->l4 : &rp->gh200, x->c.inst_per_sector);
}

static int counted(const wb_row *x) {
    return wb_agg_is_op_point(x) && isfinite(x->c.inst_per_sector);
}

static void table6(const preport *rp) {
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
    title(rp, name, agg);
    wb_textable t;
    wb_textable_init(&t, 4);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "Share of time");
    wb_textable_set(&t, h, 1, "%s ridge %.1f", rp->v.kind, wb_roof_ridge(&rp->v.roof));
    wb_textable_set(&t, h, 2, "L4 ridge %.1f", rp->l4_ridge);
    wb_textable_set(&t, h, 3, "GH200 ridge %.1f", rp->gh200_ridge);
    static const char *const labels[6] = {"Memory bound", "  memory bandwidth >= 75%", "  memory bandwidth < 75%",
                                          "Compute bound", "  instr. throughput >= 75%", "  instr. throughput < 75%"};
    double cell[6][3] = {{0}}, total[3] = {0};
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!counted(x)) continue;
        double w = x->m.time_median_ms, mem = wb_agg_mem_pct(x), inst = wb_agg_inst_pct(x, &rp->v);
        for (int k = 0; k < 3; k++) {
            const char *b = bound_of(rp, x, k);
            int base = strcmp(b, "memory") == 0 ? 0 : strcmp(b, "compute") == 0 ? 3 : -1;
            if (base < 0) continue;
            double util = base == 0 ? mem : inst;
            total[k] += w;
            cell[base][k] += w;
            if (isfinite(util)) cell[base + (util >= WB_AGG_SATURATED_PCT ? 1 : 2)][k] += w;
        }
    }
    for (int i = 0; i < 6; i++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%s", labels[i]);
        for (int k = 0; k < 3; k++) share_cell(&t, row, 1 + k, cell[i][k], total[k]);
    }
    wb_textable_print(rp->f, &t, rp->md);
    wb_textable_free(&t);
    if (!isfinite(wb_roof_ridge(&rp->v.roof)))
        fprintf(rp->f, "%snote: the profile has no measured ceilings; the measured column is empty\n", rp->md ? "\n" : "  ");
}

static void cell_num(wb_textable *t, int row, int col, double v, int decimals) {
    char buf[32];
    wb_textable_set(t, row, col, "%s", wb_textable_num(buf, sizeof buf, v, decimals));
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
    title(rp, name, agg);
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
            wb_profile_kernel_label(k, label, sizeof label);
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
        wb_textable_set(&t, row, 0, "%d", i);
        wb_textable_set(&t, row, 1, "%s", label);
        wb_textable_set(&t, row, 2, "%lld", (long long)launches);
        cell_num(&t, row, 3, total, 3);
        if (isfinite(share)) wb_textable_set(&t, row, 4, "%.1f%%", share);
        else wb_textable_set(&t, row, 4, "-");
        cell_num(&t, row, 5, c->inst_per_sector, 2);
        cell_num(&t, row, 6, metric(c, "ipc"), 2);
        cell_num(&t, row, 7, metric(c, "occupancy_achieved_pct"), 0);
        cell_num(&t, row, 8, metric(c, "l1_hit_pct"), 0);
        cell_num(&t, row, 9, metric(c, "l2_hit_pct"), 0);
        for (int g = 0; g < WB_STALL_GROUPS; g++) cell_num(&t, row, 10 + g, c->stall[g], 2);
        wb_textable_set(&t, row, 17, "%s", c->bound[0] ? c->bound : "-");
    }
    wb_textable_print(rp->f, &t, rp->md);
    wb_textable_free(&t);
    if (left)
        fprintf(rp->f, "%s%lld more %ss (%.3f ms) not shown (--top)\n", rp->md ? "\n" : "  ", (long long)left, rp->what,
                left_ms);
    free(order);
}

/* (time, value) over the counted rows; side: -1 all, 0 memory, 1 compute
 * against ridge `which`. */
static int collect(const preport *rp, int side, int which, const char *column, double *v, double *w) {
    int n = 0;
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!counted(x)) continue;
        if (side >= 0 && strcmp(bound_of(rp, x, which), side ? "compute" : "memory") != 0) continue;
        v[n] = wb_agg_metric(x, column);
        w[n] = x->m.time_median_ms;
        n++;
    }
    return n;
}

static void table7(const preport *rp, double *v, double *w) {
    char name[96];
    snprintf(name, sizeof name, "Table 7 (seed 000), per %s: geometric mean IPC by bound", rp->what);
    title(rp, name, "time-weighted geometric mean of ipc (warp inst per active SM cycle)");
    wb_textable t;
    wb_textable_init(&t, 4);
    int h = wb_textable_add(&t);
    const char *heads[4] = {"", rp->v.kind, "L4", "GH200"};
    for (int c = 0; c < 4; c++) wb_textable_set(&t, h, c, c ? "%s ridge" : "%s", heads[c]);
    const char *labels[3] = {"All", "Memory bound", "Compute bound"};
    for (int s = -1; s < 2; s++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%s", labels[s + 1]);
        for (int k = 0; k < 3; k++) cell_num(&t, row, 1 + k, wb_agg_geomean(v, w, collect(rp, s, k, "ipc", v, w)), 2);
    }
    wb_textable_print(rp->f, &t, rp->md);
    wb_textable_free(&t);
}

static void table8(const preport *rp) {
    double peak = rp->v.smsp_per_sm > 0 ? rp->v.smsp_per_sm : NAN, total = 0, reach[3][2] = {{0}};
    char name[120];
    snprintf(name, sizeof name, "Table 8 (seed 000), per %s: share of time reaching IPC 50/75/100%% of peak", rp->what);
    title(rp, name, "time of rows below 75% of L1, L2 and DRAM throughput; scaled = ipc x 100 / achieved occupancy %, "
                    "capped at the peak");
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        double ipc = wb_agg_metric(x, "ipc");
        if (!counted(x) || !wb_agg_below_all_tiers(x) || !isfinite(ipc)) continue;
        double occ = wb_agg_metric(x, "occupancy_achieved_pct"), time = x->m.time_median_ms;
        double scaled = isfinite(occ) && occ > 0 ? fmin(ipc * 100.0 / occ, peak) : NAN;
        total += time;
        for (int k = 0; k < 3; k++) {
            double thr = peak * (0.5 + 0.25 * k) - 1e-9;
            if (ipc >= thr) reach[k][0] += time;
            if (scaled >= thr) reach[k][1] += time;
        }
    }
    wb_textable t;
    wb_textable_init(&t, 3);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "IPC (%% of peak)");
    wb_textable_set(&t, h, 1, "Measured");
    wb_textable_set(&t, h, 2, "Occupancy-scaled");
    for (int k = 0; k < 3; k++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%.1f (%d%%)", peak * (0.5 + 0.25 * k), 50 + 25 * k);
        share_cell(&t, row, 1, reach[k][0], total);
        share_cell(&t, row, 2, reach[k][1], total);
    }
    wb_textable_print(rp->f, &t, rp->md);
    wb_textable_free(&t);
}

static void mean_cell(wb_textable *t, int row, int col, const double *v, const double *w, int n, int pct) {
    double mean, std;
    wb_agg_mean_std(v, w, n, &mean, &std);
    if (isnan(mean)) wb_textable_set(t, row, col, "-");
    else if (pct) wb_textable_set(t, row, col, "%.0f+-%.0f%%", mean, std);
    else wb_textable_set(t, row, col, "%.2f+-%.2f", mean, std);
}

/* Table 9 groups by the readable name (all launch shapes of a function
 * together), as the paper groups by operator. */
static void table9(const preport *rp, double *v, double *w) {
    char name[120];
    snprintf(name, sizeof name, "Table 9 (seed 000), per %s name: share of time, memory bandwidth and IPC",
             rp->t == WB_PT_KERNELS ? "kernel" : "NVTX range");
    title(rp, name, "# = rows (kernel: launch shapes) with counters, Sum = share of the timed kernel time, Mem.% and "
                    "IPC = time-weighted mean+-std over those rows");
    int32_t *order = wb_profile_by_time(rp->p, rp->t);
    if (!order) return;
    int64_t n = rp->r->nrows;
    wb_textable t;
    wb_textable_init(&t, 5);
    int h = wb_textable_add(&t);
    const char *heads[5] = {"Name", "#", "Sum", "Mem.%", "IPC"};
    for (int c = 0; c < 5; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    double all = 0;
    for (int64_t i = 0; i < n; i++)
        if (wb_agg_is_op_point(&rp->r->rows[i])) all += rp->r->rows[i].m.time_median_ms;
    int shown = 0;
    for (int64_t j = 0; j < n && shown < rp->top; j++) {
        const wb_row *first = &rp->r->rows[order[j]];
        int seen = 0; /* a name already printed with a larger row */
        for (int64_t q = 0; q < j && !seen; q++) seen = strcmp(rp->r->rows[order[q]].p.note, first->p.note) == 0;
        if (seen || !wb_agg_is_op_point(first)) continue;
        int m = 0, k2 = 0;
        double sum = 0;
        for (int64_t i = 0; i < n; i++) {
            const wb_row *x = &rp->r->rows[i];
            if (!wb_agg_is_op_point(x) || strcmp(x->p.note, first->p.note) != 0) continue;
            sum += x->m.time_median_ms;
            if (!counted(x)) continue;
            v[m] = wb_agg_mem_pct(x), w[m] = x->m.time_median_ms, m++;
        }
        int row = wb_textable_add(&t);
        char label[48];
        snprintf(label, sizeof label, "%.47s", first->p.note);
        wb_textable_set(&t, row, 0, "%s", label);
        wb_textable_set(&t, row, 1, "%d", m);
        share_cell(&t, row, 2, sum, all);
        mean_cell(&t, row, 3, v, w, m, 1);
        for (int64_t i = 0; i < n; i++) {
            const wb_row *x = &rp->r->rows[i];
            if (!counted(x) || strcmp(x->p.note, first->p.note) != 0) continue;
            v[k2] = wb_agg_metric(x, "ipc"), w[k2] = x->m.time_median_ms, k2++;
        }
        mean_cell(&t, row, 4, v, w, k2, 0);
        shown++;
    }
    int row = wb_textable_add(&t);
    wb_textable_set(&t, row, 0, "Total");
    int m = collect(rp, -1, 0, "dram_throughput_pct", v, w);
    wb_textable_set(&t, row, 1, "%d", m);
    share_cell(&t, row, 2, all, all);
    mean_cell(&t, row, 3, v, w, m, 1);
    m = collect(rp, -1, 0, "ipc", v, w);
    mean_cell(&t, row, 4, v, w, m, 0);
    wb_textable_print(rp->f, &t, rp->md);
    wb_textable_free(&t);
    free(order);
}

static int tables(preport *rp, const wb_gpu_table *gt, int with_table2) {
    wb_results r;
    wb_err e = {""};
    if (wb_profile_as_results(rp->p, rp->t, rp->path, &r, &e) != WB_OK)
        return fprintf(stderr, "wallbench report: %s\n", e.msg), 2;
    rp->r = &r;
    wb_gpu_view_init(&r, gt, &rp->v);
    int rc = 0;
    if (with_table2 && wb_roofline_print(rp->f, &r, gt, rp->md, &e) != WB_OK)
        rc = 2, fprintf(stderr, "wallbench report: %s\n", e.msg);
    const char *src = wb_profile_attr(rp->p, "ceilings_source");
    if (with_table2 && rc == 0) /* Table 2 says where a results file's ceilings come from; a profile's: */
        fprintf(rp->f, "%sThe measured column of this profile: ceilings from %s.\n", rp->md ? "\n" : "",
                src ? src : "an unrecorded source");
    double *v = malloc((size_t)(r.nrows + 1) * sizeof *v), *w = malloc((size_t)(r.nrows + 1) * sizeof *w);
    if (rc == 0 && (!v || !w)) rc = 2, fprintf(stderr, "wallbench report: out of memory\n");
    if (rc == 0) {
        table6(rp);
        top_table(rp);
        table7(rp, v, w);
        table8(rp);
        table9(rp, v, w);
    }
    free(v), free(w);
    wb_results_free(&r);
    return rc;
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench report PROFILE.h5 [--markdown] [--top N]\n"
               "  seed 000 Tables 2, 6-9 for a profiled program (wallbench profile -- CMD), per kernel and per NVTX\n"
               "  range; --top N: rows of the top tables (default 20)\n");
    return 2;
}

int wb_profile_cmd_report(int argc, char **argv) {
    static const struct option longs[] = {{"markdown", no_argument, NULL, 'm'},
                                          {"top", required_argument, NULL, 't'}, {0, 0, 0, 0}};
    wb_cli cli = {"report", longs, 0};
    const char *arg;
    int k, first = argc, md = 0, top = 20;
    while ((k = wb_cli_next(&cli, argc, argv, &arg, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return usage(stdout), 0;
        if (k == WB_CLI_BAD) return usage(stderr);
        if (k == 'm') md = 1;
        else if (wb_profile_top("report", arg, &top) != WB_OK) return 2;
    }
    if (argc - first != 1) return usage(stderr);
    const char *path = argv[first];
    wb_profile p;
    if (wb_profile_load("report", path, &p, 0) != WB_OK) return 2;
    wb_gpu_table gt;
    wb_err e = {""};
    if (wb_gpu_table_load(NULL, &gt, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s\n", e.msg);
        wb_profile_free(&p);
        return 2;
    }
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(&gt), *gh200 = wb_gpu_ref_gh200(&gt);
    preport rp = {stdout, md, top, path, &p, WB_PT_KERNELS, NULL, {{0}}, wb_gpu_ref_roof(l4), wb_gpu_ref_roof(gh200), "kernel",
                  l4 ? l4->ridge : NAN, gh200 ? gh200->ridge : NAN};
    const char *src = wb_profile_attr(&p, "ceilings_source");
    printf(md ? "*Profile %s*\n\n" : "profile %s\n", path);
    wb_profile_describe(stdout, path, &p, md ? "- " : "  ");
    printf("%s%lld launches, %d kernels (name + launch shape), %d NVTX ranges; ceilings: %s\n%s", md ? "\n" : "  ",
           (long long)p.nlaunches, p.nkernels, p.nranges, src ? src : "none recorded", "\n");
    int rc = tables(&rp, &gt, 1);
    if (rc == 0 && p.nranges > 0) {
        rp.t = WB_PT_RANGES, rp.what = "NVTX range";
        printf("%s\nPer NVTX range (each row: the launches whose innermost range stack is exactly that path)\n",
               md ? "\n---\n" : "");
        rc = tables(&rp, &gt, 0);
    } else if (rc == 0) {
        printf("%sno NVTX ranges in this profile: no per-range tables\n", md ? "\n" : "\n  ");
    }
    wb_gpu_table_free(&gt);
    wb_profile_free(&p);
    return rc;
}
