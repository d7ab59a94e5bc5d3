/* project_validate.c - `wallbench project --validate A.h5`: the projection
 * model tested on the GPU at hand (issue 8). Rows of A run with sm_limit = k
 * (one block per SM on k SMs) are a smaller GPU of the same kind: each is
 * compared with the time the model projects for it from the same point on
 * all SMs.
 *
 * What makes the test fair:
 * - The k-SM GPU's roof. Its instruction throughput is k/N of the measured
 *   inst_issue ceiling: instructions issue per SM sub-partition, so k SMs
 *   issue k/N of N's. Its bandwidth is not k/N of the full bandwidth: k SMs
 *   can keep only so many bytes in flight (Little's law), and the memory
 *   system saturates long before all SMs are used. So the bandwidth is
 *   measured: the dram_read ceiling run with the same sm_limit k. Without
 *   that row the full-GPU bandwidth is used and the row is marked: the
 *   projection of a memory-bound point is then too fast, not a test.
 * - The base. The model keeps the efficiency a point reached; what it claims
 *   to capture is the change of GPU, not a change of launch shape. The base
 *   is therefore the same point with sm_limit = N (one block per SM on every
 *   SM: the k rows' launch shape, only more SMs); when the file lacks it,
 *   the sm_limit = 0 row (the normal grid at full occupancy), and the table
 *   says so, since occupancy then changes too.
 * - The dram_read ceiling rows at k define the k-SM bandwidth, so they are
 *   not validated against it (that would be circular).
 * Beside the roofline model, the limiter's (issue 49 item 4, limiter.h): the
 * base's limiter on the full GPU's ceilings picks the ratio, DRAM by the
 * bandwidths measured at k and at the base, issue by k/N, L2, atomics and
 * latency as a range up to the SM ratio (one clock: the same GPU); the row
 * says whether the measured time lies in it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/ceilings.h"
#include "harness/tools/limiter.h"
#include "harness/tools/match.h"
#include "harness/base/metrics.h"
#include "harness/tools/project.h"
#include "harness/base/textable.h"
#include "harness/base/roof_contract.h"

#define BW_VARIANT WB_ROOF_DRAM_VARIANT

typedef struct validation {
    const wb_results *r;
    wb_roof full;      /* measured ceilings, all SMs */
    int sms;           /* N */
    double err_sum, err_max;
    int rows, fair;    /* fair: bandwidth at k measured */
    const wb_gpu_view *view; /* the full GPU's ceilings, for the base's limiter */
    int lim_points, lim_points_25, lim_ranges, lim_ranges_in; /* the limiter model over the fair rows */
    double lim_err_sum;
} validation;

/* Measured DRAM-read bandwidth of k SMs: the best ok dram_read ceiling row
 * run with sm_limit = k; NaN without one. */
static double bandwidth_at(const wb_results *r, int k) {
    double best = NAN;
    for (int64_t i = 0; i < r->nrows; i++) {
        const wb_row *x = &r->rows[i];
        if (strcmp(x->p.family, WB_CEILING_FAMILY) || strcmp(x->p.variant, BW_VARIANT) || strcmp(x->m.status, "ok") ||
            x->p.launch.sm_limit != k || !(x->m.gbps_model > 0))
            continue;
        if (isnan(best) || x->m.gbps_model > best) best = x->m.gbps_model;
    }
    return best;
}

/* The roof of a GPU of k of the N SMs; *measured_bw says whether its
 * bandwidth was measured at k (k = 0: the whole GPU as measured). */
static wb_roof roof_at(const validation *v, int k, int *measured_bw) {
    wb_roof roof = v->full;
    *measured_bw = 1;
    if (k <= 0) return roof;
    snprintf(roof.name, sizeof roof.name, "%d SMs", k);
    roof.inst_gips = v->full.inst_gips * k / v->sms;
    double bw = bandwidth_at(v->r, k);
    if (isfinite(bw)) roof.dram_gbps = bw;
    else *measured_bw = 0;
    return roof;
}

