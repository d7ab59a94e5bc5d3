/* schema.c - the /points column list (see schema.h). */
#include "harness/store/schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/metrics.h"

#define F(field) offsetof(wb_row, field), sizeof(((wb_row *)0)->field)
#define I32(name, field, unit, desc) {name, WB_COL_I32, F(field), unit, desc, ""}
#define I64(name, field, unit, desc) {name, WB_COL_I64, F(field), unit, desc, ""}
#define F64(name, field, unit, desc) {name, WB_COL_F64, F(field), unit, desc, ""}
#define STR(name, field, desc) {name, WB_COL_STR, F(field), "", desc, ""}
/* A launch axis: its unit and description are WB_LAUNCH_AXES's (axes.h),
 * filled in by build(). */
#define LAUNCH(type, name) type(#name, p.launch.name, NULL, NULL)


/* A column whose file value or name changed in schema 6 (wb_col_enc). */
#define RECODED(type, name, field, unit, desc, enc, before) {name, type, F(field), unit, desc, "", 0, enc, before}

static const wb_column fixed_before[] = {
    STR("name", name, "the point's name: key of --benchmark_filter, compare and check (family/variant/.../axis:value)"),
    I64("id", m.id, "", "row number; key of /samples"),
    STR("family", p.family, "operator family (micro/ registry name)"),
    STR("variant", p.variant, "way of writing the operator (kernels/ enum name)"),
    STR("dtype", p.dtype, "element type, where an axis"),
    STR("layout", p.layout, "data shape: uniform, zipf, chain, tree, ..."),
    I64("n", p.n, "elements", "input size"),
    LAUNCH(I32, ilp),
    LAUNCH(F64, occupancy_target),
    RECODED(WB_COL_F64, "occupancy_theoretical_pct", p.launch.occupancy_theoretical, "%",
            "occupancy API: resident warps as a share of the SM's maximum", WB_ENC_PCT, "occupancy_theoretical"),
    LAUNCH(I32, block),
    I32("grid", p.launch.grid, "blocks", "blocks launched"),
    I32("regs", p.launch.regs, "registers", "registers per thread"),
    I32("smem_bytes", p.launch.smem_bytes, "bytes", "dynamic shared memory per block, padding included"),
    I32("l2_fetch_bytes", p.launch.l2_fetch_bytes, "bytes",
        "the L2's DRAM fetch granularity the point ran with (cudaLimitMaxL2FetchGranularity, a per-context hint): "
        "the device default unless the family's plan asked for another; 0: not recorded (files before schema 7)"),
    I32("blocks_per_sm", p.launch.blocks_per_sm, "blocks", "resident blocks per SM"),
    F64("waves", p.launch.waves, "waves", "grid / (blocks_per_sm * SMs)"),
    /* Not LAUNCH(): the file's encoding (-1: all SMs) is not the field's (0). */
    RECODED(WB_COL_I32, "sm_limit", p.launch.sm_limit, "SMs", "grid restricted to this many SMs; -1: not restricted (all SMs)",
            WB_ENC_ZERO_NA, NULL),
#define AXIS_COLUMN(column, type, na, unit, desc, since) {#column, WB_COL_##type, F(p.column), unit, desc, "", since},
    WB_POINT_AXES(AXIS_COLUMN) /* harness/base/axes.h */
    F64("table_bytes", p.table_bytes, "bytes", "table read at random (gathers, probes)"),
    F64("lookups", p.lookups, "lookups", "random lookups into tables the point makes (ssb: dimension-map probes)"),
    I32("fallback", p.fallback, "bool", "1: the variant ran its fallback kernel (groupby shared: table too large for shared memory); -1 unrecorded"),
    STR("note", p.note, "what the point did that its axes do not say"),
    RECODED(WB_COL_I32, "reps", m.reps, "samples", "--reps R: the fixed sample count; -1: noise-driven (see samples_taken, stop)",
            WB_ENC_ZERO_NA, NULL),
    I32("repetition", m.repetition, "", "Google Benchmark repetition index"),
    F64("time_median_ms", m.time_median_ms, "ms", "median of the timed samples (CUDA events)"),
    F64("time_min_ms", m.time_min_ms, "ms", "fastest sample"),
    F64("time_max_ms", m.time_max_ms, "ms", "slowest sample"),
    F64("time_stddev_ms", m.time_stddev_ms, "ms", "sample standard deviation"),
    F64("bytes_model", p.bytes_model, "bytes", "bytes the algorithm must move"),
    F64("items", p.items, "items", "items processed"),
    F64("gbps_model", m.gbps_model, "GB/s", "bytes_model / time_median (1 GB = 1e9 B)"),
    I32("verified", m.verified, "", "1 matched the CPU reference, 0 mismatched, -1 not checked"),
    STR("status", m.status, "ok, skipped or failed"),
    STR("reason", m.reason, "why skipped or failed; warnings"),
    F64("sm_clock_mhz", m.sm_clock_mhz, "MHz", "SM clock (NVML) right after the timed samples"),
    I32("clock_low", m.clock_low, "bool", "1: clock below 90% of the run's typical clock"),
    I32("places", p.places, "places", "places the point's contended output rotated over, one per sample (micro/data.h); 0: none"),
    I32("samples_taken", m.samples_taken, "samples", "timed samples taken (throttled included); -1 in schema-1 files"),
    RECODED(WB_COL_F64, "noise_pct", m.noise, "%", "relative stddev of the kept samples when sampling stopped",
            WB_ENC_PCT, "noise"),
    STR("stop", m.stop, "what stopped sampling: noise, plateau, timeout, max_samples, fixed (--reps)"),
    I32("throttled_samples", m.throttled, "samples", "samples taken while throttled (SM clock < 90% of the run's median or a power/thermal reason), left out of the median"),
    I64("clock_events", m.clock_events, "bits", "OR of NVML clock-event (throttle) reasons seen during the samples; -1 unread"),
    F64("gpu_temp_c", m.gpu_temp_c, "degC", "GPU temperature (NVML) right after the timed samples"),
    F64("mem_temp_c", m.mem_temp_c, "degC", "HBM temperature (NVML field MEMORY_TEMP) right after the timed samples"),
    F64("power_w", m.power_w, "W", "board power draw (NVML, its own averaging window) right after the timed samples"),
    I32("other_processes", m.other_processes, "processes", "CUDA processes besides this run holding the GPU (NVML) right before or right after the timed samples, the larger count: > 0 the times may be contended; -1 not read"),
    F64("timing_pass_ms", m.timing_pass_ms, "ms", "host time of warm-up and timed samples"),
    F64("counter_pass_ms", m.counter_pass_ms, "ms", "host time of the counter pass (a batch's time split evenly over its points)"),
    F64("setup_ms", m.setup_ms, "ms", "host time of data creation (on the point that made the data, or led the counter batch it was made ahead for), plan and verification; what --shard-cost adds to the passes"),
    F64("gather_greqs", m.gather_greqs, "G req/s", "gather_word ceiling of this run at table_bytes (log-interpolated)"),
    F64("gather_pct", m.gather_pct, "%", "items/s as a share of gather_greqs: the random-access wall"),
    I32("launches", c.launches, "launches", "kernel launches in the point (counted range)"),
};

