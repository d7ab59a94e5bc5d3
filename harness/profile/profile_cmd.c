/* profile_cmd.c - `wallbench profile [options] -- CMD [ARGS]`: any CUDA
 * program's kernels on the instruction roofline (seed 000's Valk). Runs the
 * program twice with the injection library (inject/inject.h): a timing pass
 * and a counter pass, reads their raw files (raw.h), matches them launch by
 * launch (match.h), sums kernels and NVTX ranges against the roof
 * (profile_agg.h), and writes one HDF5 file (profile_h5.h). The roof comes
 * from a short ceiling run of the suite in the same command, or from a
 * results file. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/clock.h"
#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/base/roof_contract.h"
#include "harness/base/profile_agg.h"
#include "harness/commands.h"
#include "harness/gpu/device.h"
#include "harness/profile/attribute.h"
#include "harness/profile/child.h"
#include "harness/profile/go_pipe.h"
#include "harness/profile/inject/rotation.h"
#include "harness/profile/match.h"
#include "harness/profile/profile_opts.h"
#include "harness/profile/rotation_yield.h"
#include "harness/profile/sampler.h"
#include "harness/profile/watch.h"
#include "harness/tools/ceilings.h"
#include "harness/run/provenance.h"
#include "harness/store/profile_h5.h"
#include "harness/store/store_h5.h"

/* The library next to this binary (the build puts both in one folder), or $WB_INJECT_LIB. */
static int inject_path(char *out, size_t len, wb_err *e) {
    const char *env = getenv("WB_INJECT_LIB");
    if (env && *env) snprintf(out, len, "%s", env);
    else {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) return wb_fail(e, "readlink /proc/self/exe: %s", strerror(errno));
        self[n] = '\0';
        snprintf(out, len, "%s/libwallbench_inject.so", dirname(self));
    }
    if (access(out, R_OK) != 0)
        return wb_fail(e, "the injection library %s is missing (build it: cmake --build <build> --target wallbench_inject)", out);
    return WB_OK;
}

static int self_path(char *out, size_t len) {
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0) return -1;
    out[n] = '\0';
    return 0;
}

/* The ceiling variants a profile measures when not given a file. */
#define CEILINGS_RUN WB_ROOF_DRAM_VARIANT "," WB_ROOF_INST_VARIANT "," WB_ROOF_L2_VARIANT "," WB_ROOF_ATOMIC_VARIANT

/* The roof: measured now by the suite's ceiling family (four variants, quick sizes), or read;
 * *child_exit: the ceiling run's exit code where it ran. */
static int ceilings(const wb_profile_opts *o, const char *rawdir, wb_profile *p, wb_roof *roof, int *child_exit, wb_err *e) {
    roof->inst_gips = roof->dram_gbps = NAN;
    snprintf(roof->name, sizeof roof->name, "measured");
    if (o->no_ceilings)
        return wb_profile_attr_str(p, "ceilings_source", o->no_ceilings == 2 ? "none (--from-raw without --ceilings-from)"
                                                                             : "none (--no-ceilings)", e);
    char file[4700] = "";
    if (o->ceilings_from) {
        snprintf(file, sizeof file, "%s", o->ceilings_from);
    } else {
        char self[4096], outdir[4200];
        if (self_path(self, sizeof self) != 0) return wb_fail(e, "readlink /proc/self/exe: %s", strerror(errno));
        snprintf(outdir, sizeof outdir, "%s/ceilings", rawdir);
        /* The roof's two ceilings, the L2's and the global atomics' (the limiter, report's), named
         * by the roof contract (the harness names no family elsewhere). */
        char *argv[] = {self, "run", "--family", WB_CEILING_FAMILY, "--variant", CEILINGS_RUN, "--sweep", "quick", "--out", outdir, NULL};
        fprintf(stderr, "wallbench profile: measuring this GPU's roof (%s family: %s)\n", WB_CEILING_FAMILY, CEILINGS_RUN);
        wb_child_result cr;
        if (wb_child_run(argv, NULL, 0, NULL, &cr, e) != WB_OK) return WB_ERR;
        *child_exit = cr.exit_code;
        if (cr.exit_code == 3) /* run's "no usable GPU": the program needs the GPU too, so no option helps here */
            return wb_fail(e, "no usable GPU: the ceiling run (wallbench run --family %s) found none (exit 3); wallbench "
                              "profile runs your program's kernels on a GPU, so it needs one: run it where "
                              "`wallbench info` finds a GPU", WB_CEILING_FAMILY);
        if (cr.exit_code != 0)
            return wb_fail(e, "the ceiling run %s (exit %d); give a roof with --ceilings-from FILE or --no-ceilings",
                           cr.how, cr.exit_code);
        DIR *d = opendir(outdir);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (strstr(de->d_name, ".h5")) snprintf(file, sizeof file, "%s/%s", outdir, de->d_name);
        if (d) closedir(d);
        if (!file[0]) return wb_fail(e, "the ceiling run wrote no results file in %s", outdir);
        if (wb_profile_attr_num(p, "ceilings_run_s", cr.wall_s, e) != WB_OK) return WB_ERR;
    }
    wb_results r;
    if (wb_results_open(file, &r, e) != WB_OK) return WB_ERR;
    roof->inst_gips = wb_results_attr_f64(&r, "ceiling_inst_issue_gips");
    roof->dram_gbps = wb_results_attr_f64(&r, "ceiling_dram_read_gbps");
    const char *uuid = wb_results_attr(&r, "gpu_uuid"), *name = wb_results_attr(&r, "gpu_name");
    char src[1200];
    snprintf(src, sizeof src, "%s: %s (%s, %s)", o->ceilings_from ? "results file" : "measured in this command",
             o->ceilings_from ? o->ceilings_from : "wallbench run --family " WB_CEILING_FAMILY " --variant " CEILINGS_RUN " --sweep quick",
             name ? name : "?", uuid ? uuid : "?");
    int rc = wb_profile_attr_str(p, "ceilings_source", src, e);
    if (rc == WB_OK && uuid) rc = wb_profile_attr_str(p, "ceilings_gpu_uuid", uuid, e);
    static const char *const copied[] = {"gpu_name", "gpu_uuid", "compute_capability", "driver_version",
                                         "cuda_runtime_version", "mem_clock_mhz", "l2_bytes", "nvml_driver"};
    for (size_t i = 0; rc == WB_OK && !o->ceilings_from && i < sizeof copied / sizeof copied[0]; i++) {
        const char *v = wb_results_attr(&r, copied[i]);
        if (v) rc = wb_profile_attr_str(p, copied[i], v, e);
    }
    const double l2 = wb_ceiling_value(&r, WB_ROOF_L2_VARIANT, "gbps"); /* NaN without one: no L2 limiter */
    wb_gpu_view v; /* the atomics' ceiling at its fastest table; NaN without one: no atomics limiter */
    wb_gpu_view_init(&r, NULL, &v);
    wb_results_free(&r);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "ceiling_l2_read_gbps", l2, e);
    char attr[64];
    if (rc == WB_OK) rc = wb_profile_attr_num(p, wb_ceiling_attr(WB_ROOF_ATOMIC_VARIANT, "greqs", attr, sizeof attr), v.atomic_greqs, e);
    /* 1: that rate is the L2's counted ATOM + RED requests, the kernels' unit; 0: the ceiling's adds */
    if (rc == WB_OK && isfinite(v.atomic_greqs)) rc = wb_profile_attr_num(p, "ceiling_atom_global_counted", v.atomic_counted, e);
    if (rc == WB_OK && !(isfinite(roof->inst_gips) && isfinite(roof->dram_gbps)))
        fprintf(stderr, "wallbench profile: warning: %s has no dram_read/inst_issue ceiling: no measured roof\n", file);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "ceiling_inst_issue_gips", roof->inst_gips, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "ceiling_dram_read_gbps", roof->dram_gbps, e);
    return rc;
}

