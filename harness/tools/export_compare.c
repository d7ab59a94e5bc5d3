/* export_compare.c - plots/fig-compare.gp (seed 000 Table 1 as a figure):
 * two results files, per matched point the speedup of this file's GPU over
 * the other's, against this file's instruction intensity, with the two
 * files' DRAM-bandwidth and instruction-throughput ratios as reference
 * lines: memory-bound points should sit near the first, compute-bound near
 * the second. Points match on their full name (family, variant, every axis)
 * and repetition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export.h"

#define NAME_MAX_LEN 256

static char *names_of(const wb_results *r) {
    char *names = malloc((size_t)(r->nrows + 1) * NAME_MAX_LEN);
    for (int64_t i = 0; names && i < r->nrows; i++) {
        char *at = names + i * NAME_MAX_LEN;
        wb_point_name(&r->rows[i].p, at, NAME_MAX_LEN - 16);
        snprintf(at + strlen(at), 16, "#%d", r->rows[i].m.repetition);
    }
    return names;
}

static double best_inst(const wb_gpu_view *v) { return isfinite(v->inst_gips) ? v->inst_gips : v->inst_theory_gips; }

/* "H200" or, for two runs of one GPU model, "H200 47c0bec": the runs are
 * told apart by the revision that measured them. */
static void side_label(const wb_gpu_view *v, const wb_results *r, int same, char *buf, size_t len) {
    const char *rev = wb_results_attr(r, "git_revision");
    if (same) snprintf(buf, len, "%s %.7s", v->label, rev && *rev ? rev : "?");
    else snprintf(buf, len, "%s%s", v->label, strcmp(v->kind, "projected") == 0 ? " (projected)" : "");
}

/* same_model = 1: two runs of one GPU model, whose hardware ratios are 1 by
 * construction (the figure then draws only the 1.0x line). The boards
 * (wb_export_board) say whether the runs shared one. */
static int write_ratios(wb_export *x, const wb_gpu_view *o, wb_err *e) {
    FILE *f = wb_export_open(x, "-ratios", "bw_ratio inst_ratio this other same_model this_board other_board other_file", e);
    if (!f) return WB_ERR;
    const int same = strcmp(x->v.label, o->label) == 0;
    char this_label[96], other_label[96], this_board[32], other_board[32];
    side_label(&x->v, x->r, same, this_label, sizeof this_label);
    side_label(o, x->other, same, other_label, sizeof other_label);
    wb_export_num(f, x->v.dram_read_gbps / o->dram_read_gbps);
    wb_export_num(f, best_inst(&x->v) / best_inst(o));
    fputc(' ', f);
    wb_export_str(f, this_label);
    fputc(' ', f);
    wb_export_str(f, other_label);
    wb_export_num(f, same);
    fputc(' ', f);
    wb_export_str(f, wb_export_board(x->r, this_board, sizeof this_board));
    fputc(' ', f);
    wb_export_str(f, wb_export_board(x->other, other_board, sizeof other_board));
    /* the --with file's stem: two runs of one revision are told apart by their files */
    const char *base = strrchr(x->other->path, '/');
    char stem[sizeof x->other->path];
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : x->other->path);
    char *dot = strstr(stem, ".h5");
    if (dot) *dot = '\0';
    fputc(' ', f);
    wb_export_str(f, stem);
    fputc('\n', f);
    return wb_export_close(f, x, "-ratios", e);
}

int wb_export_compare(wb_export *x, wb_err *e) {
    if (!x->other)
        return wb_skip(e, "needs two results files: set attribute compare_with, or pass --with OTHER.h5");
    wb_gpu_view o;
    wb_gpu_view_init(x->other, x->gpus, &o);
    char *a = names_of(x->r), *b = names_of(x->other);
    int64_t *match = malloc((size_t)(x->r->nrows + 1) * sizeof *match);
    int rc = a && b && match ? WB_OK : wb_fail(e, "out of memory");
    int64_t matched = 0;
    for (int64_t i = 0; rc == WB_OK && i < x->r->nrows; i++) {
        match[i] = -1;
        const wb_row *r = &x->r->rows[i];
        if (!wb_agg_is_op_point(r) || !(r->c.inst_per_sector > 0)) continue;
        for (int64_t j = 0; j < x->other->nrows && match[i] < 0; j++)
            if (wb_agg_is_op_point(&x->other->rows[j]) && strcmp(a + i * NAME_MAX_LEN, b + j * NAME_MAX_LEN) == 0)
                match[i] = j, matched++;
    }
    if (rc == WB_OK && !matched)
        rc = wb_skip(e, "no point of %s with counters matches a point of %s", x->r->path, x->other->path);
    FILE *f = NULL;
    if (rc == WB_OK && !(f = wb_export_open(x, "", "series family variant inst_per_sector speedup time_ms time_other_ms", e)))
        rc = WB_ERR;
    /* one block per family, in this file's order */
    for (int64_t i = 0; f && i < x->r->nrows; i++) {
        if (match[i] < 0) continue;
        int64_t k = 0;
        while (k < i && (match[k] < 0 || strcmp(x->r->rows[k].p.family, x->r->rows[i].p.family) != 0)) k++;
        if (k < i) continue; /* family already written */
        if (x->rows) wb_export_block_end(f);
        for (int64_t j = i; j < x->r->nrows; j++) {
            const wb_row *r = &x->r->rows[j];
            if (match[j] < 0 || strcmp(r->p.family, x->r->rows[i].p.family) != 0) continue;
            const wb_row *q = &x->other->rows[match[j]];
            fprintf(f, "%s %s %s", r->p.family, r->p.family, r->p.variant);
            wb_export_num(f, r->c.inst_per_sector);
            wb_export_num(f, q->m.time_median_ms / r->m.time_median_ms);
            wb_export_num(f, r->m.time_median_ms);
            wb_export_num(f, q->m.time_median_ms);
            fputc('\n', f);
            x->rows++;
        }
    }
    if (f) rc = wb_export_close(f, x, "", e);
    if (rc == WB_OK) rc = write_ratios(x, &o, e);
    free(a);
    free(b);
    free(match);
    return rc;
}
