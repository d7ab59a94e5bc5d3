/* roofline.c - `wallbench roofline [results.h5] [--markdown]`: seed 000
 * Table 2 (GPU comparison) for the file's GPU next to L4 and GH200. The
 * paper's columns are its own numbers (gpus.tsv rows l4 and gh200); the
 * measured column comes from the file's ceiling points, with the clock the
 * instruction ceiling ran at (its counters), so that the theoretical
 * throughput is computed the way the paper computes it: SMs x SMSP x
 * measured clock. */
#include "harness/tools/roofline.h"

#include <math.h>
#include <string.h>

#include "harness/tools/ceilings.h"
#include "harness/base/cli.h"
#include "harness/commands.h"
#include "harness/base/textable.h"
#include "harness/tools/profile_tools.h"

enum { R_SMS, R_SMSP, R_THREADS, R_BASE, R_BOOST, R_CLOCK, R_INST, R_INST_MEAS, R_DRAM_READ, R_DRAM_COPY,
       R_MEMCPY, R_L2BW, R_GATHER, R_GATHER_SECTOR, R_RIDGE, R_RIDGE_MEAS, R_L2, R_SMEM, R_MEM, NROWS };

static const struct {
    const char *label;
    int decimals;
    int l4_row; /* row of the L4 column a ratio compares with (L4 has no measured ceilings) */
} rows[NROWS] = {
    [R_SMS] = {"SM count", 0, R_SMS},
    [R_SMSP] = {"SMSP per SM", 0, R_SMSP},
    [R_THREADS] = {"Threads per SM", 0, R_THREADS},
    [R_BASE] = {"Base clock (GHz)", 2, R_BASE},
    [R_BOOST] = {"Boost clock (GHz)", 2, R_BOOST},
    [R_CLOCK] = {"Measured SM clock (GHz)", 2, R_CLOCK},
    [R_INST] = {"Instr. throughput at measured clock (G inst/s)", 0, R_INST},
    [R_INST_MEAS] = {"Instr. throughput, measured inst_issue (G inst/s)", 0, R_INST},
    [R_DRAM_READ] = {"Memory bandwidth, DRAM read (GB/s)", 0, R_DRAM_READ},
    [R_DRAM_COPY] = {"Memory bandwidth, DRAM copy (GB/s)", 0, R_DRAM_READ},
    [R_MEMCPY] = {"Memory bandwidth, cudaMemcpy D2D (GB/s)", 0, R_DRAM_READ},
    [R_L2BW] = {"L2 read bandwidth (GB/s)", 0, R_L2BW},
    [R_GATHER] = {"Random 4-byte reads, 1 GiB table (G req/s)", 1, R_GATHER},
    [R_GATHER_SECTOR] = {"Random 32-byte sectors, 1 GiB table (GB/s)", 0, R_GATHER_SECTOR},
    [R_RIDGE] = {"Roofline ridge (inst/sector)", 1, R_RIDGE},
    [R_RIDGE_MEAS] = {"Ridge of the measured ceilings (inst/sector)", 1, R_RIDGE},
    [R_L2] = {"L2 cache (MiB)", 0, R_L2},
    [R_SMEM] = {"Shared memory per SM (KiB)", 0, R_SMEM},
    [R_MEM] = {"Memory capacity (GiB)", 0, R_MEM},
};

typedef struct column {
    char title[48];
    double v[NROWS];
} column;

static void ref_column(column *c, const wb_gpu_ref *g, const char *what) {
    char label[24];
    snprintf(c->title, sizeof c->title, "%s (%s)", wb_gpu_label(g->model, label, sizeof label), what);
    for (int i = 0; i < NROWS; i++) c->v[i] = NAN;
    c->v[R_SMS] = g->sms > 0 ? g->sms : NAN;
    c->v[R_SMSP] = g->smsp_per_sm > 0 ? g->smsp_per_sm : NAN;
    c->v[R_THREADS] = g->threads_per_sm > 0 ? g->threads_per_sm : NAN;
    c->v[R_BASE] = g->base_clock_ghz;
    c->v[R_BOOST] = g->boost_clock_ghz;
    c->v[R_CLOCK] = g->measured_clock_ghz;
    c->v[R_INST] = g->inst_gips;
    c->v[R_DRAM_READ] = g->dram_gbps;
    c->v[R_RIDGE] = g->ridge;
    c->v[R_SMEM] = g->smem_per_sm_kib;
    c->v[R_L2] = g->l2_mib;
    c->v[R_MEM] = g->mem_gib;
}