/* 1: dir holds nothing but . and .. (or cannot be read: then mkdir's checks said enough). */
static int dir_is_empty(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 1;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) empty = 0;
    closedir(d);
    return empty;
}

/* nftw's step removing the scratch folder, deepest first; links are removed, not followed. */
static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The raw files a pass left (one per process that initialised CUDA). */
static int read_pass(const char *rawdir, const char *pass, wb_raw **out, int *n, wb_err *e) {
    *out = NULL, *n = 0;
    DIR *d = opendir(rawdir);
    if (!d) return wb_fail(e, "%s: %s", rawdir, strerror(errno));
    struct dirent *de;
    int rc = WB_OK, cap = 0;
    size_t plen = strlen(pass);
    while (rc == WB_OK && (de = readdir(d))) {
        if (strncmp(de->d_name, pass, plen) || de->d_name[plen] != '.' || !strstr(de->d_name, ".tsv")) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 4;
            wb_raw *g = realloc(*out, (size_t)cap * sizeof *g);
            if (!g) { rc = wb_fail(e, "out of host memory"); break; }
            *out = g;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", rawdir, de->d_name);
        if ((rc = wb_raw_read(path, &(*out)[*n], e)) == WB_OK) (*n)++;
    }
    closedir(d);
    return rc;
}

static void free_pass(wb_raw *r, int n) {
    for (int i = 0; i < n; i++) wb_raw_free(&r[i]);
    free(r);
}

/* Every E line a pass wrote, once per distinct message, as a warning. */
static void report_errors(const char *pass, const wb_raw *r, int n) {
    for (int i = 0; i < n; i++) {
        /* no "# end": killed past any handler (SIGKILL, the OOM killer) or the file was cut */
        if (!r[i].ended)
            fprintf(stderr, "wallbench profile: warning: %s pass (pid %d): its file ends without '# end' (killed, or "
                            "the file cut): what it held after its last flush is missing\n", pass, r[i].pid);
        else if (r[i].signal)
            fprintf(stderr, "wallbench profile: %s pass (pid %d): saved at signal %d\n", pass, r[i].pid, r[i].signal);
        if (r[i].untimed_records)
            fprintf(stderr, "wallbench profile: warning: %s pass (pid %d): %d kernel record(s) ending before they start "
                            "(cut off by CUPTI): those kernels are untimed\n", pass, r[i].pid, r[i].untimed_records);
        for (int k = 0; k < r[i].nerrors; k++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++) seen = !strcmp(r[i].errors[j], r[i].errors[k]);
            if (!seen) fprintf(stderr, "wallbench profile: %s pass (pid %d): %s\n", pass, r[i].pid, r[i].errors[k]);
        }
    }
}

/* --sample: PM sampling is set up while the program starts (a Python program imports for
 * seconds before its first CUDA call), and the program's first CUDA call waits for it
 * (go_pipe.h). The pipe's end is closed when sampling runs or failed to: the program goes on
 * either way. */
