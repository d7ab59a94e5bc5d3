/* ssb_figure.c - the ssb family's figure: tables of plots/fig-ssb.gp, and
 * its per-query table: for every scale factor, query and form the fastest launch shape,
 * its time, its DRAM bytes (counters) against the bytes model, the model's
 * time at the file's DRAM read ceiling, and instructions per sector.
 *   fig-ssb.dat        the largest scale factor: one block per form, one row a query
 *   fig-ssb-table.dat  every scale factor (what README's table reads)
 *   fig-ssb-sums.dat   per scale factor with the four plain forms of every
 *                      query: the 13 queries summed per form (compressed:
 *                      NaN unless every query has it), the fastest form of
 *                      each query summed (compressed among them where it
 *                      ran), the plain columns' models summed
 *   fig-ssb-roofs.dat  the rooflines (H200 measured, L4, GH200) for the ridges */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "ssb"

#define QUERIES 13
#define FORMS 5
#define PLAIN_FORMS 4 /* the forms of every record since the bitmap form's; compressed came later */
#define SFS 8

static const char *const form_names[FORMS] = {"tiled", "direct", "packed", "bitmap", "compressed"};

typedef struct best {
    const wb_row *row[SFS][QUERIES][FORMS];
    int64_t n[SFS];
    int nsf;
} best;

/* "q2.3_direct" -> query 5, form 1; -1 when not an ssb variant name. */
static int parse_variant(const char *v, int *query, int *form) {
    int flight, sub;
    char f[16];
    if (sscanf(v, "q%d.%d_%15s", &flight, &sub, f) != 3) return -1;
    static const int first[5] = {0, 0, 3, 6, 10}; /* flights 1-4: 3, 3, 4, 3 queries */
    static const int count[5] = {0, 3, 3, 4, 3};
    if (flight < 1 || flight > 4 || sub < 1 || sub > count[flight]) return -1;
    *query = first[flight] + sub - 1;
    for (*form = 0; *form < FORMS && strcmp(f, form_names[*form]) != 0; (*form)++)
        ;
    return *form < FORMS ? 0 : -1;
}

static int collect(const wb_results *r, best *b) {
    memset(b, 0, sizeof *b);
    for (int64_t i = 0; i < r->nrows; i++) {
        const wb_row *w = &r->rows[i];
        int q, f, s;
        if (strcmp(w->p.family, FAMILY) != 0 || !wb_agg_is_op_point(w) || parse_variant(w->p.variant, &q, &f) < 0)
            continue;
        for (s = 0; s < b->nsf && b->n[s] != w->p.n; s++)
            ;
        if (s == b->nsf) {
            if (b->nsf == SFS) continue;
            b->n[b->nsf++] = w->p.n;
        }
        const wb_row *o = b->row[s][q][f];
        if (!o || w->m.time_median_ms < o->m.time_median_ms) b->row[s][q][f] = w;
    }
    return b->nsf;
}

static double model_ms(const wb_export *x, const wb_row *r) {
    return x->v.dram_read_gbps > 0 ? r->p.bytes_model / (x->v.dram_read_gbps * 1e6) : NAN;
}
/* The map lookups of the point (the column lookups, micro/ssb.c's plan).
 * Files before schema 6 lack the column (NaN): their plan wrote the number
 * only into the note, "... %g M map lookups", which is read for them alone. */
static double lookups(const wb_row *r) {
    if (isfinite(r->p.lookups)) return r->p.lookups;
    const char *s = strstr(r->p.note, "rows pass; ");
    double m = NAN;
    return s && sscanf(s, "rows pass; %lf M map lookups", &m) == 1 ? m * 1e6 : NAN;
}

#define COLUMNS                                                                                                    \
    "series query form sf time_ms model_ms pct_of_model dram_mb model_mb dram_over_model inst_per_sector "         \
    "lookups_m ilp occupancy block q_idx"

