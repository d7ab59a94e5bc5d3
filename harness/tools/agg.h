/* agg.h - time-weighted aggregation over benchmark points, shared by the
 * report (seed 000 Tables 6-9) and the figure exports (Figs 4-9). The paper
 * aggregates kernel time over TPC-H queries; the suite measures isolated
 * kernels, so "time" here is each point's time_median_ms and the population
 * is the operator points: status "ok", family other than the ceilings' (the
 * calibration kernels sit on the roof by design), positive time. */
#ifndef WB_AGG_H
#define WB_AGG_H

#include "harness/tools/ceilings.h"
#include "harness/base/point.h"

/* Percent scale of the CDF figures: x = 0, 1, ..., 100. */
#define WB_AGG_CDF_STEPS 101
/* Seed 000 splits utilisation at 75% (Table 6, Figs 6 and 8, Table 8). */
#define WB_AGG_SATURATED_PCT 75.0

/* 1 if r counts in the aggregates (see above). */
int wb_agg_is_op_point(const wb_row *r);
/* Counter column by metrics.c name ("ipc", "dram_throughput_pct", ...); NaN
 * for an unknown name. */
double wb_agg_metric(const wb_row *r, const char *column);
/* SM clock the point's counters saw, GHz: sm_clock_hz, else NVML's
 * sm_clock_mhz, else the file's inst_issue clock; NaN. */
double wb_agg_clock_ghz(const wb_row *r, const wb_gpu_view *v);
/* Instruction throughput utilisation, %: sm_throughput_pct (Nsight's
 * sm__inst_executed over the issue peak), else 100 * gips / (SMs x SMSP x
 * the point's clock), seed 000's formula; NaN without counters. */
double wb_agg_inst_pct(const wb_row *r, const wb_gpu_view *v);
/* Memory bandwidth utilisation, %: Nsight's dram__throughput share of peak. */
double wb_agg_mem_pct(const wb_row *r);
/* "memory" / "compute" against the file's measured roof (v->roof: inst_issue
 * over dram_read), recomputed from inst_per_sector so that tables and figures
 * agree with the roof they draw; the stored bound column when the file has
 * no measured roof; "" without counters. */
const char *wb_agg_bound(const wb_row *r, const wb_gpu_view *v);
/* 1 if L1, L2 and DRAM throughput are all known and below 75% (the rows seed
 * 000 Table 8 counts), 0 otherwise. */
int wb_agg_below_all_tiers(const wb_row *r);

/* share[x] = 100 * sum(w[i] : v[i] >= x) / sum(w[i] : v[i] finite), for x =
 * 0..100; pairs with NaN v or non-positive w are left out. Returns the
 * weight counted (0: share[] is all NaN). */
double wb_agg_cdf(const double *v, const double *w, int n, double share[WB_AGG_CDF_STEPS]);
/* Weighted mean and standard deviation of the finite v; NaN when none. */
void wb_agg_mean_std(const double *v, const double *w, int n, double *mean, double *std);
/* Weighted geometric mean of the positive finite v; NaN when none. */
double wb_agg_geomean(const double *v, const double *w, int n);

#endif
