/* sampler.c - the sampled timeline (wallbench profile --sample, sampler.h):
 * CUPTI PM sampling of the core counter set (one pass; instructions, DRAM and
 * L2 sectors, clock), device-wide, every interval, from the profiler's own
 * process while the program runs its timing pass. A thread decodes the
 * hardware buffer every DECODE_MS into S lines (start_ns end_ns v1 ... vn, the
 * values in "# metrics" order) of a raw file of its own (pid 0: every process
 * on the device), so that the driver splits each sample among the kernels
 * the timing pass's Activity records put in it (attribute.c).
 *
 * Why here and not in the program: sampling from inside the profiled process
 * (the injection library, until 2026-12-04) changed the program. On the H200
 * (dev call 2 of that day) a 60 M-row CuPy script never exited (killed after
 * 63 s), a PyTorch graph script died at exit ("double free or corruption"),
 * and neither timing pass wrote a single kernel record. The program now runs
 * exactly as under the timing pass alone; PM counters are the device's, so
 * another process sees the same samples.
 *
 * Traps measured on the H200 (a standalone probe, 2026-12-04): DecodeData
 * into an image smaller than the backlog drops samples silently (the image
 * holds several decode periods; the driver counts gaps between samples); the
 * first sample after Start spans the time since the last Stop (the driver
 * drops it); one PM-sampling client per device. */
#include "harness/profile/sampler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "harness/base/clock.h"
#include "harness/base/metrics.h"
#include "harness/gpu/counters_cupti.h"

#define DECODE_MS 20
#define IMAGE_SAMPLES 4096 /* 20 ms at 10 us; 400 ms at the default 100 us */
/* The decode thread empties it every DECODE_MS: 64 MB holds seconds of samples at the shortest
 * interval. 512 MB (until 2026-12-04) took half a second to give back after the program. */
#define HW_BUFFER_BYTES (64u << 20)

struct wb_sampler {
    wb_counters_session s; /* host half: core set, config image for PM sampling */
    CUpti_PmSampling_Object *obj;
    FILE *out;
    int device;
    uint8_t *image;
    size_t image_size;
    pthread_t thread, releaser;
    int running, started, releasing;
    double disable_s, release_s; /* the teardown on the releaser thread: PM sampling off, the context */
    char teardown_failed[512];   /* its first failure, reported by wb_sampler_free */
    pthread_mutex_t lock; /* sm->stop, and one decode at a time */
    pthread_cond_t wake;  /* the decode thread's wait between decodes: the stop wakes it at once */
    int stop;
    double stop_split[3]; /* the stop after the program: the decode thread's end, CUPTI's Stop, the last decode (s) */
    char failed[512];     /* the decode thread's first failure, reported by wb_sampler_stop */
    long long samples, decodes;
};

#define TRY(call, ...)                                                                       \
    do {                                                                                     \
        if (WB_CUPTI(WB_ERR, e, call, __VA_ARGS__) != WB_OK) return WB_ERR;                  \
    } while (0)

static int init_image(wb_sampler *sm, wb_err *e) {
    CUpti_PmSampling_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj,
        .counterDataSize = sm->image_size, .pCounterData = sm->image};
    TRY(cuptiPmSamplingCounterDataImageInitialize, &ci);
    return WB_OK;
}

/* Every completed sample of the image as an S line, then the image emptied. */
static int write_samples(wb_sampler *sm, wb_err *e) {
    wb_counters_session *s = &sm->s;
    CUpti_PmSampling_GetCounterDataInfo_Params gi = {.structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE,
                                                     .pCounterDataImage = sm->image, .counterDataImageSize = sm->image_size};
    TRY(cuptiPmSamplingGetCounterDataInfo, &gi);
    for (size_t i = 0; i < gi.numCompletedSamples; i++) {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params si = {
            .structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj,
            .pCounterDataImage = sm->image, .counterDataImageSize = sm->image_size, .sampleIndex = i};
        TRY(cuptiPmSamplingCounterDataGetSampleInfo, &si);
        double v[WB_METRICS_MAX];
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, .pHostObject = s->host,
            .pCounterDataImage = sm->image, .counterDataImageSize = sm->image_size, .rangeIndex = i,
            .ppMetricNames = s->names, .numMetrics = (size_t)s->n, .pMetricValues = v};
        TRY(cuptiProfilerHostEvaluateToGpuValues, &ev);
        fprintf(sm->out, "S\t%llu\t%llu", (unsigned long long)si.startTimestamp, (unsigned long long)si.endTimestamp);
        for (int k = 0; k < s->n; k++) fprintf(sm->out, "\t%.17g", v[k]);
        fputc('\n', sm->out);
        sm->samples++;
    }
    return init_image(sm, e);
}

