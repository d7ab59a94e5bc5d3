/* ceilings.c - a results file's GPU, ceilings and measured roof (see
 * ceilings.h). Rows come first because they carry the counters (the clock
 * the instruction ceiling ran at); attributes are the fallback for files
 * whose ceiling rows were filtered out or failed. */
#include "harness/tools/ceilings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/metrics.h"
#include "harness/tools/agg.h"
#include "harness/base/roof_contract.h"

/* Every NVIDIA SM since Maxwell has four sub-partitions (seed 000 section
 * 2.1); used only for a GPU missing from gpus.tsv, and flagged. */
#define WB_SMSP_DEFAULT 4

/* 1 for a measured (ok) row of this ceiling variant. */
static int ceiling_row(const wb_row *x, const char *variant) {
    return !strcmp(x->p.family, WB_CEILING_FAMILY) && !strcmp(x->p.variant, variant) && !strcmp(x->m.status, "ok");
}

/* The ok ceiling row of this variant with the largest value of what, or NULL. */
static const wb_row *best_row(const wb_results *r, const char *variant, const char *what) {
    const wb_row *best = NULL;
    double best_v = -INFINITY;
    for (int64_t i = 0; r && i < r->nrows; i++) {
        const wb_row *x = &r->rows[i];
        if (!ceiling_row(x, variant)) continue;
        double v = strcmp(what, "gips") == 0 ? x->c.gips : x->m.gbps_model;
        if (isfinite(v) && v > best_v) best_v = v, best = x;
    }
    return best;
}

double wb_ceiling_value(const wb_results *r, const char *variant, const char *what) {
    if (!r) return NAN;
    const wb_row *x = best_row(r, variant, what);
    if (x) return strcmp(what, "gips") == 0 ? x->c.gips : x->m.gbps_model;
    char name[64];
    return wb_results_attr_f64(r, wb_ceiling_attr(variant, what, name, sizeof name));
}

const char *wb_gpu_label(const char *name, char *buf, size_t len) {
    static const char *const prefixes[] = {"NVIDIA ", "Tesla "};
    for (int again = 1; again;) {
        again = 0;
        for (int i = 0; i < 2; i++)
            if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) name += strlen(prefixes[i]), again = 1;
    }
    size_t n = strcspn(name, " \t");
    if (n == 0) name = "GPU", n = 3;
    snprintf(buf, len, "%.*s", (int)n, name);
    return buf;
}

/* The row of the file's GPU: a projection names its target profile; else
 * the device name, matched by whole words (any row, so that a file from a GPU
 * without a build profile still finds its datasheet row), a projection's
 * " (projected)" left off. */
static const wb_gpu_ref *match_any(const wb_gpu_table *t, const wb_results *r, const char *name) {
    if (!t || !*name) return NULL;
    const char *profile = r && wb_results_attr_f64(r, "projected") == 1 ? wb_results_attr(r, "profile") : NULL;
    const wb_gpu_ref *g = profile ? wb_gpu_table_find(t, profile) : NULL;
    if (g) return g;
    char bare[96];
    snprintf(bare, sizeof bare, "%s", name);
    char *tag = strstr(bare, " (projected)");
    if (tag) *tag = '\0';
    return wb_gpu_table_match(t, bare, -1);
}

static int attr_int(const wb_results *r, const char *name) {
    double v = r ? wb_results_attr_f64(r, name) : NAN;
    return isfinite(v) && v > 0 ? (int)v : -1;
}

void wb_gather_wall(const wb_results *r, const char *variant, wb_wall *w) {
    wb_wall_init(w);
    for (int64_t i = 0; r && i < r->nrows; i++) {
        const wb_row *x = &r->rows[i];
        if (ceiling_row(x, variant) && x->m.time_median_ms > 0)
            wb_wall_add(w, x->p.table_bytes, x->p.items / (x->m.time_median_ms * 1e-3) / 1e9);
    }
}

/* A gather ceiling at 1 GiB: the file's rows, else the run's attribute. */
static double gather_1g(const wb_results *r, const char *variant) {
    wb_wall w;
    wb_gather_wall(r, variant, &w);
    double v = wb_wall_at(&w, 1073741824.0);
    if (isfinite(v) || !r) return v;
    char name[96];
    snprintf(name, sizeof name, "ceiling_%s_1073741824B_greqs", variant);
    return wb_results_attr_f64(r, name);
}

/* A sized ceiling at its fastest table: the file's rows, else its /ceilings rows in G req/s, else
 * the attribute ceiling_<variant>_greqs (a profile's). */
double wb_ceiling_fastest(const wb_results *r, const char *variant) {
    wb_wall w;
    wb_gather_wall(r, variant, &w);
    double v = NAN;
    for (int k = 0; k < w.n; k++)
        if (!(w.greqs[k] <= v)) v = w.greqs[k];
    if (isfinite(v)) return v;
    for (int i = 0; r && i < r->nceilings; i++) {
        const wb_ceiling_entry *c = &r->ceilings[i];
        if (!strcmp(c->name, variant) && !strcmp(c->unit, "G req/s") && !(c->value <= v)) v = c->value;
    }
    char name[64]; /* a profile's copy (profile_cmd.c): the value alone */
    return isfinite(v) || !r ? v : wb_results_attr_f64(r, wb_ceiling_attr(variant, "greqs", name, sizeof name));
}

/* The L2's ATOM + RED requests a second of one ok row, G/s; NaN where its counter pass did not
 * count them (a RED-only kernel counts 0 ATOM: both must be numbers). */
