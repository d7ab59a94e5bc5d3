/* sampling.c - the sampled timeline (wallbench profile --sample): CUPTI PM
 * sampling of the core counter set (one pass; instructions, DRAM and L2
 * sectors, clock) on the GPU of the program's first launch, every
 * WB_PROFILE_SAMPLE_NS nanoseconds, device-wide, beside the timing pass's
 * Activity records of the same process. Nothing is replayed or serialized:
 * the program runs as it does plain. A thread of our own decodes the
 * hardware buffer every DECODE_MS into S lines (start_ns end_ns v1 ... vn,
 * the values in "# metrics" order; timestamps on the Activity records' clock),
 * so that the driver splits each sample among the kernels that ran in it.
 * Traps measured on the H200 (NOTES, 2026-12-04): DecodeData into an image
 * smaller than the backlog drops samples silently (the image holds several
 * decode periods; the driver counts gaps between samples); the first sample
 * after Start spans the time since the last Stop (the driver drops it); one
 * PM-sampling client per device (an error here leaves the timing pass whole).
 * Experimental: in its one H200 run (2026-12-04, dev call 4) both sampled
 * programs finished their work and never exited (the profiler waited at exit).
 * Since then the decode thread makes the program's context current (the probe
 * that worked did), and the exit path waits at most STOP_WAIT_S for the decode
 * thread and skips CUPTI's Stop when it does not come back; unmeasured. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "harness/base/metrics.h"
#include "harness/gpu/counters_cupti.h"
#include "harness/profile/inject/inject.h"

#define DECODE_MS 20
#define IMAGE_SAMPLES 4096          /* 20 ms at 10 us; 400 ms at the default 100 us */
#define HW_BUFFER_BYTES (512u << 20)
#define STOP_WAIT_S 3

typedef struct sampler {
    wb_counters_session s;          /* host half: core set, config image for PM sampling */
    CUpti_PmSampling_Object *obj;
    uint8_t *image;
    size_t image_size;
    pthread_t thread;
    int running, stop, started;
    pthread_mutex_t lock;           /* the decode: the thread's and the final one */
    int64_t samples, decodes;
} sampler;

static sampler sm = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t once = PTHREAD_ONCE_INIT;
static CUcontext first_ctx;

static int bad(const char *call, CUptiResult r) {
    wb_raw_error("sampling: %s: %s; the timeline has no samples from here on (kernels are still timed)", call,
                 wb_inject_cupti_str(r));
    return -1;
}
#define TRY(call, ...)                                    \
    do {                                                  \
        CUptiResult r_ = call(__VA_ARGS__);               \
        if (r_ != CUPTI_SUCCESS) return bad(#call, r_);   \
    } while (0)

static int init_image(void) {
    CUpti_PmSampling_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj,
        .counterDataSize = sm.image_size, .pCounterData = sm.image};
    TRY(cuptiPmSamplingCounterDataImageInitialize, &ci);
    return 0;
}

/* Every completed sample of the image as an S line, then the image emptied. */
static int write_samples(void) {
    wb_counters_session *s = &sm.s;
    CUpti_PmSampling_GetCounterDataInfo_Params gi = {.structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE,
                                                     .pCounterDataImage = sm.image, .counterDataImageSize = sm.image_size};
    TRY(cuptiPmSamplingGetCounterDataInfo, &gi);
    char line[WB_METRICS_MAX * 26 + 64];
    for (size_t i = 0; i < gi.numCompletedSamples; i++) {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params si = {
            .structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj,
            .pCounterDataImage = sm.image, .counterDataImageSize = sm.image_size, .sampleIndex = i};
        TRY(cuptiPmSamplingCounterDataGetSampleInfo, &si);
        double v[WB_METRICS_MAX];
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, .pHostObject = s->host,
            .pCounterDataImage = sm.image, .counterDataImageSize = sm.image_size, .rangeIndex = i,
            .ppMetricNames = s->names, .numMetrics = (size_t)s->n, .pMetricValues = v};
        TRY(cuptiProfilerHostEvaluateToGpuValues, &ev);
        int len = snprintf(line, sizeof line, "S\t%llu\t%llu", (unsigned long long)si.startTimestamp,
                           (unsigned long long)si.endTimestamp);
        for (int k = 0; k < s->n && len < (int)sizeof line; k++)
            len += snprintf(line + len, sizeof line - (size_t)len, "\t%.17g", v[k]);
        wb_raw_line("%s", line);
        sm.samples++;
    }
    return init_image();
}

/* Decodes until the hardware buffer is empty (an image may fill first). */
static int decode(void) {
    for (int round = 0; round < 64; round++) {
        CUpti_PmSampling_DecodeData_Params dd = {.structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE,
                                                 .pPmSamplingObject = sm.obj, .pCounterDataImage = sm.image,
                                                 .counterDataImageSize = sm.image_size};
        TRY(cuptiPmSamplingDecodeData, &dd);
        sm.decodes++;
        if (dd.overflow) wb_raw_error("sampling: the hardware buffer overflowed: samples lost (a longer --sample-interval helps)");
        if (write_samples() != 0) return -1;
        if (dd.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) return 0;
    }
    return 0;
}

