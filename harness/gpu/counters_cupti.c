/* counters_cupti.c - the target-side half of the CUPTI backend of
 * counters.h: the Range Profiler counts one user range per point with user
 * replay, so the harness itself re-runs reset + launch once per pass, CUPTI
 * never saves or restores device memory, and every kernel of the point lands
 * in its range; points of a batch share the passes, one range each. A CUPTI
 * callback counts the launches (counters_launches.c); the host-side half
 * (config image, passes, evaluation) is counters_host.c. The call sequence
 * is CUPTI's Range Profiler sample's; it matched ncu on the H200
 * (tests/test_gpu_counters.c checks it there). */
#include "harness/gpu/counters.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "harness/base/clock.h"
#include "harness/gpu/counters_cupti.h"
#include "harness/base/metrics.h"
#include "harness/gpu/cuda_check.h"

/* One range a point, one point per batch member. */
#define WB_MAX_RANGES WB_COUNTERS_BATCH_MAX

/* The current context and its device, through driver entry points: the
 * build links the runtime only, so that CI machines without a driver link. */
static int current_context(CUcontext *ctx, CUdevice *dev, wb_err *e) {
    static const char *const syms[] = {"cuCtxGetCurrent", "cuCtxGetDevice"};
    void *fn[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        cudaError_t ce = cudaGetDriverEntryPointByVersion(syms[i], &fn[i], 12000, cudaEnableDefault, &q);
        if (ce != cudaSuccess || q != cudaDriverEntryPointSuccess || !fn[i])
            return wb_skip(e, "cudaGetDriverEntryPointByVersion(%s): %s", syms[i],
                           ce != cudaSuccess ? cudaGetErrorName(ce) : "symbol not found");
    }
    CUresult r = ((CUresult(*)(CUcontext *))fn[0])(ctx);
    if (r != CUDA_SUCCESS || !*ctx) return wb_skip(e, "cuCtxGetCurrent: no current CUDA context (error %d)", (int)r);
    r = ((CUresult(*)(CUdevice *))fn[1])(dev);
    if (r != CUDA_SUCCESS) return wb_skip(e, "cuCtxGetDevice: error %d", (int)r);
    return WB_OK;
}

static const char *unsupported_part(const CUpti_Profiler_DeviceSupported_Params *p) {
    if (p->architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "architecture before compute capability 7.0";
    if (p->sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "SLI";
    if (p->vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED) return "vGPU with profiling disabled";
    if (p->vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "vGPU";
    if (p->confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "confidential computing";
    if (p->cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "crypto-mining processor";
    if (p->wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "WSL";
    return "reason not given";
}

/* Skips only on an explicit "unsupported"/"disabled": an "unknown" level
 * lets the later calls decide. */
static int check_device(wb_counters_session *s, CUdevice dev, wb_err *e) {
    CUpti_Profiler_DeviceSupported_Params p = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE,
                                               .cuDevice = dev, .api = CUPTI_PROFILER_RANGE_PROFILING};
    if (WB_CUPTI(WB_SKIP, e, cuptiProfilerDeviceSupported, &p) != WB_OK) return WB_SKIP;
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        p.isSupported == CUPTI_PROFILER_CONFIGURATION_DISABLED)
        return wb_skip(e, "cuptiProfilerDeviceSupported: range profiling unsupported on this device (%s)",
                       unsupported_part(&p));

    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                          .deviceIndex = (size_t)dev};
    if (WB_CUPTI(WB_SKIP, e, cuptiDeviceGetChipName, &cn) != WB_OK) return WB_SKIP;
    snprintf(s->chip, sizeof s->chip, "%s", cn.pChipName ? cn.pChipName : "");

    CUpti_Profiler_GetCounterAvailability_Params ca = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, .ctx = s->ctx};
    if (WB_CUPTI(WB_SKIP, e, cuptiProfilerGetCounterAvailability, &ca) != WB_OK) return WB_SKIP;
    if (!(s->avail = calloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1, 1)))
        return wb_skip(e, "counter availability image: out of host memory");
    ca.pCounterAvailabilityImage = s->avail;
    return WB_CUPTI(WB_SKIP, e, cuptiProfilerGetCounterAvailability, &ca);
}

/* Wall seconds, for the cost split of wb_counters_cost. */

/* The profiler object lives for one batch: enabled before its passes,
 * disabled after its decode, so that no timed sample runs while it exists.
 * Kept enabled for the whole run (the first design: cheaper, since Enable
 * builds the object afresh), it slowed kernels it did not count: with
 * counters on, the timed samples of select/if_warp at 2^28 ran 6.6-8% slower
 * and scan/tiled at ILP 1 11% slower than with --no-counters, run after run
 * (H200, 2026-12-01, tests/hw/profiler-h200.txt: 2.341 vs 2.194 ms, 2.060 vs 1.852 ms).
 * The image must be sized through the object that initialises it: the size
 * call is where the object learns the metrics (CounterDataImageInitialize
 * takes none), and initialising without it crashed inside libcupti on the
 * H200 (2026-11-29). */
static int enable(wb_counters_session *s, wb_err *e) {
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, .ctx = s->ctx};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerEnable, &en) != WB_OK) return WB_ERR;
    s->rp = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxNumOfRanges = WB_MAX_RANGES,
        .maxNumRangeTreeNodes = WB_MAX_RANGES};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerGetCounterDataSize, &ds) != WB_OK) return WB_ERR;
    if (ds.counterDataSize > s->data_size) {
        uint8_t *grown = realloc(s->data, ds.counterDataSize);
        if (!grown) return wb_fail(e, "counter data image of %zu bytes: out of host memory", ds.counterDataSize);
        s->data = grown;
    }
    s->data_size = ds.counterDataSize;
    return WB_OK;
}

