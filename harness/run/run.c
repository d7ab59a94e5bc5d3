/* run.c - `wallbench run`: options, every check of bad input (exit 2) before
 * the GPU check (exit 3), then the run's setup and teardown around Google
 * Benchmark, which calls the point steps of measure.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/dirs.h"
#include "harness/commands.h"
#include "harness/run/gbench.h"
#include "harness/base/gpus.h"
#include "harness/gpu/code.h"
#include "harness/base/metrics.h"
#include "harness/store/schema.h"
#include "harness/run/measure.h"
#include "harness/run/provenance.h"
#include "harness/run/run_opts.h"
#include "harness/run/shard.h"
#include "harness/run/summary.h"

static void run_usage(FILE *f) {
    fprintf(f,
            "usage: wallbench run [options] [--benchmark_* flags of Google Benchmark]\n"
            "  Measures every point of the chosen sweep: verified on poisoned outputs, counted\n"
            "  (CUPTI, own pass), timed (CUDA events, L2 flushed, median of the samples), stored row by\n"
            "  row in DIR/<UTC time>-<git rev>.h5. One line per point on stdout (name, median,\n"
            "  GB/s or G inst/s, noise, ETA); warnings and the run's summary on stderr.\n"
            "  --family NAME[,NAME]   families to run, or all (default all); see wallbench list\n"
            "  --variant NAME[,NAME]  keep only these variants\n"
            "  --sweep test|quick|full  sizes and axes (default quick)\n"
            "  --n N[,N]              replace the sweep's sizes (elements; 1000003, 2^28)\n"
            "  --reps R               exactly R timed samples per point; default: noise-driven, until the\n"
            "                         samples' relative stddev <= 0.5%% (>= 10 samples, >= 5 ms measured;\n"
            "                         at most 200 samples or 1 s; stops early on a noise plateau)\n"
            "  --warmup W             untimed launches before the samples (default 2)\n"
            "  --out DIR              results folder (default results; created if missing)\n"
            "  --profile NAME         GPU profile of harness/gpus.tsv (default: the device's)\n"
            "  --no-counters          skip the counter pass (counter columns stay NaN)\n"
            "  --counters all|roofline|core  the metrics counted: all (6 replay passes on the H200), the\n"
            "                         roofline's (no stall reasons, no L1/L2 throughput; 2 passes) or the\n"
            "                         core rows alone (instructions, DRAM/L2 sectors, atomics: 1 pass);\n"
            "                         default roofline for --sweep quick, all otherwise\n"
            "  --seed S               seed of the random inputs\n"
            "  --debug-launch         log grid, block, ILP and occupancy of every plan\n"
            "  --device D             CUDA device ordinal (default 0)\n"
            "  --shard I/N            measure shard I of N: 1/N of the points, balanced by cost,\n"
            "                         plus the ceilings; combine shards with wallbench merge\n"
            "  --shard-cost FILE.h5   balance by the set-up and pass times of a previous run\n"
            "                         (default: bytes; set-up times are in files of schema 3 on)\n"
            "  --plugin LIB.so        also load the families of this plugin (repeatable; see\n"
            "                         examples/wallbench-plugin); they run with --family NAME or all\n"
            "  --ncu                  for Nsight Compute: per point one timed launch inside an NVTX\n"
            "                         range named like the point, no warm-up, no counter pass:\n"
            "                         ncu --nvtx --nvtx-include '<point, each / as \\/>/' wallbench run --ncu\n"
            "  --summary-json FILE    also write one JSON object about the run (results file, points\n"
            "                         ok/skipped/failed, ceilings, time split, warnings)\n"
            "  Google Benchmark flags pass through: --benchmark_filter=REGEX (on the point\n"
            "  names of wallbench list --points), --benchmark_repetitions=K (one row per\n"
            "  repetition), --benchmark_format=json (Google Benchmark's JSON on stdout, with the\n"
            "  median and every sample as counters; the point lines move to stderr),\n"
            "  --benchmark_out=FILE, ...\n"
            "exit codes: 0 every point ok or skipped, 1 a point failed, 2 bad input, 3 no usable GPU\n");
}

/* Creates dir and its parents as needed (wb_make_dirs) and checks that the
 * run can write there: WB_ERR naming the folder otherwise. */
static int results_dir(const char *dir, wb_err *e) {
    if (wb_make_dirs(dir, e) != WB_OK) return WB_ERR;
    if (access(dir, W_OK | X_OK) != 0) return wb_fail(e, "results folder %s is not writable: %s", dir, strerror(errno));
    return WB_OK;
}