/* The base of row i: sm_limit = N if the file has it, else 0; -1 if none. */
static int64_t base_of(const validation *v, int64_t i) {
    int64_t zero = -1;
    const wb_row *x = &v->r->rows[i];
    for (int64_t j = 0; j < v->r->nrows; j++) {
        const wb_row *b = &v->r->rows[j];
        /* family, variant and n first: the full comparison formats every axis */
        if (strcmp(b->m.status, "ok") || b->p.n != x->p.n || strcmp(b->p.family, x->p.family) ||
            strcmp(b->p.variant, x->p.variant) || !wb_match_same(x, b, "sm_limit"))
            continue;
        if (b->p.launch.sm_limit == v->sms) return j;
        if (b->p.launch.sm_limit == 0 && zero < 0) zero = j;
    }
    return zero;
}

static double inst_of(const wb_row *r) {
    int i = wb_metric_index("inst");
    return i < 0 ? NAN : r->c.v[i];
}

typedef struct pair {
    int64_t row, base;
} pair;

static void add_row(validation *v, wb_textable *t, const pair *pr, const wb_column **cols, int ncols) {
    const wb_row *x = &v->r->rows[pr->row], *base = &v->r->rows[pr->base];
    const int k = x->p.launch.sm_limit, kb = base->p.launch.sm_limit;
    int bw_k_measured, bw_b_measured;
    wb_roof rk = roof_at(v, k, &bw_k_measured), rb = roof_at(v, kb, &bw_b_measured);
    const char *why = NULL;
    double proj = wb_project_time_ms(base, &rb, &rk, &why), meas = x->m.time_median_ms;
    double err = (proj - meas) / meas;
    char num[64];
    int row = wb_textable_add(t), c = 0;
    wb_textable_set(t, row, c++, "%s/%s", x->p.family, x->p.variant);
    for (int a = 0; a < ncols; a++) wb_textable_set(t, row, c++, "%s", wb_match_value(x, cols[a], num, sizeof num));
    wb_textable_set(t, row, c++, "%d", k);
    wb_textable_set(t, row, c++, "%s", kb ? "one block/SM" : "normal grid");
    wb_textable_set(t, row, c++, "%s", wb_textable_num(num, sizeof num, meas, 4));
    wb_textable_set(t, row, c++, "%s", isfinite(proj) ? wb_textable_num(num, sizeof num, proj, 4) : why);
    if (isfinite(err)) wb_textable_set(t, row, c++, "%+.1f%%", 100 * err);
    else wb_textable_set(t, row, c++, "-");
    wb_textable_set(t, row, c++, "%s", wb_roof_bound(&rk, base->c.inst_per_sector));
    wb_textable_set(t, row, c++, "%s%s", wb_textable_num(num, sizeof num, rk.dram_gbps, 0), bw_k_measured ? "" : " *");
    wb_textable_set(t, row, c++, "%.3f", inst_of(x) / inst_of(base));
    /* the limiter model: the base's limiter on the full GPU, its ratio from the base's SMs to k */
    wb_limit lim;
    wb_limit_of(&base->c, base->m.time_median_ms, v->view, &lim);
    const wb_limit_scale sc = {rb.dram_gbps, rk.dram_gbps, rb.inst_gips, rk.inst_gips, 1.0, 1.0, kb ? kb : v->sms, k};
    double lo, hi, bt = base->m.time_median_ms;
    wb_limit_ratio(lim.cls, &sc, proj / bt, &lo, &hi);
    lo *= bt, hi *= bt;
    const int point = lo == hi, in = meas >= lo * (1 - 1e-9) && meas <= hi * (1 + 1e-9);
    const double lerr = point ? (lo - meas) / meas : in ? 0 : ((meas < lo ? lo : hi) - meas) / meas;
    wb_textable_set(t, row, c++, "%s", wb_limit_class_name(lim.cls));
    if (!isfinite(lo)) wb_textable_set(t, row, c++, "-");
    else if (point) wb_textable_set(t, row, c++, "%s", wb_textable_num(num, sizeof num, lo, 4));
    else {
        char a[32];
        wb_textable_set(t, row, c++, "%s-%s", wb_textable_num(a, sizeof a, lo, 4), wb_textable_num(num, sizeof num, hi, 4));
    }
    if (!isfinite(lerr)) wb_textable_set(t, row, c++, "-");
    else if (point) wb_textable_set(t, row, c++, "%+.1f%%", 100 * lerr);
    else if (in) wb_textable_set(t, row, c++, "in range");
    else wb_textable_set(t, row, c++, "%+.1f%% out", 100 * lerr);
    if (!isfinite(err)) return;
    v->rows++;
    if (!bw_k_measured || !bw_b_measured) return;
    v->fair++;
    v->err_sum += fabs(err);
    if (fabs(err) > v->err_max) v->err_max = fabs(err);
    if (!isfinite(lerr)) return;
    if (point) v->lim_points++, v->lim_points_25 += fabs(lerr) <= 0.25, v->lim_err_sum += fabs(lerr);
    else v->lim_ranges++, v->lim_ranges_in += in;
}

