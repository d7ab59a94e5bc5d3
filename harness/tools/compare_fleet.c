/* compare_fleet.c - `wallbench compare F1.h5 F2.h5 F3.h5 ...`: one results
 * file per GPU model (a fleet, e.g. the merges of harness/slurm/) read as
 * seed 000 Table 1 for every pair: the hardware ratios, then per family the
 * matrix whose cell (row i, column j) is the speedup of GPU j over GPU i
 * (geometric mean over the points both measured of time i / time j). The
 * pairing and the sums are the two-file compare's (wb_cmp_families), so a
 * cell equals the "speedup of B" of `wallbench compare Fi Fj`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/compare.h"

typedef struct fleet_family {
    char name[32];
    double *speedup; /* n x n, NaN where two files share no measured point */
    int *pairs;      /* n x n, points in that cell */
} fleet_family;

typedef struct fleet {
    int n, nfam, md;
    wb_cmp_side *side;
    fleet_family fam[64];
} fleet;

static fleet_family *family_of(fleet *f, const char *name) {
    for (int k = 0; k < f->nfam; k++)
        if (!strcmp(f->fam[k].name, name)) return &f->fam[k];
    if (f->nfam == (int)(sizeof f->fam / sizeof f->fam[0])) return NULL;
    fleet_family *x = &f->fam[f->nfam];
    size_t cells = (size_t)f->n * (size_t)f->n;
    x->speedup = malloc(cells * sizeof *x->speedup);
    x->pairs = calloc(cells, sizeof *x->pairs);
    if (!x->speedup || !x->pairs) {
        free(x->speedup);
        free(x->pairs);
        return NULL;
    }
    for (size_t c = 0; c < cells; c++) x->speedup[c] = NAN;
    for (int i = 0; i < f->n; i++) x->speedup[i * f->n + i] = 1.0;
    snprintf(x->name, sizeof x->name, "%s", name);
    f->nfam++;
    return x;
}

/* The two-file compare of files i and j, its geometric means into both cells. */
static int pair(fleet *f, int i, int j, const char *family, wb_err *e) {
    wb_cmp c;
    memset(&c, 0, sizeof c);
    c.a = f->side[i];
    c.b = f->side[j];
    c.family = family;
    wb_cmp_family *fam = NULL;
    int nfam = 0, rc = WB_ERR;
    if (wb_match_files(&c.a.r, &c.b.r, &c.m, e) != WB_OK) return WB_ERR;
    c.r_bw = c.b.roof.dram_gbps / c.a.roof.dram_gbps;
    c.r_inst = c.b.roof.inst_gips / c.a.roof.inst_gips;
    if (wb_cmp_families(&c, &fam, &nfam, e) != WB_OK) goto out;
    for (int k = 0; k <= nfam; k++) {
        const wb_cmp_family *x = k < nfam ? &fam[k] : &c.all;
        if (!x->nlog) continue;
        fleet_family *y = family_of(f, x->name);
        if (!y) {
            wb_fail(e, "out of memory (or more than 64 families)");
            goto out;
        }
        double g = exp(x->sum_log / x->nlog); /* time j / time i */
        y->speedup[i * f->n + j] = 1 / g;
        y->speedup[j * f->n + i] = g;
        y->pairs[i * f->n + j] = y->pairs[j * f->n + i] = x->nlog;
    }
    rc = WB_OK;
out:
    free(fam);
    free(c.pairs);
    wb_match_free(&c.m);
    return rc;
}

/* One matrix: a title, the row and column heads (GPU labels and file
 * numbers), cells from value(i, j). */
