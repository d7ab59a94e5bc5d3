/* textable.h - the small tables `wallbench roofline` and `wallbench report`
 * print, as aligned text or as a markdown pipe table. Row 0 is the header;
 * the first column is left-aligned, the others right-aligned. */
#ifndef WB_TEXTABLE_H
#define WB_TEXTABLE_H

#include <stdio.h>

#define WB_TEXTABLE_CELL 64

/* A cell: its printed text, and for --json the number it prints (kind 1:
 * v; kind 2: v +- s; kind 0: text alone) with its unit ("" when the unit is
 * in the column's or the row's heading). */
typedef struct wb_textable_cell {
    char text[WB_TEXTABLE_CELL];
    double v, s;
    char unit[8];
    int kind;
} wb_textable_cell;

typedef struct wb_textable {
    int ncols, nrows, cap;
    wb_textable_cell *cells; /* nrows * ncols */
} wb_textable;

void wb_textable_init(wb_textable *t, int ncols);
/* Appends an empty row; returns its index, or -1 when out of memory. */
int wb_textable_add(wb_textable *t);
/* Formats text into cell (row, col), truncated to the cell size; ignores bad
 * indices. The cell is text in --json; the setters below keep its number. */
void wb_textable_set(wb_textable *t, int row, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A number with fixed decimals and thousands separators (seed 000 style,
 * "4,022"), or "-" when not finite. Returns buf. */
const char *wb_textable_num(char *buf, size_t len, double v, int decimals);
/* That number into cell (row, col): the numeric cells of every table. */
void wb_textable_set_num(wb_textable *t, int row, int col, double v, int decimals);
/* v printed "%.<decimals>f<unit>" ("82.0%", "1.35x"), "-" when not finite. */
void wb_textable_set_unit(wb_textable *t, int row, int col, double v, int decimals, const char *unit);
/* mean +- std printed "%.<d>f+-%.<d>f<unit>" ("2+-4%"), "-" when mean is not finite. */
void wb_textable_set_mean_std(wb_textable *t, int row, int col, double mean, double std, int decimals,
                              const char *unit);
void wb_textable_print(FILE *f, const wb_textable *t, int markdown);
/* For scripts (--csv, --json of report), row 0 the header. CSV: the cells as
 * printed, each quoted. JSON: {"header": [...], "rows": [[...]]}, a cell
 * being its text, or its number (null for "-"): a bare number when the unit
 * is in the headings, {"value", "unit"} or {"mean", "std", "unit"} else. */
void wb_textable_csv(FILE *f, const wb_textable *t);
void wb_textable_json(FILE *f, const wb_textable *t);
void wb_textable_free(wb_textable *t);

#endif
