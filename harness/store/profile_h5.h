/* profile_h5.h - the file of `wallbench profile`: root attributes
 * (file_kind "wallbench-profile", profile_schema_version, every
 * wb_prof_attr), the compound tables /launches, /kernels and /ranges (one
 * row per launch, kernel, NVTX range; counters named as wb_metrics[].column,
 * stall_<group>, the derived columns) and /columns (table, name, unit,
 * description) documenting each. Each table reads into pandas in one line:
 * pd.DataFrame(h5py.File(f)["/kernels"][:]). */
#ifndef WB_PROFILE_H5_H
#define WB_PROFILE_H5_H

#include "harness/base/error.h"
#include "harness/base/profile.h"

/* Writes p (aggregated: wb_profile_aggregate) to path, replacing nothing:
 * fails if path exists. Rows go out in chunks, so 10^5+ launches need no
 * second copy of the table. On error the partial file is removed. */
int wb_profile_write(const char *path, const wb_profile *p, wb_err *e);

/* Reads a profile file into *out (zeroed first; wb_profile_free releases
 * it). Refuses, in one sentence naming the file, a file that is not HDF5, a
 * suite results file, another kind of HDF5 file and another
 * profile_schema_version. */
int wb_profile_read(const char *path, wb_profile *out, wb_err *e);

/* The same without the launch rows: kernels, ranges and attributes only,
 * out->launches NULL and out->nlaunches the number of rows of /launches.
 * What the tools that print per kernel or range read, so that a profile of
 * 10^6 launches (720 MB of rows) costs them nothing extra. */
int wb_profile_read_summary(const char *path, wb_profile *out, wb_err *e);

/* 1: path is a profile file (file_kind attribute says so); 0: a readable
 * file that is not one (a results file, any other file); -1: it cannot be
 * opened. Prints nothing, so that tools can dispatch on it. */
int wb_profile_file_is(const char *path);

#endif
