/* check.c - `wallbench check NEW.h5 --baseline BASE.h5 [--thresholds FILE]`:
 * the regression gate (thresholds by default results/thresholds.txt,
 * thresholds.h says where it is looked for). It first says what it compares
 * (each file by GPU, board, revision and sweep) and every mismatch of
 * schema, sweep, board, GPU profile, build or command (sides.h); a file
 * against itself is refused, since it passes whatever it holds, and a NEW
 * measured before BASE is said. Every point of the baseline that NEW also holds must
 * be measured in NEW and within the thresholds (thresholds.h) on every
 * metric a rule governs; a NaN on one side is a violation, not a pass.
 * Baseline points NEW lacks (another sweep: `make run`'s quick one against
 * a full baseline) are counted apart, or with --all-points are violations
 * (the CI gate: a run that stopped early must fail). Exit 0 within, 1 with
 * a table of every violation, 2 on bad input (unreadable or foreign file,
 * bad thresholds, files of different GPU models, a projected file). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/grow.h"
#include "harness/base/json.h"
#include "harness/commands.h"
#include "harness/tools/match.h"
#include "harness/tools/sides.h"
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
    int64_t compared, nan_both, base_not_ok, missing;
    int64_t contended_now, contended_base; /* points timed while other processes held the GPU (schema 6) */
    int all_points;          /* --all-points: a baseline point NEW lacks is a violation */
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
            k->missing++;
            if (!k->all_points) continue; /* counted apart */
            snprintf(x.what, sizeof x.what, "missing in NEW");
            if (add(k, x) != WB_OK) return WB_ERR;
            continue;
        }
        const wb_row *n = &k->now.rows[j];
        k->contended_now += n->m.other_processes > 0;
        k->contended_base += b->m.other_processes > 0;
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

/* The first lines: what is compared, and every mismatch with what was done
 * about it; a same-sweep file that lacks baseline points stopped early. */
/* What check does about each mismatch; sweep[] holds the sweep's sentence. */
static void consequences(const checker *k, char *sweep, size_t len, const char *what[WB_SIDE_KINDS]) {
    snprintf(sweep, len, "checked the %lld points both hold; %lld baseline points not in NEW %s",
             (long long)k->m.matched, (long long)k->missing,
             k->all_points ? "are violations (--all-points)" : "counted apart (--all-points: violations)");
    for (int i = 0; i < WB_SIDE_KINDS; i++) what[i] = NULL;
    what[WB_SIDE_SWEEP] = sweep;
    what[WB_SIDE_SCHEMA] = "checked on the columns both schemas hold (an older file's missing ones are NaN)";
    what[WB_SIDE_PROFILE] = "checked all the same: one GPU model, so the same hardware";
    what[WB_SIDE_BOARD] = "checked all the same: a board's own speed (random reads above all) can break a time rule";
    what[WB_SIDE_BUILD] = "checked: what the thresholds are for";
    what[WB_SIDE_COMMAND] = "checked all the same: what ran before a point in its process can move it";
}

static void says(const checker *k, int md) {
    char a[1024], b[1024];
    wb_side_label(&k->now, a, sizeof a);
    wb_side_label(&k->base, b, sizeof b);
    printf("%scheck NEW = %s\n%sagainst BASE = %s\n", md ? "- " : "", a, md ? "- " : "", b);
    wb_side_diff d;
    wb_side_compare(&k->base, &k->now, &d); /* A = the baseline, B = NEW */
    const int named_same = !d.differs[WB_SIDE_SWEEP];
    if (k->m.only_b) wb_side_points(&d, &k->base, &k->now, k->missing, k->m.only_b); /* NEW's own points: another sweep */
    char sweep[160];
    const char *what[WB_SIDE_KINDS];
    consequences(k, sweep, sizeof sweep, what);
    wb_side_print(stdout, &d, md ? "- NOTE: " : "NOTE: ", "BASE", "NEW", what);
    const char *tn = wb_results_attr(&k->now, "utc_time"), *tb = wb_results_attr(&k->base, "utc_time");
    if (tn && tb && *tn && *tb && strcmp(tn, tb) < 0)
        printf("%sNOTE: NEW (%s) was measured before BASE (%s): the older run is checked against the newer\n",
               md ? "- " : "", tn, tb);
    if (k->contended_now || k->contended_base)
        printf("%sNOTE: contended: %lld checked point(s) of NEW and %lld of BASE were timed while other processes held "
               "the GPU (other_processes > 0): a time violation there may be theirs\n",
               md ? "- " : "", (long long)k->contended_now, (long long)k->contended_base);
    const int same_sweep = named_same && strcmp(d.a[WB_SIDE_SWEEP], "?") != 0;
    if (named_same && !k->m.only_b && k->missing)
        printf("%sNOTE: %s, yet %lld baseline points are not in NEW: did the run stop early?%s\n", md ? "- " : "",
               same_sweep ? "the same sweep" : "the files do not say their sweeps", (long long)k->missing,
               k->all_points ? "" : " (--all-points makes each a violation)");
    printf("\n");
}

