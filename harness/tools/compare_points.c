/* compare_points.c - the matched points of `wallbench compare`: verdicts,
 * sums per family, and the per-point tables (see compare.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/compare.h"
#include "harness/base/roof_contract.h"

#define SAME_RATIO 1.1 /* hardware ratios closer than this cannot tell which one a point follows */

const char *wb_cmp_follows(const wb_cmp *c, double speedup) {
    if (!isfinite(speedup) || !(speedup > 0) || !(c->r_bw > 0) || !(c->r_inst > 0)) return "-";
    if (fabs(log(c->r_bw / c->r_inst)) < log(SAME_RATIO)) return "-";
    return fabs(log(speedup / c->r_bw)) <= fabs(log(speedup / c->r_inst)) ? "bandwidth" : "instructions";
}

static int measured(const wb_row *r) {
    return !strcmp(r->m.status, "ok") && isfinite(r->m.time_median_ms) && r->m.time_median_ms > 0;
}

static void judge(const wb_cmp *c, wb_cmp_pair *p) {
    const wb_results *ra = &c->a.r, *rb = &c->b.r;
    const wb_row *x = &ra->rows[p->a], *y = &rb->rows[p->b];
    p->ratio = p->p = NAN;
    p->few = 0;
    p->bound_a = wb_agg_bound(x, &c->a.v);
    p->bound_b = wb_agg_bound(y, &c->b.v);
    p->bound_changed = *p->bound_a && *p->bound_b && strcmp(p->bound_a, p->bound_b) != 0;
    if (!measured(x) || !measured(y)) {
        const wb_row *bad = measured(x) ? y : x;
        const char *sa = x->m.status[0] ? x->m.status : "not measured", *sb = y->m.status[0] ? y->m.status : "not measured";
        if (!measured(x) && !measured(y)) /* both: said of both, not of A alone */
            snprintf(p->status_note, sizeof p->status_note, strcmp(sa, sb) ? "A %s, B %s" : "both %s", sa, sb);
        else
            snprintf(p->status_note, sizeof p->status_note, "%s %s", bad == x ? "A" : "B", bad == x ? sa : sb);
        p->verdict = p->status_note;
        return;
    }
    p->ratio = y->m.time_median_ms / x->m.time_median_ms;
    const int na = ra->sample_count[p->a], nb = rb->sample_count[p->b];
    if (c->a.projected || c->b.projected) {
        p->verdict = "no test (projected)";
        return;
    }
    if (na < WB_MWU_MIN_SAMPLES || nb < WB_MWU_MIN_SAMPLES) {
        p->verdict = "too few samples";
        return;
    }
    wb_mwu u;
    if (wb_mwu_test(ra->sample_ms + ra->sample_start[p->a], na, rb->sample_ms + rb->sample_start[p->b], nb, &u) != 0) {
        p->verdict = "too few samples"; /* a NaN sample: nothing to test */
        return;
    }
    p->p = u.p;
    p->few = na < WB_MWU_OPTIMAL_SAMPLES || nb < WB_MWU_OPTIMAL_SAMPLES;
    p->small = u.p < WB_MWU_ALPHA && fabs(p->ratio - 1) < c->min_effect;
    p->verdict = u.p >= WB_MWU_ALPHA || p->small ? "same" : p->ratio < 1 ? "faster" : "slower";
}

static void count(wb_cmp_family *f, const wb_cmp_pair *p, const wb_cmp *c) {
    f->matched++;
    f->bound_changed += p->bound_changed;
    if (isnan(p->ratio)) { /* so that matched = faster + slower + same + no test + not measured */
        f->unmeasured++;
        return;
    }
    f->pairs++;
    f->sum_a += c->a.r.rows[p->a].m.time_median_ms;
    f->sum_b += c->b.r.rows[p->b].m.time_median_ms;
    if (p->ratio > 0 && isfinite(p->ratio)) f->sum_log += log(p->ratio), f->nlog++;
    if (isnan(p->p)) f->untested++;
    else if (!strcmp(p->verdict, "faster")) f->faster++;
    else if (!strcmp(p->verdict, "slower")) f->slower++;
    else f->same++, f->small += p->small;
}

