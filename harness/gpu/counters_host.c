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

/* 1 if the host object knows the metric name. */
static int chip_knows(CUpti_Profiler_Host_Object *host, const char *name) {
    CUpti_Profiler_Host_GetMetricProperties_Params mp = {
        .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE, .pHostObject = host,
        .pMetricName = name};
    return cuptiProfilerHostGetMetricProperties(&mp) == CUPTI_SUCCESS;
}

static int host_init(wb_counters_session *s, const char *chip, const uint8_t *avail, int rc, wb_err *e) {
    CUpti_Profiler_Host_Initialize_Params ip = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE,
                                                .profilerType = s->pm_sampling ? CUPTI_PROFILER_TYPE_PM_SAMPLING
                                                                               : CUPTI_PROFILER_TYPE_RANGE_PROFILER,
                                                .pChipName = chip, .pCounterAvailabilityImage = avail};
    if (WB_CUPTI(rc, e, cuptiProfilerHostInitialize, &ip) != WB_OK) return rc;
    s->host = ip.pHostObject;
    return WB_OK;
}

/* Config image of the rows with a name in s->plan.used but the first drop
 * rows of order; sets s->names, s->column, s->n and s->passes. */
static int configure(wb_counters_session *s, const char *chip, const uint8_t *avail, const int *order, int drop, int rc,
                     wb_err *e) {
    wb_cupti_host_free(s);
    if (host_init(s, chip, avail, rc, e) != WB_OK) return rc;
    unsigned char out[WB_METRICS_MAX] = {0};
    for (int k = 0; k < drop; k++) out[order[k]] = 1;
    s->n = 0;
    for (int i = 0; i < wb_n_metrics; i++) {
        if (!s->plan.used[i] || out[i]) continue;
        s->names[s->n] = s->plan.used[i];
        s->column[s->n++] = i;
    }
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

int wb_cupti_host_build(wb_counters_session *s, const char *chip, const uint8_t *avail, wb_counter_set set, int rc,
                        wb_err *e) {
    if (wb_n_metrics > WB_METRICS_MAX)
        return wb_cupti_fail(rc, e, "wb_metrics[] has %d rows, WB_METRICS_MAX is %d", wb_n_metrics, WB_METRICS_MAX);
    if (host_init(s, chip, avail, rc, e) != WB_OK) return rc;
    wb_counters_plan_info *p = &s->plan;
    memset(p, 0, sizeof *p);
    p->set = set;
    /* A name unknown on a chip leaves its column NaN instead of failing the set. */
    for (int i = 0; i < wb_n_metrics; i++) {
        const wb_metric *m = &wb_metrics[i];
        if (chip_knows(s->host, m->ncu)) p->used[i] = m->ncu;
        for (int k = 0; !p->used[i] && k < 3 && m->alt[k]; k++)
            if (chip_knows(s->host, m->alt[k])) p->used[i] = m->alt[k];
        if (!p->used[i]) {
            snprintf(p->why[i], sizeof p->why[i], "NaN: %s has no %s%s", chip, m->ncu, m->alt[0] ? " nor its fallbacks" : "");
            p->missing++;
        }
    }
    s->rejected = p->missing;
    if (p->missing == wb_n_metrics)
        return wb_cupti_fail(rc, e, "no metric of wb_metrics[] is known for chip %s", chip);
    /* Drop order: higher extra rank first, later rows first within a rank. */
    int order[WB_METRICS_MAX], nextra = 0;
    for (int rank = 9; rank >= 1; rank--)
        for (int i = wb_n_metrics - 1; i >= 0; i--)
            if (p->used[i] && wb_metrics[i].extra == rank) order[nextra++] = i;
    if (configure(s, chip, avail, order, 0, rc, e) != WB_OK) return rc;
    p->passes = p->full_passes = s->passes;
    int drop = 0;
    if (set == WB_COUNTER_SET_CORE) {
        nextra = 0; /* every used row outside wb_core_metrics[] goes */
        for (int i = 0; i < wb_n_metrics; i++)
            if (p->used[i] && !wb_metric_is_core(i)) order[nextra++] = i;
        drop = nextra;
    } else if (set == WB_COUNTER_SET_ROOFLINE) {
        drop = nextra; /* every extra row: what is left is the roofline's */
    } else if (s->passes > WB_PASS_BUDGET && nextra > 0) {
        /* The fewest drops that fit: passes shrink as extras go. */
        int lo = 1, hi = nextra;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (configure(s, chip, avail, order, mid, rc, e) != WB_OK) return rc;
            if (s->passes <= WB_PASS_BUDGET) hi = mid;
            else lo = mid + 1;
        }
        drop = lo;
    }
    if (drop > 0) {
        if (configure(s, chip, avail, order, drop, rc, e) != WB_OK) return rc;
        p->passes = s->passes;
        for (int k = 0; k < drop; k++) {
            int i = order[k];
            if (set != WB_COUNTER_SET_ALL)
                snprintf(p->why[i], sizeof p->why[i], "NaN: not in the %s counter set (%d replay passes; "
                         "--counters all: %d)", wb_counter_set_name(set), p->passes, p->full_passes);
            else
                snprintf(p->why[i], sizeof p->why[i], "NaN: left out on %s, the whole set needs %d replay passes, the budget %d",
                         chip, p->full_passes, WB_PASS_BUDGET);
            p->used[i] = NULL;
            p->left_out++;
        }
    }
    int first_nan = 0;
    while (first_nan < wb_n_metrics && p->used[first_nan]) first_nan++;
    if (p->missing || p->left_out)
        snprintf(s->note, sizeof s->note, "%d metric(s) NaN on %s%s (/columns says why), first %s",
                 p->missing + p->left_out, chip, set == WB_COUNTER_SET_ROOFLINE ? ", roofline set"
                                                 : set == WB_COUNTER_SET_CORE ? ", core set" : "",
                 wb_metrics[first_nan].column);
    return WB_OK;
}

