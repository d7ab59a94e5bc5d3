/* report_tables.c - seed 000 Tables 6-9 over a list of items (see
 * report_tables.h). */
#include "harness/tools/report_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/json.h"
#include "harness/tools/agg.h"
#include "harness/tools/roofline.h"

void wb_rtab_roofs_init(wb_rtab_roofs *rr, const wb_results *r, const wb_gpu_table *gt, const char *measured) {
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(gt), *gh200 = wb_gpu_ref_gh200(gt);
    wb_gpu_view_init(r, gt, &rr->v);
    rr->l4 = wb_gpu_ref_roof(l4);
    rr->gh200 = wb_gpu_ref_roof(gh200);
    rr->l4_ridge = l4 ? l4->ridge : NAN;
    rr->gh200_ridge = gh200 ? gh200->ridge : NAN;
    rr->measured = measured ? measured : rr->v.kind;
}

/* L4 and GH200 recomputed from inst_per_sector, as the roofline figures draw them. */
const char *wb_rtab_bound(const wb_rtab_roofs *rr, const wb_row *x, int which) {
    if (which == 0) return wb_agg_bound(x, &rr->v);
    return wb_roof_bound(which == 1 ? &rr->l4 : &rr->gh200, x->c.inst_per_sector);
}

int wb_rtab_items_init(wb_rtab_items *it, const wb_results *r, int (*keep)(const wb_row *x)) {
    size_t cap = (size_t)r->nrows + 1;
    it->n = 0;
    it->row = malloc(cap * sizeof *it->row);
    it->v = malloc(cap * sizeof *it->v);
    it->w = malloc(cap * sizeof *it->w);
    if (!it->row || !it->v || !it->w) return wb_rtab_items_free(it), WB_ERR;
    for (int64_t i = 0; i < r->nrows; i++)
        if (keep(&r->rows[i])) it->row[it->n++] = &r->rows[i];
    return WB_OK;
}

void wb_rtab_items_free(wb_rtab_items *it) {
    free(it->row), free(it->v), free(it->w);
    it->row = NULL, it->v = it->w = NULL, it->n = 0;
}

static void share_cell(wb_textable *t, int row, int col, double part, double whole) {
    wb_textable_set_unit(t, row, col, whole > 0 ? 100.0 * part / whole : NAN, 1, "%");
}

static void mean_cell(wb_textable *t, int row, int col, const double *v, const double *w, int n, int pct) {
    double mean, std;
    wb_agg_mean_std(v, w, n, &mean, &std);
    wb_textable_set_mean_std(t, row, col, mean, std, pct ? 0 : 2, pct ? "%" : "");
}

void wb_rtab_table6(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it) {
    wb_textable_init(t, 4);
    int h = wb_textable_add(t);
    wb_textable_set(t, h, 0, "Share of time");
    wb_textable_set(t, h, 1, "%s ridge %.1f", rr->measured, wb_roof_ridge(&rr->v.roof));
    wb_textable_set(t, h, 2, "L4 ridge %.1f", rr->l4_ridge);
    wb_textable_set(t, h, 3, "GH200 ridge %.1f", rr->gh200_ridge);
    static const char *const labels[6] = {"Memory bound", "  memory bandwidth >= 75%", "  memory bandwidth < 75%",
                                          "Compute bound", "  instr. throughput >= 75%", "  instr. throughput < 75%"};
    double cell[6][3] = {{0}}, total[3] = {0}, known[6][3] = {{0}};
    for (int i = 0; i < it->n; i++) {
        const wb_row *x = it->row[i];
        double w = x->m.time_median_ms, mem = wb_agg_mem_pct(x), inst = wb_agg_inst_pct(x, &rr->v);
        for (int k = 0; k < 3; k++) {
            const char *b = wb_rtab_bound(rr, x, k);
            int base = strcmp(b, "memory") == 0 ? 0 : strcmp(b, "compute") == 0 ? 3 : -1;
            if (base < 0) continue;
            double util = base == 0 ? mem : inst;
            total[k] += w;
            cell[base][k] += w;
            if (isfinite(util)) cell[base + (util >= WB_AGG_SATURATED_PCT ? 1 : 2)][k] += w, known[base][k] += w;
        }
    }
    for (int i = 0; i < 6; i++) {
        int row = wb_textable_add(t);
        wb_textable_set(t, row, 0, "%s", labels[i]);
        for (int k = 0; k < 3; k++) {
            int split = i % 3 != 0, side = i < 3 ? 0 : 3;
            /* no item of this side had the utilisation (a profile's one-pass set counts no DRAM
             * throughput): its split is unknown, not 0% */
            if (split && cell[side][k] > 0 && known[side][k] == 0) wb_textable_set(t, row, 1 + k, "-");
            else share_cell(t, row, 1 + k, cell[i][k], total[k]);
        }
    }
}

/* (ipc, time) of the items, into it->v and it->w; side -1: all, 0: memory-,
 * 1: compute-bound against ridge `which`. Returns how many. */
static int ipc_pairs(const wb_rtab_roofs *rr, const wb_rtab_items *it, int side, int which) {
    int n = 0;
    for (int i = 0; i < it->n; i++) {
        const wb_row *x = it->row[i];
        if (side >= 0 && strcmp(wb_rtab_bound(rr, x, which), side ? "compute" : "memory") != 0) continue;
        it->v[n] = wb_agg_metric(x, "ipc");
        it->w[n] = x->m.time_median_ms;
        n++;
    }
    return n;
}

