/* test_rewrites.c - issue 49 item 3, beyond the seeds: the rules of
 * harness/tools/pairs.tsv (rewrites.h) at each bound's edge (a value on the bound
 * matches, one just past it does not, another limiter or a missing counter
 * never does), the ratios they read from counters, and the row choice of
 * harness/tools/pairs.c on the committed record against pair_check.py's own
 * choice (results/h200-pairs/plan.tsv, written by `pair_check.py plan`):
 * the one rule, kept in C and in Python, picks the same rows for every pair
 * of pairs.tsv. Bad pairs.tsv lines and bounds fail with a reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/tools/pairs.h"
#include "harness/tools/rewrites.h"

/* CHECK as an expression: 1 when c holds. */
#define EXPECT(c) ((c) ? 1 : (fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c), wb_test_failures++, 0))

/* Each rule's bounds on their edges: it matches there (a min is inclusive, a max exclusive) and not
 * a step past one; another limiter, or a ratio not counted, never matches. */
static void rule_edges(const wb_pairs *ps) {
    int rules = 0;
    for (int i = 0; i < ps->n; i++) {
        const wb_rewrite_rule *r = &ps->p[i].rule;
        if (r->limiter < 0) continue;
        rules++;
        double f[WB_RW_FEATURES], in[WB_RW_BOUNDS], out[WB_RW_BOUNDS];
        for (int k = 0; k < WB_RW_FEATURES; k++) f[k] = NAN;
        for (int b = 0; b < r->nbounds; b++) {
            int ge = !isnan(r->bound[b].min);
            in[b] = ge ? r->bound[b].min : r->bound[b].max * (1 - 1e-9);
            out[b] = ge ? r->bound[b].min * (1 - 1e-9) : r->bound[b].max;
            f[r->bound[b].feature] = in[b];
        }
        if (!EXPECT(wb_rewrite_match(r, r->limiter, f))) fprintf(stderr, "rule of %s: no match on its edges\n", ps->p[i].pair);
        for (int b = 0; b < r->nbounds; b++) {
            f[r->bound[b].feature] = out[b];
            if (!EXPECT(!wb_rewrite_match(r, r->limiter, f))) fprintf(stderr, "rule of %s: a match past bound %d\n", ps->p[i].pair, b);
            f[r->bound[b].feature] = NAN;
            CHECK(!wb_rewrite_match(r, r->limiter, f));
            f[r->bound[b].feature] = in[b];
        }
        for (int cls = 0; cls < WB_LIM_CLASSES; cls++)
            if (cls != r->limiter) CHECK(!wb_rewrite_match(r, cls, f));
        char sig[200];
        wb_rewrite_signature(r, sig, sizeof sig);
        CHECK(!strncmp(sig, "limiter ", 8) && !strncmp(sig + 8, wb_limit_class_name(r->limiter), strlen(wb_limit_class_name(r->limiter))));
        CHECK(!strcmp(ps->p[i].form, ps->p[i].a) || !strcmp(ps->p[i].form, ps->p[i].b));
    }
    CHECK(rules >= 5); /* the pairs.tsv of this tree: five rules, select and scan without */
}

static void set(wb_counters *c, const char *name, double v) { c->v[wb_metric_index(name)] = v; }

