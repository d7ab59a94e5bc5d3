/* run_opts.c - option parsing of `wallbench run` and `wallbench list`. */
#include "harness/run/run_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/shard_spec.h"
#include "harness/gpu/counters.h"
#include "harness/run/sweep.h"

enum { O_FAMILY = 256, O_VARIANT, O_SWEEP, O_N, O_REPS, O_WARMUP, O_OUT, O_PROFILE, O_NO_COUNTERS, O_SEED, O_DEBUG,
       O_DEVICE, O_POINTS, O_NAMES, O_PLUGIN, O_NCU, O_SUMMARY, O_SHARD, O_SHARD_COST, O_COUNTERS };

/* Options of both commands, then those of run alone, then those of list alone. */
static const struct option both[] = {
    {"family", required_argument, NULL, O_FAMILY},   {"variant", required_argument, NULL, O_VARIANT},
    {"sweep", required_argument, NULL, O_SWEEP},     {"n", required_argument, NULL, O_N},
    {"profile", required_argument, NULL, O_PROFILE}, {"device", required_argument, NULL, O_DEVICE},
    {"plugin", required_argument, NULL, O_PLUGIN},
};
static const struct option run_only[] = {
    {"reps", required_argument, NULL, O_REPS},         {"warmup", required_argument, NULL, O_WARMUP},
    {"out", required_argument, NULL, O_OUT},           {"no-counters", no_argument, NULL, O_NO_COUNTERS},
    {"seed", required_argument, NULL, O_SEED},         {"debug-launch", no_argument, NULL, O_DEBUG},
    {"ncu", no_argument, NULL, O_NCU},                 {"summary-json", required_argument, NULL, O_SUMMARY},
    {"shard", required_argument, NULL, O_SHARD},       {"shard-cost", required_argument, NULL, O_SHARD_COST},
    {"counters", required_argument, NULL, O_COUNTERS},
};
static const struct option list_only[] = {{"points", no_argument, NULL, O_POINTS}, {"names", no_argument, NULL, O_NAMES}};
#define LEN(a) ((int)(sizeof a / sizeof a[0]))

static int int_value(const char *s, long lo, long hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

int wb_run_opts_parse(const char *cmd, int argc, char **argv, int is_run, wb_run_opts *o) {
    memset(o, 0, sizeof *o);
    o->out = "results";
    o->sweep = WB_SWEEP_QUICK;
    o->reps = 0; /* noise-driven (harness/base/stopping.h); --reps R fixes the count */
    o->warmup = 2;
    o->counters = 1;
    o->counter_set = -1; /* the sweep's: below */
    o->seed = WB_SEED_DEFAULT;
    /* Google Benchmark removed the flags it accepts; a leftover one is its refusal. */
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--benchmark_", 12))
            return wb_cli_bad(cmd, "Google Benchmark did not accept '%s' (1.7 takes --benchmark_min_time=<seconds> "
                                   "without a unit)", argv[i]);
    struct option longs[LEN(both) + LEN(run_only) + LEN(list_only) + 1];
    int n = 0;
    for (int i = 0; i < LEN(both); i++) longs[n++] = both[i];
    for (int i = 0; is_run && i < LEN(run_only); i++) longs[n++] = run_only[i];
    for (int i = 0; !is_run && i < LEN(list_only); i++) longs[n++] = list_only[i];
    longs[n] = (struct option){0, 0, 0, 0};
    /* every option may come again, the last one winning: make run puts ARGS after its own --sweep, --out
     * and --profile, so that ARGS can override them; --plugin adds a plugin each time */
    static const int any[] = {-1, 0};
    wb_cli c = {cmd, longs, 0, any, {0}, 0};
    const char *v;
    int k, first = argc;
    while ((k = wb_cli_next(&c, argc, argv, &v, &first)) != WB_CLI_END) {
        wb_err e;
        switch (k) {
        case WB_CLI_BAD: return 2;
        case WB_CLI_HELP: return 1;
        case O_FAMILY: o->family = v; break;
        case O_VARIANT: o->variant = v; break;
        case O_N: o->sizes = v; break;
        case O_OUT: o->out = v; break;
        case O_PROFILE: o->profile = v; break;
        case O_NO_COUNTERS: o->counters = 0; break;
        case O_DEBUG: o->debug_launch = 1; break;
        case O_POINTS: o->points = o->points ? o->points : 1; break;
        case O_NAMES: o->points = 2; break; /* names only, for scripts */
        case O_NCU: o->ncu = 1; break;
        case O_SUMMARY: o->summary_json = v; break;
        case O_PLUGIN:
            if (o->nplugins == WB_PLUGINS_MAX) return wb_cli_bad(cmd, "at most %d --plugin options", WB_PLUGINS_MAX);
            o->plugins[o->nplugins++] = v;
            break;
        case O_SWEEP:
            if (wb_sweep_kind_parse(v, &o->sweep, &e) != WB_OK) return wb_cli_bad(cmd, "%s", e.msg);
            break;
        case O_REPS:
            if (int_value(v, 1, 1000000, &o->reps)) return wb_cli_bad(cmd, "bad --reps '%s': expected 1..1000000", v);
            break;
        case O_WARMUP:
            if (int_value(v, 0, 1000000, &o->warmup)) return wb_cli_bad(cmd, "bad --warmup '%s': expected 0..1000000", v);
            break;
        case O_DEVICE:
            if (int_value(v, 0, 1023, &o->device)) return wb_cli_bad(cmd, "bad --device '%s': expected a device ordinal", v);
            break;
        case O_SHARD:
            if (wb_shard_parse(v, &o->shard_index, &o->shard_count, &e) != WB_OK) return wb_cli_bad(cmd, "%s", e.msg);
            break;
        case O_SHARD_COST: o->shard_cost = v; break;
        case O_COUNTERS: {
            wb_counter_set set;
            if (wb_counter_set_parse(v, &set, &e) != WB_OK) return wb_cli_bad(cmd, "bad --counters: %s", e.msg);
            o->counter_set = (int)set;
            break;
        }
        case O_SEED: {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            if (end == v || *end || errno || v[0] == '-')
                return wb_cli_bad(cmd, "bad --seed '%s': expected an unsigned integer", v);
            o->seed_set = 1;
            break;
        }
        }
    }
    if (first < argc) return wb_cli_bad(cmd, "unexpected argument '%s'", argv[first]);
    /* The quick sweep is the first picture: the roofline's counters, in a
     * third of the replay passes (counters.h). */
    if (o->counter_set < 0) o->counter_set = o->sweep == WB_SWEEP_QUICK ? WB_COUNTER_SET_ROOFLINE : WB_COUNTER_SET_ALL;
    /* nvbench's and ncu's habit: the profiled launch is the first and only one. */
    if (o->ncu) {
        o->reps = 1;
        o->warmup = 0;
        o->counters = 0;
    }
    return 0;
}

int wb_run_opts_plugins(const char *cmd, const wb_run_opts *o) {
    for (int i = 0; i < o->nplugins; i++) {
        wb_err e;
        if (wb_plugin_load(o->plugins[i], &e) != WB_OK) {
            fprintf(stderr, "wallbench %s: %s\n", cmd, e.msg);
            return 2;
        }
    }
    return 0;
}
