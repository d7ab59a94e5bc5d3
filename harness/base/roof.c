/* roof.c - instruction-roofline arithmetic (see roof.h). A roof with a
 * missing or non-positive ceiling is undefined: its ridge and attainable
 * values are NaN and it classifies nothing, so that a file without ceilings
 * never yields bounds that look measured. */
#include "harness/base/roof.h"

#include <math.h>
#include <stdio.h>

/* 32-byte DRAM sectors per GB: intensities are per sector, bandwidth per byte. */
#define WB_SECTOR_BYTES 32.0

const char *wb_ceiling_attr(const char *variant, const char *what, char *buf, size_t len) {
    snprintf(buf, len, "ceiling_%s_%s", variant, what);
    return buf;
}

static int roof_defined(const wb_roof *r) {
    return r && isfinite(r->inst_gips) && isfinite(r->dram_gbps) && r->inst_gips > 0 && r->dram_gbps > 0;
}

double wb_roof_inst_gips(int sms, int smsp_per_sm, double clock_ghz) {
    if (sms <= 0 || smsp_per_sm <= 0 || !isfinite(clock_ghz) || clock_ghz <= 0) return NAN;
    return (double)sms * (double)smsp_per_sm * clock_ghz;
}

double wb_roof_ridge(const wb_roof *r) {
    if (!roof_defined(r)) return NAN;
    return r->inst_gips / (r->dram_gbps / WB_SECTOR_BYTES);
}

double wb_roof_attainable(const wb_roof *r, double inst_per_sector) {
    if (!roof_defined(r) || !isfinite(inst_per_sector) || inst_per_sector < 0) return NAN;
    double memory = inst_per_sector * r->dram_gbps / WB_SECTOR_BYTES;
    return memory < r->inst_gips ? memory : r->inst_gips;
}

const char *wb_roof_bound(const wb_roof *r, double inst_per_sector) {
    double ridge = wb_roof_ridge(r);
    if (isnan(ridge) || isnan(inst_per_sector)) return "";
    return inst_per_sector < ridge ? "memory" : "compute";
}
