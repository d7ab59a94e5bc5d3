/* test_counter_deps.c - which raw counters each column of wb_metrics[] needs on GH100 (the H200's
 * chip), from NVIDIA's metrics evaluator (libnvperf_host, offline: no GPU), set against --rotate's
 * groups. On the H200 a group's column came back only where every raw counter it needs is also
 * one of the core rows' (which every group holds), or where it is group 0's, the group every
 * committed run configured first (docs/profiling-measured.md, "Counter groups rotated over
 * repeated launches"). This checks the first half of that on the counters themselves: the SM
 * throughput column, the one group-1 column with values, needs core counters only
 * (instructions executed, SM cycles elapsed); occupancy, IPC, the L1 hit rate, the DRAM throughput
 * and every stall reason, NaN in every launch that held them, each need a counter no core row has
 * (SM active cycles and warps, DRAM cycles, the stall counters); so do group 0's L1 sectors,
 * which came back. Prints every column's count. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

#include "harness/base/metrics.h"
#include "harness/gpu/counters.h"
#include "tests/check.h"

#define DEPS_MAX 64

typedef struct nvpw {
    NVPA_Status (*init)(NVPW_InitializeHost_Params *);
    NVPA_Status (*scratch)(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params *);
    NVPA_Status (*evaluator)(NVPW_CUDA_MetricsEvaluator_Initialize_Params *);
    NVPA_Status (*request)(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params *);
    NVPA_Status (*deps)(NVPW_MetricsEvaluator_GetMetricRawDependencies_Params *);
    NVPA_Status (*destroy)(NVPW_MetricsEvaluator_Destroy_Params *);
} nvpw;

/* The raw counters metric `name` needs (into deps, the evaluator's strings); -1 if unknown. */
static int raw_deps(const nvpw *f, NVPW_MetricsEvaluator *ev, const char *name, const char **deps) {
    NVPW_MetricEvalRequest req;
    NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params cv = {
        .structSize = NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE,
        .pMetricsEvaluator = ev, .pMetricName = name, .pMetricEvalRequest = &req,
        .metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE};
    if (f->request(&cv) != NVPA_STATUS_SUCCESS) return -1;
    const char *optional[DEPS_MAX];
    NVPW_MetricsEvaluator_GetMetricRawDependencies_Params rd = {
        .structSize = NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE, .pMetricsEvaluator = ev,
        .pMetricEvalRequests = &req, .numMetricEvalRequests = 1,
        .metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE, .metricEvalRequestStrideSize = sizeof req};
    if (f->deps(&rd) != NVPA_STATUS_SUCCESS || rd.numRawDependencies > DEPS_MAX || rd.numOptionalRawDependencies > DEPS_MAX)
        return -1;
    rd.ppRawDependencies = deps, rd.ppOptionalRawDependencies = optional;
    if (f->deps(&rd) != NVPA_STATUS_SUCCESS) return -1;
    return (int)rd.numRawDependencies;
}

