/* counters_host.c - the host-side half of the CUPTI backend, which needs no
 * GPU: the CUPTI error policy, libnvperf_host, one config image for all of
 * wb_metrics[] with its pass count, and the evaluation of counter data into
 * metric values (CUPTI Profiler Host API). Also wb_counters_plan, which runs
 * this half alone for a chip by name. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_range_profiler.h>

#include "harness/gpu/counters_cupti.h"
#include "harness/base/metrics.h"

static const char *cupti_hint(CUptiResult r) {
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return " (GPU counters need root or the driver option NVreg_RestrictProfilingToAdminUsers=0)";
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return " (counters held by another profiler: ncu, nsys or DCGM)";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        return " (profiling unsupported here: vGPU, MIG, confidential computing, SLI or WSL)";
    default:
        return "";
    }
}

int wb_cupti_fail(int rc, wb_err *e, const char *fmt, ...) {
    char msg[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rc == WB_SKIP ? wb_skip(e, "%s", msg) : wb_fail(e, "%s", msg);
}

int wb_cupti_status(CUptiResult r, const char *call, int rc, wb_err *e) {
    if (r == CUPTI_SUCCESS) return WB_OK;
    const char *name = NULL;
    if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name) name = "unknown CUPTI error";
    return wb_cupti_fail(rc, e, "%s: %s%s", call, name, cupti_hint(r));
}

/* libcupti dlopens libnvperf_host.so by soname; on the H200 that needed
 * LD_LIBRARY_PATH. Loaded here first, from the
 * toolkit CMake found, glibc hands CUPTI the already-loaded copy. */
int wb_cupti_load_nvperf(wb_counters_session *s, int rc, wb_err *e) {
    char first[256] = "";
#ifdef WB_CUDA_LIBDIR
    s->nvperf = dlopen(WB_CUDA_LIBDIR "/libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL);
    if (!s->nvperf) snprintf(first, sizeof first, "%s; ", dlerror());
#endif
    if (!s->nvperf) s->nvperf = dlopen("libnvperf_host.so", RTLD_NOW | RTLD_GLOBAL);
    if (s->nvperf) return WB_OK;
    const char *why = dlerror();
    return wb_cupti_fail(rc, e, "libnvperf_host.so not loadable (%s%s)", first, why ? why : "");
}

int wb_cupti_host_build(wb_counters_session *s, const char *chip, const uint8_t *avail, int rc, wb_err *e) {
    if (wb_n_metrics > WB_METRICS_MAX)
        return wb_cupti_fail(rc, e, "wb_metrics[] has %d rows, WB_METRICS_MAX is %d", wb_n_metrics, WB_METRICS_MAX);
    CUpti_Profiler_Host_Initialize_Params ip = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE,
                                                .profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER,
                                                .pChipName = chip, .pCounterAvailabilityImage = avail};
    if (WB_CUPTI(rc, e, cuptiProfilerHostInitialize, &ip) != WB_OK) return rc;
    s->host = ip.pHostObject;

    /* One metric unknown on a chip leaves its column NaN instead of failing the set. */
    const char *first_rejected = NULL;
    wb_err first_error = {""};
    for (int i = 0; i < wb_n_metrics; i++) {
        CUpti_Profiler_Host_GetMetricProperties_Params mp = {
            .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE, .pHostObject = s->host,
            .pMetricName = wb_metrics[i].ncu};
        wb_err me;
        if (WB_CUPTI(rc, &me, cuptiProfilerHostGetMetricProperties, &mp) != WB_OK) {
            if (!first_rejected) first_rejected = wb_metrics[i].ncu, first_error = me;
            s->rejected++;
            continue;
        }
        s->names[s->n] = wb_metrics[i].ncu;
        s->column[s->n++] = i;
    }
    if (s->n == 0) {
        *e = first_error;
        wb_err_prefix(e, "no metric of wb_metrics[] is known for this chip");
        return rc;
    }
    if (first_rejected)
        snprintf(s->note, sizeof s->note, "%d metric(s) unknown on %s, NaN: %s", s->rejected, chip, first_rejected);

    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, .pHostObject = s->host,
        .ppMetricNames = s->names, .numMetrics = (size_t)s->n};
    if (WB_CUPTI(rc, e, cuptiProfilerHostConfigAddMetrics, &am) != WB_OK) return rc;
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, .pHostObject = s->host};
    if (WB_CUPTI(rc, e, cuptiProfilerHostGetConfigImageSize, &cs) != WB_OK) return rc;
    if (cs.configImageSize == 0 || !(s->config = calloc(cs.configImageSize, 1)))
        return wb_cupti_fail(rc, e, "config image of %zu bytes: not allocated", cs.configImageSize);
    s->config_size = cs.configImageSize;
    CUpti_Profiler_Host_GetConfigImage_Params ci = {
        .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE, .pHostObject = s->host,
        .configImageSize = s->config_size, .pConfigImage = s->config};
    if (WB_CUPTI(rc, e, cuptiProfilerHostGetConfigImage, &ci) != WB_OK) return rc;
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE, .configImageSize = s->config_size,
        .pConfigImage = s->config};
    if (WB_CUPTI(rc, e, cuptiProfilerHostGetNumOfPasses, &np) != WB_OK) return rc;
    s->passes = (int)np.numOfPasses;
    return WB_OK;
}

