/* report.c - `wallbench report <results.h5> [--markdown]`: seed 000 Tables
 * 2, 6, 7, 8 and 9 from one results file. The paper aggregates kernel time
 * over TPC-H queries; the suite measures isolated kernels, so every table
 * aggregates time_median_ms over the operator points (agg.h) and says so in
 * its header line. Definitions follow the paper: bound = side of the ridge
 * (Table 6), split at 75% utilisation of the bottleneck; IPC = warp
 * instructions per active SM cycle, time-weighted geometric mean (Table 7);
 * Table 8 counts only points below 75% of L1, L2 and DRAM throughput and
 * scales IPC linearly to 100% occupancy; Table 9 = weighted mean +- std. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/base/cli.h"
#include "harness/base/json.h"
#include "harness/commands.h"
#include "harness/tools/roofline.h"
#include "harness/base/textable.h"
#include "harness/tools/shape.h"
#include "harness/tools/profile_tools.h"

typedef struct report {
    FILE *f;             /* prose and tables; with --json/--csv a null stream, the tables go to data */
    int md;
    int fmt;             /* 0 text or markdown, 'J' --json, 'C' --csv */
    FILE *data;
    int ntables;
    char cur_title[256];
    const wb_results *r;
    wb_gpu_view v;
    wb_roof l4, gh200;   /* the paper's roofs, for the bound against their ridges */
    double l4_ridge, gh200_ridge; /* as the paper prints them */
    double op_time;      /* time of all operator points */
    double counted_time; /* of those, with a bound against the measured ridge */
    int counted;
} report;

static void title(report *rp, const char *name, const char *aggregated) {
    snprintf(rp->cur_title, sizeof rp->cur_title, "%s", name);
    if (rp->md) fprintf(rp->f, "\n**%s**\n\n*Aggregated: %s*\n\n", name, aggregated);
    else fprintf(rp->f, "\n%s\n  aggregated: %s\n", name, aggregated);
}

/* One table: printed, or with --json/--csv written to rp->data under its title. */
static void emit(report *rp, const wb_textable *t) {
    if (!rp->fmt) {
        wb_textable_print(rp->f, t, rp->md);
        return;
    }
    if (rp->fmt == 'C') {
        fprintf(rp->data, "%s# %s\n", rp->ntables ? "\n" : "", rp->cur_title);
        wb_textable_csv(rp->data, t);
    } else {
        fputs(rp->ntables ? ",{" : "{", rp->data);
        wb_json_key(rp->data, "title", 1);
        wb_json_str(rp->data, rp->cur_title);
        wb_json_key(rp->data, "table", 0);
        wb_textable_json(rp->data, t);
        fputc('}', rp->data);
    }
    rp->ntables++;
}

/* Bound against the measured ridge (which 0), L4's (1) or GH200's (2),
 * recomputed from inst_per_sector as the roofline figures draw it. */
static const char *bound_of(const report *rp, const wb_row *x, int which) {
    if (which == 0) return wb_agg_bound(x, &rp->v);
    return wb_roof_bound(which == 1 ? &rp->l4 : &rp->gh200, x->c.inst_per_sector);
}

static void share_cell(wb_textable *t, int row, int col, double part, double whole) {
    if (whole > 0) wb_textable_set(t, row, col, "%.1f%%", 100.0 * part / whole);
    else wb_textable_set(t, row, col, "-");
}

static void table6(report *rp) {
    char agg[512];
    snprintf(agg, sizeof agg,
             "time_median_ms of %d operator points with counters (%.1f%% of operator time; the rest has no "
             "counters); bound = side of each ridge (measured: inst_issue G inst/s / (dram_read GB/s / 32)); "
             "utilisation of the bottleneck on this GPU: DRAM = Nsight "
             "dram__throughput %% of peak, instructions = Nsight sm__inst_executed %% of the issue peak (else G inst/s / (SMs x SMSP x clock))",
             rp->counted, rp->op_time > 0 ? 100.0 * rp->counted_time / rp->op_time : 0.0);
    title(rp, "Table 6 (seed 000): share of time in memory- and compute-bound points, split at 75% utilisation", agg);
    wb_textable t;
    wb_textable_init(&t, 4);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "Share of time");
    wb_textable_set(&t, h, 1, "measured ridge %.1f", wb_roof_ridge(&rp->v.roof));
    wb_textable_set(&t, h, 2, "L4 ridge %.1f", rp->l4_ridge);
    wb_textable_set(&t, h, 3, "GH200 ridge %.1f", rp->gh200_ridge);
    static const char *const labels[6] = {"Memory bound", "  memory bandwidth >= 75%", "  memory bandwidth < 75%",
                                          "Compute bound", "  instr. throughput >= 75%", "  instr. throughput < 75%"};
    double cell[6][3] = {{0}};
    double total[3] = {0};
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!wb_agg_is_op_point(x)) continue;
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
    emit(rp, &t);
    wb_textable_free(&t);
    int differ = 0; /* the run's stored classification against the one printed */
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        differ += wb_agg_is_op_point(x) && x->c.bound[0] && strcmp(x->c.bound, wb_agg_bound(x, &rp->v)) != 0;
    }
    if (differ)
        fprintf(rp->f, "%snote: %d points' stored bound column differs from the bound against this roof\n",
                rp->md ? "\n" : "  ", differ);
}

