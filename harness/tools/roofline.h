/* roofline.h - seed 000 Table 2 for the measured GPU next to L4 and GH200:
 * `wallbench roofline [results.h5] [--markdown]`, and the same table for
 * `wallbench report`. */
#ifndef WB_ROOFLINE_H
#define WB_ROOFLINE_H

#include <stdio.h>

#include "harness/base/gpus.h"
#include "harness/base/textable.h"
#include "harness/store/store_h5.h"
#include "harness/tools/rows.h"

/* Prints Table 2: the L4 and GH200 columns from the reference table, the
 * datasheet row of the file's GPU when the table has one, the file's
 * measured column when r is not NULL, and ratios to L4. Returns WB_OK, or
 * WB_ERR when the table lacks the l4 or gh200 row. */
int wb_roofline_print(FILE *f, const wb_results *r, const wb_gpu_table *t, int markdown, wb_err *e);
/* The same with one more datasheet column: any row of the table (NULL: none). */
int wb_roofline_print_with(FILE *f, const wb_results *r, const wb_gpu_table *t, const wb_gpu_ref *with, int markdown,
                           wb_err *e);

/* A profile's kernels on the measured, L4 and GH200 roofs, top of them by
 * time (roofline_profile.c), to stdout after Table 2. 0, or 2 after a message. */
int wb_roofline_profile(const wb_rows *rows, const wb_gpu_table *gt, int md, int top);

/* Table 2's body alone (for report --json/--csv): tab initialised and
 * filled; the caller frees it. WB_ERR as above. */
int wb_roofline_table(wb_textable *tab, const wb_results *r, const wb_gpu_table *t, const wb_gpu_ref *with, wb_err *e);

#endif
