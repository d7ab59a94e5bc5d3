/* project_profile.c - `wallbench project PROFILE.h5 --to GPU [-o FILE]
 * [--markdown]` (project.c parses the options of both file kinds): each kernel's time and the program's kernel time on any row
 * of harness/gpus.tsv, with project.h's model (a kernel's counted work on
 * each roof, the efficiency it reached on the measured GPU carried over):
 * t_to = t_measured x W(to) / W(from), W = max(inst / inst_gips, DRAM sectors
 * x 32 / dram_gbps). With -o, a projected profile file: every launch of a
 * projected kernel scaled by its kernel's ratio, no timeline (start/end -1),
 * aggregated again against the target's roof and marked projected.
 * Beside it, the limiter's model (issue 49, limiter.h): each timed launch
 * scaled by the ratio of what limits it, DRAM bandwidth or instruction issue
 * (the same roofs), and where the target has no measured counterpart of the
 * limiter a range: latency from the SM clock (a chain of dependent steps) to
 * SMs x clock (as many chains as SMs), atomics the same (the L2's atomic
 * units follow its slices and clock, which gpus.tsv lacks), L2 from SMs x
 * clock to the DRAM ratio;
 * unknown (not counted) keeps the roofline model's ratio. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/profile_agg.h"
#include "harness/base/textable.h"
#include "harness/store/profile_h5.h"
#include "harness/tools/ceilings.h"
#include "harness/tools/limiter.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/project.h"

typedef struct pproj {
    const char *path;
    const wb_profile *p;
    const wb_gpu_ref *g;
    wb_roof from, to;
    char from_source[96];
    double *ratio;       /* per kernel: t_to / t_from; NaN not projected */
    const char **why;    /* per kernel: why not */
} pproj;