void wb_rtab_table7(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it, const char *corner,
                    const char *all) {
    wb_textable_init(t, 4);
    int h = wb_textable_add(t);
    const char *heads[4] = {corner, rr->measured, "L4", "GH200"};
    for (int c = 0; c < 4; c++) wb_textable_set(t, h, c, c ? "%s ridge" : "%s", heads[c]);
    const char *labels[3] = {all, "Memory bound", "Compute bound"};
    for (int side = -1; side < 2; side++) {
        int row = wb_textable_add(t);
        wb_textable_set(t, row, 0, "%s", labels[side + 1]);
        for (int k = 0; k < 3; k++)
            wb_textable_set_num(t, row, 1 + k, wb_agg_geomean(it->v, it->w, ipc_pairs(rr, it, side, k)), 2);
    }
}

/* Scaled = ipc x 100 / achieved occupancy %, capped at the peak: IPC grows
 * linearly in the added warps. */
double wb_rtab_table8(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it, int *n) {
    double peak = rr->v.smsp_per_sm > 0 ? rr->v.smsp_per_sm : NAN, total = 0, reach[3][2] = {{0}};
    *n = 0;
    for (int i = 0; i < it->n; i++) {
        const wb_row *x = it->row[i];
        double ipc = wb_agg_metric(x, "ipc");
        if (!wb_agg_below_all_tiers(x) || !isfinite(ipc)) continue;
        double occ = wb_agg_metric(x, "occupancy_achieved_pct"), time = x->m.time_median_ms;
        double scaled = isfinite(occ) && occ > 0 ? fmin(ipc * 100.0 / occ, peak) : NAN;
        total += time;
        ++*n;
        for (int k = 0; k < 3; k++) {
            double thr = peak * (0.5 + 0.25 * k) - 1e-9;
            if (ipc >= thr) reach[k][0] += time;
            if (scaled >= thr) reach[k][1] += time;
        }
    }
    wb_textable_init(t, 3);
    int h = wb_textable_add(t);
    wb_textable_set(t, h, 0, "IPC (%% of peak)");
    wb_textable_set(t, h, 1, "Measured");
    wb_textable_set(t, h, 2, "Occupancy-scaled");
    for (int k = 0; k < 3; k++) {
        int row = wb_textable_add(t);
        wb_textable_set(t, row, 0, "%.1f (%d%%)", peak * (0.5 + 0.25 * k), 50 + 25 * k);
        share_cell(t, row, 1, reach[k][0], total);
        share_cell(t, row, 2, reach[k][1], total);
    }
    return total;
}

void wb_rtab_table9_init(wb_textable *t, const char *first) {
    wb_textable_init(t, 5);
    int h = wb_textable_add(t);
    const char *heads[5] = {first, "#", "Sum", "Mem.%", "IPC"};
    for (int c = 0; c < 5; c++) wb_textable_set(t, h, c, "%s", heads[c]);
}

/* (column value, time) of the group's items, into it->v and it->w. */
static int group_pairs(const wb_rtab_items *it, const wb_row *group, int (*same)(const wb_row *, const wb_row *),
                       const char *column) {
    int n = 0;
    for (int i = 0; i < it->n; i++) {
        const wb_row *x = it->row[i];
        if (group && !same(x, group)) continue;
        it->v[n] = wb_agg_metric(x, column);
        it->w[n] = x->m.time_median_ms;
        n++;
    }
    return n;
}

void wb_rtab_table9_row(wb_textable *t, const wb_rtab_items *it, const char *label, const wb_row *group,
                        int (*same)(const wb_row *x, const wb_row *group), double part, double whole) {
    int row = wb_textable_add(t);
    wb_textable_set(t, row, 0, "%s", label);
    int n = group_pairs(it, group, same, "dram_throughput_pct"); /* wb_agg_mem_pct */
    wb_textable_set_unit(t, row, 1, n, 0, ""); /* a count, printed without separators */
    share_cell(t, row, 2, part, whole);
    mean_cell(t, row, 3, it->v, it->w, n, 1);
    mean_cell(t, row, 4, it->v, it->w, group_pairs(it, group, same, "ipc"), 0);
}

void wb_rtab_title(wb_rtab_out *o, const char *name, const char *aggregated) {
    snprintf(o->cur_title, sizeof o->cur_title, "%s", name);
    if (o->md) fprintf(o->f, "\n**%s**\n\n*Aggregated: %s*\n\n", name, aggregated);
    else fprintf(o->f, "\n%s\n  aggregated: %s\n", name, aggregated);
}

void wb_rtab_emit(wb_rtab_out *o, const wb_textable *t) {
    if (!o->fmt) {
        wb_textable_print(o->f, t, o->md);
        return;
    }
    if (o->fmt == 'C') {
        fprintf(o->data, "%s# %s\n", o->ntables ? "\n" : "", o->cur_title);
        wb_textable_csv(o->data, t);
    } else {
        fputs(o->ntables ? ",{" : "{", o->data);
        wb_json_key(o->data, "title", 1);
        wb_json_str(o->data, o->cur_title);
        wb_json_key(o->data, "table", 0);
        wb_textable_json(o->data, t);
        fputc('}', o->data);
    }
    o->ntables++;
}

int wb_rtab_table2(wb_rtab_out *o, const wb_results *r, const wb_gpu_table *gt, wb_err *e) {
    if (!o->fmt) return wb_roofline_print(o->f, r, gt, o->md, e);
    wb_textable t;
    if (wb_roofline_table(&t, r, gt, NULL, e) != WB_OK) return WB_ERR;
    snprintf(o->cur_title, sizeof o->cur_title, "Table 2 (seed 000): GPU comparison, %s: %.180s",
             wb_results_attr_f64(r, "projected") == 1 ? "projected (not measured)" : "measured", r->path);
    wb_rtab_emit(o, &t);
    wb_textable_free(&t);
    return WB_OK;
}