static void features(void) {
    wb_counters c;
    wb_counters_clear(&c, "");
    set(&c, "inst", 1000), set(&c, "dram_sectors_read", 300), set(&c, "dram_sectors_write", 100);
    set(&c, "l2_sectors", 480), set(&c, "l2_atom_requests", 200), set(&c, "l2_red_requests", 50);
    double f[WB_RW_FEATURES];
    wb_rewrite_features(&c, f);
    CHECK_NEAR(f[WB_RW_ATOMICS_PER_INST], 0.25, 1e-12);
    CHECK_NEAR(f[WB_RW_INST_PER_DRAM_SECTOR], 2.5, 1e-12);
    CHECK_NEAR(f[WB_RW_L2_PER_DRAM_SECTOR], 1.2, 1e-12);
    CHECK_NEAR(f[WB_RW_DRAM_WRITE_PER_READ], 1.0 / 3.0, 1e-12);
    /* a rule parsed from text, on its bound */
    wb_rewrite_rule r = {WB_LIM_ATOMICS, 0, {{0, 0, 0}}};
    char why[200];
    CHECK(wb_rewrite_parse("atomics_per_inst>=0.25,l2_per_dram_sector<1.2", &r, why, sizeof why) == WB_OK && r.nbounds == 2);
    CHECK(!wb_rewrite_match(&r, WB_LIM_ATOMICS, f)); /* 1.2 is not < 1.2 */
    set(&c, "l2_sectors", 479.9);
    wb_rewrite_features(&c, f);
    CHECK(wb_rewrite_match(&r, WB_LIM_ATOMICS, f) && !wb_rewrite_match(&r, WB_LIM_DRAM, f));
    set(&c, "l2_red_requests", NAN); /* a missing count: no ratio, no match */
    wb_rewrite_features(&c, f);
    CHECK(isnan(f[WB_RW_ATOMICS_PER_INST]) && !wb_rewrite_match(&r, WB_LIM_ATOMICS, f));
    static const char *const bad[] = {"", "atomics_per_inst>0.25", "atomics_per_inst=0.25", "no_such<1", "inst_per_dram_sector>=x",
                                      "atomics_per_inst<1,atomics_per_inst<2,atomics_per_inst<3,atomics_per_inst<4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!EXPECT(wb_rewrite_parse(bad[i], &r, why, sizeof why) == WB_ERR && why[0])) fprintf(stderr, "parsed '%s'\n", bad[i]);
    set(&c, "dram_sectors_read", 0), set(&c, "dram_sectors_write", 0);
    wb_rewrite_features(&c, f);
    CHECK(isnan(f[WB_RW_INST_PER_DRAM_SECTOR]) && isnan(f[WB_RW_DRAM_WRITE_PER_READ]));
}

/* pairs.c's choice on the record equals pair_check.py's (plan.tsv: pair, role, family, variant, n, name). */
static void same_choice(const char *src, const wb_pairs *ps) {
    char path[2048];
    wb_results r;
    wb_err e = {""};
    snprintf(path, sizeof path, "%s/results/h200/20261204T200319Z-4531e1f.h5", src);
    if (!EXPECT(wb_results_open(path, &r, &e) == WB_OK)) return (void)fprintf(stderr, "%s\n", e.msg);
    snprintf(path, sizeof path, "%s/results/h200-pairs/plan.tsv", src);
    FILE *f = fopen(path, "r");
    if (!EXPECT(f != NULL)) return wb_results_free(&r);
    char line[1024];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        char pair[64], role[8], fam[32], var[32], name[512];
        long long n;
        if (!EXPECT(sscanf(line, "%63[^\t]\t%7[^\t]\t%31[^\t]\t%31[^\t]\t%lld\t%511[^\n]", pair, role, fam, var, &n, name) == 6)) continue;
        lines++;
        const wb_pair *p = wb_pairs_find(ps, pair);
        const wb_row *slow, *fast;
        if (!EXPECT(p && wb_pair_choose(&r, p, &slow, &fast, &e) == WB_OK)) {
            fprintf(stderr, "%s: %s\n", pair, e.msg);
            continue;
        }
        const wb_row *x = !strcmp(role, "slow") ? slow : fast;
        if (!EXPECT(!strcmp(x->name, name) && !strcmp(x->p.variant, var) && x->p.n == n))
            fprintf(stderr, "%s %s: C chose %s, pair_check.py %s\n", pair, role, x->name, name);
        CHECK(slow->m.time_median_ms >= fast->m.time_median_ms);
    }
    fclose(f);
    CHECK(lines == 2 * ps->n);
    wb_pair absent = ps->p[0];
    absent.n = 12345; /* a size the record lacks: a reason, not a row */
    const wb_row *s, *q;
    CHECK(wb_pair_choose(&r, &absent, &s, &q, &e) == WB_ERR && strstr(e.msg, "at n = 12345"));
    snprintf(absent.where_key[0], sizeof absent.where_key[0], "no_such_axis"), absent.nwhere = 1, absent.n = ps->p[0].n;
    CHECK(wb_pair_choose(&r, &absent, &s, &q, &e) == WB_ERR && strstr(e.msg, "no axis no_such_axis"));
    wb_results_free(&r);
}

static void bad_lines(void) {
    static const char *const bad[] = {"x\tgroupby\tglobal\tshared\n", "x\tgroupby\tglobal\tshared\tmany\n",
                                      "x\tgroupby\tglobal\tshared\t16\tgroups\n", "# only a comment\n",
                                      "x\tgroupby\tglobal\tshared\t16\t\tother\tatomics\tatomics_per_inst>=1\tshape\n",
                                      "x\tgroupby\tglobal\tshared\t16\t\tglobal\tfast\tatomics_per_inst>=1\tshape\n",
                                      "x\tgroupby\tglobal\tshared\t16\t\tglobal\tatomics\tatomics_per_inst>1\tshape\n",
                                      "x\tgroupby\tglobal\tshared\t16\t\tglobal\tatomics\tatomics_per_inst>=1\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[] = "/tmp/wb_pairs_XXXXXX";
        int fd = mkstemp(path);
        if (!EXPECT(fd >= 0)) continue;
        FILE *f = fdopen(fd, "w");
        fputs(bad[i], f);
        fclose(f);
        wb_pairs ps;
        wb_err e = {""};
        CHECK(wb_pairs_load(path, &ps, &e) == WB_ERR && strstr(e.msg, path));
        remove(path);
    }
}

int main(void) {
    features();
    bad_lines();
    const char *src = getenv("WB_SOURCE_DIR");
    char path[2048];
    snprintf(path, sizeof path, "%s/harness/tools/pairs.tsv", src && *src ? src : ".");
    wb_pairs ps;
    wb_err e = {""};
    if (EXPECT(wb_pairs_load(path, &ps, &e) == WB_OK)) {
        rule_edges(&ps);
        same_choice(src && *src ? src : ".", &ps);
        wb_pairs_free(&ps);
    } else {
        fprintf(stderr, "%s\n", e.msg);
    }
    return TEST_DONE();
}
