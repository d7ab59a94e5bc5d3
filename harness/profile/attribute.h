/* attribute.h - the sampled timeline (--sample) joined to the kernels: each
 * PM sample of a process's timing pass (raw S lines) becomes a /samples row,
 * and its counts are split among the process's timed launches by their
 * overlap with it, so that every launch (and through the aggregation every
 * kernel and NVTX range) gets sampled counters without a counter pass. Pure C. */
#ifndef WB_PROFILE_ATTRIBUTE_H
#define WB_PROFILE_ATTRIBUTE_H

#include "harness/base/profile.h"
#include "harness/profile/raw.h"

typedef struct wb_sample_stats {
    int64_t samples;      /* kept (the first of each process dropped: it spans the time since Start) */
    int64_t gaps;         /* samples that start over 1.5 intervals after the previous one ended */
    double gap_ms;        /* the time those gaps leave unsampled */
    int64_t attributed;   /* launches that got sampled counters */
    double idle_pct;      /* share of the sampled time in which no kernel of the process ran */
} wb_sample_stats;

/* Appends the samples of r to p->samples and splits their summed metrics (instructions, sectors)
 * among p's launches whose times overlap them (r->pid 0, the profiler's own sampling file
 * (sampler.c): the device's samples, every process's launches; else only process r->pid's),
 * in proportion to the overlap (a clock or a rate: the overlap-weighted mean). A launch with
 * counters of its own (a counter pass) keeps them; one without gets the split and the note
 * "sampled". WB_ERR only when out of memory. */
int wb_attribute_samples(wb_profile *p, const wb_raw *r, wb_sample_stats *st, wb_err *e);

#endif
