/* fake_cupti.c - a CUPTI of our own (soname libcupti.so.13) for tests/test_inject_fake.c: the
 * injection library runs on the CPU against it. It keeps what a pass needs and no more: the one
 * subscriber's callback (the test calls it, as the driver would), a Range Profiler whose ranges
 * are the kernels the test says ran (fake_kernel_ran; in auto range one a kernel, ours included,
 * in user range the kernels inside a pushed range), decoded at DecodeData and evaluated to
 * smsp__inst_executed.sum = the kernel's instructions (every other metric: half of them), a host
 * side on which a set of more than FAKE_ONE_PASS_METRICS metrics needs 6 passes (so that --counters
 * all replays and --rotate makes groups), and an Activity API whose forced or plain flush hands the
 * kernels' records back. Only the context the profiler was enabled on is profiled (the flush's
 * own context is not). Not a model of CUPTI's timing, replay or errors: a way to run the
 * injection's bookkeeping in CI. */
#include <stdlib.h>
#include <string.h>

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "tests/fake_cuda/fake.h"

#define MAX_RANGES 4096
/* A call that has nothing to do in the fake: it succeeds. */
#define NOTHING_TO_DO(name, params) \
    CUptiResult CUPTIAPI name(params *p) { (void)p; return CUPTI_SUCCESS; }
static CUpti_CallbackFunc callback;
static void *callback_user;
static int started, user_mode;
static double pending[MAX_RANGES], decoded[MAX_RANGES];
static int npending, ndecoded, decodes, flushes_forced, flushes_plain;
static CUpti_BuffersCallbackRequestFunc buffer_requested;
static CUpti_BuffersCallbackCompleteFunc buffer_completed;
static int activity_on;
static CUpti_ActivityKernel10 records[MAX_RANGES];
static int nrecords;
static uint64_t clock_ns = 1000;

void fake_cupti_call(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data) {
    if (callback) callback(callback_user, domain, id, data);
}

static CUcontext profiled; /* the context cuptiRangeProfilerEnable was given */

void fake_kernel_ran(uint32_t correlation, double inst) { fake_kernel_ran_in(profiled, correlation, inst); }

void fake_kernel_ran_in(CUcontext ctx, uint32_t correlation, double inst) {
    const int here = started && ctx == profiled;
    if (here && !user_mode && npending < MAX_RANGES) pending[npending++] = inst;
    if (here && user_mode && npending > 0) pending[npending - 1] += inst;
    if (activity_on && nrecords < MAX_RANGES) {
        CUpti_ActivityKernel10 *k = &records[nrecords++];
        memset(k, 0, sizeof *k);
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k->correlationId = correlation, k->start = clock_ns, k->end = clock_ns + 500, clock_ns += 1000;
        k->gridX = k->gridY = k->gridZ = k->blockX = k->blockY = k->blockZ = 1;
        k->name = "fake_kernel";
    }
}

int fake_cupti_decodes(void) { return decodes; }
int fake_cupti_flushes(int forced) { return forced ? flushes_forced : flushes_plain; }

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc f, void *user) {
    static int handle;
    *sub = (CUpti_SubscriberHandle)&handle;
    callback = f, callback_user = user;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle s, CUpti_CallbackDomain d, CUpti_CallbackId i) {
    (void)enable, (void)s, (void)d, (void)i;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult r, const char **s) {
    (void)r;
    *s = "fake CUPTI error";
    return CUPTI_SUCCESS;
}

