/* project.h - the projection model of `wallbench project` (issue 8): a
 * point's counted work on a roof takes T = max(inst / inst_throughput,
 * (dram_sectors_read + dram_sectors_write) x 32 / bandwidth); the point
 * reached efficiency T_src / t_measured on its own GPU and is assumed to
 * reach the same on another, so t_projected = T_dst / efficiency =
 * t_measured x T_dst / T_src. The same counts are assumed on both GPUs
 * (same code, same data; a working set that fits one L2 and not the other
 * breaks that, and the projected file says so in its attributes). */
#ifndef WB_PROJECT_H
#define WB_PROJECT_H

#include <stddef.h>

#include "harness/base/gpus.h"
#include "harness/base/point.h"
#include "harness/base/roof.h"
#include "harness/store/store_h5.h"
#include "harness/tools/rows.h"

/* The roof a file's points ran under, and where its numbers come from:
 * a projected file: its target's reference numbers (attributes
 * projected_inst_gips / projected_dram_gbps, else the gpus.tsv row named by
 * projected_to), source "reference table (<profile>)"; a measured file: its
 * measured ceilings (inst_issue G inst/s, dram_read GB/s; ceilings.h),
 * source "measured ceilings", else its GPU's gpus.tsv row, source
 * "datasheet (<profile>)". Returns 0, or -1 with roof NaN and source
 * "unknown" when none is known. t may be NULL (no table fallback). */
int wb_project_file_roof(const wb_results *r, const wb_gpu_table *t, wb_roof *roof, char *source, size_t len);

/* T in ms: the point's counted work on roof. NaN, with *why (static text)
 * saying what is missing, when the counters or the roof are. */
double wb_project_work_ms(const wb_row *r, const wb_roof *roof, const char **why);

/* The point's time under dst, from its measured time_median_ms under src;
 * NaN with *why when it cannot be projected (status not ok, no time, no
 * counters, no counted work). */
double wb_project_time_ms(const wb_row *r, const wb_roof *src, const wb_roof *dst, const char **why);

/* `wallbench project --validate FILE [--markdown]` (project_validate.c):
 * the SM-scaling check of the model on the file's own GPU (r, opened by
 * project.c). Prints its tables on stdout; returns the exit code (0, or 2 on
 * bad input). */
int wb_project_validate(const wb_results *r, int markdown, const wb_gpu_table *t);

/* `wallbench project PROFILE.h5 --to GPU` (project_profile.c): each kernel's
 * time and the program's on target g (a row of t, gpus.tsv), markdown when md,
 * from rows (the profile project.c opened through rows.h, with its launch
 * rows when out is given); out: also a projected profile file there (NULL:
 * none). The exit code. */
int wb_project_profile(const wb_rows *rows, const wb_gpu_table *t, const wb_gpu_ref *g, int md, const char *out);

#endif
