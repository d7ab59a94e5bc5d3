/* rewrites.c - the ratios a rewrite rule reads, its bounds and its matching (rewrites.h). */
#include "harness/tools/rewrites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/error.h"
#include "harness/base/metrics.h"

static const char *const feature_names[WB_RW_FEATURES] = {
    [WB_RW_ATOMICS_PER_INST] = "atomics_per_inst",         /* (L2 ATOM + RED requests) / warp inst */
    [WB_RW_INST_PER_DRAM_SECTOR] = "inst_per_dram_sector", /* warp inst / DRAM sectors read + written */
    [WB_RW_L2_PER_DRAM_SECTOR] = "l2_per_dram_sector",     /* L2 sectors / DRAM sectors */
    [WB_RW_DRAM_WRITE_PER_READ] = "dram_write_per_read",   /* DRAM sectors written / read */
};

const char *wb_rewrite_feature_name(int f) { return f >= 0 && f < WB_RW_FEATURES ? feature_names[f] : "?"; }

int wb_rewrite_feature(const char *name) {
    for (int f = 0; f < WB_RW_FEATURES; f++)
        if (!strcmp(name, feature_names[f])) return f;
    return -1;
}

static double counter(const wb_counters *c, const char *name) {
    int m = wb_metric_index(name);
    return m < 0 ? NAN : c->v[m];
}

static double ratio(double a, double b) { return isfinite(a) && isfinite(b) && b > 0 ? a / b : NAN; }

void wb_rewrite_features(const wb_counters *c, double *f) {
    double inst = counter(c, "inst"), rd = counter(c, "dram_sectors_read"), wr = counter(c, "dram_sectors_write");
    f[WB_RW_ATOMICS_PER_INST] = ratio(counter(c, "l2_atom_requests") + counter(c, "l2_red_requests"), inst);
    f[WB_RW_INST_PER_DRAM_SECTOR] = ratio(inst, rd + wr);
    f[WB_RW_L2_PER_DRAM_SECTOR] = ratio(counter(c, "l2_sectors"), rd + wr);
    f[WB_RW_DRAM_WRITE_PER_READ] = ratio(wr, rd);
}

int wb_rewrite_match(const wb_rewrite_rule *r, int cls, const double *f) {
    if (r->limiter < 0 || cls != r->limiter) return 0;
    for (int b = 0; b < r->nbounds; b++) {
        double v = f[r->bound[b].feature], lo = r->bound[b].min, hi = r->bound[b].max;
        if (!isfinite(v) || (!isnan(lo) && v < lo) || (!isnan(hi) && v >= hi)) return 0;
    }
    return 1;
}

int wb_rewrite_parse(const char *text, wb_rewrite_rule *r, char *why, size_t len) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    r->nbounds = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *op = strpbrk(t, "<>"), *end;
        int ge = op && op[0] == '>' && op[1] == '=';
        if (!op || (op[0] == '>' && !ge) || r->nbounds == WB_RW_BOUNDS)
            return snprintf(why, len, "a bound wants feature>=x or feature<x (at most %d), not '%s'", WB_RW_BOUNDS, t), WB_ERR;
        *op = '\0';
        int f = wb_rewrite_feature(t);
        double x = strtod(op + (ge ? 2 : 1), &end);
        if (f < 0) return snprintf(why, len, "no feature '%s' (atomics_per_inst, inst_per_dram_sector, ...)", t), WB_ERR;
        if (end == op + (ge ? 2 : 1) || *end || !isfinite(x)) return snprintf(why, len, "bound of %s: not a number", t), WB_ERR;
        r->bound[r->nbounds].feature = f;
        r->bound[r->nbounds].min = ge ? x : NAN;
        r->bound[r->nbounds++].max = ge ? NAN : x;
    }
    if (!r->nbounds) return snprintf(why, len, "a rule wants at least one bound"), WB_ERR;
    return WB_OK;
}

const char *wb_rewrite_signature(const wb_rewrite_rule *r, char *buf, size_t len) {
    size_t at = (size_t)snprintf(buf, len, "limiter %s", wb_limit_class_name(r->limiter));
    for (int b = 0; b < r->nbounds && at < len; b++) {
        int ge = !isnan(r->bound[b].min);
        at += (size_t)snprintf(buf + at, len - at, ", %s %s %g", wb_rewrite_feature_name(r->bound[b].feature), ge ? ">=" : "<",
                               ge ? r->bound[b].min : r->bound[b].max);
    }
    return buf;
}