static void join_args(int argc, char **argv, char *out, size_t len) {
    size_t at = (size_t)snprintf(out, len, "wallbench");
    for (int i = 0; i < argc && at < len; i++) at += (size_t)snprintf(out + at, len - at, " %s", argv[i]);
}

static wb_roof roof_of(const wb_gpu_table *t, const char *profile, const char *name) {
    wb_roof r;
    const wb_gpu_ref *g = wb_gpu_table_find(t, profile);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.inst_gips = g ? g->inst_gips : NAN;
    r.dram_gbps = g ? g->dram_gbps : NAN;
    return r;
}

/* Checks the GPU against the build and the profile; exit code or 0.
 * *prof: the profile asked for, else the one the device name matches, else
 * *generic filled for it. code: what the device runs (wb_device_code). */
static int check_gpu(const wb_run_opts *o, const wb_gpu_table *gpus, wb_device *dev, const wb_gpu_ref **prof,
                     wb_gpu_ref *generic, char *code, size_t code_len) {
    wb_err e;
    int count = wb_device_count(&e);
    if (count <= 0) {
        fprintf(stderr, "wallbench run: no usable GPU: %s; %s\n", e.msg, WB_NO_GPU_HINT);
        return 3;
    }
    if (o->device >= count) {
        fprintf(stderr, "wallbench run: --device %d does not exist: %d CUDA device(s)\n", o->device, count);
        return 2;
    }
    if (wb_device_open(o->device, dev, &e) != WB_OK) {
        fprintf(stderr, "wallbench run: no usable GPU: %s\n", e.msg);
        return 3;
    }
    int cc = dev->cc_major * 10 + dev->cc_minor;
    if (wb_device_code(dev, code, code_len, &e) != WB_OK) {
        fprintf(stderr, "wallbench run: %s\n", e.msg);
        return 2;
    }
    if (*prof && (*prof)->arch != cc) {
        fprintf(stderr, "wallbench run: profile %s is for sm_%d but %s is sm_%d: leave --profile out (the device's profile is found by its name)\n",
                (*prof)->profile, (*prof)->arch, dev->name, cc);
        return 2;
    }
    /* Whole words of the device name decide ("H200" is no GH200, "L4" no
     * L40S); a GPU without a row runs as a generic profile named after it. */
    const wb_gpu_ref *match = wb_gpu_resolve(gpus, dev->name, cc, generic);
    if (!*prof) {
        *prof = match ? match : generic;
        if (!match) fprintf(stderr, "note: %s (sm_%d) has no row in harness/gpus.tsv: generic profile %s, %s\n", dev->name, cc, generic->profile, generic->source);
    } else if (match != *prof) {
        fprintf(stderr, "warning: profile %s (%s) on %s: same sm_%d, running; both names are recorded\n",
                (*prof)->profile, (*prof)->model, dev->name, cc);
    }
    return 0;
}

/* Where the run's time went: issue 3 bounds the counter pass at 3x the
 * timing pass, and a full sweep is budgeted from these. */
static void print_spent(const char *what, const wb_spent *b) {
    char line[320];
    wb_spent_line(b, what, line, sizeof line);
    fprintf(stderr, "wallbench run: %s\n", line);
}

static void report_spent(const wb_run *r) {
    char total[64], cost[200];
    for (int i = 0; i < r->nspent_by; i++) print_spent(r->spent_by[i].family, &r->spent_by[i]);
    snprintf(total, sizeof total, "%.0f s in all", r->t0_s > 0 ? wb_clock_s() - r->t0_s : 0.0);
    print_spent(total, &r->spent);
    if (r->counters) {
        wb_counters_cost(r->counters, cost, sizeof cost);
        fprintf(stderr, "wallbench run: counter pass: %s\n", cost);
    }
}

/* The file's /columns names the metric each counter column was counted
 * with on this chip, or why it is NaN (the set leaves it out, the chip lacks
 * it); the run says so once. */
static void counter_columns(const wb_counters_plan_info *p) {
    char buf[200], nan_cols[512] = "";
    int nan = 0;
    for (int i = 0; i < wb_n_metrics; i++) {
        wb_schema_metric_source(i, wb_counters_column_source(p, i, buf, sizeof buf));
        if (p->used[i]) continue;
        size_t at = strlen(nan_cols);
        snprintf(nan_cols + at, sizeof nan_cols - at, "%s%s", nan++ ? ", " : "", wb_metrics[i].column);
    }
    if (nan)
        fprintf(stderr, "warning: %d counter column(s) stay NaN in this run (the counter set leaves them out, or this "
                        "GPU has no such metric: the results file's /columns says which): %s\n", nan, nan_cols);
}

