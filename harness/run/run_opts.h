/* run_opts.h - the options of `wallbench run` and `wallbench list`, parsed
 * in one place so that both commands spell and check them alike. */
#ifndef WB_RUN_OPTS_H
#define WB_RUN_OPTS_H

#include <stdint.h>

#include "harness/run/family.h"

/* The inputs' seed when --seed is not given (the records were made with it). */
#define WB_SEED_DEFAULT 20261129ull

typedef struct wb_run_opts {
    const char *family, *variant, *sizes; /* raw lists; NULL: all / every / the sweep's */
    const char *out, *profile;            /* profile NULL: the device's */
    wb_sweep_kind sweep;
    int reps, warmup, counters, debug_launch, device, points;
    uint64_t seed;          /* WB_SEED_DEFAULT unless --seed */
    int seed_set;
} wb_run_opts;

/* Parses argv[1..] ("--name value" or "--name=value"); is_run 0 accepts only
 * the options of `list`. Prints "wallbench <cmd>: <problem>" and returns 2 on
 * bad input (unknown option, missing or malformed value), 0 otherwise. */
int wb_run_opts_parse(const char *cmd, int argc, char **argv, int is_run, wb_run_opts *o);

#endif