int wb_cupti_host_build_group(wb_counters_session *s, const wb_counters_session *full, const uint8_t *avail,
                              const int *group, int g, int rc, wb_err *e) {
    s->plan = full->plan;
    int order[WB_METRICS_MAX], out = 0; /* every collected row outside g (and outside every group) is dropped */
    for (int i = 0; i < wb_n_metrics; i++)
        if (full->plan.used[i] && group[i] != g && group[i] != WB_GROUP_EVERY) order[out++] = i;
    return configure(s, full->chip, avail, order, out, rc, e);
}

int wb_cupti_one_pass_groups(const wb_counters_session *full, const uint8_t *avail, int *group, int rc, wb_err *e) {
    wb_counters_session t;
    memset(&t, 0, sizeof t);
    /* The core rows in every group where they fit one pass together: every launch keeps its
     * roofline; else they are packed like the rest, first. */
    for (int i = 0; i < wb_n_metrics; i++) group[i] = full->plan.used[i] && wb_metric_is_core(i) ? WB_GROUP_EVERY : -1;
    if (wb_cupti_host_build_group(&t, full, avail, group, 0, rc, e) != WB_OK) return wb_cupti_host_free(&t), -1;
    int every = t.passes <= 1;
    int order[WB_METRICS_MAX], n = 0;
    for (int core = 1; core >= 0; core--)
        for (int i = 0; i < wb_n_metrics; i++)
            if (full->plan.used[i] && wb_metric_is_core(i) == core && !(every && core)) order[n++] = i;
    if (!every)
        for (int i = 0; i < wb_n_metrics; i++) group[i] = -1;
    int g = 0, in_g = 0; /* the group being filled, and its rows so far */
    for (int k = 0; k < n; k++) {
        int i = order[k];
        group[i] = g;
        if (wb_cupti_host_build_group(&t, full, avail, group, g, rc, e) != WB_OK) return wb_cupti_host_free(&t), -1;
        if (t.passes <= 1) {
            in_g++;
            continue;
        }
        group[i] = -1;
        if (in_g == 0) continue; /* more than one pass alone (with the core rows): no group holds it */
        g++, in_g = 0;           /* a new group, begun with this row */
        group[i] = g;
        if (wb_cupti_host_build_group(&t, full, avail, group, g, rc, e) != WB_OK) return wb_cupti_host_free(&t), -1;
        if (t.passes <= 1) in_g = 1;
        else group[i] = -1;
    }
    wb_cupti_host_free(&t);
    int groups = g + (in_g > 0);
    return groups ? groups : every; /* the core rows alone: one group */
}

