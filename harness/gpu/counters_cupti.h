/* counters_cupti.h - private to the CUPTI backend of counters.h: the session
 * and the host-side half that needs no GPU (counters_host.c: the CUPTI error
 * policy, libnvperf_host, config image, passes, evaluation). The target-side
 * half (counters_cupti.c) drives the Range Profiler. */
#ifndef WB_COUNTERS_CUPTI_H
#define WB_COUNTERS_CUPTI_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_profiler_host.h> /* needs harness/cshim on the C include path */
#include <cupti_range_profiler.h>
#include <cupti_result.h>

#include "harness/gpu/counters.h"

/* Where the counter pass spends its wall time (wb_counters_cost). */
enum { WB_COST_SETUP, WB_COST_RESET, WB_COST_START, WB_COST_RANGE, WB_COST_STOP, WB_COST_DECODE, WB_COST_STEPS };

struct wb_counters_session {
    void *nvperf;                      /* keeps libnvperf_host loaded for CUPTI */
    CUcontext ctx;
    char chip[32];
    uint8_t *avail;                    /* counter availability image of the device */
    CUpti_Profiler_Host_Object *host;
    const char *names[WB_METRICS_MAX]; /* metrics the chip knows, in config order */
    int column[WB_METRICS_MAX];        /* row of names[k] in wb_metrics[] */
    int n, rejected;
    wb_counters_plan_info plan;        /* per row of wb_metrics[]: name used, or why NaN */
    uint8_t *config;
    size_t config_size;
    uint8_t *data;                     /* counter data image, re-initialised per point */
    size_t data_size;
    CUpti_RangeProfiler_Object *rp;    /* enabled for one batch only, NULL between batches */
    double cost_s[WB_COST_STEPS];      /* wall time by step (WB_COST_*) */
    long batches, starts;              /* collections and CUPTI Starts so far */
    double first_start_s;              /* of cost_s[WB_COST_START]: the first pass of each batch */
    int passes;
    int profiler_initialized;
    int pm_sampling;                   /* 1: the host half builds PM sampling's config (profile/sampler.c) */
    CUpti_SubscriberHandle sub;        /* launch counter; NULL when CUPTI refused it */
    int counting, depth, launches;     /* written by the callback, on the launching thread */
    char note[96];                     /* copied into every point's note */
    char summary[256];
};

/* Launch counting (counters_launches.c): subscribes the callback (on
 * refusal only notes why and leaves s->sub NULL); turns the launch callbacks
 * on or off; gives up counting with the reason in s->note. */
void wb_cupti_count_launches(wb_counters_session *s);
int wb_cupti_launch_callbacks(wb_counters_session *s, uint32_t on, wb_err *e);
void wb_cupti_stop_counting(wb_counters_session *s, const wb_err *why);

/* Formats into e; returns rc, the failure class: WB_SKIP while opening (the
 * run goes on without counters), WB_ERR later. */
int wb_cupti_fail(int rc, wb_err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The one CUPTI policy: WB_OK, or "call: CUPTI_ERROR_X (hint)" in e and rc. */
int wb_cupti_status(CUptiResult r, const char *call, int rc, wb_err *e);
#define WB_CUPTI(rc, e, fn, ...) wb_cupti_status(fn(__VA_ARGS__), #fn, (rc), (e))

/* dlopens libnvperf_host into s->nvperf before CUPTI looks for it. */
int wb_cupti_load_nvperf(wb_counters_session *s, int rc, wb_err *e);
/* Host object for chip (avail may be NULL without a GPU), the metrics of
 * wb_metrics[] the chip knows (a row's fallback names where it lacks the
 * first), those of `set` (counters.h) cut to WB_PASS_BUDGET passes, their
 * config image and s->passes;
 * s->plan says per row what was collected or why not. */
int wb_cupti_host_build(wb_counters_session *s, const char *chip, const uint8_t *avail, wb_counter_set set, int rc,
                        wb_err *e);
/* Counter-group rotation (wallbench profile --rotate): the rows full collects
 * (a session wb_cupti_host_build made) split into groups that each fit one
 * pass, greedily in wb_metrics[] order; the core set's rows in every group
 * (WB_GROUP_EVERY) where they fit one pass together, else packed first.
 * group[i] per row of wb_metrics[], -1 for a row full does not collect or that
 * needs more than one pass alone (with the core rows). Returns the number of
 * groups, or -1 (rc's class) with e. Offline: avail may be NULL. */
int wb_cupti_one_pass_groups(const wb_counters_session *full, const uint8_t *avail, int *group, int rc, wb_err *e);
/* s: a host object and config image of exactly the rows of full in group g
 * (s->names, s->column, s->n, s->passes, s->plan as full's). */
int wb_cupti_host_build_group(wb_counters_session *s, const wb_counters_session *full, const uint8_t *avail,
                              const int *group, int g, int rc, wb_err *e);

/* Member m of a batch is counted in the range named WB_RANGE_PREFIX "<m>". */
#define WB_RANGE_PREFIX "wb_point_"

/* The ranges of the decoded counter data image, member m's (by range name)
 * into vals[m][0, s->n); each member must be there once. */
int wb_cupti_evaluate(wb_counters_session *s, int ranges, double (*vals)[WB_METRICS_MAX], wb_err *e);
/* Releases the host object and the config image (not libnvperf_host). */
void wb_cupti_host_free(wb_counters_session *s);

#endif