typedef struct sample_start {
    const wb_profile_opts *o;
    char path[4200];
    wb_sampler *sampler;
    int go[2];         /* the program waits on go[0] until go[1] is closed */
    double setup_s;
} sample_start;

static void start_sampler(void *arg) {
    sample_start *ss = arg;
    double t0 = wb_clock_s();
    wb_err se = {""};
    if (wb_sampler_start(ss->path, ss->o->sample_device, 1000LL * ss->o->sample_us, &ss->sampler, &se) != WB_OK)
        fprintf(stderr, "wallbench profile: warning: no sampled timeline: %s\n", se.msg);
    ss->setup_s = wb_clock_s() - t0;
    close(ss->go[1]);
    ss->go[1] = -1;
}

/* sampled: --sample's sampler, stopped, its context still being released (wb_sampler_free). */
static int run_pass(const wb_profile_opts *o, const char *pass, const char *rawdir, const char *lib,
                    wb_child_result *cr, double *sample_setup_s, wb_sampler **sampled, wb_err *e) {
    static char env[11][4200];
    int n = 0;
    /* The paths fit (main checks lib and rawdir against 4096): no variable below is cut. */
    snprintf(env[n++], sizeof env[0], "CUDA_INJECTION64_PATH=%s", lib);
    snprintf(env[n++], sizeof env[0], "NVTX_INJECTION64_PATH=%s", lib); /* NVTX ranges: inject/nvtx.c */
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_PASS=%s", pass);
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_RAW=%s/%s", rawdir, pass);
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_CACHE=%s", o->cache_all ? "all" : "none");
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_BATCH=%d", o->batch);
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_SET=%s", o->counter_set);
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_RANGES=%s", o->ranges);
    snprintf(env[n++], sizeof env[0], "WB_PROFILE_ROTATE=%d", o->rotate);
    sample_start ss = {.o = o, .go = {-1, -1}, .setup_s = -1};
    wb_child_hook hook = {-1, start_sampler, &ss};
    int sampling = o->sample_us && !strcmp(pass, "timing");
    if (sampling) {
        snprintf(ss.path, sizeof ss.path, "%s/sampling.%d.tsv", rawdir, (int)getpid());
        if (wb_go_pipe_open(ss.go, env[n++], sizeof env[0]) != 0) return wb_fail(e, "--sample: pipe2: %s", strerror(errno));
        hook.keep_fd = ss.go[0];
    }
    char *ptrs[11];
    for (int i = 0; i < n; i++) ptrs[i] = env[i];
    fprintf(stderr, "wallbench profile: %s pass: %s\n", pass, o->argv[0]);
    char watch_path[4200];
    snprintf(watch_path, sizeof watch_path, "%s/watch.%s.tsv", rawdir, pass);
    wb_err we = {""};
    wb_watch *watch = wb_watch_start(watch_path, pass, &we); /* throttling, other processes: watch.h */
    if (!watch) fprintf(stderr, "wallbench profile: warning: %s; the %s pass is not watched\n", we.msg, pass);
    int rc = wb_child_run(o->argv, ptrs, n, sampling ? &hook : NULL, cr, e);
    wb_watch_stop(watch);
    if (ss.go[1] >= 0) close(ss.go[1]); /* fork failed: the hook never ran */
    if (ss.go[0] >= 0) close(ss.go[0]);
    wb_err se = {""};
    double t0 = wb_clock_s();
    if (wb_sampler_stop(ss.sampler, &se) != WB_OK) fprintf(stderr, "wallbench profile: warning: %s\n", se.msg);
    if (sampling) *sampled = ss.sampler; /* the counter pass after it (--pass both) samples nothing: kept */
    if (sampling && ss.setup_s >= 0) {
        *sample_setup_s = ss.setup_s;
        double split[3];
        wb_sampler_stop_split(ss.sampler, split);
        fprintf(stderr, "wallbench profile: sampling was set up in %.2f s while the program started, stopped in %.2f s "
                        "after it (the decode thread's end %.2f s, CUPTI's Stop %.2f s, the last decode %.2f s)\n",
                ss.setup_s, wb_clock_s() - t0, split[0], split[1], split[2]);
    }
    if (rc != WB_OK) return WB_ERR;
    fprintf(stderr, "wallbench profile: %s pass: the program %s after %.2f s\n", pass, cr->how, cr->wall_s);
    return WB_OK;
}

