/* report.c - `wallbench report FILE [--markdown|--json|--csv]`: seed 000
 * Tables 2, 6, 7, 8 and 9 from one results file, or from a profile file
 * (rows.h opens either; report_profile.c: a profile's kernels and ranges). The paper aggregates kernel time
 * over TPC-H queries; the suite measures isolated kernels, so every table
 * aggregates time_median_ms over the operator points (agg.h) and says so in
 * its header line. Definitions follow the paper: bound = side of the ridge
 * (Table 6), split at 75% utilisation of the bottleneck; IPC = warp
 * instructions per active SM cycle, time-weighted geometric mean (Table 7);
 * Table 8 counts only points below 75% of L1, L2 and DRAM throughput and
 * scales IPC linearly to 100% occupancy; Table 9 = weighted mean +- std. */
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/limiter.h"
#include "harness/base/cli.h"
#include "harness/base/json.h"
#include "harness/commands.h"
#include "harness/tools/roofline.h"
#include "harness/base/textable.h"
#include "harness/tools/shape.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/report_profile.h"

typedef struct report {
    wb_rtab_out o;       /* o.f: prose and tables; with --json/--csv a null stream, the tables go to o.data */
    wb_rtab_roofs roofs; /* the measured ridge, L4's and GH200's */
    double op_time;      /* time of all operator points */
    double counted_time; /* of those, with a bound against the measured ridge */
    int counted;
} report;

static void table6(report *rp, const wb_rtab_items *it) {
    char agg[512];
    snprintf(agg, sizeof agg,
             "time_median_ms of %d operator points with counters (%.1f%% of operator time; the rest has no "
             "counters); bound = side of each ridge (measured: inst_issue G inst/s / (dram_read GB/s / 32)); "
             "utilisation of the bottleneck on this GPU: DRAM = Nsight "
             "dram__throughput %% of peak, instructions = Nsight sm__inst_executed %% of the issue peak (else G inst/s / (SMs x SMSP x clock))",
             rp->counted, rp->op_time > 0 ? 100.0 * rp->counted_time / rp->op_time : 0.0);
    wb_rtab_title(&rp->o, "Table 6 (seed 000): share of time in memory- and compute-bound points, split at 75% utilisation", agg);
    wb_textable t;
    wb_rtab_table6(&t, &rp->roofs, it);
    wb_rtab_emit(&rp->o, &t);
    wb_textable_free(&t);
    int differ = 0; /* the run's stored classification against the one printed */
    for (int i = 0; i < it->n; i++)
        differ += it->row[i]->c.bound[0] && strcmp(it->row[i]->c.bound, wb_agg_bound(it->row[i], &rp->roofs.v)) != 0;
    if (differ)
        fprintf(rp->o.f, "%snote: %d points' stored bound column differs from the bound against this roof\n",
                rp->o.md ? "\n" : "  ", differ);
}

static void table7(report *rp, const wb_rtab_items *it) {
    wb_rtab_title(&rp->o, "Table 7 (seed 000): geometric mean IPC by bound",
          "time-weighted geometric mean of ipc (warp inst per active SM cycle) over operator points with counters");
    wb_textable t;
    wb_rtab_table7(&t, &rp->roofs, it, "Points", "All points");
    wb_rtab_emit(&rp->o, &t);
    wb_textable_free(&t);
}

static void table8(report *rp, const wb_rtab_items *it) {
    wb_rtab_title(&rp->o, "Table 8 (seed 000): share of time reaching IPC 2, 3, 4 (50/75/100% of peak)",
          "time_median_ms of operator points below 75% of L1, L2 and DRAM throughput; scaled = ipc x 100 / achieved "
          "occupancy %, capped at the peak (IPC grows linearly in the added warps)");
    wb_textable t;
    int n;
    double total = wb_rtab_table8(&t, &rp->roofs, it, &n);
    wb_rtab_emit(&rp->o, &t);
    wb_textable_free(&t);
    fprintf(rp->o.f, "%s%d points counted (%.1f%% of operator time)%s\n", rp->o.md ? "\n" : "  ", n,
            rp->op_time > 0 ? 100.0 * total / rp->op_time : 0.0, rp->o.md ? "." : "");
}