/* Index of family name in fam (appending it when new), or -1 when out of room. */
static int family_index(wb_cmp_family *fam, int *nfam, int cap, const char *name) {
    for (int i = 0; i < *nfam; i++)
        if (!strcmp(fam[i].name, name)) return i;
    if (*nfam == cap) return -1;
    memset(&fam[*nfam], 0, sizeof fam[*nfam]);
    snprintf(fam[*nfam].name, sizeof fam[*nfam].name, "%s", name);
    return (*nfam)++;
}

int wb_cmp_families(wb_cmp *c, wb_cmp_family **fam, int *nfam, wb_err *e) {
    const int64_t na = c->a.r.nrows, nb = c->b.r.nrows;
    const int cap = (int)(na + nb + 1);
    *nfam = 0;
    *fam = calloc((size_t)cap, sizeof **fam);
    c->pairs = calloc((size_t)(c->m.matched + 1), sizeof *c->pairs);
    if (!*fam || !c->pairs) return wb_fail(e, "out of memory");
    memset(&c->all, 0, sizeof c->all);
    snprintf(c->all.name, sizeof c->all.name, "all operator families");
    for (int side = 0; side < 2; side++) {
        const wb_results *r = side ? &c->b.r : &c->a.r;
        const int64_t *other = side ? c->m.b_to_a : c->m.a_to_b;
        for (int64_t i = 0; i < r->nrows; i++) {
            const char *name = r->rows[i].p.family;
            if (c->family && strcmp(name, c->family) != 0) continue;
            int f = family_index(*fam, nfam, cap, name);
            if (f < 0) return wb_fail(e, "out of memory");
            const int op = strcmp(name, WB_CEILING_FAMILY) != 0;
            if (other[i] < 0) {
                int *only = side ? &(*fam)[f].only_b : &(*fam)[f].only_a;
                (*only)++;
                if (op) (*(side ? &c->all.only_b : &c->all.only_a))++;
                continue;
            }
            if (side) continue; /* a matched pair is counted once, from A */
            wb_cmp_pair *p = &c->pairs[c->npairs++];
            p->a = i;
            p->b = other[i];
            judge(c, p);
            count(&(*fam)[f], p, c);
            if (op) count(&c->all, p, c);
        }
    }
    return WB_OK;
}

static void only_list(const wb_cmp *c, const wb_cmp_family *f, int side) {
    const wb_cmp_side *s = side ? &c->b : &c->a;
    const int64_t *other = side ? c->m.b_to_a : c->m.a_to_b;
    int n = side ? f->only_b : f->only_a;
    if (!n) return;
    printf("\n%sonly in %s (%s, %s): %d point(s)\n", c->md ? "" : "  ", s->tag, s->r.path,
           s->projected ? "projected" : "measured", n);
    char label[256];
    for (int64_t i = 0; i < s->r.nrows; i++)
        if (other[i] < 0 && !strcmp(s->r.rows[i].p.family, f->name))
            printf("%s%s\n", c->md ? "- " : "    ", wb_match_label(&s->r.rows[i], label, sizeof label));
}

/* The column heads: "A ms", or "B ms (projected)". */
static void side_head(wb_textable *t, int h, int col, const wb_cmp_side *s, const char *what) {
    wb_textable_set(t, h, col, "%s %s%s", s->tag, what, s->projected ? " (projected)" : "");
}