/* --csv: one row per violation, a header first (no prose: for scripts). */
static void report_csv(const checker *k) {
    printf("point,family,variant,metric,baseline,new,change_pct,allowed_pct,rule_line\n");
    for (int i = 0; i < k->nv; i++) {
        const violation *x = &k->v[i];
        const wb_row *b = &k->base.rows[x->row];
        char name[512];
        wb_point_name(&b->p, name, sizeof name);
        printf("\"%s\",%s,%s,", name, b->p.family, b->p.variant);
        if (!x->col) {
            printf("\"%s\",,,,,\n", x->what);
            continue;
        }
        printf("%s,%.17g,%.17g,", x->col->name, x->base, x->now);
        if (x->what[0] || !isfinite(x->change)) printf(",");
        else printf("%.6g,", 100 * x->change);
        printf("%s%g,%d\n", x->rule->dirs == WB_THR_UP ? "+" : x->rule->dirs == WB_THR_DOWN ? "-" : "", x->rule->pct,
               x->rule->line);
    }
}

/* --json: the sides, the mismatches with what was done, the counts and
 * every violation, as one object. */
static void report_json(const checker *k, const char *thr, const char *thr_from, int rc) {
    wb_side_diff d;
    wb_side_compare(&k->base, &k->now, &d);
    if (k->m.only_b) wb_side_points(&d, &k->base, &k->now, k->missing, k->m.only_b);
    char sweep[160];
    const char *what[WB_SIDE_KINDS];
    consequences(k, sweep, sizeof sweep, what);
    printf("{");
    wb_json_key(stdout, "new", 1);
    wb_side_json(stdout, &k->now);
    wb_json_key(stdout, "baseline", 0);
    wb_side_json(stdout, &k->base);
    wb_json_key(stdout, "thresholds", 0);
    wb_json_str(stdout, thr);
    wb_json_kv_str(stdout, "thresholds_from", thr_from);
    wb_json_key(stdout, "rules", 0);
    printf("%d", k->thr.n);
    wb_json_key(stdout, "units", 0); /* of the violations' members; counts are plain integers */
    printf("{\"baseline\":\"the metric's unit\",\"new\":\"the metric's unit\",\"change\":\"fraction (new - "
           "baseline) / |baseline|\",\"allowed\":\"fraction\"}");
    wb_json_key(stdout, "mismatches", 0);
    wb_side_diff_json(stdout, &d, "baseline", "new", what);
    const struct { const char *name; int64_t v; } counts[] = {
        {"baseline_points", k->base.nrows}, {"common_points", k->m.matched}, {"values_compared", k->compared},
        {"baseline_points_not_in_new", k->missing}, {"baseline_points_not_ok", k->base_not_ok},
        {"points_only_in_new", k->m.only_b}, {"values_nan_on_both_sides", k->nan_both},
        {"contended_points_new", k->contended_now}, {"contended_points_baseline", k->contended_base}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        wb_json_key(stdout, counts[i].name, 0);
        printf("%lld", (long long)counts[i].v);
    }
    wb_json_key(stdout, "all_points", 0);
    printf(k->all_points ? "true" : "false");
    wb_json_key(stdout, "violations", 0);
    printf("[");
    for (int i = 0; i < k->nv; i++) {
        const violation *x = &k->v[i];
        const wb_row *b = &k->base.rows[x->row];
        char name[512];
        wb_point_name(&b->p, name, sizeof name);
        printf(i ? ", {" : "{");
        wb_json_key(stdout, "point", 1);
        wb_json_str(stdout, name);
        wb_json_kv_str(stdout, "metric", x->col ? x->col->name : NULL);
        wb_json_kv_str(stdout, "what", x->what);
        wb_json_kv_num(stdout, "baseline", x->base);
        wb_json_kv_num(stdout, "new", x->now);
        wb_json_kv_str(stdout, "unit", x->col ? x->col->unit : NULL);
        wb_json_kv_num(stdout, "change", x->change);
        if (x->rule) {
            wb_json_kv_num(stdout, "allowed", x->rule->pct / 100);
            wb_json_kv_str(stdout, "direction", x->rule->dirs == WB_THR_UP ? "up" : x->rule->dirs == WB_THR_DOWN ? "down" : "both");
            wb_json_kv_num(stdout, "rule_line", x->rule->line);
        } else wb_json_kv_num(stdout, "rule_line", NAN);
        printf("}");
    }
    printf("]");
    wb_json_key(stdout, "exit_code", 0);
    printf("%d}\n", rc);
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench check NEW.h5 --baseline BASE.h5 [--thresholds FILE] [--all-points]\n"
               "                       [--markdown | --json | --csv]\n"
               "       wallbench check --metrics\n"
               "  first what is compared (each file's GPU, board, revision, sweep) and every mismatch of schema,\n"
               "  sweep, board, GPU profile, build or command; then every point both files hold is checked against\n"
               "  the thresholds (default results/thresholds.txt of $WB_SOURCE_DIR, this build's source tree or the\n"
               "  current folder, named in the output). Baseline points NEW lacks (another sweep) are counted apart;\n"
               "  --all-points makes each a violation. A file checked against itself (one path, or copies of one\n"
               "  run) is refused: it would pass whatever it holds.\n"
               "  exit codes: 0 within the thresholds; 1 violations (a table of each);\n"
               "  2 bad input (unreadable or foreign file, another GPU model, a projected file, a file against\n"
               "  itself, no point in common, a thresholds error as file:line).\n"
               "  --json: one object (sides, mismatches, counts, violations with units); --csv: the violations.\n"
               "  Thresholds format: see results/thresholds.txt. --metrics lists the metric names.\n"
               "  Results files only: a profile file (wallbench profile -- CMD) has no thresholds; report,\n"
               "  roofline, export, compare and project read both kinds.\n");
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
    const char *now = NULL, *base = NULL, *thr = NULL, *thr_from = "--thresholds";
    int md = 0, o, first = argc, metrics = 0, all_points = 0, json = 0, csv = 0;
    static const struct option longs[] = {{"metrics", no_argument, NULL, 'M'}, {"markdown", no_argument, NULL, 'm'},
                                          {"all-points", no_argument, NULL, 'A'},
                                          {"json", no_argument, NULL, 'J'}, {"csv", no_argument, NULL, 'C'},
                                          {"baseline", required_argument, NULL, 'b'},
                                          {"thresholds", required_argument, NULL, 't'}, {0, 0, 0, 0}};
    wb_cli cli = {"check", longs, 0};
    const char *v;
    while ((o = wb_cli_next(&cli, argc, argv, &v, &first)) != WB_CLI_END) {
        if (o == WB_CLI_HELP) return usage(stdout);
        if (o == WB_CLI_BAD) return usage(stderr);
        if (o == 'M') metrics = 1;
        else if (o == 'm') md = 1;
        else if (o == 'A') all_points = 1;
        else if (o == 'J') json = 1;
        else if (o == 'C') csv = 1;
        else *(o == 'b' ? &base : &thr) = v;
    }
    if (metrics) return list_metrics();
    if (json + csv + md > 1) return fprintf(stderr, "wallbench check: give one of --markdown, --json, --csv\n"), usage(stderr);
    if (first < argc) now = argv[first++];
    if (first < argc) return fprintf(stderr, "wallbench check: unexpected argument '%s'\n", argv[first]), usage(stderr);
    wb_err e = {""};
    if (!now || !base) return fprintf(stderr, "wallbench check: give NEW.h5 and --baseline BASE.h5\n"), usage(stderr);
    char thr_path[1100];
    if (!thr) {
        if (wb_thresholds_default(thr_path, sizeof thr_path, &thr_from, &e) != WB_OK) {
            fprintf(stderr, "wallbench check: %s\n", e.msg);
            return 2;
        }
        thr = thr_path;
    }
    checker k;
    memset(&k, 0, sizeof k);
    k.all_points = all_points;
    int rc = 2, have_base = 0, have_now = 0;
    char why[600];
    if (wb_results_open(base, &k.base, &e) != WB_OK) goto done;
    have_base = 1;
    if (wb_thresholds_load(thr, &k.base, &k.thr, &e) != WB_OK) goto done;
    if (wb_results_open(now, &k.now, &e) != WB_OK) goto done;
    have_now = 1;
    if (wb_side_same_run(&k.now, &k.base, why, sizeof why)) {
        wb_fail(&e, "NEW %s and BASE %s are %s: a file checked against itself passes whatever it holds; give an "
                    "earlier run as --baseline", now, base, why);
        goto done;
    }
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
    if (k.m.matched == 0) { /* as a file against itself: a gate that checks nothing would pass */
        wb_fail(&e, "NEW %s has no point of BASE %s (BASE %lld point(s), NEW %lld): nothing would be checked; a run "
                    "that stopped before its first point, or another sweep or family, is no pass",
                now, base, (long long)k.base.nrows, (long long)k.now.nrows);
        goto done;
    }
    if (check_all(&k) != WB_OK) {
        wb_fail(&e, "out of memory");
        goto done;
    }
    if (json || csv) {
        rc = k.nv ? 1 : 0;
        if (json) report_json(&k, thr, thr_from, rc);
        else report_csv(&k);
        goto done;
    }
    says(&k, md);
    printf("check with %s (%s; %d rules): %lld baseline points, %lld in both files, %lld metric values compared; "
           "%lld baseline points not in NEW (%s); %lld baseline points not ok (not checked); %lld points only in "
           "NEW (not checked); %lld values NaN on both sides\n",
           thr, thr_from, k.thr.n, (long long)k.base.nrows, (long long)k.m.matched, (long long)k.compared,
           (long long)k.missing, k.all_points ? "violations: --all-points" : "counted apart, not checked",
           (long long)k.base_not_ok, (long long)k.m.only_b, (long long)k.nan_both);
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