/* Arrays of (time, value) over the operator points that pass keep(). */
typedef int (*keep_fn)(const report *rp, const wb_row *x, int arg);
static int collect(const report *rp, keep_fn keep, int arg, double (*value)(const report *, const wb_row *),
                   double *v, double *w) {
    int n = 0;
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!wb_agg_is_op_point(x) || (keep && !keep(rp, x, arg))) continue;
        v[n] = value(rp, x);
        w[n] = x->m.time_median_ms;
        n++;
    }
    return n;
}

static double ipc_of(const report *rp, const wb_row *x) { (void)rp; return wb_agg_metric(x, "ipc"); }
static int keep_bound(const report *rp, const wb_row *x, int arg) {
    const char *b = bound_of(rp, x, arg / 2);
    return strcmp(b, arg % 2 ? "compute" : "memory") == 0;
}

static void table7(report *rp, double *v, double *w) {
    title(rp, "Table 7 (seed 000): geometric mean IPC by bound",
          "time-weighted geometric mean of ipc (warp inst per active SM cycle) over operator points with counters");
    wb_textable t;
    wb_textable_init(&t, 4);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "Points");
    wb_textable_set(&t, h, 1, "measured ridge");
    wb_textable_set(&t, h, 2, "L4 ridge");
    wb_textable_set(&t, h, 3, "GH200 ridge");
    char buf[32];
    int all = wb_textable_add(&t);
    wb_textable_set(&t, all, 0, "All points");
    int n = collect(rp, NULL, 0, ipc_of, v, w);
    for (int k = 0; k < 3; k++) wb_textable_set(&t, all, 1 + k, "%s", wb_textable_num(buf, sizeof buf, wb_agg_geomean(v, w, n), 2));
    for (int side = 0; side < 2; side++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, side ? "Compute bound" : "Memory bound");
        for (int k = 0; k < 3; k++) {
            n = collect(rp, keep_bound, 2 * k + side, ipc_of, v, w);
            wb_textable_set(&t, row, 1 + k, "%s", wb_textable_num(buf, sizeof buf, wb_agg_geomean(v, w, n), 2));
        }
    }
    emit(rp, &t);
    wb_textable_free(&t);
}

static int keep_unsaturated(const report *rp, const wb_row *x, int arg) {
    (void)rp, (void)arg;
    return wb_agg_below_all_tiers(x) && isfinite(wb_agg_metric(x, "ipc"));
}

static void table8(report *rp, double *v, double *w) {
    double peak = rp->v.smsp_per_sm > 0 ? rp->v.smsp_per_sm : NAN;
    title(rp, "Table 8 (seed 000): share of time reaching IPC 2, 3, 4 (50/75/100% of peak)",
          "time_median_ms of operator points below 75% of L1, L2 and DRAM throughput; scaled = ipc x 100 / achieved "
          "occupancy %, capped at the peak (IPC grows linearly in the added warps)");
    int n = collect(rp, keep_unsaturated, 0, ipc_of, v, w);
    double total = 0, reach[3][2] = {{0}};
    int k = 0;
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!wb_agg_is_op_point(x) || !keep_unsaturated(rp, x, 0)) continue;
        double ipc = v[k], occ = wb_agg_metric(x, "occupancy_achieved_pct"), time = w[k];
        k++;
        double scaled = isfinite(occ) && occ > 0 ? fmin(ipc * 100.0 / occ, peak) : NAN;
        total += time;
        for (int t = 0; t < 3; t++) {
            double thr = peak * (0.5 + 0.25 * t) - 1e-9;
            if (ipc >= thr) reach[t][0] += time;
            if (scaled >= thr) reach[t][1] += time;
        }
    }
    wb_textable t;
    wb_textable_init(&t, 3);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "IPC (%% of peak)");
    wb_textable_set(&t, h, 1, "Measured");
    wb_textable_set(&t, h, 2, "Occupancy-scaled");
    for (int i = 0; i < 3; i++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%.1f (%d%%)", peak * (0.5 + 0.25 * i), 50 + 25 * i);
        share_cell(&t, row, 1, reach[i][0], total);
        share_cell(&t, row, 2, reach[i][1], total);
    }
    emit(rp, &t);
    wb_textable_free(&t);
    fprintf(rp->f, "%s%d points counted (%.1f%% of operator time)%s\n", rp->md ? "\n" : "  ", n,
            rp->op_time > 0 ? 100.0 * total / rp->op_time : 0.0, rp->md ? "." : "");
}

