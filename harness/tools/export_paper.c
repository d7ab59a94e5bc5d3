/* export_paper.c - tables for seed 000's figures (plots/fig1..fig9-*.gp).
 * Figs 1 and 2 read the reference GPU table (Fig 2 adds the file's measured
 * roof); Figs 4-9 aggregate time_median_ms over the operator points (agg.h)
 * where the paper aggregates kernel time over TPC-H queries. The CDF
 * figures 7-9 are in export_cdf.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export.h"
#include "harness/base/metrics.h"

#define NAME_LEN 48

/* Index of s in names (appended when new); first-appearance order. */
static int name_index(char (*names)[NAME_LEN], int *n, int cap, const char *s) {
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], s) == 0) return i;
    if (*n == cap) return cap - 1;
    snprintf(names[*n], NAME_LEN, "%s", s);
    return (*n)++;
}

int wb_export_fig1(wb_export *x, wb_err *e) {
    /* seed 000 Fig 1's GPUs, in its order */
    static const char *const order[] = {"p100", "v100", "a100", "h100", "h200", "b200", "rubin"};
    const wb_gpu_ref *g[7];
    for (int i = 0; i < 7; i++)
        if (!(g[i] = wb_gpu_table_find(x->gpus, order[i])) || !(g[i]->inst_gips > 0) || !(g[i]->dram_gbps > 0))
            return wb_skip(e, "the GPU table lacks row '%s' with inst_gips and dram_gbps (seed 000 Fig 1)", order[i]);
    FILE *f = wb_export_open(x, "", "label sms smsp_per_sm clock_ghz inst_gips dram_gbps inst_rel bw_rel", e);
    if (!f) return WB_ERR;
    for (int i = 0; i < 7; i++) {
        char label[24];
        wb_export_str(f, wb_gpu_label(g[i]->model, label, sizeof label));
        wb_export_num(f, g[i]->sms);
        wb_export_num(f, g[i]->smsp_per_sm);
        wb_export_num(f, isfinite(g[i]->measured_clock_ghz) ? g[i]->measured_clock_ghz : g[i]->boost_clock_ghz);
        wb_export_num(f, g[i]->inst_gips);
        wb_export_num(f, g[i]->dram_gbps);
        wb_export_num(f, g[i]->inst_gips / g[0]->inst_gips);
        wb_export_num(f, g[i]->dram_gbps / g[0]->dram_gbps);
        fputc('\n', f);
        x->rows++;
    }
    return wb_export_close(f, x, "", e);
}

/* The random-access roofs of the file's GPU: a random request moves at
 * least one sector, so at the gather ceiling's request rate (1 GiB table)
 * a kernel of x instructions per sector issues at most x times that rate. */
static int fig2_gather(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-gather", "name gsectors_per_s", e);
    if (!f) return WB_ERR;
    const double v[2] = {x->v.gather_word_1g, x->v.gather_sector_1g};
    const char *const names[2] = {"random 4-byte reads (1 GiB)", "random 32-byte sectors (1 GiB)"};
    for (int i = 0; i < 2; i++)
        if (isfinite(v[i])) {
            wb_export_str(f, names[i]);
            fprintf(f, " %.6g\n", v[i]);
        }
    if (!isfinite(v[0]) && !isfinite(v[1])) fprintf(f, "# no gather ceiling in this file\n");
    return wb_export_close(f, x, "-gather", e);
}

int wb_export_fig2(wb_export *x, wb_err *e) {
    x->rows = wb_export_roofs(x, "", e);
    if (x->rows < 0 || fig2_gather(x, e) != WB_OK) return WB_ERR;
    return x->rows ? WB_OK : wb_skip(e, "the GPU table has neither l4 nor gh200 and the file has no measured roof");
}

typedef struct ranked {
    const wb_row *row;
    int fam, var;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
    const ranked *p = a, *q = b;
    if (p->fam != q->fam) return p->fam - q->fam;
    if (p->var != q->var) return p->var - q->var;
    double x = p->row->c.inst_per_sector, y = q->row->c.inst_per_sector;
    return x < y ? -1 : x > y;
}