static void row_out(FILE *f, const wb_export *x, const wb_row *r, int q, int form) {
    const double mm = model_ms(x, r), dm = wb_row_dram_mb(r);
    wb_export_str(f, form_names[form]);
    fputc(' ', f);
    wb_export_str(f, r->p.variant);
    fputc(' ', f);
    wb_export_str(f, form_names[form]);
    wb_export_num(f, (double)r->p.n / 6e6);
    wb_export_num(f, r->m.time_median_ms);
    wb_export_num(f, mm);
    wb_export_num(f, 100.0 * mm / r->m.time_median_ms);
    wb_export_num(f, dm);
    wb_export_num(f, r->p.bytes_model / 1e6);
    wb_export_num(f, dm / (r->p.bytes_model / 1e6));
    wb_export_num(f, r->c.inst_per_sector);
    wb_export_num(f, lookups(r) / 1e6);
    wb_export_num(f, r->p.launch.ilp);
    wb_export_num(f, r->p.launch.occupancy_target);
    wb_export_num(f, r->p.launch.block);
    wb_export_num(f, q);
    fputc('\n', f);
}

static int sums_out(wb_export *x, const best *b, wb_err *e) {
    FILE *f = wb_export_open(
        x, "-sums", "sf queries tiled_ms direct_ms packed_ms bitmap_ms compressed_ms best_ms model_ms best_pct_of_model", e);
    if (!f) return WB_ERR;
    for (int s = 0; s < b->nsf; s++) {
        double t[FORMS] = {0}, bestsum = 0, model = 0;
        int complete = 0, compressed = 0;
        for (int q = 0; q < QUERIES; q++) {
            const wb_row *const *r = b->row[s][q];
            if (!r[0] || !r[1] || !r[2] || !r[3]) continue;
            complete++;
            double fastest = INFINITY;
            for (int form = 0; form < FORMS; form++) {
                if (!r[form]) continue;
                compressed += form >= PLAIN_FORMS;
                t[form] += r[form]->m.time_median_ms, fastest = fmin(fastest, r[form]->m.time_median_ms);
            }
            bestsum += fastest;
            model += model_ms(x, r[0]);
        }
        fprintf(f, "%.10g %d", (double)b->n[s] / 6e6, complete);
        for (int form = 0; form < FORMS; form++)
            wb_export_num(f, form < PLAIN_FORMS || compressed == complete ? t[form] : NAN);
        wb_export_num(f, bestsum);
        wb_export_num(f, model);
        wb_export_num(f, 100.0 * model / bestsum);
        fputc('\n', f);
    }
    return wb_export_close(f, x, "-sums", e);
}

static int export_ssb(wb_export *x, wb_err *e) {
    best *b = malloc(sizeof *b);
    if (!b) return wb_fail(e, "out of memory");
    if (!collect(x->r, b)) {
        free(b);
        return wb_skip(e, "no ok point of the ssb family (run --family ssb)");
    }
    int top = 0;
    for (int s = 1; s < b->nsf; s++)
        if (b->n[s] > b->n[top]) top = s;
    FILE *f = wb_export_open(x, "", COLUMNS, e);
    int rc = f ? WB_OK : WB_ERR;
    for (int form = 0; f && form < FORMS; form++) {
        int any = 0; /* a record before the compressed form has no block for it (gnuplot would read an empty one) */
        for (int q = 0; q < QUERIES; q++) any |= b->row[top][q][form] != NULL;
        if (form >= PLAIN_FORMS && !any) continue;
        if (form) wb_export_block_end(f);
        for (int q = 0; q < QUERIES; q++)
            if (b->row[top][q][form]) row_out(f, x, b->row[top][q][form], q, form), x->rows++;
    }
    if (f) rc = wb_export_close(f, x, "", e);
    if (rc == WB_OK && (f = wb_export_open(x, "-table", COLUMNS, e)) == NULL) rc = WB_ERR;
    for (int s = 0; rc == WB_OK && s < b->nsf; s++)
        for (int q = 0; q < QUERIES; q++)
            for (int form = 0; form < FORMS; form++)
                if (b->row[s][q][form]) row_out(f, x, b->row[s][q][form], q, form);
    if (rc == WB_OK) rc = wb_export_close(f, x, "-table", e);
    if (rc == WB_OK) rc = sums_out(x, b, e);
    if (rc == WB_OK && wb_export_roofs(x, "-roofs", e) < 0) rc = WB_ERR;
    free(b);
    return rc;
}

const wb_figure wb_figure_ssb = {"fig-ssb", export_ssb, 1};
