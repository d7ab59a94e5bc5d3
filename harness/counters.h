/* counters.h - hardware counters for one point, in a pass of their own
 * (never inside timed samples). Two backends with the same functions:
 * counters_cupti.c (CUPTI Range Profiler, user replay) and the NaN fallback
 * used when CUPTI cannot run here or --no-counters is given. */
#ifndef WB_COUNTERS_H
#define WB_COUNTERS_H

#include "device.h"
#include "error.h"
#include "point.h"
#include "roof.h"

typedef struct wb_counters_session wb_counters_session;

/* A step of a replay pass; returns WB_OK or WB_ERR. */
typedef int (*wb_pass_step)(void *ctx, wb_err *e);

/* Opens a session for the current device. Returns WB_OK, or WB_SKIP with the
 * reason in e (no permission, unsupported GPU, libnvperf_host not found):
 * the caller then runs without counters and warns once. */
int wb_counters_open(const wb_device *d, wb_counters_session **s, wb_err *e);

/* Collects every metric of wb_metrics[] for one point: for each replay pass
 * calls reset(ctx) outside the profiled range, then launch(ctx) inside it;
 * all kernels of one launch() are summed into the point. Fills out->v,
 * out->launches, out->l1_sectors and out->stall; leaves derived columns to
 * wb_counters_derive. On WB_ERR, out is left all-NaN with out->note set. */
int wb_counters_collect(wb_counters_session *s, wb_pass_step reset, wb_pass_step launch, void *ctx,
                        wb_counters *out, wb_err *e);

void wb_counters_close(wb_counters_session *s);

/* Derived columns: inst_per_sector, gips, roof_pct and the three bound
 * classes, from out->v and the roofs. measured may have NaN fields (no
 * ceiling yet): bound is then "". */
void wb_counters_derive(wb_counters *c, const wb_roof *measured, const wb_roof *l4, const wb_roof *gh200);

#endif
