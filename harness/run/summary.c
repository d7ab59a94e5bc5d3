/* summary.c - the run summary as JSON (see summary.h). Keys and units:
 * times in seconds (*_s), rates in GB/s and G warp instructions/s, null
 * where a value is absent (NaN in the file). */
#include "harness/run/summary.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/json.h"

static const char *const step_keys[WB_SPENT_N] = {"data_s", "verify_s", "counter_pass_s", "timing_pass_s"};

static void spent(FILE *f, const wb_spent *b) {
    fputc('{', f);
    wb_json_key(f, "points", 1);
    fprintf(f, "%lld", (long long)b->points);
    for (int i = 0; i < WB_SPENT_N; i++) {
        wb_json_key(f, step_keys[i], 0);
        wb_json_num(f, b->s[i]);
    }
    fputc('}', f);
}

/* Rows of one status (or, status NULL, rows whose reason is a warning) as
 * [{"point": "family/variant/n:N", "id": I, "reason": "..."}]. */
static void rows(FILE *f, const wb_results *res, const char *status) {
    int first = 1;
    fputc('[', f);
    for (int64_t i = 0; res && i < res->nrows; i++) {
        const wb_row *w = &res->rows[i];
        if (status ? strcmp(w->m.status, status) != 0 : strncmp(w->m.reason, "warning", 7) != 0) continue;
        char name[256];
        if (!first) fputc(',', f);
        first = 0;
        fputc('{', f);
        wb_json_key(f, "point", 1);
        wb_json_str(f, wb_point_name(&w->p, name, sizeof name));
        wb_json_key(f, "id", 0);
        fprintf(f, "%lld", (long long)w->m.id);
        wb_json_key(f, "reason", 0);
        wb_json_str(f, w->m.reason);
        fputc('}', f);
    }
    fputc(']', f);
}

int wb_summary_write(const char *path, const wb_run *r, const char *results, const char *cmdline, int exit_code,
                     const char *error, wb_err *e) {
    wb_results res;
    wb_err re;
    int have = *results && wb_results_open(results, &res, &re) == WB_OK;
    FILE *f = fopen(path, "w");
    if (!f) {
        if (have) wb_results_free(&res);
        return wb_fail(e, "--summary-json %s: cannot write: %s", path, strerror(errno));
    }
    fputc('{', f);
    wb_json_key(f, "summary_version", 1);
    fputs("1", f);
    wb_json_key(f, "results_file", 0);
    if (*results) wb_json_str(f, results);
    else fputs("null", f);
    wb_json_key(f, "command", 0);
    wb_json_str(f, cmdline);
    wb_json_key(f, "exit_code", 0);
    fprintf(f, "%d", exit_code);
    wb_json_key(f, "error", 0);
    if (error && *error) wb_json_str(f, error);
    else fputs("null", f);
    wb_json_key(f, "gpu", 0);
    wb_json_str(f, r->dev.name);
    wb_json_key(f, "points", 0);
    fprintf(f, "{\"ok\":%lld,\"skipped\":%lld,\"failed\":%lld,\"rows\":%lld}", (long long)r->ok,
            (long long)r->skipped, (long long)r->failed, (long long)r->done);
    wb_json_key(f, "failed", 0);
    rows(f, have ? &res : NULL, "failed");
    wb_json_key(f, "skipped", 0);
    rows(f, have ? &res : NULL, "skipped");
    wb_json_key(f, "measured_roof", 0);
    fputc('{', f);
    wb_json_key(f, "inst_gips", 1);
    wb_json_num(f, r->measured.inst_gips);
    wb_json_key(f, "dram_gbps", 0);
    wb_json_num(f, r->measured.dram_gbps);
    fputc('}', f);
    wb_json_key(f, "ceilings", 0);
    fputc('{', f);
    for (int i = 0; i < r->nceilings; i++) {
        wb_json_key(f, r->ceilings[i].variant, i == 0);
        fprintf(f, "{\"gbps\":");
        wb_json_num(f, r->ceilings[i].gbps);
        fprintf(f, ",\"gips\":");
        wb_json_num(f, r->ceilings[i].gips);
        fputc('}', f);
    }
    fputc('}', f);
    wb_json_key(f, "time", 0);
    fputc('{', f);
    wb_json_key(f, "total", 1);
    spent(f, &r->spent);
    wb_json_key(f, "wall_s", 0);
    wb_json_num(f, r->t0_s > 0 ? wb_clock_s() - r->t0_s : 0.0);
    wb_json_key(f, "by_family", 0);
    fputc('{', f);
    for (int i = 0; i < r->nspent_by; i++) {
        wb_json_key(f, r->spent_by[i].family, i == 0);
        spent(f, &r->spent_by[i]);
    }
    fputs("}}", f);
    /* Warnings: the run's (counters off, stopped early, file unreadable)
     * and the rows' (low clock, ...). */
    wb_json_key(f, "warnings", 0);
    fputc('[', f);
    int first = 1;
    char counters[128], contended[160];
    snprintf(counters, sizeof counters, "counters %s", r->counters_off);
    snprintf(contended, sizeof contended, "%d point(s) timed while other processes held the GPU (other_processes > 0)",
             r->contended);
    const char *run_warn[4] = {r->counters_off[0] ? counters : NULL, r->broken ? r->broken_msg : NULL,
                               have || !*results ? NULL : re.msg, r->contended ? contended : NULL};
    for (int i = 0; i < 4; i++) {
        if (!run_warn[i]) continue;
        if (!first) fputc(',', f);
        first = 0;
        wb_json_str(f, run_warn[i]);
    }
    fputc(']', f);
    wb_json_key(f, "point_warnings", 0);
    rows(f, have ? &res : NULL, NULL);
    fputs("}\n", f);
    if (have) wb_results_free(&res);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return wb_fail(e, "--summary-json %s: write error", path);
    return WB_OK;
}
