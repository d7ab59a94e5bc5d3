/* report_rewrites.c - "Rewrites the suite has measured" of `wallbench report`
 * on a profile (report_profile.h): the kernels whose limiter and counter
 * ratios match a pair's rule (pairs.tsv, rewrites.h), largest by time, each
 * with that pair and, given --suite FILE (a results file), that pair's
 * two forms measured there (pairs.h's row rule) and their gain: what the
 * suite measured on its own kernels, never a prediction for the profiled one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/tools/pairs.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/report_profile.h"
#include "harness/tools/rewrites.h"

/* The counts the limiter and the rules read, summed per kernel over its launches that are both
 * timed and counted (a missing count in any of them leaves the sum NaN). */
static const char *const summed[] = {"inst", "inst_issued", "dram_sectors_read", "dram_sectors_write",
                                     "l2_sectors", "l2_atom_requests", "l2_red_requests"};
#define NSUMMED ((int)(sizeof summed / sizeof summed[0]))

typedef struct kmatch {
    int kernel, rule; /* rule: the pair (row of pairs.tsv) whose rule matched */
    double time_ms; /* the kernel's timed total */
    int cls;
    double f[WB_RW_FEATURES];
} kmatch;

static int by_time(const void *a, const void *b) {
    const kmatch *x = a, *y = b;
    if (x->time_ms != y->time_ms) return x->time_ms < y->time_ms ? 1 : -1;
    return x->kernel != y->kernel ? x->kernel - y->kernel : x->rule - y->rule;
}

/* Every (kernel, pair whose rule it matches) of p, into *out (malloc'd); returns the count, -1 out of memory. */
static int matches(const wb_profile *p, const wb_gpu_view *v, const wb_pairs *ps, kmatch **out) {
    wb_counters *sum = calloc((size_t)p->nkernels + 1, sizeof *sum);
    double *ms = calloc((size_t)p->nkernels + 1, sizeof *ms);
    *out = malloc(((size_t)p->nkernels * (size_t)ps->n + 1) * sizeof **out);
    if (!sum || !ms || !*out) return free(sum), free(ms), free(*out), *out = NULL, -1;
    for (int k = 0; k < p->nkernels; k++) {
        wb_counters_clear(&sum[k], "");
        for (int m = 0; m < NSUMMED; m++) sum[k].v[wb_metric_index(summed[m])] = 0;
    }
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (!(l->time_ms > 0) || l->kernel < 0 || l->kernel >= p->nkernels || !isfinite(l->c.v[wb_metric_index("inst")])) continue;
        for (int m = 0; m < NSUMMED; m++) sum[l->kernel].v[wb_metric_index(summed[m])] += l->c.v[wb_metric_index(summed[m])];
        ms[l->kernel] += l->time_ms;
    }
    int n = 0;
    for (int k = 0; k < p->nkernels; k++) {
        if (!(ms[k] > 0)) continue;
        kmatch m = {k, 0, p->kernels[k].total_ms, 0, {0}};
        wb_limit lim;
        wb_limit_of(&sum[k], ms[k], v, &lim);
        m.cls = lim.cls;
        wb_rewrite_features(&sum[k], m.f);
        for (int r = 0; r < ps->n; r++)
            if (wb_rewrite_match(&ps->p[r].rule, m.cls, m.f)) m.rule = r, (*out)[n++] = m;
    }
    free(sum), free(ms);
    qsort(*out, (size_t)n, sizeof **out, by_time);
    return n;
}

/* The suite's measurement of one pair. */
typedef struct measured {
    const wb_row *slow, *fast;
    char why[300]; /* why there is none */
} measured;

static void measure(const wb_results *suite, const wb_pair *pr, measured *m) {
    wb_err e = {""};
    m->slow = m->fast = NULL, m->why[0] = '\0';
    if (suite && wb_pair_choose(suite, pr, &m->slow, &m->fast, &e) != WB_OK) snprintf(m->why, sizeof m->why, "%s", e.msg);
}