/* Prints the table of the pairs: the axes that differ among them as
 * columns, the others once above it. */
static int print_pairs(validation *v, const pair *pairs, int n, int md) {
    const wb_row **rows = malloc((size_t)(n ? n : 1) * sizeof *rows);
    if (!rows) return WB_ERR;
    for (int i = 0; i < n; i++) rows[i] = &v->r->rows[pairs[i].row];
    const wb_column *cols[24];
    int ncols = wb_match_varying(rows, n, "sm_limit", cols, 16);
    const wb_column *all[64];
    int nall = wb_match_axes(all, 64);
    printf("%ssame in every row:", md ? "" : "  ");
    for (int a = 0; a < nall && n > 0; a++) {
        int shown = !strcmp(all[a]->name, "family") || !strcmp(all[a]->name, "variant") ||
                    !strcmp(all[a]->name, "sm_limit");
        for (int c = 0; c < ncols; c++) shown |= cols[c] == all[a];
        char num[64];
        if (!shown && strcmp(wb_match_value(rows[0], all[a], num, sizeof num), "-") != 0)
            printf(" %s %s;", all[a]->name, num);
    }
    printf("\n\n");
    free(rows);
    wb_textable t;
    wb_textable_init(&t, ncols + 12);
    int h = wb_textable_add(&t), c = 0;
    wb_textable_set(&t, h, c++, "point");
    for (int a = 0; a < ncols; a++) wb_textable_set(&t, h, c++, "%s", cols[a]->name);
    const char *head[] = {"k SMs", "base", "measured ms", "projected ms", "error", "bound at k", "GB/s at k",
                          "inst k/base", "limiter", "by limiter ms", "limiter error"};
    for (int i = 0; i < 11; i++) wb_textable_set(&t, h, c++, "%s", head[i]);
    for (int i = 0; i < n; i++) add_row(v, &t, &pairs[i], cols, ncols);
    wb_textable_print(stdout, &t, md);
    wb_textable_free(&t);
    return WB_OK;
}

static int skip_row(const wb_row *x) {
    return strcmp(x->m.status, "ok") != 0 || x->p.launch.sm_limit <= 0 ||
           (!strcmp(x->p.family, WB_CEILING_FAMILY) && !strcmp(x->p.variant, BW_VARIANT)); /* defines the k-SM bandwidth */
}