/* Drops the kept object; a failure lands in e when e is given and empty. */
static void disable(wb_counters_session *s, wb_err *e) {
    if (!s->rp) return;
    CUpti_RangeProfiler_Disable_Params p = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                            .pRangeProfilerObject = s->rp};
    wb_err de;
    if (WB_CUPTI(WB_ERR, &de, cuptiRangeProfilerDisable, &p) != WB_OK && e && !e->msg[0]) *e = de;
    s->rp = NULL;
}

/* A fresh counter data image and the config: the start of every point. */
static int arm(wb_counters_session *s, wb_err *e) {
    memset(s->data, 0, s->data_size);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .counterDataSize = s->data_size, .pCounterData = s->data};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerCounterDataImageInitialize, &ci) != WB_OK) return WB_ERR;
    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .configSize = s->config_size, .pConfig = s->config, .counterDataImageSize = s->data_size,
        .pCounterDataImage = s->data, .range = CUPTI_UserRange, .replayMode = CUPTI_UserReplay,
        .maxRangesPerPass = WB_MAX_RANGES, .numNestingLevels = 1, .minNestingLevel = 1, .passIndex = 0,
        .targetNestingLevel = 1};
    return WB_CUPTI(WB_ERR, e, cuptiRangeProfilerSetConfig, &sc);
}

/* Enables the object for a batch and arms it. */
static int begin_point(wb_counters_session *s, wb_err *e) {
    if (!s->rp && enable(s, e) != WB_OK) return WB_ERR;
    return arm(s, e);
}

int wb_counters_open(const wb_device *d, wb_counter_set set, wb_counters_session **out, wb_err *e) {
    *out = NULL;
    wb_counters_session *s = calloc(1, sizeof *s);
    if (!s) return wb_skip(e, "hardware counters unavailable: out of host memory");
    CUdevice dev = 0;
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (wb_cupti_load_nvperf(s, WB_SKIP, e) != WB_OK) goto skip;
    if (WB_CUDA(e, cudaSetDevice(d->ordinal)) != WB_OK || WB_CUDA(e, cudaFree(NULL)) != WB_OK) goto skip;
    if (current_context(&s->ctx, &dev, e) != WB_OK) goto skip;
    if (WB_CUPTI(WB_SKIP, e, cuptiProfilerInitialize, &ip) != WB_OK) goto skip;
    s->profiler_initialized = 1;
    if (check_device(s, dev, e) != WB_OK) goto skip;
    if (wb_cupti_host_build(s, s->chip, s->avail, set, WB_SKIP, e) != WB_OK) goto skip;
    if (enable(s, e) != WB_OK) goto skip;
    wb_cupti_count_launches(s);
    wb_err de = {""};
    disable(s, &de); /* timed samples run with no profiler object (see enable) */
    if (de.msg[0]) {
        *e = de;
        goto skip;
    }
    snprintf(s->summary, sizeof s->summary, "CUPTI range profiler on %s: %s set, %d of %d metrics, %d passes a point%s%s",
             s->chip, wb_counter_set_name(set), s->n, wb_n_metrics, s->passes, s->note[0] ? "; " : "", s->note);
    *out = s;
    return WB_OK;
skip:
    wb_err_prefix(e, "hardware counters unavailable");
    wb_counters_close(s);
    return WB_SKIP;
}

/* One member's range: Push, launch, wait, Pop. The wait comes before the Pop
 * so that work on any stream ends inside the range (CUPTI's
 * concurrent_profiling sample does the same); Pop runs even after a failure
 * so that the profiler is left between ranges. */
