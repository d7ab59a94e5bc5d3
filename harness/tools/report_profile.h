/* report_profile.h - `wallbench report` on a profile file: its kernels and
 * NVTX ranges through the same tables as a results file's points
 * (report_tables.h), plus the top kernels and ranges by time. */
#ifndef WB_REPORT_PROFILE_H
#define WB_REPORT_PROFILE_H

#include "harness/tools/report_tables.h"
#include "harness/tools/rows.h"

/* Tables 2, 6-9 per kernel and per NVTX range, the top tables (top rows
 * each), the limiter tables and the rewrites the suite has measured, to o.
 * rows: a profile, opened on its kernels (left on its ranges); suite: a
 * results file whose pairs' times the rewrites name, or NULL. Returns 0, or
 * 2 after a message. */
int wb_report_profile(wb_rtab_out *o, wb_rows *rows, const wb_gpu_table *gt, int top, const wb_results *suite);

/* The kernels of p (with its launches) that match a rule of rewrites.h,
 * their limiter read on view v, the top by time, with the pair each names
 * and, with suite, the pair's two forms measured there (report_rewrites.c).
 * Returns 0, or 2 after a message. */
int wb_report_rewrites(wb_rtab_out *o, const wb_profile *p, const wb_gpu_view *v, int top, const wb_results *suite);

#endif
