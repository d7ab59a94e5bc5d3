/* compare_profile.c - `wallbench compare A.h5 B.h5 [--markdown | --json] [--top N]`
 * (compare.c parses the options and opens both files through rows.h, and
 * hands two profiles here) on two profiles of the same program (two GPUs, two versions): kernels
 * matched by readable name and launch shape (the kernels of one side that
 * share both, template instances of one function, are summed first), each
 * pair's time, instruction and DRAM sector ratio B / A, the totals, and the
 * kernels found on one side only, listed apart. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/json.h"
#include "harness/base/metrics.h"
#include "harness/base/textable.h"
#include "harness/store/profile_h5.h"
#include "harness/tools/compare.h"
#include "harness/tools/profile_tools.h"

typedef struct group {
    char key[320];      /* name|shape */
    char label[48], shape[48];
    int64_t launches;
    double ms, inst, sectors;
    int matched;        /* index of the partner group + 1; 0 none */
} group;

typedef struct side {
    const char *path;
    const wb_profile *p;
    group *g;
    int n;
} side;

static double add(double sum, double x) {
    if (!isfinite(x)) return sum;
    return isfinite(sum) ? sum + x : x;
}

static int group_kernels(side *s) {
    s->g = calloc((size_t)s->p->nkernels + 1, sizeof *s->g);
    if (!s->g) return WB_ERR;
    const int inst = wb_metric_index("inst"), rd = wb_metric_index("dram_sectors_read"),
              wr = wb_metric_index("dram_sectors_write");
    for (int32_t i = 0; i < s->p->nkernels; i++) {
        const wb_prof_kernel *k = &s->p->kernels[i];
        char shape[48], key[320];
        snprintf(shape, sizeof shape, "%dx%dx%d/%dx%dx%d", k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                 k->block[2]);
        snprintf(key, sizeof key, "%.256s|%s", k->demangled[0] ? k->demangled : k->name, shape);
        int j = 0;
        while (j < s->n && strcmp(s->g[j].key, key) != 0) j++;
        group *g = &s->g[j];
        if (j == s->n) {
            s->n++;
            snprintf(g->key, sizeof g->key, "%s", key);
            wb_profile_kernel_label(k, g->label, sizeof g->label);
            snprintf(g->shape, sizeof g->shape, "%s", shape);
            g->ms = g->inst = g->sectors = NAN;
        }
        g->launches += k->launches;
        g->ms = add(g->ms, k->total_ms);
        g->inst = add(g->inst, k->c.v[inst]);
        g->sectors = add(g->sectors, k->c.v[rd] + k->c.v[wr]);
    }
    return WB_OK;
}

static double ratio(double b, double a) {
    return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static int by_ms(const void *x, const void *y) {
    const group *a = *(group *const *)x, *b = *(group *const *)y;
    double p = isfinite(a->ms) ? a->ms : -1, q = isfinite(b->ms) ? b->ms : -1;
    return p < q ? 1 : p > q ? -1 : 0;
}

static void unmatched(const side *s, const char *which, const char *nl) {
    int n = 0;
    double ms = 0;
    for (int i = 0; i < s->n; i++)
        if (!s->g[i].matched) n++, ms = add(ms, s->g[i].ms);
    if (!n) return;
    char ms_text[32];
    printf("%sonly in %s (%s): %d kernels, %s ms:", nl, which, s->path, n, wb_textable_num(ms_text, sizeof ms_text, ms, 3));
    int shown = 0;
    for (int i = 0; i < s->n && shown < 20; i++)
        if (!s->g[i].matched) {
            char ms_text[32];
            printf("%s %s [%s] %s ms", shown++ ? ";" : "", s->g[i].label, s->g[i].shape,
                   wb_textable_num(ms_text, sizeof ms_text, s->g[i].ms, 3));
        }
    if (shown < n) printf("; ... (%d more)", n - shown);
    printf("\n");
}

static void json_side(const side *s, const char *key, int first) {
    wb_json_key(stdout, key, first);
    printf("{");
    wb_json_key(stdout, "path", 1);
    wb_json_str(stdout, s->path);
    static const char *const attrs[] = {"gpu_name", "gpu_uuid", "git_revision", "program_command", "counter_mode"};
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
        const char *v = wb_profile_attr(s->p, attrs[i]);
        wb_json_kv_str(stdout, attrs[i], v ? v : "");
    }
    wb_json_kv_num(stdout, "kernels", s->p->nkernels);
    printf("}");
}