/* The command as execvp will find it: a path, or a name on PATH; checked before any GPU work. */
static int command_exists(const char *cmd) {
    if (strchr(cmd, '/')) return access(cmd, X_OK) == 0;
    const char *path = getenv("PATH");
    char dir[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, cmd);
        if (n && access(dir, X_OK) == 0) return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

static void join_argv(char *const *argv, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; argv[i] && used + 2 < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", argv[i]);
}

/* The counter pass's user ranges (U lines: --ranges nvtx, every:N) as /counted_ranges, in order. */
static int spans_from_raw(const wb_raw *craw, int nc, wb_profile *p, wb_err *e) {
    int n = 0;
    for (int i = 0; i < nc; i++) n += craw[i].nuranges;
    if (!n) return WB_OK;
    if (!(p->spans = calloc((size_t)n, sizeof *p->spans))) return wb_fail(e, "counted ranges: out of host memory");
    for (int i = 0; i < nc; i++)
        for (int k = 0; k < craw[i].nuranges; k++) {
            const wb_raw_urange *u = &craw[i].uranges[k];
            wb_prof_span *x = &p->spans[p->nspans++];
            snprintf(x->name, sizeof x->name, "%s", wb_raw_str(&craw[i], u->name));
            x->first_seq = u->first_seq, x->last_seq = u->last_seq, x->launches = u->launches;
            wb_counters_clear(&x->c, "");
            for (int m = 0; m < WB_METRICS_MAX; m++) x->c.v[m] = u->v[m];
        }
    return WB_OK;
}

/* --sample's cost to the program: the profiler's set-up of PM sampling while the program started
 * (-1: not this run) and how long the program's first CUDA call waited for it (summed over its
 * processes; the raw files keep it, so a --from-raw rebuild does too). */
static int sampling_cost(double setup_s, const wb_raw *traw, int nt, wb_profile *p, wb_err *e) {
    double wait_s = 0;
    int waited = 0;
    for (int i = 0; i < nt; i++)
        if (traw[i].go_wait_s >= 0) wait_s += traw[i].go_wait_s, waited = 1;
    int rc = setup_s >= 0 ? wb_profile_attr_num(p, "sample_setup_s", setup_s, e) : WB_OK;
    if (rc == WB_OK && waited) rc = wb_profile_attr_num(p, "sample_wait_s", wait_s, e);
    if (rc == WB_OK && waited)
        fprintf(stderr, "wallbench profile: the program's first CUDA call waited %.2f s for sampling to start\n", wait_s);
    return rc;
}

/* The sampled timeline's attributes: its interval, samples, gaps and idle share (--sample). */
static int sampling_attrs(const wb_raw *sraw, int ns, const wb_sample_stats *st, wb_profile *p, wb_err *e) {
    long long interval = 0;
    for (int i = 0; i < ns; i++)
        if (sraw[i].sample_ns) interval = sraw[i].sample_ns;
    if (!interval) return WB_OK;
    int rc = wb_profile_attr_num(p, "sample_interval_ns", (double)interval, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "samples", (double)st->samples, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "sample_gaps", (double)st->gaps, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "sample_gap_ms", st->gap_ms, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "sample_idle_pct", st->idle_pct, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "launches_sampled", (double)st->attributed, e);
    if (rc == WB_OK && st->gaps)
        fprintf(stderr, "wallbench profile: the sampled timeline has %lld gap(s), %.3f ms unsampled (samples lost)\n",
                (long long)st->gaps, st->gap_ms);
    return rc;
}

/* Provenance: what ran, where, how the passes ended and what they cost. */
/* Adds v to the numeric attribute name (0 where the file has none yet): summed over a pass's processes. */
static int attr_add(wb_profile *p, const char *name, double v, wb_err *e) {
    return wb_profile_attr_num(p, name, v + (wb_profile_attr(p, name) ? wb_profile_attr_f64(p, name) : 0.0), e);
}

static int provenance(const wb_profile_opts *o, int argc, char **argv, const wb_child_result *t,
                      const wb_child_result *c, const wb_match_stats *st, const wb_raw *traw, int nt,
                      const wb_raw *craw, int nc, wb_profile *p, wb_err *e) {
    char buf[4096];
    wb_provenance pv;
    wb_provenance_init(&pv);
    (void)argc;                                   /* argv ends with its NULL */
    strcpy(buf, "wallbench ");                    /* argv[0] is the subcommand */
    join_argv(argv, buf + 10, sizeof buf - 10);
    int rc = wb_profile_attr_str(p, "command_line", buf, e);
    join_argv(o->argv, buf, sizeof buf);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "program_command", buf, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "git_revision", pv.git_revision, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "utc_time", pv.utc_time, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "passes", o->from_raw ? "rebuilt from raw files" : o->pass, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "cache_control", o->cache_all ? "all: the L2 flushed before each counted kernel (ncu --cache-control all)" : "none: caches as the program left them (ncu --cache-control none)", e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "match", st->note, e);
    if (rc == WB_OK) rc = wb_profile_attr_str(p, "selection", o->selection_text, e);
    if (rc == WB_OK && t->wall_s > 0) rc = wb_profile_attr_num(p, "timing_pass_s", t->wall_s, e);
    if (rc == WB_OK && t->wall_s > 0) rc = wb_profile_attr_str(p, "timing_pass_exit", t->how, e);
    if (rc == WB_OK && c->wall_s > 0) rc = wb_profile_attr_num(p, "counter_pass_s", c->wall_s, e);
    if (rc == WB_OK && c->wall_s > 0) rc = wb_profile_attr_str(p, "counter_pass_exit", c->how, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "launches_timed", (double)st->timed, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "launches_counted", (double)st->counted, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "launches_not_counted", (double)st->not_counted, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "graph_nodes_not_counted", (double)st->graph_nodes, e);
    if (rc == WB_OK) rc = wb_profile_attr_num(p, "processes", st->processes, e);
    const wb_raw *dev_src = nc ? craw : NULL; /* the GPU: the counter pass's line, else the timing pass's */
    for (int i = 0; !dev_src && i < nt; i++)
        if (traw[i].device[0]) dev_src = &traw[i];
    for (int i = 0; rc == WB_OK && dev_src && i < (dev_src == craw ? nc : 1); i++) {
        if (dev_src[i].device[0]) rc = wb_profile_attr_str(p, "counted_device", dev_src[i].device, e);
        /* "ordinal name uuid cc sms driver chip": the GPU, where no ceiling file named it */
        char dev[512], *f[7] = {NULL};
        snprintf(dev, sizeof dev, "%s", dev_src[i].device);
        int nf = 0;
        for (char *t = dev; t && nf < 7; nf++) {
            f[nf] = t;
            if ((t = strchr(t, '\t'))) *t++ = '\0';
        }
        static const char *const dev_attr[7] = {"device_ordinal", "gpu_name", "gpu_uuid", "compute_capability", "sms",
                                                "driver_version", "chip"};
        for (int k = 1; rc == WB_OK && nf == 7 && k < 7; k++)
            if (!wb_profile_attr(p, dev_attr[k])) rc = wb_profile_attr_str(p, dev_attr[k], f[k], e);
        if (dev_src != craw) continue;
        if (rc == WB_OK && craw[i].passes) rc = wb_profile_attr_num(p, "replay_passes", craw[i].passes, e);
        if (rc == WB_OK && craw[i].mode[0]) rc = wb_profile_attr_str(p, "counter_mode", craw[i].mode, e);
        /* Where the counter pass's time went (summed over its processes). */
        static const char *const cost_names[] = {"counter_pass_in_counted_launches_s", "counter_pass_decode_s",
                                                 "counter_pass_l2_flush_s", "counter_pass_config_s",
                                                 "counter_pass_start_s"};
        for (int k = 0; rc == WB_OK && k < 5; k++) rc = attr_add(p, cost_names[k], craw[i].cost[k], e);
        /* --rotate: its groups and the launches a group is held at least (WB_PROFILE_ROTATE_HOLD), one
         * value each; summed over the processes, the launches replayed (0 since rotation stopped
         * replaying first launches; the files before it have them) and counted with one group in one
         * pass, the kernel shapes, and since 2026-12-05 the changes of group and the profiler objects
         * made again at a change (WB_PROFILE_ROTATE_NEW_OBJECT) with the seconds they took */
        static const char *const rot_names[] = {"counter_rotation_groups", "launches_counted_replayed",
                                                "launches_counted_one_pass", "counter_rotation_shapes",
                                                "counter_rotation_changes", "counter_rotation_hold",
                                                "counter_rotation_new_objects"};
        for (int k = 0; rc == WB_OK && craw[i].rotation[0] && k < 7; k++)
            rc = k == 0 || k == 5 ? wb_profile_attr_num(p, rot_names[k], (double)craw[i].rotation[k], e)
                                  : attr_add(p, rot_names[k], (double)craw[i].rotation[k], e);
        if (rc == WB_OK && craw[i].rotation[0]) rc = attr_add(p, "counter_pass_new_object_s", craw[i].rotation_new_object_s, e);
    }
    static const char *const env_names[] = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_LAUNCH_BLOCKING",
                                            "PYTORCH_CUDA_ALLOC_CONF", "CUPY_CACHE_DIR", "HOSTNAME"};
    for (size_t i = 0; rc == WB_OK && i < sizeof env_names / sizeof env_names[0]; i++) {
        const char *v = getenv(env_names[i]);
        char name[64];
        snprintf(name, sizeof name, "env_%s", env_names[i]);
        if (v) rc = wb_profile_attr_str(p, name, v, e);
    }
    return rc;
}

