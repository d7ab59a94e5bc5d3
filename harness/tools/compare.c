/* compare.c - `wallbench compare A.h5 B.h5 [--markdown] [--family F]`: two
 * results files side by side (two GPUs, two runs of one GPU, or a GPU and a
 * projection). Points match on family, variant, every axis and repetition
 * (match.h). Printed, as seed 000 Table 1 does for the GH200 over the L4:
 * the two hardware ratios B/A (DRAM bandwidth, instruction throughput), and
 * per family and per point the time ratio B/A with a Mann-Whitney verdict
 * on the timed samples (mwu.h), instructions per sector and bound class on
 * each side, and which hardware ratio the speedup lies nearer to. Points in
 * one file only are listed. A projected file is labelled as such in every
 * table, and gets no significance test: its samples are scaled copies. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/base/cli.h"
#include "harness/commands.h"
#include "harness/tools/compare.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/rows.h"
#include "harness/tools/sides.h"
#include "harness/base/json.h"

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench compare A.h5 B.h5 [C.h5 ...] [--markdown | --json | --csv] [--family F]\n"
               "                         [--points] [--min-effect PCT] [--repeat]\n"
               "       wallbench compare A-PROFILE.h5 B-PROFILE.h5 [--markdown | --json] [--top N]\n"
               "  two profiles of one program (wallbench profile -- CMD): kernels matched by name and launch\n"
               "  shape, time and counter ratios B/A, the top N pairs by time (default 30); results files:\n"
               "  first what each side is (file, GPU, board, revision, sweep) and every mismatch of sweep,\n"
               "  board, GPU model, build or command, with what that means for the numbers; then the summary:\n"
               "  per family the points matched, the time ratio B/A (geometric mean) and the verdict counts\n"
               "  (Mann-Whitney U, two-sided, alpha 0.05, as Google Benchmark's compare.py; a difference under\n"
               "  the minimum effect is \"same\"); then the DRAM bandwidth and instruction throughput ratios B/A\n"
               "  (measured ceilings; reference numbers for a projected file). Points match on family,\n"
               "  variant, every axis and repetition.\n"
               "  --points          also per point: both times, B/A, verdict, p, inst/sector and bound class\n"
               "                    on each side, and the points in one file only\n"
               "  --min-effect PCT  differences under PCT%% are \"same\" whatever the test says (default 1)\n"
               "  --json            one object: the sides, mismatches, the summary per family, every point\n"
               "  --csv             one row per matched point: point, family, variant, A and B ms, B/A, verdict, p\n"
               "  Three or more files (one per GPU model, e.g. a fleet's): per family the matrix of speedups\n"
               "  of every column's GPU over every row's GPU, and the hardware ratios, as seed 000 Table 1\n"
               "  for every pair.\n"
               "  --repeat  instead: repeatability of two runs of one sweep: the share of points with both\n"
               "            medians >= 1 ms that agree within 1%%, per family, and the 25 least repeatable\n"
               "            with their spread and each side's in-run noise\n"
               "  exit codes: 0 compared, 2 bad input (unreadable, foreign or empty file, bad option)\n");
    return f == stdout ? 0 : 2;
}

/* "H200 (measured)", "L4 (PROJECTED from H200)". */
static const char *side_name(const wb_cmp_side *s, char *buf, size_t len) {
    if (!s->projected) snprintf(buf, len, "%s: %s (measured)", s->tag, s->v.label);
    else {
        const char *src = wb_results_attr(&s->r, "projected_source_gpu");
        char label[24];
        snprintf(buf, len, "%s: %s (PROJECTED from %s)", s->tag, s->v.label,
                 src && *src ? wb_gpu_label(src, label, sizeof label) : "?");
    }
    return buf;
}

/* What compare does about each mismatch; sweep[] holds the sweep's sentence. */
static void consequences(const wb_cmp *c, char *sweep, size_t len, const char *what[WB_SIDE_KINDS]) {
    snprintf(sweep, len, "compared on the %lld points both measured; %lld only in A, %lld only in B, counted apart",
             (long long)c->m.matched, (long long)c->m.only_a, (long long)c->m.only_b);
    what[WB_SIDE_SWEEP] = sweep;
    what[WB_SIDE_SCHEMA] = "columns the older schema lacks read as NaN (not compared)";
    what[WB_SIDE_PROFILE] = "one GPU model under two profiles' names: the measured numbers are the model's, the "
                              "reference rows (gpus.tsv) the profiles'";
    what[WB_SIDE_BOARD] = "differences include the boards' own (boards of one model differ, most in random reads)";
    what[WB_SIDE_MODEL] = "two GPUs: the hardware ratios below say which speedup to expect";
    what[WB_SIDE_BUILD] = "differences include the code's";
    what[WB_SIDE_COMMAND] = "what ran before a point in its process can move it";
}

