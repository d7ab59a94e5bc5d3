/* report_profile.h - `wallbench report` on a profile file: its kernels and
 * NVTX ranges through the same tables as a results file's points
 * (report_tables.h), plus the top kernels and ranges by time. */
#ifndef WB_REPORT_PROFILE_H
#define WB_REPORT_PROFILE_H

#include "harness/tools/report_tables.h"
#include "harness/tools/rows.h"

/* Tables 2, 6-9 per kernel and per NVTX range, and the top tables (top
 * rows each), to o. rows: a profile, opened on its kernels (left on its
 * ranges). Returns 0, or 2 after a message. */
int wb_report_profile(wb_rtab_out *o, wb_rows *rows, const wb_gpu_table *gt, int top);

#endif
