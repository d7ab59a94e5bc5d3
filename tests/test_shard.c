/* test_shard.c - `run --shard I/N` and `wallbench merge`: the I/N parser,
 * the assignment on the real sweeps (deterministic, disjoint, covering,
 * balanced, shared data kept together, ceilings in every shard), costs from
 * a previous results file, and merge's refusals and gaps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/base/gpus.h"
#include "harness/commands.h"
#include "harness/run/shard.h"
#include "harness/tools/match.h"
#include "micro/families.h"
#include "synth_results.h"

static void parser(void) {
    static const char *const bad[] = {"3/2", "0/0", "x/y", "1/0", "0/3", "", "/", "1/", "/2", "1/2/3", "-1/2", "1/ 2",
                                      " 1/2", "1.0/2", "2/99999999999999999999", "1/5000"};
    int i, n;
    wb_err e;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        e.msg[0] = '\0';
        CHECK(wb_shard_parse(bad[k], &i, &n, &e) == WB_ERR);
        CHECK(strstr(e.msg, "--shard") != NULL);
    }
    CHECK(wb_shard_parse("3/2", &i, &n, &e) == WB_ERR && strstr(e.msg, "1..2"));
    CHECK(wb_shard_parse("1/1", &i, &n, &e) == WB_OK && i == 1 && n == 1);
    CHECK(wb_shard_parse("7/16", &i, &n, &e) == WB_OK && i == 7 && n == 16);
}

static int sweep(wb_sweep_kind k, wb_run_point **pts, int *n) {
    wb_selection sel;
    wb_gpu_table t;
    wb_device d;
    wb_err e;
    if (wb_selection_parse(NULL, NULL, NULL, &sel, &e) != WB_OK || wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return WB_ERR;
    }
    wb_sweep_nominal_device(wb_gpu_table_find(&t, "h200"), &d);
    wb_gpu_table_free(&t);
    int rc = wb_sweep_points(&sel, k, &d, pts, n, &e);
    if (rc != WB_OK) fprintf(stderr, "%s\n", e.msg);
    return rc;
}

static int is_ceiling(const wb_run_point *p) {
    return !strcmp(p->family->name, WB_SHARD_CEILING_FAMILY);
}

/* Every property of one assignment of pts into count shards. */
static void assignment(const wb_run_point *pts, int n, int count) {
    double *cost = malloc((size_t)n * sizeof *cost), *load = calloc((size_t)count, sizeof *load);
    int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    char source[160];
    wb_err e;
    CHECK(wb_shard_costs(pts, n, NULL, cost, source, sizeof source, &e) == WB_OK);
    wb_shard_assign(pts, n, cost, count, a);
    wb_shard_assign(pts, n, cost, count, b);
    double total = 0, biggest = 0;
    int ceilings = 0;
    for (int i = 0; i < n; i++) {
        CHECK(a[i] == b[i]); /* deterministic */
        if (is_ceiling(&pts[i])) {
            CHECK(a[i] == -1); /* every shard */
            ceilings++;
            continue;
        }
        CHECK(a[i] >= 0 && a[i] < count); /* exactly one shard: disjoint and covering */
        if (a[i] < 0 || a[i] >= count) continue;
        load[a[i]] += cost[i];
        total += cost[i];
        if (cost[i] > biggest) biggest = cost[i];
    }
    CHECK(ceilings > 0);
    /* Balanced: greedy on pieces of at most a share (or one point) leaves no
     * shard more than one piece above the share, and none empty. */
    const double share = total / count;
    for (int s = 0; s < count; s++) {
        CHECK(load[s] <= share + fmax(share, biggest) + 1e-9 * total);
        CHECK(load[s] > 0);
    }
    if (count == 2) CHECK(fabs(load[0] - load[1]) <= fmax(share, biggest));
    /* Shared data stays together: a run of consecutive points on the data
     * of its first point that weighs no more than a share is in one shard. */
    for (int i = 0; i < n;) {
        int j = i + 1;
        double w = cost[i];
        while (j < n && pts[j].family == pts[i].family && pts[i].family->same_data(&pts[i].p, &pts[j].p)) w += cost[j++];
        if (!is_ceiling(&pts[i]) && w <= share)
            for (int k = i + 1; k < j; k++) CHECK(a[k] == a[i]);
        i = j;
    }
    free(cost);
    free(load);
    free(a);
    free(b);
}