int wb_cupti_evaluate(wb_counters_session *s, int ranges, double (*vals)[WB_METRICS_MAX], wb_err *e) {
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE, .pCounterDataImage = s->data,
        .counterDataImageSize = s->data_size};
    if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerGetCounterDataInfo, &gi) != WB_OK) return WB_ERR;
    if (gi.numTotalRanges != (size_t)ranges)
        return wb_fail(e, "counter data holds %zu range(s), expected one per point: %d", gi.numTotalRanges, ranges);
    unsigned char seen[WB_COUNTERS_BATCH_MAX] = {0};
    for (int r = 0; r < ranges; r++) {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri = {
            .structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE, .pCounterDataImage = s->data,
            .counterDataImageSize = s->data_size, .rangeIndex = (size_t)r, .rangeDelimiter = "/"};
        if (WB_CUPTI(WB_ERR, e, cuptiRangeProfilerCounterDataGetRangeInfo, &ri) != WB_OK) return WB_ERR;
        const char *name = ri.rangeName ? ri.rangeName : "";
        const size_t plen = strlen(WB_RANGE_PREFIX);
        char *end = NULL;
        long m = strncmp(name, WB_RANGE_PREFIX, plen) == 0 ? strtol(name + plen, &end, 10) : -1;
        if (m < 0 || m >= ranges || !end || *end || seen[m]++)
            return wb_fail(e, "counter data range %d is named '%.40s', not one of " WB_RANGE_PREFIX "0..%d once each", r,
                           name, ranges - 1);
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, .pHostObject = s->host,
            .pCounterDataImage = s->data, .counterDataImageSize = s->data_size, .rangeIndex = (size_t)r,
            .ppMetricNames = s->names, .numMetrics = (size_t)s->n, .pMetricValues = vals[m]};
        if (WB_CUPTI(WB_ERR, e, cuptiProfilerHostEvaluateToGpuValues, &ev) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

/* Teardown: a failing CUPTI call here leaves nothing to recover. */
void wb_cupti_host_free(wb_counters_session *s) {
    if (s->host) {
        CUpti_Profiler_Host_Deinitialize_Params p = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE,
                                                     .pHostObject = s->host};
        (void)cuptiProfilerHostDeinitialize(&p);
        s->host = NULL;
    }
    free(s->config);
    s->config = NULL;
}

int wb_counters_plan(const char *chip, int *passes, int *rejected, wb_err *e) {
    wb_counters_session *s = calloc(1, sizeof *s);
    if (!s) return wb_fail(e, "wb_counters_plan: out of host memory");
    int rc = wb_cupti_load_nvperf(s, WB_ERR, e);
    if (rc == WB_OK) rc = wb_cupti_host_build(s, chip, NULL, WB_ERR, e);
    if (rc == WB_OK) *passes = s->passes, *rejected = s->rejected;
    wb_cupti_host_free(s);
    if (s->nvperf) dlclose(s->nvperf);
    free(s);
    return rc;
}
