/* export_profile.h - `wallbench export` on a profile file: its figures
 * (fig4-profile: the kernels on the roofline; fig-timeline: --sample's samples) or one of its tables
 * (launches, kernels, ranges) as CSV or JSON. export.c parses the options
 * of both file kinds, opens the file once (rows.h) and hands a profile's here. */
#ifndef WB_EXPORT_PROFILE_H
#define WB_EXPORT_PROFILE_H

#include "harness/base/gpus.h"
#include "harness/tools/rows.h"

/* The options as given (NULL: not given); all: --all, both figures; dir the figures' folder (export.c
 * gives its default). */
typedef struct wb_export_profile_args {
    int all;
    const char *fig, *table, *format;
    const char *file; /* -o/--output */
    const char *dir;  /* --out */
    const char *with; /* refused: fig-compare is for results files */
} wb_export_profile_args;

/* The options a profile does not take, refused before it is read: 0, or 2 after the sentence. */
int wb_export_profile_check(const wb_export_profile_args *a);

/* Writes what a asks from rows (a profile opened by export.c through rows.h, with its launch rows for
 * --table launches; t the reference GPUs of a figure); the exit code (0, 2 bad input, 3 nothing to draw). */
int wb_export_profile(const wb_rows *rows, const wb_gpu_table *t, const wb_export_profile_args *a);

#endif