/* --rotate: which of the groups' columns came back, from this run's files (rotation_yield.h). */
static int rotation_columns(const wb_raw *craw, int nc, wb_profile *p, wb_err *e) {
    wb_rotation_yield y = {0};
    for (int i = 0; i < nc; i++) wb_rotation_yield_add(&y, &craw[i]);
    char attr[sizeof p->attrs[0].value], line[1024];
    if (!wb_rotation_yield_text(&y, attr, sizeof attr, line, sizeof line)) return WB_OK;
    fprintf(stderr, "wallbench profile: %s\n", line);
    return wb_profile_attr_str(p, "counter_rotation_columns", attr, e);
}

/* The GPU's UUID in a raw file's "# device" line (its third field), "" without one. */
static void device_uuid(const wb_raw *r, char *uuid, size_t len) {
    const char *f = r->device;
    for (int k = 0; k < 2 && f; k++) f = strchr(f, '\t'), f = f ? f + 1 : NULL;
    snprintf(uuid, len, "%.*s", f ? (int)strcspn(f, "\t") : 0, f ? f : "");
}

/* Each pass's board while it ran (watch.h), for every GPU its raw files name: <pass>_pass_board
 * in the file ("disturbed", "undisturbed" or "not checked" first; with several GPUs, each after
 * its UUID), and a warning when disturbed. The profile's own processes: the pass's raw files'
 * pids, and the profiler once it sampled (--sample: its context lives until the file is written,
 * through a counter pass after it; its pid is in the watch file); by count, where NVML's pids are
 * another namespace's: the raw files naming the GPU, and the profiler's one if it sampled. */