static int one_range(wb_counters_session *s, wb_member_step launch, void *ctx, int member, wb_err *e) {
    /* One name per member: CUPTI adds ranges of the same name into one. */
    char name[32];
    snprintf(name, sizeof name, WB_RANGE_PREFIX "%d", member);
    CUpti_RangeProfiler_PushRange_Params pu = {.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE,
                                               .pRangeProfilerObject = s->rp, .pRangeName = name};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerPushRange, &pu) != WB_OK) return WB_ERR;
    s->launches = s->depth = 0;
    s->counting = 1;
    int rc = launch(ctx, member, e);
    s->counting = 0;
    if (rc == WB_OK) rc = WB_CUDA(e, cudaDeviceSynchronize());
    CUpti_RangeProfiler_PopRange_Params po = {.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE,
                                              .pRangeProfilerObject = s->rp};
    wb_err pe;
    if (WB_CUPTI(WB_ERR, &pe, cuptiRangeProfilerPopRange, &po) != WB_OK && rc == WB_OK) *e = pe, rc = WB_ERR;
    return rc;
}

/* One pass: Start, then every member's prepare (outside any range) and
 * range, Stop. Start costs ~22 ms and Stop ~7 ms on the H200 whatever the
 * pass holds, a range ~1 ms (2026-11-29): hence batches. Stop runs even
 * after a failure. *failed = the member that failed, or -1. */
static int one_pass(wb_counters_session *s, const wb_batch *b, int pass, int *launched, int *all_submitted, int *failed,
                    wb_err *e) {
    CUpti_RangeProfiler_Start_Params st = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE,
                                           .pRangeProfilerObject = s->rp};
    double t0 = wb_clock_s();
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerStart, &st) != WB_OK) return WB_ERR;
    s->cost_s[WB_COST_START] += wb_clock_s() - t0;
    if (pass == 0) s->first_start_s += wb_clock_s() - t0;
    s->starts++;
    int rc = WB_OK;
    for (int m = 0; m < b->members && rc == WB_OK; m++) {
        double t1 = wb_clock_s();
        if ((rc = b->prepare(b->ctx, m, e)) == WB_OK) rc = WB_CUDA(e, cudaDeviceSynchronize());
        double t2 = wb_clock_s();
        s->cost_s[WB_COST_RESET] += t2 - t1;
        if (rc == WB_OK) rc = one_range(s, b->launch, b->ctx, m, e);
        s->cost_s[WB_COST_RANGE] += wb_clock_s() - t2;
        if (rc != WB_OK) *failed = m;
        launched[m] = s->launches;
    }
    CUpti_RangeProfiler_Stop_Params sp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE,
                                          .pRangeProfilerObject = s->rp};
    wb_err se;
    double t3 = wb_clock_s();
    if (WB_CUPTI(WB_ERR, &se, cuptiRangeProfilerStop, &sp) != WB_OK && rc == WB_OK) *e = se, rc = WB_ERR;
    s->cost_s[WB_COST_STOP] += wb_clock_s() - t3;
    *all_submitted = sp.isAllPassSubmitted != 0;
    return rc;
}

/* User replay: passes until CUPTI has every one. Every pass must launch as
 * many kernels per member as the first: the passes count different counters
 * of what must be the same work. */
static int replay(wb_counters_session *s, const wb_batch *b, int *launches, int *failed, wb_err *e) {
    int rc = WB_OK, all = 0, launched[WB_COUNTERS_BATCH_MAX];
    const int max_passes = 2 * s->passes + 2;
    wb_err ce;
    if (s->sub && wb_cupti_launch_callbacks(s, 1, &ce) != WB_OK) wb_cupti_stop_counting(s, &ce);
    for (int pass = 0; rc == WB_OK && !all; pass++) {
        if (pass == max_passes) {
            rc = wb_fail(e, "CUPTI wants more passes after %d replays (host API said %d)", pass, s->passes);
            break;
        }
        if ((rc = one_pass(s, b, pass, pass ? launched : launches, &all, failed, e)) != WB_OK) break;
        for (int m = 0; s->sub && pass > 0 && m < b->members && rc == WB_OK; m++)
            if (launched[m] != launches[m]) {
                *failed = m;
                rc = wb_fail(e, "replay %d launched %d kernel(s), the first %d: launch() must repeat the same work",
                             pass, launched[m], launches[m]);
            }
    }
    if (s->sub && wb_cupti_launch_callbacks(s, 0, &ce) != WB_OK) wb_cupti_stop_counting(s, &ce);
    if (!s->sub)
        for (int m = 0; m < b->members; m++) launches[m] = -1;
    return rc;
}

