/* profile_opts.c - options of `wallbench profile` (profile_opts.h). */
#include "harness/profile/profile_opts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/metrics.h"
#include "harness/base/parse_int.h"
#include "harness/gpu/counters.h"
#include "harness/gpu/device.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: wallbench profile [options] -- CMD [ARGS...]\n"
            "  Puts any CUDA program's kernels on the instruction roofline (seed 000's Valk): runs CMD\n"
            "  twice with a CUPTI injection library, a timing pass (CUPTI Activity records of every\n"
            "  kernel: start, end, grid, block, registers, shared memory, stream) and a counter pass\n"
            "  (CUPTI Range Profiler, one range per launch; by default the core counters in one pass,\n"
            "  nothing replayed), matches them launch by launch (name, grid, block, order; per kernel when\n"
            "  the program is not deterministic), and writes one HDF5 file: /launches, /kernels (name +\n"
            "  launch shape), /ranges (NVTX stacks), /columns. report, roofline, project, compare and\n"
            "  export read it. See docs/profiling.md.\n"
            "  -o, --output FILE        the profile file (default results/profiles/<program>-<UTC>.h5)\n"
            "  --pass both|timing|counters   which passes run (default both)\n"
            "  -k, --kernel-name NAME   only kernels whose name contains NAME (as CUPTI gives it, mangled),\n"
            "                           or regex:ERE (POSIX extended regular expression)\n"
            "  --nvtx-include PATH      only launches inside this NVTX range path (\"Q1\", \"Q1/filter\")\n"
            "  -s, --launch-skip N      of the launches selected so far, skip the first N\n"
            "  -c, --launch-count N     then keep at most N (both passes select the same launches)\n"
            "  --cache-control all|none counter pass: flush the L2 before each counted kernel (all, the\n"
            "                           default, as ncu's default) or count with the caches as the program\n"
            "                           left them (none); the timing pass never touches the caches\n"
            "  --ceilings-from FILE     the measured roof from a results file of wallbench run (default:\n"
            "                           measured now by a short ceiling run, dram_read and inst_issue)\n"
            "  --no-ceilings            no measured roof: bounds against the L4 and GH200 ridges only\n"
            "  --counters core|roofline|all   counter pass: core (default) counts instructions executed\n"
            "                           and issued, DRAM sectors read and written, L2 sectors, the L2's\n"
            "                           atomic requests (ATOM, RED), clock and time in one pass, no\n"
            "                           replay; roofline adds L1 sectors, hit rates,\n"
            "                           occupancy and IPC (2 passes on an H200); all is wallbench run's\n"
            "                           whole set with stall reasons (6 passes: each launch replayed)\n"
            "  --ranges kernel|nvtx|every:N   counter pass: one range per selected launch (kernel, the\n"
            "                           default), or per outermost NVTX range, or per N launches (nvtx,\n"
            "                           every:N: kernels run as the program runs them, nothing serialized,\n"
            "                           no flush; every launch counts; a one-pass set only)\n"
            "  --rotate                 counter pass, --counters roofline|all: every launch in one pass,\n"
            "                           nothing replayed, with one group of the set (the core rows in each), the\n"
            "                           groups in turn per kernel and launch shape, each held 32 launches: the\n"
            "                           whole set of a kernel whose launches meet every group (18 on an H200)\n"
            "  --sample                 (experimental) a sampled timeline instead of the counter pass: PM sampling of the\n"
            "                           core set, device-wide, by the profiler's own process during the\n"
            "                           timing pass (the program runs as under the timing pass alone:\n"
            "                           nothing replayed or serialized); each sample split among the kernels that ran in it\n"
            "                           (/samples; the launches' counters are those splits); with --pass\n"
            "                           both the counter pass runs too and the launches keep its counts\n"
            "  --sample-interval US     PM sampling interval in microseconds (default 100; 10 to 100000)\n"
            "  --sample-device N        the CUDA device to sample (default 0, numbered as the program sees\n"
            "                           them: it inherits CUDA_VISIBLE_DEVICES)\n"
            "  --batch N                counter pass: CUPTI ranges between two decodes (default 256; 4 to 4096):\n"
            "                           a counted launch and the L2 flush before it are two, a --ranges range\n"
            "                           one; bounds the profiler's memory for programs of any length\n"
            "  --keep-raw DIR           keep the passes' raw files (one per process and pass) in DIR\n"
            "  --from-raw DIR           run nothing: write the file from the raw files a --keep-raw run\n"
            "                           left in DIR (e.g. again after a change of the file format); no roof\n"
            "                           without --ceilings-from; default file results/profiles/<DIR's name>-<UTC>.h5\n"
            "  --list-metrics           print the Nsight Compute metric names the counter pass collects\n"
            "                           on this GPU, comma-separated (for ncu --metrics), and exit\n"
            "exit codes: 0 ok; the program's own exit code when it fails (128 + signal when killed; its\n"
            "finished launches are kept in the file); 1 profiling failed; 2 bad input; 3 no usable GPU;\n"
            "127 the command was not found\n");
}