/* --csv: one row per matched point (no prose: for scripts). */
static void points_csv(const wb_cmp *c) {
    printf("point,family,variant,a_ms,b_ms,b_over_a,verdict,p\n");
    char name[512];
    for (int64_t k = 0; k < c->npairs; k++) {
        const wb_cmp_pair *p = &c->pairs[k];
        const wb_row *x = &c->a.r.rows[p->a], *y = &c->b.r.rows[p->b];
        wb_point_name(&x->p, name, sizeof name);
        printf("\"%s\",%s,%s,%.17g,%.17g,%.17g,%s,", name, x->p.family, x->p.variant, x->m.time_median_ms,
               y->m.time_median_ms, p->ratio, p->verdict);
        if (isnan(p->p)) printf("\n");
        else printf("%.6g\n", p->p);
    }
}

/* --json: the sides, the mismatches with what was done, the summary per
 * family and every matched point, as one object. */
static void compare_json(const wb_cmp *c, const wb_cmp_family *fam, int nfam) {
    wb_side_diff d;
    wb_side_compare(&c->a.r, &c->b.r, &d);
    wb_side_points(&d, &c->a.r, &c->b.r, c->m.only_a, c->m.only_b);
    char sweep[128], why[600];
    const char *what[WB_SIDE_KINDS];
    consequences(c, sweep, sizeof sweep, what);
    printf("{");
    wb_json_key(stdout, "a", 1);
    wb_side_json(stdout, &c->a.r);
    wb_json_key(stdout, "b", 0);
    wb_side_json(stdout, &c->b.r);
    wb_json_key(stdout, "mismatches", 0);
    wb_side_diff_json(stdout, &d, "a", "b", what);
    wb_json_key(stdout, "same_run", 0);
    printf(wb_side_same_run(&c->a.r, &c->b.r, why, sizeof why) ? "true" : "false");
    wb_json_key(stdout, "units", 0); /* of the members below; counts are plain integers */
    printf("{\"inst_gips\":\"G inst/s\",\"dram_gbps\":\"GB/s\",\"b_over_a\":\"ratio (time B / time A; "
           "hardware: B / A)\",\"speedup_of_b\":\"ratio (time A / time B)\",\"a_ms\":\"ms\",\"b_ms\":\"ms\","
           "\"p\":\"probability\",\"min_effect\":\"fraction\",\"inst_per_sector\":\"warp inst / 32-byte DRAM sector\"}");
    wb_json_key(stdout, "hardware", 0);
    printf("{");
    const wb_cmp_side *sides[2] = {&c->a, &c->b};
    for (int i = 0; i < 2; i++) { /* {"a": {inst_gips, dram_gbps, source}, "b": ...} */
        wb_json_key(stdout, i ? "b" : "a", !i);
        printf("{");
        wb_json_key(stdout, "inst_gips", 1);
        wb_json_num(stdout, sides[i]->roof.inst_gips);
        wb_json_kv_num(stdout, "dram_gbps", sides[i]->roof.dram_gbps);
        wb_json_kv_str(stdout, "source", sides[i]->roof_source);
        printf("}");
    }
    wb_json_kv_num(stdout, "inst_b_over_a", c->r_inst);
    wb_json_kv_num(stdout, "dram_b_over_a", c->r_bw);
    printf("}");
    wb_json_kv_num(stdout, "min_effect", c->min_effect);
    wb_json_kv_num(stdout, "alpha", WB_MWU_ALPHA);
    wb_json_key(stdout, "families", 0);
    printf("[");
    for (int f = 0; f <= nfam; f++) {
        const wb_cmp_family *x = f < nfam ? &fam[f] : &c->all;
        printf(f ? ", {" : "{");
        wb_json_key(stdout, "family", 1);
        wb_json_str(stdout, x->name);
        const struct { const char *k; int v; } n[] = {
            {"matched", x->matched}, {"only_a", x->only_a}, {"only_b", x->only_b}, {"b_faster", x->faster},
            {"b_slower", x->slower}, {"same", x->same}, {"same_under_min_effect", x->small},
            {"not_tested", x->untested}, {"not_measured", x->unmeasured}, {"bound_changed", x->bound_changed}};
        for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
            wb_json_key(stdout, n[i].k, 0);
            printf("%d", n[i].v);
        }
        const double g = x->nlog ? exp(x->sum_log / x->nlog) : NAN;
        wb_json_kv_num(stdout, "b_over_a_geomean", g);
        wb_json_kv_num(stdout, "speedup_of_b", 1 / g);
        wb_json_key(stdout, "pairs", 0);
        printf("%d", x->pairs);
        wb_json_kv_num(stdout, "a_ms", x->pairs ? x->sum_a : NAN);
        wb_json_kv_num(stdout, "b_ms", x->pairs ? x->sum_b : NAN);
        const char *follows = wb_cmp_follows(c, 1 / g);
        wb_json_kv_str(stdout, "follows", strcmp(follows, "-") ? follows : NULL);
        printf("}");
    }
    printf("]");
    wb_json_key(stdout, "points", 0);
    printf("[");
    char name[512];
    for (int64_t k = 0; k < c->npairs; k++) {
        const wb_cmp_pair *p = &c->pairs[k];
        const wb_row *x = &c->a.r.rows[p->a], *y = &c->b.r.rows[p->b];
        printf(k ? ", {" : "{");
        wb_json_key(stdout, "point", 1);
        wb_json_str(stdout, wb_point_name(&x->p, name, sizeof name));
        wb_json_kv_num(stdout, "a_ms", x->m.time_median_ms);
        wb_json_kv_num(stdout, "b_ms", y->m.time_median_ms);
        wb_json_kv_num(stdout, "b_over_a", p->ratio);
        wb_json_kv_str(stdout, "verdict", p->verdict);
        wb_json_kv_num(stdout, "p", p->p);
        wb_json_kv_num(stdout, "a_inst_per_sector", x->c.inst_per_sector);
        wb_json_kv_num(stdout, "b_inst_per_sector", y->c.inst_per_sector);
        wb_json_kv_str(stdout, "a_bound", p->bound_a);
        wb_json_kv_str(stdout, "b_bound", p->bound_b);
        printf("}");
    }
    printf("]}\n");
}

