/* limiter.h - which resource a kernel or a suite point is nearest to the
 * measured ceiling of (issue 49): DRAM, L2, instruction issue or global
 * atomics, each as its rate's share of the file's measured ceiling
 * (ceilings.h: dram_read, l2_read, inst_issue, atom_global at its largest
 * table); a resource whose counter or ceiling the file lacks never wins; `latency` when none reaches WB_LIMIT_MIN_PCT, `unknown` when
 * the row lacks the counters or the file the ceilings. Seed 000's two-class
 * split (the side of the ridge, agg.h) stays beside it: a kernel far below
 * both roofs is "compute" or "memory" there and `latency` here. Splits by
 * time are kept per group (a family, a kernel, an NVTX range) from the rows
 * or launches they hold, so that every table of one file sums to the same
 * total. */
#ifndef WB_LIMITER_H
#define WB_LIMITER_H

#include "harness/base/point.h"
#include "harness/base/textable.h"
#include "harness/tools/ceilings.h"

enum { WB_LIM_DRAM, WB_LIM_L2, WB_LIM_ISSUE, WB_LIM_ATOMICS, WB_LIM_RESOURCES };
enum { WB_LIM_LATENCY = WB_LIM_RESOURCES, WB_LIM_UNKNOWN, WB_LIM_CLASSES };
/* The share of its ceiling a resource must reach to be the limiter, percent. */
#define WB_LIMIT_MIN_PCT 50.0

typedef struct wb_limit {
    double pct[WB_LIM_RESOURCES]; /* rate / measured ceiling x 100; NaN: no counter or no ceiling */
    int cls;                      /* the resource with the highest pct, WB_LIM_LATENCY or WB_LIM_UNKNOWN */
    /* Headroom (issue 49 item 3): the time the same traffic takes at each measured ceiling, and
     * at the roofs: the longest of those (each resource at its ceiling at once). NaN unknown. */
    double roof_ms[WB_LIM_RESOURCES];
    double at_roofs_ms;
    /* The best roof its bytes allow: its DRAM bytes (sectors read + written x 32) at the DRAM
     * read ceiling, what a rewrite that kept the bytes and cut the instructions, atomics and L2
     * traffic could reach (a floor; a rewrite that cuts bytes goes below it). NaN without the
     * DRAM counters or ceiling. */
    double bytes_roof_ms;
} wb_limit;

/* The limit of counters c over time_ms (the timing pass's time of the same work) on view v. */
void wb_limit_of(const wb_counters *c, double time_ms, const wb_gpu_view *v, wb_limit *out);
/* "DRAM", "L2", "issue", "atomics", "latency", "unknown". */
const char *wb_limit_class_name(int cls);

/* The limiter model of a projection (issue 49 item 4): how a kernel's time scales from one GPU (or
 * SM count) to another by what limits it, as a range [lo, hi] of target time over source time.
 * DRAM: the read bandwidths' ratio; issue: the issue rates'; L2: between the DRAM ratio and the
 * chip's (SMs x clock); atomics and latency: between the clock's (a chain of dependent steps) and
 * the chip's (enough independent ones); unknown: `fallback` both. NaN where an input is. */
typedef struct wb_limit_scale {
    double dram_from, dram_to;   /* GB/s */
    double inst_from, inst_to;   /* G inst/s */
    double clock_from, clock_to; /* GHz */
    int sms_from, sms_to;
} wb_limit_scale;
void wb_limit_ratio(int cls, const wb_limit_scale *s, double fallback, double *lo, double *hi);

/* Time per limiter class of one group. */
typedef struct wb_limit_split {
    double ms[WB_LIM_CLASSES];
    double total;
    double at_roofs_ms;  /* the summed at_roofs_ms of the rows with one */
    double covered_ms;   /* the time of those rows */
    double bytes_roof_ms;      /* the summed bytes_roof_ms of the rows with one */
    double bytes_covered_ms;   /* the time of those rows */
} wb_limit_split;
void wb_limit_add(wb_limit_split *s, int cls, double ms);
/* wb_limit_add of l's class, its time at the roofs and at its bytes' roof. */
void wb_limit_add_row(wb_limit_split *s, const wb_limit *l, double ms);

/* A table of splits: the heading (first column named first), then one row
 * per group: label, its time (ms), the share of that time per class (%), the
 * time of its rows at the roofs (ms) and the headroom: time / time at the
 * roofs over the rows that have one (x); then the time of its rows at their
 * bytes' roof (ms) and the bytes' headroom: time / that time over the rows
 * that have one (x; "-" where they move no DRAM bytes). */
void wb_limit_table_init(wb_textable *t, const char *first);
/* The last four columns in words, for the tables' notes. */
/* The limiter's rule as the report tables state it (results and profiles alike). */
#define WB_LIMIT_RESOURCES_TEXT                                                                                        \
    "the resource whose rate is the highest share of its measured ceiling (DRAM: sectors read + written x 32 B over "  \
    "dram_read; L2: sectors x 32 B over l2_read; issue: inst_issued over inst_issue; atomics: L2 ATOM + RED requests " \
    "over atom_global's counted requests)"
#define WB_LIMIT_ROOFS_TEXT                                                                                            \
    "at the roofs: each resource's traffic at its ceiling, the longest; at its bytes' roof: DRAM sectors read + "      \
    "written x 32 B at dram_read (a rewrite that keeps the bytes and cuts the rest); the two headrooms: the time over each"
void wb_limit_table_row(wb_textable *t, const char *label, const wb_limit_split *s);

#endif