static int need(int argc, char **argv, int i, wb_err *e) {
    if (i + 1 >= argc) return wb_fail(e, "%s needs a value", argv[i]);
    return WB_OK;
}

static int parse_count(const char *opt, const char *v, int64_t *out, wb_err *e) {
    long long x;
    if (wb_parse_ll(v, 0, INT64_MAX, &x) != 0) return wb_fail(e, "%s %s: not a count (an integer >= 0, below 2^63)", opt, v);
    *out = (int64_t)x;
    return WB_OK;
}

int wb_profile_parse(int argc, char **argv, wb_profile_opts *o, wb_err *e) {
    memset(o, 0, sizeof *o);
    o->pass = "both";
    o->cache_all = 1;
    o->batch = 256;
    o->counter_set = "core";
    o->ranges = "kernel";
    const char *kernel = NULL, *nvtx = NULL;
    int64_t skip = 0, count = -1;
    int i = 1, pass_given = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return WB_SKIP;
        }
        if (!strcmp(a, "--list-metrics")) {
            o->list_metrics = 1;
            continue;
        }
        if (!strcmp(a, "--no-ceilings")) {
            o->no_ceilings = 1;
            continue;
        }
        if (!strcmp(a, "--sample")) {
            if (!o->sample_us) o->sample_us = 100;
            continue;
        }
        if (!strcmp(a, "--rotate")) {
            o->rotate = 1;
            continue;
        }
        if (a[0] != '-') return wb_fail(e, "'%s': put the program after --: wallbench profile [options] -- CMD [ARGS]", a);
        if (!strcmp(a, "--pass")) pass_given = 1;
        if (need(argc, argv, i, e) != WB_OK) return WB_ERR;
        const char *v = argv[++i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) o->output = v;
        else if (!strcmp(a, "--pass")) o->pass = v;
        else if (!strcmp(a, "-k") || !strcmp(a, "--kernel-name")) kernel = v;
        else if (!strcmp(a, "--nvtx-include")) nvtx = v;
        else if (!strcmp(a, "-s") || !strcmp(a, "--launch-skip")) {
            if (parse_count(a, v, &skip, e) != WB_OK) return WB_ERR;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--launch-count")) {
            if (parse_count(a, v, &count, e) != WB_OK) return WB_ERR;
        } else if (!strcmp(a, "--cache-control")) {
            if (strcmp(v, "all") && strcmp(v, "none")) return wb_fail(e, "--cache-control %s: all or none", v);
            o->cache_all = !strcmp(v, "all");
        } else if (!strcmp(a, "--ceilings-from")) o->ceilings_from = v;
        else if (!strcmp(a, "--keep-raw")) o->keep_raw = v;
        else if (!strcmp(a, "--counters")) {
            wb_counter_set set;
            if (wb_counter_set_parse(v, &set, e) != WB_OK) return WB_ERR;
            o->counter_set = v;
        } else if (!strcmp(a, "--ranges")) {
            wb_ranges mode;
            int every;
            if (wb_ranges_parse(v, &mode, &every) != 0)
                return wb_fail(e, "--ranges %s: kernel, nvtx or every:N (N >= 1)", v);
            o->ranges = v;
        }
        else if (!strcmp(a, "--from-raw")) o->from_raw = v;
        else if (!strcmp(a, "--sample-interval")) {
            int64_t us = 0;
            if (parse_count(a, v, &us, e) != WB_OK) return WB_ERR;
            if (us < 10 || us > 100000) return wb_fail(e, "--sample-interval %s: 10 to 100000 microseconds", v);
            o->sample_us = (int)us;
        } else if (!strcmp(a, "--sample-device")) {
            int64_t d = 0;
            if (parse_count(a, v, &d, e) != WB_OK) return WB_ERR;
            if (d > 1023) return wb_fail(e, "--sample-device %s: a CUDA device number (0 to 1023)", v);
            o->sample_device = (int)d;
        } else if (!strcmp(a, "--batch")) {
            int64_t b = 0;
            if (parse_count(a, v, &b, e) != WB_OK) return WB_ERR;
            if (b < WB_BATCH_MIN || b > WB_BATCH_MAX) return wb_fail(e, "--batch %s: %d to %d", v, WB_BATCH_MIN, WB_BATCH_MAX);
            o->batch = (int)b;
        } else return wb_fail(e, "unknown option %s (wallbench profile --help)", a);
    }
    if (o->sample_us && !pass_given) o->pass = "timing"; /* the sampled timeline replaces the counter pass */
    if (!strcmp(o->pass, "both")) o->timing = o->counters = 1;
    else if (!strcmp(o->pass, "timing")) o->timing = 1;
    else if (!strcmp(o->pass, "counters")) o->counters = 1;
    else return wb_fail(e, "--pass %s: both, timing or counters", o->pass);
    if (o->ceilings_from && o->no_ceilings) return wb_fail(e, "--ceilings-from and --no-ceilings: give one");
    if (o->sample_us && !o->timing) return wb_fail(e, "--sample samples during the timing pass: not with --pass counters");
    wb_ranges mode;
    int every;
    if (wb_ranges_parse(o->ranges, &mode, &every) == 0 && mode >= WB_RANGES_NVTX && strcmp(o->counter_set, "core"))
        return wb_fail(e, "--ranges %s counts without replay: it needs --counters core (one pass)", o->ranges);
    if (o->rotate && (!strcmp(o->counter_set, "core") || mode != WB_RANGES_KERNEL))
        return wb_fail(e, "--rotate rotates the groups of a set of several passes over repeated launches: it needs "
                          "--counters roofline or all and --ranges kernel");
    if (wb_select_init(&o->select, kernel, nvtx, skip, count, e) != WB_OK) return WB_ERR;
    snprintf(o->selection_text, sizeof o->selection_text, "kernel-name '%s', nvtx-include '%s', launch-skip %" PRId64
             ", launch-count %s", o->select.kernel, o->select.nvtx, skip, count < 0 ? "all" : "");
    if (count >= 0) {
        size_t n = strlen(o->selection_text);
        snprintf(o->selection_text + n, sizeof o->selection_text - n, "%" PRId64, count);
    }
    if (o->list_metrics) return WB_OK;
    if (o->from_raw) {
        if (i < argc) return wb_fail(e, "--from-raw runs nothing: give no program");
        if (o->keep_raw) return wb_fail(e, "--from-raw and --keep-raw: give one");
        if (kernel || nvtx || skip > 0 || count >= 0) /* the raw files hold what the run selected */
            return wb_fail(e, "--from-raw rebuilds the launches the run selected: -k, --nvtx-include, -s and -c apply when "
                              "the program runs, not here");
        static char *none[] = {"(rebuilt from raw files)", NULL};
        o->argv = none;
        return WB_OK;
    }
    if (i >= argc) return wb_fail(e, "no program given: wallbench profile [options] -- CMD [ARGS]");
    o->argv = argv + i;
    return wb_select_env_set(&o->select, e);
}

int wb_profile_list_metrics(const wb_profile_opts *o) {
    wb_err e;
    wb_device d;
    if (wb_device_open(0, &d, &e) != WB_OK) return fprintf(stderr, "wallbench profile: %s\n", e.msg), 3;
    wb_counters_session *s = NULL;
    wb_counter_set set = WB_COUNTER_SET_CORE;
    if (wb_counter_set_parse(o->counter_set, &set, &e) != WB_OK) return fprintf(stderr, "wallbench profile: %s\n", e.msg), 2;
    if (wb_counters_open(&d, set, &s, &e) != WB_OK) return fprintf(stderr, "wallbench profile: %s\n", e.msg), 3;
    const wb_counters_plan_info *plan = wb_counters_session_plan(s);
    int first = 1;
    for (int i = 0; i < wb_n_metrics; i++)
        if (plan->used[i]) printf("%s%s", first ? "" : ",", plan->used[i]), first = 0;
    printf("\n");
    wb_counters_close(s);
    return 0;
}
