/* rows.h - the one reader of the tools: a results file (`wallbench run`) or
 * a profile file (`wallbench profile -- CMD`, file_kind wallbench-profile)
 * opened the same way, as "rows with counters and roofs" (wb_results rows:
 * agg.h, ceilings.h, report_tables.h and project.h work on them unchanged).
 * What differs between the kinds is data here, not a second command: what a
 * row is (a point, a kernel = name + launch shape, an NVTX range), the
 * word the tables use for it, and for a profile the profile itself (its
 * launches' attributes, its describe line). */
#ifndef WB_ROWS_H
#define WB_ROWS_H

#include "harness/base/profile.h"
#include "harness/base/profile_cols.h"
#include "harness/store/store_h5.h"

typedef enum { WB_ROWS_RESULTS, WB_ROWS_PROFILE } wb_rows_kind;

typedef struct wb_rows {
    wb_rows_kind kind;
    wb_prof_table view; /* profile: the kernels (WB_PT_KERNELS) or the NVTX ranges the rows are */
    const char *what;   /* a row, in the tables' words: "point", "kernel", "NVTX range" */
    wb_results r;       /* the rows (a profile's: wb_profile_as_results of view) and the attributes */
    wb_profile p;       /* profile only (summary: no launch rows) */
    char path[1024];
} wb_rows;

/* The kind of file path names (a file that cannot be read: WB_ROWS_RESULTS,
 * whose reader then says why). For the commands whose options differ by kind. */
wb_rows_kind wb_rows_kind_of(const char *path);
/* Opens path, either kind; on failure prints "wallbench <cmd>: <why>" and
 * returns 2 (bad input), else 0. A profile opens on its kernels, without its
 * launch rows (rows->p.launches NULL). */
int wb_rows_open(const char *cmd, const char *path, wb_rows *rows);
/* The same, a profile with its launch rows too (for what writes or lists
 * launches: export --table launches, project -o). */
int wb_rows_open_launches(const char *cmd, const char *path, wb_rows *rows);
/* A profile's rows as its kernels or its NVTX ranges; 0, or 2 with the message. */
int wb_rows_view(const char *cmd, wb_rows *rows, wb_prof_table view);
void wb_rows_free(wb_rows *rows);

#endif
