/* wb_synth_shard.c - a CPU stand-in for `wallbench run --shard I/N` in the
 * node and Slurm tests (sh_node_run.sh, sh_slurm.sh): the real sweep (all
 * families, on the h200 profile's stand-in device) and the real shard
 * assignment, with synthetic times in place of measurements, written
 * through the store like a run writes them.
 *   wb_synth_shard write DIR I/N [SWEEP [GPU_NAME [KEEP]]]  DIR/shard-I-of-N.h5
 *       KEEP: the ceilings and then only KEEP points (a run killed early);
 *       $WB_SYNTH_SHARD_COST: balance by that results file (--shard-cost)
 *   wb_synth_shard check MERGED.h5 [SWEEP]   exit 0 iff MERGED holds every
 *       point of the sweep once (ceilings once), 1 otherwise, saying which */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/gpus.h"
#include "harness/run/shard.h"
#include "harness/run/sweep.h"
#include "harness/store/store_h5.h"
#include "harness/tools/match.h"
#include "micro/families.h"

static int sweep_of(const char *kind, wb_run_point **pts, int *n, wb_err *e) {
    wb_selection sel;
    wb_sweep_kind k;
    wb_gpu_table t;
    wb_device d;
    if (wb_sweep_kind_parse(kind, &k, e) != WB_OK || wb_selection_parse(NULL, NULL, NULL, &sel, e) != WB_OK ||
        wb_gpu_table_load(NULL, &t, e) != WB_OK)
        return WB_ERR;
    const wb_gpu_ref *g = wb_gpu_table_find(&t, "h200");
    if (!g) {
        wb_gpu_table_free(&t);
        return wb_fail(e, "no h200 row in gpus.tsv");
    }
    wb_sweep_nominal_device(g, &d);
    wb_gpu_table_free(&t);
    return wb_sweep_points(&sel, k, &d, pts, n, e);
}

static int write_shard(const char *dir, const char *spec, const char *kind, const char *gpu, int keep, wb_err *e) {
    wb_shard sh = {0};
    wb_run_point *pts = NULL;
    int n = 0;
    if (wb_shard_parse(spec, &sh.index, &sh.count, e) != WB_OK || sweep_of(kind, &pts, &n, e) != WB_OK ||
        wb_shard_select(pts, &n, getenv("WB_SYNTH_SHARD_COST"), &sh, e) != WB_OK) {
        free(pts);
        return WB_ERR;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/shard-%d-of-%d.h5", dir, sh.index, sh.count);
    remove(path);
    wb_store *s = NULL;
    char uuid[64];
    snprintf(uuid, sizeof uuid, "GPU-synthetic-%d", sh.index);
    int rc = wb_store_create(path, &s, e);
    if (rc == WB_OK)
        rc = wb_store_attr_str(s, "gpu_name", gpu, e) || wb_store_attr_str(s, "profile", "h200", e) ||
             wb_store_attr_str(s, "sweep", kind, e) || wb_store_attr_str(s, "seed", "20261129", e) ||
             wb_store_attr_f64(s, "reps", 3, e) || wb_store_attr_str(s, "gpu_uuid", uuid, e) ||
             wb_store_attr_f64(s, "projected", 0, e) || wb_store_attr_f64(s, "run_wall_s", 60 + sh.index, e) ||
             wb_shard_write_attrs(s, &sh, e);
    for (int i = 0, kept = 0; i < n && rc == WB_OK; i++) {
        if (strcmp(pts[i].family->name, WB_SHARD_CEILING_FAMILY) != 0 && keep >= 0 && kept++ >= keep) break;
        wb_row r;
        wb_row_init(&r);
        r.p = pts[i].p;
        /* Synthetic, not measured: a time that grows with the data. */
        double ms = 1e-3 + pts[i].family->device_bytes(&pts[i].p) / 4e9;
        double samples[3] = {ms, ms * 1.01, ms * 0.99};
        r.m.reps = 3;
        r.m.time_median_ms = ms;
        r.m.timing_pass_ms = 5 * ms;
        snprintf(r.m.status, sizeof r.m.status, "ok");
        rc = wb_store_append(s, &r, samples, 3, e);
    }
    if (s) {
        wb_err ignored;
        if (wb_store_close(s, rc == WB_OK ? e : &ignored) != WB_OK) rc = WB_ERR;
    }
    free(pts);
    if (rc == WB_OK) printf("%s\n", path);
    return rc;
}

/* The sweep's points as rows, nothing measured: what wb_match_files pairs
 * with the merged file's rows. */
static void sweep_rows(wb_results *rows, const wb_run_point *pts, int n) {
    for (int i = 0; i < n; i++) {
        wb_row_init(&rows->rows[i]);
        rows->rows[i].p = pts[i].p;
    }
    rows->nrows = n;
}

static int check_merged(const char *path, const char *kind, wb_err *e) {
    wb_run_point *pts = NULL;
    int n = 0;
    wb_results r;
    if (sweep_of(kind, &pts, &n, e) != WB_OK) return WB_ERR;
    if (wb_results_open(path, &r, e) != WB_OK) {
        free(pts);
        return WB_ERR;
    }
    wb_results want = {.nrows = n};
    wb_match m = {0};
    int rc = WB_ERR;
    want.rows = malloc((size_t)n * sizeof *want.rows);
    if (want.rows) sweep_rows(&want, pts, n);
    if (!want.rows || wb_match_files(&want, &r, &m, e) != WB_OK) {
        free(want.rows);
        wb_results_free(&r);
        free(pts);
        return WB_ERR;
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (m.a_to_b[i] < 0 && bad++ < 10) fprintf(stderr, "check: %s is not in %s\n", pts[i].name, path);
    if (m.only_b) fprintf(stderr, "check: %s has %lld rows that are no point of the sweep or repeat one\n", path, (long long)m.only_b);
    if (!bad && !m.only_b) {
        rc = WB_OK;
        printf("check: %s holds each of the %d points of the %s sweep once\n", path, n, kind);
    } else {
        wb_fail(e, "%s does not hold the sweep's points once each (%d missing, %lld extra)", path, bad, (long long)m.only_b);
    }
    wb_match_free(&m);
    free(want.rows);
    wb_results_free(&r);
    free(pts);
    return rc;
}

int main(int argc, char **argv) {
    wb_err e = {""};
    int rc;
    if (wb_micro_families_add(&e) != WB_OK) {
        fprintf(stderr, "wb_synth_shard: %s\n", e.msg);
        return 1;
    }
    if (argc >= 4 && !strcmp(argv[1], "write"))
        rc = write_shard(argv[2], argv[3], argc > 4 ? argv[4] : "test", argc > 5 ? argv[5] : "NVIDIA H200",
                         argc > 6 ? atoi(argv[6]) : -1, &e);
    else if (argc >= 3 && !strcmp(argv[1], "check"))
        rc = check_merged(argv[2], argc > 3 ? argv[3] : "test", &e);
    else {
        fprintf(stderr, "usage: wb_synth_shard write DIR I/N [SWEEP [GPU [KEEP]]] | check MERGED.h5 [SWEEP]\n");
        return 2;
    }
    if (rc != WB_OK) fprintf(stderr, "wb_synth_shard: %s\n", e.msg);
    return rc == WB_OK ? 0 : 1;
}
