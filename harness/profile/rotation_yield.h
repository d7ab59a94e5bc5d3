/* rotation_yield.h - what --rotate's groups brought back: for each column that a group holds (not
 * the core rows every group has), how many counted launches held its group and how many of those
 * have a value. Before each change of group made a new profiler object, the groups' ratio columns
 * came back NaN in every launch that held them (docs/profiling-measured.md); this says what came
 * back in each run, from its own raw files. Needs the counter pass's "# groups" and "# batch" lines (raw.h). */
#ifndef WB_PROFILE_ROTATION_YIELD_H
#define WB_PROFILE_ROTATION_YIELD_H

#include <stddef.h>

#include "harness/base/metrics.h"
#include "harness/profile/raw.h"

typedef struct wb_rotation_yield {
    int grouped[WB_METRICS_MAX];        /* 1: a group's column (wb_metrics[] row) */
    long long held[WB_METRICS_MAX];     /* counted launches whose group holds it */
    long long valued[WB_METRICS_MAX];   /* of those, the ones with a value (not NaN) */
    long long launches;                 /* counted launches whose group the file names */
} wb_rotation_yield;

/* Adds one process's counter pass file (a file without "# groups" adds nothing). */
void wb_rotation_yield_add(wb_rotation_yield *y, const wb_raw *r);

/* attr: "column values/held, ..." for every group's column, in wb_metrics[] order; line: one
 * sentence for the console. Returns 0 and writes nothing when no counted launch's group is known
 * (not --rotate, or a file of before 2026-12-05). */
int wb_rotation_yield_text(const wb_rotation_yield *y, char *attr, size_t alen, char *line, size_t llen);

#endif