/* Everything after the checks; returns the exit code. */
static int measure_all(const wb_run_opts *o, const wb_gpu_table *gpus, const wb_gpu_ref *prof, const wb_device *dev,
                       const char *code, wb_run_point *pts, int npts, const wb_shard *shard, const char *cmdline) {
    wb_err e = {""};
    wb_run r;
    int rc = 1;
    char path[1200] = ""; /* the results file, once created */
    int64_t matched = 0;
    if (wb_run_init(&r, o->reps, o->warmup, &e) != WB_OK) goto fail;
    r.dev = *dev;
    r.seed = o->seed;
    for (int i = 0; i < npts; i++) {
        pts[i].run = &r;
        if (wb_gb_register(pts[i].name, o->reps > 0 ? o->reps : 1, &wb_measure_calls, &pts[i], &e) != WB_OK) goto fail;
    }
    unsigned char *selected = calloc(npts > 0 ? (size_t)npts : 1, 1);
    if (!selected) {
        wb_fail(&e, "out of host memory for %d points", npts);
        goto fail;
    }
    r.total = wb_gb_selected(selected, &e);
    for (int i = 0; i < npts; i++) {
        pts[i].index = i;
        pts[i].selected = selected[i];
        pts[i].counted = 0;
    }
    free(selected);
    r.pts = pts;
    r.npts = npts;
    if (r.total <= 0) {
        if (r.total == 0) wb_fail(&e, "no point matches --benchmark_filter (point names: wallbench list --points)");
        rc = 2;
        goto fail;
    }
    if (wb_gb_listing()) { /* --benchmark_list_tests: names only, no results file */
        rc = wb_gb_run(&matched, &e) == WB_OK ? 0 : 1;
        if (rc) goto fail;
        goto out;
    }
    r.ncu = o->ncu;
    if (!o->counters) {
        snprintf(r.counters_off, sizeof r.counters_off, "off (%s)", o->ncu ? "--ncu" : "--no-counters");
    } else if (wb_counters_open(dev, (wb_counter_set)o->counter_set, &r.counters, &e) != WB_OK) {
        r.counters = NULL;
        snprintf(r.counters_off, sizeof r.counters_off, "off: %.90s", e.msg);
        fprintf(stderr, "warning: hardware counters are off for this run: %s\n", e.msg);
    } else {
        counter_columns(wb_counters_session_plan(r.counters));
    }
    r.l4 = roof_of(gpus, "l4", "L4");
    r.gh200 = roof_of(gpus, "gh200", "GH200");
    if (wb_timing_open(dev, &r.timing, &e) != WB_OK) goto fail;
    char counters_on[64];
    snprintf(counters_on, sizeof counters_on, "cupti, %s set", wb_counter_set_name((wb_counter_set)o->counter_set));
    wb_provenance pv;
    wb_provenance_init(&pv);
    wb_provenance_run info = {cmdline, prof ? prof->profile : "none", prof ? prof->model : "none",
                              wb_sweep_kind_name(o->sweep), r.counters ? counters_on : r.counters_off, o->reps, o->seed};
    if (wb_provenance_create(o->out, &pv, dev, &info, &r.store, path, sizeof path, &e) != WB_OK) goto fail;
    /* What the kernels ran as: a compute_80 PTX build on an H200 is the code an A100 gets. */
    if (wb_store_attr_str(r.store, "cuda_archs", wb_build_archs(), &e) != WB_OK ||
        wb_store_attr_str(r.store, "kernel_code", code, &e) != WB_OK ||
        wb_store_attr_str(r.store, "profile_source", prof->source, &e) != WB_OK ||
        wb_shard_write_attrs(r.store, shard, &e) != WB_OK)
        goto fail;
    fprintf(stderr, "wallbench run: %lld benchmark calls of %d points (%s sweep) on %s (%s) -> %s\n", (long long)r.total,
            npts, wb_sweep_kind_name(o->sweep), dev->name, code, path);
    if (wb_gb_run(&matched, &e) != WB_OK || wb_run_rederive(&r, &e) != WB_OK) goto fail;
    /* From the first point to the last: what a shard costs, so that a merge
     * can say how the GPUs of a node or cluster shared the sweep. */
    if (r.t0_s > 0 && wb_store_attr_f64(r.store, "run_wall_s", wb_clock_s() - r.t0_s, &e) != WB_OK) goto fail;
    wb_store *s = r.store;
    r.store = NULL;
    if (wb_store_close(s, &e) != WB_OK) goto fail;
    report_spent(&r);
    if (r.contended)
        fprintf(stderr, "warning: %d point(s) were timed while other processes held the GPU (column other_processes > "
                        "0): their times may be contended; run them again alone\n", r.contended);
    fprintf(stderr, "wallbench run: %lld ok, %lld skipped, %lld failed%s%s; results in %s\n", (long long)r.ok,
            (long long)r.skipped, (long long)r.failed, r.broken ? "; " : "", r.broken ? r.broken_msg : "", path);
    rc = r.failed || r.broken ? 1 : 0;
    e.msg[0] = '\0';
    goto out;
fail:
    fprintf(stderr, "wallbench run: %s\n", e.msg);
out:
    if (r.store) {
        wb_err ignored;
        wb_store_close(r.store, &ignored);
    }
    /* Also after a failure (its message is the error), once the file is closed. */
    if (o->summary_json && !wb_gb_listing()) {
        wb_err se;
        if (wb_summary_write(o->summary_json, &r, path, cmdline, rc, e.msg, &se) != WB_OK) {
            fprintf(stderr, "wallbench run: %s\n", se.msg);
            if (!rc) rc = 1;
        }
    }
    wb_run_free(&r);
    wb_timing_close(&r.timing);
    if (r.counters) wb_counters_close(r.counters);
    wb_gb_shutdown();
    return rc;
}

