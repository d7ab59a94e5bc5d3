/* counters_launches.c - the launch count of a counted point: a CUPTI
 * callback on every kernel-launch API (counters_cupti.h), on only while the
 * counter pass launches. */
#include <stdio.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "harness/gpu/counters_cupti.h"

/* Every way a kernel gets launched, runtime and driver. CUDA 13's <<<>>>
 * goes through __cudaLaunchKernel, which may call further launch APIs: only
 * the outermost call of a nest counts (depth), so no launch counts twice.
 * Graph launches are not counted (no family uses graphs). */
static const struct {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId id;
} launch_apis[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
};

static void CUPTIAPI on_launch(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)domain, (void)cbid;
    wb_counters_session *s = user;
    const CUpti_CallbackData *cb = data;
    if (!s->counting) return;
    if (cb->callbackSite == CUPTI_API_ENTER) {
        if (s->depth++ == 0) s->launches++;
    } else if (s->depth > 0) {
        s->depth--;
    }
}

/* Callbacks are on only during collect, so that timed launches pay nothing. */
int wb_cupti_launch_callbacks(wb_counters_session *s, uint32_t on, wb_err *e) {
    for (size_t i = 0; i < sizeof launch_apis / sizeof launch_apis[0]; i++)
        if (WB_CUPTI(WB_ERR, e, cuptiEnableCallback, on, s->sub, launch_apis[i].domain, launch_apis[i].id) != WB_OK)
            return WB_ERR;
    return WB_OK;
}

/* A point without a launch count is still worth its counters: a refused
 * subscription (another CUPTI client) only sets launches to -1. */
void wb_cupti_stop_counting(wb_counters_session *s, const wb_err *why) {
    if (s->sub) (void)cuptiUnsubscribe(s->sub); /* nothing to do if even that fails */
    s->sub = NULL;
    if (!s->note[0]) snprintf(s->note, sizeof s->note, "launches not counted: %.72s", why->msg);
}

void wb_cupti_count_launches(wb_counters_session *s) {
    wb_err e;
    if (WB_CUPTI(WB_ERR, &e, cuptiSubscribe, &s->sub, on_launch, s) != WB_OK) {
        s->sub = NULL;
        wb_cupti_stop_counting(s, &e);
    } else if (wb_cupti_launch_callbacks(s, 1, &e) != WB_OK || wb_cupti_launch_callbacks(s, 0, &e) != WB_OK) {
        wb_cupti_stop_counting(s, &e);
    }
}
