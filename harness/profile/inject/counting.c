/* counting.c - the counter pass: CUPTI's Range Profiler with auto range and
 * kernel replay on the first context that launches a selected kernel. Each
 * kernel launched while the profiler is started is one range, replayed by
 * CUPTI inside its launch call as many times as the metric set needs passes
 * (saving and restoring device memory between them). Launches are counted in
 * batches of WB_PROFILE_BATCH ranges: at a full batch the profiler stops,
 * decodes, evaluates every range into metric values (C lines) and starts
 * again, so memory stays bounded for programs of any length. A launch that
 * is not selected, a graph launch, or a launch on another context first
 * stops the profiler (that launch runs unprofiled); the next selected launch
 * starts it again. The host half (metric set, config image, passes) is the
 * suite's own (harness/gpu/counters_host.c), so the metric list, its per-chip
 * fallbacks and the pass budget are the same as `wallbench run`'s. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "harness/base/metrics.h"
#include "harness/gpu/counters_cupti.h"
#include "harness/profile/inject/inject.h"

typedef struct counting {
    wb_counters_session s;  /* host half: names, config image, data image, passes */
    CUcontext ctx;          /* the counted context; NULL before the first selected launch */
    int failed;             /* 1: counting gave up (E line written); later launches get N lines */
    int started;            /* the profiler is between Start and Stop */
    int64_t *batch_seq;     /* launches of the current batch, in range order */
    int in_batch;
    char why[256];          /* why counting failed, for the N lines */
    double launch_s, batch_s, flush_s; /* wall time inside counted launches (replays), in batch ends, in flushes */
    int64_t counted;
} counting;

static __thread double entered; /* when this thread's counted launch entered the API */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static counting cnt;
/* Launching threads enter one at a time: the batch and the profiler object are one per process. */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static int fail(const char *call, CUptiResult r) {
    snprintf(cnt.why, sizeof cnt.why, "%s: %s", call, wb_inject_cupti_str(r));
    wb_raw_error("counter pass: %s; launches from here on are not counted", cnt.why);
    cnt.failed = 1;
    return -1;
}
#define TRY(call, ...)                                          \
    do {                                                        \
        CUptiResult r_ = call(__VA_ARGS__);                     \
        if (r_ != CUPTI_SUCCESS) return fail(#call, r_);        \
    } while (0)

static int arm(void) {
    wb_counters_session *s = &cnt.s;
    memset(s->data, 0, s->data_size);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE,
        .pRangeProfilerObject = s->rp, .counterDataSize = s->data_size, .pCounterData = s->data};
    TRY(cuptiRangeProfilerCounterDataImageInitialize, &ci);
    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .configSize = s->config_size, .pConfig = s->config, .counterDataImageSize = s->data_size,
        .pCounterDataImage = s->data, .range = CUPTI_AutoRange, .replayMode = CUPTI_KernelReplay,
        .maxRangesPerPass = (size_t)wb_inj.batch, .numNestingLevels = 1, .minNestingLevel = 1, .passIndex = 0,
        .targetNestingLevel = 1};
    TRY(cuptiRangeProfilerSetConfig, &sc);
    return 0;
}

static int start(void) {
    if (arm() != 0) return -1;
    CUpti_RangeProfiler_Start_Params st = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE,
                                           .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerStart, &st);
    cnt.started = 1;
    return 0;
}

