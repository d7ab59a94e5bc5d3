/* compare_side.c - one side of `wallbench compare` (compare.h), opened for
 * the two-file comparison (compare.c) and the fleet (compare_fleet.c)
 * alike, so that neither calls into the other. */
#include <math.h>
#include <string.h>

#include "harness/tools/compare.h"
#include "harness/tools/project.h"
#include "harness/tools/rows.h"

/* Opens one side through the tools' one reader (rows.h; it says why a file
 * cannot be read, and e stays empty) and checks what compare needs beyond
 * the schema: a results file, points, and at least one with a measured time. */
int wb_cmp_open_side(wb_cmp_side *s, const char *path, const char *tag, const wb_gpu_table *t, wb_err *e) {
    memset(s, 0, sizeof *s);
    s->tag = tag;
    wb_rows in;
    if (wb_rows_open("compare", path, &in) != 0) return WB_ERR;
    if (in.kind == WB_ROWS_PROFILE) {
        wb_rows_free(&in);
        return wb_fail(e, "%s is a profile file: a profile compares only with another profile (two files)", path);
    }
    s->r = in.r; /* a results file's rows are all of it: s->r owns them now (wb_results_free) */
    s->open = 1;
    int64_t timed = 0;
    for (int64_t i = 0; i < s->r.nrows; i++)
        timed += !strcmp(s->r.rows[i].m.status, "ok") && isfinite(s->r.rows[i].m.time_median_ms);
    if (!s->r.nrows) return wb_fail(e, "%s: no points", path);
    if (!timed) return wb_fail(e, "%s: no point with status ok and a measured time", path);
    wb_gpu_view_init(&s->r, t, &s->v);
    s->projected = !strcmp(s->v.kind, "projected");
    wb_project_file_roof(&s->r, t, &s->roof, s->roof_source, sizeof s->roof_source);
    return WB_OK;
}
