/* textable.h - the small tables `wallbench roofline` and `wallbench report`
 * print, as aligned text or as a markdown pipe table. Row 0 is the header;
 * the first column is left-aligned, the others right-aligned. */
#ifndef WB_TEXTABLE_H
#define WB_TEXTABLE_H

#include <stdio.h>

#define WB_TEXTABLE_CELL 64

typedef struct wb_textable {
    int ncols, nrows, cap;
    char (*cells)[WB_TEXTABLE_CELL]; /* nrows * ncols */
} wb_textable;

void wb_textable_init(wb_textable *t, int ncols);
/* Appends an empty row; returns its index, or -1 when out of memory. */
int wb_textable_add(wb_textable *t);
/* Formats into cell (row, col), truncated to the cell size; ignores bad indices. */
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
void wb_textable_print(FILE *f, const wb_textable *t, int markdown);
/* For scripts (--csv, --json of report): the cells as printed, row 0 the
 * header; CSV quotes every cell, JSON is {"header": [...], "rows": [[...]]}. */
void wb_textable_csv(FILE *f, const wb_textable *t);
void wb_textable_json(FILE *f, const wb_textable *t);
void wb_textable_free(wb_textable *t);

#endif
