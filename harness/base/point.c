/* point.c - initialisation and naming of points and rows. */
#include "harness/base/point.h"

#include <math.h>
#include <stdarg.h>
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
    r->m.samples_taken = r->m.throttled = -1;
    r->m.noise = NAN;
    r->m.clock_events = -1;
    for (int i = 0; i < WB_METRICS_MAX; i++) r->c.v[i] = NAN;
    for (int i = 0; i < WB_STALL_GROUPS; i++) r->c.stall[i] = NAN;
    r->c.l1_sectors = r->c.inst_per_sector = r->c.gips = r->c.roof_pct = NAN;
    r->c.launches = -1;
}

/* Appends to buf at *at; a truncated name stays NUL-terminated and later
 * appends become no-ops. */
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...) {
    if (*at + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    *at = *at + (size_t)w < len ? *at + (size_t)w : len - 1;
}

const char *wb_point_name(const wb_point *p, char *buf, size_t len) {
    size_t at = 0;
    if (!len) return buf;
    buf[0] = 0;
    append(buf, len, &at, "%s/%s", p->family, p->variant);
    if (p->dtype[0]) append(buf, len, &at, "/%s", p->dtype);
    if (p->layout[0]) append(buf, len, &at, "/%s", p->layout);
    append(buf, len, &at, "/n:%lld", (long long)p->n);
    if (p->launch.ilp > 0) append(buf, len, &at, "/ilp:%d", p->launch.ilp);
    if (p->launch.block > 0) append(buf, len, &at, "/block:%d", p->launch.block);
    if (!isnan(p->launch.occupancy_target)) append(buf, len, &at, "/occ:%g", p->launch.occupancy_target);
    if (p->launch.sm_limit > 0) append(buf, len, &at, "/sms:%d", p->launch.sm_limit);
    if (!isnan(p->selectivity)) append(buf, len, &at, "/sel:%g", p->selectivity);
    if (p->table_entries >= 0) append(buf, len, &at, "/entries:%lld", (long long)p->table_entries);
    if (p->groups >= 0) append(buf, len, &at, "/groups:%lld", (long long)p->groups);
    if (p->expr_ops >= 0) append(buf, len, &at, "/ops:%d", p->expr_ops);
    if (p->vector_bytes >= 0) append(buf, len, &at, "/vec:%d", p->vector_bytes);
    if (p->columns >= 0) append(buf, len, &at, "/cols:%d", p->columns);
    if (!isnan(p->load_factor)) append(buf, len, &at, "/lf:%g", p->load_factor);
    if (!isnan(p->match_rate)) append(buf, len, &at, "/match:%g", p->match_rate);
    if (p->warm_cache) append(buf, len, &at, "/warm:1");
    return buf;
}