static int cmp_share(const void *a, const void *b) {
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return x < y ? 1 : x > y ? -1 : 0;
}

static int keep_variant(const report *rp, const wb_row *x, int arg) {
    const wb_row *ref = &rp->r->rows[arg];
    return strcmp(x->p.family, ref->p.family) == 0 && strcmp(x->p.variant, ref->p.variant) == 0;
}
static double mem_of(const report *rp, const wb_row *x) { (void)rp; return wb_agg_mem_pct(x); }

static void mean_cell(wb_textable *t, int row, int col, const double *v, const double *w, int n, int pct) {
    double mean, std;
    wb_agg_mean_std(v, w, n, &mean, &std);
    if (isnan(mean)) wb_textable_set(t, row, col, "-");
    else if (pct) wb_textable_set(t, row, col, "%.0f+-%.0f%%", mean, std);
    else wb_textable_set(t, row, col, "%.2f+-%.2f", mean, std);
}

static void table9(report *rp, double *v, double *w) {
    title(rp, "Table 9 (seed 000): per variant, share of time, memory bandwidth and IPC",
          "per family/variant over operator points: # = points, Sum = share of operator time_median_ms, Mem.% = "
          "time-weighted mean+-std of Nsight dram__throughput % of peak, IPC = time-weighted mean+-std of ipc");
    /* first row index of each variant, with its time share, sorted by share */
    double (*order)[2] = calloc((size_t)rp->r->nrows + 1, sizeof *order);
    if (!order) {
        fprintf(stderr, "wallbench report: out of memory for Table 9\n");
        return;
    }
    int nv = 0;
    for (int64_t i = 0; i < rp->r->nrows; i++) {
        const wb_row *x = &rp->r->rows[i];
        if (!wb_agg_is_op_point(x)) continue;
        int j = 0;
        while (j < nv && !keep_variant(rp, x, (int)order[j][1])) j++;
        if (j == nv) order[nv][0] = 0, order[nv][1] = (double)i, nv++;
        order[j][0] += x->m.time_median_ms;
    }
    qsort(order, (size_t)nv, sizeof *order, cmp_share);
    wb_textable t;
    wb_textable_init(&t, 5);
    int h = wb_textable_add(&t);
    const char *heads[5] = {"Variant", "#", "Sum", "Mem.%", "IPC"};
    for (int c = 0; c < 5; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    for (int j = 0; j <= nv; j++) {
        int row = wb_textable_add(&t), total = j == nv;
        const wb_row *x = total ? NULL : &rp->r->rows[(int)order[j][1]];
        keep_fn keep = total ? NULL : keep_variant;
        int arg = total ? 0 : (int)order[j][1];
        if (total) wb_textable_set(&t, row, 0, "Total");
        else wb_textable_set(&t, row, 0, "%s/%s", x->p.family, x->p.variant);
        int n = collect(rp, keep, arg, mem_of, v, w);
        wb_textable_set(&t, row, 1, "%d", n);
        share_cell(&t, row, 2, total ? rp->op_time : order[j][0], rp->op_time);
        mean_cell(&t, row, 3, v, w, n, 1);
        n = collect(rp, keep, arg, ipc_of, v, w);
        mean_cell(&t, row, 4, v, w, n, 0);
    }
    emit(rp, &t);
    wb_textable_free(&t);
    free(order);
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench report <results.h5> [--markdown | --json | --csv] [--shape RULE]\n"
               "  seed 000 Tables 2, 6, 7, 8, 9 from one results file\n"
               "  --shape all (default: every measured launch shape) | fastest (per point, best-of) |\n"
               "          ilp=I[,occ=O][,block=B][,sms=S] (only rows at that shape; library peers stay)\n"
               "  --json: {\"file\", \"shape\", \"tables\": [{\"title\", \"table\": {\"header\", \"rows\"}}]} of Tables 6-9;\n"
               "  --csv: each of those tables after a '# <title>' line (cells as printed; Table 2: wallbench roofline)\n"
               "exit codes: 0 ok, 2 bad input (unreadable or foreign file, bad option)\n");
    return 2;
}