/* The kernels of one side that the other lacks, as [{name, shape, launches, ms}]. */
static void json_lone(const side *s, const char *key) {
    wb_json_key(stdout, key, 0);
    printf("[");
    for (int i = 0, n = 0; i < s->n; i++) {
        if (s->g[i].matched) continue;
        printf("%s{", n++ ? "," : "");
        wb_json_key(stdout, "name", 1);
        wb_json_str(stdout, s->g[i].label);
        wb_json_kv_str(stdout, "shape", s->g[i].shape);
        wb_json_kv_num(stdout, "launches", (double)s->g[i].launches);
        wb_json_kv_num(stdout, "ms", s->g[i].ms);
        printf("}");
    }
    printf("]");
}

/* --json: the same table with numbers: every matched kernel (not cut by --top), the totals, the
 * kernels of one side only; times in ms, the rest ratios B / A (units says so). */
static int compare_json(side *a, side *b, group **order) {
    printf("{");
    wb_json_key(stdout, "kind", 1);
    wb_json_str(stdout, "wallbench-profile-compare");
    json_side(a, "a", 0);
    json_side(b, "b", 0);
    wb_json_key(stdout, "units", 0);
    printf("{");
    wb_json_key(stdout, "ms", 1);
    wb_json_str(stdout, "ms: summed kernel time of the group's timed launches");
    wb_json_kv_str(stdout, "b_over_a", "ratio B / A of summed time, counted instructions, DRAM sectors read + write");
    printf("}");
    wb_json_key(stdout, "kernels", 0);
    printf("[");
    double tot[6] = {NAN, NAN, NAN, NAN, NAN, NAN}; /* ms, inst, sectors of A and B */
    int pairs = 0;
    for (int i = 0; i < a->n; i++) {
        const group *x = order[i];
        if (!x->matched) continue;
        const group *y = &b->g[x->matched - 1];
        const double v[6] = {x->ms, y->ms, x->inst, y->inst, x->sectors, y->sectors};
        for (int k = 0; k < 6; k++) tot[k] = add(tot[k], v[k]);
        printf("%s{", pairs++ ? "," : "");
        wb_json_key(stdout, "name", 1);
        wb_json_str(stdout, x->label);
        wb_json_kv_str(stdout, "shape", x->shape);
        wb_json_kv_num(stdout, "launches_a", (double)x->launches);
        wb_json_kv_num(stdout, "launches_b", (double)y->launches);
        wb_json_kv_num(stdout, "a_ms", x->ms);
        wb_json_kv_num(stdout, "b_ms", y->ms);
        wb_json_kv_num(stdout, "time_b_over_a", ratio(y->ms, x->ms));
        wb_json_kv_num(stdout, "inst_b_over_a", ratio(y->inst, x->inst));
        wb_json_kv_num(stdout, "dram_b_over_a", ratio(y->sectors, x->sectors));
        printf("}");
    }
    printf("]");
    wb_json_key(stdout, "matched", 0);
    printf("{");
    wb_json_key(stdout, "kernels", 1);
    wb_json_num(stdout, pairs);
    wb_json_kv_num(stdout, "a_ms", tot[0]);
    wb_json_kv_num(stdout, "b_ms", tot[1]);
    wb_json_kv_num(stdout, "time_b_over_a", ratio(tot[1], tot[0]));
    wb_json_kv_num(stdout, "inst_b_over_a", ratio(tot[3], tot[2]));
    wb_json_kv_num(stdout, "dram_b_over_a", ratio(tot[5], tot[4]));
    printf("}");
    json_lone(a, "only_a");
    json_lone(b, "only_b");
    printf("}\n");
    return 0;
}

