/* summary.h - `wallbench run --summary-json FILE`: one JSON object per run
 * for scripts and CI: the results file written, points ok/skipped/failed
 * (with the failed and skipped points' names and reasons), the measured
 * roof and ceilings, where the time went, and every warning. */
#ifndef WB_SUMMARY_H
#define WB_SUMMARY_H

#include "harness/run/measure.h"

/* Writes the object to path (overwritten); results is the file the run
 * wrote ("" if none: the run failed first), re-read for the rows'
 * warnings; exit_code the run's exit code; error what stopped it ("" if
 * nothing did). */
int wb_summary_write(const char *path, const wb_run *r, const char *results, const char *cmdline, int exit_code,
                     const char *error, wb_err *e);

#endif