static int board_verdicts(const char *rawdir, const wb_raw *traw, int nt, const wb_raw *craw, int nc, int sampled,
                          wb_profile *p, wb_err *e) {
    const struct { const char *pass, *attr; const wb_raw *r; int n, own; } passes[] = {
        {"timing", "timing_pass_board", traw, nt, sampled}, {"counters", "counter_pass_board", craw, nc, sampled}};
    int rc = WB_OK;
    for (int k = 0; rc == WB_OK && k < 2; k++) {
        const int n = passes[k].n;
        if (!n) continue;
        int *pids = calloc((size_t)n, sizeof *pids);
        char (*uuid)[48] = calloc((size_t)n, sizeof *uuid);
        if (!pids || !uuid) {
            free(pids), free(uuid);
            return wb_fail(e, "board verdicts: out of host memory");
        }
        for (int i = 0; i < n; i++) pids[i] = passes[k].r[i].pid, device_uuid(&passes[k].r[i], uuid[i], sizeof uuid[i]);
        char path[4200], each[1000] = "", one[400], all[1100];
        snprintf(path, sizeof path, "%s/watch.%s.tsv", rawdir, passes[k].pass);
        int any_disturbed = 0, any_unchecked = 0, gpus = 0;
        for (int i = 0; i < n; i++) {
            int first = uuid[i][0] != '\0';
            for (int j = 0; first && j < i; j++) first = strcmp(uuid[j], uuid[i]) != 0;
            if (!first) continue;
            int ours = passes[k].own;
            for (int j = 0; j < n; j++) ours += !strcmp(uuid[j], uuid[i]);
            int v = wb_watch_verdict(path, uuid[i], pids, n, ours, one, sizeof one);
            any_disturbed |= v == 1, any_unchecked |= v < 0;
            size_t used = strlen(each);
            snprintf(each + used, sizeof each - used, "%s%s %s", used ? "; " : "", uuid[i], one);
            if (!gpus++) snprintf(all, sizeof all, "%s", one);
            if (v == 1)
                fprintf(stderr, "wallbench profile: warning: the %s pass on %s: %s: its times and counts may be off\n",
                        passes[k].pass, uuid[i], one);
        }
        if (!gpus) snprintf(all, sizeof all, "not checked: the pass's files name no GPU");
        else if (gpus > 1) /* the state word first, then each GPU's verdict after its UUID */
            snprintf(all, sizeof all, "%s over %d GPUs: %s",
                     any_disturbed ? "disturbed" : any_unchecked ? "not checked" : "undisturbed", gpus, each);
        free(pids), free(uuid);
        rc = wb_profile_attr_str(p, passes[k].attr, all, e);
    }
    return rc;
}

/* The console's last lines: what is in the file and what to run next. */
static void summary(const wb_profile *p, const char *path) {
    int order[5] = {-1, -1, -1, -1, -1};
    for (int k = 0; k < p->nkernels; k++) /* the five kernels with the most time */
        for (int s = 0; s < 5; s++)
            if (order[s] < 0 || p->kernels[k].total_ms > p->kernels[order[s]].total_ms) {
                memmove(order + s + 1, order + s, (size_t)(4 - s) * sizeof *order);
                order[s] = k;
                break;
            }
    fprintf(stdout, "%-48s %8s %7s %6s %10s %-8s\n", "kernel (top 5 by time)", "launches", "ms", "share", "inst/sect",
            "bound");
    for (int s = 0; s < 5 && order[s] >= 0; s++) {
        const wb_prof_kernel *k = &p->kernels[order[s]];
        fprintf(stdout, "%-48.48s %8lld %7.3f %5.1f%% %10.2f %-8s\n", k->demangled, (long long)k->launches,
                k->total_ms, k->share_pct, k->c.inst_per_sector, k->c.bound[0] ? k->c.bound : "-");
    }
    /* how far one launch of a kernel shape stands for the others: what --rotate's columns and a
     * user reading one launch assume */
    const int si = wb_spread_index("inst"), sr = wb_spread_index("dram_sectors_read");
    int twice = 0, inst_same = 0, reads_same = 0;
    for (int k = 0; k < p->nkernels; k++) {
        const wb_prof_kernel *x = &p->kernels[k];
        if (!isfinite(x->spread_pct[si])) continue;
        twice++;
        inst_same += x->spread_pct[si] <= 1.0;
        reads_same += isfinite(x->spread_pct[sr]) && x->spread_pct[sr] <= 1.0;
    }
    if (twice)
        fprintf(stdout, "\nlaunch to launch: %d kernel shape(s) counted twice or more; %d kept their instructions "
                        "within 1%% (largest - smallest over the mean), %d their DRAM reads (/kernels: *_spread_pct)\n",
                twice, inst_same, reads_same);
    fprintf(stdout,
            "\nwrote %s\nnext: wallbench report %s\n      wallbench roofline %s\n      wallbench project --to l4 %s\n"
            "      make plots RESULTS=%s   (fig4: the kernels on the roofline)\n",
            path, path, path, path, path);
}

static int default_output(const wb_profile_opts *o, char *out, size_t len, wb_err *e) {
    if (o->output) {
        snprintf(out, len, "%s", o->output);
    } else {
        if (mkdir("results", 0777) != 0 && errno != EEXIST) return wb_fail(e, "mkdir results: %s", strerror(errno));
        if (mkdir("results/profiles", 0777) != 0 && errno != EEXIST)
            return wb_fail(e, "mkdir results/profiles: %s", strerror(errno));
        char prog[256]; /* --from-raw: the raw folder names it (the program's command line is not in the files) */
        snprintf(prog, sizeof prog, "%s", o->from_raw ? o->from_raw : o->argv[0]);
        for (int i = 1; !o->from_raw && o->argv[i] && !strcmp(basename(prog), "python3"); i++) /* a script names the program better */
            if (o->argv[i][0] != '-') {
                snprintf(prog, sizeof prog, "%s", o->argv[i]);
                break;
            }
        char stamp[32];
        time_t now = time(NULL);
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
        char *dot = strrchr(basename(prog), '.');
        if (dot) *dot = '\0';
        snprintf(out, len, "results/profiles/%s-%s.h5", basename(prog), stamp);
    }
    if (access(out, F_OK) == 0) return wb_fail(e, "%s exists: give another -o FILE", out);
    return WB_OK;
}