/* Decodes until the hardware buffer is empty (an image may fill first). */
static int decode(wb_sampler *sm, wb_err *e) {
    for (int round = 0; round < 64; round++) {
        CUpti_PmSampling_DecodeData_Params dd = {.structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE,
                                                 .pPmSamplingObject = sm->obj, .pCounterDataImage = sm->image,
                                                 .counterDataImageSize = sm->image_size};
        TRY(cuptiPmSamplingDecodeData, &dd);
        sm->decodes++;
        if (dd.overflow)
            fprintf(sm->out, "E\tsampling: the hardware buffer overflowed: samples lost (a longer --sample-interval helps)\n");
        if (write_samples(sm, e) != WB_OK) return WB_ERR;
        if (dd.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
    }
    fflush(sm->out);
    return WB_OK;
}

static void *decoder(void *arg) {
    wb_sampler *sm = arg;
    wb_err e = {""};
    cudaError_t ce = cudaSetDevice(sm->device); /* the context the sampler was enabled in */
    if (ce != cudaSuccess) {
        snprintf(sm->failed, sizeof sm->failed, "decode thread: cudaSetDevice(%d): %s", sm->device, cudaGetErrorString(ce));
        return NULL;
    }
    for (;;) {
        const struct timespec until = wb_deadline_after(DECODE_MS / 1e3);
        pthread_mutex_lock(&sm->lock);
        while (!sm->stop && pthread_cond_timedwait(&sm->wake, &sm->lock, &until) == 0) {
        } /* woken by the stop (or spuriously: wait on until the deadline) */
        int stop = sm->stop, rc = stop ? WB_OK : decode(sm, &e);
        if (rc != WB_OK) snprintf(sm->failed, sizeof sm->failed, "decode thread: %s", e.msg);
        pthread_mutex_unlock(&sm->lock);
        if (stop || rc != WB_OK) return NULL;
    }
}

static int setup(wb_sampler *sm, long long interval_ns, wb_err *e) {
    wb_counters_session *s = &sm->s;
    cudaError_t ce = cudaSetDevice(sm->device);
    if (ce == cudaSuccess) ce = cudaFree(NULL); /* the device's primary context: CUPTI samples through it */
    if (ce != cudaSuccess) return wb_fail(e, "CUDA device %d: %s", sm->device, cudaGetErrorString(ce));
    if (wb_cupti_load_nvperf(s, WB_ERR, e) != WB_OK) return WB_ERR;
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    TRY(cuptiProfilerInitialize, &ip);
    s->profiler_initialized = 1;
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                          .deviceIndex = (size_t)sm->device};
    TRY(cuptiDeviceGetChipName, &cn);
    snprintf(s->chip, sizeof s->chip, "%s", cn.pChipName ? cn.pChipName : "");
    CUpti_PmSampling_GetCounterAvailability_Params ca = {
        .structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE, .deviceIndex = (size_t)sm->device};
    TRY(cuptiPmSamplingGetCounterAvailability, &ca);
    if (!(s->avail = calloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1, 1)))
        return wb_fail(e, "PM sampling: out of host memory");
    ca.pCounterAvailabilityImage = s->avail;
    TRY(cuptiPmSamplingGetCounterAvailability, &ca);
    s->pm_sampling = 1;
    if (wb_cupti_host_build(s, s->chip, s->avail, WB_COUNTER_SET_CORE, WB_ERR, e) != WB_OK) return WB_ERR;
    fprintf(sm->out, "# metrics");
    for (int k = 0; k < s->n; k++) fprintf(sm->out, "\t%s", wb_metrics[s->column[k]].column);
    fprintf(sm->out, "\n# sampling\tinterval_ns %lld\tchip %s\tpasses %d\tdevice %d\n", interval_ns, s->chip, s->passes,
            sm->device);
    CUpti_PmSampling_Enable_Params en = {.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE,
                                         .deviceIndex = (size_t)sm->device};
    TRY(cuptiPmSamplingEnable, &en);
    sm->obj = en.pPmSamplingObject;
    CUpti_PmSampling_GetCounterDataSize_Params ds = {
        .structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj,
        .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxSamples = IMAGE_SAMPLES};
    TRY(cuptiPmSamplingGetCounterDataSize, &ds);
    sm->image_size = ds.counterDataSize;
    if (!(sm->image = calloc(sm->image_size, 1))) return wb_fail(e, "PM sampling: out of host memory (image)");
    if (init_image(sm, e) != WB_OK) return WB_ERR;
    CUpti_PmSampling_SetConfig_Params sc = {
        .structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj,
        .configSize = s->config_size, .pConfig = s->config, .hardwareBufferSize = HW_BUFFER_BYTES,
        .samplingInterval = (uint64_t)interval_ns, .triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL,
        .hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST};
    TRY(cuptiPmSamplingSetConfig, &sc);
    CUpti_PmSampling_Start_Params st = {.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj};
    TRY(cuptiPmSamplingStart, &st);
    sm->started = 1;
    if (pthread_create(&sm->thread, NULL, decoder, sm) != 0)
        fprintf(sm->out, "E\tsampling: no decode thread; samples are decoded at the end only (the buffer may overflow)\n");
    else
        sm->running = 1;
    fflush(sm->out);
    return WB_OK;
}