static const wb_column fixed_after[] = {
    F64("l1_sectors", c.l1_sectors, "sector", "global load + store sectors at L1"),
    F64("inst_per_sector", c.inst_per_sector, "inst/sector", "inst / (dram_sectors_read + dram_sectors_write)"),
    F64("inst_per_l1_sector", c.inst_per_l1_sector, "inst/sector", "inst / l1_sectors (hierarchical roofline, L1)"),
    F64("inst_per_l2_sector", c.inst_per_l2_sector, "inst/sector", "inst / l2_sectors (hierarchical roofline, L2)"),
    F64("gips", c.gips, "G inst/s", "warp instructions per second: inst / time_median_ms (the timed median)"),
    F64("roof_pct", c.roof_pct, "%", "achieved share of the measured roofline at this intensity"),
    STR("bound", c.bound, "memory or compute against the measured ridge"),
    STR("bound_l4", c.bound_l4, "memory or compute against the L4 ridge (44.0 inst/sector)"),
    STR("bound_gh200", c.bound_gh200, "memory or compute against the GH200 ridge (8.3 inst/sector)"),
    STR("counter_note", c.note, "why counters are missing, or empty"),
};

/* The fixed columns newer than schema 1, with the schema that added them: an
 * older file lacks them and reads as the fields' "not applicable" values.
 * An axis (axes.h) and a metric (metrics.c) carry their own version in
 * their row. 2: noise-driven sampling (issue 16); 3: the set-up time
 * --shard-cost was missing; 4: the places a contended output rotated over;
 * 5: the board's temperatures and power after the samples; 6: the point's
 * name (and the renames and conventions of wb_col_enc), other processes on
 * the GPU around the samples (contention), a family's facts its figure reads
 * (lookups, fallback), once parsed from the note; 7: the L2 fetch
 * granularity a point ran with (issue 31: the ssb family asks for 32 B). */