/* wb_shard_select over all shards: the kept points of the shards partition
 * the non-ceiling points, each keeps every ceiling, and the fingerprint and
 * counts agree. */
static void select_all(const wb_run_point *pts, int n, int count) {
    int covered = 0, ceilings = 0;
    char fp[17] = "";
    for (int i = 0; i < n; i++) ceilings += is_ceiling(&pts[i]);
    for (int s = 1; s <= count; s++) {
        wb_run_point *mine = malloc((size_t)n * sizeof *mine);
        memcpy(mine, pts, (size_t)n * sizeof *mine);
        int m = n;
        wb_shard sh = {s, count};
        wb_err e;
        CHECK(wb_shard_select(mine, &m, NULL, &sh, &e) == WB_OK);
        if (s == 1) memcpy(fp, sh.fingerprint, sizeof fp);
        CHECK(!strcmp(fp, sh.fingerprint));
        CHECK(sh.points == m && sh.ceilings == ceilings);
        int c = 0;
        for (int i = 0; i < m; i++) c += is_ceiling(&mine[i]);
        CHECK(c == ceilings);
        covered += m - c;
        /* run order kept */
        for (int i = 1; i < m; i++) CHECK(strcmp(mine[i - 1].name, mine[i].name) != 0);
        free(mine);
    }
    CHECK(covered == n - ceilings);
}

/* Costs from a previous results file: the points it holds get their pass
 * and set-up times (set-up on every fourth point: the one that made the
 * data), the others bytes at its ms per byte. */
static void costs_from_file(const char *dir, const wb_run_point *pts, int n) {
    synth z;
    const char *path = synth_path(dir, "cost.h5");
    synth_open(&z, path, "NVIDIA H200");
    for (int i = 0; i < n; i += 2) {
        wb_row r;
        wb_row_init(&r);
        r.p = pts[i].p;
        r.m.timing_pass_ms = 1.0 + i;
        r.m.counter_pass_ms = 2.0;
        if (i % 4 == 0) r.m.setup_ms = 100.0;
        r.m.time_median_ms = 0.1;
        snprintf(r.m.status, sizeof r.m.status, "ok");
        synth_put(&z, &r, NULL, 0);
    }
    CHECK(synth_close(&z) == WB_OK);
    double *cost = malloc((size_t)n * sizeof *cost), *bytes = malloc((size_t)n * sizeof *bytes);
    char source[160];
    wb_err e;
    CHECK(wb_shard_costs(pts, n, NULL, bytes, source, sizeof source, &e) == WB_OK);
    CHECK(wb_shard_costs(pts, n, path, cost, source, sizeof source, &e) == WB_OK);
    CHECK(strstr(source, "set-up times") != NULL);
    for (int i = 0; i < n; i += 2) CHECK_NEAR(cost[i], 3.0 + i + (i % 4 == 0 ? 100.0 : 0.0), 1e-12);
    if (n > 3) CHECK_NEAR(cost[1] / cost[3], bytes[1] / bytes[3], 1e-9);
    CHECK(wb_shard_costs(pts, n, synth_path(dir, "absent.h5"), cost, source, sizeof source, &e) == WB_ERR);
    free(cost);
    free(bytes);
}

/* ---- merge ---- */

typedef struct shard_spec {
    const char *name, *spec, *gpu, *fingerprint, *counts;
    int64_t n[4]; /* select points (n), 0 ends */
    int with_shard_attr;
    const char *rev; /* NULL: abc1234 */
} shard_spec;

