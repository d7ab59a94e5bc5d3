/* gpus.h - the reference GPU table (harness/gpus.tsv): seed 000 Table 2 for
 * L4 and GH200, datasheet rows for Fig 1, and the GPU= profiles (rows with
 * an arch). Loaded at run time so that a user can add a row. */
#ifndef WB_GPUS_H
#define WB_GPUS_H

#include <stddef.h>
#include "harness/base/error.h"

typedef struct wb_gpu_ref {
    char profile[16];          /* GPU= name */
    char model[48];            /* display name */
    char match[32];            /* substring of the CUDA device name */
    int arch;                  /* sm_XX; -1 = no build profile (Fig 1 rows) */
    int sms, smsp_per_sm, threads_per_sm;
    double base_clock_ghz, boost_clock_ghz, measured_clock_ghz; /* NaN when unknown ("-") */
    double inst_gips;          /* warp instructions per second, G */
    double dram_gbps;          /* DRAM bandwidth, GB/s (1e9) */
    double ridge;              /* warp instructions per 32-byte DRAM sector */
    double l2_mib, mem_gib;
    char source[160];
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
/* First row with an arch whose match occurs in the device name, or NULL. */
const wb_gpu_ref *wb_gpu_table_match(const wb_gpu_table *t, const char *device_name);
/* Space-separated profile names (rows with an arch), for error messages. */
const char *wb_gpu_table_profiles(const wb_gpu_table *t, char *buf, size_t len);

#endif
