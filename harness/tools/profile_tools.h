/* profile_tools.h - helpers of the tools on a profile file (`wallbench
 * profile -- CMD`, harness/store/profile_h5.h): a
 * profile's kernels or NVTX ranges seen as the rows of a results file (what
 * rows.h's one reader gives report, roofline, export, project and compare, so that
 * the agg.h, ceilings.h and project.h code that works on points works on
 * them unchanged), ordering by time, naming, --top's count and the line
 * naming a profile. */
#ifndef WB_PROFILE_TOOLS_H
#define WB_PROFILE_TOOLS_H

#include <stdio.h>

#include "harness/base/gpus.h"
#include "harness/base/metrics.h"
#include "harness/base/profile.h"
#include "harness/base/profile_agg.h"
#include "harness/base/profile_cols.h"
#include "harness/store/store_h5.h"

/* The kernels (t = WB_PT_KERNELS) or ranges (WB_PT_RANGES) of p as the rows
 * of a results file: family "kernel"/"range", variant the first characters
 * of the demangled name or path, note its whole start, status "ok" when
 * timed (time_median_ms = the row's total_ms: the aggregates weigh by it),
 * "skipped" otherwise, counters as aggregated; row i is row i of the table.
 * Attributes: the profile's, plus the measured roof as the ceiling
 * attributes ceilings.h reads (ceiling_inst_issue_gips,
 * ceiling_dram_read_gbps). out is freed with wb_results_free. */
int wb_profile_as_results(const wb_profile *p, wb_prof_table t, const char *path, wb_results *out, wb_err *e);

/* Readable name of kernel k, cut to len: demangled, else the mangled name. */
const char *wb_profile_kernel_label(const wb_prof_kernel *k, char *buf, size_t len);
/* The label of kernel i of p, made unique: where another kernel of p has the same label (template
 * instances, launch shapes of one function), " #i" follows it, i the row of /kernels, which holds
 * the full name (issue 49: two kernels must never read as one row). */
const char *wb_profile_kernel_label_in(const wb_profile *p, int32_t i, char *buf, size_t len);

/* Row order by total_ms, largest first (untimed last); returns a malloc'd
 * index array of n, or NULL when out of memory. */
int32_t *wb_profile_by_time(const wb_profile *p, wb_prof_table t);

/* --top's value: 1 to 10^6 into *top, else WB_ERR after wb_cli_bad's message. */
int wb_profile_top_count(const char *cmd, const char *arg, int *top);

/* One line naming a profile: "file (GPU name, uuid, revision; program)". */
void wb_profile_describe(FILE *f, const char *path, const wb_profile *p, const char *prefix);

#endif
