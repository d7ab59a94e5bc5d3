/* match.h - which rows of two results files are the same benchmark point,
 * for compare, check and project --validate: equal family, variant, every
 * axis column and repetition. The axis columns come from the schema, not
 * from a list kept here: every column of wb_point that the sweep chooses
 * (launch.h's "chosen by the sweep" fields included, the plan's outputs and
 * bytes_model / items / note excluded), so an axis added to wb_point is
 * matched on without touching this file. NaN equals NaN, -1 equals -1. */
#ifndef WB_MATCH_H
#define WB_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/error.h"
#include "harness/store/schema.h"
#include "harness/store/store_h5.h"

/* 1 if c is an axis column (family and variant included). */
int wb_match_is_axis(const wb_column *c);
/* The axis columns in schema order, at most max of them; returns how many. */
int wb_match_axes(const wb_column **out, int max);

/* 1 if a and b agree on every axis and on repetition; the column named
 * ignore (e.g. "sm_limit"), when not NULL, is left out. */
int wb_match_same(const wb_row *a, const wb_row *b, const char *ignore);

typedef struct wb_match {
    int64_t *a_to_b; /* per row of a: the matching row of b, or -1 */
    int64_t *b_to_a; /* per row of b: the matching row of a, or -1 */
    int64_t matched, only_a, only_b;
} wb_match;

/* Pairs the rows of a and b. Rows with the same key within one file (a
 * sweep that emitted a point twice) pair in file order; extra ones stay
 * unmatched. Returns WB_OK, or WB_ERR (out of memory) with m zeroed. */
int wb_match_files(const wb_results *a, const wb_results *b, wb_match *m, wb_err *e);
void wb_match_free(wb_match *m);

/* The axis columns, family and variant and ignore (may be NULL) left out,
 * whose values differ among rows[0..n): the columns a table of these rows
 * needs, the others being the same for all. At most max; returns how many. */
int wb_match_varying(const wb_row *const *rows, int n, const char *ignore, const wb_column **out, int max);

/* The point's name (wb_point_name) with "#<repetition>" when not 0: the
 * label of a point in every table of compare and check. Returns buf. */
const char *wb_match_label(const wb_row *r, char *buf, size_t len);
/* An axis value as a table cell: "-" for not applicable (-1, NaN, ""),
 * integers plain, reals %g. Returns buf. */
const char *wb_match_value(const wb_row *r, const wb_column *c, char *buf, size_t len);

#endif