/* The C lines of a decoded batch: range r is the r-th launch of the batch. */
static int evaluate(int ranges) {
    wb_counters_session *s = &cnt.s;
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE, .pCounterDataImage = s->data,
        .counterDataImageSize = s->data_size};
    TRY(cuptiRangeProfilerGetCounterDataInfo, &gi);
    if (gi.numTotalRanges != (size_t)ranges) {
        for (int r = 0; r < ranges; r++)
            wb_raw_line("N\t%lld\tCUPTI decoded %zu range(s) for the %d launch(es) of this batch: not attributable",
                        (long long)cnt.batch_seq[r], gi.numTotalRanges, ranges);
        return 0;
    }
    char line[WB_METRICS_MAX * 26 + 32];
    for (int r = 0; r < ranges; r++) {
        double v[WB_METRICS_MAX];
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, .pHostObject = s->host,
            .pCounterDataImage = s->data, .counterDataImageSize = s->data_size, .rangeIndex = (size_t)r,
            .ppMetricNames = s->names, .numMetrics = (size_t)s->n, .pMetricValues = v};
        CUptiResult res = cuptiProfilerHostEvaluateToGpuValues(&ev);
        if (res != CUPTI_SUCCESS) {
            wb_raw_line("N\t%lld\tcuptiProfilerHostEvaluateToGpuValues: %s", (long long)cnt.batch_seq[r],
                        wb_inject_cupti_str(res));
            continue;
        }
        int len = snprintf(line, sizeof line, "C\t%lld", (long long)cnt.batch_seq[r]);
        for (int k = 0; k < s->n && len < (int)sizeof line; k++)
            len += snprintf(line + len, sizeof line - (size_t)len, "\t%.17g", v[k]);
        wb_raw_line("%s", line);
    }
    return 0;
}

/* Stop, decode and write the batch; the profiler stays stopped. */
static int end_batch_timed(void);
static int end_batch(void) {
    double t0 = now_s();
    int rc = end_batch_timed();
    cnt.batch_s += now_s() - t0;
    return rc;
}

static int end_batch_timed(void) {
    if (!cnt.started) return 0;
    cnt.started = 0;
    CUpti_RangeProfiler_Stop_Params sp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE,
                                          .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerStop, &sp);
    int ranges = cnt.in_batch;
    cnt.in_batch = 0;
    if (ranges == 0) return 0;
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerDecodeData, &dd);
    if (dd.numOfRangeDropped) wb_raw_error("cuptiRangeProfilerDecodeData: %zu range(s) dropped", dd.numOfRangeDropped);
    int rc = evaluate(ranges);
    pthread_mutex_lock(&wb_inj.lock);
    if (wb_inj.raw) fflush(wb_inj.raw);
    pthread_mutex_unlock(&wb_inj.lock);
    return rc;
}

/* The L2 flush (--cache-control all): a kernel that reads 2x the L2 through it, run in a
 * context of its own before each counted launch. A read leaves the L2 clean, where a memset (the
 * first version) left it full of dirty lines for the next kernel to write back. That was not what
 * made the counter pass count ~150 K DRAM write sectors on kernels for which ncu
 * --cache-control all counts none: the read flush gives the same counts (H200, 2026-12-01,
 * results/h200-profile/accuracy-compare-*.txt), so the writes come from CUPTI's kernel replay.
 * Its own context keeps the flush out of the Range Profiler's auto ranges, which cover every
 * kernel of the counted context. PTX, JIT-compiled once for any GPU. */