int wb_cmd_report(int argc, char **argv) {
    if (wb_profile_in_argv(argc, argv)) return wb_profile_cmd_report(argc, argv); /* profile_report.c */
    const char *path = NULL, *shape_arg = NULL;
    int md = 0, k, first = argc;
    static const struct option longs[] = {{"markdown", no_argument, NULL, 'm'},
                                          {"json", no_argument, NULL, 'J'}, {"csv", no_argument, NULL, 'C'},
                                          {"shape", required_argument, NULL, 's'}, {0, 0, 0, 0}};
    int fmt = 0;
    wb_cli cli = {"report", longs, 0};
    const char *arg;
    while ((k = wb_cli_next(&cli, argc, argv, &arg, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return usage(stdout), 0;
        if (k == WB_CLI_BAD) return usage(stderr);
        if (k == 's') shape_arg = arg;
        else if (k == 'J' || k == 'C') fmt = fmt && fmt != k ? -1 : k;
        else md = 1;
    }
    if (first < argc) path = argv[first++];
    if (first < argc) return fprintf(stderr, "wallbench report: unexpected argument '%s'\n", argv[first]), usage(stderr);
    if (!path) return usage(stderr);
    if (fmt < 0 || (fmt && md)) return fprintf(stderr, "wallbench report: give one of --markdown, --json, --csv\n"), usage(stderr);
    wb_err e = {""};
    wb_shape shape;
    if (shape_arg && strcmp(shape_arg, "all") != 0 && wb_shape_parse(shape_arg, &shape, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s\n", e.msg);
        return usage(stderr);
    }
    wb_gpu_table gt;
    wb_results r;
    if (wb_gpu_table_load(NULL, &gt, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s\n", e.msg);
        return 2;
    }
    if (wb_results_open(path, &r, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s\n", e.msg);
        wb_gpu_table_free(&gt);
        return 2;
    }
    char rule[96] = "every measured launch shape";
    if (shape_arg && strcmp(shape_arg, "all") != 0) {
        if (wb_shape_filter(&r, &shape) < 0) {
            fprintf(stderr, "wallbench report: out of memory\n");
            wb_results_free(&r);
            wb_gpu_table_free(&gt);
            return 2;
        }
        wb_shape_text(&shape, rule, sizeof rule);
    }
    FILE *prose = fmt ? fopen("/dev/null", "w") : stdout; /* --json/--csv: the tables alone */
    if (!prose) {
        fprintf(stderr, "wallbench report: /dev/null: cannot open\n");
        wb_results_free(&r);
        wb_gpu_table_free(&gt);
        return 2;
    }
    fprintf(prose, md ? "*Launch-shape rule: %s (wallbench report --shape).*\n\n" : "launch-shape rule: %s (--shape)\n",
            rule);
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(&gt), *gh200 = wb_gpu_ref_gh200(&gt);
    report rp = {prose, md, fmt, stdout, 0, "", &r, {{0}}, wb_gpu_ref_roof(l4), wb_gpu_ref_roof(gh200),
                 l4 ? l4->ridge : NAN, gh200 ? gh200->ridge : NAN, 0, 0, 0};
    if (fmt == 'J') {
        printf("{");
        wb_json_key(stdout, "file", 1);
        wb_json_str(stdout, path);
        wb_json_key(stdout, "shape", 0);
        wb_json_str(stdout, rule);
        wb_json_key(stdout, "tables", 0);
        printf("[");
    }
    wb_gpu_view_init(&r, &gt, &rp.v);
    for (int64_t i = 0; i < r.nrows; i++) {
        if (!wb_agg_is_op_point(&r.rows[i])) continue;
        rp.op_time += r.rows[i].m.time_median_ms;
        if (*wb_agg_bound(&r.rows[i], &rp.v)) rp.counted_time += r.rows[i].m.time_median_ms, rp.counted++;
    }
    int rc = wb_roofline_print(prose, &r, &gt, md, &e) == WB_OK ? 0 : 2;
    double *v = malloc((size_t)(r.nrows + 1) * sizeof *v), *w = malloc((size_t)(r.nrows + 1) * sizeof *w);
    if (rc == 0 && (!v || !w)) fprintf(stderr, "wallbench report: out of memory\n"), rc = 2;
    if (rc == 0) {
        table6(&rp);
        table7(&rp, v, w);
        table8(&rp, v, w);
        table9(&rp, v, w);
    } else if (e.msg[0]) fprintf(stderr, "wallbench report: %s\n", e.msg);
    if (fmt == 'J') printf("]}\n");
    if (prose != stdout) fclose(prose);
    free(v);
    free(w);
    wb_results_free(&r);
    wb_gpu_table_free(&gt);
    return rc;
}