int wb_cmd_profile(int argc, char **argv) {
    wb_profile_opts o;
    wb_err e = {""};
    int rc = wb_profile_parse(argc, argv, &o, &e);
    if (rc != WB_OK) return rc == WB_SKIP ? 0 : (fprintf(stderr, "wallbench profile: %s\n", e.msg), 2);
    if (o.list_metrics) return wb_profile_list_metrics(&o);
    const char *outer = getenv("CUDA_INJECTION64_PATH"), *preload = getenv("LD_PRELOAD");
    if (!outer || !*outer) outer = preload && strstr(preload, "Injection") ? preload : NULL; /* ncu's tree launcher */
    if (outer && *outer) {
        fprintf(stderr,
                "wallbench profile: this process already runs under a CUDA profiler (CUDA_INJECTION64_PATH=%s: ncu, "
                "nsys or another tool); run wallbench profile outside it\n", outer);
        return 2;
    }
    if (!o.from_raw && !command_exists(o.argv[0])) {
        fprintf(stderr, "wallbench profile: %s: command not found (or not executable)\n", o.argv[0]);
        return 127;
    }
    char lib[4096], out[4096], rawdir[4096];
    if (inject_path(lib, sizeof lib, &e) != WB_OK || default_output(&o, out, sizeof out, &e) != WB_OK) {
        fprintf(stderr, "wallbench profile: %s\n", e.msg);
        return 2;
    }
    if (o.from_raw) {
        struct stat sb;
        if (stat(o.from_raw, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return fprintf(stderr, "wallbench profile: --from-raw %s: %s (give the folder a --keep-raw run left)\n",
                           o.from_raw, stat(o.from_raw, &sb) != 0 ? strerror(errno) : "not a folder"), 2;
        snprintf(rawdir, sizeof rawdir, "%s", o.from_raw);
        o.keep_raw = o.from_raw; /* never removed */
        o.timing = o.counters = 0;
        if (!o.ceilings_from && !o.no_ceilings) o.no_ceilings = 2; /* nothing to measure with */
    } else if (o.keep_raw) {
        if (snprintf(rawdir, sizeof rawdir, "%s", o.keep_raw) >= (int)sizeof rawdir - 64)
            return fprintf(stderr, "wallbench profile: --keep-raw %s: path too long\n", o.keep_raw), 2;
        struct stat sb;
        if (mkdir(rawdir, 0777) != 0 && errno != EEXIST)
            return fprintf(stderr, "wallbench profile: --keep-raw %s: %s\n", rawdir, strerror(errno)), 2;
        if (stat(rawdir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            return fprintf(stderr, "wallbench profile: --keep-raw %s: exists and is not a folder\n", rawdir), 2;
        /* An earlier run's raw files would be read as more processes of this one. */
        if (!dir_is_empty(rawdir))
            return fprintf(stderr, "wallbench profile: --keep-raw %s: the folder is not empty (an earlier run's raw "
                                   "files would join this run's); give a new or empty folder\n", rawdir), 2;
    } else {
        if (snprintf(rawdir, sizeof rawdir, "%s/wallbench-profile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >=
            (int)sizeof rawdir - 64)
            return fprintf(stderr, "wallbench profile: TMPDIR is too long a path\n"), 2;
        if (!mkdtemp(rawdir)) return fprintf(stderr, "wallbench profile: mkdtemp %s: %s\n", rawdir, strerror(errno)), 1;
    }
    wb_profile p;
    memset(&p, 0, sizeof p);
    wb_roof roof;
    wb_child_result tr = {0}, cr = {0};
    wb_raw *traw = NULL, *craw = NULL, *sraw = NULL;
    int nt = 0, nc = 0, ns = 0, exit_code = 0;
    double sample_setup_s = -1, file_t0 = 0;
    wb_sampler *sampled = NULL;
    wb_match_stats st;
    int ceiling_exit = 0;
    if (ceilings(&o, rawdir, &p, &roof, &ceiling_exit, &e) != WB_OK) {
        fprintf(stderr, "wallbench profile: roof: %s\n", e.msg);
        /* a file given that holds no roof is bad input; the ceiling run's "no usable GPU" stays 3, its other failures 1 */
        exit_code = o.ceilings_from ? 2 : ceiling_exit == 3 ? 3 : 1;
        goto done;
    }
    /* Before the program runs: without a GPU both passes would run it for nothing. The ceiling
     * run found one, or said there is none; --no-ceilings and --ceilings-from skip it. */
    if (!o.from_raw && (o.no_ceilings || o.ceilings_from) && wb_device_count(&e) <= 0) {
        fprintf(stderr, "wallbench profile: no usable GPU: %s; wallbench profile runs your program's kernels on a GPU, "
                        "so it needs one (--from-raw DIR writes a file from a kept run's raw files without one)\n", e.msg);
        exit_code = 3;
        goto done;
    }
    if (o.rotate) {
        const char *hold = getenv("WB_PROFILE_ROTATE_HOLD"); /* read by the injection, which refuses a bad one */
        char default_hold[16];
        snprintf(default_hold, sizeof default_hold, "%d", WB_ROTATE_HOLD_DEFAULT);
        fprintf(stderr, "wallbench profile: --rotate: each kernel shape's launches count one group of the set at a time, "
                        "a group held for %s launches; a column is empty for a shape that never held its group, and "
                        "after the run a line says how many came back\n", hold && *hold ? hold : default_hold);
    }
    if (o.sample_us)
        fprintf(stderr, "wallbench profile: --sample is experimental (docs/profiling.md): PM sampling of device %d from "
                        "this process while the program runs\n", o.sample_device);
    if (o.timing && run_pass(&o, "timing", rawdir, lib, &tr, &sample_setup_s, &sampled, &e) != WB_OK) goto fail;
    if (tr.not_found) goto not_found;
    if (o.counters && run_pass(&o, "counters", rawdir, lib, &cr, &sample_setup_s, &sampled, &e) != WB_OK) goto fail;
    if (cr.not_found) goto not_found;
    file_t0 = wb_clock_s();
    if (read_pass(rawdir, "timing", &traw, &nt, &e) != WB_OK || read_pass(rawdir, "counters", &craw, &nc, &e) != WB_OK ||
        read_pass(rawdir, "sampling", &sraw, &ns, &e) != WB_OK) {
        fprintf(stderr, "wallbench profile: %s\n", e.msg);
        exit_code = o.from_raw ? 2 : 1; /* a folder given that holds a bad file is bad input */
        goto done;
    }
    report_errors("timing", traw, nt);
    report_errors("counter", craw, nc);
    report_errors("sampling", sraw, ns);
    if (!nt && !nc) {
        fprintf(stderr, "wallbench profile: %s: no file written\n",
                o.from_raw ? "no raw pass file (timing.*.tsv, counters.*.tsv) in --from-raw DIR"
                           : "the program never initialised CUDA (no pass recorded anything)");
        exit_code = o.from_raw ? 2 : tr.exit_code ? tr.exit_code : cr.exit_code ? cr.exit_code : 1;
        goto done;
    }
    if (wb_match_passes(traw, nt, craw, nc, &o.select, &p, &st, &e) != WB_OK) goto fail;
    if (spans_from_raw(craw, nc, &p, &e) != WB_OK) goto fail;
    wb_sample_stats sst = {0};
    /* the profiler's own sampling file; S lines in a timing file: a --keep-raw folder of before 2026-12-04 */
    for (int i = 0; i < ns + nt; i++)
        if (wb_attribute_samples(&p, i < ns ? &sraw[i] : &traw[i - ns], &sst, &e) != WB_OK) goto fail;
    if (sampling_attrs(sraw, ns, &sst, &p, &e) != WB_OK || sampling_attrs(traw, nt, &sst, &p, &e) != WB_OK) goto fail;
    if (st.by_kernel) fprintf(stderr, "wallbench profile: note: %s\n", st.note);
    if (provenance(&o, argc, argv, &tr, &cr, &st, traw, nt, craw, nc, &p, &e) != WB_OK) goto fail;
    if (sampling_cost(sample_setup_s, traw, nt, &p, &e) != WB_OK) goto fail;
    if (board_verdicts(rawdir, traw, nt, craw, nc, ns > 0, &p, &e) != WB_OK) goto fail;
    if (rotation_columns(craw, nc, &p, &e) != WB_OK) goto fail;
    if (wb_profile_aggregate(&p, &roof, &e) != WB_OK || wb_profile_write(out, &p, &e) != WB_OK) goto fail;
    fprintf(stderr, "wallbench profile: %lld launches: %lld timed, %lld counted (%lld matched both), %lld kernels, %d NVTX ranges\n",
            (long long)p.nlaunches, (long long)st.timed, (long long)st.counted, (long long)st.both, (long long)p.nkernels,
            p.nranges);
    summary(&p, out);
    /* The program's failure is the profile's exit code: its finished launches are in the file. */
    exit_code = tr.exit_code ? tr.exit_code : cr.exit_code;
    if (exit_code)
        fprintf(stderr, "wallbench profile: the program failed (%s): the file keeps its finished launches; exit %d\n",
                tr.exit_code ? tr.how : cr.how, exit_code);
    goto done;
not_found:
    fprintf(stderr, "wallbench profile: %s: command not found or not executable\n", o.argv[0]);
    exit_code = 127;
    goto done;
fail:
    fprintf(stderr, "wallbench profile: %s\n", e.msg);
    exit_code = 1;
done:
    if (sampled) { /* its teardown ran beside the file's writing */
        double disable_s, release_s, file_s = wb_clock_s() - file_t0;
        wb_err te = {""};
        if (wb_sampler_free(sampled, &disable_s, &release_s, &te) != WB_OK)
            fprintf(stderr, "wallbench profile: warning: %s\n", te.msg);
        fprintf(stderr, "wallbench profile: after the program: the file took %.2f s; beside it, sampling was turned off in "
                        "%.2f s and its context released in %.2f s; %.2f s in all\n", file_s, disable_s, release_s,
                wb_clock_s() - file_t0);
    }
    free_pass(traw, nt);
    free_pass(craw, nc);
    free_pass(sraw, ns);
    wb_profile_free(&p);
    if (!o.keep_raw) { /* the raw files are the passes' scratch */
        if (nftw(rawdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
            fprintf(stderr, "wallbench profile: could not remove %s: %s\n", rawdir, strerror(errno));
    }
    wb_select_free(&o.select);
    return exit_code;
}
