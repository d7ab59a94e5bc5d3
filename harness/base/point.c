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
#define WB_AXIS_DEFAULT(column, type, na, unit, desc, since) p->column = na;
    WB_POINT_AXES(WB_AXIS_DEFAULT)
#define WB_LAUNCH_DEFAULT(column, type, na, unit, desc, since) p->launch.column = na;
    WB_LAUNCH_AXES(WB_LAUNCH_DEFAULT)
    p->table_bytes = NAN;
    p->launch.grid = -1;
    p->launch.smem_bytes = -1;
    p->launch.regs = -1;
    p->launch.blocks_per_sm = -1;
    p->launch.occupancy_theoretical = NAN;
    p->launch.waves = NAN;
    p->launch.l2_fetch_bytes = 0; /* the plan's ask: the device's default */
    p->bytes_model = NAN;
    p->items = NAN;
    p->places = -1;
    p->lookups = NAN;
    p->fallback = -1;
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
    r->m.setup_ms = NAN;
    r->m.gather_greqs = r->m.gather_pct = NAN;
    r->m.samples_taken = r->m.throttled = -1;
    r->m.noise = NAN;
    r->m.clock_events = -1;
    r->m.gpu_temp_c = r->m.mem_temp_c = r->m.power_w = NAN;
    r->m.other_processes = -1;
    for (int i = 0; i < WB_METRICS_MAX; i++) r->c.v[i] = NAN;
    for (int i = 0; i < WB_STALL_GROUPS; i++) r->c.stall[i] = NAN;
    r->c.l1_sectors = r->c.inst_per_sector = r->c.gips = r->c.roof_pct = NAN;
    r->c.inst_per_l1_sector = r->c.inst_per_l2_sector = NAN;
    r->c.launches = -1;
}

#define WB_AXIS_IS_F64_I32 0
#define WB_AXIS_IS_F64_I64 0
#define WB_AXIS_IS_F64_F64 1

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
#define WB_AXIS_NAME(v, column, type, na)                                                        \
    if (!WB_AXIS_NA(v, na)) {                                                                    \
        if (WB_AXIS_IS_F64_##type) append(buf, len, &at, "/" #column ":%g", (double)(v));        \
        else append(buf, len, &at, "/" #column ":%lld", (long long)(v));                         \
    }
#define WB_LAUNCH_NAME(column, type, na, unit, desc, since) WB_AXIS_NAME(p->launch.column, column, type, na)
#define WB_POINT_NAME(column, type, na, unit, desc, since) WB_AXIS_NAME(p->column, column, type, na)
    WB_LAUNCH_AXES(WB_LAUNCH_NAME)
    WB_POINT_AXES(WB_POINT_NAME)
    return buf;
}