int wb_sampler_start(const char *path, int device, long long interval_ns, wb_sampler **out, wb_err *e) {
    *out = NULL;
    wb_sampler *sm = calloc(1, sizeof *sm);
    if (!sm) return wb_fail(e, "PM sampling: out of host memory");
    pthread_mutex_init(&sm->lock, NULL);
    pthread_cond_init(&sm->wake, NULL);
    sm->device = device;
    if (!(sm->out = fopen(path, "w"))) {
        free(sm);
        return wb_fail(e, "%s: cannot write the sampled timeline", path);
    }
    /* pid 0: the samples are the device's, every process's kernels share them */
    fprintf(sm->out, "# wallbench-raw 1 pass=sampling pid=0 ppid=%d\n", (int)getpid());
    if (setup(sm, interval_ns, e) != WB_OK) {
        wb_err ignored;
        (void)wb_sampler_stop(sm, &ignored);
        (void)wb_sampler_free(sm, NULL, NULL, &ignored);
        return WB_ERR;
    }
    *out = sm;
    return WB_OK;
}

/* PM sampling and the context this process made for it, torn down while the profiler writes its
 * file: nothing in them is needed once the samples are in it. */
static void *teardown(void *arg) {
    wb_sampler *sm = arg;
    double t0 = wb_clock_s();
    wb_err e = {""};
    if (sm->obj) {
        CUpti_PmSampling_Disable_Params dp = {.structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj};
        if (WB_CUPTI(WB_ERR, &e, cuptiPmSamplingDisable, &dp) != WB_OK) snprintf(sm->teardown_failed, sizeof sm->teardown_failed, "%s", e.msg);
        sm->obj = NULL;
    }
    wb_cupti_host_free(&sm->s); /* its host object and config image */
    if (sm->s.profiler_initialized) {
        CUpti_Profiler_DeInitialize_Params dp = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        if (WB_CUPTI(WB_ERR, &e, cuptiProfilerDeInitialize, &dp) != WB_OK && !sm->teardown_failed[0])
            snprintf(sm->teardown_failed, sizeof sm->teardown_failed, "%s", e.msg);
        sm->s.profiler_initialized = 0;
    }
    double t1 = wb_clock_s();
    cudaError_t ce = cudaSetDevice(sm->device);
    if (ce == cudaSuccess) ce = cudaDeviceReset();
    if (ce != cudaSuccess && !sm->teardown_failed[0])
        snprintf(sm->teardown_failed, sizeof sm->teardown_failed, "releasing device %d's context: %s", sm->device,
                 cudaGetErrorString(ce));
    sm->disable_s = t1 - t0, sm->release_s = wb_clock_s() - t1;
    return NULL;
}