int wb_cmp_points(const wb_cmp *c, const wb_cmp_family *f, wb_err *e) {
    const wb_row **rows = malloc((size_t)(f->matched + 1) * sizeof *rows);
    if (!rows) return wb_fail(e, "out of memory");
    int n = 0, reps = 0;
    for (int64_t k = 0; k < c->npairs; k++) {
        const wb_row *x = &c->a.r.rows[c->pairs[k].a];
        if (strcmp(x->p.family, f->name) != 0) continue;
        rows[n++] = x;
        reps |= x->m.repetition != 0;
    }
    const wb_column *cols[20], *all[64];
    const int ncols = wb_match_varying(rows, n, NULL, cols, 16), nall = wb_match_axes(all, 64);
    if (c->md) printf("\n### %s: per point\n\n", f->name);
    else printf("\n%s: per point\n", f->name);
    if (n) {
        printf("%ssame in every row:", c->md ? "" : "  ");
        char num[64];
        for (int a = 0; a < nall; a++) {
            int shown = !strcmp(all[a]->name, "family") || !strcmp(all[a]->name, "variant");
            for (int k = 0; k < ncols; k++) shown |= cols[k] == all[a];
            /* axes the family does not have ("-") would only add noise */
            if (!shown && strcmp(wb_match_value(rows[0], all[a], num, sizeof num), "-") != 0)
                printf(" %s %s;", all[a]->name, num);
        }
        printf("\n\n");
        wb_textable t;
        wb_textable_init(&t, ncols + reps + 12);
        int h = wb_textable_add(&t), col = 0;
        wb_textable_set(&t, h, col++, "variant");
        for (int k = 0; k < ncols; k++) wb_textable_set(&t, h, col++, "%s", cols[k]->name);
        if (reps) wb_textable_set(&t, h, col++, "rep");
        side_head(&t, h, col++, &c->a, "ms");
        side_head(&t, h, col++, &c->b, "ms");
        wb_textable_set(&t, h, col++, "B/A");
        wb_textable_set(&t, h, col++, "B vs A");
        wb_textable_set(&t, h, col++, "p");
        side_head(&t, h, col++, &c->a, "inst/sector");
        side_head(&t, h, col++, &c->b, "inst/sector");
        side_head(&t, h, col++, &c->a, "bound");
        side_head(&t, h, col++, &c->b, "bound");
        wb_textable_set(&t, h, col++, "bound changed");
        wb_textable_set(&t, h, col++, "follows");
        for (int64_t k = 0; k < c->npairs; k++) {
            const wb_cmp_pair *p = &c->pairs[k];
            const wb_row *x = &c->a.r.rows[p->a], *y = &c->b.r.rows[p->b];
            if (strcmp(x->p.family, f->name) != 0) continue;
            int row = wb_textable_add(&t);
            col = 0;
            wb_textable_set(&t, row, col++, "%s", x->p.variant);
            for (int a = 0; a < ncols; a++) wb_textable_set(&t, row, col++, "%s", wb_match_value(x, cols[a], num, sizeof num));
            if (reps) wb_textable_set(&t, row, col++, "%d", x->m.repetition);
            wb_textable_set(&t, row, col++, "%s", wb_textable_num(num, sizeof num, x->m.time_median_ms, 4));
            wb_textable_set(&t, row, col++, "%s", wb_textable_num(num, sizeof num, y->m.time_median_ms, 4));
            wb_textable_set(&t, row, col++, "%s", wb_textable_num(num, sizeof num, p->ratio, 3));
            wb_textable_set(&t, row, col++, "%s%s%s", p->verdict, p->small ? " (<min)" : "", p->few ? "*" : "");
            if (isnan(p->p)) wb_textable_set(&t, row, col++, "-");
            else wb_textable_set(&t, row, col++, "%.3g", p->p);
            wb_textable_set(&t, row, col++, "%s", wb_textable_num(num, sizeof num, x->c.inst_per_sector, 2));
            wb_textable_set(&t, row, col++, "%s", wb_textable_num(num, sizeof num, y->c.inst_per_sector, 2));
            wb_textable_set(&t, row, col++, "%s", *p->bound_a ? p->bound_a : "-");
            wb_textable_set(&t, row, col++, "%s", *p->bound_b ? p->bound_b : "-");
            wb_textable_set(&t, row, col++, "%s", !*p->bound_a || !*p->bound_b ? "-" : p->bound_changed ? "yes" : "no");
            wb_textable_set(&t, row, col++, "%s", wb_cmp_follows(c, 1 / p->ratio));
        }
        wb_textable_print(stdout, &t, c->md);
        wb_textable_free(&t);
    }
    free(rows);
    only_list(c, f, 0);
    only_list(c, f, 1);
    return WB_OK;
}