static int cmp_share(const void *a, const void *b) {
    const double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return x < y ? 1 : x > y ? -1 : 0;
}

static int same_variant(const wb_row *x, const wb_row *ref) {
    return strcmp(x->p.family, ref->p.family) == 0 && strcmp(x->p.variant, ref->p.variant) == 0;
}

static void table9(report *rp, const wb_rtab_items *it) {
    wb_rtab_title(&rp->o, "Table 9 (seed 000): per variant, share of time, memory bandwidth and IPC",
          "per family/variant over operator points: # = points, Sum = share of operator time_median_ms, Mem.% = "
          "time-weighted mean+-std of Nsight dram__throughput % of peak, IPC = time-weighted mean+-std of ipc");
    /* index of each variant's first item, with its time share, sorted by share */
    double (*order)[2] = calloc((size_t)it->n + 1, sizeof *order);
    if (!order) {
        fprintf(stderr, "wallbench report: out of memory for Table 9\n");
        return;
    }
    int nv = 0;
    for (int i = 0; i < it->n; i++) {
        int j = 0;
        while (j < nv && !same_variant(it->row[i], it->row[(int)order[j][1]])) j++;
        if (j == nv) order[nv][0] = 0, order[nv][1] = (double)i, nv++;
        order[j][0] += it->row[i]->m.time_median_ms;
    }
    qsort(order, (size_t)nv, sizeof *order, cmp_share);
    wb_textable t;
    wb_rtab_table9_init(&t, "Variant");
    for (int j = 0; j < nv; j++) {
        const wb_row *x = it->row[(int)order[j][1]];
        char label[48];
        snprintf(label, sizeof label, "%s/%s", x->p.family, x->p.variant);
        wb_rtab_table9_row(&t, it, label, x, same_variant, order[j][0], rp->op_time);
    }
    wb_rtab_table9_row(&t, it, "Total", NULL, NULL, rp->op_time, rp->op_time);
    wb_rtab_emit(&rp->o, &t);
    wb_textable_free(&t);
    free(order);
}

/* The limiter (limiter.h) of every operator point, its time split per family and in all. */
static void limiter_table(report *rp, const wb_rtab_items *it) {
    char agg[900];
    snprintf(agg, sizeof agg,
             "time_median_ms of the operator points per family, split by each point's limiter: " WB_LIMIT_RESOURCES_TEXT
             "; latency: none reaches %.0f%%, or what binds has no ceiling here (atomics contended on "
             "a few words, the host link); unknown: no counters or ceilings; %s", WB_LIMIT_MIN_PCT,
             WB_LIMIT_ROOFS_TEXT);
    wb_rtab_title(&rp->o, "Limiter (issue 49): share of time by the resource nearest its measured ceiling", agg);
    const char *fam[64];
    wb_limit_split split[64] = {{{0}}}, all = {{0}};
    int nf = 0;
    for (int i = 0; i < it->n; i++) {
        const wb_row *x = it->row[i];
        wb_limit l;
        wb_limit_of(&x->c, x->m.time_median_ms, &rp->roofs.v, &l);
        int f = 0;
        while (f < nf && strcmp(fam[f], x->p.family)) f++;
        if (f == nf && nf < 64) fam[nf++] = x->p.family;
        if (f < nf) wb_limit_add_row(&split[f], &l, x->m.time_median_ms);
        wb_limit_add_row(&all, &l, x->m.time_median_ms);
    }
    wb_textable t;
    wb_limit_table_init(&t, "Family");
    for (int f = 0; f < nf; f++) wb_limit_table_row(&t, fam[f], &split[f]);
    wb_limit_table_row(&t, "All", &all);
    wb_rtab_emit(&rp->o, &t);
    wb_textable_free(&t);
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench report RESULTS.h5 [--markdown | --json | --csv] [--shape RULE]\n"
               "       wallbench report PROFILE.h5 [--markdown | --json | --csv] [--top N] [--suite RESULTS.h5]\n"
               "  seed 000 Tables 2, 6, 7, 8, 9: of a results file's operator points (wallbench run), or of a\n"
               "  profiled program's kernels and again of its NVTX ranges (wallbench profile -- CMD), with its\n"
               "  top kernels and ranges by time (--top N rows, default 20)\n"
               "  --suite RESULTS.h5: the rewrites the suite has measured (a profile's kernels that match a pair's rule\n"
               "          of harness/tools/pairs.tsv) with that pair's times in that results file\n"
               "  --shape all (default: every measured launch shape) | fastest (per point, best-of) |\n"
               "          ilp=I[,occ=O][,block=B][,sms=S] (only rows at that shape; library peers stay)\n"
               "  --json: {\"file\", \"kind\", \"shape\", \"tables\": [{\"title\", \"table\": {\"header\", \"rows\"}}]}, every\n"
               "          table (Table 2 too); a cell is text, a number (null: none), {\"value\", \"unit\"} or\n"
               "          {\"mean\", \"std\", \"unit\"}; a bare number's unit is in its row's or column's heading\n"
               "  --csv: the same tables, each after a '# <title>' line (cells as printed)\n"
               "exit codes: 0 ok, 2 bad input (unreadable or foreign file, bad option)\n");
    return 2;
}