static int fig4_shares(wb_export *x, const ranked *pts, int n, wb_err *e) {
    FILE *f = wb_export_open(x, "-shares", "ridge_name ridge memory_pct compute_pct", e);
    if (!f) return WB_ERR;
    const wb_gpu_ref *refs[3] = {NULL, wb_gpu_ref_l4(x->gpus), wb_gpu_ref_gh200(x->gpus)};
    wb_roof roofs[3] = {x->v.roof, wb_gpu_ref_roof(refs[1]), wb_gpu_ref_roof(refs[2])};
    for (int k = 0; k < 3; k++) {
        double mem = 0, all = 0;
        for (int i = 0; i < n; i++) {
            const char *b = wb_roof_bound(&roofs[k], pts[i].row->c.inst_per_sector);
            if (!*b) continue;
            all += pts[i].row->m.time_median_ms;
            if (b[0] == 'm') mem += pts[i].row->m.time_median_ms;
        }
        if (!(all > 0)) continue;
        wb_export_str(f, k == 0 ? x->v.label : roofs[k].name);
        wb_export_num(f, refs[k] ? refs[k]->ridge : wb_roof_ridge(&roofs[k])); /* the paper's printed ridge */
        wb_export_num(f, 100.0 * mem / all);
        wb_export_num(f, 100.0 * (all - mem) / all);
        fputc('\n', f);
    }
    return wb_export_close(f, x, "-shares", e);
}

/* The series a point is drawn in: its variant; a family with more variants
 * than a legend holds (ssb: 13 queries x 4 forms) is drawn by the part of
 * its variant names after the last '_' ("q2.1_bitmap" -> "bitmap"). */
#define FIG4_LEGEND 16
static const char *fig4_variant(const wb_row *r, int many) {
    const char *u = strrchr(r->p.variant, '_');
    return many && u ? u + 1 : r->p.variant;
}

static int fig4_point(const wb_row *r) { return wb_agg_is_op_point(r) && r->c.inst_per_sector > 0 && r->c.gips > 0; }

int wb_export_fig4(wb_export *x, wb_err *e) {
    ranked *pts = malloc((size_t)(x->r->nrows + 1) * sizeof *pts);
    if (!pts) return wb_fail(e, "out of memory");
    char fams[32][NAME_LEN], vars[32][64][NAME_LEN];
    int nf = 0, nv[32] = {0}, many[32] = {0}, n = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) /* first the variants per family, by full name */
        if (fig4_point(&x->r->rows[i])) {
            const int fam = name_index(fams, &nf, 32, x->r->rows[i].p.family);
            name_index(vars[fam], &nv[fam], 64, x->r->rows[i].p.variant);
        }
    for (int k = 0; k < nf; k++) many[k] = nv[k] > FIG4_LEGEND, nv[k] = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        if (!fig4_point(r)) continue;
        int fam = name_index(fams, &nf, 32, r->p.family);
        pts[n++] = (ranked){r, fam, name_index(vars[fam], &nv[fam], 64, fig4_variant(r, many[fam]))};
    }
    if (!n) {
        free(pts);
        return wb_skip(e, "no operator point has counters (inst_per_sector, gips); run where CUPTI works");
    }
    qsort(pts, (size_t)n, sizeof *pts, cmp_ranked);
    FILE *f = wb_export_open(x, "", "series family variant fam_idx var_idx inst_per_sector gips time_ms bound", e);
    int rc = f ? WB_OK : WB_ERR;
    for (int i = 0; f && i < n; i++) {
        const wb_row *r = pts[i].row;
        if (i && (pts[i].fam != pts[i - 1].fam || pts[i].var != pts[i - 1].var)) wb_export_block_end(f);
        const char *v = fig4_variant(r, many[pts[i].fam]);
        fprintf(f, "%s/%s %s %s %d %d", r->p.family, v, r->p.family, v, pts[i].fam, pts[i].var);
        wb_export_num(f, r->c.inst_per_sector);
        wb_export_num(f, r->c.gips);
        wb_export_num(f, r->m.time_median_ms);
        fputc(' ', f);
        wb_export_str(f, wb_agg_bound(r, &x->v));
        fputc('\n', f);
    }
    x->rows = n;
    if (f) rc = wb_export_close(f, x, "", e);
    if (rc == WB_OK) rc = fig4_shares(x, pts, n, e);
    if (rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0) rc = WB_ERR;
    free(pts);
    return rc;
}