/* Decodes the passes into the counter data image: one range per member. */
static int decode(wb_counters_session *s, int members, double (*vals)[WB_METRICS_MAX], wb_err *e) {
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = s->rp};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerDecodeData, &dd) != WB_OK) return WB_ERR;
    if (dd.numOfRangeDropped != 0)
        return wb_fail(e, "cuptiRangeProfilerDecodeData: %zu range(s) dropped", dd.numOfRangeDropped);
    return wb_cupti_evaluate(s, members, vals, e);
}

int wb_counters_collect_batch(wb_counters_session *s, const wb_batch *b, wb_counters *out, int *failed, wb_err *e) {
    *failed = -1;
    if (!s) {
        for (int m = 0; m < b->members; m++) wb_counters_clear(&out[m], "counters off");
        return wb_skip(e, "counters off: no CUPTI session");
    }
    if (b->members < 1 || b->members > WB_COUNTERS_BATCH_MAX)
        return wb_fail(e, "a counter batch of %d points (1 to %d)", b->members, WB_COUNTERS_BATCH_MAX);
    for (int m = 0; m < b->members; m++) wb_counters_clear(&out[m], "");
    double vals[WB_COUNTERS_BATCH_MAX][WB_METRICS_MAX];
    int launches[WB_COUNTERS_BATCH_MAX];
    double t0 = wb_clock_s();
    s->batches++;
    int rc = begin_point(s, e);
    s->cost_s[WB_COST_SETUP] += wb_clock_s() - t0;
    if (rc == WB_OK) rc = replay(s, b, launches, failed, e);
    double t2 = wb_clock_s();
    if (rc == WB_OK) rc = decode(s, b->members, vals, e);
    wb_err de = {""};
    disable(s, &de);
    if (de.msg[0] && rc == WB_OK) *e = de, rc = WB_ERR;
    s->cost_s[WB_COST_DECODE] += wb_clock_s() - t2;
    if (rc != WB_OK) {
        for (int m = 0; m < b->members; m++) wb_counters_clear(&out[m], e->msg);
        return WB_ERR;
    }
    for (int m = 0; m < b->members; m++) {
        for (int k = 0; k < s->n; k++) out[m].v[s->column[k]] = vals[m][k] * wb_metrics[s->column[k]].scale;
        out[m].launches = launches[m];
        snprintf(out[m].note, sizeof out[m].note, "%s", s->note);
        wb_counters_group(&out[m]);
    }
    return WB_OK;
}

/* The one-point form: a batch of one whose steps ignore the member index. */
typedef struct single {
    wb_pass_step reset, launch;
    void *ctx;
} single;

static int single_reset(void *ctx, int member, wb_err *e) {
    (void)member;
    single *o = ctx;
    return o->reset(o->ctx, e);
}

static int single_launch(void *ctx, int member, wb_err *e) {
    (void)member;
    single *o = ctx;
    return o->launch(o->ctx, e);
}

int wb_counters_collect(wb_counters_session *s, wb_pass_step reset, wb_pass_step launch, void *ctx,
                        wb_counters *out, wb_err *e) {
    single o = {reset, launch, ctx};
    wb_batch b = {1, single_reset, single_launch, &o};
    int failed;
    return wb_counters_collect_batch(s, &b, out, &failed, e);
}

/* Teardown: a failing CUPTI call here leaves nothing to recover. */
void wb_counters_close(wb_counters_session *s) {
    if (!s) return;
    disable(s, NULL);
    if (s->sub) (void)cuptiUnsubscribe(s->sub);
    wb_cupti_host_free(s);
    if (s->profiler_initialized) {
        CUpti_Profiler_DeInitialize_Params p = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        (void)cuptiProfilerDeInitialize(&p);
    }
    free(s->avail);
    free(s->data);
    if (s->nvperf) dlclose(s->nvperf);
    free(s);
}

int wb_counters_passes(const wb_counters_session *s) { return s ? s->passes : 0; }

int wb_counters_profiling(const wb_counters_session *s) { return s && s->rp; }

const char *wb_counters_summary(const wb_counters_session *s) { return s ? s->summary : "counters off"; }

void wb_counters_cost(const wb_counters_session *s, char *buf, size_t len) {
    if (!s) {
        snprintf(buf, len, "counters off");
        return;
    }
    const double *c = s->cost_s;
    snprintf(buf, len, "%ld batches, %ld Starts: enable %.1f s, reset %.1f s, start %.1f s (the batches' first %.1f s), "
             "range %.1f s, stop %.1f s, decode+disable %.1f s", s->batches, s->starts, c[WB_COST_SETUP], c[WB_COST_RESET],
             c[WB_COST_START], s->first_start_s, c[WB_COST_RANGE], c[WB_COST_STOP], c[WB_COST_DECODE]);
}