/* Tables 2, 6-9 of a results file's operator points, to rp->o. */
static int report_results(report *rp, wb_results *r, const wb_gpu_table *gt) {
    wb_err e = {""};
    wb_rtab_roofs_init(&rp->roofs, r, gt, "measured");
    if (wb_rtab_table2(&rp->o, r, gt, &e) != WB_OK) {
        if (e.msg[0]) fprintf(stderr, "wallbench report: %s\n", e.msg);
        return 2;
    }
    wb_rtab_items ops; /* the operator points: every table's population */
    if (wb_rtab_items_init(&ops, r, wb_agg_is_op_point) != WB_OK) return fprintf(stderr, "wallbench report: out of memory\n"), 2;
    for (int i = 0; i < ops.n; i++) {
        rp->op_time += ops.row[i]->m.time_median_ms;
        if (*wb_agg_bound(ops.row[i], &rp->roofs.v)) rp->counted_time += ops.row[i]->m.time_median_ms, rp->counted++;
    }
    table6(rp, &ops);
    table7(rp, &ops);
    table8(rp, &ops);
    table9(rp, &ops);
    limiter_table(rp, &ops);
    wb_rtab_items_free(&ops);
    return 0;
}

int wb_cmd_report(int argc, char **argv) {
    const char *path = NULL, *shape_arg = NULL, *suite_path = NULL;
    int md = 0, k, first = argc, top = 20, top_given = 0;
    static const struct option longs[] = {{"markdown", no_argument, NULL, 'm'},
                                          {"json", no_argument, NULL, 'J'}, {"csv", no_argument, NULL, 'C'},
                                          {"shape", required_argument, NULL, 's'},
                                          {"top", required_argument, NULL, 't'},
                                          {"suite", required_argument, NULL, 'S'}, {0, 0, 0, 0}};
    int fmt = 0;
    wb_cli cli = {"report", longs, 0};
    const char *arg;
    while ((k = wb_cli_next(&cli, argc, argv, &arg, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return usage(stdout), 0;
        if (k == WB_CLI_BAD) return usage(stderr);
        if (k == 's') shape_arg = arg;
        else if (k == 'S') suite_path = arg;
        else if (k == 't') {
            if (wb_profile_top_count("report", arg, &top) != WB_OK) return 2;
            top_given = 1;
        } else if (k == 'J' || k == 'C') fmt = fmt && fmt != k ? -1 : k;
        else md = 1;
    }
    if (first < argc) path = argv[first++];
    if (first < argc) return fprintf(stderr, "wallbench report: unexpected argument '%s'\n", argv[first]), usage(stderr);
    if (!path) return usage(stderr);
    if (fmt < 0 || (fmt && md)) return fprintf(stderr, "wallbench report: give one of --markdown, --json, --csv\n"), usage(stderr);
    wb_err e = {""};
    wb_shape shape;
    if (shape_arg && strcmp(shape_arg, "all") != 0 && wb_shape_parse(shape_arg, &shape, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s (report also takes all, its default)\n", e.msg);
        return usage(stderr);
    }
    wb_gpu_table gt;
    wb_rows rows;
    if (wb_gpu_table_load(NULL, &gt, &e) != WB_OK) {
        fprintf(stderr, "wallbench report: %s\n", e.msg);
        return 2;
    }
    /* a profile with its launches: the limiter tables split their time (report_profile.c) */
    if (wb_rows_open_launches("report", path, &rows) != 0) return wb_gpu_table_free(&gt), 2;
    const int profile = rows.kind == WB_ROWS_PROFILE;
    int rc = 0;
    if (profile && shape_arg) rc = 2, fprintf(stderr, "wallbench report: --shape is for a results file; %s is a profile\n", path);
    if (!profile && top_given) rc = 2, fprintf(stderr, "wallbench report: --top is for a profile file; %s is a results file\n", path);
    if (!profile && suite_path) rc = 2, fprintf(stderr, "wallbench report: --suite is for a profile file; %s is a results file\n", path);
    wb_rows suite = {0};
    if (rc == 0 && suite_path) { /* the results file whose pairs the rewrites table times */
        if (wb_rows_open("report", suite_path, &suite) != 0) rc = 2, suite_path = NULL;
        else if (suite.kind != WB_ROWS_RESULTS)
            rc = 2, fprintf(stderr, "wallbench report: --suite wants a results file (wallbench run); %s is a profile\n", suite_path);
    }
    char rule[96] = "every measured launch shape";
    if (rc == 0 && !profile && shape_arg && strcmp(shape_arg, "all") != 0) {
        if (wb_shape_filter(&rows.r, &shape) < 0) rc = 2, fprintf(stderr, "wallbench report: out of memory\n");
        wb_shape_text(&shape, rule, sizeof rule);
    }
    FILE *prose = rc == 0 && fmt ? fopen("/dev/null", "w") : stdout; /* --json/--csv: the tables alone */
    if (!prose) rc = 2, fprintf(stderr, "wallbench report: /dev/null: cannot open\n");
    if (rc) {
        if (suite_path) wb_rows_free(&suite);
        wb_rows_free(&rows);
        wb_gpu_table_free(&gt);
        return rc;
    }
    if (!profile)
        fprintf(prose, md ? "*Launch-shape rule: %s (wallbench report --shape).*\n\n" : "launch-shape rule: %s (--shape)\n",
                rule);
    report rp = {{prose, md, fmt, stdout, 0, ""}, {{{0}}}, 0, 0, 0};
    if (fmt == 'J') {
        printf("{");
        wb_json_key(stdout, "file", 1);
        wb_json_str(stdout, path);
        wb_json_key(stdout, "kind", 0);
        wb_json_str(stdout, profile ? "profile" : "results");
        wb_json_key(stdout, "shape", 0);
        if (profile) fputs("null", stdout);
        else wb_json_str(stdout, rule);
        wb_json_key(stdout, "tables", 0);
        printf("[");
    }
    rc = profile ? wb_report_profile(&rp.o, &rows, &gt, top, suite_path ? &suite.r : NULL) : report_results(&rp, &rows.r, &gt);
    if (fmt == 'J') printf("]}\n");
    if (prose != stdout) fclose(prose);
    if (suite_path) wb_rows_free(&suite);
    wb_rows_free(&rows);
    wb_gpu_table_free(&gt);
    return rc;
}