static void measured_column(column *c, const wb_results *r, const wb_gpu_view *v) {
    snprintf(c->title, sizeof c->title, "%s (%s)", v->label, v->kind);
    for (int i = 0; i < NROWS; i++) c->v[i] = NAN;
    c->v[R_SMS] = v->sms > 0 ? v->sms : NAN;
    c->v[R_SMSP] = v->smsp_per_sm > 0 ? v->smsp_per_sm : NAN;
    c->v[R_THREADS] = v->threads_per_sm > 0 ? v->threads_per_sm : NAN;
    c->v[R_BOOST] = wb_results_attr_f64(r, "sm_clock_max_mhz") / 1e3;
    c->v[R_SMEM] = wb_results_attr_f64(r, "smem_per_sm") / 1024; /* the device's, recorded by the run */
    c->v[R_CLOCK] = v->clock_ghz;
    c->v[R_INST] = v->inst_theory_gips;
    c->v[R_INST_MEAS] = v->inst_gips;
    c->v[R_DRAM_READ] = v->dram_read_gbps;
    c->v[R_DRAM_COPY] = v->dram_copy_gbps;
    c->v[R_MEMCPY] = v->memcpy_gbps;
    c->v[R_L2BW] = v->l2_read_gbps;
    c->v[R_GATHER] = v->gather_word_1g;
    c->v[R_GATHER_SECTOR] = 32 * v->gather_sector_1g;
    wb_roof theory = {"", v->inst_theory_gips, v->dram_read_gbps};
    c->v[R_RIDGE] = wb_roof_ridge(&theory);
    c->v[R_RIDGE_MEAS] = wb_roof_ridge(&v->roof);
    c->v[R_L2] = v->l2_mib;
    c->v[R_MEM] = v->mem_gib;
}

static void fill(wb_textable *tab, const column *cols, int ncols, const column *l4, const int *ratio_of, int nratio) {
    int h = wb_textable_add(tab);
    wb_textable_set(tab, h, 0, "Quantity");
    for (int c = 0; c < ncols; c++) wb_textable_set(tab, h, 1 + c, "%s", cols[c].title);
    for (int k = 0; k < nratio; k++) {
        const char *title = cols[ratio_of[k]].title;
        wb_textable_set(tab, h, 1 + ncols + k, "%.*s/L4", (int)strcspn(title, " "), title);
    }
    for (int i = 0; i < NROWS; i++) {
        int any = 0;
        for (int c = 0; c < ncols; c++) any |= isfinite(cols[c].v[i]);
        if (!any) continue;
        int row = wb_textable_add(tab);
        wb_textable_set(tab, row, 0, "%s", rows[i].label);
        for (int c = 0; c < ncols; c++) wb_textable_set_num(tab, row, 1 + c, cols[c].v[i], rows[i].decimals);
        for (int k = 0; k < nratio; k++) {
            double base = l4->v[rows[i].l4_row], x = cols[ratio_of[k]].v[i];
            wb_textable_set_unit(tab, row, 1 + ncols + k, isfinite(base) && base > 0 ? x / base : NAN, 2, "x");
        }
    }
}

int wb_roofline_print(FILE *f, const wb_results *r, const wb_gpu_table *t, int markdown, wb_err *e) {
    return wb_roofline_print_with(f, r, t, NULL, markdown, e);
}

/* The columns of Table 2: L4 and GH200 (paper), the datasheet row of the
 * file's GPU and of `with`, the measured column; ratio_of: those compared with L4. */
