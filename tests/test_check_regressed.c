/* test_check_regressed.c - the regression gate can fail on real data: a copy
 * of the committed record is written through the harness store with a few
 * points made slower (every sample x 1.3) and a few with more instructions
 * (x 1.1); `wallbench check` of the copy against the record with the
 * committed thresholds must exit 1 and name exactly those points, and an
 * unchanged copy must pass (exit 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/metrics.h"
#include "harness/commands.h"
#include "harness/store/store_h5.h"
#include "tests/synth_results.h"

#define RECORD "results/h200/20261130T011431Z-0dafc16.h5"
#define OUT_LEN (1 << 20)
static char out[OUT_LEN];
static char dir[] = "/tmp/wb_test_check_regressed_XXXXXX";

enum { SLOWER, MORE_INST, KINDS };

/* Rows changed: long enough for the time rule (>= 0.05 ms), counted, ok. */
static int pick(const wb_row *r, int kind) {
    if (strcmp(r->m.status, "ok") != 0 || r->m.time_median_ms < 1.0) return 0;
    if (kind == MORE_INST) return r->c.v[wb_metric_index("inst")] > 1e6;
    return 1;
}

/* Writes a copy of rec to path; the first `changes` rows of each kind (by
 * family, one family per kind) are changed and their ids stored in ids. */
static int write_copy(const wb_results *rec, const char *path, int changes, int64_t ids[KINDS][4]) {
    wb_store *s = NULL;
    wb_err e = {""};
    if (wb_store_create(path, &s, &e) != WB_OK) return fprintf(stderr, "%s\n", e.msg), WB_ERR;
    for (int i = 0; i < rec->nattrs; i++) {
        const wb_attr *a = &rec->attrs[i];
        if (strcmp(a->name, "schema_version") == 0) continue;
        int rc = a->is_number ? wb_store_attr_f64(s, a->name, strtod(a->value, NULL), &e)
                              : wb_store_attr_str(s, a->name, a->value, &e);
        if (rc != WB_OK) return fprintf(stderr, "%s\n", e.msg), WB_ERR;
    }
    const char *family_of[KINDS] = {"scan", "groupby"};
    int done[KINDS] = {0, 0};
    double *ms = malloc(4096 * sizeof *ms);
    for (int64_t i = 0; ms && i < rec->nrows; i++) {
        wb_row r = rec->rows[i];
        int n = rec->sample_count[i];
        if (n > 4096) n = 4096;
        memcpy(ms, rec->sample_ms + rec->sample_start[i], (size_t)n * sizeof *ms);
        for (int k = 0; k < KINDS; k++) {
            if (done[k] >= changes || strcmp(r.p.family, family_of[k]) != 0 || !pick(&r, k)) continue;
            ids[k][done[k]++] = i;
            if (k == SLOWER) {
                for (int j = 0; j < n; j++) ms[j] *= 1.3;
                r.m.time_median_ms *= 1.3, r.m.time_min_ms *= 1.3, r.m.time_max_ms *= 1.3;
            } else {
                r.c.v[wb_metric_index("inst")] *= 1.1;
            }
        }
        if (wb_store_append(s, &r, ms, n, &e) != WB_OK) {
            fprintf(stderr, "%s\n", e.msg);
            free(ms);
            return WB_ERR;
        }
    }
    free(ms);
    return wb_store_close(s, &e) == WB_OK && done[SLOWER] == changes && done[MORE_INST] == changes ? WB_OK : WB_ERR;
}

static int check(const char *now, const char *base, const char *thresholds) {
    char *argv[] = {"check", (char *)now, "--baseline", (char *)base, "--thresholds", (char *)thresholds, NULL};
    return synth_run(wb_cmd_check, 6, argv, out, sizeof out);
}

/* The check's line of row r for metric: its family, variant and n, then the metric. */
static int names(const wb_row *r, const char *metric) {
    char n[32];
    snprintf(n, sizeof n, " %lld ", (long long)r->p.n);
    for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if (strstr(buf, r->p.family) && strstr(buf, r->p.variant) && strstr(buf, n) && strstr(buf, metric)) return 1;
    }
    return 0;
}

int main(void) {
    const char *src = getenv("WB_SOURCE_DIR");
    char record[1024], thresholds[1024];
    snprintf(record, sizeof record, "%s/%s", src ? src : ".", RECORD);
    snprintf(thresholds, sizeof thresholds, "%s/results/thresholds.txt", src ? src : ".");
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    wb_results rec;
    wb_err e = {""};
    if (wb_results_open(record, &rec, &e) != WB_OK) return fprintf(stderr, "%s\n", e.msg), 1;

    int64_t ids[KINDS][4];
    const char *same = synth_path(dir, "same.h5"), *worse = synth_path(dir, "worse.h5");
    CHECK(write_copy(&rec, same, 0, ids) == WB_OK);
    /* an unchanged copy is the record's own run: refused (it would pass whatever it holds) */
    int rc = check(same, record, thresholds);
    if (rc != 2 || !strstr(out, "copies of one run")) fprintf(stderr, "unchanged copy:\n%s\n", out);
    CHECK(rc == 2 && strstr(out, "copies of one run") != NULL);

    CHECK(write_copy(&rec, worse, 3, ids) == WB_OK);
    rc = check(worse, record, thresholds);
    CHECK(rc == 1);
    CHECK(strstr(out, "6 violation(s)") != NULL);
    for (int j = 0; j < 3; j++) {
        CHECK(names(&rec.rows[ids[SLOWER][j]], "time_median_ms"));
        CHECK(names(&rec.rows[ids[MORE_INST][j]], "inst"));
    }
    if (wb_test_failures) fprintf(stderr, "check output:\n%s\n", out);
    wb_results_free(&rec);
    if (!wb_test_failures) synth_remove_dir(dir);
    return TEST_DONE();
}