static const struct {
    const char *name;
    int since;
} added[] = {{"samples_taken", 2}, {"noise_pct", 2},        {"stop", 2},          {"throttled_samples", 2},
             {"clock_events", 2},  {"table_bytes", 2},   {"gather_greqs", 2},
             {"gather_pct", 2},    {"inst_per_l1_sector", 2}, {"inst_per_l2_sector", 2},
             {"setup_ms", 3},      {"places", 4},           {"gpu_temp_c", 5},    {"mem_temp_c", 5},
             {"power_w", 5},       {"name", 6},             {"other_processes", 6}, {"lookups", 6},
             {"fallback", 6},         {"l2_fetch_bytes", 7}};

#define NFIX(a) ((int)(sizeof a / sizeof a[0]))
static wb_column columns[NFIX(fixed_before) + WB_METRICS_MAX + WB_STALL_GROUPS + NFIX(fixed_after)];
static int ncolumns;

static const struct {
    const char *name, *unit, *desc;
    wb_col_type type;
} launch_axes[] = {
#define LAUNCH_AXIS(column, type, na, unit, desc, since) {#column, unit, desc, WB_COL_##type},
    WB_LAUNCH_AXES(LAUNCH_AXIS)
#undef LAUNCH_AXIS
};

static void build(void) {
    int k = 0;
    for (int i = 0; i < NFIX(fixed_before); i++) {
        columns[k] = fixed_before[i];
        for (int j = 0; !columns[k].unit && j < NFIX(launch_axes); j++)
            if (strcmp(columns[k].name, launch_axes[j].name) == 0 && columns[k].type == launch_axes[j].type)
                columns[k].unit = launch_axes[j].unit, columns[k].desc = launch_axes[j].desc;
        k++;
    }
    for (int i = 0; i < wb_n_metrics && i < WB_METRICS_MAX; i++) {
        wb_column c = {"", WB_COL_F64, offsetof(wb_row, c.v) + (size_t)i * sizeof(double), sizeof(double),
                       wb_metrics[i].unit, wb_metrics[i].desc, wb_metrics[i].ncu, wb_metrics[i].since};
        snprintf(c.name, sizeof c.name, "%s", wb_metrics[i].column);
        columns[k++] = c;
    }
    for (int i = 0; i < WB_STALL_GROUPS; i++) {
        wb_column c = {"", WB_COL_F64, offsetof(wb_row, c.stall) + (size_t)i * sizeof(double), sizeof(double),
                       "warp-cycles/issue", "stall group of seed 000 Fig 6 (sum of stall_raw_* reasons)", ""};
        snprintf(c.name, sizeof c.name, "stall_%s", wb_stall_groups[i]);
        columns[k++] = c;
    }
    for (int i = 0; i < NFIX(fixed_after); i++) columns[k++] = fixed_after[i];
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < NFIX(added); j++)
            if (strcmp(columns[i].name, added[j].name) == 0) columns[i].since = added[j].since;
        columns[i].count = columns[i].type == WB_COL_F64 && wb_unit_is_count(columns[i].unit);
    }
    ncolumns = k;
}