/* Each side by file, GPU, board, revision and sweep, then every mismatch
 * and what it means for what follows. */
static void header(const wb_cmp *c, int repeat) {
    const wb_cmp_side *s[2] = {&c->a, &c->b};
    wb_side_diff d;
    wb_side_compare(&c->a.r, &c->b.r, &d);
    if (d.differs[WB_SIDE_MODEL]) /* the first thing to know: the ratios and verdicts below are of two GPUs */
        printf("%sTWO GPUs: A %s, B %s: B/A DRAM bandwidth %.3gx, instruction throughput %.3gx (A's: %s; B's: %s); the "
               "speedup of B per family below, and which of the two ratios it follows\n\n",
               c->md ? "**" : "", d.a[WB_SIDE_MODEL], d.b[WB_SIDE_MODEL], c->r_bw, c->r_inst, c->a.roof_source,
               c->b.roof_source);
    for (int i = 0; i < 2; i++) {
        char label[1024];
        wb_side_label(&s[i]->r, label, sizeof label);
        printf("%s%s = %s", c->md ? "- " : "", s[i]->tag, label);
        if (s[i]->projected) {
            const char *from = wb_results_attr(&s[i]->r, "projected_from");
            printf(": PROJECTED (not measured) from %s by `wallbench project`", from ? from : "?");
        } else printf(": measured");
        printf("\n");
    }
    char why[600];
    if (wb_side_same_run(&c->a.r, &c->b.r, why, sizeof why))
        printf("%sNOTE: A and B are %s: every ratio is 1 by construction\n", c->md ? "- " : "", why);
    wb_side_points(&d, &c->a.r, &c->b.r, c->m.only_a, c->m.only_b);
    char sweep[128];
    const char *what[WB_SIDE_KINDS];
    consequences(c, sweep, sizeof sweep, what);
    if (repeat) { /* --repeat says these itself, with what they mean for repeatability */
        d.n -= d.differs[WB_SIDE_BOARD] + d.differs[WB_SIDE_COMMAND];
        d.differs[WB_SIDE_BOARD] = d.differs[WB_SIDE_COMMAND] = 0;
    }
    if (!d.n) printf("%ssame schema, sweep, board, GPU model and profile, build and command (as far as the files say)\n",
                     c->md ? "\n" : "");
    else wb_side_print(stdout, &d, c->md ? "- NOTE: " : "NOTE: ", "A", "B", what);
    printf("\n");
}

