/* run_opts.h - the options of `wallbench run` and `wallbench list`, parsed
 * in one place so that both commands spell and check them alike. */
#ifndef WB_RUN_OPTS_H
#define WB_RUN_OPTS_H

#include <stdint.h>

#include "harness/run/family.h"

/* The inputs' seed when --seed is not given (the records were made with it). */
#define WB_SEED_DEFAULT 20261129ull
#define WB_PLUGINS_MAX 16

typedef struct wb_run_opts {
    const char *family, *variant, *sizes; /* raw lists; NULL: all / every / the sweep's */
    const char *out, *profile;            /* profile NULL: the device's */
    const char *summary_json;             /* --summary-json FILE; NULL: none */
    const char *plugins[WB_PLUGINS_MAX];  /* --plugin, in the order given */
    int nplugins;
    wb_sweep_kind sweep;
    int reps, warmup, counters, debug_launch, device, points; /* reps 0: noise-driven sampling; points: 1 --points, 2 --names */
    int ncu;                              /* --ncu: one timed launch per point, NVTX range around it alone */
    int counter_set;                      /* wb_counter_set: --counters, else roofline for quick, all otherwise */
    uint64_t seed;                        /* WB_SEED_DEFAULT unless --seed */
    int seed_set;
    int shard_index, shard_count;         /* --shard I/N; count 0: the whole sweep */
    const char *shard_cost;               /* --shard-cost FILE.h5, or NULL: by bytes */
} wb_run_opts;

/* Parses argv[1..] ("--name value" or "--name=value", getopt_long); is_run
 * 0 accepts only the options of `list`. Prints "wallbench <cmd>: <problem>"
 * and returns 2 on bad input (unknown option, missing or malformed value),
 * 1 for --help (the caller prints its usage), 0 otherwise. */
int wb_run_opts_parse(const char *cmd, int argc, char **argv, int is_run, wb_run_opts *o);

/* Loads every --plugin (wb_plugin_load); prints the sentence and returns 2
 * on the first that fails, 0 otherwise. */
int wb_run_opts_plugins(const char *cmd, const wb_run_opts *o);

#endif