/* Input sizes bucketed to the nearest power of two: families sweep different n. */
static double size_bucket(int64_t n) { return n > 0 ? exp2(round(log2((double)n))) : NAN; }

/* Series of fig 5: "all" and each family over the full-GPU points, then
 * "sm_limit" for the points whose grid was restricted to fewer SMs on
 * purpose (the sm_limit axis): under one wave by design, they would
 * otherwise read as undersaturation of the operators. */
static int fig5_member(const wb_row *r, const char *series) {
    if (!wb_agg_is_op_point(r) || !isfinite(r->p.launch.waves)) return 0;
    const int restricted = r->p.launch.sm_limit > 0;
    if (strcmp(series, "sm_limit") == 0) return restricted;
    return !restricted && (strcmp(series, "all") == 0 || strcmp(r->p.family, series) == 0);
}

int wb_export_fig5(wb_export *x, wb_err *e) {
    char series[34][NAME_LEN];
    int ns = 1, restricted = 0;
    snprintf(series[0], NAME_LEN, "all");
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        if (fig5_member(r, "all")) name_index(series, &ns, 33, r->p.family);
        restricted |= fig5_member(r, "sm_limit");
    }
    if (ns == 1) return wb_skip(e, "no operator point records its launch waves");
    if (restricted) snprintf(series[ns++], NAME_LEN, "sm_limit");
    FILE *f = wb_export_open(x, "", "series n_bucket time_ms under_ms under_pct points", e);
    if (!f) return WB_ERR;
    for (int s = 0; s < ns; s++) {
        if (s) wb_export_block_end(f);
        double done = 0; /* buckets ascend: emit the smallest bucket above the last one */
        for (;;) {
            double b = INFINITY, time = 0, under = 0;
            int count = 0;
            for (int64_t i = 0; i < x->r->nrows; i++) {
                const wb_row *r = &x->r->rows[i];
                double rb = size_bucket(r->p.n);
                if (!fig5_member(r, series[s]) || !(rb > done)) continue;
                if (rb < b) b = rb, time = under = 0, count = 0;
                if (rb == b) {
                    time += r->m.time_median_ms, count++;
                    if (r->p.launch.waves < 1.0) under += r->m.time_median_ms;
                }
            }
            if (!count) break;
            fprintf(f, "%s", series[s]);
            double vals[5] = {b, time, under, 100.0 * under / time, count};
            for (int k = 0; k < 5; k++) wb_export_num(f, vals[k]);
            fputc('\n', f);
            x->rows++;
            done = b;
        }
    }
    return wb_export_close(f, x, "", e);
}

/* Warp cycles per stall group: stall_<group> (cycles per issued instruction)
 * times the issued instructions, so that long kernels weigh by their cycles. */
static int stall_cycles(const wb_row *r, double out[WB_STALL_GROUPS]) {
    double issued = wb_agg_metric(r, "inst_issued");
    if (!(issued > 0)) issued = wb_agg_metric(r, "inst");
    if (!(issued > 0)) return 0;
    for (int g = 0; g < WB_STALL_GROUPS; g++) {
        if (!isfinite(r->c.stall[g])) return 0;
        out[g] = r->c.stall[g] * issued;
    }
    return 1;
}

/* One bar of fig 6: family/variant (fam NULL: every point; in "other" mode
 * the variants not shown on their own) at one bound. */
#define FIG6_BARS 12 /* variant bars drawn; the rest of each bound is one "other" bar */

typedef struct fig6_bar {
    char fam[NAME_LEN], var[NAME_LEN];
    int bound; /* 0 memory, 1 compute */
    double time;
    int shown;
} fig6_bar;

static const char *const fig6_bounds[2] = {"memory", "compute"};

static int fig6_bar_of(const fig6_bar *bars, int n, const wb_row *r, int bound) {
    for (int k = 0; k < n; k++)
        if (bars[k].bound == bound && !strcmp(bars[k].fam, r->p.family) && !strcmp(bars[k].var, r->p.variant)) return k;
    return -1;
}

