/* export_write.c - the .dat writers every figure's export shares (see
 * export.h): one file per part, gnuplot's columns, the roofs table and the
 * board's short name; the figures of both file kinds write through these. */
#include "harness/tools/export.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void part_path(const wb_export *x, const char *part, char *buf, size_t len) {
    snprintf(buf, len, "%s/%s%s.dat", x->dir, x->name, part);
}

FILE *wb_export_open(wb_export *x, const char *part, const char *columns, wb_err *e) {
    char path[1024];
    part_path(x, part, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) {
        wb_fail(e, "%s: cannot write: %s", path, strerror(errno));
        return NULL;
    }
    fprintf(f, "# %s\n", columns);
    return f;
}

int wb_export_close(FILE *f, wb_export *x, const char *part, wb_err *e) {
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (!bad) return WB_OK;
    char path[1024];
    part_path(x, part, path, sizeof path);
    return wb_fail(e, "%s: write error", path);
}

/* One column for gnuplot: "-" when empty; a name with blanks in double
 * quotes (gnuplot reads a quoted field as one column, and strcol drops the
 * quotes), so that keys keep their spaces; tabs, newlines and quotes inside
 * become a space and a single quote. */
void wb_export_str(FILE *f, const char *s) {
    if (!s || !*s) {
        fputs("-", f);
        return;
    }
    const int quote = strpbrk(s, " \t\n") != NULL;
    if (quote) fputc('"', f);
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' ? ' ' : *s == '"' ? '\'' : *s, f);
    if (quote) fputc('"', f);
}

void wb_export_num(FILE *f, double v) {
    if (isfinite(v)) fprintf(f, " %.10g", v);
    else fputs(" NaN", f);
}

void wb_export_block_end(FILE *f) { fputs("\n\n", f); }

/* ridge: the table's printed value for reference rows (seed 000 prints 44.0
 * from unrounded inputs, 413 / (300 / 32) = 44.05), computed otherwise. */
static void roof_row(FILE *f, const char *name, const char *kind, const wb_roof *r, double ridge) {
    wb_export_str(f, name);
    fputc(' ', f);
    wb_export_str(f, kind);
    wb_export_num(f, r->inst_gips);
    wb_export_num(f, r->dram_gbps);
    wb_export_num(f, isfinite(ridge) ? ridge : wb_roof_ridge(r));
    fputc('\n', f);
}

int wb_export_roofs(wb_export *x, const char *part, wb_err *e) {
    FILE *f = wb_export_open(x, part, "name kind inst_gips dram_gbps ridge", e);
    if (!f) return -1;
    int n = 0;
    const wb_gpu_ref *refs[2] = {wb_gpu_ref_l4(x->gpus), wb_gpu_ref_gh200(x->gpus)};
    for (int i = 0; i < 2; i++) {
        if (!refs[i]) continue;
        wb_roof r = wb_gpu_ref_roof(refs[i]);
        roof_row(f, r.name, "paper", &r, refs[i]->ridge), n++;
    }
    if (x->v.ref && x->v.ref != refs[0] && x->v.ref != refs[1]) {
        wb_roof r = wb_gpu_ref_roof(x->v.ref);
        roof_row(f, r.name, "datasheet", &r, x->v.ref->ridge), n++;
    }
    if (x->r && !isnan(wb_roof_ridge(&x->v.roof))) roof_row(f, x->v.label, x->v.kind, &x->v.roof, NAN), n++;
    return wb_export_close(f, x, part, e) == WB_OK ? n : -1;
}

const char *wb_export_board(const wb_results *r, char *buf, size_t len) {
    const char *uuid = wb_results_attr(r, "gpu_uuid");
    if (!uuid || !*uuid) return snprintf(buf, len, "-"), buf;
    const size_t n = strncmp(uuid, "GPU-", 4) ? strcspn(uuid, "-") : 4 + strcspn(uuid + 4, "-");
    snprintf(buf, len, "%.*s", (int)n, uuid);
    return buf;
}
