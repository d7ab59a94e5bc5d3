/* report_tables.h - the bodies of seed 000 Tables 6-9, built once for both
 * reports: `wallbench report` on a results file (report.c: the items are its
 * operator points) and on a profile (report_profile.c: its kernels or NVTX
 * ranges with counters, seen as results rows, rows.h). An item is a
 * wb_row: its time is m.time_median_ms (for a profile row, the summed time),
 * its counters c; every share and mean is weighted by that time. The
 * definitions are agg.h's. A builder fills a table (wb_textable_init inside);
 * the caller titles it, prints or emits it, and frees it. */
#ifndef WB_REPORT_TABLES_H
#define WB_REPORT_TABLES_H

#include <stdio.h>

#include "harness/base/gpus.h"
#include "harness/base/textable.h"
#include "harness/tools/ceilings.h"
#include "harness/store/store_h5.h"

/* The three ridges every table splits at. */
typedef struct wb_rtab_roofs {
    wb_gpu_view v;                /* the file's measured roof and SM counts */
    wb_roof l4, gh200;            /* the paper's roofs, for the bound against their ridges */
    double l4_ridge, gh200_ridge; /* as the paper prints them (gpus.tsv); NaN without the row */
    const char *measured;         /* heading word of the file's column: "measured", or the view's kind */
} wb_rtab_roofs;

/* Fills rr from the file r and the reference table gt; measured NULL: the
 * view's kind ("measured" or "projected"). */
void wb_rtab_roofs_init(wb_rtab_roofs *rr, const wb_results *r, const wb_gpu_table *gt, const char *measured);
/* "memory" / "compute" / "" of x against the measured ridge (which 0, agg.h's
 * wb_agg_bound), L4's (1) or GH200's (2). */
const char *wb_rtab_bound(const wb_rtab_roofs *rr, const wb_row *x, int which);

/* The items a report counts, with room for one (value, time) pair each. */
typedef struct wb_rtab_items {
    const wb_row **row;
    int n;
    double *v, *w; /* scratch of n + 1: the pairs the means are taken over */
} wb_rtab_items;

/* The rows of r that keep accepts, in file order. WB_ERR: out of memory. */
int wb_rtab_items_init(wb_rtab_items *it, const wb_results *r, int (*keep)(const wb_row *x));
void wb_rtab_items_free(wb_rtab_items *it);

/* Table 6: share of the items' time memory- and compute-bound per ridge,
 * each split at 75% utilisation of its bottleneck. */
void wb_rtab_table6(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it);
/* Table 7: time-weighted geometric mean IPC of all items (row `all`) and of
 * each side of each ridge; corner: the heading of the label column. */
void wb_rtab_table7(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it, const char *corner,
                    const char *all);
/* Table 8: share of the time of the items below 75% of L1, L2 and DRAM
 * throughput (with an IPC) that reaches 50/75/100% of the peak IPC, measured
 * and occupancy-scaled. Returns that time; *n: how many items it counted. */
double wb_rtab_table8(wb_textable *t, const wb_rtab_roofs *rr, const wb_rtab_items *it, int *n);
/* Table 9: the heading row (first column named first), then one row per
 * group: label, # = items x with same(x, group) (group NULL: every item),
 * Sum = part / whole, Mem.% and IPC = their time-weighted mean+-std. */
void wb_rtab_table9_init(wb_textable *t, const char *first);
void wb_rtab_table9_row(wb_textable *t, const wb_rtab_items *it, const char *label, const wb_row *group,
                        int (*same)(const wb_row *x, const wb_row *group), double part, double whole);

/* Where a report goes: text or markdown to f, or with --json/--csv (fmt 'J'
 * / 'C') the tables alone to data (f then a null stream). */
typedef struct wb_rtab_out {
    FILE *f;
    int md;
    int fmt; /* 0 text or markdown, 'J' --json, 'C' --csv */
    FILE *data;
    int ntables;
    char cur_title[256];
} wb_rtab_out;

/* The title of the next table, and the line saying what it aggregates. */
void wb_rtab_title(wb_rtab_out *o, const char *name, const char *aggregated);
/* One table: printed, or written to o->data under the current title. */
void wb_rtab_emit(wb_rtab_out *o, const wb_textable *t);
/* Table 2 of r (wb_roofline_print with its notes; with --json/--csv its
 * table alone). WB_ERR as wb_roofline_print. */
int wb_rtab_table2(wb_rtab_out *o, const wb_results *r, const wb_gpu_table *gt, wb_err *e);

#endif
