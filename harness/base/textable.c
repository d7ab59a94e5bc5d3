/* textable.c - aligned text and markdown tables (see textable.h). */
#include "harness/base/csv.h"
#include "harness/base/grow.h"
#include "harness/base/json.h"
#include "harness/base/textable.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void wb_textable_init(wb_textable *t, int ncols) {
    t->ncols = ncols;
    t->nrows = t->cap = 0;
    t->cells = NULL;
}

int wb_textable_add(wb_textable *t) {
    if (wb_grow(&t->cells, t->nrows, &t->cap, (size_t)t->ncols * sizeof *t->cells, 16) != 0) return -1;
    memset(&t->cells[t->nrows * t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
    return t->nrows++;
}

void wb_textable_set(wb_textable *t, int row, int col, const char *fmt, ...) {
    if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols) return;
    va_list ap;
    va_start(ap, fmt);
    wb_textable_cell *x = &t->cells[row * t->ncols + col];
    vsnprintf(x->text, WB_TEXTABLE_CELL, fmt, ap);
    va_end(ap);
    x->kind = 0;
}

/* The number behind the text just set (kind 1 or 2), when the indices are good. */
static void keep_value(wb_textable *t, int row, int col, int kind, double v, double s, const char *unit) {
    if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols) return;
    wb_textable_cell *x = &t->cells[row * t->ncols + col];
    x->kind = kind, x->v = v, x->s = s;
    snprintf(x->unit, sizeof x->unit, "%s", unit);
}

const char *wb_textable_num(char *buf, size_t len, double v, int decimals) {
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return buf;
    }
    char raw[64];
    snprintf(raw, sizeof raw, "%.*f", decimals, fabs(v));
    size_t intlen = strcspn(raw, ".");
    size_t at = 0;
    if (v < 0 && at + 1 < len) buf[at++] = '-';
    for (size_t i = 0; raw[i] && at + 1 < len; i++) {
        if (i < intlen && i > 0 && (intlen - i) % 3 == 0 && at + 2 < len) buf[at++] = ',';
        buf[at++] = raw[i];
    }
    buf[at < len ? at : len - 1] = '\0';
    return buf;
}

void wb_textable_set_num(wb_textable *t, int row, int col, double v, int decimals) {
    char buf[WB_TEXTABLE_CELL];
    wb_textable_set(t, row, col, "%s", wb_textable_num(buf, sizeof buf, v, decimals));
    keep_value(t, row, col, 1, v, NAN, "");
}

void wb_textable_set_unit(wb_textable *t, int row, int col, double v, int decimals, const char *unit) {
    if (isfinite(v)) wb_textable_set(t, row, col, "%.*f%s", decimals, v, unit);
    else wb_textable_set(t, row, col, "-");
    keep_value(t, row, col, 1, v, NAN, unit);
}

void wb_textable_set_mean_std(wb_textable *t, int row, int col, double mean, double std, int decimals,
                              const char *unit) {
    if (isfinite(mean)) wb_textable_set(t, row, col, "%.*f+-%.*f%s", decimals, mean, decimals, std, unit);
    else wb_textable_set(t, row, col, "-");
    keep_value(t, row, col, 2, mean, std, unit);
}

void wb_textable_print(FILE *f, const wb_textable *t, int markdown) {
    int width[32] = {0};
    int nc = t->ncols < 32 ? t->ncols : 32;
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < nc; c++) {
            int w = (int)strlen(t->cells[r * t->ncols + c].text);
            if (w > width[c]) width[c] = w;
        }
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < nc; c++) {
            const char *s = t->cells[r * t->ncols + c].text;
            if (markdown) fprintf(f, "| %s ", s);
            else fprintf(f, c == 0 ? "%-*s" : "  %*s", width[c], s);
        }
        fputs(markdown ? "|\n" : "\n", f);
        if (r == 0 && markdown) {
            for (int c = 0; c < nc; c++) fputs(c == 0 ? "|---" : "|---:", f);
            fputs("|\n", f);
        }
    }
}

void wb_textable_free(wb_textable *t) {
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

void wb_textable_csv(FILE *f, const wb_textable *t) {
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            wb_csv_str(f, t->cells[r * t->ncols + c].text);
            fputc(c + 1 < t->ncols ? ',' : '\n', f);
        }
}

static void json_cell(FILE *f, const wb_textable_cell *x) {
    if (x->kind == 0) {
        wb_json_str(f, x->text);
        return;
    }
    if ((x->kind == 1 && !x->unit[0]) || !isfinite(x->v)) { /* a bare number; "-" is null */
        wb_json_num(f, x->v);
        return;
    }
    fputc('{', f);
    wb_json_key(f, x->kind == 2 ? "mean" : "value", 1);
    wb_json_num(f, x->v);
    if (x->kind == 2) {
        wb_json_key(f, "std", 0);
        wb_json_num(f, x->s);
    }
    wb_json_key(f, "unit", 0);
    wb_json_str(f, x->unit);
    fputc('}', f);
}

void wb_textable_json(FILE *f, const wb_textable *t) {
    fputc('{', f);
    wb_json_key(f, "header", 1);
    for (int r = 0; r < t->nrows; r++) {
        if (r == 1) {
            fputc(',', f);
            wb_json_str(f, "rows");
            fputs(":[", f);
        }
        fputs(r > 1 ? ",[" : "[", f);
        for (int c = 0; c < t->ncols; c++) {
            if (c) fputc(',', f);
            json_cell(f, &t->cells[r * t->ncols + c]);
        }
        fputc(']', f);
    }
    fputs(t->nrows > 1 ? "]}" : t->nrows ? ",\"rows\":[]}" : "[],\"rows\":[]}", f);
}