static const char flush_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry wb_l2_flush(.param .u64 buf, .param .u64 words, .param .u64 sink)\n{\n"
    "  .reg .pred p;\n  .reg .b32 acc, v, t, nt, c, nc;\n  .reg .b64 i, n, stride, a, base, s, t64;\n"
    "  ld.param.u64 base, [buf];\n  ld.param.u64 n, [words];\n  ld.param.u64 s, [sink];\n"
    "  mov.u32 t, %tid.x;\n  mov.u32 nt, %ntid.x;\n  mov.u32 c, %ctaid.x;\n  mov.u32 nc, %nctaid.x;\n"
    "  mul.wide.u32 i, c, nt;\n  cvt.u64.u32 t64, t;\n  add.u64 i, i, t64;\n  mul.wide.u32 stride, nc, nt;\n"
    "  mov.u32 acc, 0;\nLOOP:\n  setp.ge.u64 p, i, n;\n  @p bra DONE;\n  shl.b64 a, i, 2;\n  add.u64 a, base, a;\n"
    "  ld.global.cg.u32 v, [a];\n  xor.b32 acc, acc, v;\n  add.u64 i, i, stride;\n  bra LOOP;\n"
    "DONE:\n  setp.ne.u32 p, acc, 2147483647;\n  @p bra END;\n  st.global.u32 [s], acc;\nEND:\n  ret;\n}\n";

typedef struct flusher {
    CUcontext ctx;
    CUfunction fn;
    CUdeviceptr buf;
    unsigned long long words;
    unsigned blocks;
} flusher;

static flusher fl;

static int flush_setup(CUdevice dev) {
    int l2 = 0, sms = 0;
    if (cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev) != CUDA_SUCCESS || l2 <= 0) l2 = 64 << 20;
    if (cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) != CUDA_SUCCESS || sms <= 0) sms = 32;
    fl.words = 2ull * (unsigned long long)l2 / 4;
    fl.blocks = 4u * (unsigned)sms;
    CUmodule mod;
    CUcontext prev = NULL;
    CUresult r = cuCtxCreate(&fl.ctx, NULL, 0, dev);
    const char *step = "cuCtxCreate";
    if (r == CUDA_SUCCESS) step = "cuModuleLoadData", r = cuModuleLoadData(&mod, flush_ptx);
    if (r == CUDA_SUCCESS) step = "cuModuleGetFunction", r = cuModuleGetFunction(&fl.fn, mod, "wb_l2_flush");
    if (r == CUDA_SUCCESS) step = "cuMemAlloc", r = cuMemAlloc(&fl.buf, fl.words * 4 + 4);
    if (r == CUDA_SUCCESS) step = "cuMemsetD32", r = cuMemsetD32(fl.buf, 0, fl.words + 1);
    if (fl.ctx) (void)cuCtxPopCurrent(&prev); /* cuCtxCreate made it current: back to the program's */
    if (r != CUDA_SUCCESS) {
        wb_raw_error("L2 flush: %s: CUDA error %d; counting with the caches as the program left them", step, (int)r);
        wb_raw_line("# cache none (the flush could not be set up)");
        fl.fn = NULL;
    }
    return 0;
}

static void flush_l2(int64_t seq) {
    if (!fl.fn) return;
    CUdeviceptr sink = fl.buf + fl.words * 4;
    void *args[] = {&fl.buf, &fl.words, &sink};
    CUcontext prev = NULL;
    CUresult r = cuCtxPushCurrent(fl.ctx);
    if (r == CUDA_SUCCESS) r = cuLaunchKernel(fl.fn, fl.blocks, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    (void)cuCtxPopCurrent(&prev);
    if (r != CUDA_SUCCESS) wb_raw_error("L2 flush before launch %lld: CUDA error %d", (long long)seq, (int)r);
}

/* Everything the first selected launch needs: the chip's metric set, the
 * profiler object on its context, the batch's data image. */
static int setup(CUcontext ctx) {
    wb_counters_session *s = &cnt.s;
    cnt.ctx = ctx;
    wb_err e;
    if (wb_cupti_load_nvperf(s, WB_ERR, &e) != WB_OK) {
        snprintf(cnt.why, sizeof cnt.why, "%.250s", e.msg);
        wb_raw_error("counter pass: %s", e.msg);
        return cnt.failed = 1, -1;
    }
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    TRY(cuptiProfilerInitialize, &ip);
    s->profiler_initialized = 1;
    uint32_t dev = 0;
    TRY(cuptiGetDeviceId, ctx, &dev);
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                          .deviceIndex = dev};
    TRY(cuptiDeviceGetChipName, &cn);
    snprintf(s->chip, sizeof s->chip, "%s", cn.pChipName ? cn.pChipName : "");
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, .ctx = ctx};
    TRY(cuptiProfilerGetCounterAvailability, &ca);
    if (!(s->avail = calloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1, 1)))
        return fail("calloc", CUPTI_ERROR_OUT_OF_MEMORY);
    ca.pCounterAvailabilityImage = s->avail;
    TRY(cuptiProfilerGetCounterAvailability, &ca);
    if (wb_cupti_host_build(s, s->chip, s->avail, WB_COUNTER_SET_ALL, WB_ERR, &e) != WB_OK) {
        snprintf(cnt.why, sizeof cnt.why, "%.250s", e.msg);
        wb_raw_error("counter pass: metric set for %s: %s", s->chip, e.msg);
        return cnt.failed = 1, -1;
    }
    char line[WB_METRICS_MAX * 40 + 16];
    int len = snprintf(line, sizeof line, "# metrics");
    for (int k = 0; k < s->n && len < (int)sizeof line; k++)
        len += snprintf(line + len, sizeof line - (size_t)len, "\t%s", wb_metrics[s->column[k]].column);
    wb_raw_line("%s", line);
    wb_raw_line("# passes %d\tbatch %d\tcache %s", s->passes, wb_inj.batch, wb_inj.flush_l2 ? "all" : "none");
    wb_inject_write_device((CUdevice)dev, s->chip);
    if (wb_inj.flush_l2) flush_setup((CUdevice)dev);
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, .ctx = ctx};
    TRY(cuptiRangeProfilerEnable, &en);
    s->rp = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxNumOfRanges = (size_t)wb_inj.batch,
        .maxNumRangeTreeNodes = (uint32_t)wb_inj.batch};
    TRY(cuptiRangeProfilerGetCounterDataSize, &ds);
    s->data_size = ds.counterDataSize;
    cnt.batch_seq = calloc((size_t)wb_inj.batch, sizeof *cnt.batch_seq);
    if (!(s->data = calloc(s->data_size ? s->data_size : 1, 1)) || !cnt.batch_seq)
        return fail("calloc", CUPTI_ERROR_OUT_OF_MEMORY);
    return 0;
}