const char *wb_counters_column_source(const wb_counters_plan_info *p, int i, char *buf, size_t len) {
    if (!p || i < 0 || i >= wb_n_metrics) snprintf(buf, len, "%s", i >= 0 && i < wb_n_metrics ? wb_metrics[i].ncu : "");
    else if (p->used[i]) snprintf(buf, len, "%s%s", p->used[i], p->used[i] != wb_metrics[i].ncu ? " (fallback name on this chip)" : "");
    else snprintf(buf, len, "%s (%s)", wb_metrics[i].ncu, p->why[i]);
    return buf;
}

const wb_counters_plan_info *wb_counters_session_plan(const wb_counters_session *s) { return s ? &s->plan : NULL; }

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

int wb_counters_plan(const char *chip, wb_counter_set set, wb_counters_plan_info *plan, wb_err *e) {
    wb_counters_session *s = calloc(1, sizeof *s);
    if (!s) return wb_fail(e, "wb_counters_plan: out of host memory");
    int rc = wb_cupti_load_nvperf(s, WB_ERR, e);
    if (rc == WB_OK) rc = wb_cupti_host_build(s, chip, NULL, set, WB_ERR, e);
    if (rc == WB_OK) *plan = s->plan;
    wb_cupti_host_free(s);
    if (s->nvperf) dlclose(s->nvperf);
    free(s);
    return rc;
}

int wb_counters_groups(const char *chip, wb_counter_set set, int *group, wb_err *e) {
    wb_counters_session *s = calloc(1, sizeof *s);
    if (!s) return wb_fail(e, "wb_counters_groups: out of host memory"), -1;
    snprintf(s->chip, sizeof s->chip, "%s", chip); /* the groups' host objects are made for full->chip */
    int n = wb_cupti_load_nvperf(s, WB_ERR, e) == WB_OK && wb_cupti_host_build(s, chip, NULL, set, WB_ERR, e) == WB_OK
                ? wb_cupti_one_pass_groups(s, NULL, group, WB_ERR, e)
                : -1;
    wb_cupti_host_free(s);
    if (s->nvperf) dlclose(s->nvperf);
    free(s);
    return n;
}

int wb_counters_chips(const char *const **names, int *n, wb_err *e) {
    wb_counters_session s = {0};
    if (wb_cupti_load_nvperf(&s, WB_ERR, e) != WB_OK) return WB_ERR;
    CUpti_Profiler_Host_GetSupportedChips_Params p = {.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
    if (WB_CUPTI(WB_ERR, e, cuptiProfilerHostGetSupportedChips, &p) != WB_OK) return WB_ERR;
    *names = p.ppChipNames;
    *n = (int)p.numChips;
    return WB_OK; /* libnvperf_host stays loaded: the names live in it */
}

const char *wb_counter_set_name(wb_counter_set set) {
    return set == WB_COUNTER_SET_ROOFLINE ? "roofline" : set == WB_COUNTER_SET_CORE ? "core" : "all";
}

int wb_counter_set_parse(const char *name, wb_counter_set *set, wb_err *e) {
    if (!strcmp(name, "all")) *set = WB_COUNTER_SET_ALL;
    else if (!strcmp(name, "roofline")) *set = WB_COUNTER_SET_ROOFLINE;
    else if (!strcmp(name, "core")) *set = WB_COUNTER_SET_CORE;
    else return wb_fail(e, "unknown counter set '%s' (all, roofline, core)", name);
    return WB_OK;
}
