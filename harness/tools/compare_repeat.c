/* compare_repeat.c - `wallbench compare A B --repeat`: repeatability of two
 * runs of one sweep on one GPU model. Of the matched points measured on both
 * sides whose medians are at least min_ms on both, the share whose medians
 * agree within `within` (|B/A - 1| <= within), per family and overall, then
 * the least repeatable points with their spread and each side's in-run noise
 * (stddev / median of its samples), so that a noisy kernel (contended
 * atomics) is told apart from a run that moved, and each side's HBM
 * temperature after its samples (schema 5), so that a side measured on a
 * hotter board shows; and a note when the two runs' commands differ. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/stats.h"
#include "harness/tools/compare.h"
#include "harness/tools/sides.h"

typedef struct spread {
    const wb_cmp_pair *p;
    double dev; /* |B/A - 1| */
} spread;

static int by_dev(const void *x, const void *y) {
    const spread *a = x, *b = y;
    return (a->dev < b->dev) - (a->dev > b->dev);
}

static double in_run_noise(const wb_row *r) {
    return r->m.time_median_ms > 0 ? r->m.time_stddev_ms / r->m.time_median_ms : NAN;
}

/* Repeatability is a property of one GPU: say so when the two files, or a
 * merged one's shards, ran on different boards (two H200s were 11% apart in
 * random reads at equal bandwidth, results/h200-repeat/boards.txt). */
static void board_note(const wb_cmp *c) {
    const char *a = wb_side_boards(&c->a.r), *b = wb_side_boards(&c->b.r);
    if (!strcmp(a, b) && !strchr(a, ',')) return;
    printf("\nNOTE: not one GPU: A ran on %s, B on %s; the spread below mixes run-to-run with board-to-board\n", a,
           b);
}

/* The HBM temperatures of the compared points: each side's median and
 * range, and the per-point difference B - A; nothing when a side lacks them
 * (files before schema 5, a board without the sensor). */
static void thermal_note(const wb_cmp *c, const spread *s, int n) {
    double *v = malloc((size_t)(3 * (n ? n : 1)) * sizeof *v);
    if (!v) return;
    double *ta = v, *tb = v + n, *d = v + 2 * n;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const double a = c->a.r.rows[s[i].p->a].m.mem_temp_c, b = c->b.r.rows[s[i].p->b].m.mem_temp_c;
        if (isfinite(a) && isfinite(b)) ta[k] = a, tb[k] = b, d[k] = b - a, k++;
    }
    if (k)
        printf("\nHBM temperature after the samples, %d of these points: A median %.0f C (%.0f-%.0f), B median %.0f C "
               "(%.0f-%.0f); B - A per point: median %+.0f C, %+.0f to %+.0f\n",
               k, wb_stats_median(ta, k), wb_stats_min(ta, k), wb_stats_max(ta, k), wb_stats_median(tb, k),
               wb_stats_min(tb, k), wb_stats_max(tb, k), wb_stats_median(d, k), wb_stats_min(d, k), wb_stats_max(d, k));
    free(v);
}

/* Points can move with what ran before them in the process (a counter pass
 * or not, other families first: README, Findings), so a repeat should be
 * the same command. */
static void command_note(const wb_cmp *c) {
    char a[1024], b[1024];
    wb_side_command(&c->a.r, a, sizeof a);
    wb_side_command(&c->b.r, b, sizeof b);
    if (!a[0] || !b[0] || strcmp(a, b) == 0) return;
    printf("\nNOTE: not the same command (--out and --shard aside): A ran `%s`, B `%s`; what ran before a point in its process "
           "can move it, so the spread below may include that\n", a, b);
}

/* Points timed while other processes held the GPU (schema 6): their spread
 * may be the other process's, not the run's. */
static void contention_note(const wb_cmp *c) {
    int a = 0, b = 0;
    for (int64_t i = 0; i < c->npairs; i++) {
        a += c->a.r.rows[c->pairs[i].a].m.other_processes > 0;
        b += c->b.r.rows[c->pairs[i].b].m.other_processes > 0;
    }
    if (a || b)
        printf("\nNOTE: contended: %d point(s) of A and %d of B were timed while other processes held the GPU "
               "(other_processes > 0); their spread below may be the other processes'\n", a, b);
}