static const char *shard_file(const char *dir, const shard_spec *s) {
    synth z;
    const char *path = synth_path(dir, s->name);
    synth_open(&z, path, s->gpu);
    synth_attr_str(&z, "sweep", "test");
    synth_attr_str(&z, "seed", "1");
    synth_attr_f64(&z, "reps", 3);
    synth_attr_str(&z, "gpu_uuid", s->name);
    synth_attr_str(&z, "sweep_fingerprint", s->fingerprint);
    synth_attr_str(&z, "git_revision", s->rev ? s->rev : "abc1234");
    if (s->with_shard_attr) {
        synth_attr_f64(&z, "run_wall_s", 10.0 * atoi(s->spec));          /* 1/2: 10 s, 2/2: 20 s */
        synth_attr_f64(&z, "ceiling_dram_read_gbps", 4000 + 400 * (atoi(s->spec) - 1));
        synth_attr_str(&z, "shard", s->spec);
        synth_attr_f64(&z, "shard_count", atoi(strchr(s->spec, '/') + 1));
        synth_attr_str(&z, "shard_counts", s->counts);
    }
    wb_row c = synth_row("ceiling", "dram_read", 1 << 20, 0.5);
    synth_put(&z, &c, NULL, 0);
    for (int k = 0; k < 4 && s->n[k]; k++) {
        wb_row r = synth_row("select", "branch", s->n[k], 0.01 * (double)(k + 1));
        synth_put(&z, &r, NULL, 0);
    }
    CHECK(synth_close(&z) == WB_OK);
    return path;
}

static int merge(const char *out, const char *a, const char *b, char *msg, size_t len) {
    char *argv[] = {"merge", (char *)a, (char *)b, "-o", (char *)out, NULL};
    return synth_run(wb_cmd_merge, 5, argv, msg, len);
}

