/* run_opts.h - the options of `wallbench run` and `wallbench list`, parsed
 * in one place so that both commands spell and check them alike. */
#ifndef WB_RUN_OPTS_H
#define WB_RUN_OPTS_H

#include <stdint.h>

#include "harness/run/family.h"

typedef struct wb_run_opts {
    const char *family, *variant, *sizes; /* raw lists; NULL: all / every / the sweep's */
    const char *out, *profile;            /* profile NULL: the device's */
    wb_sweep_kind sweep;
    int reps, warmup, counters, debug_launch, device, points;
    uint64_t seed;
    int seed_set;
    int shard_index, shard_count;         /* --shard I/N; count 0: the whole sweep */
    const char *shard_cost;               /* --shard-cost FILE.h5, or NULL: by bytes */
} wb_run_opts;

/* Parses argv[1..] ("--name value" or "--name=value"); is_run 0 accepts only
 * the options of `list`. Prints "wallbench <cmd>: <problem>" and returns 2 on
 * bad input (unknown option, missing or malformed value), 0 otherwise. */
int wb_run_opts_parse(const char *cmd, int argc, char **argv, int is_run, wb_run_opts *o);

#endif