static double counted_atomics_greqs(const wb_row *x) {
    static int atom = -2, red = -2;
    if (atom == -2) atom = wb_metric_index("l2_atom_requests"), red = wb_metric_index("l2_red_requests");
    if (atom < 0 || red < 0 || !(x->m.time_median_ms > 0)) return NAN;
    const double n = x->c.v[atom] + x->c.v[red];
    return isfinite(n) ? n / (x->m.time_median_ms * 1e-3) / 1e9 : NAN;
}

double wb_ceiling_atomics(const wb_results *r, int *counted) {
    double best = NAN;
    for (int64_t i = 0; r && i < r->nrows; i++) {
        const double v = ceiling_row(&r->rows[i], WB_ROOF_ATOMIC_VARIANT) ? counted_atomics_greqs(&r->rows[i]) : NAN;
        if (isfinite(v) && !(v <= best)) best = v;
    }
    int c = isfinite(best);
    if (!c) { /* adds a second from the rows, or a profile's copy, which says its unit (results files never do) */
        best = wb_ceiling_fastest(r, WB_ROOF_ATOMIC_VARIANT);
        c = r && wb_results_attr_f64(r, "ceiling_atom_global_counted") == 1;
    }
    if (counted) *counted = c;
    return best;
}

void wb_gpu_view_init(const wb_results *r, const wb_gpu_table *t, wb_gpu_view *v) {
    memset(v, 0, sizeof *v);
    const char *name = r ? wb_results_attr(r, "gpu_name") : NULL;
    snprintf(v->gpu_name, sizeof v->gpu_name, "%s", name ? name : "");
    v->ref = match_any(t, r, v->gpu_name);
    wb_gpu_label(v->ref ? v->ref->model : v->gpu_name, v->label, sizeof v->label);
    double projected = r ? wb_results_attr_f64(r, "projected") : NAN;
    snprintf(v->kind, sizeof v->kind, "%s", projected == 1 ? "projected" : "measured");

    v->sms = attr_int(r, "sm_count");
    if (v->sms < 0 && v->ref) v->sms = v->ref->sms;
    v->threads_per_sm = attr_int(r, "max_threads_per_sm");
    if (v->threads_per_sm < 0 && v->ref) v->threads_per_sm = v->ref->threads_per_sm;
    v->smsp_per_sm = v->ref && v->ref->smsp_per_sm > 0 ? v->ref->smsp_per_sm : -1;
    if (v->smsp_per_sm < 0 && r) v->smsp_per_sm = WB_SMSP_DEFAULT, v->smsp_assumed = 1;

    const wb_row *issue = r ? best_row(r, WB_ROOF_INST_VARIANT, "gips") : NULL;
    v->clock_ghz = issue ? wb_agg_clock_ghz(issue, NULL) : NAN;
    v->inst_theory_gips = wb_roof_inst_gips(v->sms, v->smsp_per_sm, v->clock_ghz);
    v->inst_gips = wb_ceiling_value(r, WB_ROOF_INST_VARIANT, "gips");
    v->dram_read_gbps = wb_ceiling_value(r, WB_ROOF_DRAM_VARIANT, "gbps");
    v->dram_write_gbps = wb_ceiling_value(r, WB_ROOF_DRAM_WRITE_VARIANT, "gbps");
    v->dram_copy_gbps = wb_ceiling_value(r, WB_ROOF_DRAM_COPY_VARIANT, "gbps");
    v->memcpy_gbps = wb_ceiling_value(r, WB_ROOF_MEMCPY_VARIANT, "gbps");
    v->l2_read_gbps = wb_ceiling_value(r, WB_ROOF_L2_VARIANT, "gbps");
    v->gather_word_1g = gather_1g(r, WB_ROOF_GATHER_WORD_VARIANT);
    v->gather_sector_1g = gather_1g(r, WB_ROOF_GATHER_SECTOR_VARIANT);
    v->atomic_greqs = wb_ceiling_atomics(r, &v->atomic_counted);

    double l2 = r ? wb_results_attr_f64(r, "l2_bytes") : NAN, mem = r ? wb_results_attr_f64(r, "mem_total_bytes") : NAN;
    v->l2_mib = isfinite(l2) && l2 > 0 ? l2 / (1024.0 * 1024.0) : v->ref ? v->ref->l2_mib : NAN;
    v->mem_gib = isfinite(mem) && mem > 0 ? mem / (1024.0 * 1024.0 * 1024.0) : v->ref ? v->ref->mem_gib : NAN;

    snprintf(v->roof.name, sizeof v->roof.name, "%s %s", v->label, v->kind);
    v->roof.inst_gips = v->inst_gips;
    v->roof.dram_gbps = v->dram_read_gbps;
}

const wb_gpu_ref *wb_gpu_ref_l4(const wb_gpu_table *t) { return wb_gpu_table_find(t, "l4"); }
const wb_gpu_ref *wb_gpu_ref_gh200(const wb_gpu_table *t) { return wb_gpu_table_find(t, "gh200"); }

wb_roof wb_gpu_ref_roof(const wb_gpu_ref *g) {
    wb_roof r = {"", NAN, NAN};
    if (!g) return r;
    char label[24];
    snprintf(r.name, sizeof r.name, "%s", wb_gpu_label(g->model, label, sizeof label));
    r.inst_gips = g->inst_gips;
    r.dram_gbps = g->dram_gbps;
    return r;
}