int wb_report_rewrites(wb_rtab_out *o, const wb_profile *p, const wb_gpu_view *v, int top, const wb_results *suite) {
    if (!p->launches) return 0;
    wb_pairs pairs;
    wb_err e = {""};
    if (wb_pairs_load(NULL, &pairs, &e) != WB_OK) return fprintf(stderr, "wallbench report: %s\n", e.msg), 2;
    kmatch *km;
    int n = matches(p, v, &pairs, &km);
    if (n < 0) return wb_pairs_free(&pairs), fprintf(stderr, "wallbench report: out of memory\n"), 2;
    const char *gpu = suite ? wb_results_attr(suite, "gpu_name") : NULL;
    char agg[700];
    snprintf(agg, sizeof agg,
             "kernels whose limiter and counter ratios match a pair's rule (harness/tools/pairs.tsv, docs/profiling.md), "
             "largest by time, the top %d; each names the suite's pair whose slower form has that signature. %s",
             top,
             suite ? "Suite ms: the pair's two forms in the --suite file at the pair's n, fastest launch shape (pair_check.py's "
                     "rule); gain = slow / fast: what the suite measured on its kernels, not a prediction for this one"
                   : "No --suite file: no times");
    wb_rtab_title(o, "Rewrites the suite has measured (issue 49 item 3)", agg);
    static const char *const heads[] = {"#", "Kernel", "Time (ms)", "Limiter", "Pair", "Operator", "Slow form", "Fast form",
                                        "n", "Suite slow (ms)", "Suite fast (ms)", "Suite gain (x)"};
    const int ncol = (int)(sizeof heads / sizeof heads[0]);
    wb_textable t;
    wb_textable_init(&t, ncol);
    int h = wb_textable_add(&t);
    for (int c = 0; c < ncol; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    char (*lines)[640] = calloc((size_t)(n < top ? n : top) + 1, sizeof *lines);
    int shown = 0;
    for (int j = 0; j < n && shown < top && lines; j++, shown++) {
        const kmatch *m = &km[j];
        const wb_pair *pr = &pairs.p[m->rule];
        measured ms;
        measure(suite, pr, &ms);
        char label[64];
        wb_profile_kernel_label_in(p, m->kernel, label, sizeof label);
        int row = wb_textable_add(&t);
        wb_textable_set_unit(&t, row, 0, m->kernel, 0, "");
        wb_textable_set(&t, row, 1, "%s", label);
        wb_textable_set_num(&t, row, 2, m->time_ms, 3);
        wb_textable_set(&t, row, 3, "%s", wb_limit_class_name(m->cls));
        wb_textable_set(&t, row, 4, "%s", pr->pair);
        wb_textable_set(&t, row, 5, "%s", pr->family);
        /* which form is slower is the suite file's; without one, the form the rule describes */
        wb_textable_set(&t, row, 6, "%s", ms.slow ? ms.slow->p.variant : pr->form);
        wb_textable_set(&t, row, 7, "%s", ms.fast ? ms.fast->p.variant : strcmp(pr->a, pr->form) ? pr->a : pr->b);
        wb_textable_set_unit(&t, row, 8, (double)pr->n, 0, "");
        double slow = ms.slow ? ms.slow->m.time_median_ms : NAN, fast = ms.fast ? ms.fast->m.time_median_ms : NAN;
        wb_textable_set_num(&t, row, 9, slow, 3);
        wb_textable_set_num(&t, row, 10, fast, 3);
        wb_textable_set_num(&t, row, 11, slow / fast, 2);
        char sig[200];
        int at = snprintf(lines[shown], sizeof lines[0], "%s: %s (%s)", label, pr->shape, wb_rewrite_signature(&pr->rule, sig, sizeof sig));
        if (ms.slow)
            snprintf(lines[shown] + at, sizeof lines[0] - (size_t)at,
                     "; the suite measured %.3f ms -> %.3f ms (%.2fx) for %s %s -> %s at n=%lld on %s", slow, fast, slow / fast,
                     pr->family, ms.slow->p.variant, ms.fast->p.variant, (long long)pr->n, gpu && *gpu ? gpu : "an unnamed GPU");
        else if (ms.why[0])
            snprintf(lines[shown] + at, sizeof lines[0] - (size_t)at, "; no suite time: %s", ms.why);
    }
    wb_rtab_emit(o, &t);
    wb_textable_free(&t);
    if (!n) fprintf(o->f, "%sno kernel matches a rule\n", o->md ? "\n" : "  ");
    for (int j = 0; j < shown; j++) fprintf(o->f, "%s%s\n", o->md ? "\n- " : "  ", lines[j]);
    if (n > shown) fprintf(o->f, "%s%d more matches not shown (--top)\n", o->md ? "\n" : "  ", n - shown);
    int rc = lines || !n ? 0 : (fprintf(stderr, "wallbench report: out of memory\n"), 2);
    free(lines), free(km);
    wb_pairs_free(&pairs);
    return rc;
}