int wb_cmp_repeat(const wb_cmp *c, double min_ms, double within, int top, wb_err *e) {
    board_note(c);
    command_note(c);
    contention_note(c);
    spread *s = malloc((size_t)(c->npairs ? c->npairs : 1) * sizeof *s);
    if (!s) return wb_fail(e, "out of memory");
    int n = 0;
    for (int64_t i = 0; i < c->npairs; i++) {
        const wb_cmp_pair *p = &c->pairs[i];
        const wb_row *a = &c->a.r.rows[p->a], *b = &c->b.r.rows[p->b];
        if (!isfinite(p->ratio) || a->m.time_median_ms < min_ms || b->m.time_median_ms < min_ms) continue;
        s[n++] = (spread){p, fabs(p->ratio - 1)};
    }
    qsort(s, (size_t)n, sizeof *s, by_dev);
    wb_textable t;
    wb_textable_init(&t, 4);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "family");
    wb_textable_set(&t, h, 1, "points >= %g ms", min_ms);
    wb_textable_set(&t, h, 2, "within %g%%", 100 * within);
    wb_textable_set(&t, h, 3, "share");
    int total_in = 0;
    for (int pass = 0; pass < 2; pass++) /* families in first-appearance order, then all */
        for (int i = 0; i < (pass ? 1 : n); i++) {
            const char *fam = pass ? NULL : c->a.r.rows[s[i].p->a].p.family;
            int seen = 0;
            for (int j = 0; fam && j < i; j++) seen |= strcmp(c->a.r.rows[s[j].p->a].p.family, fam) == 0;
            if (seen) continue;
            int in = 0, all = 0;
            for (int j = 0; j < n; j++) {
                if (fam && strcmp(c->a.r.rows[s[j].p->a].p.family, fam) != 0) continue;
                all++;
                in += s[j].dev <= within;
            }
            if (!fam) total_in = in;
            int row = wb_textable_add(&t);
            wb_textable_set(&t, row, 0, "%s", fam ? fam : "all");
            wb_textable_set(&t, row, 1, "%d", all);
            wb_textable_set(&t, row, 2, "%d", in);
            wb_textable_set(&t, row, 3, "%.1f%%", all ? 100.0 * in / all : 0.0);
        }
    printf("\n%srepeatability: %d of %d points with both medians >= %g ms agree within %g%% (%.1f%%)\n",
           c->md ? "### " : "", total_in, n, min_ms, 100 * within, n ? 100.0 * total_in / n : 0.0);
    wb_textable_print(stdout, &t, c->md);
    wb_textable_free(&t);
    thermal_note(c, s, n);

    int shown = n < top ? n : top;
    printf("\n%sthe %d least repeatable (spread = |B/A - 1|; noise = stddev / median of a side's samples; "
           "HBM = its temperature after the samples, C)\n",
           c->md ? "### " : "", shown);
    /* the point name last and whole: it outgrows a table cell */
    printf("%s%9s %9s %8s %8s %8s %8s %5s %5s  %s\n", c->md ? "    " : "", "A ms", "B ms", "B/A", "spread", "A noise",
           "B noise", "A HBM", "B HBM", "point");
    for (int i = 0; i < shown; i++) {
        const wb_row *a = &c->a.r.rows[s[i].p->a], *b = &c->b.r.rows[s[i].p->b];
        char name[256];
        wb_point_name(&a->p, name, sizeof name);
        printf("%s%9.4g %9.4g %8.4f %7.2f%% %7.2f%% %7.2f%% %5.0f %5.0f  %s\n", c->md ? "    " : "",
               a->m.time_median_ms, b->m.time_median_ms, s[i].p->ratio, 100 * s[i].dev, 100 * in_run_noise(a),
               100 * in_run_noise(b), a->m.mem_temp_c, b->m.mem_temp_c, name);
    }
    free(s);
    return WB_OK;
}
