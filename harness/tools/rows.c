/* rows.c - either file kind as rows (see rows.h). */
#include "harness/tools/rows.h"

#include <stdio.h>
#include <string.h>

#include "harness/store/profile_h5.h"
#include "harness/tools/profile_tools.h"

int wb_rows_view(const char *cmd, wb_rows *rows, wb_prof_table view) {
    wb_err e = {""};
    if (rows->kind != WB_ROWS_PROFILE) return fprintf(stderr, "wallbench %s: a results file has no kernels or NVTX ranges\n", cmd), 2;
    wb_results_free(&rows->r);
    rows->view = view;
    rows->what = view == WB_PT_KERNELS ? "kernel" : "NVTX range";
    if (wb_profile_as_results(&rows->p, view, rows->path, &rows->r, &e) == WB_OK) return 0;
    fprintf(stderr, "wallbench %s: %s\n", cmd, e.msg);
    return 2;
}

wb_rows_kind wb_rows_kind_of(const char *path) {
    return wb_profile_file_is(path) == 1 ? WB_ROWS_PROFILE : WB_ROWS_RESULTS;
}

static int rows_open(const char *cmd, const char *path, wb_rows *rows, int launches) {
    wb_err e = {""};
    memset(rows, 0, sizeof *rows);
    snprintf(rows->path, sizeof rows->path, "%s", path);
    if (wb_rows_kind_of(path) == WB_ROWS_PROFILE) {
        rows->kind = WB_ROWS_PROFILE;
        if ((launches ? wb_profile_read(path, &rows->p, &e) : wb_profile_read_summary(path, &rows->p, &e)) != WB_OK)
            return fprintf(stderr, "wallbench %s: %s\n", cmd, e.msg), 2;
        return wb_rows_view(cmd, rows, WB_PT_KERNELS);
    }
    rows->kind = WB_ROWS_RESULTS;
    rows->what = "point";
    if (wb_results_open(path, &rows->r, &e) == WB_OK) return 0;
    fprintf(stderr, "wallbench %s: %s\n", cmd, e.msg);
    return 2;
}

int wb_rows_open(const char *cmd, const char *path, wb_rows *rows) { return rows_open(cmd, path, rows, 0); }

int wb_rows_open_launches(const char *cmd, const char *path, wb_rows *rows) { return rows_open(cmd, path, rows, 1); }

void wb_rows_free(wb_rows *rows) {
    wb_results_free(&rows->r);
    if (rows->kind == WB_ROWS_PROFILE) wb_profile_free(&rows->p);
    memset(rows, 0, sizeof *rows);
}