static void merges(const char *dir) {
    char msg[8192];
    char s1[512], s2[512]; /* synth_path's buffers rotate */
    snprintf(s1, sizeof s1, "%s", shard_file(dir, &(shard_spec){"s1.h5", "1/2", "NVIDIA H200", "f00d", "2,1", {10, 11}, 1}));
    snprintf(s2, sizeof s2, "%s", shard_file(dir, &(shard_spec){"s2.h5", "2/2", "NVIDIA H200", "f00d", "2,1", {20}, 1}));
    const char *out = synth_path(dir, "all.h5");
    unlink(out);
    CHECK(merge(out, s2, s1, msg, sizeof msg) == 0);
    CHECK(strstr(msg, "run time 100.0%, DRAM read 10.0%, inst -") != NULL);
    CHECK(strstr(msg, "the shards ran on 2 GPUs (s1.h5,s2.h5)") != NULL);
    wb_results r;
    wb_err e;
    CHECK(wb_results_open(out, &r, &e) == WB_OK);
    if (r.rows) {
        CHECK(r.nrows == 4); /* one ceiling set + 3 points */
        int ceilings = 0;
        for (int64_t i = 0; i < r.nrows; i++) {
            ceilings += !strcmp(r.rows[i].p.family, "ceiling");
            CHECK(r.sample_count[i] == 3);
        }
        CHECK(ceilings == 1);
        const char *m = wb_results_attr(&r, "merged_shards");
        CHECK(m && !strcmp(m, "1/2 2/2"));
        const char *u1 = wb_results_attr(&r, "shard1_gpu_uuid"), *u2 = wb_results_attr(&r, "shard2_gpu_uuid");
        CHECK(u1 && u2 && !strcmp(u1, "s1.h5") && !strcmp(u2, "s2.h5"));
        const char *boards = wb_results_attr(&r, "merged_gpu_uuids");
        CHECK(boards && !strcmp(boards, "s1.h5,s2.h5"));
        CHECK(wb_results_attr(&r, "merge_ceilings") && strstr(wb_results_attr(&r, "merge_ceilings"), "shard 1/2"));
        CHECK(!wb_results_attr(&r, "shard")); /* the merge is no shard */
        const char *cl = wb_results_attr(&r, "command_line");
        CHECK(cl && !strncmp(cl, "wallbench merge ", 16));
        wb_results_free(&r);
    }
    CHECK(merge(out, s1, s2, msg, sizeof msg) != 0); /* the output exists: not overwritten */

    static const struct {
        shard_spec other;
        int rc;
        const char *says;
    } refusals[] = {
        {{"gpu.h5", "2/2", "NVIDIA L4", "f00d", "2,1", {20}, 1}, 2, "different GPU models"},
        {{"sweep.h5", "2/2", "NVIDIA H200", "beef", "2,1", {20}, 1}, 2, "different sweeps"},
        {{"twice.h5", "1/2", "NVIDIA H200", "f00d", "2,1", {30}, 1}, 2, "both shard 1/2"},
        {{"overlap.h5", "2/2", "NVIDIA H200", "f00d", "2,1", {11}, 1}, 2, "overlap"},
        {{"count.h5", "2/3", "NVIDIA H200", "f00d", "2,1,1", {20}, 1}, 2, "different shard counts"},
        {{"plain.h5", "", "NVIDIA H200", "f00d", "", {20}, 0}, 2, "not a shard"},
        {{"rev.h5", "2/2", "NVIDIA H200", "f00d", "2,1", {20}, 1, "def5678"}, 2, "different builds"},
    };
    for (size_t k = 0; k < sizeof refusals / sizeof refusals[0]; k++) {
        const char *o = shard_file(dir, &refusals[k].other), *bad_out = synth_path(dir, "refused.h5");
        unlink(bad_out);
        int rc = merge(bad_out, s1, o, msg, sizeof msg);
        CHECK(rc == refusals[k].rc);
        CHECK(strstr(msg, refusals[k].says) != NULL);
        CHECK(access(bad_out, F_OK) != 0); /* refused: nothing written */
        if (rc != refusals[k].rc || !strstr(msg, refusals[k].says)) fprintf(stderr, "merge said: %s\n", msg);
    }

    /* A lost shard: the others' points are written, the gap named, exit 1. */
    const char *t1 = shard_file(dir, &(shard_spec){"t1.h5", "1/3", "NVIDIA H200", "f00d", "1,1,2", {10}, 1});
    const char *t3 = shard_file(dir, &(shard_spec){"t3.h5", "3/3", "NVIDIA H200", "f00d", "1,1,2", {30}, 1});
    const char *part = synth_path(dir, "part.h5");
    unlink(part);
    CHECK(merge(part, t1, t3, msg, sizeof msg) == 1);
    CHECK(strstr(msg, "shard 2/3 missing") != NULL);
    CHECK(strstr(msg, "shard 3/3") && strstr(msg, "holds 1 of its 2 points"));
    CHECK(wb_results_open(part, &r, &e) == WB_OK);
    if (r.rows) {
        CHECK(r.nrows == 3);
        CHECK(wb_results_attr(&r, "merge_missing") && strstr(wb_results_attr(&r, "merge_missing"), "2/3"));
        wb_results_free(&r);
    }
}

int main(void) {
    wb_err e;
    if (wb_micro_families_add(&e) != WB_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    parser();
    char dir[] = "/tmp/wb_test_shard_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    for (int k = WB_SWEEP_TEST; k <= WB_SWEEP_QUICK; k++) {
        wb_run_point *pts = NULL;
        int n = 0;
        CHECK(sweep((wb_sweep_kind)k, &pts, &n) == WB_OK);
        if (!pts) continue;
        static const int counts[] = {1, 2, 3, 4, 8};
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            assignment(pts, n, counts[c]);
            select_all(pts, n, counts[c]);
        }
        if (k == WB_SWEEP_TEST) costs_from_file(dir, pts, n);
        free(pts);
    }
    merges(dir);
    synth_remove_dir(dir);
    return TEST_DONE();
}