/* "2.50x", or "-" when not finite. */
static void ratio_cell(wb_textable *t, int row, int col, double v, int decimals) {
    char num[64];
    if (isfinite(v)) wb_textable_set(t, row, col, "%sx", wb_textable_num(num, sizeof num, v, decimals));
    else wb_textable_set(t, row, col, "-");
}

/* Seed 000 Table 1: the two hardware numbers, then the time of each family
 * (sum over its points measured on both sides); the last column is, as
 * there, how many times better B is: B/A for the hardware, A/B for time. */
static void hardware_table(const wb_cmp *c, const wb_cmp_family *fam, int nfam) {
    wb_textable t;
    wb_textable_init(&t, 4);
    char a[64], b[64], num[64];
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "%s", c->md ? "" : "hardware and time");
    wb_textable_set(&t, h, 1, "%s", side_name(&c->a, a, sizeof a));
    wb_textable_set(&t, h, 2, "%s", side_name(&c->b, b, sizeof b));
    wb_textable_set(&t, h, 3, "B over A");
    const char *names[2] = {"Instr. throughput (G inst/s)", "Mem. bandwidth (GB/s)"};
    const double va[2] = {c->a.roof.inst_gips, c->a.roof.dram_gbps}, vb[2] = {c->b.roof.inst_gips, c->b.roof.dram_gbps};
    for (int i = 0; i < 2; i++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%s", names[i]);
        wb_textable_set(&t, row, 1, "%s", wb_textable_num(num, sizeof num, va[i], 0));
        wb_textable_set(&t, row, 2, "%s", wb_textable_num(num, sizeof num, vb[i], 0));
        ratio_cell(&t, row, 3, vb[i] / va[i], 2);
    }
    for (int f = 0; f < nfam; f++) {
        if (!fam[f].pairs) continue;
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%s time (ms, %d points)", fam[f].name, fam[f].pairs);
        wb_textable_set(&t, row, 1, "%s", wb_textable_num(num, sizeof num, fam[f].sum_a, 3));
        wb_textable_set(&t, row, 2, "%s", wb_textable_num(num, sizeof num, fam[f].sum_b, 3));
        ratio_cell(&t, row, 3, fam[f].sum_a / fam[f].sum_b, 2);
    }
    wb_textable_print(stdout, &t, c->md);
    wb_textable_free(&t);
    printf("\n%sB over A: B/A for throughput and bandwidth, A/B for time (the speedup of B), as seed 000 Table 1. "
           "A's hardware numbers: %s; B's: %s. A memory-bound point's speedup should follow the bandwidth ratio, an "
           "instruction-bound one's the instruction ratio.\n",
           c->md ? "" : "  ", c->a.roof_source, c->b.roof_source);
}

static void family_table(const wb_cmp *c, const wb_cmp_family *fam, int nfam) {
    wb_textable t;
    wb_textable_init(&t, 13);
    static const char *const head[] = {"family",   "matched",  "only A", "only B",  "B/A geomean",
                                       "speedup of B", "B faster", "B slower", "same", "no test",
                                       "not measured", "bound changed", "follows"};
    int h = wb_textable_add(&t);
    for (int k = 0; k < 13; k++) wb_textable_set(&t, h, k, "%s", head[k]);
    char num[64];
    for (int f = 0; f <= nfam; f++) {
        const wb_cmp_family *x = f < nfam ? &fam[f] : &c->all;
        if (f == nfam && nfam < 2) break;
        int row = wb_textable_add(&t);
        double g = x->nlog ? exp(x->sum_log / x->nlog) : NAN;
        wb_textable_set(&t, row, 0, "%s", x->name);
        wb_textable_set(&t, row, 1, "%d", x->matched);
        wb_textable_set(&t, row, 2, "%d", x->only_a);
        wb_textable_set(&t, row, 3, "%d", x->only_b);
        wb_textable_set(&t, row, 4, "%s", wb_textable_num(num, sizeof num, g, 3));
        ratio_cell(&t, row, 5, 1 / g, 2);
        wb_textable_set(&t, row, 6, "%d", x->faster);
        wb_textable_set(&t, row, 7, "%d", x->slower);
        wb_textable_set(&t, row, 8, "%d", x->same);
        wb_textable_set(&t, row, 9, "%d", x->untested);
        wb_textable_set(&t, row, 10, "%d", x->unmeasured);
        wb_textable_set(&t, row, 11, "%d", x->bound_changed);
        wb_textable_set(&t, row, 12, "%s", wb_cmp_follows(c, 1 / g));
    }
    int small = 0;
    for (int f = 0; f < nfam; f++) small += fam[f].small;
    if (c->md) printf("### Summary per family\n\n");
    printf("%ssummary per family: B/A geomean = geometric mean of time B / time A over the points both measured; "
           "B faster / slower / same: Mann-Whitney U on the timed samples, alpha %.2f, and a difference under the "
           "minimum effect %g%% is same (%d such point(s)); not measured: skipped or failed in A or B\n%s",
           c->md ? "" : "", WB_MWU_ALPHA, 100 * c->min_effect, small, c->md ? "\n" : "");
    wb_textable_print(stdout, &t, c->md);
    wb_textable_free(&t);
}

