/* sweep.h - the points of a run: families and variants chosen by name, each
 * family's declared sweep, sizes replaced by --n, and the size check that
 * needs them. Shared by `wallbench run` and `wallbench list`. */
#ifndef WB_SWEEP_H
#define WB_SWEEP_H

#include <stdint.h>

#include "harness/run/family.h"
#include "harness/gpu/device.h"
#include "harness/base/error.h"
#include "harness/base/gpus.h"

#define WB_SWEEP_MAX_NAMES 32

/* One point as the run registers it. */
typedef struct wb_run_point {
    const wb_family *family;
    wb_point p;              /* as the sweep gave it (plan completes a copy) */
    char name[256];          /* wb_point_name: Google Benchmark name, NVTX range, progress */
    struct wb_run *run;      /* set by the run before registering */
    int index;               /* in the run's array, which is the order points run in */
    int selected;            /* 1: --benchmark_filter keeps it */
    int counted;             /* 1: counted_c holds its counters, from a batch led by an earlier point */
    double counted_ms;       /* its share of that batch's wall time */
    wb_counters counted_c;
} wb_run_point;

typedef struct wb_selection {
    const wb_family *families[WB_SWEEP_MAX_NAMES];
    int nfamilies;
    char variants[WB_SWEEP_MAX_NAMES][24]; /* none: every variant */
    int nvariants;
    int64_t sizes[WB_SWEEP_MAX_NAMES];     /* --n; none: the sweep's sizes */
    int nsizes;
} wb_selection;

/* "test", "quick", "full" -> kind; WB_ERR naming the valid names. */
int wb_sweep_kind_parse(const char *s, wb_sweep_kind *k, wb_err *e);
const char *wb_sweep_kind_name(wb_sweep_kind k);

/* Fills s from the option values (NULL: all families, every variant, the
 * sweep's sizes). Unknown names get WB_ERR listing the valid ones; a variant
 * must belong to one of the chosen families. */
int wb_selection_parse(const char *families, const char *variants, const char *sizes, wb_selection *s, wb_err *e);

/* The points of s for sweep kind k on device d, in run order (family by
 * family; with --n, size by size). *pts is malloc'ed; WB_ERR when a sweep
 * fails or gives no point. */
int wb_sweep_points(const wb_selection *s, wb_sweep_kind k, const wb_device *d, wb_run_point **pts, int *n,
                    wb_err *e);

/* The points a counter batch led by pts[from] may take, in run order:
 * selected, not counted yet, of its family, of at most data_sets data sets
 * (same_data) with the leader's, the first ones met; points of other data
 * are passed over, until the family ends, at most max. Writes their indices
 * into idx; returns how many. A batch over several data sets holds them on
 * the device at once (measure_counters.c): CUPTI's first Start of a batch
 * costs ~0.2 s on the H200 (counters.h), and the default sweep's data sets
 * hold 1 to 30 points. */
#define WB_BATCH_DATA_SETS_MAX 8
int wb_sweep_batch_after(const wb_run_point *pts, int npts, int from, int *idx, int max, int data_sets);

/* With --n: WB_ERR when for some size no point fits the device's total
 * memory (the run would only skip). Points that fit total but not free
 * memory are skipped later, at run time. */
int wb_sweep_check_sizes(const wb_selection *s, const wb_run_point *pts, int n, const wb_device *d, wb_err *e);

/* A stand-in device from a profile row, for listing sweeps without a GPU. */
void wb_sweep_nominal_device(const wb_gpu_ref *g, wb_device *d);

/* SM-scaling steps of the projection sweeps (`wallbench project --validate`):
 * sms/16, sms/8, sms/4, sms/2 and all SMs, distinct and at least 1, into ks;
 * returns their count. 132 SMs: 8 16 33 66 132; 58 (L4): 3 7 14 29 58. */
#define WB_SM_STEPS 5
int wb_sm_steps(const wb_device *d, int ks[WB_SM_STEPS]);

#endif
