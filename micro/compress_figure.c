/* compress_figure.c - the compress family's figure (plots/fig-compress.gp):
 * for each bit width, a compressed form's speedup over the plain scan of the
 * same column and operator, measured on the file's GPU, and the same pair
 * projected to L4 and GH200 with `wallbench project`'s model (each point
 * keeps its efficiency; its counted instructions and DRAM sectors go on the
 * target's roof), next to the bytes ratio that bounds the speedup while
 * both scans are bandwidth-bound; where decoding's instructions bind, the
 * speedup falls under it.
 *   fig-compress.dat        one block per form/operator/layout: series
 *                           bit_width speedup speedup_l4 speedup_gh200
 *                           bytes_ratio time_ms plain_ms pct_of_roof
 *                           inst_per_sector n limiter limiter_l4
 *                           limiter_gh200
 *   fig-compress-roofs.dat  the rooflines (the file's, L4, GH200)
 * pct_of_roof: the compressed point's time against its counted work on the
 * file's measured roof (max(instructions / issue ceiling, DRAM bytes / read
 * ceiling)), in percent; limiter: which of the two binds the compressed
 * point on the file's roof, L4's and GH200's ("inst" or "dram"): where
 * "inst" binds, the speedup falls under the bytes ratio. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"
#include "harness/tools/project.h"

#define FAMILY "compress"

static const char *const forms[] = {"for", "delta", "dict"};
static const char *const ops[] = {"sum", "select"};
static const char *const layouts[] = {"uniform", "skewed", "sorted", "dict"};
#define NFORMS 3
#define NOPS 2
#define NLAYOUTS 4
#define WIDTHS 33

/* The fastest ok row of each (form: 0 plain, 1.. forms; op; layout; width)
 * at the file's largest n. */
typedef struct best {
    const wb_row *row[NFORMS + 1][NOPS][NLAYOUTS][WIDTHS];
    int64_t n;
} best;

static int index_of(const char *const *names, int count, const char *s, size_t len) {
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0) return i;
    return -1;
}

/* "for_sum" -> form 1, op 0; "plain_select" -> 0, 1; -1 for another name (cub). */
static int parse(const char *variant, int *form, int *op) {
    const char *u = strrchr(variant, '_');
    if (!u) return -1;
    *op = index_of(ops, NOPS, u + 1, strlen(u + 1));
    const size_t len = (size_t)(u - variant);
    *form = len == 5 && strncmp(variant, "plain", 5) == 0 ? 0 : index_of(forms, NFORMS, variant, len) + 1;
    return *op >= 0 && *form >= 0 ? 0 : -1;
}

static int collect(const wb_results *r, best *b) {
    memset(b, 0, sizeof *b);
    for (int64_t i = 0; i < r->nrows; i++) {
        const wb_row *w = &r->rows[i];
        if (strcmp(w->p.family, FAMILY) == 0 && wb_agg_is_op_point(w) && w->p.n > b->n) b->n = w->p.n;
    }
    int found = 0;
    for (int64_t i = 0; i < r->nrows; i++) {
        const wb_row *w = &r->rows[i];
        int form, op;
        if (strcmp(w->p.family, FAMILY) != 0 || !wb_agg_is_op_point(w) || w->p.n != b->n ||
            parse(w->p.variant, &form, &op) < 0 || w->p.bit_width < 0 || w->p.bit_width >= WIDTHS)
            continue;
        const int l = index_of(layouts, NLAYOUTS, w->p.layout, strlen(w->p.layout));
        if (l < 0) continue;
        const wb_row **o = &b->row[form][op][l][w->p.bit_width];
        if (!*o || w->m.time_median_ms < (*o)->m.time_median_ms) *o = w;
        found += form > 0;
    }
    return found;
}

/* plain over compressed time on a roof (the measured times when dst is NULL). */
static double speedup(const wb_row *plain, const wb_row *comp, const wb_roof *src, const wb_roof *dst) {
    if (!dst) return plain->m.time_median_ms / comp->m.time_median_ms;
    const char *why;
    return wb_project_time_ms(plain, src, dst, &why) / wb_project_time_ms(comp, src, dst, &why);
}

/* Which term of the projection's max binds the point on roof: "inst" or
 * "dram" ("-" without counters). The instruction term alone is the work on
 * the same roof with a bandwidth too large to matter. */
static const char *limiter(const wb_row *r, const wb_roof *roof) {
    const char *why;
    wb_roof inst_only = *roof;
    inst_only.dram_gbps = 1e30;
    const double all = wb_project_work_ms(r, roof, &why), inst = wb_project_work_ms(r, &inst_only, &why);
    return !isfinite(all) || !isfinite(inst) ? "-" : inst >= all ? "inst" : "dram";
}

static double pct_of_roof(const wb_row *r, const wb_roof *roof) {
    const char *why;
    return 100.0 * wb_project_work_ms(r, roof, &why) / r->m.time_median_ms;
}

#define COLUMNS \
    "series bit_width speedup speedup_l4 speedup_gh200 bytes_ratio time_ms plain_ms pct_of_roof inst_per_sector n " \
    "limiter limiter_l4 limiter_gh200"

static int export_compress(wb_export *x, wb_err *e) {
    best *b = malloc(sizeof *b);
    if (!b) return wb_fail(e, "out of memory");
    if (!collect(x->r, b)) {
        free(b);
        return wb_skip(e, "no ok point of the compress family (run --family compress)");
    }
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(x->gpus), *gh = wb_gpu_ref_gh200(x->gpus);
    wb_roof r_l4 = l4 ? wb_gpu_ref_roof(l4) : (wb_roof){"L4", NAN, NAN};
    wb_roof r_gh = gh ? wb_gpu_ref_roof(gh) : (wb_roof){"GH200", NAN, NAN};
    FILE *f = wb_export_open(x, "", COLUMNS, e);
    int blocks = 0;
    for (int form = 1; f && form <= NFORMS; form++)
        for (int op = 0; op < NOPS; op++)
            for (int l = 0; l < NLAYOUTS; l++) {
                int rows = 0;
                for (int w = 0; w < WIDTHS; w++) {
                    const wb_row *c = b->row[form][op][l][w], *p = b->row[0][op][l][w];
                    if (!c || !p) continue;
                    if (!rows++ && blocks++) wb_export_block_end(f);
                    char series[64];
                    snprintf(series, sizeof series, "%s_%s/%s", forms[form - 1], ops[op], layouts[l]);
                    wb_export_str(f, series);
                    const double v[10] = {w,
                                          speedup(p, c, &x->v.roof, NULL),
                                          speedup(p, c, &x->v.roof, &r_l4),
                                          speedup(p, c, &x->v.roof, &r_gh),
                                          p->p.bytes_model / c->p.bytes_model,
                                          c->m.time_median_ms,
                                          p->m.time_median_ms,
                                          pct_of_roof(c, &x->v.roof),
                                          c->c.inst_per_sector,
                                          (double)c->p.n};
                    for (int k = 0; k < 10; k++) wb_export_num(f, v[k]);
                    fprintf(f, " %s %s %s\n", limiter(c, &x->v.roof), limiter(c, &r_l4), limiter(c, &r_gh));
                    x->rows++;
                }
            }
    int rc = f ? wb_export_close(f, x, "", e) : WB_ERR;
    if (rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0) rc = WB_ERR;
    free(b);
    return rc;
}

const wb_figure wb_figure_compress = {"fig-compress", export_compress, 1};
