/* profile_opts.h - the options of `wallbench profile` (its help text in
 * profile_opts.c says each), and --list-metrics. */
#ifndef WB_PROFILE_OPTS_H
#define WB_PROFILE_OPTS_H

#include "harness/base/error.h"
#include "harness/profile/select.h"

typedef struct wb_profile_opts {
    char **argv;                /* the program and its arguments (after --), NULL-terminated */
    const char *output;         /* -o FILE; NULL: results/profiles/<program>-<UTC>.h5 */
    const char *pass;           /* "both", "timing", "counters" */
    int timing, counters;
    int cache_all;              /* --cache-control all (default) or none */
    const char *ceilings_from;  /* --ceilings-from FILE */
    int no_ceilings;            /* 1 --no-ceilings; 2 --from-raw without --ceilings-from (nothing to measure with) */
    const char *keep_raw;       /* --keep-raw DIR */
    const char *from_raw;       /* --from-raw DIR: no run, the file from a kept run's raw files */
    int batch;                  /* --batch N */
    const char *counter_set;    /* --counters core|roofline|all (default core: one pass, no replay) */
    const char *ranges;         /* --ranges kernel|nvtx|every:N (default kernel) */
    int sample_us;              /* --sample [--sample-interval US]: PM sampling interval; 0 off */
    int sample_device;          /* --sample-device N: the CUDA device sampled (default 0) */
    int rotate;                 /* --rotate: counter groups rotated over repeated launches */
    int list_metrics;
    wb_select select;           /* -k, -s, -c, --nvtx-include */
    char selection_text[600];   /* the selection in words, for the file */
} wb_profile_opts;

/* WB_OK, WB_SKIP after --help (printed), WB_ERR with e (exit 2). */
int wb_profile_parse(int argc, char **argv, wb_profile_opts *o, wb_err *e);
/* Prints the Nsight Compute names of the metrics the counter pass collects on
 * device 0, comma-separated (for ncu --metrics); returns the exit code. */
int wb_profile_list_metrics(const wb_profile_opts *o);

#endif