int wb_cmd_run(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            run_usage(stdout);
            return 0;
        }
    char cmdline[4096];
    join_args(argc, argv, cmdline, sizeof cmdline);
    wb_err e;
    if (wb_gb_init(&argc, argv, &e) != WB_OK) {
        fprintf(stderr, "wallbench run: %s\n", e.msg);
        return 2;
    }
    wb_run_opts o;
    wb_selection sel;
    wb_gpu_table gpus = {NULL, 0};
    const wb_gpu_ref *prof = NULL;
    int prc = wb_run_opts_parse("run", argc, argv, 1, &o);
    if (prc == 1) return run_usage(stdout), 0;
    if (prc || wb_run_opts_plugins("run", &o)) return 2;
    int rc = 2;
    if (wb_selection_parse(o.family, o.variant, o.sizes, &sel, &e) != WB_OK ||
        wb_gpu_table_load(NULL, &gpus, &e) != WB_OK)
        goto bad;
    if (o.profile && strcmp(o.profile, "auto") != 0) {
        char names[256];
        prof = wb_gpu_table_find(&gpus, o.profile);
        if (!prof) {
            wb_fail(&e, "unknown GPU profile '%s'; valid: auto %s", o.profile, wb_gpu_table_profiles(&gpus, names, sizeof names));
            goto bad;
        }
        if (prof->arch < 0) { /* a row for roofline --with and project --to, nothing to run on */
            wb_fail(&e, "GPU profile '%s' is a row of harness/gpus.tsv without an architecture to build for "
                        "(roofline --with and project --to take it); profiles to run: auto %s",
                    o.profile, wb_gpu_table_profiles(&gpus, names, sizeof names));
            goto bad;
        }
    }
    if (o.shard_cost && !o.shard_count) {
        wb_fail(&e, "--shard-cost %s needs --shard I/N", o.shard_cost);
        goto bad;
    }
    if (results_dir(o.out, &e) != WB_OK) goto bad;

    wb_device dev;
    wb_gpu_ref generic;
    char code[128] = "";
    if ((rc = check_gpu(&o, &gpus, &dev, &prof, &generic, code, sizeof code)) != 0) goto done;
    wb_run_point *pts = NULL;
    int npts = 0;
    if (wb_sweep_points(&sel, o.sweep, &dev, &pts, &npts, &e) != WB_OK) goto bad;
    if (wb_sweep_check_sizes(&sel, pts, npts, &dev, &e) != WB_OK) {
        free(pts);
        goto bad;
    }
    wb_shard shard = {o.shard_index, o.shard_count};
    if (wb_shard_select(pts, &npts, o.shard_cost, &shard, &e) != WB_OK) {
        free(pts);
        goto bad;
    }
    if (shard.count)
        fprintf(stderr, "wallbench run: shard %d/%d: %d points (%d ceilings in every shard), balanced by %s\n",
                shard.index, shard.count, npts, shard.ceilings, shard.cost_source);
    wb_launch_debug = o.debug_launch;
    rc = measure_all(&o, &gpus, prof, &dev, code, pts, npts, &shard, cmdline);
    free(pts);
    goto done;
bad:
    fprintf(stderr, "wallbench run: %s\n", e.msg);
    rc = 2;
done:
    wb_gpu_table_free(&gpus);
    return rc;
}