/* Attributes that describe the source GPU or its roof: not carried into a projection. */
static int source_only(const char *name) {
    static const char *const prefixes[] = {"gpu_", "sm_", "ceiling_", "ceilings_", "roof_", "driver", "nvml",
                                           "mem_", "l2_", "max_threads", "smem_per_sm", "compute_capability", "clock"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

static int write_projection(const pproj *x, const char *out, wb_err *e) {
    const wb_profile *p = x->p;
    wb_profile q;
    memset(&q, 0, sizeof q);
    q.nlaunches = p->nlaunches, q.nkernels = p->nkernels, q.nranges = p->nranges;
    q.launches = malloc(((size_t)p->nlaunches + 1) * sizeof *q.launches);
    q.kernels = malloc(((size_t)p->nkernels + 1) * sizeof *q.kernels);
    q.ranges = malloc(((size_t)p->nranges + 1) * sizeof *q.ranges);
    if (!q.launches || !q.kernels || !q.ranges) {
        wb_profile_free(&q);
        return wb_fail(e, "%s: out of memory for the projection", out);
    }
    memcpy(q.launches, p->launches, (size_t)p->nlaunches * sizeof *q.launches);
    memcpy(q.kernels, p->kernels, (size_t)p->nkernels * sizeof *q.kernels);
    memcpy(q.ranges, p->ranges, (size_t)p->nranges * sizeof *q.ranges);
    for (int64_t i = 0; i < q.nlaunches; i++) {
        wb_prof_launch *l = &q.launches[i];
        l->time_ms *= x->ratio[l->kernel]; /* NaN for a kernel that cannot be projected */
        l->start_ns = l->end_ns = -1;
    }
    int rc = WB_OK;
    for (int32_t i = 0; rc == WB_OK && i < p->nattrs; i++) {
        const wb_prof_attr *a = &p->attrs[i];
        if (source_only(a->name)) continue;
        rc = a->is_number ? wb_profile_attr_num(&q, a->name, strtod(a->value, NULL), e)
                          : wb_profile_attr_str(&q, a->name, a->value, e);
    }
    char name[128];
    snprintf(name, sizeof name, "%.80s (projected)", x->g->model);
    const char *src_gpu = wb_profile_attr(p, "gpu_name");
    if (rc == WB_OK) rc = wb_profile_attr_str(&q, "gpu_name", name, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(&q, "projected", 1, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(&q, "projected_to", x->g->profile, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(&q, "projected_from", x->path, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(&q, "projected_source_gpu", src_gpu ? src_gpu : "", e);
    if (rc == WB_OK) rc = wb_profile_attr_str(&q, "projected_source_roof", x->from_source, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(&q, "projected_inst_gips", x->to.inst_gips, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(&q, "projected_dram_gbps", x->to.dram_gbps, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(&q, "sm_count", x->g->sms, e);
    if (rc == WB_OK)
        rc = wb_profile_attr_str(&q, "projected_model",
                                 "launch time = measured time x W(target) / W(source) of its kernel, W = max(inst / "
                                 "inst_gips, (dram_sectors_read + dram_sectors_write) x 32 / dram_gbps) over the "
                                 "kernel's counted launches: the efficiency reached on the source is kept; counters "
                                 "are the source's; no timeline (start_ns, end_ns -1); kernels without counts: NaN",
                                 e);
    if (rc == WB_OK) rc = wb_profile_aggregate(&q, &x->to, e);
    if (rc == WB_OK) rc = wb_profile_write(out, &q, e);
    wb_profile_free(&q);
    return rc;
}

/* The limiter model's ratio range [lo, hi] (target time / measured time) for class cls. */
static void limiter_ratio(int cls, const pproj *x, const wb_gpu_view *v, double roofline, double *lo, double *hi) {
    const wb_gpu_ref *g = x->g, *s = v->ref; /* the source's clock and SMs: its ceilings', else its row's */
    double clk_to = isfinite(g->measured_clock_ghz) ? g->measured_clock_ghz : g->boost_clock_ghz;
    double clk_from = isfinite(v->clock_ghz) ? v->clock_ghz
                      : !s                  ? NAN
                      : isfinite(s->measured_clock_ghz) ? s->measured_clock_ghz : s->boost_clock_ghz;
    const wb_limit_scale sc = {x->from.dram_gbps, x->to.dram_gbps, x->from.inst_gips, x->to.inst_gips,
                               clk_from, clk_to, v->sms > 0 ? v->sms : s ? s->sms : -1, g->sms};
    wb_limit_ratio(cls, &sc, roofline, lo, hi);
}

/* The limiter model, kernel by kernel: every timed launch's limiter and its ratio range; the kernel's
 * time the limiter that holds most of it (cls), lo and hi its projected time. */
typedef struct lproj {
    double lo, hi;
    double by_class[WB_LIM_CLASSES];
} lproj;

static void limiter_model(const pproj *x, const wb_results *r, const wb_gpu_table *gt, lproj *k) {
    const wb_profile *p = x->p;
    wb_gpu_view v;
    wb_gpu_view_init(r, gt, &v);
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (!(l->time_ms > 0) || l->kernel < 0 || l->kernel >= p->nkernels) continue;
        wb_limit lim;
        wb_limit_of(&l->c, l->time_ms, &v, &lim);
        double lo, hi;
        limiter_ratio(lim.cls, x, &v, x->ratio[l->kernel], &lo, &hi);
        lproj *y = &k[l->kernel];
        y->lo += l->time_ms * lo, y->hi += l->time_ms * hi, y->by_class[lim.cls] += l->time_ms;
    }
}

static int project(pproj *x, const wb_results *r, const wb_gpu_table *gt, int md, const char *out) {
    const wb_profile *p = x->p;
    wb_err e = {""};
    if (wb_project_file_roof(r, gt, &x->from, x->from_source, sizeof x->from_source) != 0) {
        fprintf(stderr, "wallbench project: %s: no measured ceilings and its GPU is not in gpus.tsv: nothing to project from\n",
                x->path);
        return 2;
    }
    int32_t *order = wb_profile_by_time(p, WB_PT_KERNELS);
    if (!order) return fprintf(stderr, "wallbench project: out of memory\n"), 2;
    /* the roofline model's ratios first: the limiter model falls back on them */
    for (int32_t i = 0; i < p->nkernels; i++) {
        const char *why = NULL;
        double to = wb_project_time_ms(&r->rows[i], &x->from, &x->to, &why);
        x->ratio[i] = isfinite(to) ? to / p->kernels[i].total_ms : NAN;
        x->why[i] = !isfinite(p->kernels[i].total_ms) ? "never timed" : why ? why : "";
    }
    lproj *lk = calloc((size_t)p->nkernels + 1, sizeof *lk);
    if (!lk) return free(order), fprintf(stderr, "wallbench project: out of memory\n"), 2;
    if (p->launches) limiter_model(x, r, gt, lk);
    wb_textable t;
    wb_textable_init(&t, 9);
    int h = wb_textable_add(&t);
    const char *heads[9] = {"#", "Kernel", "Measured ms", "Projected ms", "Ratio", "Bound there", "Limiter",
                            "By limiter ms (low)", "(high)"};
    for (int c = 0; c < 9; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    double lim_lo = 0, lim_hi = 0, lim_ms = 0;
    double sum_from = 0, sum_to = 0, left_ms = 0;
    int projected = 0, left = 0;
    for (int32_t j = 0; j < p->nkernels; j++) {
        int32_t i = order[j];
        const wb_prof_kernel *k = &p->kernels[i];
        const double to = x->ratio[i] * k->total_ms; /* NaN where the model could not project it */
        char label[48];
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%d", i);
        wb_textable_set(&t, row, 1, "%s", wb_profile_kernel_label_in(p, i, label, sizeof label));
        wb_textable_set_num(&t, row, 2, k->total_ms, 3);
        wb_textable_set_num(&t, row, 3, to, 3);
        wb_textable_set_num(&t, row, 4, x->ratio[i], 2);
        const char *b = isfinite(to) ? wb_roof_bound(&x->to, k->c.inst_per_sector) : "";
        if (isinf(k->c.inst_per_sector) && isfinite(to)) b = "compute";
        wb_textable_set(&t, row, 5, "%s", b[0] ? b : "-");
        int top = -1; /* the class holding most of the kernel's time */
        for (int c = 0; c < WB_LIM_CLASSES; c++)
            if (lk[i].by_class[c] > 0 && (top < 0 || lk[i].by_class[c] > lk[i].by_class[top])) top = c;
        wb_textable_set(&t, row, 6, "%s", top >= 0 ? wb_limit_class_name(top) : "-");
        wb_textable_set_num(&t, row, 7, top >= 0 ? lk[i].lo : NAN, 3);
        wb_textable_set_num(&t, row, 8, top >= 0 ? lk[i].hi : NAN, 3);
        if (top >= 0 && isfinite(lk[i].lo) && isfinite(lk[i].hi)) lim_lo += lk[i].lo, lim_hi += lk[i].hi, lim_ms += k->total_ms;
        if (isfinite(to)) sum_from += k->total_ms, sum_to += to, projected++;
        else {
            left++;
            if (isfinite(k->total_ms)) left_ms += k->total_ms;
        }
    }
    int row = wb_textable_add(&t);
    wb_textable_set(&t, row, 1, "Total (%d kernels projected)", projected);
    wb_textable_set_num(&t, row, 2, sum_from, 3);
    wb_textable_set_num(&t, row, 3, sum_to, 3);
    wb_textable_set_num(&t, row, 4, sum_from > 0 ? sum_to / sum_from : NAN, 2);
    wb_textable_set_num(&t, row, 7, lim_ms > 0 ? lim_lo : NAN, 3);
    wb_textable_set_num(&t, row, 8, lim_ms > 0 ? lim_hi : NAN, 3);
    const char *nl = md ? "\n\n" : "\n";
    printf("%s%s on %s (%s)%s", md ? "**Projection** of " : "projection of ", x->path, x->g->model, x->g->profile, nl);
    printf("  from %s (%s: %.1f G inst/s, %.0f GB/s)%s  to   %s (%s: %.1f G inst/s, %.0f GB/s, ridge %.1f inst/sector)%s",
           x->from.name, x->from_source, x->from.inst_gips, x->from.dram_gbps, "\n", x->g->model,
           "reference table", x->to.inst_gips, x->to.dram_gbps,
           /* the table's ridge, as every other command prints it (L4: 44.0; 413 / (300 / 32) = 44.05) */
           isfinite(x->g->ridge) && x->g->ridge > 0 ? x->g->ridge : wb_roof_ridge(&x->to), nl);
    wb_textable_print(stdout, &t, md);
    wb_textable_free(&t);
    printf("%smodel: a kernel's time x W(target) / W(source), W = max(inst / inst_gips, DRAM sectors x 32 / dram_gbps) "
           "of its counted launches (project.h); its efficiency on the source is kept.%s",
           md ? "\n" : "", nl);
    if (lim_ms > 0)
        printf("%sby limiter (issue 49): each timed launch x the ratio of what limits it (limiter.h): DRAM bandwidth or "
               "instruction issue of the two roofs above; latency and atomics (no L2 atomic rate in gpus.tsv): from the "
               "SM clock ratio to SMs x clock; L2 (no L2 "
               "bandwidth in gpus.tsv): from SMs x clock to the DRAM ratio; not counted: the roofline model's ratio. "
               "Of %.3f ms measured: %.3f to %.3f ms on %s.%s",
               md ? "\n" : "", lim_ms, lim_lo, lim_hi, x->g->profile, nl);
    if (left) {
        printf("%d kernels not projected (%.3f ms measured, not in the total):", left, left_ms);
        for (int32_t j = 0, shown = 0; j < p->nkernels && shown < 10; j++)
            if (isnan(x->ratio[order[j]])) {
                char label[48];
                printf("%s %s (%s)", shown++ ? ";" : "", wb_profile_kernel_label_in(p, order[j], label, sizeof label),
                       x->why[order[j]]);
            }
        printf("%s", nl);
    }
    free(order);
    free(lk);
    int rc = 0;
    if (out) {
        if (!projected) {
            fprintf(stderr, "wallbench project: %s: no kernel could be projected; no file written\n", x->path);
            rc = 2;
        } else if (write_projection(x, out, &e) != WB_OK) {
            fprintf(stderr, "wallbench project: %s\n", e.msg);
            rc = 2;
        } else {
            printf("projected profile -> %s\n", out);
        }
    }
    return rc;
}

int wb_project_profile(const wb_rows *rows, const wb_gpu_table *t, const wb_gpu_ref *g, int md, const char *out) {
    const wb_profile *p = &rows->p;
    pproj x = {rows->path, p, g, {"", NAN, NAN}, wb_gpu_ref_roof(g), "", NULL, NULL};
    x.ratio = calloc((size_t)p->nkernels + 1, sizeof *x.ratio);
    x.why = calloc((size_t)p->nkernels + 1, sizeof *x.why);
    int rc = x.ratio && x.why ? project(&x, &rows->r, t, md, out) : (fprintf(stderr, "wallbench project: out of memory\n"), 2);
    free(x.ratio);
    free(x.why);
    return rc;
}