static int compare(side *a, side *b, int md, int top) {
    if (group_kernels(a) != WB_OK || group_kernels(b) != WB_OK)
        return fprintf(stderr, "wallbench compare: out of memory\n"), 2;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            if (!b->g[j].matched && strcmp(a->g[i].key, b->g[j].key) == 0) {
                a->g[i].matched = j + 1, b->g[j].matched = i + 1;
                break;
            }
    group **order = malloc(((size_t)a->n + 1) * sizeof *order);
    if (!order) return fprintf(stderr, "wallbench compare: out of memory\n"), 2;
    for (int i = 0; i < a->n; i++) order[i] = &a->g[i];
    qsort(order, (size_t)a->n, sizeof *order, by_ms);
    if (md == 2) {
        int rc = compare_json(a, b, order);
        free(order);
        return rc;
    }
    const char *nl = md ? "\n" : "";
    printf("%scompare two profiles, ratios B / A:\n", md ? "**Profiles** " : "");
    wb_profile_describe(stdout, a->path, a->p, md ? "- A: " : "  A: ");
    wb_profile_describe(stdout, b->path, b->p, md ? "- B: " : "  B: ");
    printf("%s", md ? "\n" : "");
    wb_textable t;
    wb_textable_init(&t, 8);
    const char *heads[8] = {"Kernel", "Shape", "Launches A/B", "A ms", "B ms", "Time B/A", "Inst B/A", "DRAM B/A"};
    int h = wb_textable_add(&t);
    for (int c = 0; c < 8; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    double ms[2] = {NAN, NAN}, inst[2] = {NAN, NAN}, sec[2] = {NAN, NAN};
    int pairs = 0, shown = 0;
    for (int i = 0; i < a->n; i++) {
        const group *x = order[i];
        if (!x->matched) continue;
        const group *y = &b->g[x->matched - 1];
        pairs++;
        ms[0] = add(ms[0], x->ms), ms[1] = add(ms[1], y->ms);
        inst[0] = add(inst[0], x->inst), inst[1] = add(inst[1], y->inst);
        sec[0] = add(sec[0], x->sectors), sec[1] = add(sec[1], y->sectors);
        if (shown++ >= top) continue;
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%s", x->label);
        wb_textable_set(&t, row, 1, "%s", x->shape);
        wb_textable_set(&t, row, 2, "%lld/%lld", (long long)x->launches, (long long)y->launches);
        wb_textable_set_num(&t, row, 3, x->ms, 3);
        wb_textable_set_num(&t, row, 4, y->ms, 3);
        wb_textable_set_num(&t, row, 5, ratio(y->ms, x->ms), 3);
        wb_textable_set_num(&t, row, 6, ratio(y->inst, x->inst), 3);
        wb_textable_set_num(&t, row, 7, ratio(y->sectors, x->sectors), 3);
    }
    int row = wb_textable_add(&t);
    wb_textable_set(&t, row, 0, "Total of %d matched", pairs);
    wb_textable_set_num(&t, row, 3, ms[0], 3);
    wb_textable_set_num(&t, row, 4, ms[1], 3);
    wb_textable_set_num(&t, row, 5, ratio(ms[1], ms[0]), 3);
    wb_textable_set_num(&t, row, 6, ratio(inst[1], inst[0]), 3);
    wb_textable_set_num(&t, row, 7, ratio(sec[1], sec[0]), 3);
    double all[2] = {NAN, NAN};
    for (int i = 0; i < a->n; i++) all[0] = add(all[0], a->g[i].ms);
    for (int i = 0; i < b->n; i++) all[1] = add(all[1], b->g[i].ms);
    row = wb_textable_add(&t);
    wb_textable_set(&t, row, 0, "All kernels");
    wb_textable_set_num(&t, row, 3, all[0], 3);
    wb_textable_set_num(&t, row, 4, all[1], 3);
    wb_textable_set_num(&t, row, 5, ratio(all[1], all[0]), 3);
    wb_textable_print(stdout, &t, md);
    wb_textable_free(&t);
    if (shown > top) printf("%s%d more matched kernels not shown (--top)\n", nl, shown - top);
    printf("%skernels matched by readable name and launch shape (grid/block); same-name instances of one side summed; "
           "ratios of summed time and of counted instructions and DRAM sectors (read + write)\n",
           nl);
    unmatched(a, "A", nl);
    unmatched(b, "B", nl);
    if (!pairs) printf("%sno kernel matched: are these profiles of the same program?\n", nl);
    free(order);
    return 0;
}

int wb_compare_profiles(const wb_rows *a, const wb_rows *b, int md, int top) {
    side s[2] = {{a->path, &a->p, NULL, 0}, {b->path, &b->p, NULL, 0}};
    int rc = compare(&s[0], &s[1], md, top);
    free(s[0].g);
    free(s[1].g);
    return rc;
}
