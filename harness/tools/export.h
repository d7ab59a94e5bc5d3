/* export.h - `wallbench export`: gnuplot reads no HDF5, so each figure of
 * plots/ gets the exact tables its script reads, written by one function
 * here: DIR/<figure>.dat (plus DIR/<figure>-<part>.dat where a script reads
 * more than one table, and DIR/<figure>-info.dat naming the GPU and whether
 * the file is measured or projected). Tables are whitespace-separated, start
 * with a '#' line naming the columns, hold strings without spaces and "NaN"
 * for missing numbers; series are blocks separated by two blank lines, the
 * series name in column 1 (gnuplot's `index`). Figure names are the script
 * stems of plots/fig*.gp. */
#ifndef WB_EXPORT_H
#define WB_EXPORT_H

#include <stdio.h>

#include "harness/tools/ceilings.h"
#include "harness/base/gpus.h"
#include "harness/store/store_h5.h"
#include "harness/tools/shape.h"

typedef struct wb_export {
    const char *name;          /* figure = script stem */
    const char *dir;
    const wb_results *r;       /* NULL only for fig1 / fig2 (reference table only) */
    const wb_results *other;   /* fig-compare: the file compared with; NULL */
    const wb_gpu_table *gpus;
    wb_gpu_view v;             /* r's GPU and measured roof */
    int rows;                  /* data rows written to the main table */
    wb_shape shape;            /* launch-shape rule of the family figures (--shape) */
} wb_export;

/* Writes one figure's tables. Returns WB_OK (rows set to the main table's
 * data rows), WB_SKIP when the file lacks the figure's data (reason in e:
 * family not run, counters missing), WB_ERR on a write or input error. */
int wb_export_figure(const char *name, const wb_results *r, const wb_results *other, const wb_gpu_table *t,
                     const char *dir, int *rows, wb_err *e);
/* The same under a launch-shape rule (wb_export_figure: fastest); the rule
 * goes into the info table (column shape) for the figure's key. */
int wb_export_figure_shaped(const char *name, const wb_results *r, const wb_results *other, const wb_gpu_table *t,
                            const wb_shape *shape, const char *dir, int *rows, wb_err *e);
/* The figure a name or unique prefix denotes ("fig4", or "fig-<word>" by
 * "<word>"), or NULL. */
const char *wb_export_resolve(const char *name);

/* --- for the figure functions (export_*.c) --- */
/* Opens DIR/<name><part>.dat and writes the '#' column line; NULL + e on error. */
FILE *wb_export_open(wb_export *x, const char *part, const char *columns, wb_err *e);
/* Closes, reporting a write error with the path. */
int wb_export_close(FILE *f, wb_export *x, const char *part, wb_err *e);
/* Writes a string field: in double quotes when it holds blanks, "-" when empty (export.c). */
void wb_export_str(FILE *f, const char *s);
/* The board that measured r: its GPU UUID up to the first dash after "GPU-"
 * (GPU-4efdb731), "-" when the file does not say (a projection). Returns buf. */
const char *wb_export_board(const wb_results *r, char *buf, size_t len);
/* Writes " %.10g" (exact for counts up to 10^10), or " NaN". */
void wb_export_num(FILE *f, double v);
/* Ends a series block (two blank lines). */
void wb_export_block_end(FILE *f);
/* DIR/<name><part>.dat with the rooflines: L4 and GH200 (paper), the file's
 * GPU datasheet row when gpus.tsv has one, and the file's measured roof when
 * defined. Columns: name kind inst_gips dram_gbps ridge. Returns rows or -1. */
int wb_export_roofs(wb_export *x, const char *part, wb_err *e);

typedef int (*wb_export_fn)(wb_export *x, wb_err *e);

/* A figure: the stem of its script plots/<name>.gp, the function that writes
 * its tables, and whether it needs a results file (0: fig1 and fig2 draw the
 * reference GPU table alone). The harness's own figures are family-blind
 * (the paper's, compare, hierarchical, ILP x occupancy); a family's figure
 * lives with the family (micro/<f>_figure.c) and is added at start-up
 * (micro/family_figures.c, from micro/families.def). */
typedef struct wb_figure {
    const char *name;
    wb_export_fn fn;
    int needs_file;
} wb_figure;
#define WB_FIGURES_ADDED_MAX 32
/* Adds f after the figures added so far (adding the same f again changes
 * nothing). WB_ERR with one sentence when another figure has its name or
 * the list is full. */
int wb_export_add(const wb_figure *f, wb_err *e);
/* export_paper.c: seed 000 Figs 1, 2, 4-9 */
int wb_export_fig1(wb_export *x, wb_err *e);
int wb_export_fig2(wb_export *x, wb_err *e);
int wb_export_fig4(wb_export *x, wb_err *e);
int wb_export_fig5(wb_export *x, wb_err *e);
int wb_export_fig6(wb_export *x, wb_err *e);
int wb_export_fig7(wb_export *x, wb_err *e);
int wb_export_fig8(wb_export *x, wb_err *e);
int wb_export_fig9(wb_export *x, wb_err *e);
/* export_ilp.c: ILP x occupancy of every family that swept both */
int wb_export_ilp_occupancy(wb_export *x, wb_err *e);
/* export_compare.c: two results files */
int wb_export_compare(wb_export *x, wb_err *e);
/* export_hier.c */
int wb_export_hierarchical(wb_export *x, wb_err *e);

#endif