/* Activity */
CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done) {
    buffer_requested = req, buffer_completed = done;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
    (void)kind;
    activity_on = 1;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityFlushPeriod(uint32_t ms) {
    (void)ms;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag) {
    if (flag) flushes_forced++;
    else flushes_plain++;
    if (!nrecords || !buffer_requested) return CUPTI_SUCCESS;
    uint8_t *buf = NULL;
    size_t size = 0, max = 0;
    buffer_requested(&buf, &size, &max);
    size_t valid = (size_t)nrecords * sizeof *records;
    if (!buf || size < valid) return CUPTI_ERROR_UNKNOWN;
    memcpy(buf, records, valid);
    nrecords = 0;
    buffer_completed(NULL, 0, buf, size, valid);
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record) {
    uint8_t *next = *record ? (uint8_t *)*record + sizeof(CUpti_ActivityKernel10) : buffer;
    if (next + sizeof(CUpti_ActivityKernel10) > buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext c, uint32_t s, size_t *dropped) {
    (void)c, (void)s;
    *dropped = 0;
    return CUPTI_SUCCESS;
}

/* Target side of the Range Profiler */
NOTHING_TO_DO(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params)
CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext c, uint32_t *id) {
    (void)c;
    *id = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p) {
    p->pChipName = "GH100";
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params *p) {
    if (!p->pCounterAvailabilityImage) p->counterAvailabilityImageSize = 16;
    else memset(p->pCounterAvailabilityImage, 0, p->counterAvailabilityImageSize);
    return CUPTI_SUCCESS;
}
/* Each Enable makes another object and a Disable lets it go: a call on any other than the one
 * enabled now fails, as a stale object would (WB_PROFILE_ROTATE_NEW_OBJECT makes new ones). */
static int profiler_objects[256], enabled = -1, enables;
#define LIVE_OBJECT(obj)                                                                             \
    do {                                                                                             \
        if (enabled < 0 || (void *)(obj) != (void *)&profiler_objects[enabled % 256]) \
            return CUPTI_ERROR_INVALID_PARAMETER;                                                    \
    } while (0)
CUptiResult CUPTIAPI cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params *p) {
    if (enabled >= 0) return CUPTI_ERROR_INVALID_OPERATION; /* one object a context at a time */
    profiled = p->ctx;
    enabled = enables++;
    p->pRangeProfilerObject = (CUpti_RangeProfiler_Object *)&profiler_objects[enabled % 256];
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    enabled = -1;
    return CUPTI_SUCCESS;
}
int fake_cupti_enables(void) { return enables; }
CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    p->counterDataSize = 64;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataImageInitialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    ndecoded = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    user_mode = p->range == CUPTI_UserRange;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    started = 1, npending = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    started = 0;
    p->isAllPassSubmitted = 1;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    memcpy(decoded, pending, (size_t)npending * sizeof *pending);
    ndecoded = npending, npending = 0, decodes++;
    p->numOfRangeDropped = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params *p) {
    p->numTotalRanges = (size_t)ndecoded;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataGetRangeInfo(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params *p) {
    (void)p;
    return CUPTI_ERROR_NOT_SUPPORTED;
}
CUptiResult CUPTIAPI cuptiRangeProfilerPushRange(CUpti_RangeProfiler_PushRange_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    if (npending < MAX_RANGES) pending[npending++] = 0;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiRangeProfilerPopRange(CUpti_RangeProfiler_PopRange_Params *p) {
    LIVE_OBJECT(p->pRangeProfilerObject);
    return CUPTI_SUCCESS;
}

/* Host side: every metric known, one pass */
static int host_object;
CUptiResult CUPTIAPI cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params *p) {
    p->pHostObject = (CUpti_Profiler_Host_Object *)&host_object;
    return CUPTI_SUCCESS;
}
NOTHING_TO_DO(cuptiProfilerHostDeinitialize, CUpti_Profiler_Host_Deinitialize_Params)
CUptiResult CUPTIAPI cuptiProfilerHostGetSupportedChips(CUpti_Profiler_Host_GetSupportedChips_Params *p) {
    static const char *chips[] = {"GH100"};
    p->numChips = 1, p->ppChipNames = chips;
    return CUPTI_SUCCESS;
}
NOTHING_TO_DO(cuptiProfilerHostGetMetricProperties, CUpti_Profiler_Host_GetMetricProperties_Params)
static size_t metrics_added; /* by the last ConfigAddMetrics: its config image says it, for GetNumOfPasses */
CUptiResult CUPTIAPI cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params *p) {
    metrics_added = p->numMetrics;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params *p) {
    p->configImageSize = 16;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params *p) {
    memset(p->pConfigImage, 0, p->configImageSize);
    memcpy(p->pConfigImage, &metrics_added, sizeof metrics_added);
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params *p) {
    size_t n = 0;
    memcpy(&n, p->pConfigImage, sizeof n);
    p->numOfPasses = n > FAKE_ONE_PASS_METRICS ? 6 : 1;
    return CUPTI_SUCCESS;
}
CUptiResult CUPTIAPI cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p) {
    if (p->rangeIndex >= (size_t)ndecoded) return CUPTI_ERROR_INVALID_PARAMETER;
    for (size_t k = 0; k < p->numMetrics; k++)
        p->pMetricValues[k] = strcmp(p->ppMetricNames[k], "smsp__inst_executed.sum") ? decoded[p->rangeIndex] / 2
                                                                                        : decoded[p->rangeIndex];
    return CUPTI_SUCCESS;
}