int wb_project_validate(const wb_results *r, int md, const wb_gpu_table *gpus) {
    wb_err e = {""};
    const char *path = r->path;
    validation v = {r, {"", NAN, NAN}, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0};
    wb_gpu_view view;
    wb_gpu_view_init(r, gpus, &view);
    v.view = &view;
    v.sms = view.sms;
    v.full = view.roof;
    int rc = 2;
    if (wb_results_attr_f64(r, "projected") == 1)
        wb_fail(&e, "%s is a projection; validate on a measured file", path);
    else if (!(v.full.inst_gips > 0) || !(v.full.dram_gbps > 0))
        wb_fail(&e, "%s: no measured ceilings (inst_issue, dram_read): the model needs the GPU's measured roof", path);
    else if (v.sms <= 0)
        wb_fail(&e, "%s: SM count unknown (attribute sm_count)", path);
    if (e.msg[0]) goto done;

    pair *pairs = malloc((size_t)(r->nrows + 1) * sizeof *pairs);
    int npairs = 0;
    int64_t candidates = 0, no_base = 0;
    if (!pairs) {
        wb_fail(&e, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < r->nrows; i++) {
        if (skip_row(&r->rows[i])) continue;
        candidates++;
        int64_t b = base_of(&v, i);
        if (b < 0) no_base++;
        else if (b != i) pairs[npairs++] = (pair){i, b}; /* b == i: the base itself */
    }
    if (!candidates)
        wb_fail(&e, "%s: no ok row with sm_limit > 0 (besides ceiling/%s): run the SM-scaling rows first", path,
                BW_VARIANT);
    else if (!npairs)
        wb_fail(&e, "%s: %lld ok row(s) with sm_limit > 0 but none with a base (the same point at sm_limit = %d "
                "or 0)", path, (long long)candidates, v.sms);
    if (!npairs) {
        free(pairs);
        goto done;
    }
    const char *intro =
        "SM-scaling validation of the projection model: rows run on k of the GPU's N SMs (one block per SM) "
        "against the time projected from the same point on all SMs (base: one block per SM on all N SMs, else "
        "the normal grid, which changes occupancy too). k-SM roof: instruction throughput = k/N of the measured "
        "inst_issue ceiling; bandwidth = the dram_read ceiling measured on k SMs (* where not measured: the "
        "full-GPU bandwidth, which makes memory-bound projections too fast). error = (projected - measured) / "
        "measured; inst k/base = instruction count drift between the two runs. The limiter model (issue 49): "
        "the base's limiter on the full GPU's ceilings; DRAM scales by the two bandwidths, issue by the SM "
        "ratio, L2, atomics and latency as a range from 1 to the SM ratio; its error is to the point, or to the "
        "nearer end of a range the measured time lies outside.";
    if (md) printf("**%s**\n\n%s\n\nGPU: %s, N = %d SMs, measured roof %.1f G inst/s, %.0f GB/s\n\n", path, intro,
                   view.gpu_name, v.sms, v.full.inst_gips, v.full.dram_gbps);
    else printf("%s\n%s\n  GPU: %s, N = %d SMs, measured roof %.1f G inst/s, %.0f GB/s\n", path, intro, view.gpu_name,
                v.sms, v.full.inst_gips, v.full.dram_gbps);
    if (print_pairs(&v, pairs, npairs, md) != WB_OK) {
        wb_fail(&e, "out of memory");
        free(pairs);
        goto done;
    }
    free(pairs);
    printf("\n%s%d row(s) compared; %d with the bandwidth measured at k: mean |error| %.1f%%, max |error| %.1f%%",
           md ? "" : "  ", v.rows, v.fair, v.fair ? 100 * v.err_sum / v.fair : NAN, 100 * v.err_max);
    if (no_base) printf("; %lld row(s) without a base (same point at sm_limit = %d or 0)", (long long)no_base, v.sms);
    printf("\n%slimiter model over those: %d point estimate(s)", md ? "" : "  ", v.lim_points);
    if (v.lim_points)
        printf(", %d within 25%% (mean |error| %.1f%%)", v.lim_points_25, 100 * v.lim_err_sum / v.lim_points);
    printf("; %d range(s), %d holding the measured time\n", v.lim_ranges, v.lim_ranges_in);
    rc = 0;
done:
    if (e.msg[0]) fprintf(stderr, "wallbench project: %s\n", e.msg);
    return rc;
}
