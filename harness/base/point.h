/* point.h - one benchmark point: what micro/ asks to measure (wb_point), what
 * the timing pass measured (wb_timed), what the counter pass counted
 * (wb_counters), and the row of /points that holds all three (wb_row).
 * Axes that do not apply are -1 (integers) or NaN (reals), never 0. */
#ifndef WB_POINT_H
#define WB_POINT_H

#include <stdint.h>
#include "harness/base/axes.h"
#include "kernels/launch.h"

typedef struct wb_point {
    char family[16];
    char variant[24];
    int variant_id;         /* index into the family's variant names */
    char dtype[8];          /* "int32", "int64", "double"; "" where not an axis */
    char layout[16];        /* data shape: "uniform", "zipf", "chain", "tree", ...; "" */
    int64_t n;              /* elements (rows) */
#define WB_AXIS_FIELD(column, type, na, unit, desc, since) WB_AXIS_CTYPE_##type column;
    WB_POINT_AXES(WB_AXIS_FIELD) /* selectivity, table_entries, ...: harness/base/axes.h */
#undef WB_AXIS_FIELD
    wb_launch launch;       /* ilp, occupancy_target, block, sm_limit + what plan filled */
    double bytes_model;     /* bytes the algorithm must move (inputs once, outputs once) */
    double items;           /* items processed, for per-item rates (usually n) */
    double table_bytes;     /* bytes of the table read at random (gathers, probes; plan sets it); NaN */
    /* Facts plan states for the tools as numbers (the note is for people
     * and is never parsed): */
    double lookups;         /* random lookups into tables the point makes (ssb: dimension-map probes); NaN */
    int fallback;           /* 1: the variant ran its fallback kernel (groupby shared: the table did not
                             * fit shared memory); 0 (the harness sets 0 before plan); -1 unrecorded */
    char note[96];          /* what the point did that its axes do not say */
    int places;             /* plan sets it: places its reset moves a contended output over, one a
                             * sample (micro/data.h); 0 none (the harness sets 0 before plan); -1 unrecorded */
} wb_point;

typedef struct wb_timed {
    int64_t id;             /* row number in /points; key of /samples */
    int reps;               /* --reps R (fixed count); 0: noise-driven sampling */
    int repetition;         /* Google Benchmark repetition index (0 unless --benchmark_repetitions) */
    double time_median_ms, time_min_ms, time_max_ms, time_stddev_ms;
    double gbps_model;      /* bytes_model / time_median */
    int verified;           /* 1 matched the CPU reference, 0 mismatched, -1 not checked */
    char status[8];         /* "ok", "skipped", "failed" */
    char reason[160];       /* why skipped or failed; warnings (e.g. low clock) */
    double sm_clock_mhz;    /* NVML, read right after the timed samples; NaN without NVML */
    int clock_low;          /* 1: clock below 90% of the run's typical clock */
    /* The noise-driven sampling (stopping.h); -1/NaN/"" in schema-1 files. */
    int samples_taken;      /* timed samples taken, throttled ones included */
    double noise;           /* relative stddev of the kept samples when sampling stopped */
    char stop[12];          /* what stopped it: noise, plateau, timeout, max_samples, fixed */
    int throttled;          /* samples flagged throttled and left out of the median */
    int64_t clock_events;   /* OR of NVML clock-event reasons seen during the samples; -1 unread */
    double gpu_temp_c, mem_temp_c, power_w; /* NVML right after the samples (schema 5); NaN unread */
    int other_processes;    /* CUDA processes besides ours on the GPU before/after the samples (schema 6); -1 unread */
    double timing_pass_ms;  /* host wall time of warm-up + timed samples */
    double counter_pass_ms; /* host wall time of the counter pass (all replays; its share of a batch); NaN if none */
    double setup_ms;        /* host wall time of data creation (when this point made it) + plan + verification */
    double gather_greqs;    /* the run's gather_word ceiling at this point's table_bytes (G requests/s); NaN */
    double gather_pct;      /* 100 x items per second / gather_greqs: a probe against the random-access wall */
} wb_timed;

#define WB_METRICS_MAX 48
#define WB_STALL_GROUPS 7

typedef struct wb_counters {
    double v[WB_METRICS_MAX];        /* by index of wb_metrics[] (metrics.c), in column units; NaN if absent */
    double stall[WB_STALL_GROUPS];   /* warp-cycles per issued instruction, grouped as seed 000 Fig 6 */
    double l1_sectors;               /* global load + store sectors at L1 */
    double inst_per_sector;          /* inst / (dram_sectors_read + dram_sectors_write) */
    double inst_per_l1_sector;       /* inst / l1_sectors: the hierarchical roofline's L1 intensity */
    double inst_per_l2_sector;       /* inst / l2_sectors: its L2 intensity */
    double gips;                     /* warp instructions per second (counter time) */
    double roof_pct;                 /* achieved share of the measured roofline at this intensity */
    char bound[8];                   /* "memory"/"compute" against the measured ridge; "" */
    char bound_l4[8];                /* against the L4 ridge (44.0) */
    char bound_gh200[8];             /* against the GH200 ridge (8.3) */
    int launches;                    /* kernel launches summed into this point */
    char note[96];                   /* why counters are missing, or "" */
} wb_counters;

typedef struct wb_row {
    wb_point p;
    wb_timed m;
    wb_counters c;
    char name[256];                  /* wb_point_name(&p): set by the store on write and read (/points "name") */
} wb_row;

/* Sets every axis to "not applicable", counters to NaN, status to "". */
void wb_point_init(wb_point *p);
void wb_row_init(wb_row *r);
/* "family/variant[/dtype][/layout]/n:N[/axis:value...]", every launch axis
 * and point axis that applies under its column name (axes.h): the Google
 * Benchmark name and the prefix of every error about the point. Returns buf. */
const char *wb_point_name(const wb_point *p, char *buf, size_t len);

#endif