/* Two profiles (every path one: compare.c knows the kinds before it reads a file), opened through
 * rows.h and handed to compare_profile.c; only --markdown, --json and --top apply. */
static int compare_profiles(const char *const *paths, int np, int md, int json, int top, int results_only) {
    if (np != 2) return wb_cli_bad("compare", "two profile files, please (wallbench compare A.h5 B.h5), not %d files", np);
    if (results_only)
        return wb_cli_bad("compare", "--csv, --family, --points, --min-effect and --repeat are for results files; two "
                                     "profiles take --markdown or --json and --top N");
    if (md && json) return wb_cli_bad("compare", "--markdown or --json, not both");
    wb_rows a, b;
    if (wb_rows_open("compare", paths[0], &a) != 0) return 2;
    int rc = 2;
    if (wb_rows_open("compare", paths[1], &b) == 0) {
        rc = wb_compare_profiles(&a, &b, json ? 2 : md, top);
        wb_rows_free(&b);
    }
    wb_rows_free(&a);
    return rc;
}

int wb_cmd_compare(int argc, char **argv) {
    const char *paths[WB_CMP_FLEET_MAX] = {NULL};
    wb_cmp c;
    memset(&c, 0, sizeof c);
    int np = 0, repeat = 0, k, first = argc, json = 0, csv = 0, top = -1, results_only = 0, min_effect_given = 0;
    static const struct option longs[] = {{"markdown", no_argument, NULL, 'm'},
                                          {"family", required_argument, NULL, 'f'},
                                          {"points", no_argument, NULL, 'p'},
                                          {"min-effect", required_argument, NULL, 'e'},
                                          {"json", no_argument, NULL, 'J'}, {"csv", no_argument, NULL, 'C'},
                                          {"repeat", no_argument, NULL, 'r'}, {"top", required_argument, NULL, 't'},
                                          {0, 0, 0, 0}};
    c.min_effect = WB_CMP_MIN_EFFECT;
    wb_cli cli = {"compare", longs, 0};
    const char *v;
    while ((k = wb_cli_next(&cli, argc, argv, &v, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return usage(stdout);
        if (k == WB_CLI_BAD) return usage(stderr);
        results_only |= k != 'm' && k != 'J' && k != 't';
        if (k == 'm') c.md = 1;
        else if (k == 'r') repeat = 1;
        else if (k == 'p') c.points = 1;
        else if (k == 'J') json = 1;
        else if (k == 'C') csv = 1;
        else if (k == 't') {
            if (wb_profile_top_count("compare", v, &top) != WB_OK) return 2;
        } else if (k == 'e') {
            char *end;
            double pct = strtod(v, &end);
            if (end == v || *end || !(pct >= 0) || pct >= 100)
                return fprintf(stderr, "wallbench compare: bad --min-effect '%s': a percentage, 0 to under 100 "
                                       "(e.g. 1 for 1%%)\n", v), usage(stderr);
            c.min_effect = pct / 100;
            min_effect_given = 1;
        } else c.family = v;
    }
    int profiles = 0;
    for (; first < argc; first++) {
        if (np == WB_CMP_FLEET_MAX) return fprintf(stderr, "wallbench compare: unexpected argument '%s'\n", argv[first]), usage(stderr);
        profiles += wb_rows_kind_of(argv[first]) == WB_ROWS_PROFILE;
        paths[np++] = argv[first];
    }
    for (int i = 0; profiles && i < np; i++) /* one kind on both sides */
        if (wb_rows_kind_of(paths[i]) != WB_ROWS_PROFILE)
            return fprintf(stderr, "wallbench compare: %s is not a profile file: a profile compares only with another "
                                   "profile (results files compare with results files)\n", paths[i]), 2;
    if (profiles) return compare_profiles(paths, np, c.md, json, top > 0 ? top : 30, results_only);
    if (top > 0) return wb_cli_bad("compare", "--top is for two profile files (wallbench profile -- CMD)");
    if (np < 2) return fprintf(stderr, "wallbench compare: give two results files (or more, for the fleet matrix)\n"), usage(stderr);
    if (np > 2 && repeat) return fprintf(stderr, "wallbench compare: --repeat takes two files\n"), usage(stderr);
    if (json + csv + c.md > 1) return fprintf(stderr, "wallbench compare: give one of --markdown, --json, --csv\n"), usage(stderr);
    if ((json || csv) && (repeat || np > 2))
        return fprintf(stderr, "wallbench compare: --json and --csv compare two files (not --repeat, not a fleet)\n"),
               usage(stderr);
    /* options the chosen table does not use are refused, not ignored */
    if (repeat && (c.points || min_effect_given))
        return wb_cli_bad("compare", "--repeat lists the least repeatable points itself, with its own 1%% rule: not "
                                     "with --points or --min-effect");
    if (np > 2 && (c.points || min_effect_given))
        return wb_cli_bad("compare", "--points and --min-effect are for two files; the fleet matrix has neither");
    if (np > 2) return wb_cmp_fleet(paths, np, c.md, c.family);
    wb_err e = {""};
    wb_gpu_table t = {NULL, 0};
    wb_cmp_family *fam = NULL;
    int nfam = 0, rc = 2;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK || wb_cmp_open_side(&c.a, paths[0], "A", &t, &e) != WB_OK ||
        wb_cmp_open_side(&c.b, paths[1], "B", &t, &e) != WB_OK || wb_match_files(&c.a.r, &c.b.r, &c.m, &e) != WB_OK)
        goto done;
    c.r_bw = c.b.roof.dram_gbps / c.a.roof.dram_gbps;
    c.r_inst = c.b.roof.inst_gips / c.a.roof.inst_gips;
    if (wb_cmp_families(&c, &fam, &nfam, &e) != WB_OK) goto done;
    if (c.family && !nfam) {
        wb_fail(&e, "no point of family '%s' in %s or %s%s", c.family, paths[0], paths[1],
                strchr(c.family, ',') ? " (--family takes one family)" : "");
        goto done;
    }
    if (json || csv) {
        if (json) compare_json(&c, fam, nfam);
        else points_csv(&c);
        rc = 0;
        goto done;
    }
    if (c.md) printf("## wallbench compare\n\n");
    header(&c, repeat);
    if (repeat) { /* two runs of one sweep: repeatability only */
        rc = wb_cmp_repeat(&c, 1.0, 0.01, 25, &e) == WB_OK ? 0 : 2;
        goto done;
    }
    family_table(&c, fam, nfam);
    printf("\n");
    hardware_table(&c, fam, nfam);
    if (!c.points) {
        printf("\n%sper point (both times, B/A, verdict, p, inst/sector, bound) and the points in one file only: "
               "--points\n", c.md ? "" : "  ");
        rc = 0;
        goto done;
    }
    for (int f = 0; f < nfam; f++)
        if (wb_cmp_points(&c, &fam[f], &e) != WB_OK) goto done;
    printf("\n%sB faster / slower: Mann-Whitney U two-sided on the two points' timed samples (/samples), p < %.2f, "
           "computed as scipy.stats.mannwhitneyu, which Google Benchmark's compare.py uses; same: p >= %.2f; "
           "(<min): significant but under the minimum effect %g%%; "
           "too few samples: fewer than %d a side; * fewer than %d a side (compare.py: unreliable)%s. follows: the "
           "hardware ratio B/A nearer (on a log scale) to the speedup A time / B time; - when the two ratios are "
           "within 10%% of each other.\n",
           c.md ? "" : "  ", WB_MWU_ALPHA, WB_MWU_ALPHA, 100 * c.min_effect, WB_MWU_MIN_SAMPLES, WB_MWU_OPTIMAL_SAMPLES,
           c.a.projected || c.b.projected ? "; no test against a projected file (its samples are scaled copies)" : "");
    rc = 0;
done:
    if (e.msg[0]) fprintf(stderr, "wallbench compare: %s\n", e.msg);
    free(fam);
    free(c.pairs);
    wb_match_free(&c.m);
    if (c.a.open) wb_results_free(&c.a.r);
    if (c.b.open) wb_results_free(&c.b.r);
    if (t.rows) wb_gpu_table_free(&t);
    return rc;
}