int wb_sampler_stop(wb_sampler *sm, wb_err *e) {
    if (!sm) return WB_OK;
    int rc = WB_OK;
    double t0 = wb_clock_s();
    pthread_mutex_lock(&sm->lock);
    sm->stop = 1;
    pthread_cond_signal(&sm->wake); /* not the rest of its 20 ms wait */
    pthread_mutex_unlock(&sm->lock);
    if (sm->running) pthread_join(sm->thread, NULL);
    sm->running = 0;
    double t1 = wb_clock_s(), t2 = t1;
    if (sm->failed[0]) rc = wb_fail(e, "PM sampling: %s", sm->failed);
    /* Stopped, then the last decode: the hardware buffer's last samples are complete. (Decoding
     * without the stop, leaving it to the teardown, saved nothing on the H200: this step took
     * 0.22-0.23 s with it, tree 39824a0, and 0.25-0.32 s without, tree 00d04da.) */
    if (sm->started) {
        wb_err se = {""};
        CUpti_PmSampling_Stop_Params sp = {.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE, .pPmSamplingObject = sm->obj};
        int stopped = WB_CUPTI(WB_ERR, &se, cuptiPmSamplingStop, &sp);
        t2 = wb_clock_s();
        if (stopped != WB_OK || decode(sm, &se) != WB_OK)
            if (rc == WB_OK) rc = wb_fail(e, "PM sampling: %s", se.msg);
        sm->started = 0;
    }
    sm->stop_split[0] = t1 - t0, sm->stop_split[1] = t2 - t1, sm->stop_split[2] = wb_clock_s() - t2;
    fprintf(sm->out, "# stop\tthread_s %.3f\tstop_s %.3f\tdecode_s %.3f\n", sm->stop_split[0], sm->stop_split[1],
            sm->stop_split[2]);
    if (rc != WB_OK) fprintf(sm->out, "E\t%s\n", e->msg);
    fprintf(sm->out, "# sampled\tsamples %lld\tdecodes %lld\n# end\n", sm->samples, sm->decodes);
    if (fclose(sm->out) != 0 && rc == WB_OK) rc = wb_fail(e, "PM sampling: the sampled timeline's file: write failed");
    sm->out = NULL;
    free(sm->image);
    sm->image = NULL;
    free(sm->s.avail);
    sm->s.avail = NULL;
    sm->disable_s = sm->release_s = -1;
    if (pthread_create(&sm->releaser, NULL, teardown, sm) == 0) sm->releasing = 1;
    else (void)teardown(sm);
    return rc;
}

void wb_sampler_stop_split(const wb_sampler *sm, double split[3]) {
    for (int k = 0; k < 3; k++) split[k] = sm ? sm->stop_split[k] : -1;
}

int wb_sampler_free(wb_sampler *sm, double *disable_s, double *release_s, wb_err *e) {
    if (!sm) return WB_OK;
    if (sm->releasing) pthread_join(sm->releaser, NULL);
    if (disable_s) *disable_s = sm->disable_s;
    if (release_s) *release_s = sm->release_s;
    int rc = sm->teardown_failed[0] ? wb_fail(e, "PM sampling's teardown: %s", sm->teardown_failed) : WB_OK;
    pthread_mutex_destroy(&sm->lock);
    pthread_cond_destroy(&sm->wake);
    free(sm);
    return rc;
}
