/* check.c - `wallbench check NEW.h5 --baseline BASE.h5 --thresholds FILE`:
 * the regression gate of CI. Every point the baseline measured must be in
 * NEW, measured, and within the thresholds (thresholds.h) on every metric a
 * rule governs; a NaN on one side is a violation, not a pass. Exit 0 within,
 * 1 with a table of every violation, 2 on bad input (unreadable or foreign
 * file, bad thresholds, files of different GPUs, a projected file). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/grow.h"
#include "harness/commands.h"
#include "harness/tools/match.h"
#include "harness/base/textable.h"
#include "harness/tools/thresholds.h"

typedef struct violation {
    int64_t row;             /* baseline row */
    const wb_column *col;    /* NULL: the point itself (missing, not measured) */
    double base, now, change;
    const wb_threshold *rule;
    char what[64];           /* for col == NULL: "missing in NEW", "status failed" */
} violation;

typedef struct checker {
    wb_results base, now;
    wb_thresholds thr;
    wb_match m;
    violation *v;
    int nv, cap;
    int64_t compared, nan_both, base_not_ok;
} checker;

static int add(checker *k, violation x) {
    if (wb_grow(&k->v, k->nv, &k->cap, sizeof *k->v, 64) != 0) return WB_ERR;
    k->v[k->nv++] = x;
    return WB_OK;
}

/* Checks one metric of one matched point against the rules of both directions. */
static int check_metric(checker *k, int64_t i, const wb_row *b, const wb_row *n, const wb_column *col) {
    const wb_threshold *up = wb_thresholds_find(&k->thr, col, WB_THR_UP, b);
    const wb_threshold *down = wb_thresholds_find(&k->thr, col, WB_THR_DOWN, b);
    if (!up && !down) return WB_OK;
    const double vb = wb_row_get(b, col), vn = wb_row_get(n, col);
    k->compared++;
    if (isnan(vb) && isnan(vn)) {
        k->nan_both++;
        return WB_OK;
    }
    violation x = {i, col, vb, vn, NAN, up ? up : down, ""};
    if (isnan(vb) != isnan(vn)) {
        snprintf(x.what, sizeof x.what, "NaN on one side");
        return add(k, x);
    }
    x.change = vb != 0 ? (vn - vb) / fabs(vb) : vn == vb ? 0 : vn > vb ? INFINITY : -INFINITY;
    if (up && x.change > up->pct / 100) {
        x.rule = up;
        return add(k, x);
    }
    if (down && x.change < -down->pct / 100) {
        x.rule = down;
        return add(k, x);
    }
    return WB_OK;
}