static char metric_source[WB_METRICS_MAX][200];

void wb_schema_metric_source(int i, const char *source) {
    if (!ncolumns) build();
    if (i < 0 || i >= wb_n_metrics || i >= WB_METRICS_MAX) return;
    wb_column *c = &columns[NFIX(fixed_before) + i];
    if (!source) {
        c->source = wb_metrics[i].ncu;
        return;
    }
    snprintf(metric_source[i], sizeof metric_source[i], "%s", source);
    c->source = metric_source[i];
}

const wb_column *wb_schema_columns(int *count) {
    if (!ncolumns) build();
    if (count) *count = ncolumns;
    return columns;
}

const wb_column *wb_schema_find(const char *name) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0) return &c[i];
    return NULL;
}

const char *wb_column_name_in(const wb_column *c, int version) {
    return version < WB_SCHEMA_RENAMED && c->name_before_6 ? c->name_before_6 : c->name;
}

static double field_get(const wb_row *r, const wb_column *c) {
    const char *base = (const char *)r + c->offset;
    switch (c->type) {
    case WB_COL_I32: { int v; memcpy(&v, base, sizeof v); return v; }
    case WB_COL_I64: { int64_t v; memcpy(&v, base, sizeof v); return (double)v; }
    case WB_COL_F64: { double v; memcpy(&v, base, sizeof v); return v; }
    default: return NAN;
    }
}

/* Only I32 and F64 fields carry an encoding (schema.c's RECODED rows). */
static void field_set(wb_row *r, const wb_column *c, double v) {
    char *base = (char *)r + c->offset;
    if (c->type == WB_COL_I32) {
        int x = (int)v;
        memcpy(base, &x, sizeof x);
    } else if (c->type == WB_COL_F64) {
        memcpy(base, &v, sizeof v);
    }
}

static double encode(const wb_column *c, double v) {
    switch (c->enc) {
    case WB_ENC_PCT: return v * 100.0;
    case WB_ENC_ZERO_NA: return v == 0 ? -1 : v;
    default: return v;
    }
}

static double decode(const wb_column *c, double v) {
    switch (c->enc) {
    case WB_ENC_PCT: return v / 100.0;
    case WB_ENC_ZERO_NA: return v == -1 ? 0 : v;
    default: return v;
    }
}

double wb_row_get(const wb_row *r, const wb_column *c) { return encode(c, field_get(r, c)); }

void wb_row_encode(wb_row *r) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (c[i].enc != WB_ENC_NONE) field_set(r, &c[i], encode(&c[i], field_get(r, &c[i])));
}

void wb_row_decode(wb_row *r) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (c[i].enc != WB_ENC_NONE) field_set(r, &c[i], decode(&c[i], field_get(r, &c[i])));
}

void wb_row_encode_counts(wb_row *r) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++) {
        if (!c[i].count) continue;
        double v = field_get(r, &c[i]);
        field_set(r, &c[i], v >= 0 && v < 9e18 ? round(v) : -1); /* NaN, inf or no count at all: -1 */
    }
}

void wb_row_decode_counts(wb_row *r) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (c[i].count && field_get(r, &c[i]) == -1) field_set(r, &c[i], NAN);
}

wb_col_type wb_column_file_type(const wb_column *c, int version) {
    return c->count && version >= WB_SCHEMA_COUNTS ? WB_COL_I64 : c->type;
}

const char *wb_row_str(const wb_row *r, const wb_column *c) {
    return c->type == WB_COL_STR ? (const char *)r + c->offset : NULL;
}
