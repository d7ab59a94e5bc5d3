/* rewrites.h - which of the suite's pairs (pairs.h) a profiled kernel looks
 * like the slower form of (issue 49 item 3, "beyond the seeds"): each pair of
 * pairs.tsv may carry a rule, a limiter and a few bounds on ratios of the
 * kernel's counters. The bounds sit between the slow and the fast form's own
 * profiles (results/h200-pairs/<pair>-slow.h5 and -fast.h5), so that each
 * slow form matches its pair's rule and the fast form does not
 * (tests/sh_rewrites.sh); what a rule names is a rewrite the suite measured
 * on its own kernels, never a prediction for the profiled one. */
#ifndef WB_REWRITES_H
#define WB_REWRITES_H

#include <stddef.h>

#include "harness/base/point.h"
#include "harness/tools/limiter.h"

/* The ratios a rule can bound (NaN where a counter is missing or a divisor 0). */
enum { WB_RW_ATOMICS_PER_INST, WB_RW_INST_PER_DRAM_SECTOR, WB_RW_L2_PER_DRAM_SECTOR, WB_RW_DRAM_WRITE_PER_READ, WB_RW_FEATURES };
const char *wb_rewrite_feature_name(int f);
/* The feature named name, -1 if none. */
int wb_rewrite_feature(const char *name);
/* The ratios of counters c into f[WB_RW_FEATURES]. */
void wb_rewrite_features(const wb_counters *c, double *f);

#define WB_RW_BOUNDS 3
typedef struct wb_rewrite_rule {
    int limiter;         /* the kernel's limiter class (limiter.h); -1: the pair has no rule */
    int nbounds;
    struct {
        int feature;     /* WB_RW_* */
        double min, max; /* min <= value < max (NaN: that side open) */
    } bound[WB_RW_BOUNDS];
} wb_rewrite_rule;

/* 1 when a kernel with limiter cls and ratios f matches r. */
int wb_rewrite_match(const wb_rewrite_rule *r, int cls, const double *f);
/* Parses "feature>=x,feature<x" into r's bounds; WB_ERR with a sentence in why. */
int wb_rewrite_parse(const char *text, wb_rewrite_rule *r, char *why, size_t len);
/* r's signature in words: "limiter atomics, atomics_per_inst >= 0.25". */
const char *wb_rewrite_signature(const wb_rewrite_rule *r, char *buf, size_t len);

#endif