static int table2_columns(column *cols, int *ratio_of, int *nratio, const wb_results *r, const wb_gpu_table *t,
                          const wb_gpu_ref *with, const wb_gpu_view *v, wb_err *e) {
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(t), *gh200 = wb_gpu_ref_gh200(t);
    if (!l4 || !gh200) return wb_fail(e, "GPU table: rows l4 and gh200 (seed 000 Table 2) are required"), -1;
    int ncols = 0;
    *nratio = 0;
    ref_column(&cols[ncols++], l4, "paper");
    ref_column(&cols[ncols++], gh200, "paper");
    ratio_of[(*nratio)++] = 1;
    if (v->ref && v->ref != l4 && v->ref != gh200) ref_column(&cols[ncols++], v->ref, "datasheet");
    if (with && with != l4 && with != gh200 && with != v->ref) {
        ratio_of[(*nratio)++] = ncols;
        ref_column(&cols[ncols], with, "datasheet");
        snprintf(cols[ncols++].title, sizeof cols[0].title, "%.34s (datasheet)", with->profile); /* "RTX 5090" is two words */
    }
    if (r) {
        measured_column(&cols[ncols], r, v);
        ratio_of[(*nratio)++] = ncols++;
    }
    return ncols;
}

int wb_roofline_table(wb_textable *tab, const wb_results *r, const wb_gpu_table *t, const wb_gpu_ref *with, wb_err *e) {
    wb_gpu_view v;
    wb_gpu_view_init(r, t, &v);
    column cols[5];
    int ratio_of[3], nratio, ncols = table2_columns(cols, ratio_of, &nratio, r, t, with, &v, e);
    if (ncols < 0) return WB_ERR;
    wb_textable_init(tab, 1 + ncols + nratio);
    fill(tab, cols, ncols, &cols[0], ratio_of, nratio);
    return WB_OK;
}

int wb_roofline_print_with(FILE *f, const wb_results *r, const wb_gpu_table *t, const wb_gpu_ref *with, int markdown,
                           wb_err *e) {
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(t), *gh200 = wb_gpu_ref_gh200(t);
    wb_gpu_view v;
    wb_gpu_view_init(r, t, &v);
    wb_textable tab;
    if (wb_roofline_table(&tab, r, t, with, e) != WB_OK) return WB_ERR;
    fprintf(f, markdown ? "**Table 2 (seed 000): GPU comparison%s%s**\n\n" : "Table 2 (seed 000): GPU comparison%s%s\n",
            !r ? " (reference rows only; give a results file for the measured GPU)"
            : wb_results_attr_f64(r, "projected") == 1 ? ", projected (not measured): "
                                                       : ", measured: ",
            r ? r->path : "");
    wb_textable_print(f, &tab, markdown);
    wb_textable_free(&tab);

    const char *nl = markdown ? "\n\n" : "\n";
    fprintf(f, "%sL4/GH200: seed 000 Table 2 (instruction throughput at the measured clock; bandwidth = Nsight "
               "Systems maximum).%s",
            markdown ? "\n" : "", nl);
    if (v.ref && v.ref != l4 && v.ref != gh200) fprintf(f, "%s datasheet: %s.%s", v.label, v.ref->source, nl);
    if (with && with != l4 && with != gh200 && with != v.ref) fprintf(f, "%s (--with %s): %s.%s", with->model, with->profile, with->source, nl);
    if (r) {
        fprintf(f, "%s %s: ceiling points of %s (GPU \"%s\"); ridge = G inst/s / (DRAM read GB/s / 32); the "
                   "measured-ceilings ridge divides the inst_issue ceiling instead of SMs x SMSP x clock; random reads: the "
                   "gather_word and gather_sector ceilings at a 1 GiB table (hashed indices, best ILP).%s",
                v.label, v.kind, r->path, v.gpu_name[0] ? v.gpu_name : "unknown", nl);
        if (v.smsp_assumed) fprintf(f, "SMSP per SM assumed 4: the GPU has no row in gpus.tsv.%s", nl);
        if (!isfinite(v.inst_gips) || !isfinite(v.dram_read_gbps))
            fprintf(f, "The file lacks the inst_issue or dram_read ceiling: the measured roof is incomplete "
                       "(run the ceiling family).%s",
                    nl);
    }
    fprintf(f, "Ratios: against L4's value in the same row; measured rows without an L4 counterpart compare with "
               "L4's theoretical throughput / Nsight bandwidth / ridge.\n");
    return WB_OK;
}

