/* point.c - initialisation and naming of points and rows. */
#include "point.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void wb_point_init(wb_point *p) {
    memset(p, 0, sizeof *p);
    p->variant_id = -1;
    p->n = -1;
    p->selectivity = NAN;
    p->table_entries = -1;
    p->groups = -1;
    p->expr_ops = -1;
    p->vector_bytes = -1;
    p->columns = -1;
    p->load_factor = NAN;
    p->match_rate = NAN;
    p->launch.block = -1;
    p->launch.ilp = -1;
    p->launch.occupancy_target = NAN;
    p->launch.grid = -1;
    p->launch.smem_bytes = -1;
    p->launch.regs = -1;
    p->launch.blocks_per_sm = -1;
    p->launch.occupancy_theoretical = NAN;
    p->launch.waves = NAN;
    p->bytes_model = NAN;
    p->items = NAN;
}

void wb_row_init(wb_row *r) {
    memset(r, 0, sizeof *r);
    wb_point_init(&r->p);
    r->m.id = -1;
    r->m.time_median_ms = r->m.time_min_ms = r->m.time_max_ms = r->m.time_stddev_ms = NAN;
    r->m.gbps_model = NAN;
    r->m.verified = -1;
    r->m.sm_clock_mhz = NAN;
    r->m.timing_pass_ms = NAN;
    r->m.counter_pass_ms = NAN;
    for (int i = 0; i < WB_METRICS_MAX; i++) r->c.v[i] = NAN;
    for (int i = 0; i < WB_STALL_GROUPS; i++) r->c.stall[i] = NAN;
    r->c.l1_sectors = r->c.inst_per_sector = r->c.gips = r->c.roof_pct = NAN;
    r->c.launches = -1;
}

static size_t put(char *buf, size_t len, size_t at, const char *fmt, const char *key, double v, int is_int) {
    if (at >= len) return at;
    int w = is_int ? snprintf(buf + at, len - at, fmt, key, (long long)v) : snprintf(buf + at, len - at, fmt, key, v);
    return w > 0 ? at + (size_t)w : at;
}

const char *wb_point_name(const wb_point *p, char *buf, size_t len) {
    size_t at = 0;
    int w = snprintf(buf, len, "%s/%s", p->family, p->variant);
    at = w > 0 ? (size_t)w : 0;
    if (p->dtype[0]) at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "/%s", p->dtype);
    if (p->layout[0] && at < len) at += (size_t)snprintf(buf + at, len - at, "/%s", p->layout);
    at = put(buf, len, at, "/%s:%lld", "n", (double)p->n, 1);
    if (p->launch.ilp > 0) at = put(buf, len, at, "/%s:%lld", "ilp", p->launch.ilp, 1);
    if (p->launch.block > 0) at = put(buf, len, at, "/%s:%lld", "block", p->launch.block, 1);
    if (!isnan(p->launch.occupancy_target)) at = put(buf, len, at, "/%s:%g", "occ", p->launch.occupancy_target, 0);
    if (p->launch.sm_limit > 0) at = put(buf, len, at, "/%s:%lld", "sms", p->launch.sm_limit, 1);
    if (!isnan(p->selectivity)) at = put(buf, len, at, "/%s:%g", "sel", p->selectivity, 0);
    if (p->table_entries >= 0) at = put(buf, len, at, "/%s:%lld", "entries", (double)p->table_entries, 1);
    if (p->groups >= 0) at = put(buf, len, at, "/%s:%lld", "groups", (double)p->groups, 1);
    if (p->expr_ops >= 0) at = put(buf, len, at, "/%s:%lld", "ops", p->expr_ops, 1);
    if (p->vector_bytes >= 0) at = put(buf, len, at, "/%s:%lld", "vec", p->vector_bytes, 1);
    if (p->columns >= 0) at = put(buf, len, at, "/%s:%lld", "cols", p->columns, 1);
    if (!isnan(p->load_factor)) at = put(buf, len, at, "/%s:%g", "lf", p->load_factor, 0);
    if (!isnan(p->match_rate)) at = put(buf, len, at, "/%s:%g", "match", p->match_rate, 0);
    if (p->warm_cache) at = put(buf, len, at, "/%s:%lld", "warm", 1, 1);
    (void)at;
    return buf;
}
