/* metrics.h - the one table of hardware counters: each row names the HDF5
 * column, the Nsight Compute/CUPTI metric it comes from, its unit and scale.
 * It drives both the CUPTI request (harness/gpu/counters_cupti.c) and the /points columns
 * (schema.c); wb_counters.v[i] holds row i. */
#ifndef WB_METRICS_H
#define WB_METRICS_H

typedef struct wb_metric {
    const char *column;  /* column name in /points */
    const char *ncu;     /* metric name as Nsight Compute and CUPTI spell it */
    const char *unit;    /* unit of the column after scaling */
    double scale;        /* column = metric value * scale */
    const char *desc;
    /* Names of the same count on chips that lack ncu (GB20x: dram__sectors_op_read.sum
     * for dram__sectors_read.sum), tried in order; NULL-terminated. */
    const char *alt[3];
    /* > 0: may be left out on a chip where the whole set needs more replay
     * passes than WB_PASS_BUDGET; higher ranks go first, later rows first
     * within a rank (L2 throughput 3, L1 throughput 2, stall reasons 1). */
    int extra;
    /* The schema version whose files first hold the column (0: every
     * version); a new row sets the bumped WB_SCHEMA_VERSION
     * (harness/store/schema.h), and older files read it as NaN. */
    int since;
    /* The same for profile files (WB_PROFILE_SCHEMA_VERSION, harness/base/profile.h): an older
     * profile lacks the column and reads it as NaN. */
    int profile_since;
} wb_metric;

extern const wb_metric wb_metrics[];
extern const int wb_n_metrics;

/* Index of the row with this column name, or -1. */
int wb_metric_index(const char *column);

/* The core set's columns (counters.h's WB_COUNTER_SET_CORE), NULL-terminated, and whether row i is one. */
extern const char *const wb_core_metrics[];
int wb_metric_is_core(int i);

/* 1 if values in this unit are whole counts (warp instructions, sectors): the
 * files store such columns as 64-bit integers, -1 where not counted (results
 * schema 8, profile schema 3); the tools hold them as doubles, NaN not counted. */
int wb_unit_is_count(const char *unit);

/* Names of the stall groups (columns "stall_<name>"), seed 000 Fig 6. */
extern const char *const wb_stall_groups[];

#endif