static const char roofline_usage[] =
    "usage: wallbench roofline [RESULTS.h5] [--with GPU] [--markdown]\n"
    "       wallbench roofline PROFILE.h5 [--with GPU] [--markdown] [--top N]\n"
    "  seed 000 Table 2: the file's measured GPU next to L4 and GH200 (reference rows only without a file);\n"
    "  for a profiled program (wallbench profile -- CMD) then its kernels on those roofs (--top N, default 30)\n"
    "  --with GPU  also the datasheet column of any row of harness/gpus.tsv (a100, rtx5090, ...)\n"
    "exit codes: 0 ok, 2 bad input (unreadable or foreign file, unknown GPU row)\n";

int wb_cmd_roofline(int argc, char **argv) {
    const char *path = NULL, *with_name = NULL;
    int markdown = 0, k, first = argc, top = 30, top_given = 0;
    static const struct option longs[] = {{"markdown", no_argument, NULL, 'm'},
                                          {"with", required_argument, NULL, 'w'},
                                          {"top", required_argument, NULL, 't'}, {0, 0, 0, 0}};
    wb_cli cli = {"roofline", longs, 0};
    const char *v;
    while ((k = wb_cli_next(&cli, argc, argv, &v, &first)) != WB_CLI_END) {
        if (k == WB_CLI_BAD) return 2;
        if (k == WB_CLI_HELP) return fputs(roofline_usage, stdout), 0;
        if (k == 'w') with_name = v;
        else if (k == 't') {
            if (wb_profile_top_count("roofline", v, &top) != WB_OK) return 2;
            top_given = 1;
        } else markdown = 1;
    }
    if (first < argc) path = argv[first++];
    if (first < argc)
        return wb_cli_bad("roofline", "unexpected argument '%s' (usage: wallbench roofline [FILE.h5] [--with GPU] [--markdown])",
                          argv[first]);
    wb_err e = {""};
    wb_gpu_table t;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "wallbench roofline: %s\n", e.msg);
        return 2;
    }
    const wb_gpu_ref *with = with_name ? wb_gpu_table_find(&t, with_name) : NULL;
    if (with_name && !with) {
        char names[1024] = "";
        for (int i = 0; i < t.n; i++) snprintf(names + strlen(names), sizeof names - strlen(names), " %s", t.rows[i].profile);
        fprintf(stderr, "wallbench roofline: --with %s is no row of harness/gpus.tsv; rows:%s\n", with_name, names);
        wb_gpu_table_free(&t);
        return 2;
    }
    wb_rows rows;
    int have = 0, rc = 0;
    if (path) {
        if (wb_rows_open("roofline", path, &rows) != 0) return wb_gpu_table_free(&t), 2;
        have = 1;
    }
    if (top_given && (!have || rows.kind != WB_ROWS_PROFILE))
        rc = 2, fprintf(stderr, "wallbench roofline: --top is for a profile file (its kernels)\n");
    if (rc == 0 && wb_roofline_print_with(stdout, have ? &rows.r : NULL, &t, with, markdown, &e) != WB_OK) {
        fprintf(stderr, "wallbench roofline: %s\n", e.msg);
        rc = 2;
    }
    if (rc == 0 && have && rows.kind == WB_ROWS_PROFILE) rc = wb_roofline_profile(&rows, &t, markdown, top);
    if (have) wb_rows_free(&rows);
    wb_gpu_table_free(&t);
    return rc;
}