static void counting_enter(const wb_launch_info *l);

void wb_counting_enter(const wb_launch_info *l) {
    pthread_mutex_lock(&count_lock);
    counting_enter(l);
    pthread_mutex_unlock(&count_lock);
}

static void counting_enter(const wb_launch_info *l) {
    if (cnt.failed) {
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return;
    }
    if (!cnt.ctx && setup(l->ctx) != 0) {
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return;
    }
    if (l->ctx != cnt.ctx) {
        if (cnt.started) end_batch(); /* it must run unprofiled */
        wb_raw_line("N\t%lld\tanother CUDA context than the first counted one: only one context is counted",
                    (long long)l->seq);
        return;
    }
    if (cnt.in_batch == wb_inj.batch && end_batch() != 0) {
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return;
    }
    double t0 = now_s();
    /* The program's earlier work must be done before the flush evicts its lines. */
    if (fl.fn && cuStreamSynchronize(l->stream) == CUDA_SUCCESS) flush_l2(l->seq);
    cnt.flush_s += now_s() - t0;
    if (!cnt.started && start() != 0) {
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return;
    }
    cnt.batch_seq[cnt.in_batch++] = l->seq;
    cnt.counted++;
    entered = now_s();
}

void wb_counting_left(void) {
    if (entered <= 0) return;
    pthread_mutex_lock(&count_lock);
    cnt.launch_s += now_s() - entered;
    pthread_mutex_unlock(&count_lock);
    entered = 0;
}

void wb_counting_unselected(void) {
    pthread_mutex_lock(&count_lock);
    if (!cnt.failed && cnt.started) end_batch();
    pthread_mutex_unlock(&count_lock);
}

void wb_counting_finish(void) {
    /* At a fatal signal the lock may be held by the interrupted thread: then the batch is lost. */
    if (pthread_mutex_trylock(&count_lock) != 0) return;
    if (!cnt.ctx || cnt.failed) {
        pthread_mutex_unlock(&count_lock);
        return;
    }
    end_batch();
    if (cnt.s.rp) {
        CUpti_RangeProfiler_Disable_Params p = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = cnt.s.rp};
        (void)cuptiRangeProfilerDisable(&p);
        cnt.s.rp = NULL;
    }
    if (fl.ctx) (void)cuCtxDestroy(fl.ctx);
    wb_raw_line("# cost\tcounted %lld\tlaunch_s %.3f\tbatch_s %.3f\tflush_s %.3f", (long long)cnt.counted, cnt.launch_s,
                cnt.batch_s, cnt.flush_s);
    pthread_mutex_unlock(&count_lock);
}
