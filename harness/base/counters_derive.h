/* counters_derive.h - what the counter columns are made of once the raw
 * values are in (no CUPTI, no GPU): the NaN state, the stall groups and the
 * derived roofline columns. Shared by the counter pass (harness/gpu) and the
 * results tools (wallbench project re-derives a projected row). */
#ifndef WB_COUNTERS_DERIVE_H
#define WB_COUNTERS_DERIVE_H

#include "harness/base/point.h"
#include "harness/base/roof.h"

/* Every value NaN, launches -1, bounds "", note copied (may be ""). */
void wb_counters_clear(wb_counters *c, const char *note);

/* From c->v: l1_sectors = global load + store sectors, and c->stall[] = the
 * stall_raw_* reasons summed into the groups of seed 000 Fig 6 (mapping and
 * reasons in counters_derive.c). Called by collect; public for tests. */
void wb_counters_group(wb_counters *c);

/* Derived columns: inst_per_sector, gips, roof_pct and the three bound
 * classes, from out->v and the roofs. gips divides the counted instructions
 * by time_ms, the point's timed median (CUDA events); NaN falls back to the
 * counter range's kernel_time_ms. measured may have NaN fields (no ceiling
 * yet): bound is then "". No DRAM sector at all with instructions executed
 * gives inst_per_sector = +inf (compute side of every ridge). */
void wb_counters_derive(wb_counters *c, double time_ms, const wb_roof *measured, const wb_roof *l4,
                        const wb_roof *gh200);

#endif
