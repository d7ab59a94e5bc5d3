/* profile_agg.h - what a filled wb_profile (profile.h) is summed into: the
 * per-kernel and per-NVTX-range rows and every row's derived roofline
 * columns, against the measured roof and the paper's L4 and GH200 roofs
 * (harness/gpus.tsv). No CUDA, no HDF5: the driver calls it once both passes
 * are matched, the projection tools call it again on a projected profile. */
#ifndef WB_PROFILE_AGG_H
#define WB_PROFILE_AGG_H

#include "harness/base/error.h"
#include "harness/base/profile.h"
#include "harness/base/roof.h"

/* Fills, from p->launches (kernel, range, time_ms, c.v; NaN where a pass did
 * not see the launch) and the rows the driver set (kernels[]: name,
 * demangled, shape, registers, smem; ranges[]: path):
 * - every launch's c.stall, c.l1_sectors and derived columns;
 * - per kernel: launches, timed, counted, total_ms, median_ms, share_pct
 *   (of all timed kernel time), counters over its counted launches: counts
 *   (inst, sectors, kernel_time_ms) summed, ratios (rates, percentages, ipc,
 *   clock, stall reasons) as means weighted by each launch's time (timing
 *   pass, else its counted kernel_time_ms, else 1), and derived columns from
 *   those (gips over the counted launches' timed time; when one of them was
 *   not timed, over their summed kernel_time_ms);
 * - per range: the same over the launches whose innermost NVTX stack is
 *   exactly that path: a parent range does not include its children's
 *   launches, so every launch inside a range is in exactly one row and the
 *   rows' shares sum to that of the launches inside any range (launches
 *   outside every range, range -1, are in none).
 * measured may be NULL or hold NaN (no ceilings): bound is then "", and
 * p->ceiling_inst_gips / ceiling_dram_gbps are set from it (NaN). The L4 and
 * GH200 roofs come from harness/gpus.tsv ($WB_GPUS); a table that cannot be
 * loaded leaves bound_l4 / bound_gh200 "" and is no error. Returns WB_OK, or
 * WB_ERR with e naming the bad launch (kernel or range out of bounds). */
int wb_profile_aggregate(wb_profile *p, const wb_roof *measured, wb_err *e);

/* The same with the L4 and GH200 roofs given (NULL: ""): what tests and
 * tools with a table already loaded call. */
int wb_profile_aggregate_with(wb_profile *p, const wb_roof *measured, const wb_roof *l4, const wb_roof *gh200,
                              wb_err *e);

/* 1 if wb_metrics[i] adds up over launches (unit warp inst, sector, ms), 0
 * if it is averaged (weighted by time). */
int wb_profile_metric_summed(int i);
/* 1 if the counter pass saw the launch (any counter finite). */
int wb_profile_launch_counted(const wb_prof_launch *l);

/* Frees every array and zeroes p (safe on a zeroed profile). */
void wb_profile_free(wb_profile *p);

/* Root attributes (provenance, ceilings, pass costs). Setting a name again
 * replaces its value; numbers are kept as %.17g; a string longer than 1023
 * characters is cut and ends in " ... [cut: N characters]". Returns WB_OK,
 * or WB_ERR (name of 64 characters or more, no memory). */
int wb_profile_attr_str(wb_profile *p, const char *name, const char *value, wb_err *e);
int wb_profile_attr_num(wb_profile *p, const char *name, double value, wb_err *e);
/* Value as string / number; NULL / NaN when absent (or, for _f64, not a number). */
const char *wb_profile_attr(const wb_profile *p, const char *name);
double wb_profile_attr_f64(const wb_profile *p, const char *name);

#endif