static void *decoder(void *arg) {
    (void)arg;
    if (cuCtxSetCurrent(first_ctx) != CUDA_SUCCESS)
        wb_raw_error("sampling: the decode thread could not make the program's context current");
    for (;;) {
        struct timespec ts = {0, DECODE_MS * 1000000L};
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&sm.lock);
        int stop = sm.stop, rc = stop ? 0 : decode();
        pthread_mutex_unlock(&sm.lock);
        if (stop || rc != 0) break;
    }
    return NULL;
}

static int setup(void) {
    wb_counters_session *s = &sm.s;
    wb_err e;
    if (wb_cupti_load_nvperf(s, WB_ERR, &e) != WB_OK) {
        wb_raw_error("sampling: %s", e.msg);
        return -1;
    }
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    TRY(cuptiProfilerInitialize, &ip);
    uint32_t dev = 0;
    TRY(cuptiGetDeviceId, first_ctx, &dev);
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE, .deviceIndex = dev};
    TRY(cuptiDeviceGetChipName, &cn);
    snprintf(s->chip, sizeof s->chip, "%s", cn.pChipName ? cn.pChipName : "");
    CUpti_PmSampling_GetCounterAvailability_Params ca = {
        .structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE, .deviceIndex = dev};
    TRY(cuptiPmSamplingGetCounterAvailability, &ca);
    if (!(s->avail = calloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1, 1))) return -1;
    ca.pCounterAvailabilityImage = s->avail;
    TRY(cuptiPmSamplingGetCounterAvailability, &ca);
    s->pm_sampling = 1;
    if (wb_cupti_host_build(s, s->chip, s->avail, WB_COUNTER_SET_CORE, WB_ERR, &e) != WB_OK) {
        wb_raw_error("sampling: metric set for %s: %s", s->chip, e.msg);
        return -1;
    }
    char line[WB_METRICS_MAX * 40 + 16];
    int len = snprintf(line, sizeof line, "# metrics");
    for (int k = 0; k < s->n && len < (int)sizeof line; k++)
        len += snprintf(line + len, sizeof line - (size_t)len, "\t%s", wb_metrics[s->column[k]].column);
    wb_raw_line("%s", line);
    wb_raw_line("# sampling\tinterval_ns %lld\tchip %s\tpasses %d", (long long)wb_inj.sample_ns, s->chip, s->passes);
    CUpti_PmSampling_Enable_Params en = {.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE, .deviceIndex = dev};
    TRY(cuptiPmSamplingEnable, &en);
    sm.obj = en.pPmSamplingObject;
    CUpti_PmSampling_GetCounterDataSize_Params ds = {
        .structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj,
        .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxSamples = IMAGE_SAMPLES};
    TRY(cuptiPmSamplingGetCounterDataSize, &ds);
    sm.image_size = ds.counterDataSize;
    if (!(sm.image = malloc(sm.image_size))) return bad("malloc(counter data image)", CUPTI_ERROR_OUT_OF_MEMORY);
    memset(sm.image, 0, sm.image_size); /* pre-touched: no page faults in the decode thread's first pass */
    if (init_image() != 0) return -1;
    CUpti_PmSampling_SetConfig_Params sc = {
        .structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj,
        .configSize = s->config_size, .pConfig = s->config, .hardwareBufferSize = HW_BUFFER_BYTES,
        .samplingInterval = (uint64_t)wb_inj.sample_ns, .triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL,
        .hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST};
    TRY(cuptiPmSamplingSetConfig, &sc);
    CUpti_PmSampling_Start_Params st = {.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj};
    TRY(cuptiPmSamplingStart, &st);
    sm.started = 1;
    if (pthread_create(&sm.thread, NULL, decoder, NULL) != 0) {
        wb_raw_error("sampling: no decode thread; samples are decoded at exit only (the buffer may overflow)");
        return 0;
    }
    sm.running = 1;
    return 0;
}

static void setup_once(void) { (void)setup(); }

void wb_sampling_first_launch(CUcontext ctx) {
    if (wb_inj.sample_ns <= 0) return;
    first_ctx = ctx;
    pthread_once(&once, setup_once);
}

/* Never blocks the program's exit for more than STOP_WAIT_S: a decode thread that does not come
 * back leaves its samples undecoded and CUPTI's Stop uncalled (an E line says so). */
void wb_sampling_finish(void) {
    if (!sm.obj) return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_WAIT_S;
    int stuck = pthread_mutex_timedlock(&sm.lock, &until) != 0;
    if (!stuck) {
        sm.stop = 1;
        pthread_mutex_unlock(&sm.lock);
        if (sm.running) stuck = pthread_timedjoin_np(sm.thread, NULL, &until) != 0;
    }
    if (stuck) {
        wb_raw_error("sampling: the decode thread did not stop within %d s at exit: the samples since its last "
                     "decode are lost, and PM sampling was left to the driver", STOP_WAIT_S);
        return;
    }
    if (sm.started) {
        CUpti_PmSampling_Stop_Params sp = {.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj};
        CUptiResult r = cuptiPmSamplingStop(&sp);
        if (r != CUPTI_SUCCESS) bad("cuptiPmSamplingStop", r);
        (void)decode();
    }
    CUpti_PmSampling_Disable_Params dp = {.structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE, .pPmSamplingObject = sm.obj};
    (void)cuptiPmSamplingDisable(&dp);
    sm.obj = NULL;
    wb_raw_line("# sampled\tsamples %lld\tdecodes %lld", (long long)sm.samples, (long long)sm.decodes);
}