/* which: -1 every point; -2 the points of bars not shown; k >= 0 bar k. */
static int fig6_row(wb_export *x, FILE *f, const fig6_bar *bars, int nbars, int which, int bound, double total_ms) {
    double cyc[WB_STALL_GROUPS] = {0}, time = 0, c[WB_STALL_GROUPS];
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        if (!wb_agg_is_op_point(r) || strcmp(wb_agg_bound(r, &x->v), fig6_bounds[bound]) != 0 || !stall_cycles(r, c))
            continue;
        int k = fig6_bar_of(bars, nbars, r, bound);
        if (which >= 0 && k != which) continue;
        if (which == -2 && (k < 0 || bars[k].shown)) continue;
        time += r->m.time_median_ms;
        for (int g = 0; g < WB_STALL_GROUPS; g++) cyc[g] += c[g];
    }
    double sum = 0;
    for (int g = 0; g < WB_STALL_GROUPS; g++) sum += cyc[g];
    if (!(time > 0) || !(sum > 0)) return 0;
    if (which >= 0) fprintf(f, "%s/%s:%s", bars[which].fam, bars[which].var, fig6_bounds[bound]);
    else fprintf(f, "%s:%s", which == -1 ? "ALL" : "other_variants", fig6_bounds[bound]);
    wb_export_num(f, 100.0 * time / total_ms);
    for (int g = 0; g < WB_STALL_GROUPS; g++) wb_export_num(f, 100.0 * cyc[g] / sum);
    fputc('\n', f);
    return 1;
}

static int by_time_desc(const void *a, const void *b) {
    const fig6_bar *p = a, *q = b;
    return (p->time < q->time) - (p->time > q->time);
}

/* Bars: every point by bound, the FIG6_BARS family/variant/bound bars with
 * the most time (largest first), then per bound the rest as one bar: one bar
 * per variant made ~80 labels that could not be read at page size. */
int wb_export_fig6(wb_export *x, wb_err *e) {
    double total = 0, c[WB_STALL_GROUPS];
    enum { MAXBARS = 256 };
    fig6_bar *bars = calloc(MAXBARS, sizeof *bars);
    if (!bars) return wb_fail(e, "out of memory");
    int nbars = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) {
        const wb_row *r = &x->r->rows[i];
        if (!wb_agg_is_op_point(r) || !*wb_agg_bound(r, &x->v) || !stall_cycles(r, c)) continue;
        total += r->m.time_median_ms;
        int bound = strcmp(wb_agg_bound(r, &x->v), "compute") == 0;
        int k = fig6_bar_of(bars, nbars, r, bound);
        if (k < 0 && nbars < MAXBARS) {
            k = nbars++;
            snprintf(bars[k].fam, NAME_LEN, "%s", r->p.family);
            snprintf(bars[k].var, NAME_LEN, "%s", r->p.variant);
            bars[k].bound = bound;
        }
        if (k >= 0) bars[k].time += r->m.time_median_ms;
    }
    if (!(total > 0)) return free(bars), wb_skip(e, "no operator point has stall counters and a bound (a run with --counters roofline, the quick sweep's default, leaves the stall reasons out: run with --counters all)");
    qsort(bars, (size_t)nbars, sizeof *bars, by_time_desc);
    for (int k = 0; k < nbars && k < FIG6_BARS; k++) bars[k].shown = 1;
    char cols[256] = "label time_pct";
    for (int g = 0; g < WB_STALL_GROUPS; g++)
        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), " %s", wb_stall_groups[g]);
    FILE *f = wb_export_open(x, "", cols, e);
    if (!f) return free(bars), WB_ERR;
    for (int b = 0; b < 2; b++) x->rows += fig6_row(x, f, bars, nbars, -1, b, total);
    for (int k = 0; k < nbars && k < FIG6_BARS; k++) x->rows += fig6_row(x, f, bars, nbars, k, bars[k].bound, total);
    for (int b = 0; b < 2; b++) x->rows += fig6_row(x, f, bars, nbars, -2, b, total);
    free(bars);
    return wb_export_close(f, x, "", e);
}
