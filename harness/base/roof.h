/* roof.h - the instruction roofline (Ding and Williams; seed 000 section 2):
 * y = warp instructions per second, x = warp instructions per 32-byte DRAM
 * sector. A roof is an instruction ceiling and a bandwidth. */
#ifndef WB_ROOF_H
#define WB_ROOF_H

#include <stddef.h>

/* Where a run's measured roof comes from: the ceiling family's
 * WB_ROOF_INST_VARIANT and WB_ROOF_DRAM_VARIANT rows (the roof contract). */
#include "harness/base/roof_contract.h"

/* The file attribute that keeps a ceiling variant's best value:
 * "ceiling_<variant>_<what>", what "gbps" or "gips". Returns buf. */
const char *wb_ceiling_attr(const char *variant, const char *what, char *buf, size_t len);

typedef struct wb_roof {
    char name[32];        /* "measured", "L4", "GH200", ... */
    double inst_gips;     /* G warp instructions per second */
    double dram_gbps;     /* GB/s */
} wb_roof;

/* Warp instructions per SM-cycle budget: sms * smsp * clock_ghz (G inst/s). */
double wb_roof_inst_gips(int sms, int smsp_per_sm, double clock_ghz);
/* Ridge: inst_gips / (dram_gbps / 32), in inst per sector; NaN if undefined. */
double wb_roof_ridge(const wb_roof *r);
/* Attainable G inst/s at intensity x: min(inst_gips, x * dram_gbps / 32). */
double wb_roof_attainable(const wb_roof *r, double inst_per_sector);
/* "memory" left of the ridge, "compute" at or right of it, "" when x is NaN. */
const char *wb_roof_bound(const wb_roof *r, double inst_per_sector);

#endif
