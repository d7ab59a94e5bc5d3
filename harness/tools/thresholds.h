/* thresholds.h - the regression thresholds `wallbench check` applies
 * (format documented at the top of results/thresholds.txt): one rule a line,
 *   <metric> <+N%|-N%|N%> [family=<f>] [variant=<v>] [min_ms=<x>] [min=<x>]
 * = the largest relative change of a numeric /points column allowed upward
 * (+), downward (-) or both (no sign), against the baseline. A rule applies
 * to a point when its family / variant match and the baseline point took at
 * least min_ms (time_median_ms) and has at least min of the metric. Of the
 * rules that apply, per direction, the most specific wins: family and
 * variant > variant > family > neither, then the larger min_ms, then the
 * larger min. */
#ifndef WB_THRESHOLDS_H
#define WB_THRESHOLDS_H

#include "harness/base/error.h"
#include "harness/base/point.h"
#include "harness/store/schema.h"
#include "harness/store/store_h5.h"

enum { WB_THR_UP = 1, WB_THR_DOWN = 2 };

typedef struct wb_threshold {
    const wb_column *col;  /* the metric */
    int dirs;              /* WB_THR_UP and/or WB_THR_DOWN */
    double pct;            /* largest allowed change, percent (>= 0) */
    char family[16], variant[24]; /* "" = any */
    double min_ms, min;    /* -inf = no condition */
    int line;              /* in the thresholds file */
} wb_threshold;

typedef struct wb_thresholds {
    char path[512];
    wb_threshold *rules;
    int n;
} wb_thresholds;

/* Reads and checks path. Every error names path:line and what is wrong
 * (unknown metric, bad percent, unknown key, a family or variant no row of
 * the baseline base has, a rule
 * that repeats another's selector and direction); a file without rules is
 * an error too. On error t is empty. */
int wb_thresholds_load(const char *path, const wb_results *base, wb_thresholds *t, wb_err *e);
void wb_thresholds_free(wb_thresholds *t);

/* The thresholds file `check` uses when none is given: results/thresholds.txt
 * of $WB_SOURCE_DIR, else of the source tree this binary was built from,
 * else of the current folder, the first that exists; out gets its path and
 * *where says which of the three it was. WB_ERR (e names the places looked
 * at) when none exists. */
int wb_thresholds_default(char *out, size_t len, const char **where, wb_err *e);

/* 1 if column c may be a metric of a rule: numeric, not an axis, not id or repetition. */
int wb_thresholds_metric_ok(const wb_column *c);

/* The rule that governs metric col in direction dir (WB_THR_UP or
 * WB_THR_DOWN) for a point whose baseline row is base; NULL when none. */
const wb_threshold *wb_thresholds_find(const wb_thresholds *t, const wb_column *col, int dir, const wb_row *base);

#endif
