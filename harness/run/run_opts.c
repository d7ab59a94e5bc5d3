/* run_opts.c - option parsing of `wallbench run` and `wallbench list`. */
#include "harness/run/run_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/shard_spec.h"
#include "harness/run/sweep.h"

enum { O_FAMILY, O_VARIANT, O_SWEEP, O_N, O_REPS, O_WARMUP, O_OUT, O_PROFILE, O_NO_COUNTERS, O_SEED, O_DEBUG, O_DEVICE, O_POINTS, O_SHARD, O_SHARD_COST };

static const struct {
    const char *name;
    int has_value, in_run, in_list;
} options[] = {
    [O_FAMILY] = {"--family", 1, 1, 1},        [O_VARIANT] = {"--variant", 1, 1, 1},
    [O_SWEEP] = {"--sweep", 1, 1, 1},          [O_N] = {"--n", 1, 1, 1},
    [O_REPS] = {"--reps", 1, 1, 0},            [O_WARMUP] = {"--warmup", 1, 1, 0},
    [O_OUT] = {"--out", 1, 1, 0},              [O_PROFILE] = {"--profile", 1, 1, 1},
    [O_NO_COUNTERS] = {"--no-counters", 0, 1, 0}, [O_SEED] = {"--seed", 1, 1, 0},
    [O_DEBUG] = {"--debug-launch", 0, 1, 0},   [O_DEVICE] = {"--device", 1, 1, 1},
    [O_POINTS] = {"--points", 0, 0, 1},
    [O_SHARD] = {"--shard", 1, 1, 0},          [O_SHARD_COST] = {"--shard-cost", 1, 1, 0},
};
#define N_OPTIONS ((int)(sizeof options / sizeof options[0]))

static int int_value(const char *s, long lo, long hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

static int bad(const char *cmd, const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "wallbench %s: ", cmd);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see wallbench %s --help)\n", cmd);
    return 2;
}

int wb_run_opts_parse(const char *cmd, int argc, char **argv, int is_run, wb_run_opts *o) {
    memset(o, 0, sizeof *o);
    o->out = "results";
    o->sweep = WB_SWEEP_QUICK;
    o->reps = 10;
    o->warmup = 2;
    o->counters = 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v = NULL;
        int k = 0;
        for (; k < N_OPTIONS; k++) {
            size_t len = strlen(options[k].name);
            if (strncmp(arg, options[k].name, len) != 0 || (is_run ? !options[k].in_run : !options[k].in_list))
                continue;
            if (arg[len] == '\0') break;
            if (arg[len] == '=' && options[k].has_value) {
                v = arg + len + 1;
                break;
            }
        }
        if (k == N_OPTIONS) {
            if (!strncmp(arg, "--benchmark_", 12))
                return bad(cmd, "Google Benchmark did not accept '%s'%s", arg,
                           " (1.7 takes --benchmark_min_time=<seconds> without a unit)");
            return bad(cmd, "unknown option '%s'%s", arg, "");
        }
        if (options[k].has_value && !v) {
            if (i + 1 >= argc) return bad(cmd, "option %s needs a value%s", arg, "");
            v = argv[++i];
        }
        wb_err e;
        switch (k) {
        case O_FAMILY: o->family = v; break;
        case O_VARIANT: o->variant = v; break;
        case O_N: o->sizes = v; break;
        case O_OUT: o->out = v; break;
        case O_PROFILE: o->profile = v; break;
        case O_NO_COUNTERS: o->counters = 0; break;
        case O_DEBUG: o->debug_launch = 1; break;
        case O_POINTS: o->points = 1; break;
        case O_SWEEP:
            if (wb_sweep_kind_parse(v, &o->sweep, &e) != WB_OK) return bad(cmd, "%s%s", e.msg, "");
            break;
        case O_REPS:
            if (int_value(v, 1, 1000000, &o->reps)) return bad(cmd, "bad --reps '%s': expected 1..1000000%s", v, "");
            break;
        case O_WARMUP:
            if (int_value(v, 0, 1000000, &o->warmup)) return bad(cmd, "bad --warmup '%s': expected 0..1000000%s", v, "");
            break;
        case O_DEVICE:
            if (int_value(v, 0, 1023, &o->device)) return bad(cmd, "bad --device '%s': expected a device ordinal%s", v, "");
            break;
        case O_SHARD:
            if (wb_shard_parse(v, &o->shard_index, &o->shard_count, &e) != WB_OK) return bad(cmd, "%s%s", e.msg, "");
            break;
        case O_SHARD_COST: o->shard_cost = v; break;
        case O_SEED: {
            char *end;
            errno = 0;
            o->seed = strtoull(v, &end, 0);
            if (end == v || *end || errno || v[0] == '-') return bad(cmd, "bad --seed '%s': expected an unsigned integer%s", v, "");
            o->seed_set = 1;
            break;
        }
        }
    }
    return 0;
}