int main(void) {
    void *h = dlopen(WB_CUDA_LIBDIR "/libnvperf_host.so", RTLD_NOW);
    if (!h) h = dlopen("libnvperf_host.so", RTLD_NOW);
    if (!h) return fprintf(stderr, "libnvperf_host.so not loadable: %s\n", dlerror()), 1;
    nvpw f = {dlsym(h, "NVPW_InitializeHost"), dlsym(h, "NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize"),
              dlsym(h, "NVPW_CUDA_MetricsEvaluator_Initialize"),
              dlsym(h, "NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest"),
              dlsym(h, "NVPW_MetricsEvaluator_GetMetricRawDependencies"), dlsym(h, "NVPW_MetricsEvaluator_Destroy")};
    if (!f.init || !f.scratch || !f.evaluator || !f.request || !f.deps || !f.destroy)
        return fprintf(stderr, "libnvperf_host.so lacks a metrics-evaluator function\n"), 1;
    const char *chip = "GH100";
    NVPW_InitializeHost_Params ih = {.structSize = NVPW_InitializeHost_Params_STRUCT_SIZE};
    NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params cs = {
        .structSize = NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE, .pChipName = chip};
    if (f.init(&ih) != NVPA_STATUS_SUCCESS || f.scratch(&cs) != NVPA_STATUS_SUCCESS)
        return fprintf(stderr, "NVPW_InitializeHost or the %s evaluator's scratch size failed\n", chip), 1;
    uint8_t *scratch = malloc(cs.scratchBufferSize);
    NVPW_CUDA_MetricsEvaluator_Initialize_Params mi = {
        .structSize = NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE, .pScratchBuffer = scratch,
        .scratchBufferSize = cs.scratchBufferSize, .pChipName = chip};
    if (!scratch || f.evaluator(&mi) != NVPA_STATUS_SUCCESS)
        return fprintf(stderr, "NVPW_CUDA_MetricsEvaluator_Initialize(%s) failed\n", chip), 1;
    int group[WB_METRICS_MAX];
    wb_err e = {""};
    const int ngroups = wb_counters_groups(chip, WB_COUNTER_SET_ALL, group, &e);
    CHECK(ngroups > 1);
    if (ngroups <= 1) return fprintf(stderr, "wb_counters_groups(%s): %s\n", chip, e.msg), TEST_DONE();

    static const char *deps[WB_METRICS_MAX][DEPS_MAX];
    int ndeps[WB_METRICS_MAX];
    const char *core[WB_METRICS_MAX * 4];
    int ncore = 0;
    for (int i = 0; i < wb_n_metrics; i++) {
        ndeps[i] = raw_deps(&f, mi.pMetricsEvaluator, wb_metrics[i].ncu, deps[i]);
        CHECK(ndeps[i] > 0); /* every row's own name is GH100's */
        for (int k = 0; group[i] == WB_GROUP_EVERY && k < ndeps[i]; k++) {
            int seen = 0;
            for (int c = 0; c < ncore; c++) seen |= !strcmp(core[c], deps[i][k]);
            if (!seen) core[ncore++] = deps[i][k];
        }
    }
    printf("GH100: the core rows need %d raw counters; each group's column, the raw counters it needs and how many "
           "of them no core row has:\n", ncore);
    int own[WB_METRICS_MAX] = {0};
    for (int i = 0; i < wb_n_metrics; i++) {
        if (group[i] < 0 || ndeps[i] <= 0) continue;
        for (int k = 0; k < ndeps[i]; k++) {
            int in_core = 0;
            for (int c = 0; c < ncore; c++) in_core |= !strcmp(core[c], deps[i][k]);
            own[i] += !in_core;
        }
        printf("  %-28s group %2d: %d raw, %d of its own\n", wb_metrics[i].column, group[i], ndeps[i], own[i]);
    }
    const int sm = wb_metric_index("sm_throughput_pct");
    CHECK(sm >= 0 && group[sm] >= 0 && own[sm] == 0); /* came back in group 1: core counters only */
    static const char *const own_counters[] = {"occupancy_achieved_pct", "ipc", "l1_hit_pct", "dram_throughput_pct",
                                               "l1_sectors_ld"};
    for (size_t k = 0; k < sizeof own_counters / sizeof own_counters[0]; k++) {
        const int i = wb_metric_index(own_counters[k]);
        CHECK(i >= 0 && group[i] >= 0 && own[i] > 0);
    }
    int stalls = 0, stalls_own = 0;
    for (int i = 0; i < wb_n_metrics; i++)
        if (!strncmp(wb_metrics[i].column, "stall_raw_", 10) && group[i] >= 0) stalls++, stalls_own += own[i] > 0;
    CHECK(stalls > 0 && stalls_own == stalls);
    NVPW_MetricsEvaluator_Destroy_Params dp = {.structSize = NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE,
                                               .pMetricsEvaluator = mi.pMetricsEvaluator};
    f.destroy(&dp);
    free(scratch);
    return TEST_DONE();
}