static void matrix(const fleet *f, const char *title, double (*value)(const fleet *, const void *, int, int),
                   const void *ctx, const char *unit_note) {
    wb_textable t;
    wb_textable_init(&t, f->n + 1);
    int h = wb_textable_add(&t);
    wb_textable_set(&t, h, 0, "%s", f->md ? "row \\ column" : "row \\ column");
    for (int j = 0; j < f->n; j++) wb_textable_set(&t, h, j + 1, "%d: %s", j + 1, f->side[j].v.label);
    char num[64];
    for (int i = 0; i < f->n; i++) {
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%d: %s", i + 1, f->side[i].v.label);
        for (int j = 0; j < f->n; j++) {
            double v = value(f, ctx, i, j);
            if (isfinite(v)) wb_textable_set(&t, row, j + 1, "%sx", wb_textable_num(num, sizeof num, v, 2));
            else wb_textable_set(&t, row, j + 1, "-");
        }
    }
    printf(f->md ? "\n### %s\n\n" : "\n%s\n", title);
    wb_textable_print(stdout, &t, f->md);
    if (unit_note) printf("%s%s\n", f->md ? "\n" : "  ", unit_note);
    wb_textable_free(&t);
}

static double bandwidth(const fleet *f, const void *ctx, int i, int j) {
    (void)ctx;
    return f->side[j].roof.dram_gbps / f->side[i].roof.dram_gbps;
}

static double instructions(const fleet *f, const void *ctx, int i, int j) {
    (void)ctx;
    return f->side[j].roof.inst_gips / f->side[i].roof.inst_gips;
}

static double speedup(const fleet *f, const void *ctx, int i, int j) {
    return ((const fleet_family *)ctx)->speedup[i * f->n + j];
}

int wb_cmp_fleet(const char *const *paths, int n, int md, const char *family) {
    fleet f;
    memset(&f, 0, sizeof f);
    f.n = n;
    f.md = md;
    wb_err e = {""};
    wb_gpu_table t = {NULL, 0};
    int rc = 2, opened = 0;
    f.side = calloc((size_t)n, sizeof *f.side);
    if (!f.side) {
        wb_fail(&e, "out of memory");
        goto done;
    }
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) goto done;
    for (; opened < n; opened++)
        if (wb_cmp_open_side(&f.side[opened], paths[opened], "", &t, &e) != WB_OK) {
            opened++;
            goto done;
        }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (pair(&f, i, j, family, &e) != WB_OK) goto done;
    if (family && !f.nfam) {
        wb_fail(&e, "no point of family '%s' measured in two of the files%s", family,
                strchr(family, ',') ? " (--family takes one family)" : "");
        goto done;
    }
    printf(md ? "## wallbench compare: fleet of %d files\n\n" : "wallbench compare: fleet of %d files\n", n);
    for (int i = 0; i < n; i++)
        printf("%s%d: %s: %s: %s, %s, roof from %s\n", md ? "- " : "  ", i + 1, f.side[i].v.label, paths[i],
               f.side[i].v.gpu_name[0] ? f.side[i].v.gpu_name : "GPU unknown",
               f.side[i].projected ? "PROJECTED (not measured)" : "measured", f.side[i].roof_source);
    matrix(&f, "Mem. bandwidth, column over row", bandwidth, NULL, NULL);
    matrix(&f, "Instr. throughput, column over row", instructions, NULL, NULL);
    for (int k = 0; k < f.nfam; k++) {
        char title[96];
        snprintf(title, sizeof title, "%s: speedup of column over row", f.fam[k].name);
        matrix(&f, title, speedup, &f.fam[k], NULL);
    }
    printf("\n%sA cell is the speedup of the column's GPU over the row's: geometric mean over the points both files "
           "measured of row time / column time, as the \"speedup of B\" of wallbench compare ROW COLUMN "
           "(B = the column); bandwidth and instruction cells are column / row, seed 000 Table 1's hardware ratios. "
           "\"all operator families\" leaves the ceilings out; - : no point in common.\n",
           md ? "" : "  ");
    rc = 0;
done:
    if (e.msg[0]) fprintf(stderr, "wallbench compare: %s\n", e.msg);
    for (int k = 0; k < f.nfam; k++) {
        free(f.fam[k].speedup);
        free(f.fam[k].pairs);
    }
    for (int i = 0; i < opened; i++) wb_results_free(&f.side[i].r);
    free(f.side);
    if (t.rows) wb_gpu_table_free(&t);
    return rc;
}
