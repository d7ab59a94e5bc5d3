/* test_sweep_contains.c - the full sweep contains the quick sweep, point for
 * point, on every GPU profile of gpus.tsv: a finding quoted from a quick run
 * (the default of `make run`) must be recomputable from the record, which is
 * a full run. Points are compared by their names, which spell every axis
 * (wb_point_name). No GPU needed: sweeps are enumerated for each profile's
 * stand-in device, as `wallbench list` does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/run/sweep.h"
#include "micro/families.h"

static int by_name(const void *a, const void *b) {
    return strcmp(((const wb_run_point *)a)->name, ((const wb_run_point *)b)->name);
}

/* Quick points of one profile that the full sweep lacks; prints each. */
static int missing_on(const wb_gpu_ref *g, const wb_selection *all) {
    wb_device d;
    wb_sweep_nominal_device(g, &d);
    wb_run_point *quick = NULL, *full = NULL;
    int nq = 0, nf = 0, missing = 0;
    wb_err e;
    if (wb_sweep_points(all, WB_SWEEP_QUICK, &d, &quick, &nq, &e) != WB_OK ||
        wb_sweep_points(all, WB_SWEEP_FULL, &d, &full, &nf, &e) != WB_OK) {
        fprintf(stderr, "%s: sweep: %s\n", g->profile, e.msg);
        free(quick);
        return -1;
    }
    qsort(full, (size_t)nf, sizeof *full, by_name);
    for (int i = 0; i < nq; i++)
        if (!bsearch(&quick[i], full, (size_t)nf, sizeof *full, by_name)) {
            fprintf(stderr, "%s: quick point not in the full sweep: %s\n", g->profile, quick[i].name);
            missing++;
        }
    CHECK(nq > 0 && nf > nq);
    free(quick);
    free(full);
    return missing;
}

int main(void) {
    wb_selection all;
    wb_gpu_table t;
    wb_err e;
    if (wb_micro_families_add(&e) != WB_OK || wb_selection_parse(NULL, NULL, NULL, &all, &e) != WB_OK ||
        wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    int profiles = 0;
    for (int i = 0; i < t.n; i++) {
        if (t.rows[i].arch < 0) continue; /* a row without a build target has no sweep */
        profiles++;
        CHECK(missing_on(&t.rows[i], &all) == 0);
    }
    CHECK(profiles > 0);
    wb_gpu_table_free(&t);
    return TEST_DONE();
}