static int check_all(checker *k) {
    /* the metrics some rule names, each once */
    const wb_column *cols[64];
    int ncols = 0;
    for (int r = 0; r < k->thr.n; r++) {
        int seen = 0;
        for (int c = 0; c < ncols; c++) seen |= cols[c] == k->thr.rules[r].col;
        if (!seen && ncols < 64) cols[ncols++] = k->thr.rules[r].col;
    }
    for (int64_t i = 0; i < k->base.nrows; i++) {
        const wb_row *b = &k->base.rows[i];
        if (strcmp(b->m.status, "ok") != 0) {
            k->base_not_ok++;
            continue;
        }
        const int64_t j = k->m.a_to_b[i];
        violation x = {i, NULL, NAN, NAN, NAN, NULL, ""};
        if (j < 0) {
            snprintf(x.what, sizeof x.what, "missing in NEW");
            if (add(k, x) != WB_OK) return WB_ERR;
            continue;
        }
        const wb_row *n = &k->now.rows[j];
        if (strcmp(n->m.status, "ok") != 0) {
            snprintf(x.what, sizeof x.what, "NEW status %s: %.40s", n->m.status[0] ? n->m.status : "?", n->m.reason);
            if (add(k, x) != WB_OK) return WB_ERR;
            continue;
        }
        for (int c = 0; c < ncols; c++)
            if (check_metric(k, i, b, n, cols[c]) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

/* 1 if baseline row r shares family and variant with a violating point. */
static int near_violation(const checker *k, const wb_row *r) {
    for (int i = 0; i < k->nv; i++) {
        const wb_row *b = &k->base.rows[k->v[i].row];
        if (!strcmp(b->p.family, r->p.family) && !strcmp(b->p.variant, r->p.variant)) return 1;
    }
    return 0;
}

static void report(const checker *k, int md) {
    /* the axis columns that tell the violating points apart from the other
     * points of their family and variant */
    const wb_row **rows = malloc((size_t)(k->base.nrows + 1) * sizeof *rows);
    const wb_column *axes[20];
    int naxes = 0, n = 0;
    if (rows) {
        for (int64_t i = 0; i < k->base.nrows; i++)
            if (near_violation(k, &k->base.rows[i])) rows[n++] = &k->base.rows[i];
        naxes = wb_match_varying(rows, n, NULL, axes, 16);
        free(rows);
    }
    wb_textable t;
    wb_textable_init(&t, 2 + naxes + 6);
    int h = wb_textable_add(&t), c = 0;
    wb_textable_set(&t, h, c++, "family");
    wb_textable_set(&t, h, c++, "variant");
    for (int a = 0; a < naxes; a++) wb_textable_set(&t, h, c++, "%s", axes[a]->name);
    const char *head[] = {"metric", "baseline", "new", "change", "allowed", "rule"};
    for (int i = 0; i < 6; i++) wb_textable_set(&t, h, c++, "%s", head[i]);
    char num[64];
    for (int i = 0; i < k->nv; i++) {
        const violation *x = &k->v[i];
        const wb_row *b = &k->base.rows[x->row];
        int row = wb_textable_add(&t);
        c = 0;
        wb_textable_set(&t, row, c++, "%s", b->p.family);
        wb_textable_set(&t, row, c++, "%s", b->p.variant);
        for (int a = 0; a < naxes; a++) wb_textable_set(&t, row, c++, "%s", wb_match_value(b, axes[a], num, sizeof num));
        if (!x->col) {
            wb_textable_set(&t, row, c++, "%s", x->what);
            continue;
        }
        wb_textable_set(&t, row, c++, "%s", x->col->name);
        wb_textable_set(&t, row, c++, "%.6g", x->base);
        wb_textable_set(&t, row, c++, "%.6g", x->now);
        if (x->what[0]) wb_textable_set(&t, row, c++, "%s", x->what);
        else wb_textable_set(&t, row, c++, "%+.2f%%", 100 * x->change);
        const char *sign = x->rule->dirs == WB_THR_UP ? "+" : x->rule->dirs == WB_THR_DOWN ? "-" : "+-";
        wb_textable_set(&t, row, c++, "%s%g%%", sign, x->rule->pct);
        wb_textable_set(&t, row, c++, "line %d", x->rule->line);
    }
    wb_textable_print(stdout, &t, md);
    wb_textable_free(&t);
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench check NEW.h5 --baseline BASE.h5 --thresholds FILE [--markdown]\n"
               "       wallbench check --metrics\n"
               "  exit 0: every point of the baseline is in NEW and within the thresholds; 1: violations (table);\n"
               "  2: bad input. Thresholds format: see results/thresholds.txt. --metrics lists the metric names.\n");
    return f == stdout ? 0 : 2;
}

static int list_metrics(void) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (wb_thresholds_metric_ok(&c[i])) printf("%-32s %s\n", c[i].name, c[i].unit);
    return 0;
}

int wb_cmd_check(int argc, char **argv) {
    const char *now = NULL, *base = NULL, *thr = NULL;
    int md = 0, o, first = argc, metrics = 0;
    static const struct option longs[] = {{"metrics", no_argument, NULL, 'M'}, {"markdown", no_argument, NULL, 'm'},
                                          {"baseline", required_argument, NULL, 'b'},
                                          {"thresholds", required_argument, NULL, 't'}, {0, 0, 0, 0}};
    wb_cli cli = {"check", longs, 0};
    const char *v;
    while ((o = wb_cli_next(&cli, argc, argv, &v, &first)) != WB_CLI_END) {
        if (o == WB_CLI_HELP) return usage(stdout);
        if (o == WB_CLI_BAD) return usage(stderr);
        if (o == 'M') metrics = 1;
        else if (o == 'm') md = 1;
        else *(o == 'b' ? &base : &thr) = v;
    }
    if (metrics) return list_metrics();
    if (first < argc) now = argv[first++];
    if (first < argc) return fprintf(stderr, "wallbench check: unexpected argument '%s'\n", argv[first]), usage(stderr);
    if (!now || !base || !thr) return fprintf(stderr, "wallbench check: give NEW.h5, --baseline and --thresholds\n"), usage(stderr);
    checker k;
    memset(&k, 0, sizeof k);
    wb_err e = {""};
    int rc = 2, have_base = 0, have_now = 0;
    if (wb_results_open(base, &k.base, &e) != WB_OK) goto done;
    have_base = 1;
    if (wb_thresholds_load(thr, &k.base, &k.thr, &e) != WB_OK) goto done;
    if (wb_results_open(now, &k.now, &e) != WB_OK) goto done;
    have_now = 1;
    const char *gb = wb_results_attr(&k.base, "gpu_name"), *gn = wb_results_attr(&k.now, "gpu_name");
    if (wb_results_attr_f64(&k.base, "projected") == 1 || wb_results_attr_f64(&k.now, "projected") == 1) {
        wb_fail(&e, "a projected file is a prediction, not a measurement: check measured files only");
        goto done;
    }
    if (strcmp(gb ? gb : "", gn ? gn : "") != 0) {
        wb_fail(&e, "%s ran on '%s', the baseline %s on '%s': a baseline holds for its own GPU", now, gn ? gn : "?",
                base, gb ? gb : "?");
        goto done;
    }
    if (wb_match_files(&k.base, &k.now, &k.m, &e) != WB_OK) goto done;
    if (check_all(&k) != WB_OK) {
        wb_fail(&e, "out of memory");
        goto done;
    }
    printf("check %s against baseline %s with %s (%d rules): %lld baseline points, %lld metric values compared; "
           "%lld baseline points not ok (not checked); %lld points only in NEW (not checked); %lld values NaN on "
           "both sides\n",
           now, base, thr, k.thr.n, (long long)k.base.nrows, (long long)k.compared, (long long)k.base_not_ok,
           (long long)k.m.only_b, (long long)k.nan_both);
    if (k.nv) {
        printf("\n%d violation(s):\n\n", k.nv);
        report(&k, md);
        rc = 1;
    } else {
        printf("within thresholds\n");
        rc = 0;
    }
done:
    if (e.msg[0]) fprintf(stderr, "wallbench check: %s\n", e.msg);
    free(k.v);
    wb_match_free(&k.m);
    if (have_now) wb_results_free(&k.now);
    if (have_base) wb_results_free(&k.base);
    wb_thresholds_free(&k.thr);
    return rc;
}
