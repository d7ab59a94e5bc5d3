/* gpus.h - the reference GPU table (harness/gpus.tsv): seed 000 Table 2 for
 * L4 and GH200, datasheet rows for Fig 1, and the GPU= profiles (rows with
 * an arch). Loaded at run time so that a user can add a row. */
#ifndef WB_GPUS_H
#define WB_GPUS_H

#include <stddef.h>
#include "harness/base/error.h"

typedef struct wb_gpu_ref {
    char profile[48];          /* GPU= name */
    char model[96];            /* display name */
    char match[64];            /* words of the CUDA device name (gpus.tsv header) */
    int arch;                  /* compute capability x 10; -1 = unknown, no build profile (Rubin) */
    int generic;               /* 1: made by wb_gpu_resolve for a GPU without a row */
    int sms, smsp_per_sm, threads_per_sm;
    double base_clock_ghz, boost_clock_ghz, measured_clock_ghz; /* NaN when unknown ("-") */
    double inst_gips;          /* warp instructions per second, G */
    double dram_gbps;          /* DRAM bandwidth, GB/s (1e9) */
    double ridge;              /* warp instructions per 32-byte DRAM sector */
    double l2_mib, smem_per_sm_kib, mem_gib;
    char source[400];
} wb_gpu_ref;

typedef struct wb_gpu_table {
    wb_gpu_ref *rows;
    int n;
} wb_gpu_table;

/* path NULL: $WB_GPUS, else WB_SOURCE_DIR/harness/gpus.tsv. Errors name the
 * file and line (bad column count, non-numeric field). */
int wb_gpu_table_load(const char *path, wb_gpu_table *t, wb_err *e);
void wb_gpu_table_free(wb_gpu_table *t);
/* Row by profile name, or NULL. */
const wb_gpu_ref *wb_gpu_table_find(const wb_gpu_table *t, const char *profile);
/* The row whose match words name the device (see gpus.tsv's header: whole
 * words, never substrings; the most words win), among rows with arch == cc;
 * cc < 0: any row. NULL when none does. */
const wb_gpu_ref *wb_gpu_table_match(const wb_gpu_table *t, const char *device_name, int cc);
/* 1 if the row's match words name the device (cc not looked at). */
int wb_gpu_names(const wb_gpu_ref *g, const char *device_name);
/* The profile of a device: its row, else a generic profile named after the
 * model ("NVIDIA H800" -> h800), arch = cc, every datasheet number unknown
 * (the run's measured ceilings are its roofline) and source "no datasheet
 * row for <model>". *out is a copy either way; returns the row or NULL. */
const wb_gpu_ref *wb_gpu_resolve(const wb_gpu_table *t, const char *device_name, int cc, wb_gpu_ref *out);
/* Space-separated profile names (rows with an arch), for error messages. */
const char *wb_gpu_table_profiles(const wb_gpu_table *t, char *buf, size_t len);

#endif
